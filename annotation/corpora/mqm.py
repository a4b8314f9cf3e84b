"""A corpus's error spans in the layout of the public WMT MQM data (Freitag et al.
2021, github.com/google/wmt-mqm-human-evaluation): one row per error, as TSV or JSON.

Columns (:data:`COLUMNS`): ``system``, ``doc`` (the sentence's ``doc`` id; a sentence
without one is a document of its own, ``#<seg_id>``), ``doc_id`` (the sentence's place
in its document, from 1, as in the WMT files), ``seg_id`` (its place in the corpus,
from 1),
``rater`` (the judge), ``source``, ``target`` (the candidate's 13a words, the error's
words inside ``<v>…</v>``; a missing word is an empty ``<v></v>`` where it is missing),
``category`` and ``severity`` (``Minor`` or ``Major``, as in the WMT files). The
category is the aWER operation's (:data:`annotation.spans.CATEGORY`): aWER says only
that a word is wrong, superfluous or lacking. A done judgment without errors is one
``No-error`` row, as in the WMT files. The JSON is a list of the same rows, each with
the span's ``start`` and ``end`` (13a words) and the operation ``op`` besides.

An ESA or MQM corpus's rows are its judges' spans instead (:func:`span_rows`): the
target is the candidate's text as stored, the span's characters inside ``<v>…</v>``,
the category the span's (MQM's taxonomy; none in ESA), ``start`` and ``end`` in
characters. ``manage.py import_mqm`` reads that TSV back to the same spans.

Done judgments only (no control items), sentence by sentence, systems in corpus order.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from annotation.corpora.mqm_tsv import COLUMNS, NO_ERROR
from annotation.models import Corpus, Judgment, Protocol, Span
from annotation.spans import ErrorSpan, error_spans
from annotation.text import words
from metrics.json_out import json_dumps
from metrics.mqm import WMT_SPELLING_OF


def marked_target(candidate: tuple[str, ...], span: ErrorSpan | None) -> str:
    """The candidate's words with ``span`` inside ``<v>…</v>`` (none: unmarked)."""
    if span is None:
        return " ".join(candidate)
    inside = " ".join(candidate[span.start : span.end])
    return " ".join([*candidate[: span.start], f"<v>{inside}</v>", *candidate[span.end :]])


def places_in_documents(documents: Sequence[str | None]) -> list[int]:
    """Each line's place in its document, from 1 (a line without one: the first of its
    own): the ``doc_id`` column, written and checked on import."""
    seen: dict[str, int] = {}
    places = []
    for doc in documents:
        if doc:
            seen[doc] = seen.get(doc, 0) + 1
        places.append(seen[doc] if doc else 1)
    return places


def _places_in_documents(corpus: Corpus) -> dict[int, int]:
    """Each sentence's place in its document (position → 1, 2, …)."""
    sentences = list(corpus.sentences.order_by("position").values_list("position", "doc"))
    places = places_in_documents([doc for _, doc in sentences])
    return {position: place for (position, _), place in zip(sentences, places, strict=True)}


def mqm_rows(corpus: Corpus) -> Iterator[dict[str, Any]]:
    """One row per error of the done judgments the corpus's figures count (no judge left
    out: :meth:`~annotation.models.JudgmentQuerySet.in_figures`; two queries: the
    sentences' documents, then the judgments, streamed). An ESA or MQM corpus's are its
    judges' spans, in characters (:func:`span_rows`)."""
    if corpus.protocol != Protocol.AWER:
        yield from span_rows(corpus)
        return
    place_in_doc = _places_in_documents(corpus)
    rows = _judgments(corpus, "target__translator__name", last=("new_ref", "severities"))
    for system, doc, position, rater, source, text, new_ref, severities in rows:
        seg_id = position + 1
        doc = doc or f"#{seg_id}"
        common = {
            "system": system,
            "doc": doc,
            "doc_id": place_in_doc[position],
            "seg_id": seg_id,
            "rater": rater,
            "source": source,
        }
        candidate = words(text, cache=False)
        spans = error_spans(candidate, words(new_ref, cache=False), severities or {})
        if not spans:
            yield {
                **common,
                "target": marked_target(candidate, None),
                "category": NO_ERROR,
                "severity": NO_ERROR,
                "start": None,
                "end": None,
                "op": None,
            }
        for span in spans:
            yield {
                **common,
                "target": marked_target(candidate, span),
                "category": span.category,
                "severity": span.severity.capitalize(),
                "start": span.start,
                "end": span.end,
                "op": span.op.value,
            }


def marked_text(text: str, start: int, end: int) -> str:
    """``text`` with its characters ``[start, end)`` inside ``<v>…</v>``."""
    return f"{text[:start]}<v>{text[start:end]}</v>{text[end:]}"


def span_rows(corpus: Corpus) -> Iterator[dict[str, Any]]:
    """The rows of an ESA or MQM corpus: one per span a judge marked (:class:`~annotation.
    models.Span`, the characters of the candidate inside ``<v>…</v>``, a ``[MISSING]``
    marker an empty ``<v></v>``), ``No-error`` for a judgment without any; the rows
    :mod:`annotation.corpora.mqm_import` reads back to the same spans. Three queries."""
    place_in_doc = _places_in_documents(corpus)
    spans: dict[int, list[tuple[int, int, str, str]]] = defaultdict(list)
    for judgment, start, end, severity, category in (
        Span.objects.filter(
            judgment__target__translator__corpus_id=corpus.pk, origin=Span.Origin.JUDGE
        )
        .order_by("judgment", "start", "end", "pk")
        .values_list("judgment_id", "start", "end", "severity", "category")
    ):
        spans[judgment].append((start, end, severity, category))
    rows = _judgments(corpus, "pk", "target__translator__name")
    for pk, system, doc, position, rater, source, text in rows:
        common = {
            "system": system,
            "doc": doc or f"#{position + 1}",
            "doc_id": place_in_doc[position],
            "seg_id": position + 1,
            "rater": rater,
            "source": source,
            "op": None,
        }
        if not spans.get(pk):
            yield {
                **common,
                "target": text,
                "category": NO_ERROR,
                "severity": NO_ERROR,
                "start": None,
                "end": None,
            }
        for start, end, severity, category in spans.get(pk, ()):
            yield {
                **common,
                "target": marked_text(text, start, end),
                "category": WMT_SPELLING_OF.get(category, category),
                "severity": severity.capitalize(),
                "start": start,
                "end": end,
            }


def _judgments(corpus: Corpus, *first: str, last: Sequence[str] = ()) -> Iterator[Any]:
    """The judgments the rows are of (:func:`mqm_rows`), streamed in the rows' order:
    the columns ``first``, then document, position, rater, source and candidate, then
    ``last``."""
    return (
        Judgment.objects.in_figures(corpus.pk)
        .order_by("target__sentence__position", "target__translator__position", "pk")
        .values_list(
            *first,
            "target__sentence__doc",
            "target__sentence__position",
            "evaluator__username",
            "target__sentence__source",
            "target__text",
            *last,
        )
        .iterator()
    )


def _cell(value: Any) -> str:
    """A TSV cell: the WMT files quote nothing, so tabs and line breaks become spaces."""
    return re.sub(r"[\t\r\n]", " ", str(value))


def mqm_tsv(corpus: Corpus) -> Iterator[str]:
    """The TSV, a header and one line per row, as pieces to stream."""
    yield "\t".join(COLUMNS) + "\n"
    for row in mqm_rows(corpus):
        yield "\t".join(_cell(row[c]) for c in COLUMNS) + "\n"


def mqm_json(corpus: Corpus) -> str:
    """The JSON: a list of rows (the TSV's columns, then ``start``, ``end``, ``op``)."""
    return json_dumps(list(mqm_rows(corpus)), indent=1) + "\n"
