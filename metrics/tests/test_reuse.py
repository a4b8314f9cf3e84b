"""Pairwise tests kept by their inputs (:mod:`metrics.reuse`): after any sequence of
changes (a judged segment added, a score changed, a judgment taken back, a system
added or gone), what is kept and what is computed anew together equal a full
computation to the bit, and only what a change touched is computed again."""

from __future__ import annotations

import math

import numpy as np
import pytest

from metrics import human
from metrics.ranksum import wmt_clusters
from metrics.reuse import PairMemo, _whole_product, compare_reusing, content_digest
from metrics.significance import Bootstrap, MetricSignificance

N = 120


def _same(a: MetricSignificance, b: MetricSignificance) -> None:
    """Equal to the bit, NaN equal to NaN (a pair with no common segment)."""
    assert repr(a) == repr(b)
    assert a.samples is not None
    assert b.samples is not None
    assert np.array_equal(a.samples, b.samples, equal_nan=True)


def _system(rng: np.random.Generator, share: float) -> tuple[np.ndarray, np.ndarray]:
    mask = rng.random(N) < share
    stats = np.column_stack([rng.integers(0, 6, N), rng.integers(1, 25, N)]).astype(float)
    return np.where(mask[:, None], stats, 0.0), mask


def _change(rng: np.random.Generator, stats: dict, masks: dict) -> None:
    """One random write: a judged segment added or rescored, one taken back, a system
    added or gone."""
    kind = rng.integers(5)
    names = sorted(stats)
    if kind == 3 or len(names) < 3:
        new = f"s{len(names) + rng.integers(10**6)}"
        stats[new], masks[new] = _system(rng, 0.5)
        return
    if kind == 4:
        gone = names[rng.integers(len(names))]
        del stats[gone], masks[gone]
        return
    name = names[rng.integers(len(names))]
    s, m = stats[name].copy(), masks[name].copy()
    t = rng.integers(N)
    if kind == 2:  # taken back
        m[t], s[t] = False, 0.0
    else:  # added, or its score changed
        m[t], s[t] = True, [rng.integers(0, 6), rng.integers(1, 25)]
    stats[name], masks[name] = s, m


def _compare(
    b: Bootstrap, stats: dict, masks: dict, memo: PairMemo | None, metric: str = "awer"
) -> MetricSignificance:
    """``compare`` itself (``memo`` None), or with the memo."""
    score = human.HUMAN_METRICS[metric].score_from_stats
    if memo is None:
        return b.compare(stats, score, higher_is_better=False, masks=masks, metric=metric)
    found = compare_reusing(
        b, stats, score, higher_is_better=False, masks=masks, metric=metric, memo=memo
    )
    assert found is not None
    return found


def _systems(rng: np.random.Generator, count: int, share: float) -> tuple[dict, dict]:
    stats, masks = {}, {}
    for i in range(count):
        stats[f"s{i}"], masks[f"s{i}"] = _system(rng, share + 0.05 * i)
    return stats, masks


@pytest.mark.parametrize("seed", range(6))
def test_kept_and_computed_equal_a_full_computation(seed: int) -> None:
    rng = np.random.default_rng(seed)
    b = Bootstrap(N, 150, seed)
    stats, masks = _systems(rng, 6, 0.3)
    memo = PairMemo()
    _same(_compare(b, stats, masks, memo), _compare(b, stats, masks, None))
    for _ in range(25):
        _change(rng, stats, masks)
        memo = PairMemo(memo.used)
        _same(_compare(b, stats, masks, memo), _compare(b, stats, masks, None))
        # and what a memo of nothing computes: the same
        _same(_compare(b, stats, masks, PairMemo()), _compare(b, stats, masks, None))


def test_one_change_computes_only_its_systems_pairs() -> None:
    rng = np.random.default_rng(0)
    b = Bootstrap(N, 100, 1)
    stats, masks = _systems(rng, 8, 0.4)
    first = PairMemo()
    _compare(b, stats, masks, first)
    assert first.computed == 2 * 8 + 28  # every system's figure and sums, every pair
    masks["s3"] = masks["s3"].copy()
    stats["s3"] = stats["s3"].copy()
    masks["s3"][5], stats["s3"][5] = True, [1.0, 9.0]
    again = PairMemo(first.used)
    _same(_compare(b, stats, masks, again), _compare(b, stats, masks, None))
    assert again.computed == 2 + 7  # s3's own figure and sums, its seven pairs
    assert len(again.used) == 2 * 8 + 28  # s3's old ones dropped


def test_the_same_segments_for_every_system_too() -> None:
    rng = np.random.default_rng(3)
    b = Bootstrap(N, 100, 2)
    shared = rng.random(N) < 0.7
    stats = {f"s{i}": np.where(shared[:, None], _system(rng, 1.0)[0], 0.0) for i in range(5)}
    masks = {name: shared.copy() for name in stats}
    _same(_compare(b, stats, masks, PairMemo()), _compare(b, stats, masks, None))


def test_tenths_are_summed_exactly() -> None:
    """SSER's statistics are tenths: summed as whole numbers of tenths, exact in any
    order, so kept and computed agree to the bit; with ``compare``'s float sums, to
    rounding."""
    rng = np.random.default_rng(4)
    b = Bootstrap(N, 100, 2)
    counts, masks = _systems(rng, 5, 0.4)

    def tenths() -> dict:
        return {n: np.column_stack([c[:, 0] / 10, masks[n]]) for n, c in counts.items()}

    memo = PairMemo()
    kept = _compare(b, tenths(), masks, memo, "sser")
    for _ in range(10):
        _change(rng, counts, masks)
        memo = PairMemo(memo.used)
        kept = _compare(b, tenths(), masks, memo, "sser")
        _same(kept, _compare(b, tenths(), masks, PairMemo(), "sser"))
    stats = tenths()
    full = _compare(b, stats, masks, None, "sser")
    assert [f.group for f in kept.figures] == [f.group for f in full.figures]
    np.testing.assert_allclose(kept.p_values, full.p_values, rtol=1e-12)
    np.testing.assert_allclose(
        [f.score for f in kept.figures], [f.score for f in full.figures], rtol=1e-12
    )


def test_other_fractions_are_compared_in_full() -> None:
    rng = np.random.default_rng(4)
    stats, masks = _systems(rng, 4, 0.5)
    stats = {name: s / 3.0 for name, s in stats.items()}
    memo = PairMemo()
    score = human.HUMAN_METRICS["awer"].score_from_stats
    found = compare_reusing(
        Bootstrap(N, 100, 2),
        stats,
        score,
        higher_is_better=False,
        masks=masks,
        metric="awer",
        memo=memo,
    )
    assert found is None
    assert memo.computed == 0


def test_wmt_clusters_with_kept_pairs() -> None:
    rng = np.random.default_rng(5)
    per = {
        f"s{i}": np.where(rng.random(N) < 0.6, rng.normal(i / 4, 1, N), math.nan) for i in range(6)
    }
    memo = PairMemo()
    assert wmt_clusters(per, higher_is_better=True, memo=memo) == wmt_clusters(
        per, higher_is_better=True
    )
    assert memo.computed == 15
    per["s2"] = per["s2"].copy()
    per["s2"][7] = 3.0
    again = PairMemo(memo.used)
    assert wmt_clusters(per, higher_is_better=True, memo=again) == wmt_clusters(
        per, higher_is_better=True
    )
    assert again.computed == 5
    # the other direction of the test is another test: nothing of it kept
    other = PairMemo(again.used)
    wmt_clusters(per, higher_is_better=False, memo=other)
    assert other.computed == 15


def test_memo_keeps_what_was_used() -> None:
    memo = PairMemo({b"a": 1, b"b": 2})
    assert memo.get(b"a", lambda: 9) == 1
    assert memo.get(b"c", lambda: 3) == 3
    assert memo.used == {b"a": 1, b"c": 3}
    assert memo.computed == 1
    assert content_digest("ab", "c") != content_digest("a", "bc")


@pytest.mark.parametrize("largest", [3.0, 2.0**23])
def test_the_resampled_sums_of_whole_numbers_are_those_of_float64(largest: float) -> None:
    """A changed system's sums on every sample are taken in float32 where every sum is a
    whole number below 2²⁴ (exact in any order), else in float64: the same numbers as
    float64's product either way, to the bit (the larger statistics here pass the bound)."""
    b = Bootstrap(N, n_samples=200, seed=4)
    rng = np.random.default_rng(4)
    right = np.column_stack(
        [rng.integers(0, 40, N), rng.integers(-5, 5, N), rng.random(N) < 0.5]
    ).astype(np.float64)
    right[0, 0] = largest
    found = _whole_product(b, right)
    assert found.dtype == np.float64
    assert found.tobytes() == (b.counts @ right).tobytes()
    assert _whole_product(b, right).tobytes() == found.tobytes()  # the float32 counts kept
