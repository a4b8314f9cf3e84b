"""Kendall's τ-b brought up to date (:mod:`metrics.tau_update`): the counts after points
are removed, added and moved equal the counts of the new points counted afresh, so the
coefficient is the same float; and both equal scipy's τ-b."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from scipy import stats

from metrics import correlation
from metrics.correlation import (
    TauCounts,
    kendall_tau_b,
    kendall_tau_b_against,
    tau_counts,
    tau_counts_against,
)
from metrics.tau_update import cross_tau_counts, updated_tau_counts

nan = math.nan


def _points(
    rng: np.random.Generator, metrics: int, n: int, levels: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """metrics × n x values and n y values with many ties and a few NaN on either side."""
    y = rng.integers(0, levels, n).astype(float)
    xs = np.stack([y + rng.integers(0, levels, n) for _ in range(metrics)]).astype(float)
    y[rng.random(n) < 0.05] = nan
    xs[rng.random(xs.shape) < 0.05] = nan
    return xs, y


def _same_float(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("seed", range(6))
def test_counts_give_scipys_tau_b(seed: int) -> None:
    rng = np.random.default_rng(seed)
    xs, y = _points(rng, 3, int(rng.integers(2, 200)), int(rng.integers(2, 12)))
    for x, counts in zip(xs, tau_counts_against(xs, y), strict=True):
        keep = ~(np.isnan(x) | np.isnan(y))
        want = stats.kendalltau(x[keep], y[keep], variant="b").statistic
        assert counts == tau_counts(x, y)
        assert counts.n == int(keep.sum())
        assert counts.coefficient().value == pytest.approx(want, abs=1e-12)
        assert _same_float(counts.coefficient().value, kendall_tau_b(x, y).value)


@pytest.mark.parametrize("seed", range(12))
def test_updated_counts_equal_the_counts_of_the_new_points(seed: int) -> None:
    """Random points moved (a changed score: y, or also x), removed and added: the
    updated counts are the new points' own, and their τ-b the same float as counting
    afresh — :func:`kendall_tau_b_against`'s, and scipy's to rounding."""
    rng = np.random.default_rng(100 + seed)
    n, levels, metrics = int(rng.integers(5, 400)), int(rng.integers(2, 9)), 4
    xs, y = _points(rng, metrics, n, levels)
    counts = tau_counts_against(xs, y)
    for _ in range(5):
        changed = rng.random(n) < rng.choice([0.0, 0.01, 0.05, 0.3])
        changed[rng.integers(0, n)] = True
        gone = changed & (rng.random(n) < 0.3)  # removed, not replaced
        new_xs, new_y = _points(rng, metrics, int((changed & ~gone).sum()), levels)
        new_xs[:, : new_xs.shape[1] // 2] = xs[:, changed & ~gone][:, : new_xs.shape[1] // 2]
        more_xs, more_y = _points(rng, metrics, int(rng.integers(0, 4)), levels)  # new points
        added_xs = np.concatenate([new_xs, more_xs], axis=1)
        added_y = np.concatenate([new_y, more_y])
        kept = ~changed
        counts = updated_tau_counts(
            counts,
            (xs[:, kept], y[kept]),
            (xs[:, changed], y[changed]),
            (added_xs, added_y),
        )
        xs = np.concatenate([xs[:, kept], added_xs], axis=1)
        y = np.concatenate([y[kept], added_y])
        n = y.size
        assert counts == tau_counts_against(xs, y)
        for x, got, full in zip(xs, counts, kendall_tau_b_against(xs, y), strict=True):
            assert got.coefficient() == full or _same_float(got.coefficient().value, full.value)
            keep = ~(np.isnan(x) | np.isnan(y))
            if keep.sum() >= 2 and not math.isnan(full.value):
                want = stats.kendalltau(x[keep], y[keep], variant="b").statistic
                assert got.coefficient().value == pytest.approx(want, abs=1e-12)


def test_cross_counts_by_hand() -> None:
    """One changed point (x 2, y 1) against three kept ones: (1, 0) concordant, (2, 5)
    tied in x, (3, 1) tied in y, a NaN in no pair."""
    got = cross_tau_counts(
        np.array([[2.0]]),
        np.array([1.0]),
        np.array([[1.0, 2.0, 3.0, 0.0]]),
        np.array([0.0, 5.0, 1.0, nan]),
    )
    assert got == [TauCounts(0, tied_x=1, tied_y=1, tied_both=0, discordant=0)]
    assert (
        cross_tau_counts(np.array([[2.0]]), np.array([2.0]), np.array([[2.0]]), np.array([2.0]))[
            0
        ].tied_both
        == 1
    )


def test_removing_every_point_leaves_nothing() -> None:
    xs, y = _points(np.random.default_rng(3), 2, 30, 4)
    counts = updated_tau_counts(
        tau_counts_against(xs, y), (xs[:, :0], y[:0]), (xs, y), (xs[:, :0], y[:0])
    )
    assert counts == [TauCounts(0, 0, 0, 0, 0)] * 2
    assert math.isnan(counts[0].coefficient().value)


def test_cross_counts_refuse_unpaired_shapes() -> None:
    with pytest.raises(ValueError, match="one per point"):
        cross_tau_counts(np.zeros((2, 3)), np.zeros(2), np.zeros((2, 4)), np.zeros(4))
    with pytest.raises(ValueError, match="metrics, points"):
        cross_tau_counts(np.zeros((2, 3)), np.zeros(3), np.zeros((3, 4)), np.zeros(4))


@pytest.mark.parametrize("seed", range(4))
def test_few_points_counted_pair_by_pair_as_by_sorting(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Up to 64 points the counts compare every pair; the sort and merge gives the same."""
    xs, y = _points(np.random.default_rng(seed), 3, 60, 3)
    by_pairs = tau_counts_against(xs, y)
    monkeypatch.setattr(correlation, "_FEW_POINTS", 1)
    assert tau_counts_against(xs, y) == by_pairs
