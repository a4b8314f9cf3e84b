"""The judges panel (``annotation/dashboard/judges.py``): judges' figures, the (0, 1)
normalization and the agreement, by hand."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np
import pytest

from annotation.controls.quality import JudgeControls
from annotation.dashboard.judges import agreement, judges_panel, normalized_sser
from annotation.statistics import JudgmentRow
from annotation.tests.factories import judgment_row
from annotation.text import words
from metrics.correlation import krippendorff_alpha_interval, pearson
from metrics.significance import Bootstrap, percentile_interval


def test_agreement_on_candidates_judged_twice_by_hand() -> None:
    """SSER pairs (2, 4), (6, 6), (10, 8): mean 6, Σ(a−b)² = 8, Σ(v−6)² = 40, so the
    both-orders Pearson r = 1 − 8/40 = 0.8; Krippendorff's α over the six values:
    D_o = 16/6, D_e = 480/30 = 16, α = 1 − 1/6. Sentence aWER pairs (10 %, 20 %),
    (0, 0), (30 %, 30 %): r = 1 − 100/950 = 17/19. New references identical in 2 of 3
    pairs. A candidate judged once does not count."""
    rows = [
        judgment_row("S", 0, "A", sser=2, edits=1, length=10, new_ref="x y", target=1),
        judgment_row("S", 0, "B", sser=4, edits=2, length=10, new_ref="x z", target=1),
        judgment_row("S", 1, "A", sser=6, edits=0, length=5, new_ref="p q", target=2),
        judgment_row("S", 1, "B", sser=6, edits=0, length=5, new_ref="p  q", target=2),
        judgment_row("T", 1, "A", sser=10, edits=3, length=10, new_ref="r", target=3),
        judgment_row("T", 1, "B", sser=8, edits=3, length=10, new_ref="r", target=3),
        judgment_row("T", 2, "A", sser=0, edits=9, length=9, new_ref="alone", target=4),
    ]

    a = agreement(rows, normalize=False)

    assert (a.candidates, a.pairs) == (3, 3)
    assert a.sser_pearson.value == pytest.approx(0.8, abs=1e-12)
    assert a.sser_pearson.n == 3
    assert a.sser_alpha.value == pytest.approx(5 / 6, abs=1e-12)
    assert a.sser_alpha.n == 6
    assert a.awer_pearson.value == pytest.approx(17 / 19, abs=1e-12)
    assert a.identical_new_refs == pytest.approx(2 / 3)


def test_agreement_without_candidates_judged_twice_is_undefined() -> None:
    a = agreement(
        [judgment_row("S", 0, "A", sser=5), judgment_row("S", 1, "B", sser=5)], normalize=False
    )

    assert (a.candidates, a.pairs, a.identical_new_refs) == (0, 0, None)
    assert math.isnan(a.sser_pearson.value)
    assert a.sser_pearson.n == 0
    assert math.isnan(a.sser_alpha.value)


def test_normalization_by_hand() -> None:
    """Judge A scores 10, 5, 0 → errors 0, 50, 100 %: mean 50, population std
    √(5000/3), z = ∓√1.5, 0. Judge B's single score carries no spread: z = 0."""
    rows = [
        judgment_row("S", 0, "A", sser=10),
        judgment_row("S", 1, "A", sser=5),
        judgment_row("T", 0, "A", sser=0),
        judgment_row("T", 1, "B", sser=3),
        judgment_row("T", 2, "B"),  # no score: stays NaN
    ]

    z = normalized_sser(rows)

    assert z[:4] == pytest.approx([-math.sqrt(1.5), 0.0, math.sqrt(1.5), 0.0], abs=1e-12)
    assert math.isnan(z[4])
    panel = judges_panel(rows, ["S", "T"], normalize=True)
    assert [(s.system, s.n) for s in panel.normalized] == [("S", 2), ("T", 2)]
    assert panel.normalized[0].value == pytest.approx(-math.sqrt(1.5) / 2, abs=1e-12)
    assert panel.normalized[1].value == pytest.approx(math.sqrt(1.5) / 2, abs=1e-12)


def test_judges_panel_by_hand() -> None:
    rows = [
        judgment_row("S", 0, "ann", sser=10, edits=0, length=4, seconds=90),
        judgment_row("S", 1, "ann", sser=6, edits=2, length=6, seconds=30),
        judgment_row("T", 0, "bob", sser=None, edits=1, length=5, seconds=0),
    ]

    panel = judges_panel(rows, ["S", "T"], normalize=False)
    ann, bob = panel.judges

    assert (ann.name, ann.judgments, ann.scored) == ("ann", 2, 2)
    assert ann.mean_score == 8.0
    assert ann.std == 2.0
    assert ann.sser == pytest.approx(20.0)  # errors 0 % and 40 %
    assert ann.awer == pytest.approx(20.0)  # 2 edits / 10 words
    assert ann.minutes == 2.0
    assert ann.per_hour == pytest.approx(60.0)
    assert (bob.mean_score, bob.sser, bob.per_hour) == (None, None, None)
    assert bob.awer == pytest.approx(20.0)
    assert panel.normalized == ()


def _plain_agreement(rows: list, *, normalize: bool) -> tuple:
    """The agreement's pairs and figures by nested loops (the rule in plain Python)."""
    by_target: dict[int, list[int]] = {}
    for i, r in enumerate(rows):
        by_target.setdefault(r.target_id, []).append(i)
    multi = [idx for idx in by_target.values() if len(idx) >= 2]
    sser = (
        normalized_sser(rows)
        if normalize
        else [math.nan if r.sser is None else float(r.sser) for r in rows]
    )
    awer = [
        math.nan if not r.counted else (100.0 * r.edits / r.ref_length if r.ref_length else 0.0)
        for r in rows
    ]
    sx, sy, ax, ay, same, ref_pairs = [], [], [], [], 0, 0
    for idx in multi:
        for a_pos, a in enumerate(idx):
            for b in idx[a_pos + 1 :]:
                sx += [sser[a], sser[b]]
                sy += [sser[b], sser[a]]
                ax += [awer[a], awer[b]]
                ay += [awer[b], awer[a]]
                if rows[a].counted and rows[b].counted:
                    ref_pairs += 1
                    same += words(rows[a].new_ref) == words(rows[b].new_ref)
    return pearson(sx, sy), pearson(ax, ay), same, ref_pairs, len(multi)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("normalize", [False, True])
def test_agreement_equals_the_nested_loops_to_the_last_bit(seed: int, normalize: bool) -> None:
    """Candidates judged up to four times, rows in any order, missing scores and edit
    counts, new references that differ only in spacing, in an entity or in a word."""
    rng = random.Random(seed)
    refs = ["a b c .", "a  b c .", "a b c.", "a &amp; b", "a & b", "x y", "x y z"]
    rows = [
        judgment_row(
            f"S{t % 3}",
            t,
            judge,
            sser=None if rng.random() < 0.1 else rng.randint(0, 10),
            edits=None if rng.random() < 0.1 else rng.randint(0, 5),
            length=rng.randint(0, 6),
            new_ref=rng.choice(refs),
            target=t,
        )
        for t in range(60)
        for judge in ("A", "B", "C", "D")[: rng.randint(1, 4)]
    ]
    rows = [r._replace(ref_length=None) if r.edits is None else r for r in rows]
    rng.shuffle(rows)

    got = agreement(rows, normalize=normalize)
    r_sser, r_awer, same, ref_pairs, candidates = _plain_agreement(rows, normalize=normalize)

    assert got.candidates == candidates
    assert got.awer_pairs == ref_pairs
    for mine, plain in ((got.sser_pearson, r_sser), (got.awer_pearson, r_awer)):
        assert mine.n == plain.n // 2
        assert mine.value == plain.value or (math.isnan(mine.value) and math.isnan(plain.value))
    assert got.identical_new_refs == (same / ref_pairs if ref_pairs else None)


def test_the_panel_pairs_each_judge_with_their_control_items() -> None:
    """The figures come from counted judgments only; the control items' results sit
    beside them, a judge with control items only gets a row of zeros, and the columns
    show while controls are on or any result exists."""
    rows = [judgment_row("S", 0, "ann", sser=8), judgment_row("S", 1, "bob", sser=4)]
    panel = judges_panel(rows, ["S"], normalize=False)
    ann = JudgeControls("ann", 4, 4, 2, 2, 70)
    cid = JudgeControls("cid", 2, 0, 0, 0, 70)

    shown = panel.with_controls((ann, cid), on=False)

    assert [(r.name, r.controls) for r in shown.rows] == [("ann", ann), ("bob", None), ("cid", cid)]
    assert shown.rows[2].figures.judgments == 0
    assert shown.rows[2].figures.sser is None
    assert shown.judges == panel.judges
    assert shown.controls_shown
    assert shown.flagged == (cid,)
    assert not panel.controls_shown
    assert panel.with_controls((), on=True).controls_shown


def twice_judged(sentences: int, seed: int = 0) -> list[JudgmentRow]:
    """Two systems' candidates of ``sentences`` sentences, each judged by A and by B (B
    within a point or two of A), and a candidate judged by A alone."""
    rng = random.Random(seed)
    rows = []
    for t in range(sentences):
        for k, system in enumerate(("S", "T")):
            score = rng.randint(0, 10)
            rows.append(judgment_row(system, t, "A", sser=score, target=2 * t + k))
            near = min(10, max(0, score + rng.randint(-2, 2)))
            rows.append(judgment_row(system, t, "B", sser=near, target=2 * t + k))
    rows.append(judgment_row("S", sentences, "A", sser=3, target=10**5))
    return rows


def test_the_agreement_intervals_are_the_coefficients_of_the_resampled_sentences() -> None:
    """Each sample's α and r are those of the candidates judged twice in the sentences it
    drew (a sentence drawn twice, its candidates twice); the interval is the percentile
    interval of those samples, and it holds the coefficient."""
    rows = twice_judged(30)
    bootstrap = Bootstrap(31, 60, 3)

    found = agreement(rows, normalize=False, bootstrap=bootstrap)

    matrix = np.array(
        [[float(r.sser) for r in rows[:-1] if r.evaluator == judge] for judge in ("A", "B")]
    )
    alphas = []
    for drawn in bootstrap.indices:  # sentence t's candidates are columns 2t and 2t + 1
        columns = [2 * t + k for t in drawn if t < 30 for k in (0, 1)]
        alphas.append(krippendorff_alpha_interval(matrix[:, columns]).value)
    low, high, _ = percentile_interval(np.array(alphas), (-math.inf, 1.0))
    iv = found.sser_alpha_interval
    assert iv is not None
    assert (iv.low, iv.high) == pytest.approx((float(low), float(high)), abs=1e-12)
    assert iv.low < found.sser_alpha.value < iv.high
    assert found.sentences == 30
    assert found.interval_too_few == ""
    assert found.intervals["sser_alpha"] == iv
    pearson_iv = found.intervals["sser_pearson"]
    assert pearson_iv is not None
    assert pearson_iv.low < found.sser_pearson.value < pearson_iv.high
    assert agreement(rows, normalize=False).sser_alpha_interval is None


def test_an_agreement_on_fewer_than_ten_sentences_has_no_interval() -> None:
    """Nine sentences of two candidates judged twice: α on 18 candidates is shown, its
    interval is not: it would rest on nine sentences."""
    found = agreement(twice_judged(9), normalize=False, bootstrap=Bootstrap(10, 50, 1))

    assert found.candidates == 18
    assert found.too_few["sser_alpha"] == ""
    assert found.interval_too_few == "too few sentences judged twice (n = 9)"
    assert found.intervals == {"sser_alpha": None, "sser_pearson": None}


def plain_matrix(rows: list[JudgmentRow], normalize: bool) -> tuple[np.ndarray, list[int]]:
    """The judges × candidates matrix of the candidates judged more than once, filled by
    a loop over the rows (judges by name, candidates in order of first appearance, a
    later row of the same judge and candidate over an earlier one), and each
    candidate's sentence."""
    sser = (
        normalized_sser(rows)
        if normalize
        else [math.nan if r.sser is None else float(r.sser) for r in rows]
    )
    times: dict[int, int] = {}
    for r in rows:
        times[r.target_id] = times.get(r.target_id, 0) + 1
    candidates = list(dict.fromkeys(r.target_id for r in rows if times[r.target_id] >= 2))
    judges = sorted({r.evaluator for r in rows if times[r.target_id] >= 2})
    matrix = np.full((len(judges), len(candidates)), math.nan)
    segments = [0] * len(candidates)
    for i, r in enumerate(rows):
        if times[r.target_id] >= 2:
            c = candidates.index(r.target_id)
            matrix[judges.index(r.evaluator), c] = sser[i]
            segments[c] = r.segment
    return matrix, segments


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("normalize", [False, True])
def test_the_agreement_of_eighty_judges_is_the_matrix_s_without_building_it(
    seed: int, normalize: bool
) -> None:
    """Eighty judges, candidates judged once to three times in any order, some scores
    missing, a judge who judged one candidate twice (the later judgment counts): α, its
    count of candidates and sentences, and its intervals are the judges × candidates
    matrix's to the last bit."""
    rng = random.Random(seed)
    rows = []
    for t in range(120):
        judges = rng.sample(range(80), rng.choice([1, 1, 2, 3]))
        for judge in judges:
            sser = None if rng.random() < 0.05 else rng.randint(0, 10)
            rows.append(judgment_row("S", t // 3, f"judge{judge}", sser=sser, target=t))
    rows.append(judgment_row("S", 0, rows[0].evaluator, sser=10, target=rows[0].target_id))
    rng.shuffle(rows)
    bootstrap = Bootstrap(40, 60, seed)

    got = agreement(rows, normalize=normalize, bootstrap=bootstrap)

    matrix, segments = plain_matrix(rows, normalize)
    assert got.sser_alpha == krippendorff_alpha_interval(matrix)
    assert got.candidates == matrix.shape[1]
    twice = (~np.isnan(matrix)).sum(axis=0) >= 2
    assert got.sentences == len({s for s, t in zip(segments, twice, strict=True) if t})
    alphas = []
    for drawn in bootstrap.indices:
        columns = [c for t in drawn for c, s in enumerate(segments) if s == t]
        alphas.append(krippendorff_alpha_interval(matrix[:, columns]).value)
    low, high, _ = percentile_interval(np.array(alphas), (-math.inf, 1.0))
    iv = got.sser_alpha_interval
    assert iv is not None
    assert (iv.low, iv.high) == pytest.approx((float(low), float(high)), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_judges_z_scores_kept_one_judge_at_a_time_are_those_of_all_at_once(seed: int) -> None:
    """Each judge normalized apart, as a view keeps them (one judge's recomputed after a
    click), gives the values normalizing every judgment at once gives, to the bit: an
    unscored judgment, a judge with one score and a judge whose scores are all equal
    included."""
    rng = random.Random(seed)
    rows = [
        judgment_row(
            f"s{rng.randint(0, 3)}",
            rng.randint(0, 30),
            rng.choice(["ann", "bob", "cy", "dee"]),
            sser=None if rng.random() < 0.1 else rng.randint(0, 10),
        )
        for _ in range(300)
    ]
    rows += [judgment_row("s0", 0, "solo", sser=4)]
    rows += [judgment_row("s1", k, "flat", sser=7) for k in range(5)]
    kept: dict[str, np.ndarray] = {}

    def keep(name: str, compute: Callable[[], np.ndarray]) -> np.ndarray:
        return kept.setdefault(name, compute())

    whole = normalized_sser(rows)
    assert normalized_sser(rows, keep).tobytes() == whole.tobytes()
    assert normalized_sser(rows, keep).tobytes() == whole.tobytes()  # as kept
    assert set(kept) == {"ann", "bob", "cy", "dee", "solo", "flat"}
