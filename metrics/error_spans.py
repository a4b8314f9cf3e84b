"""The rules an ESA or MQM judgment's error spans obey, checked before they are stored.

A span is a stretch of the candidate's text, in *characters*: ``[start, end)`` indices
of the Python string (Unicode code points; a browser's selection counts UTF-16 code
units, which differ beyond the Basic Multilingual Plane, so the page converts before it
sends). It has a severity (minor or major, :data:`metrics.mqm.SEVERITIES`) and, in MQM,
a category of the corpus's taxonomy; ESA marks none. An omission is a ``[MISSING]``
marker: an empty span ``start == end`` at the place where something is missing (the
text's end, ``len(candidate)``, where ESA's page shows its ``[MISSING]`` token). Its
severity counts as any other error's.

Two spans may not cover the same character, except in MQM with different categories
(one word both mistranslated and misspelt); two markers may not share a place,
severity and category. A span neither starts nor ends inside the blanks around a word (selecting
"word " by mouse gives "word"): :func:`trimmed` does that before the check, so the span
stored is the one the page shows.

**What became of a suggestion** (ESA with pre-filled spans): *kept* where a span of the
judge's that names it is equal to it (place, severity, category), *edited* where the
spans naming it all differ from it (moved, resized, another severity), *removed* where
none names it (:func:`suggestion_outcome`). How often suggestions are kept, per judge
and per source of suggestions, is the measure of automation bias the campaign page
shows (:class:`SuggestionCounts`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from metrics.mqm import SEVERITIES, Taxonomy


@dataclass(frozen=True)
class MarkedSpan:
    """One error span as a judge marked it (module doc)."""

    start: int
    end: int
    severity: str
    category: str = ""
    missing: bool = False

    def covers(self) -> range:
        """The characters it covers (none for a ``[MISSING]`` marker)."""
        return range(self.start, self.end)


def span_json(span: MarkedSpan) -> dict[str, Any]:
    """One span as JSON stores it: a change's event, an imported file's spans waiting
    for their judges."""
    return {
        "start": span.start,
        "end": span.end,
        "severity": span.severity,
        "category": span.category,
        "missing": span.missing,
    }


def span_of_json(data: dict[str, Any]) -> MarkedSpan:
    """The span :func:`span_json` stored."""
    return MarkedSpan(
        int(data["start"]),
        int(data["end"]),
        str(data["severity"]),
        str(data.get("category", "")),
        bool(data.get("missing", False)),
    )


def trimmed(span: MarkedSpan, candidate: str) -> MarkedSpan:
    """``span`` without the blanks at its ends (a marker as it is); a span of blanks
    only stays as it is, for :func:`span_problems` to refuse."""
    if span.missing or not (0 <= span.start < span.end <= len(candidate)):
        return span
    text = candidate[span.start : span.end]
    inner = text.strip()
    if not inner:
        return span
    start = span.start + (len(text) - len(text.lstrip()))
    return MarkedSpan(start, start + len(inner), span.severity, span.category, span.missing)


def span_problems(
    spans: Sequence[MarkedSpan], candidate: str, taxonomy: Taxonomy | None = None
) -> list[str]:
    """What is wrong with ``spans`` of ``candidate``, one line each, in the spans' order
    (empty: they may be stored). ``taxonomy``: MQM's, whose categories every span must
    take; None for ESA, whose spans have none."""
    problems = []
    for k, span in enumerate(spans):
        problem = _one_problem(span, candidate, taxonomy)
        if problem is not None:
            problems.append(f"span {k + 1}: {problem}")
    if problems:
        return problems
    for k, span in enumerate(spans):
        for j in range(k):
            clash = _clash(spans[j], span, taxonomy is not None)
            if clash is not None:
                problems.append(f"span {k + 1}: {clash} span {j + 1}")
                break
    return problems


def _one_problem(span: MarkedSpan, candidate: str, taxonomy: Taxonomy | None) -> str | None:
    if span.severity not in SEVERITIES:
        return f"severity {span.severity!r} (choose from {', '.join(SEVERITIES)})"
    if taxonomy is None and span.category:
        return f"category {span.category!r}: ESA spans have none"
    if taxonomy is not None and span.category not in taxonomy.names:
        return f"category {span.category!r} is not in the corpus's taxonomy"
    size = len(candidate)
    if span.missing:
        if span.start != span.end or not 0 <= span.start <= size:
            return f"a [MISSING] marker is one place 0…{size}, not {span.start}…{span.end}"
        return None
    if not 0 <= span.start < span.end <= size:
        return f"characters {span.start}…{span.end}: no stretch of the text's 0…{size}"
    if not candidate[span.start : span.end].strip():
        return f"characters {span.start}…{span.end} are blanks only"
    if span != trimmed(span, candidate):
        return f"characters {span.start}…{span.end} start or end with a blank"
    return None


def _clash(earlier: MarkedSpan, span: MarkedSpan, mqm: bool) -> str | None:
    if span.missing or earlier.missing:
        mark = (span.missing, span.start, span.severity, span.category)
        same = mark == (earlier.missing, earlier.start, earlier.severity, earlier.category)
        return "the same [MISSING] marker as" if same else None
    if span.start < earlier.end and earlier.start < span.end:
        if mqm and span.category != earlier.category:
            return None
        return "overlaps"
    return None


KEPT, EDITED, REMOVED = "kept", "edited", "removed"


def suggestion_outcome(suggestion: MarkedSpan, named_by: Sequence[MarkedSpan]) -> str:
    """:data:`KEPT`, :data:`EDITED` or :data:`REMOVED`: what the judge did with
    ``suggestion``, given the judge's spans that name it (module doc)."""
    if not named_by:
        return REMOVED
    return KEPT if suggestion in named_by else EDITED


@dataclass(frozen=True)
class SuggestionCounts:
    """How many suggestions were kept, edited and removed."""

    kept: int = 0
    edited: int = 0
    removed: int = 0

    @property
    def total(self) -> int:
        return self.kept + self.edited + self.removed

    @property
    def kept_share(self) -> float | None:
        """The share kept as suggested (None without suggestions)."""
        return self.kept / self.total if self.total else None


def suggestion_counts(
    suggestions: Iterable[tuple[MarkedSpan, Sequence[MarkedSpan]]],
) -> SuggestionCounts:
    """:class:`SuggestionCounts` of (suggestion, the judge's spans naming it) pairs."""
    outcomes = [suggestion_outcome(s, named_by) for s, named_by in suggestions]
    return SuggestionCounts(outcomes.count(KEPT), outcomes.count(EDITED), outcomes.count(REMOVED))
