"""Export a corpus as canonical evalTrans XML: the file it was imported from, and its judgments.

The inverse of :mod:`annotation.corpora.imports`, so it takes the import's conventions
from there (a judgment in progress is marked with ``PENDING_ATTR``; sentences are read in
batches of ``BATCH_SENTENCES``). Streaming: rows are read batch by batch and written
sentence by sentence, so a large corpus never sits in memory, and a download's first
bytes leave after the first small batch.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from typing import Any, BinaryIO, NamedTuple

from annotation.corpora.evaltrans import (
    CorpusHeader,
    EvalElement,
    SentenceElement,
    Timing,
    attrs_from_json,
    iter_evaltrans_bytes,
)
from annotation.corpora.evaltrans.error_spans import SpanElement
from annotation.corpora.evaltrans.imported_spans import ImportedElement
from annotation.corpora.import_batches import PENDING_ATTR
from annotation.corpora.imports import BATCH_SENTENCES
from annotation.corpora.marked_spans import imported_elements_of, span_elements_of
from annotation.corpora.spans import error_elements
from annotation.ier import as_items, items_problem
from annotation.models import Corpus, Judgment, Protocol, Sentence, Target, Translator
from annotation.resegmenting import entry_attrs
from annotation.text import words
from metrics.mqm import WMT_TAXONOMY


def corpus_export(*, corpus: Corpus, out: BinaryIO) -> None:
    """Write the corpus as canonical evalTrans XML, streaming sentence by sentence."""
    for chunk in corpus_export_bytes(corpus=corpus):
        out.write(chunk)


def corpus_export_bytes(*, corpus: Corpus) -> Iterator[bytes]:
    """The corpus as canonical evalTrans XML, in pieces as they are written: the download
    sends each piece on as it comes, so its first byte leaves after the first batch of
    sentences, not after the whole file."""
    taxonomy = corpus.taxonomy
    header = CorpusHeader(
        name=corpus.name,
        extra_attrs=attrs_from_json(corpus.extra_attrs),
        extra_xml=tuple(corpus.extra_xml),
        # an aWER corpus's file is as it always was: the protocol is said when it is
        # another, the taxonomy when it is MQM's or not WMT's (a lead's own, kept)
        protocol=None if corpus.protocol == Protocol.AWER else corpus.protocol,
        taxonomy=(
            taxonomy if corpus.protocol == Protocol.MQM or taxonomy != WMT_TAXONOMY else None
        ),
    )
    reference_names = [t.name for t in corpus.translators.filter(role=Translator.Role.REFERENCE)]
    return iter_evaltrans_bytes(header, _sentence_elements(corpus), reference_names=reference_names)


#: Sentences per read. The first read is small, so the download's first byte leaves at
#: once; later ones are the import's batch size.
FIRST_BATCH = 50


def _sentence_elements(corpus: Corpus) -> Iterator[SentenceElement]:
    """The corpus sentence by sentence, read in batches of plain rows (three queries a
    batch: sentences, their targets, the targets' judgments; a fourth, their error
    spans, where judges mark spans). Rows, not model objects: building 40,000 objects
    and their prefetch querysets took most of an export's time."""
    names = dict(corpus.translators.values_list("pk", "name"))
    segmented = {
        pk: record
        for pk, record in corpus.translators.values_list("pk", "segmentation")
        if record is not None
    }
    positions = list(corpus.sentences.order_by("position").values_list("pk", flat=True))
    start, size = 0, FIRST_BATCH
    while start < len(positions):
        batch = positions[start : start + size]
        yield from _batch_elements(
            batch, names, segmented, corpus.marks_spans, corpus.protocol == Protocol.ESA_PREFILL
        )
        start, size = start + size, BATCH_SENTENCES


def _batch_elements(
    sentence_ids: list[int],
    names: dict[int, str],
    segmented: dict[int, dict[str, Any]],
    marks_spans: bool,
    prefill: bool,
) -> Iterator[SentenceElement]:
    """The batch's sentences; a re-segmented system's targets carry their segment's record
    (:func:`annotation.resegmenting.entry_attrs`), and in an ESA corpus with pre-filled
    spans (``prefill``) the suggestions a span file gave them (one more query)."""
    imported = imported_elements_of(sentence_ids) if prefill else {}
    targets: dict[int, list[_TargetRow]] = defaultdict(list)
    target_rows = (
        Target.objects.filter(sentence_id__in=sentence_ids)
        .order_by("sentence_id", "position")
        .values_list(
            "pk",
            "sentence_id",
            "sentence__position",
            "translator_id",
            "text",
            "extra_attrs",
            "extra_xml",
        )
    )
    for pk, sentence_id, position, translator_id, text, extra_attrs, extra_xml in target_rows:
        if translator_id in segmented:
            entry = segmented[translator_id]["segments"][position]
            extra_attrs = entry_attrs(entry, extra_attrs)
        targets[sentence_id].append(
            _TargetRow(names[translator_id], pk, text, extra_attrs, extra_xml, imported.get(pk))
        )
    judgments = _batch_judgments(sentence_ids, marks_spans)
    sentences = (
        Sentence.objects.filter(pk__in=sentence_ids)
        .order_by("position")
        .values_list(
            "pk", "position", "source", "xml_id", "doc", "extra_attrs", "extra_xml", "after_xml"
        )
    )
    for pk, position, source, xml_id, doc, extra_attrs, extra_xml, after_xml in sentences:
        yield SentenceElement(
            source=source,
            evals=tuple(
                ev
                for t in targets[pk]
                for ev in _eval_elements(t, judgments.get(t.pk, []), marks_spans)
            ),
            line=0,
            position=position,
            id=xml_id,
            doc=doc,
            extra_attrs=attrs_from_json(extra_attrs),
            extra_xml=tuple(extra_xml),
            after_xml=tuple(after_xml),
        )


def _batch_judgments(sentence_ids: list[int], marks_spans: bool) -> dict[int, list[_JudgmentRow]]:
    """The real judgments of the batch's targets, by target, with their error spans
    where the corpus marks spans (one more query)."""
    judgments: dict[int, list[_JudgmentRow]] = defaultdict(list)
    judgment_rows = (
        # Control items are not written (annotation.controls): evalTrans has no way to
        # mark one, and read back it would be taken for a real judgment (a reference
        # control is even refused: references are not judged).
        Judgment.objects.real()
        .filter(target__sentence_id__in=sentence_ids)
        .order_by("pk")
        .values_list(
            "target_id",
            "pk",
            "evaluator__username",
            "sser",
            "esa_score",
            "edits",
            "ref_length",
            "new_ref",
            "state",
            "extra_attrs",
            "extra_xml",
            "note",
            "flag",
            "severities",
            "ier_items",
            "active_seconds",
            "ier_seconds",
            "ier_clicks",
            "created_at",
            "updated_at",
        )
    )
    spans = span_elements_of(sentence_ids) if marks_spans else {}
    for target_id, pk, *fields in judgment_rows:
        judgments[target_id].append(_JudgmentRow._make([*fields, spans.get(pk, ())]))
    return judgments


class _TargetRow(NamedTuple):
    translator: str
    pk: int
    text: str
    extra_attrs: list[list[str]]
    extra_xml: list[str]
    imported: ImportedElement | None = None


class _JudgmentRow(NamedTuple):
    evaluator: str
    sser: int | None
    esa_score: int | None
    edits: int | None
    ref_length: int | None
    new_ref: str
    state: str
    extra_attrs: list[list[str]]
    extra_xml: list[str]
    note: str
    flag: str
    severities: dict[str, str]
    ier_items: list[list[object]]
    active_seconds: float
    ier_seconds: float
    ier_clicks: int
    created_at: datetime
    updated_at: datetime
    spans: tuple[SpanElement, ...] = ()


def _eval_elements(
    target: _TargetRow, judgments: list[_JudgmentRow], marks_spans: bool
) -> list[EvalElement]:
    """A target's ``<eval>``: one per judgment, after a bare one that carries the target's
    own unknown attributes and elements and a span file's suggestions (written when it
    has some, or when there is no judgment): once judged, a candidate keeps what the
    imported file said about it. ``marks_spans``: the corpus's judges mark spans (ESA,
    MQM), see :func:`_judged`."""
    bare = EvalElement(
        translator=target.translator,
        target=target.text,
        line=0,
        extra_attrs=attrs_from_json(target.extra_attrs),
        extra_xml=tuple(target.extra_xml),
        imported=target.imported,
    )
    keep_bare = not judgments or bool(target.extra_attrs or target.extra_xml or target.imported)
    judged = (_judged(target, j, marks_spans) for j in judgments)
    return [*([bare] if keep_bare else []), *judged]


def _judged(target: _TargetRow, j: _JudgmentRow, marks_spans: bool) -> EvalElement:
    """A judgment's ``<eval>``. Of an ESA or MQM judgment (``marks_spans``), its score,
    spans and effort; not the new reference every judgment starts from (the pool's
    nearest reference, :func:`~annotation.judging.start.judgment_open`), which the ESA
    page never shows and no judge of it made: written, it would read as an aWER
    judgment, which such a corpus cannot hold."""
    pending = (PENDING_ATTR,) if j.state == Judgment.State.PENDING else ()
    # A done judgment's error spans (annotation.corpora.spans); none without an edit.
    done = not pending and bool(j.edits) and not marks_spans
    awer = not marks_spans and j.edits is not None
    return EvalElement(
        translator=target.translator,
        target=target.text,
        line=0,
        evaluator=j.evaluator,
        sser=None if marks_spans else j.sser,
        awer=(j.edits or 0, j.ref_length or 0) if awer else None,
        new_ref=None if marks_spans else j.new_ref or None,
        extra_attrs=attrs_from_json(j.extra_attrs) + pending,
        extra_xml=tuple(j.extra_xml),
        note=j.note or None,  # the judge's note and flag: attributes of the <eval>
        flag=j.flag or None,
        errors=error_elements(target.text, j.new_ref, j.severities) if done else (),
        ier=_ier_of(target, j),
        timing=_timing_of(j),
        esa_score=j.esa_score,
        spans=j.spans,
    )


def _timing_of(j: _JudgmentRow) -> Timing | None:
    """The judgment's effort (:mod:`annotation.corpora.evaltrans.timing`), with its first
    and last times, when the judge's page measured any: a judgment that was only imported
    has times that say when the import ran, which are not the judge's to export."""
    timing = Timing(j.active_seconds, j.ier_seconds, j.ier_clicks, j.created_at, j.updated_at)
    return timing if timing.measured else None


def _ier_of(target: _TargetRow, j: _JudgmentRow) -> tuple[tuple[int, int, str], ...] | None:
    """The judgment's IER items (``ierItems`` of its ``<eval>``) while they still tile the
    candidate's words; items left behind by a word moved across a segment boundary are
    not written (the import would refuse them, and the page no longer shows them)."""
    if not j.ier_items or items_problem(j.ier_items, len(words(target.text))) is not None:
        return None
    return tuple(as_items(j.ier_items))
