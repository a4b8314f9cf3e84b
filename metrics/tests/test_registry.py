"""Every metric carries its own facts (``MetricInfo``), and the registry builds by name."""

from __future__ import annotations

import pytest

from metrics import human
from metrics.registry import METRIC_INFO, METRIC_NAMES, build_metric, metric_info
from metrics.stats import Score, format_signature

#: name → (label, higher is better, unit, human)
FACTS = {
    "wer": ("WER", False, "%", False),
    "ser": ("SER", False, "%", False),
    "mwer": ("mWER", False, "%", False),
    "per": ("PER", False, "%", False),
    "bleu": ("BLEU", True, "%", False),
    "nist": ("NIST", True, "", False),
    "sser": ("SSER", False, "%", True),
    "awer": ("aWER", False, "%", True),
    "aser": ("aSER", False, "%", True),
}


@pytest.mark.parametrize("name, facts", FACTS.items())
def test_every_metric_states_its_label_direction_and_unit(name: str, facts: tuple) -> None:
    info = metric_info(name)
    assert (info.label, info.higher_is_better, info.unit, info.human) == facts
    assert info.name == name


def test_the_registry_knows_every_metric_and_nothing_else() -> None:
    assert set(METRIC_INFO) == set(FACTS)


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_a_built_metric_carries_the_registrys_facts(name: str) -> None:
    metric = build_metric(name)
    assert metric.info is METRIC_INFO[name]
    assert metric.name == name


@pytest.mark.parametrize("name", ["sser", "awer", "aser"])
def test_the_human_metrics_carry_the_registrys_facts(name: str) -> None:
    assert human.HUMAN_METRICS[name].info is METRIC_INFO[name]


def test_an_unknown_metric_is_a_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="'meteor'"):
        metric_info("meteor")


def test_a_partial_signature_leaves_the_version_out() -> None:
    parts = {"tok": "13a", "case": "mixed"}
    assert format_signature(parts, version=False) == "tok:13a|case:mixed"
    assert format_signature(parts).startswith("tok:13a|case:mixed|version:")


def test_a_score_as_json_is_score_and_signature() -> None:
    assert Score("wer", 12.5, "nrefs:1").as_json() == {"score": 12.5, "signature": "nrefs:1"}
