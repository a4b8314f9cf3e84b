"""The app's metric lists are read from the one table of metric facts (metrics.facts),
never kept apart: what it computes, which metrics keep a fixed preprocessing or are
corpus-wide, and how a scoring is split into shares."""

from __future__ import annotations

from annotation.dashboard.table import ALL_METRICS, METRICS
from annotation.models.corpus import Protocol
from annotation.statistics import metric_set
from annotation.tests.factories import AUTOMATIC, HUMAN
from metrics.facts import METRIC_FACTS
from metrics.registry import metric_info


def test_the_app_computes_the_tables_app_metrics_in_its_order() -> None:
    app = [f for f in METRIC_FACTS if f.app]
    assert tuple(f.name for f in app if not f.human) == metric_set.AUTOMATIC_METRICS
    assert tuple(f.name for f in app if f.human) == metric_set.HUMAN_METRICS
    assert AUTOMATIC == metric_set.AUTOMATIC_METRICS
    assert (*HUMAN, *metric_set.ESA_FIGURES) == metric_set.HUMAN_METRICS


def test_the_dashboards_columns_are_the_tables_order() -> None:
    assert (*metric_set.AUTOMATIC_METRICS, *metric_set.HUMAN_METRICS) == ALL_METRICS
    assert (*metric_set.AUTOMATIC_METRICS, *HUMAN) == METRICS


def test_each_protocol_shows_the_human_figures_its_judgments_feed() -> None:
    """aWER's as they always were; ESA's score raw and z-normalised; MQM's points."""
    assert metric_set.protocol_figures("awer") == ("sser", "awer", "aser", "hter", "mqm", "ier")
    assert metric_set.protocol_figures("esa") == metric_set.protocol_figures("esa_prefill")
    assert metric_set.protocol_figures("esa") == ("esa", "esa_z")
    assert metric_set.protocol_figures("mqm") == ("mqm",)
    assert set(metric_set.PROTOCOL_FIGURES) == {p.value for p in Protocol}


def test_fixed_preprocessing_and_corpus_wide_are_facts_of_the_table() -> None:
    assert {"meteor", "lepor", "wngram-p", "wngram-r", "wngram-f"} == metric_set.FIXED_PREPROCESSING
    assert {"nist", "wngram-p", "wngram-r", "wngram-f"} == metric_set.CORPUS_WIDE
    for name in metric_set.FIXED_PREPROCESSING | metric_set.CORPUS_WIDE:
        assert name in metric_set.AUTOMATIC_METRICS
        assert not metric_info(name).human


def test_every_app_metric_is_in_exactly_one_work_group() -> None:
    members = [m for group, _ in metric_set.WORK_GROUPS for m in group]
    assert sorted(members) == sorted(metric_set.AUTOMATIC_METRICS)
    by_group = {f.work: f.work.cost for f in METRIC_FACTS if f.work is not None}
    assert [cost for _, cost in metric_set.WORK_GROUPS] == sorted(by_group.values(), reverse=True)


def test_the_work_groups_stand_heaviest_first_ties_in_column_order() -> None:
    """The order :func:`~annotation.statistics.metric_set.heaviest_first` hands groups out in."""
    assert metric_set.WORK_GROUPS == (
        (("chrf", "chrf++"), 10),
        (("ter",), 8),
        (("bleu", "nist"), 5),
        (("lepor",), 5),
        (("wer", "ser", "mwer"), 4),
        (("wngram-p", "wngram-r", "wngram-f"), 4),
        (("per",), 3),
        (("per2",), 3),
        (("meteor",), 3),
    )
