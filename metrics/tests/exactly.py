"""Equality to the last bit for results that hold NaN (a figure with no data), where
``==`` would say a NaN differs from itself: what a stored-and-read-back test asserts."""

from __future__ import annotations

import math

from metrics.significance import MetricSignificance


def same_float(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def assert_same_significance(x: MetricSignificance, y: MetricSignificance) -> None:
    """Every field of two bootstrap comparisons, p-values, intervals and sample scores
    included."""
    assert (x.metric, x.signature, x.n_samples, x.seed, x.alpha, x.n_common, x.min_common) == (
        y.metric,
        y.signature,
        y.n_samples,
        y.seed,
        y.alpha,
        y.n_common,
        y.min_common,
    )
    assert x.higher_is_better == y.higher_is_better
    assert all(
        same_float(p, q)
        for row_x, row_y in zip(x.p_values, y.p_values, strict=True)
        for p, q in zip(row_x, row_y, strict=True)
    )
    for f, g in zip(x.figures, y.figures, strict=True):
        assert (f.system, f.n, f.group) == (g.system, g.n, g.group)
        assert same_float(f.score, g.score)
        assert same_float(f.interval.low, g.interval.low)
        assert same_float(f.interval.high, g.interval.high)
        assert same_float(f.interval.mean, g.interval.mean)
    assert (x.samples is None) == (y.samples is None)
    if x.samples is not None and y.samples is not None:  # bit for bit, NaN included
        assert x.samples.shape == y.samples.shape
        assert x.samples.dtype == y.samples.dtype
        assert x.samples.tobytes() == y.samples.tobytes()
