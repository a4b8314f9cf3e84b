"""The one rule of what a figure may claim (:mod:`metrics.claims`): ten sentences, the
words that say "too few", and intervals cut to a metric's range."""

from __future__ import annotations

import math

import pytest

from metrics.claims import (
    MIN_SENTENCES,
    TOO_FEW,
    UNBOUNDED,
    shortfall,
    too_few,
    too_few_note,
    within,
)
from metrics.ranking import MIN_COMMON


@pytest.mark.parametrize(
    "n, expected", [(0, True), (1, True), (2, True), (3, True), (9, True), (10, False), (50, False)]
)
def test_fewer_than_ten_sentences_are_too_few(n: int, expected: bool) -> None:
    assert too_few(n) is expected


def test_the_rank_groups_rule_is_the_same_number() -> None:
    assert MIN_COMMON == MIN_SENTENCES == 10


@pytest.mark.parametrize(
    "n, what, expected",
    [
        (2, "judged sentences", "too few judged sentences (n = 2)"),
        (4, "sentences", "too few sentences (n = 4)"),
        (10, "judged sentences", ""),
        (50, "pairs", ""),
    ],
)
def test_the_shortfall_says_too_few_below_the_rule_and_nothing_from_it_on(
    n: int, what: str, expected: str
) -> None:
    assert shortfall(n, what) == expected
    assert too_few_note(n, what) == f"too few {what} (n = {n})"
    assert TOO_FEW == "too few"


@pytest.mark.parametrize(
    "low, high, bounds, expected",
    [
        (-155.4, 225.4, (0.0, 100.0), (0.0, 100.0)),  # issue 35: SSER at n = 2
        (20.0, 50.0, (0.0, 100.0), (20.0, 50.0)),
        (-3.0, 250.0, (0.0, math.inf), (0.0, 250.0)),  # an error rate above 100 %
        (-1.2, 0.4, (-1.0, 1.0), (-1.0, 0.4)),
        (-7.0, 7.0, UNBOUNDED, (-7.0, 7.0)),
    ],
)
def test_within_cuts_an_interval_to_the_range(
    low: float, high: float, bounds: tuple[float, float], expected: tuple[float, float]
) -> None:
    assert within(low, high, bounds) == expected


def test_within_keeps_no_interval_as_none_and_refuses_a_reversed_range() -> None:
    low, high = within(math.nan, math.nan, (0.0, 100.0))
    assert math.isnan(low)
    assert math.isnan(high)
    with pytest.raises(ValueError, match=r"bounds \(100.0, 0.0\)"):
        within(1.0, 2.0, (100.0, 0.0))
