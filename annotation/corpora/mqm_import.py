"""Import a campaign judged in WMT's MQM TSV (:mod:`~annotation.corpora.mqm_tsv`) as
judgments of an MQM corpus, all or nothing.

The texts are WMT's plain-text files of the pair (a new MQM corpus with WMT's taxonomy)
or a corpus already imported whose protocol is MQM (its taxonomy): the TSV's
``seg_id`` is the texts' line from 1. Every row is checked against them first, and
the first that does not match is refused with its line and reason: an unknown
system, a ``seg_id`` past the texts, a ``doc`` or ``doc_id`` that is not that line's,
a target that is not that system's candidate there (blanks aside), a category the
taxonomy does not have. Nothing is stored then.

What the rows become: one done judgment per rater, system and segment, whose spans are
the rows' errors (:class:`~annotation.models.Span`, characters of the stored candidate;
an error without a mark covers the whole candidate; an empty mark is a ``[MISSING]``
marker); ``Neutral`` rows carry no points and are counted, not stored; a ``No-error``
row is a judgment without spans. The TSV has no score and no time: the judgments
have neither. Raters become inactive judge accounts, as in every import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from annotation.corpora.campaign_texts import (
    CampaignTexts,
    corpus_of_wmt_texts,
    stored_campaign_texts,
    wmt_campaign_texts,
)
from annotation.corpora.evaltrans import normalize_space
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imported_judgments import (
    ImportedJudgment,
    ImportedSpan,
    refuse_judged_again,
    store_imported_judgments,
)
from annotation.corpora.mqm import places_in_documents
from annotation.corpora.mqm_tsv import NEUTRAL, MqmRow, judgments_of, read_mqm_tsv
from annotation.corpora.wmt_texts import normalised_offset
from annotation.formatting import counted
from annotation.models import Corpus, Protocol
from metrics.mqm import MAJOR, MINOR, WMT_TAXONOMY, Taxonomy, taxonomy_from_json
from metrics.textfiles import SegmentFileError

ERR_NOT_MQM = "the corpus {corpus!r} is judged by {protocol}: MQM rows need an MQM corpus"
ERR_UNKNOWN_SYSTEM = "unknown system {system!r} (the texts have {known})"
ERR_PAST_TEXTS = "seg_id {seg} is past the texts' last line ({lines} lines)"
ERR_WRONG_DOC = "doc {doc!r} is not seg_id {seg}'s ({actual!r})"
ERR_WRONG_DOC_ID = "doc_id {doc_id} is not seg_id {seg}'s place in its document ({actual})"
ERR_WRONG_TARGET = "the target is not {system!r}'s candidate of seg_id {seg}"
ERR_CATEGORY = "category {category!r} is not in the corpus's taxonomy"
ERR_BLANKS = "the marked characters are blanks only"


@dataclass(frozen=True)
class MqmImportSummary:
    """What an import of an MQM TSV stored, and what it left out."""

    corpus: Corpus
    judgments: int
    errors: int
    neutral: int
    raters: tuple[str, ...]

    def lines(self) -> list[str]:
        return [
            f"Imported {counted(self.judgments, 'judgment')} with "
            f"{counted(self.errors, 'error span')} of {counted(len(self.raters), 'rater')} "
            f"into {self.corpus.name!r}; {counted(self.neutral, 'neutral row')} left out."
        ]


def corpus_import_mqm(
    *,
    data: bytes,
    filename: str,
    pair: str | None = None,
    texts: Path | None = None,
    name: str | None = None,
    corpus: Corpus | None = None,
) -> MqmImportSummary:
    """Import the MQM TSV ``data`` as judgments of a new corpus ``name`` made of the
    WMT texts under ``texts`` for ``pair``, or of the existing MQM ``corpus`` (module
    doc); an :class:`~annotation.corpora.import_state.ImportRefused` names the line and
    reason."""
    try:
        rows = read_mqm_tsv(data, filename)
    except SegmentFileError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None
    if corpus is None:
        if texts is None or pair is None or name is None:
            raise ValueError("a new corpus needs texts, pair and name")
        found = wmt_campaign_texts(texts, pair, {r.system for r in rows})
        plans = _plans(found, rows, WMT_TAXONOMY, filename)
        corpus = corpus_of_wmt_texts(
            found, name=name, pair=pair, filename=filename, protocol=Protocol.MQM
        )
    else:
        if corpus.protocol != Protocol.MQM:
            refusal = ERR_NOT_MQM.format(corpus=corpus.name, protocol=corpus.get_protocol_display())
            raise ImportRefused(filename, None, refusal)
        found = stored_campaign_texts(corpus, pair)
        plans = _plans(found, rows, taxonomy_from_json(corpus.mqm_taxonomy), filename)
        refuse_judged_again(corpus, plans, filename)
    raters = store_imported_judgments(corpus, plans, new_corpus=found.wmt is not None)
    return MqmImportSummary(
        corpus=corpus,
        judgments=len(plans),
        errors=sum(len(p.spans) for p in plans),
        neutral=sum(r.severity == NEUTRAL for r in rows),
        raters=tuple(sorted(raters)),
    )


def _plans(
    found: CampaignTexts, rows: Sequence[MqmRow], taxonomy: Taxonomy, filename: str
) -> list[ImportedJudgment]:
    places = places_in_documents(found.documents)
    plans = []
    for (rater, system, seg), group in judgments_of(rows).items():
        spans = []
        for row in group:
            text = _checked_text(found, row, places, taxonomy, filename)
            if row.severity in (MINOR, MAJOR):
                spans.append(_span(row, text, filename))
        plans.append(
            ImportedJudgment(
                line=group[0].line,
                user=rater,
                translator=system,
                position=seg - 1,
                spans=tuple(spans),
            )
        )
    return plans


def _checked_text(
    found: CampaignTexts, row: MqmRow, places: list[int], taxonomy: Taxonomy, filename: str
) -> str:
    """The stored candidate ``row`` is of, once the row matches the texts."""

    def refuse(reason: str) -> ImportRefused:
        return ImportRefused(filename, row.line, reason)

    if row.system not in found.systems:
        names = ", ".join(sorted(found.systems)[:10])
        raise refuse(ERR_UNKNOWN_SYSTEM.format(system=row.system, known=names))
    k = row.seg_id - 1
    if k >= found.lines:
        raise refuse(ERR_PAST_TEXTS.format(seg=row.seg_id, lines=found.lines))
    actual = found.documents[k]
    if actual is not None and row.doc != actual:
        raise refuse(ERR_WRONG_DOC.format(doc=row.doc, seg=row.seg_id, actual=actual))
    if row.doc_id != places[k]:
        raise refuse(ERR_WRONG_DOC_ID.format(doc_id=row.doc_id, seg=row.seg_id, actual=places[k]))
    text = normalize_space(found.systems[row.system][k])
    if normalize_space(row.target) != text:
        raise refuse(ERR_WRONG_TARGET.format(system=row.system, seg=row.seg_id))
    if row.severity in (MINOR, MAJOR) and row.category not in taxonomy.names:
        raise refuse(ERR_CATEGORY.format(category=row.category))
    return text


def _span(row: MqmRow, text: str, filename: str) -> ImportedSpan:
    """The row's error on the stored ``text`` (module doc)."""
    if row.start is None or row.end is None:
        return ImportedSpan(0, len(text), row.severity, row.category)
    start = normalised_offset(row.target, row.start)
    if row.start == row.end:
        return ImportedSpan(start, start, row.severity, row.category, missing=True)
    end = normalised_offset(row.target, row.end)
    if start >= end or not row.target[row.start : row.end].strip():
        raise ImportRefused(filename, row.line, ERR_BLANKS)
    return ImportedSpan(start, end, row.severity, row.category)
