"""Clearing what ended jobs keep: a failed upload's file, and the rows themselves.

An upload's job keeps the file (``Job.upload``) until it is done, so that a failed
import can be retried without uploading again; the runner clears it when the job is
done, but a failure nobody retries kept its file for ever (a 12 MB evalTrans file in a
job row, read by nothing). :func:`prune_jobs` (``manage.py prune_jobs``, run daily:
docs/operator.md, *Pruning*) clears the file of every job that ended more than
:data:`UPLOAD_DAYS` days ago, and deletes the rows of jobs that ended more than
:data:`ROW_DAYS` days ago. A live job (queued, running) is never touched. A retry of a
failed upload whose file was cleared fails at once with the reason
(:func:`kept_upload`): the lead uploads the file again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from annotation.jobs.runner import Refused
from annotation.models import Job

#: Days an ended job keeps its uploaded file (for a retry of a failed upload).
UPLOAD_DAYS = 7
#: Days an ended job's row is kept (its page, its reason, ``manage.py jobs --all``).
ROW_DAYS = 90
ERR_UPLOAD_PRUNED = (
    "its uploaded file was cleared after the job failed (manage.py prune_jobs): "
    "upload the file again"
)


@dataclass(frozen=True)
class Pruned:
    """What :func:`prune_jobs` cleared: files of ended jobs, and rows deleted."""

    uploads: int
    rows: int


def prune_jobs(
    *, upload_days: int = UPLOAD_DAYS, row_days: int = ROW_DAYS, now: datetime | None = None
) -> Pruned:
    """Clear the uploaded file of every job that ended (done or failed) more than
    ``upload_days`` days before ``now``, and delete the rows of those that ended more
    than ``row_days`` days before it. Two statements; a live job is never touched."""
    now = now or timezone.now()
    ended = Job.objects.exclude(status__in=Job.LIVE).filter(finished_at__isnull=False)
    uploads = ended.filter(
        upload__isnull=False, finished_at__lt=now - timedelta(days=upload_days)
    ).update(upload=None)
    rows, _ = ended.filter(finished_at__lt=now - timedelta(days=row_days)).delete()
    return Pruned(uploads=uploads, rows=rows)


def kept_upload(job: Job) -> bytes:
    """The file ``job`` was queued with; a job whose file :func:`prune_jobs` cleared
    (a failed upload retried later) is refused with the reason."""
    if job.upload is None:
        raise Refused(ERR_UPLOAD_PRUNED)
    return bytes(job.upload)
