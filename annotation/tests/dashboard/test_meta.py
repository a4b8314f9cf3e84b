"""Meta-evaluation (``annotation/dashboard/meta.py``): Pearson's r and Kendall's τ-b of the
automatic metrics against the human figures, by hand."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pytest

from annotation.changes import judgments_changed
from annotation.dashboard import figures, sources
from annotation.dashboard.judges import normalized_sser
from annotation.dashboard.meta import meta_evaluation, stored_samples
from annotation.dashboard.meta_human import human_side, sentence_human
from annotation.dashboard.panels.meta import meta_metric_sides, meta_panel
from annotation.models import Corpus
from annotation.statistics import AUTOMATIC_METRICS
from annotation.tests.boards import view_of
from annotation.tests.factories import judgment_row
from metrics import human

pytestmark = pytest.mark.django_db


def kendall_brute(x: Sequence[float], y: Sequence[float]) -> float:
    """τ-b by its definition, over all pairs (for checking)."""
    c = d = tx = ty = 0
    for i, j in combinations(range(len(x)), 2):
        sx, sy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        if sx == 0 and sy == 0:
            continue
        if sx == 0:
            tx += 1
        elif sy == 0:
            ty += 1
        elif sx == sy:
            c += 1
        else:
            d += 1
    return (c - d) / math.sqrt((c + d + tx) * (c + d + ty))


def test_meta_evaluation_by_hand(judged_hand: Corpus) -> None:
    """System level: WER 0, 25, 100 against SSER 0, 25, 100 and aWER 0, 25, 100 — one
    line, r = τ = 1 on 3 points. Sentence level: one point per judged candidate (12)."""
    meta = view_of(judged_hand).get(meta_panel)

    for human_metric in ("sser", "awer"):
        system = meta.get("wer", human_metric, "system")
        assert system.pearson.value == pytest.approx(1.0, abs=1e-12)
        assert system.kendall.value == pytest.approx(1.0, abs=1e-12)
        assert system.pearson.n == system.kendall.n == 3
        assert meta.get("bleu", human_metric, "system").kendall.value == pytest.approx(-1.0)

    x = [0.0] * 4 + [25.0] * 4 + [100.0] * 4  # sentence WER, in judgment order
    y = [0.0] * 4 + [20.0, 30.0, 20.0, 30.0] + [100.0] * 4  # sentence SSER errors
    sentence = meta.get("wer", "sser", "sentence")
    assert sentence.pearson.n == 12
    assert sentence.pearson.value == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
    assert sentence.kendall.value == pytest.approx(kendall_brute(x, y), abs=1e-12)


def test_pairwise_accuracies_by_hand(judged_hand: Corpus) -> None:
    """WER 0, 25, 100 and SSER errors 0, 20–30, 100: every pair in the same order (both
    lower is better), and BLEU the reverse way round, higher is better: accuracy 1.

    Soft: WER is the same on every sentence of a system, so each pair's sample
    differences are all equal, centred all 0, below the real difference (25 or 75):
    p = 0. The SSER differences vary by at most 5 around 25 or 75: p = 0 too. Every
    pair scores 1 − |0 − 0|, on the corpus and on every sample."""
    meta = view_of(judged_hand).get(meta_panel)

    for metric in ("wer", "bleu"):
        system = meta.get(metric, "sser", "system")
        assert system.accuracy is not None
        assert system.soft_accuracy is not None
        assert (system.accuracy.value, system.accuracy.n) == (1.0, 3)
        assert (system.soft_accuracy.value, system.soft_accuracy.n) == (1.0, 3)
        assert system.accuracy_interval == system.soft_accuracy_interval == (1.0, 1.0)
    sentence = meta.get("wer", "sser", "sentence")
    assert sentence.accuracy is None
    assert sentence.soft_accuracy is None
    cells = {
        (c["level"], c["coef"]): c
        for row in meta.grid
        if row["metric"] == "wer"
        for c in row["cells"]
        if c["human"] == "sser"
    }
    assert list(cells) == [
        ("sentence", "pearson"),
        ("sentence", "kendall"),
        ("system", "pearson"),
        ("system", "kendall"),
        ("system", "pairwise_accuracy"),
        ("system", "soft_pairwise_accuracy"),
    ]
    soft = cells["system", "soft_pairwise_accuracy"]
    # four judged sentences a system: the page shows no value (metrics.claims)
    assert soft["too_few"] == "too few judged sentences (n = 4)"
    assert (math.isnan(soft["value"]), soft["n"], soft["interval"]) == (True, 3, "")
    assert soft["title"].startswith("Soft pairwise accuracy")


def test_the_stored_sample_scores_give_the_intervals_of_scoring_every_sample(
    demo: Corpus,
) -> None:
    """The scoring job's paired bootstrap keeps each system's score on every sample;
    the meta-evaluation reads them instead of scoring the samples again, and every
    figure and interval is the same as when it scores them itself."""
    dash = view_of(demo)
    auto, bootstrap = dash.get(sources.chosen_statistics), dash.get(sources.bootstrap)
    assert bootstrap is not None
    for m in AUTOMATIC_METRICS:
        kept = stored_samples(auto, m, bootstrap)
        assert kept is not None, m
        stacked = np.stack([auto.segment_stats(m, s) for s in auto.systems])
        scored = bootstrap.sample_scores(stacked, dash.get(sources.metrics)[m].score_from_stats)
        assert kept.tobytes() == scored.tobytes(), m
    not_kept = dataclasses.replace(
        auto,
        significance={
            m: dataclasses.replace(sig, samples=None) for m, sig in auto.significance.items()
        },
    )
    assert all(stored_samples(not_kept, m, bootstrap) is None for m in AUTOMATIC_METRICS)
    side = human_side(
        dash.get(sources.judgments), dash.get(figures.human), normalize=False, bootstrap=bootstrap
    )

    read = meta_evaluation(
        auto, dash.get(sources.metrics), side, normalize=False, bootstrap=bootstrap
    )
    scored_here = meta_evaluation(
        not_kept, dash.get(sources.metrics), side, normalize=False, bootstrap=bootstrap
    )

    system = [r for r in read.rows if r.level == "system"]
    assert all(r.pearson_interval is not None for r in system)
    assert any(r.soft_accuracy_interval != (1.0, 1.0) for r in system)
    assert repr(read.rows) == repr(scored_here.rows)  # repr: NaN equals NaN, to the bit


def test_a_judgment_leaves_the_automatic_side_kept_and_the_figures_as_computed_afresh(
    demo: Corpus,
) -> None:
    """The automatic side of the pairwise figures (each pair's p-value on every sample)
    depends on the stored statistics alone: kept under the texts stamp, a judgment does
    not compute it again, and the figures are those of computing everything afresh."""
    first = view_of(demo)
    kept = meta_metric_sides(first, first.get(sources.chosen_statistics))
    judgments_changed(demo.pk)
    dash = view_of(Corpus.objects.get(pk=demo.pk))

    assert meta_metric_sides(dash, dash.get(sources.chosen_statistics)) is kept
    side = human_side(
        dash.get(sources.judgments),
        dash.get(figures.human),
        normalize=False,
        bootstrap=dash.get(sources.bootstrap),
    )
    afresh = meta_evaluation(
        dash.get(sources.chosen_statistics),
        dash.get(sources.metrics),
        side,
        normalize=False,
        bootstrap=dash.get(sources.bootstrap),
    )
    assert repr(dash.get(meta_panel).rows) == repr(afresh.rows)


def test_normalized_meta_evaluation_uses_normalized_sser(judged_hand: Corpus) -> None:
    raw = view_of(judged_hand).get(meta_panel).get("wer", "sser", "sentence")
    normalized = view_of(judged_hand, normalize=True).get(meta_panel).get("wer", "sser", "sentence")

    # one judge: normalization is an affine map of its scores, r does not change …
    assert normalized.pearson.value == pytest.approx(raw.pearson.value, abs=1e-12)
    assert normalized.pearson.n == raw.pearson.n
    # … but the system-level human figures are now relative (mean z per system)
    sys_level = view_of(judged_hand, normalize=True).get(meta_panel).get("wer", "sser", "system")
    assert sys_level.kendall.value == pytest.approx(1.0)


@pytest.mark.parametrize("normalize", [False, True])
def test_sentence_human_values_equal_the_plain_loops(normalize: bool) -> None:
    """Per candidate: the mean of its judges' SSER errors (sums in row order) and the rate
    of its summed edit counts, candidates in order of first appearance."""
    rng = random.Random(7)
    rows = [
        judgment_row(
            rng.choice("ST"),
            rng.randint(0, 9),
            rng.choice("ABC"),
            sser=None if rng.random() < 0.2 else rng.randint(0, 10),
            edits=None if rng.random() < 0.2 else rng.randint(0, 5),
            length=rng.randint(0, 7),
        )
        for _ in range(200)
    ]
    rows = [r._replace(ref_length=None) if r.edits is None else r for r in rows]
    errors = (
        normalized_sser(rows)
        if normalize
        else [math.nan if r.sser_error is None else r.sser_error for r in rows]
    )
    values: dict[tuple[str, int], list[float]] = {}
    sums: dict[tuple[str, int], list[float]] = {}
    for r, v in zip(rows, errors, strict=True):
        if not math.isnan(v):
            values.setdefault((r.system, r.segment), []).append(float(v))
        if r.counted:
            s = sums.setdefault((r.system, r.segment), [0.0, 0.0])
            s[0] += r.edits
            s[1] += r.ref_length

    sser = sentence_human(rows, "sser", normalize=normalize)
    awer = sentence_human(rows, "awer", normalize=normalize)

    assert list(sser.items()) == [(k, sum(v) / len(v)) for k, v in values.items()]
    assert list(awer.items()) == [(k, human.rate(e, n)) for k, (e, n) in sums.items()]
