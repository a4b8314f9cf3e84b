"""The figures of ESA and MQM campaigns (:mod:`metrics.protocols`) against independent
computations: the raw mean by hand, the z-normalisation with scipy's ``zscore`` per
annotator, the rank clusters' one-sided tests with scipy's ``mannwhitneyu``; and WMT24's
pairwise and soft pairwise accuracy of a metric against them (:func:`metrics.meta.
permutation_side`) against a plain reimplementation of mt-metrics-eval's test."""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations

import numpy as np
import pytest

from metrics.meta import (
    pairwise_accuracy,
    permutation_side,
    permutation_signs,
    soft_pairwise_accuracy,
)
from metrics.protocols import ESA_MAX, check_esa_scores, esa, esa_z, mqm
from metrics.ratings import Ratings, ratings
from metrics.significance import UNRANKED

nan = math.nan


def campaign(seed: int, quality: dict[str, float], n_segments: int = 40) -> Ratings:
    """ESA scores of systems of the given mean quality: three annotators, one strict
    (−15) and one lenient (+10), each candidate judged by one of them and a fifth of
    them by a second; whole numbers in 0–100, as the slider gives them."""
    rng = np.random.default_rng(seed)
    bias = {"strict": -15.0, "usual": 0.0, "lenient": 10.0}
    names = list(bias)
    systems, segments, annotators, values = [], [], [], []
    for system, mean in quality.items():
        for segment in range(n_segments):
            judges = rng.choice(3, size=2 if rng.random() < 0.2 else 1, replace=False)
            for judge in judges:
                score = mean + bias[names[judge]] + rng.normal(0, 12)
                systems.append(system)
                segments.append(segment)
                annotators.append(names[judge])
                values.append(float(np.clip(np.rint(score), 0, ESA_MAX)))
    return ratings(systems, segments, annotators, values, n_segments)


def plain_item_means(r: Ratings, values: list[float]) -> dict[str, dict[int, float]]:
    """Per system, each judged segment's mean of ``values``: dictionaries and loops."""
    sums: dict[tuple[str, int], list[float]] = defaultdict(list)
    for k in range(len(r)):
        sums[r.systems[r.system[k]], int(r.segment[k])].append(values[k])
    out: dict[str, dict[int, float]] = defaultdict(dict)
    for (system, segment), vs in sums.items():
        out[system][segment] = sum(vs) / len(vs)
    return out


def plain_z(r: Ratings) -> list[float]:
    """Each score standardised within its annotator's scores by scipy (population std)."""
    from scipy.stats import zscore

    out = [nan] * len(r)
    for a in range(len(r.annotators)):
        mine = [k for k in range(len(r)) if r.annotator[k] == a]
        for k, z in zip(mine, zscore([float(r.value[k]) for k in mine], ddof=0), strict=True):
            out[k] = float(z)
    return out


def test_the_raw_esa_figure_by_hand() -> None:
    """X: segment 0 scored 60 and 80 by two annotators (70), segment 1 scored 90: 80.
    Y: segment 0 scored 33: 33."""
    r = ratings(["X", "X", "X", "Y"], [0, 0, 1, 0], ["a", "b", "a", "b"], [60, 80, 90, 33], 2)

    figures = esa(r)

    assert (figures.of("X"), figures.of("Y")) == (80.0, 33.0)
    assert figures.items == (2, 1)
    assert figures.info.name == "esa"
    assert figures.info.higher_is_better


@pytest.mark.parametrize("seed", range(4))
def test_esa_z_is_the_mean_of_scipys_z_scores_per_annotator(seed: int) -> None:
    r = campaign(seed, {"A": 70, "B": 60, "C": 62})
    per_item = plain_item_means(r, plain_z(r))
    raw_items = plain_item_means(r, [float(v) for v in r.value])

    normalised, raw = esa_z(r), esa(r)

    for system in ("A", "B", "C"):
        zs = list(per_item[system].values())
        assert normalised.of(system) == pytest.approx(sum(zs) / len(zs), abs=1e-12)
        scores = list(raw_items[system].values())
        assert raw.of(system) == pytest.approx(sum(scores) / len(scores), abs=1e-12)
    assert normalised.info.name == "esa_z"


def test_z_normalisation_removes_a_strict_annotators_bias() -> None:
    """System S judged only by a strict annotator (everything 30 points lower), T only
    by a lenient one, with the same relative quality: raw, T looks far better; z-scored,
    the two are equal."""
    r = ratings(
        ["S"] * 3 + ["T"] * 3 + ["U"] * 2 + ["U"] * 2,
        [0, 1, 2, 0, 1, 2, 0, 1, 0, 1],
        ["strict"] * 3 + ["lenient"] * 3 + ["strict"] * 2 + ["lenient"] * 2,
        [40, 50, 60, 70, 80, 90, 40, 60, 70, 90],
        3,
    )

    assert esa(r).of("T") - esa(r).of("S") == pytest.approx(30.0)
    assert esa_z(r).of("T") == pytest.approx(esa_z(r).of("S"), abs=1e-12)


def test_scores_outside_0_to_100_are_refused() -> None:
    r = ratings(["X", "X"], [0, 1], ["a", "a"], [50, 101], 2)

    with pytest.raises(ValueError, match="ESA score 101 is outside 0–100"):
        esa(r)
    with pytest.raises(ValueError, match="ESA score -1 is outside"):
        check_esa_scores([0, -1, nan])
    with pytest.raises(ValueError, match="MQM score -5 is negative"):
        mqm(ratings(["X"], [0], ["a"], [-5], 1))


@pytest.mark.parametrize("seed", range(3))
def test_the_clusters_p_values_are_scipys_one_sided_rank_sum_on_common_segments(
    seed: int,
) -> None:
    """Appraise's rule: every ordered pair, on the segments both have (a system misses a
    few here), ``mannwhitneyu(x, y, alternative="greater")`` of the per-segment means of
    the z-scores; "less" for MQM, where lower is better."""
    from scipy.stats import mannwhitneyu

    r = campaign(seed, {"A": 80, "B": 78, "C": 55, "D": 30})
    keep = ~((r.system == 3) & (r.segment < 5))  # D has no judgment of segments 0–4
    r = Ratings(r.systems, r.annotators, r.n_segments, r.system[keep], r.segment[keep],
                r.annotator[keep], r.value[keep])  # fmt: skip
    per_item = plain_item_means(r, plain_z(r))
    points = ratings(
        [r.systems[s] for s in r.system], r.segment.tolist(), [r.annotators[a] for a in
        r.annotator], (ESA_MAX - r.value) / 10, r.n_segments)  # fmt: skip
    per_item_points = plain_item_means(points, [float(v) for v in points.value])

    for figures, items, better in (
        (esa_z(r), per_item, "greater"),
        (mqm(points), per_item_points, "less"),
    ):
        clusters = figures.clusters()
        for i, j in combinations(range(4), 2):
            si, sj = r.systems[i], r.systems[j]
            common = sorted(set(items[si]) & set(items[sj]))
            x = [items[si][s] for s in common]
            y = [items[sj][s] for s in common]
            assert clusters.n_common[i][j] == len(common)
            expected_ij = mannwhitneyu(x, y, alternative=better).pvalue
            expected_ji = mannwhitneyu(y, x, alternative=better).pvalue
            assert clusters.p_values[i][j] == pytest.approx(expected_ij, rel=1e-9, abs=1e-15)
            assert clusters.p_values[j][i] == pytest.approx(expected_ji, rel=1e-9, abs=1e-15)


def test_clear_differences_make_three_clusters_best_first() -> None:
    r = campaign(7, {"A": 85, "B": 84, "C": 55, "D": 20}, n_segments=60)

    for figures in (esa(r), esa_z(r)):
        clusters = {f.system: f.cluster for f in figures.clusters().figures}
        assert clusters == {"A": 1, "B": 1, "C": 2, "D": 3}
    assert UNRANKED not in clusters.values()


# ------------------------------------------------------------------ meta-evaluation


def plain_permutation_p(a: list[float], b: list[float], signs: np.ndarray) -> float:
    """mt-metrics-eval's test of "a beats b" written out: per permutation, each
    segment's two scores kept (+1) or swapped (−1), the difference of the sums."""
    real = sum(a) - sum(b)
    hits = 0
    for row in signs:
        null = sum(float(s) * (x - y) for s, x, y in zip(row, a, b, strict=True))
        hits += null >= real
    return hits / len(signs)


def plain_meta(
    metric: np.ndarray, human: np.ndarray, higher: tuple[bool, bool], permutations: int
) -> tuple[float, float, list[float]]:
    """Pairwise accuracy, soft pairwise accuracy and the human p-values, one pair at a
    time, on the segments every system of both sides has."""
    complete = [
        s for s in range(metric.shape[1])
        if not (np.isnan(metric[:, s]).any() or np.isnan(human[:, s]).any())
    ]  # fmt: skip
    signs = permutation_signs(permutations, len(complete), 4)
    m = [
        [(1 if higher[0] else -1) * float(metric[k, s]) for s in complete]
        for k in range(len(metric))
    ]
    h = [
        [(1 if higher[1] else -1) * float(human[k, s]) for s in complete] for k in range(len(human))
    ]
    agree, errors, human_p = [], [], []
    for i, j in combinations(range(len(m)), 2):
        dm, dh = sum(m[i]) - sum(m[j]), sum(h[i]) - sum(h[j])
        agree.append(np.sign(dm) == np.sign(dh))
        pm, ph = plain_permutation_p(m[i], m[j], signs), plain_permutation_p(h[i], h[j], signs)
        errors.append(abs(pm - ph))
        human_p.append(ph)
    return sum(agree) / len(agree), 1 - sum(errors) / len(errors), human_p


@pytest.mark.parametrize("seed", range(5))
def test_pairwise_and_soft_pairwise_accuracy_equal_the_plain_computation(seed: int) -> None:
    """Human ESA scores (whole numbers) against a metric on a hundredth's grid (both
    exact in any order of summation, so "≥" never depends on rounding); some segments
    without a human score; ties between systems happen."""
    rng = np.random.default_rng(seed)
    n_systems, n_segments, permutations = int(rng.integers(2, 7)), 30, 200
    quality = rng.integers(40, 80, n_systems)
    human = np.clip(quality[:, None] + rng.integers(-20, 21, (n_systems, n_segments)), 0, 100)
    human = human.astype(float)
    human[rng.random(human.shape) < 0.05] = nan
    metric = np.round(rng.normal(quality[:, None] / 100, 0.2, (n_systems, n_segments)) * 4) / 4
    if seed == 0:
        metric[1] = metric[0]  # two systems the metric cannot tell apart
    higher_metric = bool(seed % 2)
    metric = metric if higher_metric else -metric  # an error metric: lower is better

    pa, spa, human_p = plain_meta(metric, human, (higher_metric, True), permutations)
    complete = ~(np.isnan(human).any(axis=0))  # the metric has every segment
    m_side = permutation_side(
        metric[:, complete], higher_is_better=higher_metric, permutations=permutations
    )
    h_side = permutation_side(human, permutations=permutations)

    assert h_side.p.tolist() == human_p
    assert pairwise_accuracy(m_side, h_side).value == pytest.approx(pa, abs=1e-12)
    assert soft_pairwise_accuracy(m_side, h_side).value == pytest.approx(spa, abs=1e-12)


def test_identical_systems_have_p_one_and_a_clear_winner_p_zero() -> None:
    good = 70.0 + np.arange(20) % 7
    scores = np.array([good, good, good - 50])

    side = permutation_side(scores)

    assert side.p.tolist()[0] == 1.0  # (0, 1): the same scores, every null ≥ 0
    assert side.p.tolist()[1] == 0.0  # (0, 2): only keeping all 20 would tie (p 2⁻²⁰)
    assert side.signs.tolist() == [0.0, 1.0, 1.0]


def test_the_draws_are_mt_metrics_evals_rounded_float32_numbers() -> None:
    signs = permutation_signs(1000, 50, 4)
    uniform = np.random.default_rng(4).random(size=(1000, 50), dtype=np.float32)

    assert set(np.unique(signs).tolist()) == {-1.0, 1.0}
    assert (signs == np.where(np.rint(uniform) == 1.0, 1.0, -1.0)).all()


def test_without_a_complete_segment_no_system_has_a_figure() -> None:
    side = permutation_side(np.array([[1.0, nan], [nan, 2.0]]))

    assert side.present.tolist() == [False, False]
    assert math.isnan(pairwise_accuracy(side, side).value)
