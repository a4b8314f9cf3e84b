"""Error spans from aWER (annotation/spans.py) and the MQM-style score built on them:
every operation a judge leaves unaccepted is an error of the candidate, minor (1 point)
unless marked major (5 points); the figure is the mean penalty per done judgment."""

from __future__ import annotations

import pytest

from annotation.judging.severity import judgment_toggle_severity
from annotation.judging.start import judgment_open
from annotation.models import Corpus, User
from annotation.spans import ErrorSpan, error_spans, mqm_penalty
from annotation.statistics import human_scores
from annotation.tests.factories import FIGURE_1_RESULT, finish, target_of
from annotation.text import words
from metrics.align import Op

FIGURE_1 = "Diagram show the scan procedure for locate the archives ."


@pytest.mark.parametrize(
    "candidate, new_ref, severities, expected",
    [
        (  # seed 001 Figure 1, as the judge left it: two substitutions, one major
            FIGURE_1,
            FIGURE_1_RESULT,
            {"substitution:1": "major"},
            [
                ErrorSpan(1, 2, Op.SUBSTITUTION, "major", "show", "shows"),
                ErrorSpan(5, 6, Op.SUBSTITUTION, "minor", "for", "to"),
            ],
        ),
        (  # a missing word is the empty span before its place; an extra word covers itself
            "the big cat sat",
            "the cat sat down",
            {"missing:4:down": "major"},
            [
                ErrorSpan(1, 2, Op.EXTRA, "minor", "big", None),
                ErrorSpan(4, 4, Op.MISSING, "major", None, "down"),
            ],
        ),
        ("a b c", "a b c", {"substitution:1": "major"}, []),  # a stale key names nothing
    ],
)
def test_the_errors_of_a_judgment_are_the_operations_left(
    candidate: str, new_ref: str, severities: dict[str, str], expected: list[ErrorSpan]
) -> None:
    assert error_spans(words(candidate), words(new_ref), severities) == expected


def test_the_penalty_is_one_point_a_minor_error_five_a_major() -> None:
    assert [s.penalty for s in error_spans(words(FIGURE_1), words(FIGURE_1_RESULT), {})] == [1, 1]
    assert mqm_penalty(2, {"substitution:1": "major"}) == 6
    assert mqm_penalty(0, {}) == 0
    assert [s.category for s in error_spans(words("x a"), words("a y"), {})] == [
        "Accuracy/Addition",
        "Accuracy/Omission",
    ]


@pytest.mark.django_db
def test_the_mqm_style_score_of_a_system_by_hand(seed: Corpus, judge: User) -> None:
    """Sentence 1: Figure 1 judged to "Diagram shows … to locate …": "show" (major, 5)
    and "for" (minor, 1) left wrong, 6 points. Sentence 2: "Chart represent the method ."
    judged to "Chart represents the method .": one minor error, 1 point. A pending
    judgment counts nothing. Mean: (6 + 1) / 2 = 3.5 points per judgment."""
    first = judgment_open(user=judge, target=target_of(seed, "a translator", 0))
    finish(first, judge, FIGURE_1_RESULT, 7)
    judgment_toggle_severity(
        judgment=first, user=judge, version=first.version, op="substitution:1:1"
    )
    second = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    finish(second, judge, "Chart represents the method.", 8)

    figure = human_scores(seed)["a translator"]["mqm"]
    assert figure.score == pytest.approx(3.5)
    assert figure.signature.startswith("judgments:2|tok:13a|minor:1|major:5|per:judgment|")
    assert human_scores(seed)["a translator"]["awer"].score == pytest.approx(100 * 3 / 15)
