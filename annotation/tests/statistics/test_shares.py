"""A scoring a group of metrics at a time, as a worker runs it (:func:`annotation.
statistics.compute.compute_statistics`): the figures of scoring every metric at once,
its progress reported group by group, and the groups it is split into
(:func:`annotation.statistics.metric_set.heaviest_first`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from annotation.corpora.imports import corpus_import
from annotation.statistics import corpus_texts
from annotation.statistics.compute import automatic_scores, compute_statistics
from annotation.statistics.encoding import encode_statistics
from annotation.statistics.metric_set import AUTOMATIC_METRICS, WORK_GROUPS, heaviest_first
from annotation.tests.factories import DEMO_XML
from metrics.tokenize import Preprocessor


@pytest.mark.django_db
@pytest.mark.parametrize("processes", [1, 2])
def test_a_scoring_group_by_group_is_the_scoring_of_every_metric_at_once(
    processes: int, settings: Any
) -> None:
    settings.EVALTOOL_SCORING_PROCESSES = processes
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    pp = Preprocessor(tokenize="char", lowercase=True)
    reports: list[tuple[int, int, str]] = []

    grouped = compute_statistics(
        corpus, pp, "average", progress=lambda *report: reports.append(report)
    )
    at_once = automatic_scores(corpus_texts(corpus), preprocessor=pp, ref_length="average")

    for m in AUTOMATIC_METRICS:
        for system, figures in at_once.items():
            assert grouped.scores[m][system].score == figures[m].score
            assert np.array_equal(grouped.segment_stats(m, system), figures[m].stats)
    assert set(grouped.significance) == set(AUTOMATIC_METRICS)
    assert [r[0] for r in reports] == sorted(r[0] for r in reports)
    assert reports[0] == (0, len(AUTOMATIC_METRICS), "scoring")
    assert reports[-1] == (len(AUTOMATIC_METRICS), len(AUTOMATIC_METRICS), "scoring")
    assert len(reports) == 1 + len(WORK_GROUPS)  # before, then as each group is done


@pytest.mark.django_db
def test_two_processes_score_to_the_last_bit_what_one_does(settings: Any) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    pp = Preprocessor(tokenize="intl")
    settings.EVALTOOL_SCORING_PROCESSES = 2
    two = encode_statistics(compute_statistics(corpus, pp, "nearest"))
    settings.EVALTOOL_SCORING_PROCESSES = 1
    assert encode_statistics(compute_statistics(corpus, pp, "nearest")) == two


def test_groups_keep_metrics_that_share_work_together_heaviest_first() -> None:
    groups = heaviest_first(AUTOMATIC_METRICS)

    assert sorted(m for g in groups for m in g) == sorted(AUTOMATIC_METRICS)
    assert groups == [group for group, _ in WORK_GROUPS]  # every metric here is in one
    assert heaviest_first(("ser", "chrf", "wer")) == [("chrf",), ("ser", "wer")]
    assert heaviest_first(("new-metric", "per")) == [("per",), ("new-metric",)]
    assert heaviest_first(()) == []  # no empty group
