"""Figures when each item has its own judge (:mod:`metrics.annotators`): z-scores and
annotator effects by hand, the bootstrap against the paired bootstrap it extends, and
simulated campaigns whose truth is known: z-scores recover the order a strict judge
hides, the 95 % intervals cover the truth 95 % of the time, and the power of the paired
test on z-scores is what :mod:`metrics.power` says."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

from metrics.annotator_effects import NO_OFFSET, annotator_effects
from metrics.claims import MIN_SENTENCES, shortfall
from metrics.correlation import z_normalize
from metrics.facts import facts_of
from metrics.human import SSER
from metrics.judge_aware import SSER_Z, judge_aware
from metrics.power import separated, separation_power
from metrics.ratings import Ratings, item_means, ratings, system_means, z_scores
from metrics.significance import Bootstrap, MetricSignificance, percentile_interval
from metrics.stats import MetricInfo

SSER_INFO = facts_of("sser").info
#: A raw score's facts in the simulations (the judge's 0–10 score, higher is better).
SCORE = MetricInfo(
    "score", "score", True, unit="", human=True, family="human", lowest=-math.inf, highest=math.inf
)


def test_z_scores_and_system_means_by_hand() -> None:
    """Judge A scores 2, 4, 6 (mean 4, population std √(8/3)); judge B 5, 5 (no spread:
    z = 0). X's item at sentence 0 is judged by both: its z is the mean of A's −√1.5 and
    B's 0, then X's z is the mean over its two items: (−√1.5/2 + 0)/2."""
    r = ratings(["X", "X", "Y", "X", "Y"], [0, 0, 1, 1, 0], ["A", "B", "A", "B", "A"],
                [2, 5, 4, 5, 6], 2)  # fmt: skip

    z = z_scores(r)
    means, n = system_means(r, z)

    assert z == pytest.approx([-math.sqrt(1.5), 0.0, 0.0, 0.0, math.sqrt(1.5)], abs=1e-12)
    assert list(n) == [2, 2]
    assert means == pytest.approx([-math.sqrt(1.5) / 4, math.sqrt(1.5) / 2], abs=1e-12)
    raw, _ = system_means(r)
    assert raw == pytest.approx([(3.5 + 5) / 2, 5.0])  # X's first item: (2 + 5) / 2


def test_a_score_that_is_not_a_number_is_left_out_and_bad_segments_are_refused() -> None:
    r = ratings(["X", "X"], [0, 1], ["A", "A"], [3.0, math.nan], 2, order=["W", "X"])

    assert (r.systems, len(r)) == (("W", "X"), 1)
    with pytest.raises(ValueError, match="segment 2 is outside 0…1"):
        ratings(["X"], [2], ["A"], [1.0], 2)
    with pytest.raises(ValueError, match="one of each per judgment"):
        ratings(["X"], [0, 1], ["A"], [1.0], 2)


def random_ratings(seed: int, *, uneven: bool) -> Ratings:
    """Four systems, 40 sentences, five judges with their own bias and scale, each item
    one judge and some two; ``uneven``: some systems miss some sentences."""
    rng = np.random.default_rng(seed)
    systems, segments, judges, values = [], [], [], []
    for s in range(4):
        for t in range(40):
            if uneven and rng.random() < 0.3:
                continue
            first = int(rng.integers(5))
            for a in [first] + ([(first + 1) % 5] if rng.random() < 0.2 else []):
                systems.append(f"S{s}")
                segments.append(t)
                judges.append(f"J{a}")
                values.append(float(np.clip(round(a - 2 + rng.normal(5 + s, 2)), 0, 10)))
    return ratings(systems, segments, judges, values, 40, order=["S0", "S1", "S2", "S3"])


@pytest.mark.parametrize("uneven", [False, True])
def test_the_figure_is_the_resample_that_draws_every_sentence_once(uneven: bool) -> None:
    r = random_ratings(1, uneven=uneven)
    bootstrap = Bootstrap(40, 100, 12345)

    z = judge_aware(r, bootstrap, normalise=True, info=SSER_Z)
    raw = judge_aware(r, bootstrap, normalise=False, info=SCORE)

    assert [f.score for f in z.figures] == pytest.approx(system_means(r, z_scores(r))[0], abs=1e-12)
    assert [f.score for f in raw.figures] == pytest.approx(system_means(r)[0], abs=1e-12)
    assert [f.n for f in z.figures] == list(system_means(r)[1])


def test_each_resample_normalises_each_judge_on_the_judgments_it_drew() -> None:
    """Sample b of the z figure is what the whole computation gives on the corpus the
    sample draws: each drawn sentence a new sentence, each judge's mean and standard
    deviation taken over the judgments drawn."""
    r = random_ratings(2, uneven=True)
    bootstrap = Bootstrap(40, 20, 7)
    z = judge_aware(r, bootstrap, normalise=True, info=SSER_Z)
    assert z.samples is not None
    for b in (0, 13):
        drawn = bootstrap.indices[b]
        picks = [np.flatnonzero(r.segment == t) for t in drawn]
        rows = np.concatenate(picks)
        copy = np.concatenate([np.full(len(p), k) for k, p in enumerate(picks)])
        names = [r.systems[s] for s in r.system[rows]]
        judges = [r.annotators[a] for a in r.annotator[rows]]
        again = ratings(names, copy.tolist(), judges, r.value[rows], 40, order=r.systems)
        expected, _ = system_means(again, z_scores(again))
        assert z.samples[:, b] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("uneven", [False, True])
def test_one_judge_per_item_without_normalisation_is_the_paired_bootstrap(uneven: bool) -> None:
    """Raw SSER errors of items judged once: the figures, intervals, p-values and rank
    groups of :meth:`~metrics.significance.Bootstrap.compare` on SSER's statistics, the
    dashboard's test of the SSER column (on each pair's common sentences where systems
    miss some)."""
    rng = np.random.default_rng(3)
    systems, segments, judges, scores = [], [], [], []
    for s in range(3):
        for t in range(30):
            if not (uneven and (t + s) % 4 == 0):
                systems.append(f"S{s}")
                segments.append(t)
                judges.append(f"J{t % 3}")
                scores.append(int(np.clip(rng.normal(6 + s / 2, 2), 0, 10)))
    errors = [(10 - x) * 10.0 for x in scores]
    r = ratings(systems, segments, judges, errors, 30)
    bootstrap = Bootstrap(30, 200, 12345)
    stats = {}
    masks = {}
    for name in ("S0", "S1", "S2"):
        mine = [k for k, s in enumerate(systems) if s == name]
        rows = np.zeros((30, 2))
        for k in mine:
            rows[segments[k]] = [(10 - scores[k]) / 10, 1]
        stats[name] = rows
        masks[name] = np.isin(np.arange(30), [segments[k] for k in mine])

    ours = judge_aware(r, bootstrap, normalise=False, info=SSER_INFO)
    theirs = bootstrap.compare(
        stats, SSER.score_from_stats, higher_is_better=False, masks=masks, bounds=(0.0, 100.0)
    )

    for a, b in zip(ours.figures, theirs.figures, strict=True):
        assert (a.system, a.n, a.group) == (b.system, b.n, b.group)
        assert a.score == pytest.approx(b.score, abs=1e-9)
        assert (a.interval.low, a.interval.high) == pytest.approx(
            (b.interval.low, b.interval.high), abs=1e-9
        )
    assert np.array(ours.p_values) == pytest.approx(np.array(theirs.p_values), abs=1e-12)
    assert ours.n_common == theirs.n_common


def test_a_judge_whose_drawn_scores_never_vary_gives_z_zero_not_a_rounding_error() -> None:
    """Judge C gives 0.1 every time (a mean that rounds): z = 0, as ``z_normalize``."""
    systems = ["X", "Y"] * 12
    segments = [t for t in range(12) for _ in range(2)]
    judges = ["C" if t < 6 else "D" for t in segments]
    values = [
        0.1 if j == "C" else float(t + (s == "X"))
        for j, t, s in zip(judges, segments, systems, strict=True)
    ]
    r = ratings(systems, segments, judges, values, 12)

    z = judge_aware(r, Bootstrap(12, 50, 1), normalise=True, info=SSER_Z)

    assert z_normalize(values, judges).values[:12] == pytest.approx([0.0] * 12)
    assert z.samples is not None
    assert np.isfinite(z.samples).all()
    assert np.abs(z.samples).max() < 3


def test_annotator_effects_by_hand() -> None:
    """Judge A scores the two items of sentences 0–11 8 (X) and 6 (Y); B scores those of
    sentences 12–23 5 and 5, and on sentences 0–9 also judges A's X items, scoring them
    6 where A gave 8: A's offset on the shared items is +2 (every one of them), B's −2.
    Against the others' grand mean: A's mean 7 minus B's (10 · 6 + 24 · 5)/34, and the
    other way round."""
    systems, segments, judges, values = [], [], [], []
    for t in range(12):
        for name, a_score, b_score in (("X", 8, 6), ("Y", 6, 5)):
            systems.append(name)
            segments.append(t)
            judges.append("A")
            values.append(a_score)
            if name == "X" and t < 10:
                systems.append(name)
                segments.append(t)
                judges.append("B")
                values.append(b_score)
    for t in range(12, 24):
        systems += ["X", "Y"]
        segments += [t, t]
        judges += ["B", "B"]
        values += [5, 5]
    r = ratings(systems, segments, judges, values, 24)

    a, b = annotator_effects(r, Bootstrap(24, 200, 5))

    assert (a.annotator, a.judgments, a.sentences, a.mean) == ("A", 24, 12, 7.0)
    assert (a.shared.value, a.shared.n, a.shared.sentences, a.shared.too_few) == (2.0, 10, 10, "")
    assert (a.shared.interval.low, a.shared.interval.high) == (2.0, 2.0)
    assert b.shared.value == -2.0
    b_mean = (10 * 6 + 24 * 5) / 34
    assert b.mean == pytest.approx(b_mean)
    assert a.overall.value == pytest.approx(7.0 - b_mean)
    assert b.overall.value == pytest.approx(b_mean - 7.0)
    low, high = a.overall.interval.low, a.overall.interval.high
    assert low <= a.overall.value <= high
    assert high > low


def test_an_offset_on_fewer_sentences_than_the_rule_claims_no_interval() -> None:
    """Nine shared sentences: the value, and "too few sentences (n = 9)" for the rest."""
    systems, segments, judges, values = [], [], [], []
    for t in range(MIN_SENTENCES - 1):
        systems += ["X", "X"]
        segments += [t, t]
        judges += ["A", "B"]
        values += [7, 4]

    a, _ = annotator_effects(ratings(systems, segments, judges, values, 9), Bootstrap(9, 50, 1))

    assert a.shared.value == 3.0
    assert a.shared.too_few == "too few sentences (n = 9)"
    assert a.shared.shown_interval is None


# ------------------------------------------------------------------ simulated campaigns


def campaign(
    rng: np.random.Generator,
    means: np.ndarray,
    n_sentences: int,
    bias: np.ndarray,
    scale: np.ndarray,
    *,
    overlap: float = 0.1,
    prefer: np.ndarray | None = None,
) -> Ratings:
    """A simulated campaign: system s's item at sentence t has quality
    ``means[s] + u_t + v_st`` (sentence difficulty u and the candidate's own v, each of
    standard deviation 1); judge a scores it ``bias[a] + scale[a] · (quality + e)``
    (e: the judge's noise, standard deviation 1). One judge per item, drawn at random
    (uniformly, or by the rows of ``prefer`` per system), and a share ``overlap`` of the
    items judged by a second, different judge."""
    n_systems, n_judges = len(means), len(bias)
    difficulty = rng.normal(size=n_sentences)
    quality = means[:, None] + difficulty + rng.normal(size=(n_systems, n_sentences))
    system = np.repeat(np.arange(n_systems), n_sentences)
    sentence = np.tile(np.arange(n_sentences), n_systems)
    if prefer is None:
        first = rng.integers(n_judges, size=system.size)
    else:
        first = (rng.random(system.size)[:, None] > np.cumsum(prefer, axis=1)[system]).sum(axis=1)
    twice = rng.random(system.size) < overlap
    second = (first + rng.integers(1, n_judges, size=system.size)) % n_judges
    s = np.concatenate([system, system[twice]])
    t = np.concatenate([sentence, sentence[twice]])
    a = np.concatenate([first, second[twice]])
    y = bias[a] + scale[a] * (quality[s, t] + rng.normal(size=a.size))
    names = [f"S{k}" for k in range(n_systems)]
    judges = [f"J{k}" for k in a]
    return ratings([names[k] for k in s], t.tolist(), judges, y, n_sentences, order=names)


def test_z_scores_recover_the_order_a_strict_judge_hides() -> None:
    """Three systems, true means 6.0 < 6.3 < 6.6; one judge of five is strict (2 points
    below the others) and judges half of the best system's items but a tenth of the
    others'. Raw means never give the true order in 100 campaigns, and put the best
    system last in 90 or more; the z-scores, each judge standardised over their own
    judgments, give the true order in at least 90 of them."""
    rng = np.random.default_rng(7)
    means = np.array([6.0, 6.3, 6.6])
    bias = np.array([-2.0, 0, 0, 0, 0])
    prefer = np.array([[0.1] + [0.225] * 4, [0.1] + [0.225] * 4, [0.5] + [0.125] * 4])
    truth = [0, 1, 2]
    raw_right = z_right = raw_best_last = 0
    for _ in range(100):
        r = campaign(rng, means, 300, bias, np.ones(5), prefer=prefer)
        raw, _ = system_means(r)
        z, _ = system_means(r, z_scores(r))
        raw_right += list(np.argsort(raw)) == truth
        z_right += list(np.argsort(z)) == truth
        raw_best_last += int(np.argmin(raw)) == 2

    assert z_right >= 90
    assert raw_right == 0
    assert raw_best_last >= 90


def holds(found: MetricSignificance, truth: np.ndarray) -> list[bool]:
    """Whether each system's interval holds its true value."""
    return [
        f.interval.low <= v <= f.interval.high for f, v in zip(found.figures, truth, strict=True)
    ]


#: Campaigns simulated for each coverage and power check.
RUNS = 400


def test_the_95_percent_intervals_cover_the_true_values_95_percent_of_the_time() -> None:
    """400 campaigns of four systems (true means 6.0, 6.4, 6.8, 7.2) on 150 sentences,
    six judges with random biases (standard deviation 1) and scales (0.7–1.3), one judge
    per item at random, 10 % judged twice. The truth: raw, what these judges give an
    item on average, ``mean(bias) + mean(scale) · μ_s`` (the panel is the campaign's own:
    the figure every judge judging every item would have); z, ``(μ_s − μ̄) / σ`` with σ
    the standard deviation of a judge's qualities (√(var μ + 1 + 1 + 1)), whatever the
    judges. Each coverage is the share of 400 campaigns' intervals holding the truth;
    its binomial standard error is √(0.95 · 0.05 / 400) = 1.1 points, and the
    campaigns' four systems share judges, so the test allows three standard errors of
    400 independent trials (±3.3 points), not of 1,600."""
    rng = np.random.default_rng(3)
    means = np.array([6.0, 6.4, 6.8, 7.2])
    truth_z = (means - means.mean()) / math.sqrt(means.var() + 3)
    covered: dict[str, list[bool]] = {"raw": [], "z": [], "difference": []}
    for run in range(RUNS):
        bias, scale = rng.normal(size=6), rng.uniform(0.7, 1.3, size=6)
        r = campaign(rng, means, 150, bias, scale)
        bootstrap = Bootstrap(150, 1000, run)
        z = judge_aware(r, bootstrap, normalise=True, info=SSER_Z)
        raw = judge_aware(r, bootstrap, normalise=False, info=SCORE)
        truth_raw = bias.mean() + scale.mean() * means
        covered["z"] += holds(z, truth_z)
        covered["raw"] += holds(raw, truth_raw)
        assert z.samples is not None
        low, high, _ = percentile_interval(z.samples[3] - z.samples[0])
        covered["difference"].append(bool(low <= truth_z[3] - truth_z[0] <= high))

    tolerance = 3 * math.sqrt(0.95 * 0.05 / RUNS)
    for kind, hits in covered.items():
        assert np.mean(hits) == pytest.approx(0.95, abs=tolerance), kind


def test_the_power_of_the_paired_test_on_z_scores_is_what_the_formula_says() -> None:
    """Two systems on 120 sentences, three judges with random biases and scales, one judge
    per item, 10 % twice. On z-scores each judge's bias and scale cancel, and a
    sentence's difference is (v_A − v_B + e_A − e_B)/σ: effect δ = Δμ/σ, spread
    √(2 + 2 · 0.95)/σ (an item judged twice halves its judge noise; 95 % is the mean of
    1/k). :func:`metrics.power.separation_power` at that effect and spread is held to
    the rejection rate of the paired t-test (:func:`metrics.power.separated`) over
    2,000 campaigns, within three binomial standard errors and one point for the
    formula's normal approximation; the same test on raw scores, where the judges' biases
    stay in each difference, separates far less often."""
    runs = 2000
    for gap in (0.3, 0.45):
        rng = np.random.default_rng(11)
        means = np.array([6.0, 6.0 + gap])
        sigma = math.sqrt(means.var() + 3)
        planned = separation_power(gap / sigma, math.sqrt(2 + 2 * 0.95) / sigma, 120)
        on_z = on_raw = 0
        for _ in range(runs):
            r = campaign(rng, means, 120, rng.normal(size=3), rng.uniform(0.7, 1.3, size=3))
            z, raw = item_means(r, z_scores(r)), item_means(r)
            on_z += bool(separated(z[1] - z[0]))
            on_raw += bool(separated(raw[1] - raw[0]))
        tolerance = 3 * math.sqrt(planned * (1 - planned) / runs) + 0.01
        assert on_z / runs == pytest.approx(planned, abs=tolerance), gap
        assert on_raw / runs < planned - 0.1, gap


# ------------------------------------------------------------------ many judges at once


def many_judges(seed: int, *, whole_sentences: bool) -> Ratings:
    """Forty judges' integer scores of 3 systems × 30 sentences: each judged sentence
    dealt to one judge (with every system, or each system to its own judge), a third of
    the items judged by a second judge too, a few sentences with one system left out,
    and a judge whose scores never vary (5 everywhere)."""
    rng = np.random.default_rng(seed)
    systems, segments, judges, values = [], [], [], []
    for t in range(30):
        dealt = int(rng.integers(40))
        for s in range(3):
            if t % 7 == 3 and s == 2:
                continue  # this sentence's third system is not judged
            first = dealt if whole_sentences else int(rng.integers(40))
            second = [(first + 1 + t) % 40] if rng.random() < 1 / 3 else []
            for judge in [first, *second]:
                systems.append(f"S{s}")
                segments.append(t)
                judges.append(f"j{judge:02d}")
                values.append(5 if judge == 7 else int(rng.integers(11)))
    return ratings(systems, segments, judges, values, 30)


def plain_pair_scores(r: Ratings, counts: np.ndarray, normalise: bool) -> np.ndarray:
    """The figure of each system on the sentences where each partner system has an
    item, per sample, by loops over the definition (module doc): each judge's mean and
    population std over the judgments drawn (a sentence drawn twice, its judgments
    twice), z = 0 for a judge without spread, each item's mean z, and the mean over the
    drawn items."""
    judged = r.judged()
    partners = judged.T if not (judged == judged[0]).all() else np.ones((r.n_segments, 1), bool)
    out = np.full((counts.shape[0], len(r.systems), partners.shape[1]), np.nan)
    full_var = {a: r.value[r.annotator == a].var() for a in range(len(r.annotators))}
    for b, c in enumerate(counts):
        z = r.value.astype(float).copy()
        if normalise:
            for a in range(len(r.annotators)):
                mine = np.flatnonzero(r.annotator == a)
                weight = c[r.segment[mine]]
                if weight.sum() == 0:
                    continue
                mean = (weight * r.value[mine]).sum() / weight.sum()
                var = (weight * (r.value[mine] - mean) ** 2).sum() / weight.sum()
                spread = var > 1e-9 * full_var[a]
                z[mine] = (r.value[mine] - mean) / math.sqrt(var) if spread else 0.0
        for s in range(len(r.systems)):
            for q in range(partners.shape[1]):
                total = drawn = 0.0
                for t in range(r.n_segments):
                    item = np.flatnonzero((r.system == s) & (r.segment == t))
                    if item.size and partners[t, q] and c[t]:
                        total += c[t] * z[item].mean()
                        drawn += c[t]
                if drawn:
                    out[b, s, q] = total / drawn
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("whole_sentences", [True, False])
@pytest.mark.parametrize("normalise", [True, False])
def test_the_resampled_figures_of_forty_judges_at_once_are_the_definitions(
    seed: int, whole_sentences: bool, normalise: bool
) -> None:
    """Every judge's normalisation and every item's z computed at once for all judges
    (one product per block of samples) give the definition's figures, sample by sample."""
    from metrics.judge_aware import _judge_rows, _pair_scores

    r = many_judges(seed, whole_sentences=whole_sentences)
    bootstrap = Bootstrap(30, 25, seed)
    judged = r.judged()
    same = bool((judged == judged[0]).all())
    partners = np.ones((30, 1), dtype=np.bool_) if same else judged.T
    counts = np.vstack([np.ones((1, 30)), bootstrap.counts])

    got = _pair_scores(r, _judge_rows(r), counts, partners, normalise=normalise)

    want = plain_pair_scores(r, counts, normalise)
    assert len(r.annotators) > 20
    assert np.isnan(got).sum() == np.isnan(want).sum()
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12, nan_ok=True)


def plain_effects(r: Ratings, bootstrap: Bootstrap, bounds: tuple[float, float]) -> list[tuple]:
    """Each judge's effect by loops over the definition (module doc): the judge's
    judgments, sentences, mean; on the shared items each judgment's score minus the mean
    of the other judges' scores of its item, averaged over the sentences drawn; against
    the others, the judge's drawn mean minus the others' drawn mean."""
    out = []
    counts = np.vstack([np.ones((1, r.n_segments)), bootstrap.counts])
    for a in range(len(r.annotators)):
        mine = np.flatnonzero(r.annotator == a)
        rest = np.flatnonzero(r.annotator != a)
        gaps, shared = [], []
        for j in mine:
            item = np.flatnonzero((r.system == r.system[j]) & (r.segment == r.segment[j]))
            others = [k for k in item if k != j]
            if others:
                gaps.append(r.value[j] - r.value[others].mean())
                shared.append(r.segment[j])

        def drawn_mean(c: np.ndarray, idx: np.ndarray, values: np.ndarray) -> float:
            weight = c[r.segment[idx]]
            with np.errstate(invalid="ignore", divide="ignore"):
                return float((weight * values).sum() / weight.sum())

        overall = [
            drawn_mean(c, mine, r.value[mine]) - drawn_mean(c, rest, r.value[rest]) for c in counts
        ]
        judged_sentences = set(r.segment[mine].tolist())
        alone = sum(1 for t in judged_sentences if set(r.annotator[r.segment == t]) == {a})
        others = len(set(r.segment.tolist())) - alone
        row = [
            r.annotators[a],
            len(mine),
            len(judged_sentences),
            r.value[mine].mean(),
            overall[0],
            *map(float, percentile_interval(np.array(overall[1:]), bounds)),
            shortfall(min(len(judged_sentences), others), "sentences"),
        ]
        if shared:
            segs, g = np.array(shared), np.array(gaps)
            means = []
            for c in counts:
                weight = c[segs]
                with np.errstate(invalid="ignore", divide="ignore"):
                    means.append(float((weight * g).sum() / weight.sum()))
            n_sentences = len(set(shared))
            row += [
                means[0],
                *map(float, percentile_interval(np.array(means[1:]), bounds)),
                len(shared),
                n_sentences,
                shortfall(n_sentences, "sentences"),
            ]
        else:
            row += [None]
        out.append(row)
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("whole_sentences", [True, False])
def test_forty_judges_effects_at_once_are_the_definitions(seed: int, whole_sentences: bool) -> None:
    """Every judge's effect, their sums taken at once for all judges, equals the
    definition computed judge by judge and sample by sample."""
    r = many_judges(seed, whole_sentences=whole_sentences)
    bootstrap = Bootstrap(30, 40, seed)
    bounds = (-10.0, 10.0)

    got = annotator_effects(r, bootstrap, bounds=bounds)

    want = plain_effects(r, bootstrap, bounds)
    assert len(got) == len(want) > 20
    assert any(w[-1] is None for w in want)  # a judge who shared nothing
    assert any(w[-1] is not None for w in want)
    for e, w in zip(got, want, strict=True):
        o = e.overall
        assert (e.annotator, e.judgments, e.sentences) == tuple(w[:3])
        assert e.mean == pytest.approx(w[3], rel=1e-12)
        ours = (o.value, o.interval.low, o.interval.high, o.interval.mean)
        assert ours == pytest.approx(tuple(w[4:8]), rel=1e-12, abs=1e-12, nan_ok=True)
        assert o.too_few == w[8]
        if w[9] is None:
            assert e.shared is NO_OFFSET
            continue
        s = e.shared
        ours = (s.value, s.interval.low, s.interval.high, s.interval.mean)
        assert ours == pytest.approx(tuple(w[9:13]), rel=1e-12, abs=1e-12, nan_ok=True)
        assert (s.n, s.sentences, s.too_few) == tuple(w[13:16])


@pytest.mark.parametrize("normalise", [True, False])
def test_one_more_judgment_on_a_new_sentence_reads_that_sentence_alone(normalise: bool) -> None:
    """A corpus dealt by whole sentences, then one system judged on a sentence no other
    has: each system's figure on each partner's sentences is its own figure less that one
    sentence's part, the definition's figures to rounding."""
    from metrics.judge_aware import _judge_rows, _pair_scores, uneven_sentences

    r = many_judges(4, whole_sentences=True)
    keep = r.segment % 7 != 3  # every sentence: all systems or none
    keep &= r.segment != 12  # sentence 12 judged by nobody …
    systems = [r.systems[s] for s in r.system[keep]] + ["S1"]  # … then by one, for S1
    segments = [*r.segment[keep].tolist(), 12]
    judges = [r.annotators[a] for a in r.annotator[keep]] + ["j03"]
    one_more = ratings(systems, segments, judges, [*r.value[keep].tolist(), 4.0], 30)
    judged = one_more.judged()
    counts = np.vstack([np.ones((1, 30)), Bootstrap(30, 25, 4).counts])

    got = _pair_scores(one_more, _judge_rows(one_more), counts, judged.T, normalise=normalise)

    assert uneven_sentences(judged, judged.T).tolist() == [12]
    assert uneven_sentences(r.judged()[:, :0], np.ones((0, 1), np.bool_)).size == 0
    want = plain_pair_scores(one_more, counts, normalise)
    assert np.isnan(got).sum() == np.isnan(want).sum()
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12, nan_ok=True)


PerSample = tuple[np.ndarray, np.ndarray]


def keeper() -> tuple[dict[str, PerSample], list[str], Callable[..., PerSample]]:
    """What is kept by each judge's name, whose were computed, and the keeper itself."""
    kept: dict[str, PerSample] = {}
    computed: list[str] = []

    def keep(name: str, compute: Callable[[], PerSample]) -> PerSample:
        if name not in kept:
            kept[name], _ = compute(), computed.append(name)
        return kept[name]

    return kept, computed, keep


@pytest.mark.parametrize("whole_sentences", [True, False])
def test_each_judges_normalisation_kept_from_before_gives_the_figures_to_the_bit(
    whole_sentences: bool,
) -> None:
    """Each judge's normalisation on the resamples kept by the judge's name, and only
    the judge whose scores changed normalised again (as the dashboard keeps them after a
    click), gives the z figure computed at once: its intervals, p-values, rank groups and
    every sample, to the bit."""
    r = many_judges(5, whole_sentences=whole_sentences)
    bootstrap = Bootstrap(30, 40, 5)
    kept, computed, keep = keeper()

    first = judge_aware(r, bootstrap, normalise=True, info=SSER_Z, kept=keep)
    assert repr(first) == repr(judge_aware(r, bootstrap, normalise=True, info=SSER_Z))
    # the busiest judge's scores change: theirs normalised anew, every other's as kept
    busiest = int(np.bincount(r.annotator).argmax())
    changed = replace(r, value=np.where(r.annotator == busiest, r.value * 7 % 11, r.value))
    del kept[r.annotators[busiest]]
    computed.clear()

    got = judge_aware(changed, bootstrap, normalise=True, info=SSER_Z, kept=keep)

    want = judge_aware(changed, bootstrap, normalise=True, info=SSER_Z)
    assert computed == [r.annotators[busiest]]
    assert repr(got) == repr(want)  # every float as written: the same bits
    assert got.samples is not None
    assert want.samples is not None
    assert got.samples.tobytes() == want.samples.tobytes()
    assert repr(got) != repr(first)


@pytest.mark.parametrize("whole_sentences", [True, False])
def test_each_judges_sums_kept_from_before_give_the_effects_to_the_bit(
    whole_sentences: bool,
) -> None:
    """Each judge's sums of their own scores on the resamples kept by the judge's name,
    and only the judge whose scores changed summed again, give every judge's effect
    computed at once: values and intervals, to the bit."""
    r = many_judges(6, whole_sentences=whole_sentences)
    bootstrap = Bootstrap(30, 40, 6)
    kept, computed, keep = keeper()

    first = annotator_effects(r, bootstrap, kept=keep)
    assert repr(first) == repr(annotator_effects(r, bootstrap))
    busiest = int(np.bincount(r.annotator).argmax())
    changed = replace(r, value=np.where(r.annotator == busiest, r.value * 7 % 11, r.value))
    del kept[r.annotators[busiest]]
    computed.clear()

    got = annotator_effects(changed, bootstrap, kept=keep)

    assert computed == [r.annotators[busiest]]
    assert repr(got) == repr(annotator_effects(changed, bootstrap))  # the same bits
    assert repr(got) != repr(first)
