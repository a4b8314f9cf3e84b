"""Kendall's τ-b brought up to date when a few points change, not counted afresh.

The τ-b of n points is a function of integer counts over their pairs
(:class:`~metrics.correlation.TauCounts`): the pairs tied in x, in y, in both, and the
discordant ones. Every count is a sum over pairs, so when the points R are replaced by
the points A (a judgment's score changed: its candidate's point moves; a new judged
candidate: a point comes; a judgment excluded: one goes), with S the points kept,

    counts(S ∪ A) = counts(S ∪ R) − cross(R, S) − counts(R) + cross(A, S) + counts(A)

where ``cross(P, S)`` counts the pairs of one point of P and one of S. Each cross count
compares every changed point with every kept one at once (numpy, O(|R ∪ A| · n)), in
place of the O(n log n) sort and merge of :func:`~metrics.correlation.tau_counts`; for
several x (the meta-evaluation's metrics) against one y, each changed point's y is
compared once. The counts are integers, so the result is exactly the counts of the new
points, and their coefficient the same float as counting afresh.

A point with a NaN on either side is in no pair (as :func:`~metrics.correlation.
kendall_tau_b` drops it), here as in the full count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from metrics.correlation import TauCounts, tau_counts_against
from metrics.stats import FloatArray


def cross_tau_counts(
    xs_changed: FloatArray, y_changed: FloatArray, xs_kept: FloatArray, y_kept: FloatArray
) -> list[TauCounts]:
    """Per row of x (metrics × points), the counts of the pairs of one changed point and
    one kept point (``n`` 0: no point is added). ``xs_changed`` is metrics × changed
    points, ``xs_kept`` metrics × kept points; NaN: the point is in no pair.

    One changed point and metric at a time, in comparisons of a row with one number
    (bytes, not the differences' floats; a row against a column of numbers broadcasts
    several times slower): a pair is tied in x where the kept x equals the changed one,
    discordant where it is below in x and above in y or the reverse."""
    xc, yc = np.asarray(xs_changed, dtype=np.float64), np.asarray(y_changed, dtype=np.float64)
    xk = np.ascontiguousarray(xs_kept, dtype=np.float64)  # each row read at a time
    yk = np.asarray(y_kept, dtype=np.float64)
    if xc.ndim != 2 or xk.ndim != 2 or xc.shape[0] != xk.shape[0]:
        raise ValueError(f"x of shapes {xc.shape} and {xk.shape}: expected (metrics, points)")
    if yc.shape != xc.shape[1:] or yk.shape != xk.shape[1:]:
        raise ValueError(f"y of shapes {yc.shape} and {yk.shape}: one per point of x")
    totals = np.zeros((xc.shape[0], 4), dtype=np.int64)
    kept = ~np.isnan(xk) & ~np.isnan(yk)  # metrics × kept: the kept points in pairs
    for a, b in zip(xc.T.tolist(), yc.tolist(), strict=True):
        if math.isnan(b):
            continue
        below_y, above_y = yk < b, yk > b  # a NaN is neither: never counted
        tied_y = yk == b
        for row, (x, in_pair, at) in enumerate(zip(xk, kept, a, strict=True)):
            if math.isnan(at):
                continue
            tied_x, paired_y = in_pair & (x == at), in_pair & tied_y
            totals[row] += (
                np.count_nonzero(tied_x),
                np.count_nonzero(paired_y),
                np.count_nonzero(tied_x & tied_y),
                np.count_nonzero((x < at) & above_y) + np.count_nonzero((x > at) & below_y),
            )
    return [TauCounts(0, *map(int, row)) for row in totals]


def updated_tau_counts(
    counts: Sequence[TauCounts],
    kept: tuple[FloatArray, FloatArray],
    removed: tuple[FloatArray, FloatArray],
    added: tuple[FloatArray, FloatArray],
) -> list[TauCounts]:
    """Per row of x, the counts of the points ``kept`` and ``added`` from ``counts``,
    those of ``kept`` and ``removed`` (module doc). Each of the three is (xs, y): metrics
    × points and one y per point."""
    xs_kept, y_kept = kept
    out = list(counts)
    for (xs, y), sign in ((removed, -1), (added, 1)):
        if np.asarray(y).size == 0:
            continue
        across = cross_tau_counts(xs, y, xs_kept, y_kept)
        within = tau_counts_against(np.asarray(xs, dtype=np.float64), y)  # y ranked once
        out = [
            c + a + w if sign > 0 else c - a - w
            for c, a, w in zip(out, across, within, strict=True)
        ]
    return out
