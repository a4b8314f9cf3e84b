"""Sums over the resampled sentences, shared by the annotator statistics
(:mod:`metrics.judge_aware`, :mod:`metrics.annotator_effects`): a sum per id, a sum per
group of columns, and the blocks of samples taken at once.

Its own module so that the two statistics share these without importing each other.
"""

from __future__ import annotations

import numpy as np

from metrics.ratings import IntArray
from metrics.stats import FloatArray


def sums(ids: IntArray, weights: FloatArray, size: int) -> FloatArray:
    """Σ of ``weights`` per id 0 … ``size`` − 1 (``np.bincount``, typed as the floats it gives)."""
    return np.asarray(np.bincount(ids, weights=weights, minlength=size), dtype=np.float64)


def group_sums(values: FloatArray, starts: IntArray) -> FloatArray:
    """Σ of ``values`` (samples × columns, the columns in groups) over each group's
    columns (``starts``: each group's first column, then the number of columns):
    samples × groups, 0 for a group without a column."""
    out = np.zeros((values.shape[0], len(starts) - 1))
    some = np.flatnonzero(starts[1:] > starts[:-1])
    if some.size:
        out[:, some] = np.add.reduceat(values, starts[some], axis=1)
    return out


#: How many numbers a block of samples × rows may hold (8 bytes each): the samples are
#: taken in blocks, so that a corpus of many judgments never holds every sample's rows
#: at once.
BLOCK = 1 << 21


def blocks(samples: int, columns: int) -> list[slice]:
    """The blocks of samples taken at once (:data:`BLOCK`)."""
    step = max(1, BLOCK // max(columns, 1))
    return [slice(start, start + step) for start in range(0, samples, step)]
