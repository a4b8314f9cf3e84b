"""An evalTrans upload imported by the workers (:mod:`annotation.jobs`, jobs of kind
``import``): no web request waits the minute a real-size import takes.

The upload page says at once what it can tell at once (the form's values; the name the
corpus will take, read from the file's first sentence; a name already taken; the same
import already running), then queues the rest with the file's bytes. The job's page
(:mod:`annotation.corpora.upload_views`) shows its progress and, at its own URL, the
summary: a later refusal on the upload page never replaces it. A system's plain text
added to a corpus is queued alike (:mod:`annotation.corpora.system_jobs`).
"""

from __future__ import annotations

import hashlib
import io
import re
import uuid
from collections.abc import Collection
from typing import Any

from django.db.models import Exists, OuterRef, Q, Subquery

from annotation.corpora import evaltrans
from annotation.corpora.evaltrans import CorpusHeader, EvalTransError
from annotation.corpora.evaluator_accounts import remove_unused_import_accounts
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import (
    ERR_CORPUS_EXISTS,
    ERR_CORPUS_IMPORTING,
    RENAME_IN_FORM,
    corpus_import,
    upload_limits,
)
from annotation.corpora.removal import DELETING, delete_corpus_rows
from annotation.corpora.summary import ImportSummary
from annotation.formatting import counted
from annotation.jobs import Job, Progress, Refused, enqueue, handler
from annotation.jobs.pruning import kept_upload
from annotation.models import Campaign, Corpus, Protocol, User
from annotation.uploads import IMPORT

PHASE_READING = "reading sentences"
ERR_IMPORT_RUNNING = "an import of {name!r} is already running: job {job}, {progress}"
ERR_CAMPAIGN_GONE = "the campaign chosen for it was deleted before the import: upload it again"
ERR_FILE_RUNNING = "this file is already being imported as {name!r}: job {job}, {progress}"
#: The summary of an import whose worker stopped after the corpus was complete but before
#: the job was: the corpus's stored sizes are known, the file's warnings are not.
WARN_SUMMARY_LOST = (
    "Its worker stopped after the import was complete: the file's warnings, if any, were not kept."
)
#: A ``<sentence>`` start tag: the file's sentences, counted before it is read, are the
#: total its progress is told against (an estimate: a tag in a comment counts too).
SENTENCE_TAG = re.compile(rb"<sentence[\s/>]")


class AlreadyRunning(Exception):
    """The same upload is queued or running already: nothing was queued. ``job`` is the
    running one, for the page to link to."""

    def __init__(self, message: str, job: Job) -> None:
        super().__init__(message)
        self.job = job


def queue_import(
    *,
    data: bytes,
    filename: str,
    name: str,
    reference_names: Collection[str],
    assign: bool,
    lead: User,
    campaign: Campaign | None = None,
    protocol: str | None = None,
) -> Job:
    """Queue the import of evalTrans file ``data`` as a new corpus (``name``, else the
    file's own) in ``campaign`` (the lead's choice), else in a campaign of its own,
    judged by ``protocol`` (None: as the file says), and return its job, at once.

    Refused at once (:class:`ImportRefused`, nothing queued) when the file's first
    sentence already shows a problem or the name is taken; :class:`AlreadyRunning` when
    an import of the same name, or of the same file, is queued or running."""
    header = _first_header(data, filename, reference_names)
    planned = name or header.corpus_name(filename)
    digest = hashlib.sha256(data).hexdigest()
    _refuse_running_import(planned, digest)
    _refuse_taken_name(planned, filename)
    ticket = uuid.uuid4().hex
    job = enqueue(
        IMPORT,
        f"{IMPORT}:{planned}",
        label=f"import of {planned!r}",
        payload={
            "name": planned,
            "filename": filename,
            "references": list(reference_names),
            "assign": assign,
            "sha256": digest,
            "ticket": ticket,
            "campaign": None if campaign is None else campaign.pk,
            "protocol": protocol,
        },
        upload=data,
        requested_by=lead,
        after_failure=True,  # a new upload is new work, whatever the last one's fate
    )
    if job.payload.get("ticket") != ticket:  # another request queued it a moment ago
        raise AlreadyRunning(_running_words(job, ERR_IMPORT_RUNNING), job)
    return job


def _first_header(data: bytes, filename: str, reference_names: Collection[str]) -> CorpusHeader:
    """The file's header, read as the import reads it (up to its first sentence's end):
    its name is the corpus's if the form gives none, and a problem that early is told at
    once, as the worker would tell it (file, line, reason)."""
    items = evaltrans.iter_evaltrans(
        io.BytesIO(data), filename=filename, reference_names=reference_names, limits=upload_limits()
    )
    try:
        first = next(items, None)
    except EvalTransError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None
    finally:
        items.close()
    return first if isinstance(first, CorpusHeader) else CorpusHeader(name=None)


def _running_words(job: Job, message: str) -> str:
    return message.format(name=job.payload.get("name"), job=job.pk, progress=job.progress_text)


def _refuse_running_import(name: str, digest: str) -> None:
    running = (
        Job.objects.filter(kind=IMPORT, status__in=Job.LIVE)
        .filter(Q(key=f"{IMPORT}:{name}") | Q(payload__sha256=digest))
        .defer("upload", "result")
        .order_by("pk")
        .first()
    )
    if running is not None:
        same_name = running.key == f"{IMPORT}:{name}"
        message = ERR_IMPORT_RUNNING if same_name else ERR_FILE_RUNNING
        raise AlreadyRunning(_running_words(running, message), running)


def _refuse_taken_name(name: str, filename: str) -> None:
    """The import's own refusal of a taken name (:func:`annotation.corpora.imports.
    corpus_import` checks again when it takes the name: two uploads may race), told
    before the file is queued."""
    ready = Corpus.all_objects.filter(name=name).values_list("ready", flat=True).first()
    if ready is not None:
        message = ERR_CORPUS_EXISTS if ready else ERR_CORPUS_IMPORTING
        raise ImportRefused(filename, None, message.format(name=name, rename=RENAME_IN_FORM))


def estimated_sentences(data: bytes) -> int:
    """How many sentences the file holds, counted before it is read (see
    :data:`SENTENCE_TAG`): the total of its import's progress."""
    return sum(1 for _ in SENTENCE_TAG.finditer(data))


def unfinished_imports() -> list[Corpus]:
    """The hidden corpora, oldest first, each with the import job that names it (if one
    does: ``import_job_id``, ``import_job_status``), so the lead can follow the import
    or see why it stopped: one query.

    A corpus whose deletion is queued or running is hidden too until a worker has
    deleted its rows (:func:`~annotation.corpora.removal.corpus_delete`): it is no
    unfinished import, and is not listed (its Delete link would ask for a deletion
    already under way). Once that deletion failed, it is listed again, to be deleted."""
    naming = Job.objects.filter(kind=IMPORT, corpus=OuterRef("pk")).order_by("-pk")
    deleting = Job.objects.filter(kind=DELETING, corpus=OuterRef("pk"), status__in=Job.LIVE)
    return list(
        Corpus.all_objects.filter(ready=False)
        .exclude(Exists(deleting))
        .annotate(
            import_job_id=Subquery(naming.values("pk")[:1]),
            import_job_status=Subquery(naming.values("status")[:1]),
        )
        .order_by("created_at")
    )


def _clear_killed_attempts(job: Job) -> None:
    """After the last claim a killed worker cost (the job given up, failed): remove the
    hidden corpus and the accounts its attempts left, so the name is free again."""
    _clear_previous_attempt(job)


@handler(IMPORT, abandoned=_clear_killed_attempts)
def run_import(job: Job, progress: Progress) -> Any:
    """Import the job's file as :func:`corpus_import` does on the command line, telling
    the sentences stored so far; the uploading lead becomes a lead of the new corpus.

    A refused file is a failed job whose reason is the refusal's words, as is a retry
    whose file was cleared meanwhile (:func:`~annotation.jobs.pruning.kept_upload`). A
    previous attempt whose worker was killed is cleared first
    (:func:`_clear_previous_attempt`)."""
    asked = job.payload
    complete = _clear_previous_attempt(job)
    if complete is not None:
        result = _result_without_summary(complete)
        return lambda: _imported(job, complete, result)
    data = kept_upload(job)
    campaign = _chosen_campaign(job)
    total = estimated_sentences(data)

    def report(sentences: int) -> None:
        if sentences == 0:  # in the transaction taking the name: recorded for a retry
            taken = Corpus.all_objects.get(name=asked["name"])
            Job.objects.filter(pk=job.pk).update(corpus=taken)
        progress(sentences, max(total, sentences), PHASE_READING)

    try:
        summary = corpus_import(
            source=io.BytesIO(data),
            name=asked["name"],
            filename=asked["filename"],
            reference_names=asked["references"],
            progress=report,
            rename=RENAME_IN_FORM,
            assign=asked["assign"],
            campaign=campaign,
            # a job queued before protocols were chosen has none: aWER, as then
            protocol=asked.get("protocol", Protocol.AWER),
        )
    except ImportRefused as refused:
        raise Refused(str(refused)) from None
    result = import_result(summary)
    return lambda: _imported(job, summary.corpus, result)


def _chosen_campaign(job: Job) -> Campaign | None:
    """The campaign the lead chose for the corpus (None: one of its own); refused when it
    was deleted since the upload was queued."""
    pk = job.payload.get("campaign")
    if pk is None:
        return None
    campaign = Campaign.objects.filter(pk=pk).first()
    if campaign is None:
        raise Refused(ERR_CAMPAIGN_GONE)
    return campaign


def _clear_previous_attempt(job: Job) -> Corpus | None:
    """Remove the hidden corpus a killed worker's attempt at ``job`` left, and the
    evaluator accounts it made (the import removes its own on any error, but a killed
    process runs no cleanup); the import then starts afresh. A complete corpus is
    returned instead: that attempt ended the import, and its worker stopped before the
    job was marked done."""
    if job.corpus_id is None:
        return None
    corpus = Corpus.all_objects.filter(pk=job.corpus_id).first()
    if corpus is None or corpus.ready:
        return corpus
    delete_corpus_rows(corpus)
    remove_unused_import_accounts(since=job.created_at)
    return None


def _imported(job: Job, corpus: Corpus, result: dict[str, Any]) -> dict[str, Any]:
    """Stored with the job's end: the uploading lead runs the new corpus's campaign
    (judges with nothing to do are told to ask them)."""
    if job.requested_by_id is not None:
        corpus.leads.add(job.requested_by_id)
    Job.objects.filter(pk=job.pk).update(corpus=corpus)
    return result


def import_result(summary: ImportSummary) -> dict[str, Any]:
    """The job's ``result``: what the upload page showed, and the figures behind it."""
    return {
        "corpus": summary.corpus.pk,
        "name": summary.corpus.name,
        "campaign": summary.corpus.campaign_id,
        "sentences": summary.sentences,
        "references_min": summary.references_min,
        "references_max": summary.references_max,
        "systems": summary.systems,
        "judgments": summary.judgments,
        "warnings": list(summary.warnings),
        "warnings_total": summary.warnings_total,
        "evaluators": list(summary.evaluators),
        "assigned": summary.assigned,
        "lines": summary.lines(),
    }


def _result_without_summary(corpus: Corpus) -> dict[str, Any]:
    return {
        "corpus": corpus.pk,
        "name": corpus.name,
        "campaign": corpus.campaign_id,
        "sentences": corpus.n_sentences,
        "systems": corpus.n_systems,
        "lines": [
            f"Imported corpus {corpus.name!r}: {counted(corpus.n_sentences, 'sentence')}, "
            f"{counted(corpus.n_systems, 'system')}.",
            WARN_SUMMARY_LOST,
        ],
    }
