"""One table of metric facts: every list and order of metrics derives from it, and each
metric's facts agree with each other and with the objects they name."""

from __future__ import annotations

import importlib

import pytest

from metrics import human
from metrics.facts import (
    APP_AUTOMATIC,
    APP_HUMAN,
    COMMAND_LINE_METRICS,
    METRIC_FACTS,
    UNSEGMENTED_METRICS,
    MetricFacts,
    facts_of,
    work_groups,
)
from metrics.registry import (
    METRIC_CLASSES,
    METRIC_INFO,
    METRIC_NAMES,
    UNSEGMENTED_METRIC_NAMES,
    build_metric,
)
from metrics.stats import MetricInfo, family_rank

#: The dashboard's columns: edit distance, n-gram matches, other, then the judges'.
DASHBOARD = (
    *("wer", "ser", "mwer", "per", "per2", "ter"),
    *("bleu", "nist", "chrf", "chrf++", "wngram-p", "wngram-r", "wngram-f"),
    *("meteor", "lepor"),
)
JUDGES = ("sser", "awer", "aser", "hter", "mqm", "ier", "esa", "esa_z")
#: ``python -m metrics``' columns: the order the metrics joined the command line.
COMMAND_LINE = (
    *("bleu", "nist", "wer", "mwer", "ser", "per", "per2", "chrf", "chrf++", "ter"),
    *("lepor", "wngram-p", "wngram-r", "wngram-f", "meteor", "cer", "mer", "wil", "wip"),
)


def test_the_app_shows_its_metrics_in_the_dashboards_order() -> None:
    assert (APP_AUTOMATIC, APP_HUMAN) == (DASHBOARD, JUDGES)


def test_the_command_line_keeps_its_own_order_and_aswer_only_unsegmented() -> None:
    assert (METRIC_NAMES, UNSEGMENTED_METRIC_NAMES) == (COMMAND_LINE, ("aswer",))
    assert (COMMAND_LINE_METRICS, UNSEGMENTED_METRICS) == (METRIC_NAMES, ("aswer",))


def test_each_metric_has_one_row_and_the_rows_stand_grouped_by_family() -> None:
    names = [f.name for f in METRIC_FACTS]
    assert len(names) == len(set(names))
    ranks = [family_rank(f.info.family) for f in METRIC_FACTS]
    assert ranks == sorted(ranks)


def test_the_command_lines_columns_are_numbered_once_each() -> None:
    columns = [f.cli_column for f in METRIC_FACTS if f.cli_column is not None]
    assert sorted(columns) == list(range(len(columns)))


def test_the_registry_derives_from_the_table() -> None:
    assert {f.name: f.info for f in METRIC_FACTS} == METRIC_INFO
    assert set(METRIC_CLASSES) == {f.name for f in METRIC_FACTS if not f.human}
    assert facts_of("bleu").info is METRIC_INFO["bleu"]


@pytest.mark.parametrize("facts", [f for f in METRIC_FACTS if not f.human], ids=lambda f: f.name)
def test_every_automatic_metric_builds_from_its_row(facts: MetricFacts) -> None:
    metric = build_metric(facts.name)
    cls = getattr(importlib.import_module(facts.module), facts.attribute)
    assert type(metric) is cls
    assert metric.info is facts.info


@pytest.mark.parametrize("facts", [f for f in METRIC_FACTS if f.human], ids=lambda f: f.name)
def test_every_human_figure_lives_where_its_row_says(facts: MetricFacts) -> None:
    figure = getattr(importlib.import_module(facts.module), facts.attribute)
    assert figure is human.HUMAN_METRICS[facts.name]
    assert figure.info is facts.info


def test_the_human_figures_follow_the_tables_order() -> None:
    assert tuple(human.HUMAN_METRICS) == tuple(f.name for f in METRIC_FACTS if f.human)


def test_a_human_figure_is_never_built() -> None:
    with pytest.raises(ValueError, match="'sser' is a human figure"):
        build_metric("sser")


def test_each_work_group_appears_once_with_the_app_metrics_only() -> None:
    groups = work_groups()
    members = [m for group, _ in groups for m in group]
    assert sorted(members) == sorted(APP_AUTOMATIC)  # each metric in exactly one group
    assert [cost for _, cost in groups] == sorted((cost for _, cost in groups), reverse=True)
    assert groups[:3] == ((("chrf", "chrf++"), 10), (("ter",), 8), (("bleu", "nist"), 5))
    assert (("wer", "ser", "mwer"), 4) in groups


def test_the_app_facts_name_app_metrics() -> None:
    for f in METRIC_FACTS:
        if f.corpus_wide or f.fixed_preprocessing:
            assert f.app, f.name
            assert not f.human, f.name


def test_an_inconsistent_row_is_refused() -> None:
    judged = MetricInfo("x", "X", higher_is_better=False, human=True, family="human")
    with pytest.raises(ValueError, match="a builder for the automatic metrics only"):
        MetricFacts(judged, "metrics.human:X", build=lambda cls, o: cls())
    with pytest.raises(ValueError, match="a work group for the app's automatic metrics only"):
        MetricFacts(METRIC_INFO["wer"], "metrics.wer:WER", build=lambda cls, o: cls())
