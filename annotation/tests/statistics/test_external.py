"""Segment scores computed elsewhere, imported as a named metric of a corpus: stored whole
or not at all, read back in one query (none for a corpus without any), replaced, deleted,
made figures of (the mean, by the same paired bootstrap as every metric) and read as
per-system arrays by any figure that wants a covariate."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.changes import candidates_changed
from annotation.models import Corpus, ExternalMetric, ExternalScores, Target
from annotation.statistics import (
    ScoresRefused,
    external_figures,
    external_metric_delete,
    external_metric_import,
    external_metric_store,
    external_metrics,
    external_segment_scores,
    forget,
    paired_bootstrap,
)
from annotation.tests.factories import sized_corpus
from annotation.tests.imported import import_scores, tsv, wmt

pytestmark = pytest.mark.django_db

COMET = {
    "perfect": [0.9, 0.8, 0.95, 0.85],
    "one-off": [0.7, 0.6, 0.65, 0.7],
    "bad": [0.1, -0.2, 0.05, 0.0],
}


def fresh(corpus: Corpus) -> Corpus:
    """The corpus as the next request reads it, in a process that remembers nothing."""
    forget()
    return Corpus.objects.get(pk=corpus.pk)


def test_a_file_is_stored_as_one_row_per_system_and_read_back_in_corpus_order(
    hand_corpus: Corpus,
) -> None:
    metric = import_scores(hand_corpus, "COMET-22", COMET, description="wmt22-comet-da")

    assert metric.layout == "tsv"
    assert metric.source == "COMET-22.tsv"
    assert ExternalScores.objects.filter(metric=metric).count() == 3
    (read,) = external_metrics(fresh(hand_corpus))
    assert (read.name, read.higher_is_better, read.description) == (
        "COMET-22",
        True,
        "wmt22-comet-da",
    )
    assert {s: v.tolist() for s, v in read.scores.items()} == COMET
    assert read.systems == ("perfect", "one-off", "bad")


def test_the_wmt_layout_stores_the_same_scores(tmp_path: Path) -> None:
    corpus_a, corpus_b = (sized_corpus(tmp_path, n, 3) for n in ("a", "b"))
    scores = {f"system {s}": [0.1 * s + 0.01 * k for k in range(3)] for s in range(3)}
    for corpus, layout, data in ((corpus_a, "tsv", tsv(scores)), (corpus_b, "wmt", wmt(scores))):
        external_metric_import(
            corpus=corpus, data=data, layout=layout, name="COMET", higher_is_better=True
        )
    assert external_segment_scores(fresh(corpus_a), "COMET").keys() == scores.keys()
    for system, values in scores.items():
        assert external_segment_scores(corpus_a, "COMET")[system].tolist() == values
        assert external_segment_scores(corpus_b, "COMET")[system].tolist() == values


def test_the_figure_is_the_mean_of_the_segment_scores_with_a_signature_saying_so(
    hand_corpus: Corpus,
) -> None:
    import_scores(hand_corpus, "MetricX", COMET, higher_is_better=False)

    (metric,) = external_metrics(fresh(hand_corpus))
    figure = metric.figures["bad"]
    assert figure.score == pytest.approx(np.mean(COMET["bad"]))
    assert figure.signature.startswith("ext:MetricX|agg:mean|higher:no|imported:")
    assert metric.info.higher_is_better is False
    assert metric.info.bounds == (-math.inf, math.inf)


def test_the_segment_scores_are_readable_per_system_as_arrays_for_any_figure(
    hand_corpus: Corpus,
) -> None:
    import_scores(hand_corpus, "COMET", COMET)

    scores = external_segment_scores(fresh(hand_corpus), "COMET")
    assert {s: v.dtype for s, v in scores.items()} == dict.fromkeys(COMET, np.float64)
    assert scores["one-off"].tolist() == COMET["one-off"]
    scores["one-off"][0] = 99.0  # a copy: the remembered scores stay as imported
    assert external_segment_scores(hand_corpus, "COMET")["one-off"][0] == 0.7
    with pytest.raises(LookupError, match="has no imported metric named 'BLEURT'"):
        external_segment_scores(hand_corpus, "BLEURT")


def test_a_corpus_without_imported_scores_reads_none_without_a_query(
    hand_corpus: Corpus,
) -> None:
    corpus = fresh(hand_corpus)
    with CaptureQueriesContext(connection) as queries:
        assert external_metrics(corpus) == ()
        assert external_figures(corpus, paired_bootstrap(4)).metrics == ()
    assert len(queries) == 0


def test_imported_scores_are_read_in_one_query_however_many_metrics_then_remembered(
    hand_corpus: Corpus,
) -> None:
    for name in ("COMET", "xCOMET", "MetricX"):
        import_scores(hand_corpus, name, COMET)
    corpus = fresh(hand_corpus)
    with CaptureQueriesContext(connection) as queries:
        assert [m.name for m in external_metrics(corpus)] == ["COMET", "xCOMET", "MetricX"]
    assert len(queries) == 1
    with CaptureQueriesContext(connection) as again:
        external_metrics(corpus)
        external_segment_scores(corpus, "xCOMET")
    assert len(again) == 0


REFUSED = [
    (tsv({**COMET, "rules": [0.5] * 4}), "COMET.tsv line 13: unknown system 'rules'"),
    (
        tsv(COMET).replace(b"bad\t4\t0.0\n", b""),
        "COMET.tsv: system 'bad' has no score for segment 4",
    ),
    (
        tsv(COMET) + b"bad\t2\t0.5\n",
        "COMET.tsv line 13: system 'bad' has a score for segment 2 already (line 10)",
    ),
    (
        tsv(COMET).replace(b"bad\t4\t0.0", b"bad\t5\t0.0"),
        "COMET.tsv line 12: segment 5 is out of range",
    ),
    (
        tsv(COMET).replace(b"bad\t4\t0.0", b"bad\t4\tn/a"),
        "COMET.tsv line 12: score 'n/a' is not a number",
    ),
    (
        tsv(COMET).replace(b"bad\t4\t0.0", b"bad\t4\tNaN"),
        "COMET.tsv line 12: score 'NaN' is not a finite number",
    ),
    (
        tsv(COMET).replace(b"bad\t4\t0.0", b"bad\t4\t0.0\t1"),
        "COMET.tsv line 12: 4 columns, expected 3",
    ),
    (b"", "COMET.tsv line 1: the file is empty"),
]


@pytest.mark.parametrize("data, refusal", REFUSED)
def test_a_file_that_does_not_match_is_refused_and_nothing_is_stored(
    hand_corpus: Corpus, data: bytes, refusal: str
) -> None:
    with pytest.raises(ScoresRefused) as refused:
        external_metric_import(
            corpus=hand_corpus,
            data=data,
            layout="tsv",
            name="COMET",
            higher_is_better=True,
            filename="COMET.tsv",
        )
    assert str(refused.value).startswith(refusal)
    assert not ExternalMetric.objects.exists()
    assert not ExternalScores.objects.exists()
    assert fresh(hand_corpus).external_stamp == 0


@pytest.mark.parametrize(
    "name, refusal",
    [
        ("BLEU", "the name 'BLEU' is taken by a metric evaltool computes"),
        ("chrf++", "the name 'chrf++' is taken by a metric evaltool computes"),
        ("COMET 22", "the name 'COMET 22' is not a metric name"),
        ("<i>", "the name '<i>' is not a metric name"),
    ],
)
def test_a_name_that_collides_with_a_built_in_metric_or_is_malformed_is_refused(
    hand_corpus: Corpus, name: str, refusal: str
) -> None:
    with pytest.raises(ScoresRefused, match=refusal.replace("+", r"\+")):
        import_scores(hand_corpus, name, COMET)
    assert not ExternalMetric.objects.exists()


def test_a_name_taken_is_refused_unless_replaced_and_the_replacement_is_whole(
    hand_corpus: Corpus,
) -> None:
    first = import_scores(hand_corpus, "COMET", COMET)
    with pytest.raises(ScoresRefused, match="has an imported metric named 'COMET' already"):
        import_scores(hand_corpus, "COMET", COMET)
    with pytest.raises(ScoresRefused, match="has an imported metric named 'COMET' already"):
        import_scores(hand_corpus, "comet", COMET, replace=True)  # another case: another name
    doubled = {s: [2 * v for v in values] for s, values in COMET.items()}
    with pytest.raises(ScoresRefused):  # a refused replacement keeps the metric it replaces
        external_metric_import(
            corpus=hand_corpus,
            data=b"bad\t1\t1\n",
            layout="tsv",
            name="COMET",
            higher_is_better=False,
            replace=True,
        )
    assert external_segment_scores(fresh(hand_corpus), "COMET")["bad"].tolist() == COMET["bad"]

    second = import_scores(hand_corpus, "COMET", doubled, higher_is_better=False, replace=True)

    assert second.pk != first.pk
    assert ExternalMetric.objects.count() == 1
    (metric,) = external_metrics(fresh(hand_corpus))
    assert metric.higher_is_better is False
    assert metric.scores["bad"].tolist() == doubled["bad"]


def test_a_program_stores_its_arrays_by_the_files_rules(hand_corpus: Corpus) -> None:
    arrays = {s: np.array(v) for s, v in COMET.items()}
    with pytest.raises(ScoresRefused, match="no score for system 'bad'"):
        external_metric_store(
            corpus=hand_corpus,
            name="COMET",
            higher_is_better=True,
            scores={s: v for s, v in arrays.items() if s != "bad"},
        )
    with pytest.raises(ScoresRefused, match="unknown system 'rules'"):
        external_metric_store(
            corpus=hand_corpus,
            name="COMET",
            higher_is_better=True,
            scores={**arrays, "rules": np.zeros(4)},
        )
    with pytest.raises(ScoresRefused, match="system 'bad': 3 scores for 4 sentences"):
        external_metric_store(
            corpus=hand_corpus,
            name="COMET",
            higher_is_better=True,
            scores={**arrays, "bad": np.zeros(3)},
        )
    assert not ExternalMetric.objects.exists()

    external_metric_store(corpus=hand_corpus, name="COMET", higher_is_better=True, scores=arrays)

    assert (
        external_segment_scores(fresh(hand_corpus), "COMET")["perfect"].tolist() == COMET["perfect"]
    )


def test_deleting_a_metric_takes_its_scores_and_an_unknown_one_is_refused(
    hand_corpus: Corpus,
) -> None:
    import_scores(hand_corpus, "COMET", COMET)
    import_scores(hand_corpus, "MetricX", COMET, higher_is_better=False)

    external_metric_delete(corpus=hand_corpus, name="COMET")

    assert [m.name for m in external_metrics(fresh(hand_corpus))] == ["MetricX"]
    assert ExternalScores.objects.count() == 3
    with pytest.raises(ScoresRefused, match="has no imported metric named 'COMET'"):
        external_metric_delete(corpus=hand_corpus, name="COMET")


def test_a_candidate_whose_text_changed_loses_its_score_and_its_figure_rests_on_the_rest(
    hand_corpus: Corpus,
) -> None:
    import_scores(hand_corpus, "COMET", COMET)
    moved = Target.objects.select_related("sentence").get(
        sentence__corpus=hand_corpus, sentence__position=1, translator__name="bad"
    )

    candidates_changed(hand_corpus.pk, [moved])

    (metric,) = external_metrics(fresh(hand_corpus))
    assert np.isnan(metric.scores["bad"][1])
    assert metric.scores["perfect"].tolist() == COMET["perfect"]
    assert metric.figures["bad"].score == pytest.approx(np.mean([0.1, 0.05, 0.0]))


def test_rank_groups_come_from_the_paired_bootstrap_of_the_segment_scores(
    tmp_path: Path,
) -> None:
    corpus = sized_corpus(tmp_path, "twelve", 12)
    rng = np.random.default_rng(1)
    base = rng.normal(0.6, 0.05, 12)
    tied = base + rng.normal(0.0, 0.05, 12)  # neither better on every sentence
    scores = {"system 0": base + 0.2, "system 1": base, "system 2": tied}
    external_metric_store(corpus=corpus, name="COMET", higher_is_better=True, scores=scores)
    bootstrap = paired_bootstrap(12)

    figures = external_figures(fresh(corpus), bootstrap)

    tested = figures.significance["COMET"]
    assert [tested.figure(s).group for s in scores] == [1, 2, 2]
    assert tested.figure("system 0").score == pytest.approx(float(np.mean(base + 0.2)))
    assert tested.signature == bootstrap.signature()
    with CaptureQueriesContext(connection) as queries:  # remembered
        assert external_figures(corpus, bootstrap) is figures
    assert len(queries) == 0
