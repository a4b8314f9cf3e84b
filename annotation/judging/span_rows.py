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

from django.db.models import QuerySet

from annotation.models import Judgment, Span
from annotation.models.prepared import Prepared
from metrics.error_spans import MarkedSpan, span_json, span_of_json


def in_order(spans: Iterable[MarkedSpan]) -> list[MarkedSpan]:
    """Spans in the text's order (a ``[MISSING]`` marker after a span that ends there),
    as the page lists them and events store them."""
    return sorted(spans, key=lambda s: (s.start, s.end, s.missing, s.severity, s.category))


def judge_spans(judgment: Judgment) -> list[MarkedSpan]:
    """The judge's own spans of ``judgment``, in order (one query)."""
    rows = Span.objects.filter(judgment=judgment, origin=Span.Origin.JUDGE).order_by()
    return in_order(r.marked for r in rows)


def span_row(judgment: Judgment, span: MarkedSpan, **fields: Any) -> Span:
    """A new row of ``judgment`` holding ``span`` (``fields``: origin, source, suggestion)."""
    return Span(
        judgment=judgment,
        start=span.start,
        end=span.end,
        severity=span.severity,
        category=span.category,
        missing=span.missing,
        **fields,
    )


#: Where :func:`set_spans` leaves the judge's spans it has just written on the judgment
#: object (as :func:`judge_spans_as_suggested` gives them), so the page drawn after the
#: change reads them without a query, as the stack's counts are kept
#: (:func:`annotation.judging.stack.load_stack`).
WRITTEN = "judge_spans_written"


def judge_spans_as_suggested(judgment: Judgment) -> list[tuple[MarkedSpan, bool]]:
    """The judge's own spans of ``judgment`` in order, each with whether it is a
    suggestion as it was suggested (kept so far), in one query (none after a change
    that wrote them on this object: :data:`WRITTEN`), compiled once per process: every
    new candidate's page asks it, and the ORM took longer to build it than the database
    to answer it."""
    written: list[tuple[MarkedSpan, bool]] | None = judgment.__dict__.get(WRITTEN)
    if written is not None:
        return list(written)
    return _as_suggested((r, r.suggestion) for r in _JUDGE_SPANS(judgment.pk))


def _judge_spans_query(judgment_id: int, *, shape: object) -> QuerySet[Span]:
    """:func:`judge_spans_as_suggested`'s query: the judge's rows of the judgment, each
    with the suggestion it started as."""
    rows = Span.objects.filter(judgment_id=judgment_id, origin=Span.Origin.JUDGE)
    return rows.select_related("suggestion").order_by()


_JUDGE_SPANS = Prepared(_judge_spans_query)


def _as_suggested(rows: Iterable[tuple[Span, Span | None]]) -> list[tuple[MarkedSpan, bool]]:
    """Judge's rows, each with its suggestion (or None), as the page lists them."""
    marked = [(r.marked, s is not None and s.marked == r.marked) for r, s in rows]
    order = {s: k for k, s in enumerate(in_order(s for s, _ in marked))}
    return sorted(marked, key=lambda pair: order[pair[0]])


def set_spans(
    spans: Sequence[dict[str, Any]], *, judgment: Judgment, seconds: float = 0.0
) -> list[dict[str, Any]]:
    """Make the judge's span rows of ``judgment`` the ``spans`` given (as events store
    them) and return those it had before. Call it in the change's transaction.

    A row no longer wanted takes the place of a new span over the same characters (a
    span resized or given another severity keeps its row, and so the suggestion it
    started as), or of the one new span where one span became another (a change names
    one span and its replacement); the others are deleted or added. An added span equal
    to a suggestion no other span of the judge's names takes it up (undo after a
    removal brings the kept suggestion back as kept). ``seconds``, the change's active
    time (the gap before it), goes to the spans it made or changed (``Span.seconds``): a
    span's time is that of the changes that made it what it is, and the spans a change
    left alone gain nothing."""
    every = list(Span.objects.filter(judgment=judgment).order_by())
    rows = [r for r in every if r.origin == Span.Origin.JUDGE]
    before = [span_json(s) for s in in_order(r.marked for r in rows)]
    wanted = Counter(span_of_json(s) for s in spans)
    spare = []
    for row in rows:
        if wanted[row.marked] > 0:
            wanted[row.marked] -= 1
        else:
            spare.append(row)
    new = [s for s, n in wanted.items() for _ in range(n)]
    successors = _successors(spare, new)
    moved = [(row, new[k]) for k, row in successors]
    for row, span in moved:
        row.start, row.end, row.severity = span.start, span.end, span.severity
        row.category, row.missing = span.category, span.missing
        row.seconds += seconds
    if moved:
        fields = ["start", "end", "severity", "category", "missing", "seconds"]
        Span.objects.bulk_update([row for row, _ in moved], fields)
    kept_rows = {id(row) for row, _ in moved}
    gone = [row for row in spare if id(row) not in kept_rows]
    if gone:
        Span.objects.filter(pk__in=[row.pk for row in gone]).delete()
    named = {r.suggestion_id for r in rows if r not in gone}
    free = {r.marked: r for r in every if r.origin == Span.Origin.SUGGESTED and r.pk not in named}
    taken = {k for k, _ in successors}
    added = [s for k, s in enumerate(new) if k not in taken]
    created = Span.objects.bulk_create(
        span_row(judgment, s, suggestion=free.pop(s, None), seconds=seconds) for s in added
    )
    suggestions: dict[int | None, Span] = {r.pk: r for r in every}
    judgment.__dict__[WRITTEN] = _as_suggested(
        [(r, suggestions.get(r.suggestion_id)) for r in rows if r not in gone]
        + [(r, r.suggestion) for r in created]
    )
    return before


def _successors(spare: list[Span], new: list[MarkedSpan]) -> list[tuple[int, Span]]:
    """Which rows no longer wanted become which new spans (:func:`set_spans`): each new
    span (by its index) the first spare row over the same characters (a marker: a spare
    marker), then a lone spare row the lone new span left."""
    pairs = []
    rows, left = list(spare), []
    for k, span in enumerate(new):
        row = next((r for r in rows if _same_place(r.marked, span)), None)
        if row is None:
            left.append(k)
        else:
            rows.remove(row)
            pairs.append((k, row))
    if len(rows) == 1 and len(left) == 1:
        pairs.append((left[0], rows[0]))
    return pairs


def _same_place(a: MarkedSpan, b: MarkedSpan) -> bool:
    if a.missing or b.missing:
        return a.missing and b.missing
    return a.start < b.end and b.start < a.end
