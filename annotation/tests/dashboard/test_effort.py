"""Seed 001 Table 3 (``annotation/dashboard/effort.py``), by hand."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client
from lxml import html as lxml_html

from annotation.dashboard.effort import effort
from annotation.models import Corpus, Judgment, Target, User
from annotation.tests.factories import judgment_row, sized_corpus


def test_effort_minutes_per_system_and_sentences_per_hour() -> None:
    """A: 90 s + 30 s = 2 minutes over 2 sentences; B: 45 s = 0.75 minutes. Judge ann did
    3 sentences in 165 s = 65.45… per hour; bob's sentence has no measured time."""
    rows = [
        judgment_row("A", 0, "ann", seconds=90),
        judgment_row("A", 1, "ann", seconds=30),
        judgment_row("B", 0, "ann", seconds=45),
        judgment_row("B", 1, "bob", seconds=0),
    ]

    e = effort(rows, ["A", "B", "C"])

    assert [(r.system, r.minutes, r.judgments) for r in e.systems] == [
        ("A", 2.0, 2),
        ("B", 0.75, 2),
        ("C", 0.0, 0),
    ]
    assert e.systems[0].seconds_per_sentence == 60.0
    assert e.systems[2].seconds_per_sentence is None
    assert e.total_minutes == 2.75
    assert e.total_judgments == 4
    ann, bob = e.judges
    assert ann.per_hour == pytest.approx(3 / (165 / 3600))
    assert bob.per_hour is None


@pytest.mark.parametrize(
    "protocol, heading",
    [
        ("awer", "aWER/aSER + SSER (one pass)"),
        ("esa", "ESA: error spans + 0–100 score (one pass)"),
        ("esa_prefill", "ESA: pre-filled spans corrected + 0–100 score (one pass)"),
        ("mqm", "MQM: error spans with categories (one pass)"),
    ],
)
def test_the_one_pass_is_named_after_the_corpus_protocol(protocol: str, heading: str) -> None:
    e = effort([judgment_row("A", 0, "ann", seconds=30)], ["A"], protocol)

    assert e.pass_label == heading
    assert e.total_pass_minutes == 0.5


@pytest.mark.django_db
def test_the_panel_counts_an_esa_corpus_judgments_time_under_its_own_heading(
    tmp_path: Path, lead_client: Client, user_factory: Callable[..., User]
) -> None:
    corpus = sized_corpus(tmp_path, "esa", 4, systems=2)
    Corpus.objects.filter(pk=corpus.pk).update(protocol="esa")
    ann = user_factory("ann")
    for target, seconds in zip(
        Target.objects.filter(sentence__corpus=corpus, translator__role="system"),
        (40.0, 50.0),
        strict=False,
    ):
        Judgment.objects.create(
            target=target, evaluator=ann, state="done", esa_score=70, active_seconds=seconds
        )

    page = lxml_html.fromstring(lead_client.get(f"/dashboard/{corpus.pk}/panel/effort/").content)

    assert page.xpath('string(//*[@id="effort-pass"])') == (
        "ESA: error spans + 0–100 score (one pass)"
    )
    assert page.xpath('string(//*[@id="effort-total"])') == "1.5"
