"""Long work off the request path: the app's one task queue.

Anything that can take more than about a second (scoring a corpus, the grown pool, an
upload's import) is a :class:`Job`: a web request *enqueues* it (:func:`enqueue`, which
returns at once) and shows its progress; a worker process (``manage.py worker``, any
number of them, on any machine that reaches the database) computes it. The transport is
Django's Tasks API (the ``django-tasks`` backport on Django 5.2) with the database
backend (``django-tasks-db``): it needs nothing but the database the app already has,
works on SQLite and PostgreSQL alike, and a Redis or Celery backend is a ``TASKS``
setting away. The job's row, not the task's, is the truth (:mod:`annotation.models.job`):
claims, leases and results live there, so a worker killed mid-job costs a retry, never
the job, a database restarted mid-job costs nothing (:mod:`annotation.jobs.outage`), and
no two workers ever compute one job at once.

A kind of job is a *handler* (:func:`handler`): it computes, reporting progress, and
returns what to store; the runner stores it in the transaction that marks the job done.
"""

from annotation.jobs.runner import (
    JobLost,
    Progress,
    Refused,
    enqueue,
    handler,
    live_jobs,
    pending,
    pending_by_corpus,
    requeue_abandoned,
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
    "enqueue",
    "handler",
    "live_jobs",
    "pending",
    "pending_by_corpus",
    "requeue_abandoned",
    "retry",
    "run_claimed",
    "run_queued_jobs",
    "wait_for",
]
