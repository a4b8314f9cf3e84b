"""The texts another tool's judgments are checked against and stored on, whichever tool
judged them (Appraise's CSV, WMT's MQM TSV): WMT's plain-text files of one pair, made a
new corpus (:func:`wmt_campaign_texts`, :func:`corpus_of_wmt_texts`), or a corpus
already imported (:func:`stored_campaign_texts`).

A file's line is the corpus's sentence of that position; its systems are the corpus's.
A reference that the file judges as a system (WMT ranks ``refA`` among the systems) is a
system of its own too in a new corpus, with the reference's texts (``twins``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from annotation.corpora.appraise_csv import iso_639_3
from annotation.corpora.evaltrans import CorpusHeader, EvalElement, SentenceElement
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import import_elements, upload_limits
from annotation.corpora.wmt_texts import (
    DOMAIN_ATTR,
    WmtTexts,
    normalised_offset,
    read_wmt_texts,
    targets_of,
)
from annotation.models import Corpus, Target, Translator
from metrics.textfiles import SegmentFileError

ERR_PAIR = "--pair {pair!r} is not SRC-TGT"


@dataclass
class CampaignTexts:
    """What rows are checked against: per line its document and every translator's text
    as the other tool showed it (a WMT file's line; a stored corpus's text)."""

    lines: int
    documents: list[str | None]
    systems: dict[str, list[str]]
    #: WMT's reference name (or the corpus's translator name) → its lines.
    references: dict[str, list[str]]
    first_reference: str
    #: The pair's languages in ISO 639-3, where known.
    languages: tuple[str, str] | None
    #: Whether the texts are stored whitespace-normalised (WMT's files: :meth:`stored`).
    normalise: bool = False
    #: WMT's reference name → the corpus's translator (a stored corpus's: itself).
    reference_names: dict[str, str] = field(default_factory=dict)
    #: References judged as systems: systems of their own (a new corpus).
    twins: set[str] = field(default_factory=set)
    #: The WMT files read (None: a stored corpus).
    wmt: WmtTexts | None = None

    def stored(self, text: str, offset: int) -> int:
        """The offset in the stored text of ``text``'s character ``offset``."""
        return normalised_offset(text, offset) if self.normalise else offset


def pair_languages(pair: str) -> tuple[str, str]:
    """``SRC-TGT`` as two codes, or a ``ValueError``."""
    src, dash, tgt = pair.partition("-")
    if not dash or not src or not tgt or "-" in tgt:
        raise ValueError(ERR_PAIR.format(pair=pair))
    return src, tgt


def wmt_campaign_texts(root: Path, pair: str, judged: Collection[str]) -> CampaignTexts:
    """The WMT texts of ``pair`` under ``root`` (:mod:`~annotation.corpora.wmt_texts`),
    the references among ``judged`` (the systems a file judges) made systems too; an
    :class:`~annotation.corpora.import_state.ImportRefused` naming the file and line."""
    try:
        src, tgt = pair_languages(pair)
        languages = (iso_639_3(src), iso_639_3(tgt))
        wmt = read_wmt_texts(root, pair, upload_limits())
    except SegmentFileError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None
    except ValueError as exc:
        raise ImportRefused(str(root), None, str(exc)) from None
    found = CampaignTexts(
        lines=len(wmt.sources),
        documents=[doc for _, doc in wmt.documents],
        systems=dict(wmt.systems),
        references=dict(wmt.references),
        first_reference=next(iter(wmt.references)),
        languages=languages,
        normalise=True,
        reference_names={r: wmt.reference_translator(r) for r in wmt.references},
        wmt=wmt,
    )
    found.twins = {s for s in judged if s in found.references and s not in found.systems}
    for twin in sorted(found.twins):
        found.systems[twin] = found.references[twin]
    return found


def stored_campaign_texts(corpus: Corpus, pair: str | None) -> CampaignTexts:
    """The texts of a stored corpus, read in two queries; its languages ``pair``'s, else
    its own (``srclang``, ``trglang``) where it names them."""
    sentences = list(corpus.sentences.order_by("position").values_list("position", "doc"))
    systems: dict[str, list[str]] = {}
    references: dict[str, list[str]] = {}
    first = ""
    rows = (
        Target.objects.filter(sentence__corpus=corpus, ordinal=0)
        .order_by("translator__position", "sentence__position")
        .values_list("translator__name", "translator__role", "text")
    )
    for translator, role, text in rows.iterator():
        into = systems if role == Translator.Role.SYSTEM else references
        into.setdefault(translator, []).append(text)
        if role == Translator.Role.FIRST_REFERENCE:
            first = translator
    attrs = dict(corpus.extra_attrs)
    src, tgt = pair_languages(pair) if pair else (attrs.get("srclang"), attrs.get("trglang"))
    try:
        languages = (iso_639_3(src), iso_639_3(tgt)) if src and tgt else None
    except ValueError as exc:
        raise ImportRefused(corpus.name, None, str(exc)) from None
    return CampaignTexts(
        lines=len(sentences),
        documents=[doc for _, doc in sentences],
        systems=systems,
        references=references,
        first_reference=first,
        languages=languages,
        reference_names={r: r for r in references},
    )


def corpus_of_wmt_texts(
    found: CampaignTexts, *, name: str, pair: str, filename: str, protocol: str
) -> Corpus:
    """The corpus of the WMT texts ``found`` holds (every import's writer: hidden until
    whole), the references judged as systems being systems of their own too."""
    if found.wmt is None:
        raise ValueError("the texts of a stored corpus make no new corpus")
    src, tgt = pair_languages(pair)
    header = CorpusHeader(name=name, extra_attrs=(("srclang", src), ("trglang", tgt)))
    sentences = _sentences(found.wmt, found.twins)
    return import_elements(header, sentences, name, filename, (), None, protocol=protocol).corpus


def _sentences(wmt: WmtTexts, twins: set[str]) -> Iterator[SentenceElement]:
    for k, source in enumerate(wmt.sources):
        texts = dict(targets_of(wmt, k))
        evals = [EvalElement(translator=t, target=text, line=k + 1) for t, text in texts.items()]
        evals += [  # a reference judged as a system: a system of its own, its texts
            EvalElement(translator=twin, target=texts[wmt.reference_translator(twin)], line=k + 1)
            for twin in sorted(twins)
        ]
        domain, doc = wmt.documents[k]
        yield SentenceElement(
            source=" ".join(source.split()),
            evals=tuple(evals),
            line=k + 1,
            position=k,
            doc=doc,
            extra_attrs=((DOMAIN_ATTR, domain),) if domain else (),
        )
