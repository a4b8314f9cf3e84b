"""Export a corpus as canonical evalTrans XML: the file it was imported from, and its judgments.

The inverse of :mod:`annotation.corpora.imports`, so it takes the import's conventions
from there (a judgment in progress is marked with ``PENDING_ATTR``; sentences are read in
batches of ``BATCH_SENTENCES``). Streaming: rows are read and written sentence by
sentence, so a large corpus never sits in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from django.db.models import Prefetch

from annotation.corpora.evaltrans import (
    CorpusHeader,
    EvalElement,
    SentenceElement,
    attrs_from_json,
    iter_evaltrans_bytes,
)
from annotation.corpora.imports import BATCH_SENTENCES, PENDING_ATTR
from annotation.models import Corpus, Judgment, Target, Translator


def corpus_export(*, corpus: Corpus, out: BinaryIO) -> None:
    """Write the corpus as canonical evalTrans XML, streaming sentence by sentence."""
    for chunk in corpus_export_bytes(corpus=corpus):
        out.write(chunk)


def corpus_export_bytes(*, corpus: Corpus) -> Iterator[bytes]:
    """The corpus as canonical evalTrans XML, in pieces as they are written: the download
    sends each piece on as it comes, so its first byte leaves after the first batch of
    sentences, not after the whole file."""
    header = CorpusHeader(
        name=corpus.name,
        extra_attrs=attrs_from_json(corpus.extra_attrs),
        extra_xml=tuple(corpus.extra_xml),
    )
    reference_names = [t.name for t in corpus.translators.filter(role=Translator.Role.REFERENCE)]
    return iter_evaltrans_bytes(header, _sentence_elements(corpus), reference_names=reference_names)


def _sentence_elements(corpus: Corpus) -> Iterator[SentenceElement]:
    targets = Target.objects.select_related("translator").prefetch_related(
        Prefetch("judgments", queryset=Judgment.objects.select_related("evaluator").order_by("pk"))
    )
    queryset = corpus.sentences.order_by("position").prefetch_related(
        Prefetch("targets", queryset=targets.order_by("position"))
    )
    for sentence in queryset.iterator(chunk_size=BATCH_SENTENCES):
        yield SentenceElement(
            source=sentence.source,
            evals=tuple(ev for target in sentence.targets.all() for ev in _eval_elements(target)),
            line=0,
            position=sentence.position,
            id=sentence.xml_id,
            doc=sentence.doc,
            extra_attrs=attrs_from_json(sentence.extra_attrs),
            extra_xml=tuple(sentence.extra_xml),
            after_xml=tuple(sentence.after_xml),
        )


def _eval_elements(target: Target) -> list[EvalElement]:
    """A target's ``<eval>``: one per judgment, after a bare one that carries the target's
    own unknown attributes and elements (written when it has some, or when there is no
    judgment): once judged, a candidate keeps what the imported file said about it."""
    judgments = list(target.judgments.all())
    bare = EvalElement(
        translator=target.translator.name,
        target=target.text,
        line=0,
        extra_attrs=attrs_from_json(target.extra_attrs),
        extra_xml=tuple(target.extra_xml),
    )
    keep_bare = not judgments or bool(target.extra_attrs or target.extra_xml)
    return [*([bare] if keep_bare else []), *_judged_elements(target, judgments)]


def _judged_elements(target: Target, judgments: list[Judgment]) -> list[EvalElement]:
    return [
        EvalElement(
            translator=target.translator.name,
            target=target.text,
            line=0,
            evaluator=j.evaluator.username,
            sser=j.sser,
            awer=None if j.edits is None else (j.edits, j.ref_length or 0),
            new_ref=j.new_ref or None,
            extra_attrs=attrs_from_json(j.extra_attrs)
            + ((PENDING_ATTR,) if j.state == Judgment.State.PENDING else ()),
            extra_xml=tuple(j.extra_xml),
        )
        for j in judgments
    ]
