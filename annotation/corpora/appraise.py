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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from django.db import transaction

from annotation.changes import judgments_changed
from annotation.corpora.appraise_csv import (
    BAD,
    REF,
    TGT,
    AppraiseRow,
    iso_639_3,
    read_appraise_rows,
    standing_rows,
)
from annotation.corpora.evaltrans import CorpusHeader, EvalElement, SentenceElement
from annotation.corpora.evaluator_accounts import new_evaluator_account, remove_unused_accounts
from annotation.corpora.imports import ImportRefused, import_elements, upload_limits
from annotation.corpora.removal import delete_corpus_rows
from annotation.corpora.wmt_texts import (
    DOMAIN_ATTR,
    WmtTexts,
    normalised_offset,
    read_wmt_texts,
    targets_of,
)
from annotation.formatting import counted
from annotation.models import Corpus, Judgment, Protocol, Span, Target, Translator, User
from metrics.textfiles import SegmentFileError

ERR_UNKNOWN_SYSTEM = "unknown system {system!r} (the texts have {known})"
ERR_PAST_TEXTS = "item id {item} is past the texts' last line ({lines} lines, from 0)"
ERR_WRONG_DOCUMENT = "document id {doc!r} is not line {item}'s ({actual!r})"
ERR_LANGUAGE = "{side} language {given!r} is not the pair's {expected!r}"
ERR_SPAN_PAST_END = "error span {k}: characters {start}–{end} run past the target's {size}"
ERR_SPAN_BLANKS = "error span {k}: characters {start}–{end} are blanks only"
ERR_REFERENCE_JUDGED = "system {system!r} is a reference of the corpus: it has no candidate"
ERR_JUDGED_ALREADY = "{user!r} has judged this item of the corpus already"
ERR_PAIR = "--pair {pair!r} is not SRC-TGT"


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


@dataclass
class _Texts:
    """What rows are checked against: per line its document and every translator's text
    as marked (``raw``: a WMT file's line; a stored corpus's text) and as stored."""

    lines: int
    documents: list[str | None]
    systems: dict[str, list[str]]
    #: WMT's reference name (or the corpus's translator name) → its lines.
    references: dict[str, list[str]]
    first_reference: str
    languages: tuple[str, str] | None
    normalise: bool = False
    #: WMT's reference name → the corpus's translator (a stored corpus's: itself).
    reference_names: dict[str, str] = field(default_factory=dict)
    #: References judged as systems in ``TGT`` rows: systems of their own (new corpus).
    twins: set[str] = field(default_factory=set)

    def stored(self, text: str, offset: int) -> int:
        return normalised_offset(text, offset) if self.normalise else offset


@dataclass(frozen=True)
class _Planned:
    """A row checked and resolved: which translator's target, shown as which system."""

    row: AppraiseRow
    translator: str
    shown_as: str | None
    spans: tuple[tuple[int, int, bool, str, str], ...]  # start, end, missing, severity, category


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
    an :class:`~annotation.corpora.imports.ImportRefused` names the line and reason."""
    try:
        rows = read_appraise_rows(data, filename)
    except SegmentFileError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None
    standing = standing_rows(rows)
    judged = [r for r in standing if not r.is_document]
    if corpus is None:
        if texts is None or pair is None or name is None:
            raise ValueError("a new corpus needs texts, pair and name")
        found, wmt = _wmt_texts(texts, pair, judged)
        plans = [_plan(found, row, filename) for row in judged]
        corpus = _new_corpus(found, wmt, name, pair, filename, plans)
        made = True
    else:
        found = _corpus_texts(corpus, pair)
        plans = [_plan(found, row, filename) for row in judged]
        _refuse_judged_again(corpus, plans, filename)
        made = False
    try:
        users = _store(corpus, plans)
    except BaseException:
        if made:
            delete_corpus_rows(corpus)
        raise
    return AppraiseSummary(
        corpus=corpus,
        judgments=sum(p.row.item_type == TGT for p in plans),
        controls=sum(p.row.item_type != TGT for p in plans),
        annotators=tuple(sorted(users)),
        not_judgments=sum(not r.is_judgment for r in rows),
        replaced=sum(r.is_judgment for r in rows) - len(standing),
        documents=len(standing) - len(judged),
    )


def pair_languages(pair: str) -> tuple[str, str]:
    """``SRC-TGT`` as two codes, or a ``ValueError``."""
    src, dash, tgt = pair.partition("-")
    if not dash or not src or not tgt or "-" in tgt:
        raise ValueError(ERR_PAIR.format(pair=pair))
    return src, tgt


def _wmt_texts(root: Path, pair: str, rows: Sequence[AppraiseRow]) -> tuple[_Texts, WmtTexts]:
    try:
        src, tgt = pair_languages(pair)
        languages = (iso_639_3(src), iso_639_3(tgt))
        wmt = read_wmt_texts(root, pair, upload_limits())
    except SegmentFileError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None
    except ValueError as exc:
        raise ImportRefused(str(root), None, str(exc)) from None
    found = _Texts(
        lines=len(wmt.sources),
        documents=[doc for _, doc in wmt.documents],
        systems=dict(wmt.systems),
        references=dict(wmt.references),
        first_reference=next(iter(wmt.references)),
        languages=languages,
        normalise=True,
        reference_names={r: wmt.reference_translator(r) for r in wmt.references},
    )
    found.twins = {
        r.system
        for r in rows
        if r.item_type == TGT and r.system in found.references and r.system not in found.systems
    }
    for twin in sorted(found.twins):
        found.systems[twin] = found.references[twin]
    return found, wmt


def _corpus_texts(corpus: Corpus, pair: str | None) -> _Texts:
    """The texts of a stored corpus, read in two queries."""
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
    named = (attrs.get("srclang", ""), attrs.get("trglang", ""))
    languages: tuple[str, str] | None = None
    try:
        if pair is not None:
            languages = tuple(iso_639_3(c) for c in pair_languages(pair))  # type: ignore[assignment]
        elif all(named):
            languages = (iso_639_3(named[0]), iso_639_3(named[1]))
    except ValueError as exc:
        raise ImportRefused(corpus.name, None, str(exc)) from None
    return _Texts(
        lines=len(sentences),
        documents=[doc for _, doc in sentences],
        systems=systems,
        references=references,
        first_reference=first,
        languages=languages,
        reference_names={r: r for r in references},
    )


def _plan(found: _Texts, row: AppraiseRow, filename: str) -> _Planned:
    """``row`` resolved against the texts, or its refusal (module doc)."""

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
            (s.start, s.end, s.start == s.end, s.severity, s.error_type or "") for s in row.spans
        )
        return _Planned(row, translator, None, spans)
    return _Planned(row, translator, shown_as, _stored_spans(found, row, text, refuse))


def _stored_spans(
    found: _Texts, row: AppraiseRow, text: str, refuse: Callable[[str], ImportRefused]
) -> tuple[tuple[int, int, bool, str, str], ...]:
    """The row's spans on the stored text: a span at or past the text's end is the
    ``[MISSING]`` marker Appraise shows after it; an empty span, a marker where it is."""
    size = len(text)
    stored_end = found.stored(text, size)
    out = []
    for k, s in enumerate(row.spans, start=1):
        category = s.error_type or ""
        if s.start >= size:
            out.append((stored_end, stored_end, True, s.severity, category))
            continue
        if s.end > size:
            reason = ERR_SPAN_PAST_END.format(k=k, start=s.start, end=s.end, size=size)
            raise refuse(reason)
        start, end = found.stored(text, s.start), found.stored(text, s.end)
        if s.start == s.end:
            out.append((start, start, True, s.severity, category))
            continue
        if start >= end or not text[s.start : s.end].strip():
            raise refuse(ERR_SPAN_BLANKS.format(k=k, start=s.start, end=s.end))
        out.append((start, end, False, s.severity, category))
    return tuple(out)


def _new_corpus(
    found: _Texts,
    wmt: WmtTexts,
    name: str,
    pair: str,
    filename: str,
    plans: Sequence[_Planned],
) -> Corpus:
    """The corpus of the WMT texts (every import's writer: hidden until whole), with
    the references judged as systems as systems of their own."""
    src, tgt = pair_languages(pair)
    mqm = any(category for p in plans for *_, category in p.spans)
    header = CorpusHeader(name=name, extra_attrs=(("srclang", src), ("trglang", tgt)))
    summary = import_elements(
        header,
        _sentences(wmt, found.twins),
        name,
        filename,
        (),
        None,
        protocol=Protocol.MQM if mqm else Protocol.ESA,
    )
    return summary.corpus


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


def _refuse_judged_again(corpus: Corpus, plans: Sequence[_Planned], filename: str) -> None:
    """A row whose annotator judged its item in the corpus already is refused (one
    judgment per candidate, judge and kind)."""
    users = {p.row.user for p in plans}
    done = set(
        Judgment.objects.of_corpus(corpus.pk)
        .filter(evaluator__username__in=users)
        .values_list(
            "evaluator__username",
            "target__translator__name",
            "target__sentence__position",
            "control",
        )
    )
    for p in plans:
        if (p.row.user, p.translator, p.row.item_id, _CONTROL[p.row.item_type]) in done:
            raise ImportRefused(filename, p.row.line, ERR_JUDGED_ALREADY.format(user=p.row.user))


_CONTROL = {
    TGT: Judgment.Control.NONE,
    REF: Judgment.Control.REFERENCE,
    BAD: Judgment.Control.DEGRADED,
}


def _store(corpus: Corpus, plans: Sequence[_Planned]) -> set[str]:
    """Write the judgments and their spans in one transaction; the annotators' names."""
    users = {p.row.user for p in plans}
    made: list[User] = []
    try:
        with transaction.atomic():
            accounts = {u.username: u for u in User.objects.filter(username__in=users)}
            for username in sorted(users - accounts.keys()):
                accounts[username] = new_evaluator_account(username)
                made.append(accounts[username])
            targets = {
                (name, position): pk
                for pk, name, position in Target.objects.filter(
                    sentence__corpus=corpus, ordinal=0
                ).values_list("pk", "translator__name", "sentence__position")
            }
            translators = dict(corpus.translators.values_list("name", "pk"))
            judgments = Judgment.objects.bulk_create(
                [_judgment(p, targets, translators, accounts) for p in plans]
            )
            for judgment, p in zip(judgments, plans, strict=True):
                judgment.created_at = _moment(p.row.start_time)
                judgment.updated_at = _moment(p.row.end_time)
            Judgment.objects.bulk_update(judgments, ["created_at", "updated_at"])
            Span.objects.bulk_create(
                Span(judgment=j, start=s, end=e, missing=m, severity=sev, category=cat)
                for j, p in zip(judgments, plans, strict=True)
                for s, e, m, sev, cat in p.spans
            )
            judgments_changed(corpus.pk)
    except BaseException:
        remove_unused_accounts(made)
        raise
    return users


def _judgment(
    p: _Planned,
    targets: dict[tuple[str, int], int],
    translators: dict[str, int],
    accounts: dict[str, User],
) -> Judgment:
    row = p.row
    return Judgment(
        target_id=targets[p.translator, row.item_id],
        evaluator=accounts[row.user],
        esa_score=row.score,
        state=Judgment.State.DONE,
        active_seconds=row.end_time - row.start_time,
        control=_CONTROL[row.item_type],
        shown_as_id=None if p.shown_as is None else translators[p.shown_as],
    )


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)
