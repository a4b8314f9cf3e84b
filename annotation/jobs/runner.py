"""Claiming, running and finishing jobs, in one place for every worker and command.

A job's row is the queue's entry and its only record (:mod:`annotation.jobs.backend`). A
worker takes the oldest job it may (:func:`claim_next`) with one conditional UPDATE
(:func:`claim`): the job must be queued, or running under a lease that has run out (its
worker died). The database makes that statement atomic on SQLite and PostgreSQL alike,
so of two workers asking at once exactly one gets the job. The lease is renewed by a
heartbeat (:class:`Heartbeat`), a thread of the worker beside the job, however long the
job goes between two progress reports: a lease runs out only when its worker stopped,
and the job is then taken over by the next worker that looks, or failed after
:data:`MAX_ATTEMPTS` claims. A worker that finds its claim taken over stops
(:class:`JobLost`), and the result is stored in the transaction whose first statement
marks the job done *only while the claim is still this worker's* (:func:`compute`): a
stale worker can neither overwrite a newer result nor store half of one. A database
that goes away meanwhile (restarted) is waited for, and the job goes on where it was
(:mod:`annotation.jobs.outage`).
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from datetime import timedelta
from io import TextIOBase
from typing import Any, TextIO

from django.conf import settings
from django.db import DatabaseError, IntegrityError, close_old_connections, connection, transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django_tasks import task

from annotation.jobs.outage import database_lost, despite_outages, reachable_for
from annotation.jobs.releases import (
    of_a_later_release,
    recorded_release,
    say_jobs_left_to_later_releases,
)
from annotation.models import Job

logger = logging.getLogger(__name__)

#: A job's kind → its handler: computes (reporting progress) and returns what to store,
#: a function the runner calls in the transaction that marks the job done (its value is
#: the job's ``result``), or None when there is nothing to store.
Store = Callable[[], Any]
Handler = Callable[[Job, "Progress"], Store | None]
HANDLERS: dict[str, Handler] = {}
#: A job's kind → what clears up after a job of it whose workers were all killed
#: (:func:`claim_next` gives it up after :data:`MAX_ATTEMPTS` claims): what the killed
#: attempts wrote outside the job's own row, which no killed process removes.
ABANDONED: dict[str, Callable[[Job], None]] = {}

#: Claims a worker killed mid-job may cost before the job is given up as failed.
MAX_ATTEMPTS = 3


class Refused(Exception):
    """A job that cannot be done as asked, for a reason its requester can act on (a
    refused file: its name, line and reason). Raised by a handler, its message alone is
    the job's ``error``: the lead reads the reason, not the name of a Python class."""


class JobLost(Exception):
    """The job's claim is no longer this worker's (its lease ran out and another worker
    took it, or it was cancelled): whatever this worker computed is dropped."""


def lease() -> timedelta:
    """How long a claim holds without its worker's heartbeat (``EVALTOOL_JOB_LEASE_SECONDS``):
    also how long a job waits for another worker after its worker was killed."""
    return timedelta(seconds=float(getattr(settings, "EVALTOOL_JOB_LEASE_SECONDS", 60)))


def worker_id() -> str:
    """This process as a job's ``worker``: host and process number."""
    return f"{socket.gethostname()}:{os.getpid()}"[:64]


def handler(
    kind: str, *, abandoned: Callable[[Job], None] | None = None
) -> Callable[[Handler], Handler]:
    """Register the function computing jobs of ``kind`` (at import of its module: the
    app imports every handler module when it starts, :mod:`annotation.apps`), and what
    clears up after one given up because its workers were killed (``abandoned``; a job
    that writes only its own result needs none)."""

    def register(function: Handler) -> Handler:
        HANDLERS[kind] = function
        if abandoned is not None:
            ABANDONED[kind] = abandoned
        return function

    return register


# ------------------------------------------------------------------ enqueueing


def enqueue(
    kind: str,
    key: str,
    *,
    label: str,
    corpus: Any = None,
    payload: dict[str, Any] | None = None,
    upload: bytes | None = None,
    requested_by: Any = None,
    after_failure: bool = False,
) -> Job:
    """The live job computing ``key``, created and enqueued (its task, :func:`run_job`)
    if there is none: asking twice for the same work gets the same job. Returns at once.

    When the last job of ``key`` failed, that job is returned as it is (its page shows
    the reason and a retry button, :func:`retry`), unless ``after_failure``: a page
    that asks for its figures on every view must not run a failing computation again on
    every view."""
    if kind not in HANDLERS:
        raise ValueError(f"no handler for jobs of kind {kind!r}")
    last = Job.objects.filter(key=key).defer("upload", "result").order_by("-pk").first()
    if last is not None and (last.live or (last.status == Job.Status.FAILED and not after_failure)):
        return last
    try:
        with transaction.atomic():
            job = Job.objects.create(
                kind=kind,
                key=key,
                label=label[:300],
                corpus=corpus,
                payload=payload or {},
                upload=upload,
                requested_by=requested_by,
                release=recorded_release(),
            )
            handed = run_job.enqueue(job.pk)
    except IntegrityError:  # another request created it a moment ago
        return Job.objects.get(key=key, status__in=Job.LIVE)
    if handed.is_finished:  # computed where it was queued (the tests' immediate backend)
        job.refresh_from_db()
    return job


@task()
def run_job(job_id: int) -> None:
    """The task of every job, enqueued through the Tasks API in the transaction that
    writes the job's row: claim job ``job_id`` and compute it (nothing when another
    worker has it or it has ended). Where it runs is the ``TASKS`` backend's choice: the
    jobs' own (:class:`annotation.jobs.backend.JobBackend`) leaves the queued row to the
    workers; the immediate backend of the test settings runs it here and now."""
    run_claimed(job_id, worker_id())


# ------------------------------------------------------------------ running


def claim(job_id: int, worker: str) -> Job | None:
    """Take job ``job_id`` for ``worker`` if it is queued or its lease has run out; None
    if another worker holds it or it has ended. One statement, read back in the same
    transaction: a database lost between the two leaves the job as it was."""
    now = timezone.now()
    claimable = Q(status=Job.Status.QUEUED) | Q(status=Job.Status.RUNNING, lease_until__lt=now)
    with transaction.atomic():
        taken = (
            Job.objects.filter(claimable, pk=job_id)
            .exclude(status=Job.Status.RUNNING, attempts__gte=MAX_ATTEMPTS)
            .update(
                status=Job.Status.RUNNING,
                worker=worker,
                lease_until=now + lease(),
                attempts=F("attempts") + 1,
                started_at=now,
                error="",
            )
        )
        return Job.objects.get(pk=job_id) if taken else None


class Progress:
    """What a handler calls as it goes: ``progress(done, total, phase)``. Each report is
    written for the page and the command line to read, at most four times a second; a
    report that finds the claim taken over raises :class:`JobLost`. (The lease is the
    heartbeat's, not the reports': a step may take longer than a lease.) Call it outside
    any transaction, or the page will not see it."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self._last = 0.0

    def __call__(self, done: int, total: int, phase: str = "") -> None:
        now = time.monotonic()
        if now - self._last < 0.25 and done < total:
            return
        self._last = now
        fields: dict[str, Any] = {"done": done, "total": total}
        if phase:
            fields["phase"] = phase[:200]
        if not _held(self.job).update(**fields):
            raise JobLost(self.job.pk)


def _held(job: Job) -> Any:
    """The job's row while ``job``'s claim is still the current one."""
    return Job.objects.filter(
        pk=job.pk, status=Job.Status.RUNNING, worker=job.worker, attempts=job.attempts
    )


#: Seconds between two beats that could not reach the database: the lease is renewed
#: within a second of its coming back, long before other workers judge leases again
#: (:func:`claim_next`: a lease after they found it back).
RETRY_BEAT = 1.0


class Heartbeat:
    """Renews the lease of the job this process computes, every third of a lease, from a
    thread of its own (``with Heartbeat(job):`` around the computing): the lease then
    says whether the worker lives, however long a step of the job takes between two
    progress reports (a scoring step of a large corpus, a machine so loaded a step takes
    minutes). A killed worker renews nothing, and its job is taken over once the lease
    has run out. A beat that cannot reach the database is tried again every second
    (:data:`RETRY_BEAT`); a claim no longer this worker's (taken over, ended) is not
    renewed."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._beat, name=f"heartbeat of job {job.pk}", daemon=True
        )

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _beat(self) -> None:
        every = lease().total_seconds() / 3
        pause, failing, beaten = every, False, False
        try:
            while not self._stop.wait(pause):
                beaten = True
                try:
                    renewed = _held(self.job).update(lease_until=timezone.now() + lease())
                except DatabaseError as error:
                    if not failing:
                        logger.warning("job %s: could not renew its lease: %s", self.job.pk, error)
                    database_lost(error)
                    connection.close()
                    pause, failing = min(RETRY_BEAT, every), True  # the lease runs meanwhile
                    continue
                if failing:
                    logger.warning("job %s: its lease renewed again", self.job.pk)
                if not renewed:
                    return
                pause, failing = every, False
        finally:
            if beaten:
                connection.close()  # this thread's own connection


def run_claimed(job_id: int, worker: str) -> bool:
    """Claim job ``job_id`` and compute it (:func:`compute`); whether this worker
    finished it (not when another worker holds it or it has ended)."""
    job = despite_outages(lambda: claim(job_id, worker), f"claiming job {job_id}")
    return job is not None and compute(job)


def compute(job: Job) -> bool:
    """Compute ``job``, claimed by this process, under its heartbeat; whether this
    worker finished it. A failure is stored with its reason (the lead sees it, with a
    retry button); a lost claim stores nothing. A database that goes away meanwhile is
    waited for, and the job resumed (:func:`_resumable`)."""
    with Heartbeat(job):
        return despite_outages(_resumable(job), f"job {job.pk} ({job.label})")


def _resumable(job: Job) -> Callable[[], bool]:
    """Computing ``job`` and storing its end, as a function to call again after the
    database went away midway (:func:`annotation.jobs.outage.despite_outages`): called
    again, it goes on from where it was, while the claim is still this worker's (the
    heartbeat kept it): a result computed is stored, not computed again; a computation
    cut short starts again from the job's row as it is now (as a retry after a killed
    worker does: e.g. an import clears what its first run left)."""
    computed: list[Store | None] = []
    calls = 0

    def run() -> bool:
        nonlocal calls
        calls += 1
        try:
            if calls > 1:
                if not _held(job).exists():
                    raise JobLost(job.pk)
                logger.warning(
                    "job %s (%s) goes on after the database came back", job.pk, job.label
                )
                job.refresh_from_db()
            if not computed:
                computed.append(HANDLERS[job.kind](job, Progress(job)))
            _finish(job, computed[0])
        except JobLost:
            logger.warning("job %s was taken over by another worker; its result dropped", job.pk)
            return False
        except Exception as error:
            if database_lost(error):
                raise
            if isinstance(error, Refused):  # the requester's to act on, not a fault of ours
                logger.info("job %s (%s) refused: %s", job.pk, job.label, error)
            else:
                logger.exception("job %s (%s) failed", job.pk, job.label)
            _held(job).update(
                status=Job.Status.FAILED,
                error=_error_text(error)[:2000],
                finished_at=timezone.now(),
                lease_until=None,
            )
            return False
        return True

    return run


def _finish(job: Job, store: Store | None) -> None:
    """Mark ``job`` done and store its result, in one transaction, only while its claim
    is this worker's (else :class:`JobLost`)."""
    with transaction.atomic():
        # First statement of the transaction: from here on the row is locked
        # (PostgreSQL) or the database is (SQLite), so the claim cannot be taken over
        # before the result is committed with it.
        if not _held(job).update(
            status=Job.Status.DONE, finished_at=timezone.now(), lease_until=None, upload=None
        ):
            raise JobLost(job.pk)
        result = store() if store is not None else None
        Job.objects.filter(pk=job.pk).update(result=result, done=F("total"))


def _error_text(error: Exception) -> str:
    """A failed job's reason: a refusal's own words; any other error with its type, for
    whoever reads the log."""
    if isinstance(error, Refused):
        return str(error)
    return f"{type(error).__name__}: {error}"


# ------------------------------------------------------------------ taking work


#: Jobs one look for work tries to claim before it sleeps: the rest go to the next look,
#: or to other workers.
CANDIDATES = 8


def claim_next(worker: str, kinds: Iterable[str] = ()) -> Job | None:
    """The oldest job ``worker`` may compute (of ``kinds``, when given), claimed for it:
    a queued one, or one whose lease has run out (its worker stopped: killed, out of
    memory), which is then taken over; None when there is none. A job whose workers
    stopped :data:`MAX_ATTEMPTS` times is failed with that reason instead
    (:func:`_give_up`).

    No lease is judged within a lease of the database's coming back after this process
    found it gone: a lease that ran out while no worker could reach the database says
    nothing of its worker, whose heartbeat renews it once it can
    (:func:`annotation.jobs.outage.reachable_for`)."""
    claimable = Q(status=Job.Status.QUEUED)
    if reachable_for(lease().total_seconds()):
        expired = Q(status=Job.Status.RUNNING, lease_until__lt=timezone.now())
        _give_up(expired)
        claimable |= expired & Q(attempts__lt=MAX_ATTEMPTS)
    jobs = Job.objects.filter(claimable)
    if wanted := tuple(kinds):
        jobs = jobs.filter(kind__in=wanted)
    ours = jobs.exclude(of_a_later_release()).order_by("pk")
    for pk in ours.values_list("pk", flat=True)[:CANDIDATES]:
        if (job := claim(pk, worker)) is not None:
            if job.attempts > 1:
                logger.warning("job %s (%s) taken over from a stopped worker", pk, job.label)
            return job
    say_jobs_left_to_later_releases(jobs)
    return None  # none, each taken by another worker a moment ago, or a later release's


def _give_up(expired: Q) -> None:
    """Fail the ``expired`` jobs (lease run out) claimed :data:`MAX_ATTEMPTS` times with
    that reason, and clear up what their killed attempts left (:data:`ABANDONED`)."""
    exhausted = Job.objects.filter(expired, attempts__gte=MAX_ATTEMPTS)
    for job in exhausted.defer("upload", "result"):
        if Job.objects.filter(expired, pk=job.pk).update(
            status=Job.Status.FAILED,
            error=f"its worker stopped {job.attempts} times (killed, or out of memory)",
            finished_at=timezone.now(),
            lease_until=None,
        ) and (clear := ABANDONED.get(job.kind)):
            clear(job)


def run_queued_jobs(*, kinds: Iterable[str] = ()) -> int:
    """Compute every job there is to take (:func:`claim_next`) here, in this process,
    until none is left (jobs may queue more jobs: an import queues its scoring): for the
    command line when no worker runs, and for tests. The same claims as a worker's, so a
    worker running meanwhile never computes one of them too. Returns how many this
    process finished."""
    me, finished, wanted = worker_id(), 0, tuple(kinds)
    while (job := claim_next(me, wanted)) is not None:
        finished += compute(job)
    return finished


def work(*, interval: float, stopping: Callable[[], bool], batch: bool = False) -> None:
    """A worker's loop (``manage.py worker``): take the next job (:func:`claim_next`)
    and compute it, or sleep ``interval`` seconds when there is none, until
    ``stopping()`` (a job under way is finished first) or, with ``batch``, until none is
    left. A database gone away is waited for (:mod:`annotation.jobs.outage`); any other
    error is logged, and the loop goes on: the job it hit, if any, is left to its lease."""
    me = worker_id()
    logger.info("worker %s: computing queued jobs", me)

    def next_job() -> Job | None:
        return claim_next(me)

    while not stopping():
        close_old_connections()
        try:
            job = despite_outages(next_job, "looking for jobs", going_on=lambda: not stopping())
            if job is not None:
                compute(job)
                continue
        except Exception:
            logger.exception("worker %s: could not look for or compute a job", me)
        if batch:
            return
        time.sleep(interval)


def retry(job: Job) -> Job:
    """A failed job queued again (the lead's retry button); a job of the same key
    queued meanwhile is returned instead."""
    with transaction.atomic():
        if Job.objects.filter(key=job.key, status__in=Job.LIVE).exclude(pk=job.pk).exists():
            return Job.objects.get(key=job.key, status__in=Job.LIVE)
        if Job.objects.filter(pk=job.pk, status=Job.Status.FAILED).update(
            status=Job.Status.QUEUED, attempts=0, error="", done=0, total=0, phase=""
        ):
            run_job.enqueue(job.pk)
    return Job.objects.get(pk=job.pk)


def pending(jobs: QuerySet[Job]) -> QuerySet[Job]:
    """Of ``jobs``, per key its latest job unless that one is done, oldest first: a
    queued or running job, and a failed one too (its reason, its retry button) until a
    newer job of its key exists, so older failures of a key do not pile up."""
    newer = Job.objects.filter(key=OuterRef("key"), pk__gt=OuterRef("pk"))
    latest = jobs.exclude(Exists(newer)).exclude(status=Job.Status.DONE)
    return latest.order_by("pk").defer("upload", "result")


def live_jobs(corpus: Any) -> list[Job]:
    """The corpus's pending work as its pages show it (:func:`pending`), in one query."""
    return list(pending(Job.objects.filter(corpus=corpus)))


def pending_by_corpus(corpora: QuerySet[Any]) -> dict[int, list[Job]]:
    """:func:`live_jobs` of every corpus of ``corpora`` in one query, whatever their
    number (the pages that list corpora: each shows its failed jobs with their Retry)."""
    found: dict[int, list[Job]] = {}
    for job in pending(Job.objects.filter(corpus__in=corpora.values("pk"))):
        found.setdefault(job.corpus_id, []).append(job)  # type: ignore[arg-type]
    return found


# ------------------------------------------------------------------ waiting


def wait_for(
    job: Job,
    *,
    out: TextIO | TextIOBase | None = None,
    run_here_after: float | None = 2.0,
    poll: float = 0.5,
) -> Job:
    """Wait until ``job`` has ended, writing its progress to ``out`` (one line rewritten
    on a terminal, a line per change otherwise). If no worker has claimed it after
    ``run_here_after`` seconds, it is computed here (a command line without workers
    still gets its answer). Returns the job as it ended."""
    out = out or sys.stdout
    terminal = out.isatty() if hasattr(out, "isatty") else False
    shown = ""
    started = time.monotonic()
    while True:
        job.refresh_from_db(fields=["status", "phase", "done", "total", "lease_until", "error"])
        text = f"{job.label}: {job.progress_text}"
        if text != shown:
            out.write(("\r\033[K" + text) if terminal else text + "\n")
            out.flush()
            shown = text
        if not job.live:
            if terminal:
                out.write("\n")
            return job
        waited = time.monotonic() - started
        if (
            run_here_after is not None
            and job.status == Job.Status.QUEUED
            and waited >= run_here_after
        ):
            run_claimed(job.pk, worker_id())
            continue
        time.sleep(poll)
