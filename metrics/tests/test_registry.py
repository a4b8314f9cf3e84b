"""Every metric carries its own facts (``MetricInfo``), and the registry builds by name."""

from __future__ import annotations

import math

import pytest

from metrics import human
from metrics.registry import METRIC_INFO, METRIC_NAMES, build_metric, metric_info
from metrics.stats import MetricInfo, Score, format_signature

INF = math.inf
#: name → (label, higher is better, unit, human, lowest, highest). SSER's figure is an
#: error ("SSER error"), not a judge's 0–10 score; the edit rates exceed 100 % when a
#: candidate is longer than its reference; NIST has no upper bound.
FACTS = {
    "wer": ("WER", False, "%", False, 0.0, INF),
    "ser": ("SER", False, "%", False, 0.0, 100.0),
    "mwer": ("mWER", False, "%", False, 0.0, INF),
    "per": ("PER", False, "%", False, 0.0, INF),
    "per2": ("2-PER", False, "%", False, 0.0, INF),
    "bleu": ("BLEU", True, "%", False, 0.0, 100.0),
    "nist": ("NIST", True, "", False, 0.0, INF),
    "chrf": ("chrF", True, "%", False, 0.0, 100.0),
    "chrf++": ("chrF++", True, "%", False, 0.0, 100.0),
    "ter": ("TER", False, "%", False, 0.0, INF),
    "lepor": ("LEPOR", True, "%", False, 0.0, 100.0),
    "wngram-p": ("Prec (w)", True, "%", False, 0.0, 100.0),
    "wngram-r": ("Recall (w)", True, "%", False, 0.0, 100.0),
    "wngram-f": ("F (w)", True, "%", False, 0.0, 100.0),
    "meteor": ("METEOR", True, "%", False, 0.0, 100.0),
    "aswer": ("AS-WER", False, "%", False, 0.0, INF),
    "cer": ("CER", False, "%", False, 0.0, INF),
    "mer": ("MER", False, "%", False, 0.0, 100.0),
    "wil": ("WIL", False, "%", False, 0.0, 100.0),
    "wip": ("WIP", True, "%", False, 0.0, 100.0),
    "sser": ("SSER error", False, "%", True, 0.0, 100.0),
    "awer": ("aWER", False, "%", True, 0.0, INF),
    "aser": ("aSER", False, "%", True, 0.0, 100.0),
    "hter": ("HTER", False, "%", True, 0.0, INF),
    "mqm": ("MQM-style", False, "", True, 0.0, INF),
    "ier": ("IER", False, "%", True, 0.0, 100.0),
    "esa": ("ESA", True, "", True, 0.0, 100.0),
    "esa_z": ("ESA z (per annotator)", True, "", True, -INF, INF),
}


@pytest.mark.parametrize("name, facts", FACTS.items())
def test_every_metric_states_its_label_direction_unit_and_range(name: str, facts: tuple) -> None:
    info = metric_info(name)
    assert (info.label, info.higher_is_better, info.unit, info.human, *info.bounds) == facts
    assert info.name == name


#: Candidates that push each unbounded rate past 100 % (one reference "a b").
PAST_100 = {"wer": "a x y z w", "mwer": "a x y z w", "per": "x y z w v", "ter": "a x y z w"}


@pytest.mark.parametrize("name, hyp", PAST_100.items())
def test_an_unbounded_rate_does_exceed_100_percent(name: str, hyp: str) -> None:
    """Why WER, mWER, PER and TER have no upper bound: insertions count as errors."""
    score = build_metric(name).corpus_score([hyp], [("a b",)]).score
    assert score > 100.0
    assert metric_info(name).highest == INF


#: Each metric's family: what kind of comparison it makes (the dashboard groups by it).
FAMILY = {
    **dict.fromkeys(
        ("wer", "ser", "mwer", "per", "per2", "ter", "aswer", "cer", "mer", "wil", "wip"), "edit"
    ),
    **dict.fromkeys(
        ("bleu", "nist", "chrf", "chrf++", "wngram-p", "wngram-r", "wngram-f"), "ngram"
    ),
    "lepor": "other",
    "meteor": "other",
    **dict.fromkeys(("sser", "awer", "aser", "hter", "mqm", "ier", "esa", "esa_z"), "human"),
}


def test_every_metric_names_its_family() -> None:
    assert {name: info.family for name, info in METRIC_INFO.items()} == FAMILY


def test_a_family_must_be_known_and_agree_with_human() -> None:
    with pytest.raises(ValueError, match="family='lexical'"):
        MetricInfo("x", "X", higher_is_better=True, family="lexical")
    with pytest.raises(ValueError, match="human=True but family='edit'"):
        MetricInfo("x", "X", higher_is_better=False, human=True, family="edit")


def test_a_metric_range_must_be_a_range() -> None:
    with pytest.raises(ValueError, match="lowest=5"):
        MetricInfo("x", "X", higher_is_better=True, lowest=5.0, highest=5.0)


def test_the_registry_knows_every_metric_and_nothing_else() -> None:
    assert set(METRIC_INFO) == set(FACTS)


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_a_built_metric_carries_the_registrys_facts(name: str) -> None:
    metric = build_metric(name)
    assert metric.info is METRIC_INFO[name]
    assert metric.name == name


@pytest.mark.parametrize("name", ["sser", "awer", "aser", "hter", "ier", "esa", "esa_z"])
def test_the_human_metrics_carry_the_registrys_facts(name: str) -> None:
    assert human.HUMAN_METRICS[name].info is METRIC_INFO[name]


def test_an_unknown_metric_is_a_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="'rouge'"):
        metric_info("rouge")


def test_a_partial_signature_leaves_the_version_out() -> None:
    parts = {"tok": "13a", "case": "mixed"}
    assert format_signature(parts, version=False) == "tok:13a|case:mixed"
    assert format_signature(parts).startswith("tok:13a|case:mixed|version:")


def test_a_score_as_json_is_score_and_signature() -> None:
    assert Score("wer", 12.5, "nrefs:1").as_json() == {"score": 12.5, "signature": "nrefs:1"}
