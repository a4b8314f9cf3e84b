"""A system's plain text added to a corpus by the workers (:mod:`annotation.jobs`, jobs
of kind ``add-system``), as an evalTrans upload is imported (:mod:`annotation.corpora.
import_jobs`): re-segmenting one document against a corpus of 1,000 sentences takes
seconds, and scoring the corpus afresh with the new system longer, so no web request
waits for it. A file that is not UTF-8 is refused at once; the rest of the refusals
(a taken name, the wrong number of lines) are the job's, with the same words.
"""

from __future__ import annotations

import uuid
from typing import Any

from annotation.corpora.import_jobs import AlreadyRunning
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.systems import AddedSystem, corpus_add_system, uploaded_lines
from annotation.jobs import Job, Progress, Refused, enqueue, handler
from annotation.jobs.pruning import kept_upload
from annotation.models import Corpus, User

ADD_SYSTEM = "add-system"
PHASE_ADDING = "adding the system"
ERR_SYSTEM_RUNNING = "system {name!r} is already being added to {corpus!r}: job {job}, {progress}"
ERR_CORPUS_GONE = "corpus {corpus!r} was deleted before the system was added"


def queue_add_system(
    *, corpus: Corpus, name: str, data: bytes, filename: str, unsegmented: bool, lead: User
) -> Job:
    """Queue adding system ``name`` to ``corpus`` from plain text ``data`` and return its
    job, at once. A file that is not UTF-8 is refused at once (:class:`ImportRefused`,
    with its line); :class:`AlreadyRunning` when the same system is being added."""
    uploaded_lines(data, filename)
    key = f"{ADD_SYSTEM}:{corpus.pk}:{name}"
    ticket = uuid.uuid4().hex
    running = Job.objects.filter(key=key, status__in=Job.LIVE).defer("upload", "result").first()
    if running is None:
        running = enqueue(
            ADD_SYSTEM,
            key,
            label=f"system {name!r} added to {corpus.name!r}",
            corpus=corpus,
            payload={
                "name": name,
                "filename": filename,
                "corpus": corpus.name,
                "unsegmented": unsegmented,
                "ticket": ticket,
            },
            upload=data,
            requested_by=lead,
            after_failure=True,
        )
    if running.payload.get("ticket") != ticket:
        message = ERR_SYSTEM_RUNNING.format(
            name=name, corpus=corpus.name, job=running.pk, progress=running.progress_text
        )
        raise AlreadyRunning(message, running)
    return running


@handler(ADD_SYSTEM)
def run_add_system(job: Job, progress: Progress) -> Any:
    """Add the job's system as :func:`corpus_add_system` does on the command line; a
    refusal is a failed job whose reason is its words."""
    asked = job.payload
    corpus = Corpus.objects.filter(pk=job.corpus_id).first() if job.corpus_id is not None else None
    if corpus is None:
        raise Refused(ERR_CORPUS_GONE.format(corpus=asked["corpus"]))
    progress(0, 0, PHASE_ADDING)
    try:
        added = corpus_add_system(
            corpus=corpus,
            name=asked["name"],
            lines=uploaded_lines(kept_upload(job), asked["filename"]),
            filename=asked["filename"],
            unsegmented=asked["unsegmented"],
        )
    except ImportRefused as refused:
        raise Refused(str(refused)) from None
    result = added_result(added)
    return lambda: result


def added_result(added: AddedSystem) -> dict[str, Any]:
    """The job's ``result``: what the upload page showed, and the figures behind it."""
    segmentation = added.segmentation
    return {
        "corpus": added.corpus.pk,
        "name": added.corpus.name,
        "system": added.system,
        "candidates": added.candidates,
        "words": added.words,
        "resegmented": segmentation is not None,
        "lines": added.lines(),
    }
