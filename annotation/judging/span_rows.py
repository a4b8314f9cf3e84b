"""The judge's error spans of an ESA or MQM judgment as a change stores them: a list of
plain objects in the change's event (``before`` and ``after``, so undo and redo restore
them) and rows of :class:`~annotation.models.span.Span`.

:func:`set_spans` makes the rows what a change says, in the change's transaction
(:func:`annotation.judging.stack.change`): a span the judgment already has keeps its
row, and only the others are written or deleted. A suggested span (pre-filled) is never
touched here: it is written once, when the pre-fill is made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from annotation.models import Judgment, Span
from metrics.error_spans import MarkedSpan


def span_json(span: MarkedSpan) -> dict[str, Any]:
    """One span as an event stores it."""
    return {
        "start": span.start,
        "end": span.end,
        "severity": span.severity,
        "category": span.category,
        "missing": span.missing,
    }


def span_of_json(data: dict[str, Any]) -> MarkedSpan:
    return MarkedSpan(
        int(data["start"]),
        int(data["end"]),
        str(data["severity"]),
        str(data.get("category", "")),
        bool(data.get("missing", False)),
    )


def in_order(spans: Iterable[MarkedSpan]) -> list[MarkedSpan]:
    """Spans in the text's order (a ``[MISSING]`` marker after a span that ends there),
    as the page lists them and events store them."""
    return sorted(spans, key=lambda s: (s.start, s.end, s.missing, s.severity, s.category))


def judge_spans(judgment: Judgment) -> list[MarkedSpan]:
    """The judge's own spans of ``judgment``, in order (one query)."""
    rows = Span.objects.filter(judgment=judgment, origin=Span.Origin.JUDGE).order_by()
    return in_order(r.marked for r in rows)


def set_spans(spans: Sequence[dict[str, Any]], *, judgment: Judgment) -> list[dict[str, Any]]:
    """Make the judge's span rows of ``judgment`` the ``spans`` given (as events store
    them) and return those it had before. Call it in the change's transaction.

    A row no longer wanted takes a new span's place where there is one (a span resized
    or re-marked keeps its row, and so the suggestion it started as); the others are
    deleted or added."""
    rows = list(Span.objects.filter(judgment=judgment, origin=Span.Origin.JUDGE).order_by())
    before = [span_json(s) for s in in_order(r.marked for r in rows)]
    wanted = Counter(span_of_json(s) for s in spans)
    spare = []
    for row in rows:
        if wanted[row.marked] > 0:
            wanted[row.marked] -= 1
        else:
            spare.append(row)
    new = [s for s, n in wanted.items() for _ in range(n)]
    moved = list(zip(spare, new, strict=False))
    for row, span in moved:
        row.start, row.end, row.severity = span.start, span.end, span.severity
        row.category, row.missing = span.category, span.missing
    if moved:
        fields = ["start", "end", "severity", "category", "missing"]
        Span.objects.bulk_update([row for row, _ in moved], fields)
    if len(spare) > len(moved):
        Span.objects.filter(pk__in=[row.pk for row in spare[len(moved) :]]).delete()
    Span.objects.bulk_create(
        Span(
            judgment=judgment,
            start=s.start,
            end=s.end,
            severity=s.severity,
            category=s.category,
            missing=s.missing,
        )
        for s in new[len(moved) :]
    )
    return before
