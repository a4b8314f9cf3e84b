"""Seed 001 Table 3 (``annotation/dashboard/effort.py``), by hand."""

from __future__ import annotations

import pytest

from annotation.dashboard.effort import effort
from annotation.tests.factories import judgment_row


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
