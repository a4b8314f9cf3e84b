"""Import a corpus: an evalTrans file, or plain one-segment-per-line files, all or nothing.

A service (keyword-only, typed: HackSoft styleguide) that writes across models; the XML
mapping itself is in :mod:`annotation.corpora.evaltrans` and never here. The file is
read as a stream and written in batches, so memory stays flat however large it is.

All or nothing to the user, short transactions to the database: the corpus is created
hidden (``Corpus.ready`` false: no page, command or figure sees it), each batch is
written in a transaction of its own, and only the last one, with the sizes and the
statistics, shows it. A refusal or an error anywhere removes what was written, batch by
batch again. A long import on SQLite (whose writers take turns) thus never holds the
write lock for more than one batch, and judges' clicks and logins go on meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.db import IntegrityError, transaction

from annotation.campaigns.api import campaign_chosen, queue_draw
from annotation.corpora import evaltrans
from annotation.corpora.evaltrans import (
    CorpusHeader,
    EvalElement,
    EvalTransError,
    SentenceElement,
    Timing,
    attrs_to_json,
    awer_text,
)
from annotation.corpora.evaltrans.imported_spans import ImportedElement
from annotation.corpora.evaluator_accounts import (
    ANONYMOUS_EVALUATOR,
    new_evaluator_account,
    remove_unused_accounts,
)
from annotation.corpora.marked_spans import (
    ERR_IMPORTED_ON_REFERENCE,
    content_problem,
    imported_problem,
    imported_store,
    spans_store,
)
from annotation.corpora.marked_spans import (
    ERR_JUDGED_UNDER_AWER as ERR_JUDGED_UNDER_AWER,  # the import's refusal, named here too
)
from annotation.corpora.removal import delete_corpus_rows
from annotation.corpora.spans import imported_severities
from annotation.corpora.summary import ImportSummary
from annotation.ier import read_items
from annotation.limits import NAME_MAX_LENGTH, WorkLimits, length_problem
from annotation.models import (
    Campaign,
    Corpus,
    Judgment,
    Protocol,
    Sentence,
    Target,
    Translator,
    User,
)
from annotation.queue_order import queue_positions
from annotation.resegmenting import entry_from_attrs, restore_segmentations
from annotation.rows import TARGET_COLUMNS, RowWriter, TargetRow
from annotation.statistics import scoring_job
from annotation.text import corpus_language, imported_new_ref_counts, readable_text, words

BATCH_SENTENCES = 500
#: Sentences written per transaction: a short hold of SQLite's write lock on a corpus of
#: 20 systems and 3 references (``bench/import.py`` prints the longest;
#: ``docs/performance.md``), well inside the busy timeout a judge's click waits for it.
SENTENCES_PER_TRANSACTION = 50
#: Sentences given their queue position per transaction (one column of each row).
QUEUE_ROWS_PER_TRANSACTION = 500
MAX_WARNINGS = 200
# A judgment still in progress is exported with this extra attribute (evalTrans keeps
# unknown attributes), so a re-import keeps it pending instead of counting it as done.
PENDING_ATTR = ("state", "pending")
ERR_CORPUS_EXISTS = "a corpus named {name!r} exists already (choose another {rename})"
ERR_CORPUS_IMPORTING = (
    "a corpus named {name!r} is being imported (or its import was interrupted: a lead "
    "can delete it under Unfinished imports on the home page, or with manage.py "
    "delete_corpus); choose another {rename}"
)
#: Where the two refusals above tell the user to give another name, in the words of the
#: place the import started from: the command line's option (the default), or the upload
#: form's field (a browser has no ``--name``).
RENAME_ON_COMMAND_LINE = "--name"
RENAME_IN_FORM = "name"
ERR_NO_SENTENCES = "the file holds no <sentence>"
ERR_UNKNOWN_PROTOCOL = "unknown protocol {protocol!r} (choose from {known})"
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


@dataclass
class _ImportState:
    """What the streaming import keeps between batches: the small things only."""

    corpus: Corpus
    filename: str
    #: Whether the file's evaluators become the corpus's judges (:func:`corpus_import`).
    assign: bool = False
    #: The protocol the file declares (``judgingProtocol``; None: none, aWER).
    file_protocol: str | None = None
    translators: dict[str, Translator] = field(default_factory=dict)
    evaluators: dict[str, User] = field(default_factory=dict)
    created_evaluators: list[User] = field(default_factory=list)
    sentences: int = 0
    #: Each stored sentence's (id, document), in file order: the queue's order is drawn
    #: from the documents once every sentence is in (:func:`_store_queue_order`).
    documents: list[tuple[int, str | None]] = field(default_factory=list)
    refs_min: int = 10**9
    refs_max: int = 0
    judgments: int = 0
    warnings: list[str] = field(default_factory=list)
    warnings_total: int = 0
    #: Per system, the segment records its targets carry (sentence position → entry):
    #: a system that carries one on every sentence was re-segmented (seed 002).
    segments: dict[str, dict[int, list[int]]] = field(default_factory=dict)
    target_writer: RowWriter = field(default_factory=lambda: RowWriter(Target, TARGET_COLUMNS))

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
    rename: str = RENAME_ON_COMMAND_LINE,
    assign: bool = False,
    score: bool = True,
    campaign: Campaign | None = None,
    protocol: str | None = None,
) -> ImportSummary:
    """Import an evalTrans file as a new corpus, all or nothing.

    The file is read as a stream and written in batches, so memory stays flat however
    large the file; the corpus stays hidden until it is whole, and a refusal anywhere
    (raised as :class:`ImportRefused` with file, line and reason) leaves nothing behind
    (see the module's doc). Judgments' ``awer`` is recomputed from target and new
    reference; a mismatch is a warning and the recomputed value wins. Evaluators become
    inactive accounts until a lead activates them, assigned to the corpus only if
    ``assign`` (a re-imported export must not give its judges a second queue each).
    ``progress`` gets the sentences stored: 0 once the name is taken, then after each transaction.
    ``rename`` names, in a refusal of a taken name, where to give another
    (:data:`RENAME_IN_FORM` for the upload page). ``score`` queues the corpus's scoring
    with it (:func:`import_elements`); without it, the first reader of its figures queues
    it (:func:`~annotation.statistics.statistics_or_job`), as for any corpus whose
    statistics are not stored. ``campaign``: the campaign it joins, else one of its own.
    ``protocol``: how its judges judge (:class:`~annotation.models.Protocol`); None: as
    the file says (``judgingProtocol``, :mod:`~annotation.corpora.evaltrans.protocol`),
    else aWER.
    """
    shown = filename or (Path(source).name if isinstance(source, (str, Path)) else "upload")
    try:
        return _import_stream(
            source,
            name,
            shown,
            reference_names,
            progress,
            rename,
            assign=assign,
            score=score,
            campaign=campaign,
            protocol=protocol,
        )
    except ImportRefused:
        raise
    except EvalTransError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None


def upload_limits() -> WorkLimits:
    """The work an upload may ask for, as the settings say (``EVALTOOL_MAX_SYSTEMS``,
    ``EVALTOOL_MAX_WORDS_PER_TEXT``): every import and added system asks it."""
    return WorkLimits(
        systems=settings.EVALTOOL_MAX_SYSTEMS, words_per_text=settings.EVALTOOL_MAX_WORDS_PER_TEXT
    )


def _import_stream(
    source: BinaryIO | Path | str,
    name: str | None,
    filename: str,
    reference_names: Collection[str],
    progress: Callable[[int], None] | None,
    rename: str,
    *,
    assign: bool,
    score: bool,
    campaign: Campaign | None,
    protocol: str | None,
) -> ImportSummary:
    items = evaltrans.iter_evaltrans(
        source, filename=filename, reference_names=reference_names, limits=upload_limits()
    )
    header = next(items)
    if not isinstance(header, CorpusHeader):  # iter_evaltrans yields the header first
        raise TypeError(f"expected the corpus header first, got {type(header).__name__}")
    sentences = (item for item in items if isinstance(item, SentenceElement))
    return import_elements(
        header,
        sentences,
        name or header.corpus_name(filename),
        filename,
        reference_names,
        progress,
        rename=rename,
        assign=assign,
        score=score,
        campaign=campaign,
        protocol=protocol,
    )


def protocol_problem(protocol: str) -> str | None:
    """Why ``protocol`` names no protocol a corpus may have (None: it names one)."""
    if protocol in Protocol.values:
        return None
    return ERR_UNKNOWN_PROTOCOL.format(protocol=protocol, known=", ".join(Protocol.values))


def import_elements(
    header: CorpusHeader,
    sentences: Iterator[SentenceElement],
    corpus_name: str,
    filename: str,
    reference_names: Collection[str],
    progress: Callable[[int], None] | None,
    *,
    rename: str = RENAME_ON_COMMAND_LINE,
    assign: bool = False,
    score: bool = True,
    campaign: Campaign | None = None,
    protocol: str | None = None,
) -> ImportSummary:
    """Store ``sentences`` as the new corpus ``corpus_name``: the one writer of every
    import (evalTrans or plain text), hidden until complete, removed on failure; the
    file's evaluators are assigned to it only if ``assign``, and its scoring is queued
    with it only if ``score``; it joins ``campaign``, else a campaign of its own, and is
    judged by ``protocol``, else as the header says (:func:`corpus_import`)."""
    protocol = protocol or header.protocol or Protocol.AWER
    problem = length_problem("the corpus name", corpus_name, NAME_MAX_LENGTH)
    if problem is None:
        problem = protocol_problem(protocol)
    if problem is not None:
        raise ImportRefused(filename, None, problem)
    corpus = _hidden_corpus(header, corpus_name, filename, rename, progress, campaign, protocol)
    state = _ImportState(
        corpus=corpus, filename=filename, assign=assign, file_protocol=header.protocol
    )
    try:
        while batch := list(islice(sentences, SENTENCES_PER_TRANSACTION)):
            new_refs = _counted_new_refs(state, batch)  # before the write lock is taken
            with transaction.atomic():
                _import_batch(state, batch, reference_names, new_refs)
            if progress is not None:
                progress(state.sentences)
        if state.sentences == 0:
            raise ImportRefused(filename, None, ERR_NO_SENTENCES)
        _store_queue_order(state)
        with transaction.atomic():
            _store_sizes(state)
            restore_segmentations(state.translators, state.segments, state.sentences)
            state.corpus.ready = True
            state.corpus.save(update_fields=["ready"])
            if score:
                scoring_job(state.corpus)  # a worker scores it; queued with the corpus itself
    except BaseException:
        _remove_unfinished(state)
        raise
    if state.corpus.campaign.splits_work:  # nothing of it is dealt until it is drawn
        queue_draw(state.corpus.campaign)
    return ImportSummary(
        corpus=state.corpus,
        sentences=state.sentences,
        references_min=state.refs_min,
        references_max=state.refs_max,
        systems=state.corpus.n_systems,
        judgments=state.judgments,
        warnings=tuple(state.warnings),
        warnings_total=state.warnings_total,
        evaluators=tuple(sorted(state.evaluators)),
        assigned=state.assign,
    )


def _hidden_corpus(
    header: CorpusHeader,
    name: str,
    filename: str,
    rename: str,
    progress: Callable[[int], None] | None,
    campaign: Campaign | None = None,
    protocol: str = Protocol.AWER,
) -> Corpus:
    """The new corpus row, hidden until its import is complete; the name is taken from
    now on (the database's unique constraint settles two imports of one name at once).

    ``progress(0)`` runs in the transaction that takes the name, so a caller that records
    the corpus there (an import job, for the retry after a killed worker) records it
    with the name or not at all: no hidden corpus is left that nothing names."""
    existing = Corpus.all_objects.filter(name=name).values_list("ready", flat=True).first()
    if existing is not None:
        message = ERR_CORPUS_EXISTS if existing else ERR_CORPUS_IMPORTING
        raise ImportRefused(filename, None, message.format(name=name, rename=rename))
    with transaction.atomic():
        try:
            with transaction.atomic():
                joins: dict[str, object] = {} if campaign is None else {"campaign": campaign}
                if header.taxonomy is not None:  # else WMT's, the field's default
                    joins["mqm_taxonomy"] = header.taxonomy.as_json()
                corpus = Corpus.all_objects.create(
                    name=name,
                    **joins,
                    ready=False,
                    protocol=protocol,
                    extra_attrs=attrs_to_json(header.extra_attrs),
                    extra_xml=list(header.extra_xml),
                )
        except IntegrityError:
            refusal = ERR_CORPUS_IMPORTING.format(name=name, rename=rename)
            raise ImportRefused(filename, None, refusal) from None
        if campaign is not None:
            campaign_chosen(campaign)  # the lead's now, whatever corpus it was made for
        if progress is not None:
            progress(0)
    return corpus


def _remove_unfinished(state: _ImportState) -> None:
    """Delete what a failed import wrote, in short transactions as it was written
    (:func:`~annotation.corpora.removal.delete_corpus_rows`), and the evaluator accounts
    the import created that judge nothing else."""
    delete_corpus_rows(state.corpus)
    remove_unused_accounts(state.created_evaluators)


def _store_sizes(state: _ImportState) -> None:
    """The corpus's sizes, stored once its texts are all in (they never change)."""
    corpus = state.corpus
    corpus.n_sentences = state.sentences
    corpus.n_systems = sum(t.role == Translator.Role.SYSTEM for t in state.translators.values())
    corpus.n_candidates = Target.objects.filter(
        sentence__corpus=corpus, translator__role=Translator.Role.SYSTEM
    ).count()
    corpus.save(update_fields=["n_sentences", "n_systems", "n_candidates"])


def _store_queue_order(state: _ImportState) -> None:
    """Every sentence's place in the judges' queue (:func:`~annotation.judging.order.
    queue_positions`, seeded with the corpus's name), written as the sentences were: a
    short transaction per batch, while the corpus is still hidden."""
    places = queue_positions([doc for _, doc in state.documents], seed=state.corpus.name)
    rows = [
        Sentence(pk=pk, queue_position=place)
        for (pk, _), place in zip(state.documents, places, strict=True)
    ]
    for start in range(0, len(rows), QUEUE_ROWS_PER_TRANSACTION):
        with transaction.atomic():
            Sentence.objects.bulk_update(
                rows[start : start + QUEUE_ROWS_PER_TRANSACTION], ["queue_position"]
            )


@dataclass
class _BatchRows:
    """The rows one batch adds besides its sentences, created in one bulk insert each."""

    targets: list[TargetRow] = field(default_factory=list)
    judged: list[tuple[int, EvalElement]] = field(default_factory=list)  # (target index, <eval>)
    imported: list[tuple[int, ImportedElement]] = field(default_factory=list)  # a span file's


def _import_batch(
    state: _ImportState,
    batch: list[SentenceElement],
    reference_names: Collection[str],
    new_refs: list[tuple[str, dict[str, int]] | None],
) -> None:
    """Store one batch: sentences, new translators and evaluators, targets, judgments
    (``new_refs``: :func:`_counted_new_refs` of the batch)."""
    sentences = Sentence.objects.bulk_create([_sentence_row(state.corpus, s) for s in batch])
    state.documents += [(s.pk, s.doc) for s in sentences]
    _ensure_translators(state, batch, reference_names)
    _ensure_evaluators(state, batch)
    rows = _BatchRows()
    for sentence, element in zip(sentences, batch, strict=True):
        n_refs = _add_sentence_targets(state, rows, sentence, element)
        state.refs_min = min(state.refs_min, n_refs)
        state.refs_max = max(state.refs_max, n_refs)
    for _, ev in rows.judged:
        problem = content_problem(ev, state.corpus.protocol, state.file_protocol)
        if problem is not None:
            raise ImportRefused(state.filename, ev.line, problem)
    for _, imported in rows.imported[:1]:
        problem = imported_problem(state.corpus.protocol)
        if problem is not None:
            raise ImportRefused(state.filename, imported.line, problem)
    state.target_writer.insert(target.values() for target in rows.targets)
    ids = _judged_target_ids(rows, sentences)
    imported_store([(ids[i], imported) for i, imported in rows.imported])
    judgments = Judgment.objects.bulk_create(
        [
            _judgment_from(state, rows.targets[i], ids[i], ev, counted)
            for (i, ev), counted in zip(rows.judged, new_refs, strict=True)
        ]
    )
    _keep_times(judgments, [ev for _, ev in rows.judged])
    spans_store(judgments, [ev for _, ev in rows.judged])
    state.judgments += len(rows.judged)
    state.sentences += len(batch)


def _judged_target_ids(rows: _BatchRows, sentences: list[Sentence]) -> dict[int, int]:
    """The database ids of the batch's judged targets (index in ``rows.targets`` → id),
    read back by sentence and position (a target's place in its sentence is its own);
    none asked when nothing is judged."""
    if not rows.judged and not rows.imported:
        return {}
    found = {
        (sentence_id, position): pk
        for pk, sentence_id, position in Target.objects.filter(
            sentence__in=[s.pk for s in sentences]
        ).values_list("pk", "sentence_id", "position")
    }
    targets = rows.targets
    wanted = {i for i, _ in rows.judged} | {i for i, _ in rows.imported}
    return {i: found[targets[i].sentence_id, targets[i].position] for i in wanted}


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
            if ev.imported is not None:
                reason = ERR_IMPORTED_ON_REFERENCE.format(translator=ev.translator)
                raise ImportRefused(state.filename, ev.imported.line, reason)
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
            if ev.imported is not None:
                rows.imported.append((system_target[ev.translator], ev.imported))
            continue
        else:
            ordinal = 0
            system_target[ev.translator] = len(rows.targets)
        rows.targets.append(_target_row(sentence, translator, ordinal, position, ev))
        if ev.imported is not None:
            rows.imported.append((len(rows.targets) - 1, ev.imported))
        if ev.judged:
            rows.judged.append((len(rows.targets) - 1, ev))
    for name, index in system_target.items():
        entry = entry_from_attrs(rows.targets[index].extra_attrs)
        if entry is not None:
            state.segments.setdefault(name, {})[element.position] = entry
    return n_refs


def _keep_on_target(target: TargetRow, ev: EvalElement) -> None:
    """The unknown attributes and elements of a bare ``<eval>`` that is not the system's
    first in the sentence go on the target too, so the export writes them back."""
    target.extra_attrs = [*target.extra_attrs, *attrs_to_json(ev.extra_attrs)]
    target.extra_xml = [*target.extra_xml, *ev.extra_xml]


def _target_row(
    sentence: Sentence, translator: Translator, ordinal: int, position: int, ev: EvalElement
) -> TargetRow:
    """A target; a bare ``<eval>``'s unknown attributes and elements stay on it, a judged
    one's belong to its judgment (they are written back with it)."""
    bare = not ev.judged
    return TargetRow(
        sentence_id=sentence.pk,
        translator_id=translator.pk,
        ordinal=ordinal,
        position=position,
        text=ev.target,
        extra_attrs=attrs_to_json(ev.extra_attrs) if bare else [],
        extra_xml=list(ev.extra_xml) if bare else [],
    )


def _counted_new_refs(
    state: _ImportState, batch: list[SentenceElement]
) -> list[tuple[str, dict[str, int]] | None]:
    """Per judged ``<eval>`` of the batch, in file order (the order of its judgments), its
    new reference as stored and the counts stored with it (None: it has none), all
    counted together (:func:`~annotation.text.imported_new_ref_counts`). Computed before
    the batch's transaction: on SQLite, no judge's click waits for the searches. A
    judgment's target is its ``<eval>``'s text (a system's ``<eval>`` all give the same,
    :func:`~annotation.corpora.evaltrans.sentence_problem`)."""
    language = corpus_language(state.corpus)
    judged = [ev for element in batch for ev in element.evals if ev.judged]
    texts = [
        None if ev.new_ref is None else readable_text(ev.new_ref, language, cache=False)
        for ev in judged
    ]
    pairs = [(ev.target, t) for ev, t in zip(judged, texts, strict=True) if t is not None]
    counts = iter(imported_new_ref_counts(pairs))
    return [None if text is None else (text, next(counts)) for text in texts]


def _judgment_from(
    state: _ImportState,
    target: TargetRow,
    target_id: int,
    ev: EvalElement,
    counted: tuple[str, dict[str, int]] | None,
) -> Judgment:
    """A judgment whose aWER counts are recomputed from target and new reference (13a
    words, seed 001 §2.3; ``counted``: the new reference as stored and its counts), so
    figures never rest on a fraction a file merely claims; a mismatch, or a fraction
    without a new reference to check it by, is a warning."""
    edits: int | None = None
    length: int | None = None
    counts: dict[str, int] = {}
    new_ref = ""
    if counted is not None:
        new_ref, counts = counted
        edits, length = counts["edits"], counts["ref_length"]
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
    ier, problem = read_items(ev.ier, words(target.text, cache=False))
    if problem is not None:
        raise ImportRefused(state.filename, ev.line, problem)
    pending = PENDING_ATTR in ev.extra_attrs
    # An ESA or MQM judgment is done unless marked pending: a file that declares the
    # protocol writes the mark (a judgment without spans, or an MQM one, has no score).
    marked = state.corpus.marks_spans
    done = not pending and (marked or ev.sser is not None or edits is not None)
    timing = ev.timing or Timing()
    return Judgment(
        target_id=target_id,
        evaluator=state.evaluators[ev.evaluator or ANONYMOUS_EVALUATOR],
        sser=ev.sser,
        esa_score=ev.esa_score,
        new_ref=new_ref,
        edits=edits,
        ref_length=length,
        ter_edits=counts.get("ter_edits"),
        ter_length=counts.get("ter_length"),
        state=Judgment.State.DONE if done else Judgment.State.PENDING,
        extra_attrs=attrs_to_json(a for a in ev.extra_attrs if a != PENDING_ATTR),
        extra_xml=list(ev.extra_xml),
        note=ev.note or "",
        flag=ev.flag or "",
        severities=imported_severities(target.text, new_ref, ev, state.warn) if done else {},
        active_seconds=timing.active_seconds,
        ier_seconds=timing.ier_seconds,
        ier_clicks=timing.ier_clicks,
        **ier,
    )


def _keep_times(judgments: list[Judgment], evals: list[EvalElement]) -> None:
    """Give the judgments the first and last times their ``<eval>`` carry
    (``firstSeen``, ``lastChanged``): the insert stamps every row with the time of the
    import (the columns are ``auto_now``), so the file's times are written over it, in one
    more query, for the batches that have any."""
    timed = []
    for judgment, ev in zip(judgments, evals, strict=True):
        if ev.timing is None or (ev.timing.first_seen is None and ev.timing.last_changed is None):
            continue
        judgment.created_at = ev.timing.first_seen or judgment.created_at
        judgment.updated_at = ev.timing.last_changed or judgment.updated_at
        timed.append(judgment)
    if timed:
        Judgment.objects.bulk_update(timed, ["created_at", "updated_at"])


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
    """Evaluators named in the file become inactive judges (activated later by a lead),
    assigned to the corpus if the import was asked to (``state.assign``).

    A judgment without an ``evaluator`` attribute is attributed to the inactive account
    :data:`~annotation.corpora.evaluator_accounts.ANONYMOUS_EVALUATOR`.
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
        user = new_evaluator_account(username)
        state.evaluators[username] = user
        state.created_evaluators.append(user)
    if state.assign:
        state.corpus.judges.add(*(state.evaluators[u] for u in wanted))
