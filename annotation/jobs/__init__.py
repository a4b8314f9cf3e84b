"""Long work off the request path: the app's one task queue.

Anything that can take more than about a second (scoring a corpus, the grown pool, an
upload's import) is a :class:`Job`: a web request *enqueues* it (:func:`enqueue`, which
returns at once) and shows its progress; a worker process (``manage.py worker``, any
number of them, on any machine that reaches the database) computes it. Work is enqueued
through Django's Tasks API (the ``django-tasks`` backport on Django 5.2), and the job's
row is its one record (:mod:`annotation.models.job`): the queue's entry, the task's
result (:mod:`annotation.jobs.backend`), and where claims, leases, progress and results
live. It needs nothing but the database the app already has, works on SQLite and
PostgreSQL alike; a worker killed mid-job costs a retry, never the job, a database
restarted mid-job costs nothing (:mod:`annotation.jobs.outage`), and no two workers ever
compute one job at once.

A kind of job is a *handler* (:func:`handler`): it computes, reporting progress, and
returns what to store; the runner stores it in the transaction that marks the job done.
"""

from annotation.jobs.runner import (
    JobLost,
    Progress,
    Refused,
    claim_next,
    enqueue,
    handler,
    live_jobs,
    pending,
    pending_by_corpus,
    retry,
    run_claimed,
    run_queued_jobs,
    wait_for,
)
from annotation.models import Job

__all__ = [
    "Job",
    "JobLost",
    "Progress",
    "Refused",
    "claim_next",
    "enqueue",
    "handler",
    "live_jobs",
    "pending",
    "pending_by_corpus",
    "retry",
    "run_claimed",
    "run_queued_jobs",
    "wait_for",
]
