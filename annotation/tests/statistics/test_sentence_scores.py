"""A system's score of each sentence in a human metric: the one rule the drill-down, the
dashboard's estimates and the campaign's power read (a sentence judged twice counts
once, with the rate over its judgments)."""

from __future__ import annotations

import math

import pytest

from annotation.statistics import human_rows_by_system, sentence_scores_by_system
from annotation.tests.factories import judgment_row

ROWS = [
    judgment_row("A", 0, "ann", sser=10, edits=0, length=4),
    judgment_row("A", 2, "ann", sser=6, edits=1, length=4),
    judgment_row("A", 2, "bob", sser=8, edits=3, length=12),
    judgment_row("B", 1, "ann", sser=0),
]


def test_a_sentence_judged_twice_is_the_rate_over_its_judgments_and_unjudged_ones_nan() -> None:
    by_system = human_rows_by_system(ROWS)

    sser = sentence_scores_by_system(by_system, "sser", 3)
    awer = sentence_scores_by_system(by_system, "awer", 3)

    assert sser["A"][0] == 0.0
    assert math.isnan(sser["A"][1])
    assert sser["A"][2] == pytest.approx(30.0)  # the mean of 40 % and 20 %
    assert sser["B"][1] == 100.0
    assert awer["A"][2] == pytest.approx(100 * 4 / 16)  # edits over words, both judges
    assert set(awer) == {"A"}  # B's judgment has no edit count: no aWER
