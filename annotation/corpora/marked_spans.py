"""An ESA or MQM judgment's error spans in and out of evalTrans: ``<errorSpans>``
(:mod:`.evaltrans.error_spans`) and the judgment's :class:`~annotation.models.Span` rows.

Unlike aWER's ``<errors>`` (:mod:`.spans`), these spans are stored as the judge marked
them, so they travel whole: the judge's and the suggested ones, their severities,
categories, ``[MISSING]`` markers, where each suggestion came from (its ``source``), the
suggestion each judge's span started as, and the seconds spent on it. The export reads
them in one query per batch of sentences and writes them in one order (suggestions
first, then the judge's spans, each in the text's order), numbering the suggestions as
``suggestion="k"`` names them; the import writes the rows in two inserts per batch
(suggestions first, for the judge's spans to name).
So export → import → export gives the same bytes.

A span file's suggestions that wait for a candidate's next judges
(:class:`~annotation.models.ImportedSpans`) travel as ``<importedSpans>``
(:mod:`.evaltrans.imported_spans`): :func:`imported_elements_of` reads a batch's in one
query, :func:`imported_store` writes them back.

Which judgments may carry what is the protocol's (:func:`content_problem`): the file's
protocol is checked by the reader (:mod:`.evaltrans.protocol`), the corpus's here, so
that ESA spans never land in an aWER corpus, nor aWER's new references in an ESA one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from annotation.corpora.evaltrans import EvalElement
from annotation.corpora.evaltrans.error_spans import SPAN_ATTRS, SpanElement
from annotation.corpora.evaltrans.imported_spans import ImportedElement
from annotation.models import ImportedSpans, Judgment, Protocol, Span
from annotation.rows import RowWriter
from metrics.error_spans import MarkedSpan, span_json, span_of_json

ERR_JUDGED_UNDER_AWER = (
    "<eval> carries an aWER judgment, which a corpus judged by {protocol} cannot hold "
    "(import the file as aWER + SSER)"
)
ERR_IMPORTED_UNDER_OTHER = (
    "<importedSpans> holds a span file's suggestions, which a corpus judged by {protocol} "
    "cannot hold (import the file with protocol esa_prefill)"
)
ERR_IMPORTED_ON_REFERENCE = "<eval> of reference {translator!r} carries <importedSpans>"
ERR_SPANS_UNDER_OTHER = (
    '<eval> carries a judgment of judgingProtocol="{given}", which a corpus judged by '
    "{protocol} cannot hold (import the file with protocol {given})"
)

#: The order spans are written in: the text's (a ``[MISSING]`` marker after a span that
#: ends where it is), as the judge's page lists them.
_ORDER = ("start", "end", "missing", "severity", "category", "seconds", "pk")


def content_problem(ev: EvalElement, corpus_protocol: str, file_protocol: str | None) -> str | None:
    """Why the corpus cannot hold ``ev``'s judgment, or None: an aWER judgment (a score
    of 0–10, a new reference, its errors) only in an aWER corpus; ESA's score and spans
    only in a corpus of the protocol the file declares (``file_protocol``)."""
    protocol = Protocol(corpus_protocol)
    awer = ev.sser is not None or ev.awer is not None or ev.new_ref is not None or ev.errors
    if awer and protocol != Protocol.AWER:
        return ERR_JUDGED_UNDER_AWER.format(protocol=protocol.label)
    marked = ev.esa_score is not None or bool(ev.spans)
    if marked and file_protocol != protocol:
        return ERR_SPANS_UNDER_OTHER.format(given=file_protocol, protocol=protocol.label)
    return None


#: The columns a span's row is inserted with (:class:`~annotation.rows.RowWriter`: a
#: corpus of real size has a hundred thousand spans, which model instances would make an
#: import several times slower).
_COLUMNS = ("judgment", *SPAN_ATTRS)  # a column of the same name for each attribute


def spans_store(judgments: Sequence[Judgment], evals: Sequence[EvalElement]) -> None:
    """Store the spans of ``evals`` as rows of their judgments (same order; saved, with
    their ids), in the caller's transaction: the suggestions first, then, once their ids
    are read back (one query, only where there are suggestions), the judge's spans that
    name them. No query for a batch without spans."""
    writer = RowWriter(Span, _COLUMNS)
    suggested = [
        (j.pk, s) for j, ev in zip(judgments, evals, strict=True) for s in ev.spans if s.suggested
    ]
    writer.insert(_values(pk, s, Span.Origin.SUGGESTED, None) for pk, s in suggested)
    ids: dict[tuple[int, int], int] = {}
    if suggested:
        rows = (
            Span.objects.filter(judgment_id__in={pk for pk, _ in suggested})
            .filter(origin=Span.Origin.SUGGESTED)
            .order_by("judgment_id", "pk")
            .values_list("judgment_id", "pk")
        )
        numbers: dict[int, int] = defaultdict(int)
        for judgment_id, pk in rows:  # inserted in the file's order: numbered as it does
            numbers[judgment_id] += 1
            ids[judgment_id, numbers[judgment_id]] = pk
    writer.insert(
        _values(j.pk, s, Span.Origin.JUDGE, ids.get((j.pk, s.suggestion or 0)))
        for j, ev in zip(judgments, evals, strict=True)
        for s in ev.spans
        if not s.suggested
    )


def _values(
    judgment_id: int, span: SpanElement, origin: str, suggestion: int | None
) -> tuple[object, ...]:
    """A span's row (:data:`_COLUMNS`, in that order)."""
    return (
        judgment_id,
        span.start,
        span.end,
        span.missing,
        span.severity,
        span.category,
        origin,
        span.source,
        suggestion,
        span.seconds,
    )


def span_elements_of(sentence_ids: Sequence[int]) -> dict[int, tuple[SpanElement, ...]]:
    """Per judgment (no control item) of the sentences ``sentence_ids``, its spans as
    the export writes them (module doc), in one query."""
    rows = (
        Span.objects.filter(
            judgment__target__sentence_id__in=sentence_ids,
            judgment__control=Judgment.Control.NONE,
        )
        .order_by()
        .values_list("judgment_id", "origin", "source", "suggestion_id", *_ORDER, named=True)
    )
    by_judgment: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        by_judgment[row.judgment_id].append(row)
    return {pk: _elements(found) for pk, found in by_judgment.items()}


def _elements(rows: list[Any]) -> tuple[SpanElement, ...]:
    def key(row: Any) -> tuple[Any, ...]:
        return tuple(getattr(row, name) for name in _ORDER)

    suggested = sorted((r for r in rows if r.origin == Span.Origin.SUGGESTED), key=key)
    number = {r.pk: k + 1 for k, r in enumerate(suggested)}
    own = sorted((r for r in rows if r.origin != Span.Origin.SUGGESTED), key=key)
    return tuple(
        SpanElement(
            start=r.start,
            end=r.end,
            severity=r.severity,
            category=r.category,
            missing=r.missing,
            suggested=r.origin == Span.Origin.SUGGESTED,
            source=r.source,
            suggestion=number.get(r.suggestion_id),
            seconds=r.seconds,
        )
        for r in (*suggested, *own)
    )


def imported_problem(corpus_protocol: str) -> str | None:
    """Why a corpus judged by ``corpus_protocol`` cannot hold a span file's suggestions
    (``<importedSpans>``), or None: only ESA with pre-filled spans suggests them."""
    protocol = Protocol(corpus_protocol)
    if protocol == Protocol.ESA_PREFILL:
        return None
    return ERR_IMPORTED_UNDER_OTHER.format(protocol=protocol.label)


def imported_store(found: Sequence[tuple[int, ImportedElement]]) -> None:
    """Store each (target id, ``<importedSpans>``) as the target's
    :class:`~annotation.models.ImportedSpans` row, as ``manage.py import_spans`` would
    have (the span file's name kept); no query for none."""
    ImportedSpans.objects.bulk_create(
        ImportedSpans(
            target_id=target_id,
            spans=[span_json(s.marked) for s in imported.spans],
            source=imported.file[:200],
        )
        for target_id, imported in found
    )


def imported_elements_of(sentence_ids: Sequence[int]) -> dict[int, ImportedElement]:
    """Per target of the sentences ``sentence_ids`` that has them, its span file's
    suggestions as ``<importedSpans>`` (:mod:`.evaltrans.imported_spans`), in one query."""
    rows = ImportedSpans.objects.filter(target__sentence_id__in=sentence_ids).values_list(
        "target_id", "spans", "source"
    )
    return {
        target_id: ImportedElement(source, tuple(_element(span_of_json(s)) for s in spans))
        for target_id, spans, source in rows
    }


def _element(span: MarkedSpan) -> SpanElement:
    return SpanElement(span.start, span.end, span.severity, span.category, span.missing)
