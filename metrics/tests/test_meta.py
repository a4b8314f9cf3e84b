"""Pairwise accuracy and soft pairwise accuracy (``metrics/meta.py``): small examples
worked by hand, and every figure against a plain reimplementation (loops over pairs and
samples, straight from the definitions in the module doc)."""

from __future__ import annotations

import math
import pickle
from itertools import combinations

import numpy as np
import pytest

from metrics import correlation
from metrics.meta import (
    KeptSide,
    PairwiseSide,
    in_better_direction,
    kendall_tau_b_of_sides,
    kendall_tau_b_per_sample,
    pair_indices,
    pairwise_accuracy,
    pairwise_accuracy_per_sample,
    pairwise_side,
    pairwise_side_reusing,
    soft_pairwise_accuracy,
    soft_pairwise_accuracy_per_sample,
)

nan = math.nan


# ------------------------------------------------------------------ by hand


def test_pairwise_accuracy_reads_each_figure_in_its_own_better_direction() -> None:
    """BLEU 30, 20, 10 (higher is better) against an error rate 5, 10, 8 (lower is
    better): the humans put system 0 first, then 2, then 1. Pairs (0, 1) and (0, 2)
    agree, (1, 2) does not: 2 of 3."""
    metric = pairwise_side([30, 20, 10], higher_is_better=True)
    human = pairwise_side([5, 10, 8], higher_is_better=False)

    got = pairwise_accuracy(metric, human)

    assert got.value == pytest.approx(2 / 3, abs=1e-15)
    assert (got.name, got.n) == ("pairwise_accuracy", 3)


@pytest.mark.parametrize(
    "metric, human, accuracy",
    [
        # (0, 1): tie vs lower — no; (0, 2): both lower — yes; (1, 2): lower vs tie — no
        ([1, 1, 2], [1, 2, 2], 1 / 3),
        ([1, 1], [3, 3], 1.0),  # a tie agrees with a tie
        ([1, 2], [3, 3], 0.0),  # and with nothing else
        ([1, 2, nan, 3], [1, 2, 3, 4], 1.0),  # a system without a figure is left out
        ([1], [1], nan),  # one system: no pair
    ],
)
def test_ties_and_missing_figures(metric: list[float], human: list[float], accuracy: float) -> None:
    got = pairwise_accuracy(pairwise_side(metric), pairwise_side(human))
    if math.isnan(accuracy):
        assert math.isnan(got.value)
    else:
        assert got.value == pytest.approx(accuracy, abs=1e-15)
    assert got.n == sum(1 for m, h in zip(metric, human, strict=True) if m == m and h == h)


def test_soft_pairwise_accuracy_by_hand() -> None:
    """Two systems, four samples.

    Metric: scores 2, 0; samples 3, 1, 2, 2 and 0, 0, 1, −1: differences 3, 1, 1, 3
    (mean 2), centred 1, −1, −1, 1; none is ≥ the real 2: p = 0. On each sample the
    centred ones ≥ that sample's difference: 0, 2, 2, 0 of 4.
    Humans: scores 1, 0.5; samples 1, 2, 0, 1 and 0.5 four times: differences 0.5,
    1.5, −0.5, 0.5 (mean 0.5), centred 0, 1, −1, 0; one is ≥ 0.5: p = 1/4. Per sample:
    1, 0, 3, 1 of 4.
    SPA = 1 − |1/4 − 0| = 3/4; per sample 1 − |(1, 0, 3, 1)/4 − (0, 2, 2, 0)/4|.
    """
    metric = pairwise_side([2.0, 0.0], np.array([[3.0, 1, 2, 2], [0, 0, 1, -1]]))
    human = pairwise_side([1.0, 0.5], np.array([[1.0, 2, 0, 1], [0.5, 0.5, 0.5, 0.5]]))

    assert metric.p.tolist() == [0.0]
    assert human.p.tolist() == [0.25]
    assert soft_pairwise_accuracy(metric, human).value == 0.75
    assert soft_pairwise_accuracy(metric, human).n == 2
    assert metric.sample_p is not None
    assert human.sample_p is not None
    assert metric.sample_p.tolist() == [[0.0, 0.5, 0.5, 0.0]]
    assert human.sample_p.tolist() == [[0.25, 0.0, 0.75, 0.25]]
    per_sample = soft_pairwise_accuracy_per_sample(metric, human)
    assert per_sample.tolist() == [0.75, 0.5, 0.75, 0.75]


def test_a_clear_difference_has_p_zero_one_way_and_one_the_other() -> None:
    """Every sample difference beyond every centred one: p = 0 that the better beats
    the worse, on the corpus and on every sample; 1 the other way round."""
    samples = np.array([[10.0, 11, 12, 10], [0, 1, 0, 1]])
    better_first = pairwise_side([11.0, 0.5], samples)
    worse_first = pairwise_side([0.5, 11.0], samples[::-1])

    assert better_first.p.tolist() == [0.0]
    assert worse_first.p.tolist() == [1.0]
    assert better_first.sample_p is not None
    assert worse_first.sample_p is not None
    assert better_first.sample_p.tolist() == [[0.0] * 4]
    assert worse_first.sample_p.tolist() == [[1.0] * 4]


def test_identical_systems_get_p_one_as_in_a_permutation_test() -> None:
    same = np.array([[1.0, 2, 3], [1.0, 2, 3]])
    side = pairwise_side([2.0, 2.0], same)

    assert side.p.tolist() == [1.0]
    assert side.signs.tolist() == [0.0]
    assert soft_pairwise_accuracy(side, side).value == 1.0


def test_an_error_rate_is_turned_exactly() -> None:
    assert in_better_direction([0.1, 2.5], higher_is_better=False).tolist() == [-0.1, -2.5]
    lower = pairwise_side([5.0, 10.0], np.array([[4.0, 6], [9.0, 11]]), higher_is_better=False)
    higher = pairwise_side([-5.0, -10.0], np.array([[-4.0, -6], [-9.0, -11]]))
    assert lower.p.tolist() == higher.p.tolist()
    assert lower.signs.tolist() == higher.signs.tolist() == [1.0]


def test_a_side_among_some_systems_is_that_of_those_systems() -> None:
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 5, 6).astype(float)
    samples = rng.integers(0, 5, (6, 40)).astype(float)
    whole = pairwise_side(scores, samples)
    kept = [0, 2, 3, 5]

    part = whole.among(kept)
    alone = pairwise_side(scores[kept], samples[kept])

    for name in ("signs", "p", "sample_signs", "sample_p"):
        np.testing.assert_array_equal(getattr(part, name), getattr(alone, name))
    assert part.n == 4


_SIDE_ARRAYS = (
    "present",
    "signs",
    "p",
    "sample_signs",
    "sample_at_least",
    "sample_of",
    "sample_defined",
)


def _assert_same_side(got: PairwiseSide, direct: PairwiseSide) -> None:
    """The same arrays, bit for bit (NaN where NaN), of the same types."""
    assert (got.n, got.higher_is_better) == (direct.n, direct.higher_is_better)
    for name in _SIDE_ARRAYS:
        a, b = getattr(got, name), getattr(direct, name)
        assert (a is None) == (b is None), name
        if a is not None:
            assert a.dtype == b.dtype, name
            assert a.tobytes() == b.tobytes(), name


@pytest.mark.parametrize("seed", range(8))
def test_a_side_brought_up_to_date_is_the_side_computed_afresh(seed: int) -> None:
    """One more judgment changes one system's figure and samples (or a judge's z, many
    systems'): the side kept from before, brought up to date, is the side computed from
    the new figures, to the bit; fractions summed, samples with and without a figure
    missing, both directions, another side's state given (its systems' samples not
    ours)."""
    rng = np.random.default_rng(seed)
    n, width = int(rng.integers(3, 9)), int(rng.integers(5, 60))
    scores = rng.normal(size=n) / 3
    samples = scores[:, None] + rng.normal(size=(n, width)) / 7
    if seed % 2:
        samples[rng.random((n, width)) < 0.1] = nan
    higher = bool(seed % 4 < 2)
    kept = pairwise_side_reusing(scores, samples, None, higher_is_better=higher)
    _assert_same_side(kept.side, pairwise_side(scores, samples, higher_is_better=higher))
    for _ in range(4):
        moved = rng.choice(n, size=int(rng.integers(1, n)), replace=False)
        scores, samples = scores.copy(), samples.copy()
        scores[moved] += rng.normal(size=moved.size) / 50
        samples[moved] += rng.normal(size=(moved.size, width)) / 50
        if seed % 2:
            samples[moved[0], int(rng.integers(width))] = nan

        kept = pairwise_side_reusing(scores, samples, kept, higher_is_better=higher)

        _assert_same_side(kept.side, pairwise_side(scores, samples, higher_is_better=higher))


def test_a_side_unchanged_is_the_kept_one_and_a_foreign_one_is_not_read() -> None:
    rng = np.random.default_rng(5)
    scores, samples = rng.normal(size=5), rng.normal(size=(5, 30))
    kept = pairwise_side_reusing(scores, samples, None, higher_is_better=True)

    again = pairwise_side_reusing(scores.copy(), samples.copy(), kept, higher_is_better=True)
    other = KeptSide(scores[:4], samples[:4], kept.side)  # a side of 5 systems: not read
    fresh = pairwise_side_reusing(scores[:4], samples[:4], other, higher_is_better=True)
    turned = pairwise_side_reusing(scores, samples, kept, higher_is_better=False)

    assert again.side is kept.side
    _assert_same_side(fresh.side, pairwise_side(scores[:4], samples[:4]))
    _assert_same_side(turned.side, pairwise_side(scores, samples, higher_is_better=False))


@pytest.mark.parametrize("seed", range(4))
def test_a_side_pickled_and_read_back_is_the_same_side(seed: int) -> None:
    """The shared store keeps sides pickled: read back, every array is the same, bit
    for bit and of the same type (samples with and without a figure missing, clear and
    close pairs, both directions); the values cached on it (the p-values' floats, eight
    bytes a pair and sample) are not carried, but computed again from the counts."""
    rng = np.random.default_rng(seed)
    n, width = 7, 200
    scores = rng.normal(size=n) * (3 if seed < 2 else 0.01)
    samples = scores[:, None] + rng.normal(size=(n, width)) / 20
    if seed % 2:
        samples[rng.random((n, width)) < 0.1] = nan
    side = pairwise_side(scores, samples, higher_is_better=bool(seed % 3))
    cached = (side.sample_p, side.sample_ties)

    pickled = pickle.dumps(side)
    again = pickle.loads(pickled)  # noqa: S301 (our own)

    assert cached[0] is not None
    assert len(pickled) < cached[0].nbytes
    _assert_same_side(again, side)
    for was, now in zip(cached, (again.sample_p, again.sample_ties), strict=True):
        assert was is not None
        assert now is not None
        assert now.tobytes() == was.tobytes()


def test_a_pair_clear_on_every_sample_is_pickled_as_one_value() -> None:
    """Systems far apart (every pair's difference of one sign on every sample, as most
    pairs of most metrics at real size): the side pickled is a small part of its
    arrays, so every process reads the automatic side from the store for less."""
    rng = np.random.default_rng(1)
    scores = np.arange(20.0)
    side = pairwise_side(scores, scores[:, None] + rng.normal(size=(20, 1000)) / 10)
    per_sample = side.sample_signs.nbytes + side.sample_at_least.nbytes  # type: ignore[union-attr]

    assert len(pickle.dumps(side)) < per_sample / 20


@pytest.mark.parametrize("seed", range(12))
def test_tau_from_the_sides_real_signs_is_tau_of_the_figures(seed: int) -> None:
    """Kendall's τ-b of a system-level correlation read from the signs its two sides
    hold is the τ-b of the figures themselves, the same float (ties on either side or
    both, an error rate against a score and against another error rate, two systems,
    every pair tied on one side); with a system lacking a figure, or an infinite one,
    the sides do not say (None)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 12))
    metric = rng.integers(0, 4, n) / 3 + (0.0 if seed % 5 else 1e-3 * rng.normal(size=n))
    human = rng.integers(0, 3 if seed % 3 else 1, n) * 0.1
    higher = (bool(seed % 2), bool(seed % 4 < 2))
    sides = (
        pairwise_side(metric, higher_is_better=higher[0]),
        pairwise_side(human, higher_is_better=higher[1]),
    )

    found = kendall_tau_b_of_sides(*sides)

    assert found is not None
    assert repr(found) == repr(correlation.kendall_tau_b(metric, human))
    for hole in (nan, math.inf):
        holed = metric.copy()
        holed[0] = holed[1] = hole
        with np.errstate(invalid="ignore"):  # ∞ − ∞: no sign
            side = pairwise_side(holed)
        assert kendall_tau_b_of_sides(side, sides[1]) is None


def test_sides_of_different_systems_are_refused() -> None:
    with pytest.raises(ValueError, match="3 systems, the humans 2"):
        pairwise_accuracy(pairwise_side([1, 2, 3]), pairwise_side([1, 2]))


# ------------------------------------------------------------------ a plain reimplementation


def plain_p(real: float, diffs: list[float]) -> float:
    """The one-sided p-value by its definition: samples without a difference dropped,
    the rest centred, the share ≥ ``real``."""
    kept = [d for d in diffs if not math.isnan(d)]
    if not kept or math.isnan(real):
        return nan
    mean = float(np.sum(kept)) / len(kept)
    return sum(1 for d in kept if d - mean >= real) / len(kept)


def plain_sample_p(diffs: list[float]) -> list[float]:
    kept = [d for d in diffs if not math.isnan(d)]
    if not kept:
        return [nan] * len(diffs)
    mean = float(np.sum(kept)) / len(kept)
    return [
        nan if math.isnan(d) else sum(1 for c in kept if c - mean >= d) / len(kept) for d in diffs
    ]


def sign(v: float) -> float:
    return nan if math.isnan(v) else float(np.sign(v))


def plain_figures(
    metric: list[float],
    metric_samples: list[list[float]],
    human: list[float],
    human_samples: list[list[float]],
    higher: tuple[bool, bool],
) -> tuple[float, float, list[float], list[float]]:
    """PA, SPA and both per sample, one pair and one sample at a time."""
    turn = [1.0 if h else -1.0 for h in higher]
    m = [turn[0] * v for v in metric]
    h = [turn[1] * v for v in human]
    ms = [[turn[0] * v for v in row] for row in metric_samples]
    hs = [[turn[1] * v for v in row] for row in human_samples]
    n_samples = len(ms[0])
    agree = pairs = 0
    errors: list[float] = []
    sample_agree = [0] * n_samples
    sample_pairs = [0] * n_samples
    sample_errors: list[list[float]] = [[] for _ in range(n_samples)]
    for i, j in combinations(range(len(m)), 2):
        sm, sh = sign(m[i] - m[j]), sign(h[i] - h[j])
        if not (math.isnan(sm) or math.isnan(sh)):
            pairs += 1
            agree += sm == sh
        dm = [ms[i][b] - ms[j][b] for b in range(n_samples)]
        dh = [hs[i][b] - hs[j][b] for b in range(n_samples)]
        pm, ph = plain_p(m[i] - m[j], dm), plain_p(h[i] - h[j], dh)
        if not (math.isnan(pm) or math.isnan(ph)):
            errors.append(abs(ph - pm))
        pms, phs = plain_sample_p(dm), plain_sample_p(dh)
        for b in range(n_samples):
            if not (math.isnan(dm[b]) or math.isnan(dh[b])):
                sample_pairs[b] += 1
                sample_agree[b] += sign(dm[b]) == sign(dh[b])
                sample_errors[b].append(abs(phs[b] - pms[b]))
    return (
        agree / pairs if pairs else nan,
        1 - sum(errors) / len(errors) if errors else nan,
        [a / p if p else nan for a, p in zip(sample_agree, sample_pairs, strict=True)],
        [1 - sum(e) / len(e) if e else nan for e in sample_errors],
    )


@pytest.mark.parametrize("seed", range(6))
def test_every_figure_equals_the_plain_reimplementation(seed: int) -> None:
    """Small whole numbers (so ties happen, and every sum is exact in any order), human
    samples with and without missing figures, both directions."""
    rng = np.random.default_rng(seed)
    n, n_samples = int(rng.integers(2, 8)), int(rng.integers(1, 30))
    metric = rng.integers(0, 6, n).astype(float)
    human = rng.integers(0, 6, n).astype(float)
    metric_samples = metric[:, None] + rng.integers(-3, 4, (n, n_samples))
    human_samples = human[:, None] + rng.integers(-3, 4, (n, n_samples)).astype(float)
    if seed % 2:  # some samples without a human figure (the others: every one has)
        human_samples[rng.random((n, n_samples)) < 0.15] = nan
    higher = (bool(rng.integers(2)), bool(rng.integers(2)))
    m_side = pairwise_side(metric, metric_samples, higher_is_better=higher[0])
    h_side = pairwise_side(human, human_samples, higher_is_better=higher[1])

    pa, spa, pa_samples, spa_samples = plain_figures(
        metric.tolist(), metric_samples.tolist(), human.tolist(), human_samples.tolist(), higher
    )

    np.testing.assert_allclose(pairwise_accuracy(m_side, h_side).value, pa, rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        soft_pairwise_accuracy(m_side, h_side).value, spa, rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(
        pairwise_accuracy_per_sample(m_side, h_side), pa_samples, rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(
        soft_pairwise_accuracy_per_sample(m_side, h_side), spa_samples, rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("seed", range(4))
def test_tau_from_the_sides_signs_is_tau_of_the_sample_figures(seed: int) -> None:
    """To the bit, NaN where undefined, whichever way each side reads its figures."""
    rng = np.random.default_rng(seed)
    n, n_samples = int(rng.integers(2, 9)), 50
    x = rng.integers(0, 4, (n, n_samples)).astype(float)
    y = rng.normal(size=(n, n_samples))
    y[rng.random((n, n_samples)) < 0.3] = nan
    x[:, 1] = 2.0  # every pair tied: no τ on that sample
    x_higher, y_higher = bool(seed % 2), bool(seed // 2)
    metric = pairwise_side(x[:, 0], x, higher_is_better=x_higher)
    human = pairwise_side(y[:, 0], y, higher_is_better=y_higher)

    got = kendall_tau_b_per_sample(metric, human)

    expected = correlation.kendall_tau_b_per_sample(x, y)
    assert np.isnan(expected).any()
    assert not np.isnan(expected).all()
    assert got.tobytes() == expected.tobytes()


def test_pairs_are_in_row_major_order() -> None:
    i, j = pair_indices(4)
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == list(combinations(range(4), 2))


def test_a_side_without_samples_has_signs_but_no_p_values() -> None:
    side = pairwise_side([3.0, 1.0, 2.0])
    assert isinstance(side, PairwiseSide)
    assert side.signs.tolist() == [1.0, 1.0, -1.0]
    assert np.isnan(side.p).all()
    assert side.sample_p is None
    assert math.isnan(soft_pairwise_accuracy(side, side).value)
    with pytest.raises(ValueError, match="need their samples"):
        pairwise_accuracy_per_sample(side, side)
