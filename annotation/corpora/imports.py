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
from itertools import islice
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.db import IntegrityError, connection, transaction

from annotation.campaigns.api import campaign_chosen, queue_draw
from annotation.corpora import evaltrans
from annotation.corpora.evaltrans import (
    CorpusHeader,
    EvalTransError,
    SentenceElement,
    attrs_to_json,
)
from annotation.corpora.evaluator_accounts import remove_unused_accounts
from annotation.corpora.import_batches import counted_new_refs, import_batch
from annotation.corpora.import_state import ImportRefused, ImportState
from annotation.corpora.marked_spans import (
    ERR_JUDGED_UNDER_AWER as ERR_JUDGED_UNDER_AWER,  # the import's refusal, named here too
)
from annotation.corpora.removal import delete_corpus_rows
from annotation.corpora.summary import ImportSummary
from annotation.limits import NAME_MAX_LENGTH, WorkLimits, length_problem
from annotation.models import Campaign, Corpus, Protocol, Sentence, Target, Translator
from annotation.queue_order import queue_positions
from annotation.resegmenting import restore_segmentations
from annotation.statistics import scoring_job

BATCH_SENTENCES = 500
#: Sentences written per transaction: a short hold of SQLite's write lock on a corpus of
#: 20 systems and 3 references (``bench/import.py`` prints the longest;
#: ``docs/performance.md``), well inside the busy timeout a judge's click waits for it.
SENTENCES_PER_TRANSACTION = 50
#: Sentences given their queue position per transaction (one column of each row).
QUEUE_ROWS_PER_TRANSACTION = 500
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
    state = ImportState(
        corpus=corpus, filename=filename, assign=assign, file_protocol=header.protocol
    )
    try:
        while batch := list(islice(sentences, SENTENCES_PER_TRANSACTION)):
            new_refs = counted_new_refs(state, batch)  # before the write lock is taken
            with transaction.atomic():
                import_batch(state, batch, reference_names, new_refs)
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


def _remove_unfinished(state: ImportState) -> None:
    """Delete what a failed import wrote, in short transactions as it was written
    (:func:`~annotation.corpora.removal.delete_corpus_rows`), and the evaluator accounts
    the import created that judge nothing else."""
    delete_corpus_rows(state.corpus)
    remove_unused_accounts(state.created_evaluators)


def _store_sizes(state: ImportState) -> None:
    """The corpus's sizes, stored once its texts are all in (a change of its texts later
    counts them again: :func:`annotation.changes.corpus_texts_changed`)."""
    corpus = state.corpus
    corpus.n_sentences = state.sentences
    corpus.n_systems = sum(t.role == Translator.Role.SYSTEM for t in state.translators.values())
    corpus.n_candidates = Target.objects.filter(
        sentence__corpus=corpus, translator__role=Translator.Role.SYSTEM
    ).count()
    corpus.save(update_fields=["n_sentences", "n_systems", "n_candidates"])


def _store_queue_order(state: ImportState) -> None:
    """Every sentence's place in the judges' queue (:func:`~annotation.judging.order.
    queue_positions`, seeded with the corpus's name), written as the sentences were: a
    short transaction per batch, while the corpus is still hidden. One prepared
    statement a batch: ``bulk_update`` builds a ``CASE`` of a ``WHEN`` per row, more
    Python than the rest of a small corpus's import."""
    places = queue_positions([doc for _, doc in state.documents], seed=state.corpus.name)
    table = connection.ops.quote_name(Sentence._meta.db_table)
    sql = f"UPDATE {table} SET queue_position = %s WHERE id = %s"  # noqa: S608
    rows = [(int(p), pk) for (pk, _), p in zip(state.documents, places, strict=True)]
    for start in range(0, len(rows), QUEUE_ROWS_PER_TRANSACTION):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(sql, rows[start : start + QUEUE_ROWS_PER_TRANSACTION])
