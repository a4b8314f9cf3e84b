"""Add a system to a corpus that exists: from a file with one candidate per sentence, or
from one document the import re-segments against the corpus's references (seed 002).

A lead comparing a speech-translation or long-document system with the systems already
judged adds it to their corpus rather than importing a new one: the judges' work and the
campaign stay. The new candidates are judged like any other; the corpus's stored
statistics are scored afresh, including the new system (as an import does), before the
service returns, so the dashboard's next view only reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from annotation.changes import corpus_texts_changed
from annotation.corpora import evaltrans
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import upload_limits
from annotation.limits import NAME_MAX_LENGTH, length_problem, non_xml_char_problem, unusable_line
from annotation.models import Corpus, Sentence, Target, Translator
from annotation.resegmenting import Cost, cost, resegment_document
from annotation.statistics import corpus_texts, scoring_job
from metrics.textfiles import SegmentFileError, decode_segments

ERR_SYSTEM_EXISTS = "the corpus has a translator named {name!r} already"
ERR_SYSTEM_NAME = "system name {name!r} is empty or ends in 'reference'"
ERR_LINE_COUNT = "{lines} lines, but the corpus has {sentences} sentences (one line per sentence)"
ERR_NO_REFERENCES = "the corpus has no references to re-segment the document against"


@dataclass(frozen=True)
class AddedSystem:
    """What :func:`corpus_add_system` stored, in the words the command and the page print."""

    corpus: Corpus
    system: str
    candidates: int
    words: int
    segmentation: Cost | None

    def lines(self) -> list[str]:
        line = (
            f"Added system {self.system!r} to corpus {self.corpus.name!r}: "
            f"{self.candidates} candidates, {self.words} words."
        )
        if self.segmentation is None:
            return [line]
        c = self.segmentation
        rate = "–" if c.percent is None else f"{c.percent:.2f} %"
        return [
            line,
            f"Re-segmented from one document: AS-WER {rate} "
            f"({c.edits} edits / {c.length} reference words).",
        ]


def corpus_add_system(
    *,
    corpus: Corpus,
    name: str,
    lines: Sequence[str],
    filename: str,
    unsegmented: bool,
    score: bool = True,
) -> AddedSystem:
    """Add system ``name`` to ``corpus`` from the lines of ``filename``.

    ``unsegmented``: the lines are one document (line breaks are spaces), cut into one
    candidate per sentence (:func:`annotation.resegmenting.resegment_document`); else
    there must be one line per sentence. Refused (:class:`ImportRefused`, nothing stored)
    with the file, line and reason. ``score`` queues the scoring of the corpus's new
    texts; without it, the first reader of its figures queues it
    (:func:`~annotation.statistics.statistics_or_job`).
    """
    _refuse_bad_name(corpus, name, filename)
    limits = upload_limits()
    problem = limits.systems_problem(corpus.n_systems + 1, name)
    if problem is not None:
        raise ImportRefused(filename, None, problem)
    bad = unusable_line(lines, None if unsegmented else limits)
    if bad is not None:
        raise ImportRefused(filename, *bad)
    texts = corpus_texts(corpus)
    segmentation: dict[str, Any] | None = None
    if unsegmented:
        if not any(texts.refs):
            raise ImportRefused(filename, None, ERR_NO_REFERENCES)
        document = " ".join(lines)
        problem = limits.document_problem(document, corpus.n_sentences)
        if problem is not None:
            raise ImportRefused(filename, None, problem)
        candidates, segmentation = resegment_document(document, texts.refs)
    else:
        if len(lines) != corpus.n_sentences:
            message = ERR_LINE_COUNT.format(lines=len(lines), sentences=corpus.n_sentences)
            raise ImportRefused(filename, None, message)
        candidates = [evaltrans.normalize_space(line) for line in lines]
    try:
        with transaction.atomic():
            _store(corpus, name, candidates, segmentation)
    except IntegrityError:  # another lead added the same name meanwhile
        raise ImportRefused(filename, None, ERR_SYSTEM_EXISTS.format(name=name)) from None
    corpus.refresh_from_db()  # its texts stamp moved: the statistics are scored for the new
    if score:
        scoring_job(corpus)
    return AddedSystem(
        corpus=corpus,
        system=name,
        candidates=len(candidates),
        words=sum(len(c.split()) for c in candidates),
        segmentation=None if segmentation is None else cost(segmentation),
    )


def uploaded_lines(data: bytes, filename: str) -> list[str]:
    """The lines of an uploaded file, read as ``import_text`` reads a file on disk
    (:func:`metrics.textfiles.decode_segments`: UTF-8, a BOM and CRs dropped), so the
    page and the command line accept the same files; a refusal names the line."""
    try:
        return decode_segments(data, filename)
    except SegmentFileError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None


def _refuse_bad_name(corpus: Corpus, name: str, filename: str) -> None:
    if not name or evaltrans.translator_role(name) != evaltrans.Role.SYSTEM:
        raise ImportRefused(filename, None, ERR_SYSTEM_NAME.format(name=name))
    problem = non_xml_char_problem(name)
    if problem is not None:
        raise ImportRefused(filename, None, f"the system name: {problem}")
    problem = length_problem(f"system name {name[:40]!r}…", name, NAME_MAX_LENGTH)
    if problem is not None:
        raise ImportRefused(filename, None, problem)
    if corpus.translators.filter(name=name).exists():
        raise ImportRefused(filename, None, ERR_SYSTEM_EXISTS.format(name=name))


def _store(
    corpus: Corpus, name: str, candidates: Sequence[str], segmentation: dict[str, Any] | None
) -> None:
    """The translator (last) and one target per sentence (last in it)."""
    last = corpus.translators.aggregate(n=Max("position"))["n"]
    translator = Translator.objects.create(
        corpus=corpus,
        name=name,
        role=Translator.Role.SYSTEM,
        position=0 if last is None else last + 1,
        segmentation=segmentation,
    )
    sentences = Sentence.objects.filter(corpus=corpus).annotate(last=Max("targets__position"))
    Target.objects.bulk_create(
        [
            Target(
                sentence_id=s.pk,
                translator=translator,
                position=0 if s.last is None else s.last + 1,
                text=candidates[s.position],
            )
            for s in sentences.order_by("position")
        ],
        batch_size=500,
    )
    corpus_texts_changed(corpus.pk)  # the corpus's sizes counted again with its stamps
