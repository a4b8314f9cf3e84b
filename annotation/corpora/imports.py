"""Import a corpus: an evalTrans file, or plain one-segment-per-line files, all or nothing.

A service (keyword-only, typed: HackSoft styleguide) that writes across models; the XML
mapping itself is in :mod:`annotation.corpora.evaltrans` and never here. The file is
read as a stream and written in batches, so memory stays flat however large it is; the
whole import is one transaction, so a refusal anywhere leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import BinaryIO

from django.db import transaction

from annotation.corpora import evaltrans
from annotation.corpora.evaltrans import (
    FIRST_REFERENCE,
    REFERENCE_SUFFIX,
    CorpusHeader,
    EvalElement,
    EvalTransError,
    SentenceElement,
    attrs_to_json,
    awer_text,
    normalize_space,
)
from annotation.limits import NAME_MAX_LENGTH, length_problem, non_xml_char_problem
from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User
from annotation.scoring import statistics_store
from annotation.text import awer_counts, normalize_new_ref
from metrics.textfiles import SegmentFileError, read_parallel

BATCH_SENTENCES = 500
MAX_WARNINGS = 200
ANONYMOUS_EVALUATOR = "anonymous"
# A judgment still in progress is exported with this extra attribute (evalTrans keeps
# unknown attributes), so a re-import keeps it pending instead of counting it as done.
PENDING_ATTR = ("state", "pending")
# Plain-text imports name their references so that evalTrans classifies them as such
# (a name ending in "reference"), in the order of the --ref files.
REFERENCE_NAMES_FOR_TEXT = (
    FIRST_REFERENCE,
    *(
        f"{n} {REFERENCE_SUFFIX}"
        for n in (
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
        )
    ),
)

ERR_CORPUS_EXISTS = "a corpus named {name!r} exists already (choose another --name)"
ERR_NO_SENTENCES = "the file holds no <sentence>"
ERR_JUDGMENT_ON_REFERENCE = "<eval> of reference {translator!r} carries a judgment"
WARN_AWER_RECOMPUTED = (
    "awer {given} of {translator!r} recomputed from its new reference as {actual}"
)
WARN_AWER_WITHOUT_NEW_REF = "awer {given} of {translator!r} has no <newRef>; kept as given"

ROLE_OF = {
    evaltrans.Role.FIRST_REFERENCE: Translator.Role.FIRST_REFERENCE,
    evaltrans.Role.REFERENCE: Translator.Role.REFERENCE,
    evaltrans.Role.SYSTEM: Translator.Role.SYSTEM,
}


class ImportRefused(EvalTransError):
    """The file was refused; nothing of it is left in the database."""


@dataclass(frozen=True)
class ImportSummary:
    """What an import stored, in the words the command line and the upload page print."""

    corpus: Corpus
    sentences: int
    references_min: int
    references_max: int
    systems: int
    judgments: int
    warnings: tuple[str, ...]
    warnings_total: int

    def lines(self) -> list[str]:
        refs = (
            str(self.references_min)
            if self.references_min == self.references_max
            else f"{self.references_min}–{self.references_max}"
        )
        out = [
            f"Imported corpus {self.corpus.name!r}: {_count(self.sentences, 'sentence')}, "
            f"{refs} reference{'s' if self.references_max > 1 else ''} per sentence, "
            f"{_count(self.systems, 'system')}, "
            f"{_count(self.judgments, 'judgment')}.",
        ]
        if self.warnings_total:
            out.append(f"{self.warnings_total} warning(s):")
            out.extend(f"  {w}" for w in self.warnings)
            if self.warnings_total > len(self.warnings):
                out.append(f"  … and {self.warnings_total - len(self.warnings)} more")
        return out


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass
class _ImportState:
    """What the streaming import keeps between batches: the small things only."""

    corpus: Corpus
    filename: str
    translators: dict[str, Translator] = field(default_factory=dict)
    evaluators: dict[str, User] = field(default_factory=dict)
    sentences: int = 0
    refs_min: int = 10**9
    refs_max: int = 0
    judgments: int = 0
    warnings: list[str] = field(default_factory=list)
    warnings_total: int = 0

    def warn(self, line: int, message: str) -> None:
        self.warnings_total += 1
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(f"{self.filename} line {line}: {message}")


def corpus_import(
    *,
    source: BinaryIO | Path | str,
    name: str | None = None,
    filename: str | None = None,
    reference_names: Collection[str] = (),
    progress: Callable[[int], None] | None = None,
) -> ImportSummary:
    """Import an evalTrans file as a new corpus, all or nothing.

    The file is read as a stream and written in batches, so memory stays flat however
    large the file; the whole import is one transaction, so a refusal anywhere (raised as
    :class:`ImportRefused` with file, line and reason) leaves nothing behind. Judgments'
    ``awer`` is recomputed from target and new reference; a mismatch is a warning and the
    recomputed value wins. Evaluators become inactive accounts until a lead activates them.
    """
    shown_name = filename or (Path(source).name if isinstance(source, (str, Path)) else "upload")
    try:
        with transaction.atomic():
            return _import_stream(source, name, shown_name, reference_names, progress)
    except ImportRefused:
        raise
    except EvalTransError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None


def _import_stream(
    source: BinaryIO | Path | str,
    name: str | None,
    filename: str,
    reference_names: Collection[str],
    progress: Callable[[int], None] | None,
) -> ImportSummary:
    items = evaltrans.iter_evaltrans(source, filename=filename, reference_names=reference_names)
    header = next(items)
    if not isinstance(header, CorpusHeader):  # iter_evaltrans yields the header first
        raise TypeError(f"expected the corpus header first, got {type(header).__name__}")
    sentences = (item for item in items if isinstance(item, SentenceElement))
    return _import_elements(
        header,
        sentences,
        name or header.name or Path(filename).stem,
        filename,
        reference_names,
        progress,
    )


def _import_elements(
    header: CorpusHeader,
    sentences: Iterator[SentenceElement],
    corpus_name: str,
    filename: str,
    reference_names: Collection[str],
    progress: Callable[[int], None] | None,
) -> ImportSummary:
    problem = length_problem("the corpus name", corpus_name, NAME_MAX_LENGTH)
    if problem is not None:
        raise ImportRefused(filename, None, problem)
    if Corpus.objects.filter(name=corpus_name).exists():
        raise ImportRefused(filename, None, ERR_CORPUS_EXISTS.format(name=corpus_name))
    corpus = Corpus.objects.create(
        name=corpus_name,
        extra_attrs=attrs_to_json(header.extra_attrs),
        extra_xml=list(header.extra_xml),
    )
    state = _ImportState(corpus=corpus, filename=filename)
    while batch := list(islice(sentences, BATCH_SENTENCES)):
        _import_batch(state, batch, reference_names)
        if progress is not None:
            progress(state.sentences)
    if state.sentences == 0:
        raise ImportRefused(filename, None, ERR_NO_SENTENCES)
    _store_sizes(state)
    statistics_store(corpus)  # the first dashboard view then only reads them
    return ImportSummary(
        corpus=corpus,
        sentences=state.sentences,
        references_min=state.refs_min,
        references_max=state.refs_max,
        systems=corpus.n_systems,
        judgments=state.judgments,
        warnings=tuple(state.warnings),
        warnings_total=state.warnings_total,
    )


def _store_sizes(state: _ImportState) -> None:
    """The corpus's sizes, stored once its texts are all in (they never change)."""
    corpus = state.corpus
    corpus.n_sentences = state.sentences
    corpus.n_systems = sum(t.role == Translator.Role.SYSTEM for t in state.translators.values())
    corpus.n_candidates = Target.objects.filter(
        sentence__corpus=corpus, translator__role=Translator.Role.SYSTEM
    ).count()
    corpus.save(update_fields=["n_sentences", "n_systems", "n_candidates"])


def corpus_import_text(
    *,
    name: str,
    source: Path,
    refs: Sequence[Path],
    hyps: Sequence[tuple[str, Path]],
) -> ImportSummary:
    """Import plain one-segment-per-line files (sacreBLEU style) as a corpus.

    The first reference file becomes the ``first reference``, the others ``second
    reference``, ``third reference``…; each ``SYSTEM=FILE`` becomes a system. Files must be
    parallel UTF-8.
    """
    if not refs:
        raise ImportRefused(str(source), None, "at least one --ref file is needed")
    if len(refs) > len(REFERENCE_NAMES_FOR_TEXT):
        raise ImportRefused(
            str(refs[-1]), None, f"at most {len(REFERENCE_NAMES_FOR_TEXT)} --ref files"
        )
    system_names = [system for system, _ in hyps]
    for system in system_names:
        if not system or evaltrans.translator_role(system) != evaltrans.Role.SYSTEM:
            raise ImportRefused(
                str(source), None, f"system name {system!r} is empty or ends in 'reference'"
            )
    if len(set(system_names)) != len(system_names):
        raise ImportRefused(str(source), None, "each --hyp needs its own SYSTEM name")
    for system in system_names:
        problem = length_problem(f"system name {system[:40]!r}…", system, NAME_MAX_LENGTH)
        if problem is not None:
            raise ImportRefused(str(source), None, problem)
    paths = [source, *refs, *(path for _, path in hyps)]
    try:
        columns = read_parallel(paths)
    except SegmentFileError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None
    _refuse_unwritable_lines(paths, columns)
    translators = [*REFERENCE_NAMES_FOR_TEXT[: len(refs)], *system_names]
    sentences = (
        SentenceElement(
            source=normalize_space(row[0]),
            evals=tuple(
                EvalElement(translator=t, target=normalize_space(text), line=k + 1)
                for t, text in zip(translators, row[1:], strict=True)
            ),
            line=k + 1,
            position=k,
        )
        for k, row in enumerate(zip(*columns, strict=True))
    )
    with transaction.atomic():
        return _import_elements(
            CorpusHeader(name=name, extra_attrs=()), sentences, name, str(source), (), None
        )


@dataclass
class _BatchRows:
    """The rows one batch adds besides its sentences, created in one bulk insert each."""

    targets: list[Target] = field(default_factory=list)
    judged: list[tuple[int, EvalElement]] = field(default_factory=list)  # (target index, <eval>)


def _refuse_unwritable_lines(paths: Sequence[Path], columns: Sequence[Sequence[str]]) -> None:
    """A plain-text line with a character XML cannot hold (a NUL, a control character,
    U+FFFE) is refused with its file and line: stored, it would break every export."""
    for path, lines in zip(paths, columns, strict=True):
        for k, line in enumerate(lines):
            problem = non_xml_char_problem(line)
            if problem is not None:
                raise ImportRefused(str(path), k + 1, problem)


def _import_batch(
    state: _ImportState, batch: list[SentenceElement], reference_names: Collection[str]
) -> None:
    """Store one batch: sentences, new translators and evaluators, targets, judgments."""
    sentences = Sentence.objects.bulk_create([_sentence_row(state.corpus, s) for s in batch])
    _ensure_translators(state, batch, reference_names)
    _ensure_evaluators(state, batch)
    rows = _BatchRows()
    for sentence, element in zip(sentences, batch, strict=True):
        n_refs = _add_sentence_targets(state, rows, sentence, element)
        state.refs_min = min(state.refs_min, n_refs)
        state.refs_max = max(state.refs_max, n_refs)
    Target.objects.bulk_create(rows.targets)
    Judgment.objects.bulk_create(
        [_judgment_from(state, rows.targets[i], ev) for i, ev in rows.judged]
    )
    state.judgments += len(rows.judged)
    state.sentences += len(batch)


def _sentence_row(corpus: Corpus, element: SentenceElement) -> Sentence:
    return Sentence(
        corpus=corpus,
        position=element.position,
        xml_id=element.id,
        doc=element.doc,
        source=element.source,
        extra_attrs=attrs_to_json(element.extra_attrs),
        extra_xml=list(element.extra_xml),
        after_xml=list(element.after_xml),
    )


def _add_sentence_targets(
    state: _ImportState, rows: _BatchRows, sentence: Sentence, element: SentenceElement
) -> int:
    """Add the sentence's targets and judgments to ``rows``; return its number of references.

    Every reference ``<eval>`` is a target of its own (a name may repeat: ``ordinal``
    numbers them); a system has one target, and its further ``<eval>`` are other
    evaluators' judgments of that same target.
    """
    system_target: dict[str, int] = {}  # system name → index of its target in rows.targets
    ordinals: dict[str, int] = {}
    n_refs = 0
    for position, ev in enumerate(element.evals):
        translator = state.translators[ev.translator]
        if translator.is_reference:
            if ev.judged:
                raise ImportRefused(
                    state.filename,
                    ev.line,
                    ERR_JUDGMENT_ON_REFERENCE.format(translator=ev.translator),
                )
            n_refs += 1
            ordinal = ordinals.get(ev.translator, 0)
            ordinals[ev.translator] = ordinal + 1
        elif ev.translator in system_target:
            if ev.judged:
                rows.judged.append((system_target[ev.translator], ev))
            else:  # a bare <eval> after the system's first: what it carries is the target's
                _keep_on_target(rows.targets[system_target[ev.translator]], ev)
            continue
        else:
            ordinal = 0
            system_target[ev.translator] = len(rows.targets)
        rows.targets.append(_target_row(sentence, translator, ordinal, position, ev))
        if ev.judged:
            rows.judged.append((len(rows.targets) - 1, ev))
    return n_refs


def _keep_on_target(target: Target, ev: EvalElement) -> None:
    """The unknown attributes and elements of a bare ``<eval>`` that is not the system's
    first in the sentence go on the target too, so the export writes them back."""
    target.extra_attrs = [*target.extra_attrs, *attrs_to_json(ev.extra_attrs)]
    target.extra_xml = [*target.extra_xml, *ev.extra_xml]


def _target_row(
    sentence: Sentence, translator: Translator, ordinal: int, position: int, ev: EvalElement
) -> Target:
    """A target; a bare ``<eval>``'s unknown attributes and elements stay on it, a judged
    one's belong to its judgment (they are written back with it)."""
    bare = not ev.judged
    return Target(
        sentence=sentence,
        translator=translator,
        ordinal=ordinal,
        position=position,
        text=ev.target,
        extra_attrs=attrs_to_json(ev.extra_attrs) if bare else [],
        extra_xml=list(ev.extra_xml) if bare else [],
    )


def _judgment_from(state: _ImportState, target: Target, ev: EvalElement) -> Judgment:
    """A judgment whose aWER counts are recomputed from target and new reference (13a
    words, seed 001 §2.3), so figures never rest on a fraction a file merely claims; a
    mismatch, or a fraction without a new reference to check it by, is a warning."""
    edits: int | None = None
    length: int | None = None
    new_ref = ""
    if ev.new_ref is not None:
        new_ref = normalize_new_ref(ev.new_ref, cache=False)
        edits, length = awer_counts(target.text, new_ref, cache=False)
        if ev.awer is not None and ev.awer != (edits, length):
            state.warn(
                ev.line,
                WARN_AWER_RECOMPUTED.format(
                    given=awer_text(*ev.awer),
                    translator=ev.translator,
                    actual=awer_text(edits, length),
                ),
            )
    elif ev.awer is not None:
        edits, length = ev.awer
        state.warn(
            ev.line,
            WARN_AWER_WITHOUT_NEW_REF.format(
                given=awer_text(edits, length), translator=ev.translator
            ),
        )
    pending = PENDING_ATTR in ev.extra_attrs
    done = not pending and (ev.sser is not None or edits is not None)
    return Judgment(
        target=target,
        evaluator=state.evaluators[ev.evaluator or ANONYMOUS_EVALUATOR],
        sser=ev.sser,
        new_ref=new_ref,
        edits=edits,
        ref_length=length,
        state=Judgment.State.DONE if done else Judgment.State.PENDING,
        extra_attrs=attrs_to_json(a for a in ev.extra_attrs if a != PENDING_ATTR),
        extra_xml=list(ev.extra_xml),
    )


def _ensure_translators(
    state: _ImportState, batch: list[SentenceElement], reference_names: Collection[str]
) -> None:
    for element in batch:
        for ev in element.evals:
            if ev.translator not in state.translators:
                role = evaltrans.translator_role(ev.translator, reference_names)
                state.translators[ev.translator] = Translator.objects.create(
                    corpus=state.corpus,
                    name=ev.translator,
                    role=ROLE_OF[role],
                    position=len(state.translators),
                )


def _ensure_evaluators(state: _ImportState, batch: list[SentenceElement]) -> None:
    """Evaluators named in the file become inactive judges (activated later by a lead).

    A judgment without an ``evaluator`` attribute is attributed to the inactive account
    ``anonymous``: the judgment is kept, and the export writes it back with that name.
    """
    wanted = {
        ev.evaluator or ANONYMOUS_EVALUATOR
        for element in batch
        for ev in element.evals
        if ev.judged
    } - state.evaluators.keys()
    if not wanted:
        return
    for user in User.objects.filter(username__in=wanted):
        state.evaluators[user.username] = user
    for username in sorted(wanted - state.evaluators.keys()):
        user = User(username=username, role=User.Role.JUDGE, is_active=False)
        user.set_unusable_password()
        user.save()
        state.evaluators[username] = user
    state.corpus.judges.add(*(state.evaluators[u] for u in wanted))
