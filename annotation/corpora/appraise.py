"""Import a campaign judged in Appraise (its ESA/DA CSV, :mod:`~annotation.corpora.
appraise_csv`) as judgments of a corpus, all or nothing.

The texts come from WMT's plain-text layout (:mod:`~annotation.corpora.wmt_texts`: a new
corpus, ESA, or MQM where a span names a category), or from a corpus already imported
(an evalTrans file, whose sentences are Appraise's lines in order). Every row that
stands (:func:`~annotation.corpora.appraise_csv.standing_rows`) is checked against the
texts first (its system, its line, its document, its languages, its spans) and the first
that does not match is refused with its line and reason: nothing is stored then.

What a row becomes: ``TGT``, a done judgment of the system's candidate on that line,
with its score (``esa_score``), its spans (:class:`~annotation.models.Span` rows) and its
time (``created_at`` the start, ``updated_at`` the end, ``active_seconds`` between);
``REF``, a reference control (the system's label on the first reference, or on the
reference the row names); ``BAD``, a bad-reference control of the system's candidate,
its spans kept as the file gives them (the degraded text Appraise showed is in no WMT
release, so ``shown_text`` stays empty and the spans' characters are of that unknown
text). A reference judged as a system in ``TGT`` rows (WMT ranks ``refA`` among the
systems) is a system of its own too, with the reference's texts. A row that scores a
whole document (``True`` in the is-document column) has no place among judgments of
candidates and is counted, not stored. Annotators become inactive judge accounts as in
every import (:mod:`~annotation.corpora.evaluator_accounts`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from annotation.corpora.appraise_csv import (
    BAD,
    REF,
    TGT,
    AppraiseRow,
    read_appraise_rows,
    standing_rows,
)
from annotation.corpora.campaign_texts import (
    CampaignTexts,
    corpus_of_wmt_texts,
    stored_campaign_texts,
    wmt_campaign_texts,
)
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imported_judgments import (
    ImportedJudgment,
    ImportedSpan,
    refuse_judged_again,
    store_imported_judgments,
)
from annotation.formatting import counted
from annotation.models import Corpus, Judgment, Protocol
from metrics.mqm import WMT_TAXONOMY, Taxonomy
from metrics.textfiles import SegmentFileError

ERR_UNKNOWN_SYSTEM = "unknown system {system!r} (the texts have {known})"
ERR_PAST_TEXTS = "item id {item} is past the texts' last line ({lines} lines, from 0)"
ERR_WRONG_DOCUMENT = "document id {doc!r} is not line {item}'s ({actual!r})"
ERR_LANGUAGE = "{side} language {given!r} is not the pair's {expected!r}"
ERR_SPAN_PAST_END = "error span {k}: characters {start}–{end} run past the target's {size}"
ERR_SPAN_BLANKS = "error span {k}: characters {start}–{end} are blanks only"
ERR_AWER_CORPUS = (
    "the corpus {corpus!r} is judged by aWER + SSER: Appraise's 0–100 scores and spans need "
    "an ESA or MQM corpus"
)
ERR_CATEGORY = "error span {k}: error_type {category!r}: {where}"
ERR_REFERENCE_JUDGED = "system {system!r} is a reference of the corpus: it has no candidate"


@dataclass(frozen=True)
class AppraiseSummary:
    """What an import of an Appraise CSV stored, and what it left out."""

    corpus: Corpus
    judgments: int
    controls: int
    annotators: tuple[str, ...]
    not_judgments: int
    replaced: int
    documents: int

    def lines(self) -> list[str]:
        return [
            f"Imported {counted(self.judgments, 'judgment')} and "
            f"{counted(self.controls, 'control item')} of "
            f"{counted(len(self.annotators), 'annotator')} into {self.corpus.name!r}.",
            f"Left out: {counted(self.not_judgments, 'tutorial or #incomplete/#dup row')}, "
            f"{counted(self.replaced, 'earlier rating')} of an item rated again, "
            f"{counted(self.documents, 'document-level score')}.",
        ]


def corpus_import_appraise(
    *,
    data: bytes,
    filename: str,
    pair: str | None = None,
    texts: Path | None = None,
    name: str | None = None,
    corpus: Corpus | None = None,
) -> AppraiseSummary:
    """Import the Appraise CSV ``data`` as judgments of a new corpus ``name`` made of the
    WMT texts under ``texts`` for ``pair``, or of the existing ``corpus`` (module doc);
    an :class:`~annotation.corpora.import_state.ImportRefused` names the line and reason."""
    try:
        rows = read_appraise_rows(data, filename)
    except SegmentFileError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None
    standing = standing_rows(rows)
    judged = [r for r in standing if not r.is_document]
    if corpus is None:
        if texts is None or pair is None or name is None:
            raise ValueError("a new corpus needs texts, pair and name")
        # a reference judged (TGT) or shown under its own name (REF) is a system too
        systems = {r.system for r in judged if r.item_type in (TGT, REF)}
        found = wmt_campaign_texts(texts, pair, systems)
        mqm = any(s.error_type for r in judged for s in r.spans)
        taxonomy = WMT_TAXONOMY if mqm else None
        plans = [_plan(found, row, taxonomy, filename) for row in judged]
        corpus = corpus_of_wmt_texts(
            found,
            name=name,
            pair=pair,
            filename=filename,
            protocol=Protocol.MQM if mqm else Protocol.ESA,
        )
    else:
        if corpus.protocol == Protocol.AWER:
            refusal = ERR_AWER_CORPUS.format(corpus=corpus.name)
            raise ImportRefused(filename, None, refusal)
        found = stored_campaign_texts(corpus, pair)
        taxonomy = corpus.taxonomy if corpus.protocol == Protocol.MQM else None
        plans = [_plan(found, row, taxonomy, filename) for row in judged]
        refuse_judged_again(corpus, plans, filename)
    users = store_imported_judgments(corpus, plans, new_corpus=found.wmt is not None)
    return AppraiseSummary(
        corpus=corpus,
        judgments=sum(p.control == Judgment.Control.NONE for p in plans),
        controls=sum(p.control != Judgment.Control.NONE for p in plans),
        annotators=tuple(sorted(users)),
        not_judgments=sum(not r.is_judgment for r in rows),
        replaced=sum(r.is_judgment for r in rows) - len(standing),
        documents=len(standing) - len(judged),
    )


def _plan(
    found: CampaignTexts, row: AppraiseRow, taxonomy: Taxonomy | None, filename: str
) -> ImportedJudgment:
    """``row`` resolved against the texts, or its refusal (module doc); ``taxonomy``:
    the MQM corpus's, whose categories an ``error_type`` must name (None: ESA, whose
    spans have none)."""

    def refuse(reason: str) -> ImportRefused:
        return ImportRefused(filename, row.line, reason)

    if found.languages is not None:
        for side, given, expected in zip(
            ("source", "target"),
            (row.source_language, row.target_language),
            found.languages,
            strict=True,
        ):
            if given.lower() != expected:
                raise refuse(ERR_LANGUAGE.format(side=side, given=given, expected=expected))
    known = row.system in found.systems or (row.item_type == REF and row.system in found.references)
    if not known:
        if row.system in found.references:
            raise refuse(ERR_REFERENCE_JUDGED.format(system=row.system))
        names = ", ".join(sorted(found.systems)[:10])
        raise refuse(ERR_UNKNOWN_SYSTEM.format(system=row.system, known=names))
    if row.item_id >= found.lines:
        raise refuse(ERR_PAST_TEXTS.format(item=row.item_id, lines=found.lines))
    actual = found.documents[row.item_id]
    if actual is not None and row.document != actual:
        raise refuse(ERR_WRONG_DOCUMENT.format(doc=row.document, item=row.item_id, actual=actual))
    shown_as: str | None = None
    translator = row.system
    if row.item_type == REF:
        ref = row.system if row.system in found.references else found.first_reference
        translator, shown_as = found.reference_names[ref], row.system
        text = found.references[ref][row.item_id]
    else:
        text = found.systems[row.system][row.item_id]
    if row.item_type == BAD:  # spans of a text no release holds: as the file gives them
        spans = tuple(
            ImportedSpan(s.start, s.end, s.severity, s.error_type or "", s.start == s.end)
            for s in row.spans
        )
    else:
        spans = _stored_spans(found, row, text, refuse)
    for k, span in enumerate(spans, start=1):
        if span.category and (taxonomy is None or span.category not in taxonomy.names):
            where = "an ESA corpus's spans have none" if taxonomy is None else "not in the taxonomy"
            raise refuse(ERR_CATEGORY.format(k=k, category=span.category, where=where))
    return ImportedJudgment(
        line=row.line,
        user=row.user,
        translator=translator,
        position=row.item_id,
        control=_CONTROL[row.item_type],
        shown_as=shown_as,
        esa_score=row.score,
        started=row.start_time,
        ended=row.end_time,
        spans=spans,
    )


def _stored_spans(
    found: CampaignTexts, row: AppraiseRow, text: str, refuse: Callable[[str], ImportRefused]
) -> tuple[ImportedSpan, ...]:
    """The row's spans on the stored text: a span at or past the text's end is the
    ``[MISSING]`` marker Appraise shows after it; an empty span, a marker where it is."""
    size = len(text)
    stored_end = found.stored(text, size)
    out = []
    for k, s in enumerate(row.spans, start=1):
        category = s.error_type or ""
        if s.start >= size:
            out.append(ImportedSpan(stored_end, stored_end, s.severity, category, missing=True))
            continue
        if s.end > size:
            reason = ERR_SPAN_PAST_END.format(k=k, start=s.start, end=s.end, size=size)
            raise refuse(reason)
        start, end = found.stored(text, s.start), found.stored(text, s.end)
        if s.start == s.end:
            out.append(ImportedSpan(start, start, s.severity, category, missing=True))
            continue
        if start >= end or not text[s.start : s.end].strip():
            raise refuse(ERR_SPAN_BLANKS.format(k=k, start=s.start, end=s.end))
        out.append(ImportedSpan(start, end, s.severity, category))
    return tuple(out)


_CONTROL: dict[str, str] = {
    TGT: Judgment.Control.NONE,
    REF: Judgment.Control.REFERENCE,
    BAD: Judgment.Control.DEGRADED,
}
