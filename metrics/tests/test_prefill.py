"""The spans the aWER alignment suggests (:mod:`metrics.prefill`): which operations become
which spans, minor or major by the documented weights, omissions as one [MISSING]
marker at the text's end, and spans the ESA rules accept."""

from __future__ import annotations

import pytest

from metrics.error_spans import MarkedSpan, span_problems
from metrics.prefill import alike, suggested_spans, token_offsets
from metrics.tokenize import get_tokenizer

TOKENS = get_tokenizer("13a").tokens


def spans(candidate: str, reference: str) -> list[tuple[str, str]]:
    """The suggested spans as (text or [MISSING], severity)."""
    found = suggested_spans(candidate, TOKENS(candidate), TOKENS(reference))
    assert span_problems(found, candidate) == []
    return [("[MISSING]" if s.missing else candidate[s.start : s.end], s.severity) for s in found]


CASES = [
    # seed 001 Figure 1: "This" missing joins the run it touches; "Diagram"→"figure" is
    # another word (2), "show"→"shows" a form (0), "This" missing (1): major. "for
    # locate"→"to find": two other words, one span.
    (
        "Diagram show the scan procedure for locate the archives .",
        "This figure shows the scan procedure to find the archives .",
        [("Diagram show", "major"), ("for locate", "major")],
    ),
    # a form error alone is minor
    ("He show the way .", "He shows the way .", [("show", "minor")]),
    # another word is major
    ("The dog sleeps .", "The cat sleeps .", [("dog", "major")]),
    # one word too many: minor; two: major
    ("The big cat sleeps .", "The cat sleeps .", [("big", "minor")]),
    ("The big old cat sleeps .", "The cat sleeps .", [("big old", "major")]),
    # punctuation only: minor
    ("The cat sleeps !", "The cat sleeps .", [("!", "minor")]),
    # omissions between matched words or at the ends: one marker at the end
    ("The cat sleeps", "The cat sleeps .", [("[MISSING]", "minor")]),
    ("cat sleeps", "The black cat sleeps .", [("[MISSING]", "major")]),
    # equal to the reference: nothing suggested
    ("The cat sleeps .", "The cat sleeps .", []),
]


@pytest.mark.parametrize("candidate, reference, expected", CASES)
def test_which_operations_become_which_spans(
    candidate: str, reference: str, expected: list[tuple[str, str]]
) -> None:
    assert spans(candidate, reference) == expected


def test_spans_are_characters_of_the_text_not_of_its_tokens() -> None:
    # 13a splits "dort." into "dort" and "."; the span is the word's characters only
    candidate = "Le chat dort. Il rêve, vite."
    found = suggested_spans(candidate, TOKENS(candidate), TOKENS("Le chat mange. Il rêve vite."))
    assert found == [MarkedSpan(8, 12, "major"), MarkedSpan(21, 22, "minor")]
    assert (candidate[8:12], candidate[21:22]) == ("dort", ",")


def test_a_token_the_text_does_not_spell_takes_its_word() -> None:
    # 13a reads "&amp;" as "&": the token is found as the blank-delimited word
    assert token_offsets("A &amp; B", ["A", "&", "B"]) == [(0, 1), (2, 7), (8, 9)]


def test_alike_words_differ_in_case_or_at_most_half_their_letters() -> None:
    assert alike("Show", "show")
    assert alike("procedures", "procedure")
    assert not alike("dog", "cat")


def test_an_empty_candidate_is_one_omission() -> None:
    assert suggested_spans("", (), ("A", "cat", ".")) == [MarkedSpan(0, 0, "major", missing=True)]
