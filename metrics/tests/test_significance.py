"""Paired bootstrap: sacreBLEU 2.6 ``paired_bs`` parity, hand-checked pieces, rank groups,
common-segment comparison of human metrics."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from metrics.bleu import BLEU
from metrics.human import ASER, AWER, SSER, aser_stats, awer_stats, sser_stats
from metrics.ranking import leader_groups
from metrics.significance import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    MIN_COMMON,
    UNRANKED,
    Bootstrap,
    Interval,
    bootstrap_indices,
    order_systems,
    p_values_from_samples,
    paired_bootstrap,
    percentile_interval,
    randomization_p_value,
    randomization_swaps,
    rank_groups,
    resample_counts,
    rows_by_segment,
)
from metrics.tests.demo import REFERENCES, SYSTEMS, demo, demo_refs
from metrics.wer import WER

# ------------------------------------------------------------------ the demo corpus


@cache
def bleu_stats() -> dict[str, np.ndarray]:
    metric = BLEU()
    prepared = metric.prepare_references(demo_refs())
    data = demo()
    return {name: metric.segment_stats(list(data[name]), prepared) for name in SYSTEMS}


def stream_major(refs: Sequence[Sequence[str]]) -> list[list[str]]:
    return [list(stream) for stream in zip(*refs, strict=True)]


def sacre_paired_bs(
    order: Sequence[str], systems: dict[str, Sequence[str]], n_samples: int
) -> dict[str, Any]:
    """sacreBLEU's paired bootstrap with ``order[0]`` as the baseline: name → Result."""
    named = [(name, list(systems[name])) for name in order]
    test = PairedTest(named, {"BLEU": sacrebleu.BLEU()}, stream_major(demo_refs()), "bs", n_samples)
    _, scores = test()
    return dict(zip(scores["System"], scores["BLEU"], strict=True))


# ------------------------------------------------------------------ sacreBLEU parity


@pytest.mark.parametrize("seed, n_samples", [(12345, 1000), (7, 1000), (2024, 300)])
@pytest.mark.parametrize("baseline", SYSTEMS)
def test_bleu_p_values_and_intervals_equal_sacrebleu_paired_bs(
    baseline: str, seed: int, n_samples: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    order = [baseline] + [s for s in SYSTEMS if s != baseline]
    sacre = sacre_paired_bs(order, demo(), n_samples)
    ours = paired_bootstrap(
        bleu_stats(),
        BLEU().score_from_stats,
        higher_is_better=True,
        metric="bleu",
        n_samples=n_samples,
        seed=seed,
    )
    for name in order[1:]:
        # the same p-value, to the last bit
        assert ours.p_value(baseline, name) == sacre[name].p_value
        assert ours.p_value(name, baseline) == sacre[name].p_value
    for name in order:
        figure = ours.figure(name)
        assert figure.score == pytest.approx(sacre[name].score, abs=1e-9)
        # sacreBLEU sums in float32; see the module doc. Our interval is the percentile
        # one: the same two order statistics, not moved to be symmetric around μ.
        assert figure.interval.mean == pytest.approx(sacre[name].mean, rel=1e-6)
        assert figure.interval.half_width == pytest.approx(sacre[name].ci, rel=1e-6)
        assert 0.0 <= figure.interval.low <= figure.interval.high <= 100.0


def test_first_rank_group_is_what_sacrebleu_says_about_the_best_system(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Group 1 = the best system and every system sacreBLEU cannot tell from it."""
    monkeypatch.setenv("SACREBLEU_SEED", str(DEFAULT_SEED))
    ours = paired_bootstrap(bleu_stats(), BLEU().score_from_stats, higher_is_better=True)
    best = max(ours.figures, key=lambda f: f.score).system
    sacre = sacre_paired_bs([best] + [s for s in SYSTEMS if s != best], demo(), 1000)
    expected = {best} | {s for s in SYSTEMS if s != best and sacre[s].p_value >= 0.05}
    assert {f.system for f in ours.figures if f.group == 1} == expected
    assert 1 < len(expected) < len(SYSTEMS)  # the demo has a real group 2


def test_identical_systems_share_a_group_where_sacrebleu_reports_significance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The documented deviation: all sample differences 0 → p = 1, not 1/(B+1)."""
    monkeypatch.setenv("SACREBLEU_SEED", str(DEFAULT_SEED))
    data = {**demo(), "copy": demo()[SYSTEMS[0]]}
    sacre = sacre_paired_bs([SYSTEMS[0], "copy"], data, 1000)
    assert sacre["copy"].p_value == pytest.approx(1 / 1001)
    stats = {SYSTEMS[0]: bleu_stats()[SYSTEMS[0]], "copy": bleu_stats()[SYSTEMS[0]]}
    ours = paired_bootstrap(stats, BLEU().score_from_stats, higher_is_better=True)
    assert ours.p_value(SYSTEMS[0], "copy") == 1.0
    assert [f.group for f in ours.figures] == [1, 1]


# ------------------------------------------------------------------ the pieces, by hand


@pytest.mark.parametrize("n_segments, n_samples, seed", [(40, 1000, 12345), (7, 3, 0), (1, 5, 9)])
def test_indices_are_sacrebleus_draw(n_segments: int, n_samples: int, seed: int) -> None:
    expected = np.random.default_rng(seed).choice(
        n_segments, size=(n_samples, n_segments), replace=True
    )
    np.testing.assert_array_equal(bootstrap_indices(n_segments, n_samples, seed), expected)


@pytest.mark.parametrize("n_segments, n_trials, seed", [(40, 10000, 12345), (7, 3, 0)])
def test_swaps_are_sacrebleus_draw(n_segments: int, n_trials: int, seed: int) -> None:
    expected = np.random.default_rng(seed).integers(2, size=(n_trials, n_segments), dtype=bool)
    np.testing.assert_array_equal(randomization_swaps(n_segments, n_trials, seed), expected)


def test_randomization_p_value_by_hand() -> None:
    """Two segments, rows [hits, total]: the systems score 2/2 and 0/2 (rate 1 vs 0).
    Swapping one segment gives 1/2 vs 1/2 (difference 0), swapping both or none
    1 (not more than the real difference 1): no trial exceeds it, p = 1/(T + 1)."""
    base = np.array([[1.0, 1.0], [1.0, 1.0]])
    other = np.array([[0.0, 1.0], [0.0, 1.0]])
    swaps = np.array([[True, False], [False, True], [True, True], [False, False]])

    def rate(stats: np.ndarray) -> np.ndarray:
        return stats[..., 0] / stats[..., 1]

    assert randomization_p_value(base, other, rate, swaps) == pytest.approx(1 / 5)
    assert randomization_p_value(base, base, rate, swaps) == 1.0  # identical: the deviation


def test_counts_times_stats_equal_the_gathered_sums() -> None:
    stats = bleu_stats()[SYSTEMS[1]]
    idx = bootstrap_indices(len(stats))
    counts = resample_counts(idx, len(stats))
    assert counts.shape == (DEFAULT_SAMPLES, len(stats))
    assert (counts.sum(axis=1) == len(stats)).all()
    np.testing.assert_array_equal(counts @ stats, stats[idx].sum(axis=1))


def test_resample_counts_by_hand() -> None:
    counts = resample_counts(np.array([[0, 0, 2], [1, 2, 1]]), 3)
    np.testing.assert_array_equal(counts, [[2, 0, 1], [0, 2, 1]])


P_VALUE_CASES = [
    # sample |differences|, real |difference|, p
    ([1.0, 2.0, 3.0, 4.0], 0.5, 2 / 5),  # centred: -1.5 -.5 .5 1.5; one > .5
    ([1.0, 2.0, 3.0, 4.0], 1.5, 1 / 5),  # strictly greater: 1.5 is not > 1.5
    ([1.0, 2.0, 3.0, 4.0], 0.0, 3 / 5),
    ([5.0, 5.0, 5.0], 0.0, 1 / 4),  # centred all 0, nothing > 0
    ([0.0, 0.0, 0.0], 0.0, 1.0),  # identical systems: the deviation
    ([1.0, 2.0], math.nan, math.nan),  # nothing to compare
]


@pytest.mark.parametrize("diffs, real, expected", P_VALUE_CASES)
def test_p_value_by_hand(diffs: list[float], real: float, expected: float) -> None:
    p = float(p_values_from_samples(np.array(diffs), np.array(real)))
    if math.isnan(expected):
        assert math.isnan(p)
    else:
        assert p == pytest.approx(expected, abs=1e-15)


CI_CASES = [
    # B samples 0..B-1 (shuffled): the order statistics ⌊B/40⌋ and B-⌊B/40⌋-1, the mean
    (1000, 25.0, 974.0, 499.5),
    (40, 1.0, 38.0, 19.5),
    (39, 0.0, 38.0, 19.0),
    (1, 0.0, 0.0, 0.0),
]


@pytest.mark.parametrize("n, low, high, mean", CI_CASES)
def test_percentile_interval_by_hand(n: int, low: float, high: float, mean: float) -> None:
    samples = np.random.default_rng(3).permutation(np.arange(n, dtype=np.float64))
    got = percentile_interval(samples)
    assert tuple(float(v) for v in got) == (low, high, mean)
    interval = Interval(low, high, mean)
    # sacreBLEU's ci is half the distance between the same two order statistics
    assert interval.half_width == 0.5 * (high - low)


def test_percentile_interval_is_clipped_to_the_range_and_skips_undefined_samples() -> None:
    # 40 samples: order statistics 1 and 38 of the defined ones
    samples = np.array([*np.linspace(-10.0, 110.0, 40), math.nan, math.nan])
    low, high, mean = (float(v) for v in percentile_interval(samples, (0.0, 100.0)))
    assert (low, high) == (0.0, 100.0)  # -6.92… and 106.92… clipped
    assert mean == pytest.approx(50.0)
    none = percentile_interval(np.array([math.nan, math.nan]))
    assert all(math.isnan(float(v)) for v in none)


def test_a_fixed_seed_reproduces_itself_and_another_seed_does_not() -> None:
    metric = BLEU()
    a = paired_bootstrap(bleu_stats(), metric.score_from_stats, higher_is_better=True, seed=5)
    b = paired_bootstrap(bleu_stats(), metric.score_from_stats, higher_is_better=True, seed=5)
    c = paired_bootstrap(bleu_stats(), metric.score_from_stats, higher_is_better=True, seed=6)
    assert a == b
    assert a.p_values != c.p_values
    assert "seed:5" in a.signature
    assert "bs:1000" in a.signature
    assert [f.score for f in a.figures] == [f.score for f in c.figures]


def test_one_bootstrap_serves_every_metric() -> None:
    """WER (lower is better) through a shared Bootstrap; the best is the lowest WER."""
    metric = WER()
    refs = demo_refs(REFERENCES[0])
    prepared = metric.prepare_references(refs)
    stats = {s: metric.segment_stats(list(demo()[s]), prepared) for s in SYSTEMS}
    bootstrap = Bootstrap(len(refs))
    wer = bootstrap.compare(stats, metric.score_from_stats, higher_is_better=False, metric="wer")
    bleu = bootstrap.compare(bleu_stats(), BLEU().score_from_stats, higher_is_better=True)
    best = min(wer.figures, key=lambda f: f.score)
    assert best.group == 1
    assert wer.ranked()[0] == best
    assert wer.metric == "wer"
    assert bleu.seed == wer.seed == DEFAULT_SEED
    for figure in wer.figures:
        assert figure.score == pytest.approx(
            metric.corpus_score(list(demo()[figure.system]), refs).score
        )
        assert figure.interval.low < figure.score < figure.interval.high


def test_the_comparison_keeps_each_systems_sample_scores() -> None:
    """What each interval is read from, kept for anyone resampling the same sentences:
    each system's score on every sample, bit for bit what scoring the samples gives."""
    stats = bleu_stats()
    bootstrap = Bootstrap(len(demo_refs()))
    result = bootstrap.compare(stats, BLEU().score_from_stats, higher_is_better=True)

    assert result.samples is not None
    assert result.samples.shape == (len(SYSTEMS), bootstrap.n_samples)
    scored = bootstrap.sample_scores(np.stack([stats[s] for s in SYSTEMS]), BLEU().score_from_stats)
    assert result.samples.tobytes() == scored.tobytes()
    lows, highs, _ = percentile_interval(result.samples)
    assert [f.interval.low for f in result.figures] == lows.tolist()
    assert [f.interval.high for f in result.figures] == highs.tolist()


# ------------------------------------------------------------------ rank groups

S = 0.01  # significant
N = 0.5  # not significant


def p_matrix(pairs: dict[tuple[int, int], float], n: int) -> list[list[float]]:
    p = [[1.0] * n for _ in range(n)]
    for (i, j), v in pairs.items():
        p[i][j] = p[j][i] = v
    return p


GROUP_CASES = [
    # scores, p-values of the pairs (others 1), higher is better, groups (input order)
    ([30.0, 20.0, 10.0], {(0, 1): S, (0, 2): S, (1, 2): S}, True, (1, 2, 3)),
    ([30.0, 20.0, 10.0], {(0, 1): N, (0, 2): N, (1, 2): N}, True, (1, 1, 1)),
    # not transitive: A≈B, B≈C, A≠C → C opens group 2 (compared with the leader A)
    ([30.0, 20.0, 10.0], {(0, 1): N, (0, 2): S, (1, 2): N}, True, (1, 1, 2)),
    # B≠A opens group 2 with B as leader; C≈B joins it although C≠A
    ([30.0, 20.0, 10.0], {(0, 1): S, (0, 2): S, (1, 2): N}, True, (1, 2, 2)),
    # lower is better: the order flips
    ([30.0, 20.0, 10.0], {(0, 1): S, (0, 2): S, (1, 2): N}, False, (2, 1, 1)),
    # input order does not matter, only the scores
    ([10.0, 30.0, 20.0], {(1, 2): S, (0, 1): S, (0, 2): N}, True, (2, 1, 2)),
    # p = alpha is not significant (p < 0.05 is)
    ([2.0, 1.0], {(0, 1): 0.05}, True, (1, 1)),
    ([2.0, 1.0], {(0, 1): 0.0499}, True, (1, 2)),
    # NaN p (no common segment): not significant
    ([2.0, 1.0], {(0, 1): math.nan}, True, (1, 1)),
    # a system without a score is not ranked
    ([2.0, math.nan, 1.0], {(0, 2): S}, True, (1, UNRANKED, 2)),
    # equal scores keep the input order; the first is the leader
    ([5.0, 5.0, 1.0], {(0, 2): S, (1, 2): N}, True, (1, 1, 2)),
    ([7.0], {}, True, (1,)),
]


@pytest.mark.parametrize("scores, pairs, higher, expected", GROUP_CASES)
def test_rank_groups(
    scores: list[float], pairs: dict[tuple[int, int], float], higher: bool, expected: tuple[int]
) -> None:
    p = p_matrix(pairs, len(scores))
    assert rank_groups(scores, p, higher_is_better=higher) == expected


@pytest.mark.parametrize("scores, pairs, higher, expected", GROUP_CASES)
def test_leader_groups_ask_the_test_for_each_system_against_its_leader_only(
    scores: list[float], pairs: dict[tuple[int, int], float], higher: bool, expected: tuple[int]
) -> None:
    """The same groups from a test called per pair (the estimates' rank groups fit one
    estimate per pair asked): one question per ranked system after the first."""
    p = p_matrix(pairs, len(scores))
    asked: list[tuple[int, int]] = []

    def differs(leader: int, i: int) -> bool:
        asked.append((leader, i))
        return bool(p[leader][i] < 0.05)

    assert leader_groups(scores, differs, higher_is_better=higher) == expected
    ranked = [
        i for i in order_systems(scores, higher_is_better=higher) if not math.isnan(scores[i])
    ]
    openers = {next(i for i in ranked if expected[i] == g) for g in set(expected) - {UNRANKED}}
    assert len(asked) == max(len(ranked) - 1, 0)
    assert {leader for leader, _ in asked} <= openers


@pytest.mark.parametrize(
    "scores, higher, expected",
    [
        ([1.0, 3.0, 2.0], True, (1, 2, 0)),
        ([1.0, 3.0, 2.0], False, (0, 2, 1)),
        ([math.nan, 1.0, 1.0], False, (1, 2, 0)),
    ],
)
def test_order_systems(scores: list[float], higher: bool, expected: tuple[int]) -> None:
    assert order_systems(scores, higher_is_better=higher) == expected


# ------------------------------------------------------------------ human metrics


def brute_force_pair(
    stats: dict[str, np.ndarray], masks: dict[str, np.ndarray], a: str, b: str, idx: np.ndarray
) -> float:
    """The textbook statement: gather the resampled rows, keep those both judged."""
    common = masks[a] & masks[b]
    if not common.any():
        return math.nan

    def score(rows: np.ndarray) -> np.ndarray:
        return np.asarray(AWER.score_from_stats(rows), dtype=np.float64)

    real = abs(score(stats[a][common].sum(axis=0)) - score(stats[b][common].sum(axis=0)))
    keep = common[idx][:, :, None]
    sample_a = score((stats[a][idx] * keep).sum(axis=1))
    sample_b = score((stats[b][idx] * keep).sum(axis=1))
    diffs = np.abs(sample_a - sample_b)
    if (diffs == 0).all():
        return 1.0
    centred = diffs - diffs.mean()
    return float(((centred > real).sum() + 1) / (len(diffs) + 1))


def random_judgments(seed: int, n_sys: int, n_seg: int, share: float) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    stats, masks = {}, {}
    for s in range(n_sys):
        lengths = rng.integers(3, 30, n_seg)
        edits = np.minimum(rng.poisson(1.5 + s, n_seg), lengths)
        mask = rng.uniform(size=n_seg) < share
        stats[f"sys{s}"] = np.where(mask[:, None], awer_stats(edits, lengths), 0.0)
        masks[f"sys{s}"] = mask
    return stats, masks


@pytest.mark.parametrize("seed, n_sys, n_seg, share", [(1, 4, 30, 0.6), (2, 3, 12, 0.3)])
def test_human_pairs_compare_on_common_segments(
    seed: int, n_sys: int, n_seg: int, share: float
) -> None:
    stats, masks = random_judgments(seed, n_sys, n_seg, share)
    result = paired_bootstrap(
        stats, AWER.score_from_stats, higher_is_better=False, masks=masks, n_samples=200, seed=3
    )
    idx = bootstrap_indices(n_seg, 200, 3)
    names = list(stats)
    for i, a in enumerate(names):
        assert result.figures[i].n == int(masks[a].sum())
        for j, b in enumerate(names):
            assert result.n_common[i][j] == int((masks[a] & masks[b]).sum())
            if i != j:
                expected = brute_force_pair(stats, masks, a, b, idx)
                got = result.p_values[i][j]
                assert got == expected or (math.isnan(got) and math.isnan(expected))
    assert "pairs:common-segments" in result.signature


def test_full_masks_give_the_unmasked_test() -> None:
    stats, _ = random_judgments(4, 3, 25, 1.0)
    full = {name: np.ones(25, dtype=bool) for name in stats}
    masked = paired_bootstrap(stats, AWER.score_from_stats, higher_is_better=False, masks=full)
    plain = paired_bootstrap(stats, AWER.score_from_stats, higher_is_better=False)
    assert masked.p_values == plain.p_values
    assert masked.figures == plain.figures


def test_a_system_without_judgments_is_not_ranked() -> None:
    stats, masks = random_judgments(5, 3, 20, 0.8)
    masks["sys2"] = np.zeros(20, dtype=bool)
    result = paired_bootstrap(stats, AWER.score_from_stats, higher_is_better=False, masks=masks)
    figure = result.figure("sys2")
    assert (figure.n, figure.group) == (0, UNRANKED)
    assert math.isnan(figure.score)
    assert math.isnan(figure.interval.mean)
    assert math.isnan(result.p_value("sys0", "sys2"))
    assert {result.figure("sys0").group, result.figure("sys1").group} <= {1, 2}


def test_rows_by_segment_sums_judgments_of_a_candidate() -> None:
    # two judges scored segment 1, one judge segment 3; segments 0 and 2 unjudged
    rows = sser_stats([8, 6, 10])
    stats, mask = rows_by_segment(rows, [1, 1, 3], 4)
    np.testing.assert_allclose(stats, [[0, 0], [0.6, 2], [0, 0], [0, 1]])
    assert mask.tolist() == [False, True, False, True]
    assert SSER.score_from_stats(stats.sum(axis=0)) == pytest.approx(20.0)


# ------------------------------------------------------------------ bad arguments

ONE = {"a": np.zeros((3, 2))}

BAD_CALLS = [
    (lambda: bootstrap_indices(0), "n_segments=0"),
    (lambda: bootstrap_indices(3, 0), "n_samples=0"),
    (lambda: bootstrap_indices(3, 10, -1), "seed=-1"),
    (lambda: resample_counts(np.array([[0, 3]]), 3), "outside"),
    (lambda: paired_bootstrap({}, AWER.score_from_stats, higher_is_better=False), "empty"),
    (
        lambda: paired_bootstrap(
            {"a": np.zeros((3, 2)), "b": np.zeros((4, 2))},
            AWER.score_from_stats,
            higher_is_better=False,
        ),
        "'b'",
    ),
    (
        lambda: paired_bootstrap(
            ONE, AWER.score_from_stats, higher_is_better=False, masks={"b": np.ones(3, bool)}
        ),
        "no mask for system 'a'",
    ),
    (
        lambda: paired_bootstrap(
            ONE, AWER.score_from_stats, higher_is_better=False, masks={"a": np.ones(3)}
        ),
        "booleans",
    ),
    (
        lambda: paired_bootstrap(ONE, AWER.score_from_stats, higher_is_better=False, alpha=1.0),
        "alpha=1.0",
    ),
    (lambda: rank_groups([1.0, 2.0], [[1.0]], higher_is_better=True), r"\(2, 2\)"),
    (lambda: rows_by_segment([[1.0, 1.0]], [5], 3), "segment id 5"),
    (lambda: rows_by_segment([[1.0, 1.0]], [0, 1], 3), "2 segment ids for 1 rows"),
]


@pytest.mark.parametrize("call, message", BAD_CALLS)
def test_bad_arguments_raise_value_error(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_unknown_system_is_named() -> None:
    result = paired_bootstrap(ONE, AWER.score_from_stats, higher_is_better=False)
    with pytest.raises(ValueError, match="'zz'"):
        result.figure("zz")


# ------------------------------------------------------------------ claims need data


def judged(
    rng: np.random.Generator, n_segments: int, judged_segments: np.ndarray, wrong_share: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """aWER and aSER rows of a system judged on ``judged_segments`` (others zero), and
    its mask: each judged sentence of 10 words needs 0 edits, or 1–6 with probability
    ``wrong_share``."""
    mask = np.zeros(n_segments, dtype=bool)
    mask[judged_segments] = True
    wrong = rng.uniform(size=n_segments) < wrong_share
    edits = np.where(wrong, rng.integers(1, 7, n_segments), 0)
    lengths = np.full(n_segments, 10)
    awer = np.where(mask[:, None], awer_stats(edits, lengths), 0.0)
    aser = np.where(mask[:, None], aser_stats(edits), 0.0)
    return awer, aser, mask


def systems_judged(per_system: int, shares: Sequence[float], seed: int = 7) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    segments = np.arange(per_system)  # every system judged on the same sentences
    out: dict[str, Any] = {"awer": {}, "aser": {}, "masks": {}}
    for k, share in enumerate(shares):
        awer, aser, mask = judged(rng, 100, segments, share)
        name = f"sys{k}"
        out["awer"][name], out["aser"][name], out["masks"][name] = awer, aser, mask
    return out


def test_two_judged_sentences_per_system_give_one_group_and_bounded_intervals() -> None:
    """The issue's case: four systems, two judged sentences each, very different
    figures; no difference can be claimed, and no interval leaves 0–100 % (aSER) or
    goes below 0 (aWER)."""
    data = systems_judged(2, [0.0, 0.5, 0.9, 1.0])
    bootstrap = Bootstrap(100)
    for metric, fn, bounds in (
        ("awer", AWER.score_from_stats, AWER.info.bounds),
        ("aser", ASER.score_from_stats, ASER.info.bounds),
    ):
        result = bootstrap.compare(
            data[metric], fn, higher_is_better=False, masks=data["masks"], bounds=bounds
        )
        assert len({f.score for f in result.figures}) > 1  # the figures do differ
        assert [f.group for f in result.figures] == [1, 1, 1, 1]
        assert result.too_few
        assert result.evidence == 2
        for f in result.figures:
            assert bounds[0] <= f.interval.low <= f.interval.high <= bounds[1]
        verdict = result.verdict()
        assert verdict.too_few
        assert verdict.separated is None
        assert verdict.n == 2


def test_fifty_judged_sentences_with_a_clear_difference_give_two_groups() -> None:
    data = systems_judged(50, [0.1, 0.9])
    result = paired_bootstrap(
        data["aser"],
        ASER.score_from_stats,
        higher_is_better=False,
        masks=data["masks"],
        bounds=ASER.info.bounds,
    )
    assert [f.group for f in result.figures] == [1, 2]
    assert not result.too_few
    assert result.evidence == 50
    verdict = result.verdict()
    assert (verdict.best, verdict.others, verdict.separated) == ("sys0", (), "sys1")
    assert verdict.p < 0.05
    assert verdict.n == 50
    assert not verdict.too_few
    assert result.significant("sys0", "sys1")
    for f in result.figures:
        assert 0.0 <= f.interval.low <= f.score <= f.interval.high <= 100.0


@pytest.mark.parametrize("common, groups", [(9, [1, 1]), (10, [1, 2])])
def test_a_pair_needs_ten_sentences_in_common_to_be_separated(
    common: int, groups: list[int]
) -> None:
    """Perfect against hopeless on every common sentence: p is as small as it gets
    either way, but on 9 sentences no difference is claimed."""
    n = 40
    good = np.zeros((n, 2))
    bad = np.zeros((n, 2))
    good[:common] = [0.0, 1.0]
    bad[:common] = [1.0, 1.0]
    mask = np.zeros(n, dtype=bool)
    mask[:common] = True
    result = paired_bootstrap(
        {"good": good, "bad": bad},
        ASER.score_from_stats,
        higher_is_better=False,
        masks={"good": mask, "bad": mask},
    )
    assert result.p_value("good", "bad") == 1 / 1001
    assert [f.group for f in result.figures] == groups
    assert result.too_few == (common < MIN_COMMON)
    assert "min-n:10" in result.signature
    assert "ci:95%-pct" in result.signature


def test_the_ten_sentence_rule_reads_the_pairs_counts() -> None:
    p = p_matrix({(0, 1): S, (0, 2): S, (1, 2): S}, 3)
    few = [[20, 9, 20], [9, 20, 20], [20, 20, 20]]
    # A–B on 9 sentences: B joins A's group; C is separated from the leader A
    assert rank_groups([3.0, 2.0, 1.0], p, higher_is_better=True, n_common=few) == (1, 1, 2)
    assert rank_groups([3.0, 2.0, 1.0], p, higher_is_better=True) == (1, 2, 3)


def test_a_sample_that_drew_none_of_a_systems_sentences_is_no_score_of_it() -> None:
    """Two judged sentences out of 100, both needing an edit: about one resample in
    seven draws neither, and must not count as an aSER of 0 %."""
    rows = np.zeros((100, 2))
    rows[:2] = [1.0, 1.0]
    mask = np.zeros(100, dtype=bool)
    mask[:2] = True
    other = np.zeros((100, 2))
    other[:2] = [0.0, 1.0]
    result = paired_bootstrap(
        {"wrong": rows, "right": other},
        ASER.score_from_stats,
        higher_is_better=False,
        masks={"wrong": mask, "right": mask},
        bounds=ASER.info.bounds,
    )
    wrong = result.figure("wrong").interval
    assert (wrong.low, wrong.high, wrong.mean, wrong.spread) == (100.0, 100.0, 100.0, 0.0)
    assert result.samples is not None  # the samples kept say so too
    drew = resample_counts(bootstrap_indices(100), 100)[:, :2].sum(axis=1) > 0
    assert (np.isnan(result.samples[0]) == ~drew).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_intervals_of_every_bounded_human_metric_stay_in_range(seed: int) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 11, 30)
    stats = {"a": sser_stats(scores), "b": sser_stats(np.minimum(scores + 3, 10))}
    result = paired_bootstrap(
        stats, SSER.score_from_stats, higher_is_better=False, bounds=SSER.info.bounds
    )
    for f in result.figures:
        assert 0.0 <= f.interval.low <= f.interval.high <= 100.0


def test_a_verdict_without_figures_and_with_one_system() -> None:
    empty = paired_bootstrap(
        {"a": np.zeros((12, 2))},
        ASER.score_from_stats,
        higher_is_better=False,
        masks={"a": np.zeros(12, dtype=bool)},
    )
    assert empty.verdict().best is None
    assert empty.too_few
    one = paired_bootstrap(
        {"a": aser_stats([1] * 12)}, ASER.score_from_stats, higher_is_better=False
    )
    verdict = one.verdict()
    assert (verdict.best, verdict.others, verdict.separated, verdict.n) == ("a", (), None, 12)
    assert not one.too_few


def test_rows_by_segment_adds_as_add_at_does() -> None:
    """Several judgments of one segment, tenths that floats do not hold exactly: the
    sums are ``np.add.at``'s, row by row in their order, to the bit."""
    rng = np.random.default_rng(11)
    ids = rng.integers(0, 50, 400)
    rows = np.column_stack([rng.integers(0, 11, 400) / 10, rng.random(400), np.ones(400)])
    expected = np.zeros((60, 3))
    np.add.at(expected, ids, rows)
    stats, mask = rows_by_segment(rows, ids, 60)
    assert np.array_equal(stats, expected)
    assert mask.tolist() == [k in set(ids.tolist()) for k in range(60)]
