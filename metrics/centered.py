"""Pearson's r on every bootstrap sample, each side's part computed once.

:func:`~metrics.correlation.pearson_per_sample` centres both sides of each correlation
and sums their squares; without a NaN on either side (every point kept in every
column), those parts depend on one side alone, so the meta-evaluation's 60 system-level
correlations (15 metrics × 4 human figures) need them once per metric and per human
figure, not once per correlation. :func:`pearson_of_centered` then makes the same
operations on the same values as :func:`~metrics.correlation.pearson_per_sample`: the
same floats.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from metrics.stats import FloatArray


@dataclass(frozen=True, eq=False)
class Centered:
    """One side of the correlations (points × samples): each column's deviations from
    its mean, their sum of squares, and whether every value of the column is equal."""

    deviations: FloatArray
    squares: FloatArray
    constant: npt.NDArray[np.bool_]


def centered(values: FloatArray) -> Centered | None:
    """The side's parts, or None when it has a NaN (then a point is left out of a column
    as the other side's NaN say too: the parts depend on both sides)."""
    a = np.ascontiguousarray(values, dtype=np.float64)  # the sums' order of the copies
    if a.ndim != 2 or bool(np.isnan(a).any()):
        return None
    n = np.full(a.shape[1], a.shape[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        deviations = a - a.sum(axis=0) / n
    constant = a.max(axis=0) == a.min(axis=0)
    return Centered(deviations, (deviations * deviations).sum(axis=0), constant)


def pearson_of_centered(x: Centered, y: Centered) -> FloatArray:
    """:func:`~metrics.correlation.pearson_per_sample` of the two sides (the same
    shape): NaN where a column is constant or has fewer than two points."""
    if x.deviations.shape != y.deviations.shape:
        raise ValueError(f"sides of shapes {x.deviations.shape} and {y.deviations.shape}")
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (x.deviations * y.deviations).sum(axis=0) / np.sqrt(x.squares * y.squares)
    undefined = (x.deviations.shape[0] < 2) | x.constant | y.constant
    out: FloatArray = np.where(undefined, np.nan, np.clip(r, -1.0, 1.0))
    return out
