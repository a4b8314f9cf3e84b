"""What every paired test of :mod:`metrics.significance` and :mod:`metrics.randomization`
shares: sacreBLEU's defaults, the checks of their arguments, the type of a metric's
scoring function, and the p-value rule (sacreBLEU's, with the deviation for identical
systems that :mod:`metrics.significance` documents).

Its own module so that the bootstrap and approximate randomization share these without
importing each other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from metrics.stats import FloatArray

BoolArray = npt.NDArray[np.bool_]
#: A metric's ``score_from_stats``: summed statistics (..., k) → scores (...).
ScoreFn = Callable[[FloatArray], Any]

#: sacreBLEU's defaults: 1,000 resamples (``PairedTest._DEFAULT_SAMPLES["bs"]``) and
#: ``SACREBLEU_SEED=12345``.
DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 12345


def check_segments(n_segments: int) -> None:
    """Refuse a number of segments that is not a positive integer."""
    if isinstance(n_segments, bool) or not isinstance(n_segments, int) or n_segments < 1:
        raise ValueError(f"n_segments={n_segments!r} must be a positive integer")


def check_samples_and_seed(n_samples: int, seed: int) -> None:
    """Refuse a number of samples (or trials) that is not a positive integer, and a seed
    that is not a non-negative one: the seed is recorded in the test's signature."""
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
        raise ValueError(f"n_samples={n_samples!r} must be a positive integer")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed={seed!r} must be a non-negative integer (it is recorded)")


def scores_of(fn: ScoreFn, stats: FloatArray) -> FloatArray:
    """``fn``'s scores of summed statistics, as float64 (a metric may return a list)."""
    return np.asarray(fn(stats), dtype=np.float64)


def p_values_from_samples(
    sample_diffs: FloatArray, real_diffs: FloatArray, *, centred: bool = True
) -> FloatArray:
    """sacreBLEU's p-value of a paired test over the last axis (see
    :mod:`metrics.significance`'s doc).

    ``sample_diffs`` (..., B) are the absolute per-sample differences, ``real_diffs``
    (...) the absolute real ones; ``p = (#{b : s_b > δ} + 1) / (B + 1)`` with ``s_b`` the
    sample differences minus their mean (``centred``: the paired bootstrap) or as they
    are (``centred=False``: approximate randomization, whose shuffled differences already
    follow the null hypothesis). All-zero sample differences give 1 (the deviation
    documented there); a NaN real difference gives NaN.
    """
    diffs = np.asarray(sample_diffs, dtype=np.float64)
    real = np.asarray(real_diffs, dtype=np.float64)
    n_samples = diffs.shape[-1]
    statistics = diffs - diffs.mean(axis=-1, keepdims=True) if centred else diffs
    count = (statistics > real[..., None]).sum(axis=-1)
    p = (count + 1.0) / (n_samples + 1.0)
    p = np.where((diffs == 0).all(axis=-1), 1.0, p)
    return cast(FloatArray, np.where(np.isnan(real), np.nan, p))
