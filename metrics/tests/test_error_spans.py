"""The rules of an ESA or MQM judgment's error spans (:mod:`metrics.error_spans`): every
refusal with the span and the reason, the spans a judge may mark, and the blanks a
mouse selection takes trimmed."""

from __future__ import annotations

import pytest

from metrics.error_spans import (
    EDITED,
    KEPT,
    REMOVED,
    MarkedSpan,
    SuggestionCounts,
    span_problems,
    suggestion_counts,
    suggestion_outcome,
    trimmed,
)
from metrics.mqm import WMT_TAXONOMY, Taxonomy

TEXT = "Chart represent the method."  # 27 characters
ESA = None


def minor(start: int, end: int, category: str = "") -> MarkedSpan:
    return MarkedSpan(start, end, "minor", category)


def missing(at: int, severity: str = "major", category: str = "") -> MarkedSpan:
    return MarkedSpan(at, at, severity, category, missing=True)


@pytest.mark.parametrize(
    "spans, taxonomy",
    [
        ([], ESA),
        ([minor(0, 5), MarkedSpan(6, 15, "major")], ESA),  # "Chart", "represent"
        ([missing(27)], ESA),  # [MISSING] at the text's end, as ESA's page shows it
        ([missing(0), missing(0, "minor")], ESA),  # two severities at one place
        ([minor(6, 15), missing(15)], ESA),  # a marker at a span's end
        ([minor(0, 5, "Fluency/Grammar")], WMT_TAXONOMY),
        # MQM: one word both mistranslated and misspelt
        ([minor(6, 15, "Fluency/Spelling"), minor(6, 15, "Accuracy/Mistranslation")], WMT_TAXONOMY),
        ([missing(27, category="Accuracy/Omission")], WMT_TAXONOMY),
    ],
)
def test_spans_a_judge_may_mark(spans: list[MarkedSpan], taxonomy: Taxonomy | None) -> None:
    assert span_problems(spans, TEXT, taxonomy) == []


@pytest.mark.parametrize(
    "spans, taxonomy, problems",
    [
        (
            [MarkedSpan(0, 5, "critical")],
            ESA,
            ["span 1: severity 'critical' (choose from minor, major)"],
        ),
        ([minor(0, 5, "Other")], ESA, ["span 1: category 'Other': ESA spans have none"]),
        (
            [minor(0, 5)],
            WMT_TAXONOMY,
            ["span 1: category '' is not in the corpus's taxonomy"],
        ),
        (
            [minor(0, 5, "Names")],
            WMT_TAXONOMY,
            ["span 1: category 'Names' is not in the corpus's taxonomy"],
        ),
        ([minor(5, 5)], ESA, ["span 1: characters 5…5: no stretch of the text's 0…27"]),
        ([minor(20, 28)], ESA, ["span 1: characters 20…28: no stretch of the text's 0…27"]),
        ([minor(-1, 3)], ESA, ["span 1: characters -1…3: no stretch of the text's 0…27"]),
        ([minor(5, 6)], ESA, ["span 1: characters 5…6 are blanks only"]),
        ([minor(0, 6)], ESA, ["span 1: characters 0…6 start or end with a blank"]),
        ([missing(28)], ESA, ["span 1: a [MISSING] marker is one place 0…27, not 28…28"]),
        (
            [MarkedSpan(3, 4, "minor", missing=True)],
            ESA,
            ["span 1: a [MISSING] marker is one place 0…27, not 3…4"],
        ),
        (
            [minor(0, 5), minor(20, 30), minor(0, 99)],
            ESA,
            [
                "span 2: characters 20…30: no stretch of the text's 0…27",
                "span 3: characters 0…99: no stretch of the text's 0…27",
            ],
        ),
        ([minor(0, 10), minor(6, 15)], ESA, ["span 2: overlaps span 1"]),
        (
            [minor(0, 10, "Other"), minor(6, 15, "Other")],
            WMT_TAXONOMY,
            ["span 2: overlaps span 1"],
        ),
        ([missing(27), missing(27)], ESA, ["span 2: the same [MISSING] marker as span 1"]),
    ],
)
def test_spans_refused_with_the_span_and_the_reason(
    spans: list[MarkedSpan], taxonomy: Taxonomy | None, problems: list[str]
) -> None:
    assert span_problems(spans, TEXT, taxonomy) == problems


def test_a_mouse_selection_loses_its_blanks_and_is_then_accepted() -> None:
    selected = minor(5, 16)  # " represent "

    span = trimmed(selected, TEXT)

    assert (span.start, span.end, TEXT[span.start : span.end]) == (6, 15, "represent")
    assert span_problems([span], TEXT) == []
    assert trimmed(minor(5, 6), TEXT) == minor(5, 6)  # blanks only: left for the refusal
    assert trimmed(missing(5), TEXT) == missing(5)


def test_offsets_are_characters_not_bytes_or_utf16_units() -> None:
    """ "😀" is 4 bytes in UTF-8 and 2 units in UTF-16, one character here."""
    text = "😀 sehr gut"

    assert span_problems([minor(2, 6)], text) == []  # "sehr"
    assert text[2:6] == "sehr"


def test_what_became_of_each_suggestion() -> None:
    suggested = MarkedSpan(6, 15, "major")

    assert suggestion_outcome(suggested, [MarkedSpan(6, 15, "major")]) == KEPT
    assert suggestion_outcome(suggested, [MarkedSpan(6, 15, "minor")]) == EDITED  # severity
    assert suggestion_outcome(suggested, [MarkedSpan(6, 10, "major")]) == EDITED  # resized
    assert suggestion_outcome(suggested, []) == REMOVED
    # split in two, one half as suggested: edited (no span equals the suggestion)
    assert suggestion_outcome(suggested, [minor(6, 10), MarkedSpan(11, 15, "major")]) == EDITED


def test_the_share_of_suggestions_kept() -> None:
    s1, s2, s3, s4 = (MarkedSpan(k, k + 1, "minor") for k in range(4))

    counts = suggestion_counts([(s1, [s1]), (s2, [s2]), (s3, [minor(3, 4, "x")]), (s4, [])])

    assert counts == SuggestionCounts(kept=2, edited=1, removed=1)
    assert (counts.total, counts.kept_share) == (4, 0.5)
    assert SuggestionCounts().kept_share is None
