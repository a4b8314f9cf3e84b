"""``manage.py prune_jobs``: an ended job's uploaded file is cleared after a week, its row
after 90 days (issue 36, point 8e); a live job is never touched, and a failed upload
retried after its file was cleared fails with the reason."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from annotation.jobs import Job, run_queued_jobs
from annotation.jobs.pruning import ERR_UPLOAD_PRUNED, ROW_DAYS, UPLOAD_DAYS
from annotation.tests.corpora.test_upload_views import REFUSED_LATE, job_url, upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def jobs_wait_for_a_worker(settings: Any) -> None:
    settings.TASKS = settings.QUEUED_TASKS


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("prune_jobs", *args, stdout=out)
    return out.getvalue()


def failed_upload(client: Client) -> Job:
    """An upload whose file the worker refused past its first sentence: a failed job
    that keeps its file (2 MB of the demo corpus) for a retry."""
    upload(client, REFUSED_LATE)
    run_queued_jobs()
    job = Job.objects.get(kind="import")
    assert job.status == Job.Status.FAILED
    assert bytes(job.upload or b"") == REFUSED_LATE
    return job


def ended_days_ago(job: Job, days: float) -> None:
    Job.objects.filter(pk=job.pk).update(finished_at=timezone.now() - timedelta(days=days))


def test_a_failed_uploads_file_is_cleared_after_a_week_and_its_row_after_90_days(
    lead_client: Client,
) -> None:
    job = failed_upload(lead_client)
    assert (UPLOAD_DAYS, ROW_DAYS) == (7, 90)  # the defaults docs/operator.md gives

    assert run() == "cleared the files of 0 ended job(s), deleted 0 ended job(s)\n"
    ended_days_ago(job, 6.9)
    run()
    assert Job.objects.get(pk=job.pk).upload is not None

    ended_days_ago(job, 7.1)
    assert run() == "cleared the files of 1 ended job(s), deleted 0 ended job(s)\n"
    kept = Job.objects.get(pk=job.pk)
    assert kept.upload is None
    assert (kept.status, kept.error) == (job.status, job.error)  # its page still says why

    ended_days_ago(job, 89)
    run()
    assert Job.objects.filter(pk=job.pk).exists()
    ended_days_ago(job, 91)
    assert run() == "cleared the files of 0 ended job(s), deleted 1 ended job(s)\n"
    assert not Job.objects.filter(pk=job.pk).exists()


def test_a_live_job_is_never_touched_and_a_recent_one_is_kept(lead_client: Client) -> None:
    failed = failed_upload(lead_client)
    upload(lead_client, name="waiting")  # queued, no worker yet: its file waits for one
    waiting = Job.objects.get(kind="import", status=Job.Status.QUEUED)
    long_ago = timezone.now() - timedelta(days=365)
    Job.objects.filter(pk=waiting.pk).update(created_at=long_ago)
    Job.objects.filter(pk=failed.pk).update(status=Job.Status.RUNNING, finished_at=long_ago)

    assert run() == "cleared the files of 0 ended job(s), deleted 0 ended job(s)\n"

    assert Job.objects.get(pk=waiting.pk).upload is not None
    assert Job.objects.get(pk=failed.pk).upload is not None


def test_the_days_are_options(lead_client: Client) -> None:
    job = failed_upload(lead_client)
    ended_days_ago(job, 10)

    run("--days", "30")
    assert Job.objects.get(pk=job.pk).upload is not None
    run("--days", "9", "--rows-days", "30")
    assert Job.objects.get(pk=job.pk).upload is None
    assert (
        run("--rows-days", "9") == "cleared the files of 0 ended job(s), deleted 1 ended job(s)\n"
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (("--days", "-1"), "--days -1: must not be negative"),
        (("--rows-days", "-2"), "--rows-days -2: must not be negative"),
        (("--days", "٣"), "argument --days: invalid int value: '٣'"),  # Arabic-Indic 3
    ],
)
def test_bad_days_are_refused(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_a_retry_after_the_file_was_cleared_fails_with_the_reason(lead_client: Client) -> None:
    job = failed_upload(lead_client)
    ended_days_ago(job, 8)
    run()

    lead_client.post(job_url(job) + "retry/")
    run_queued_jobs()

    job.refresh_from_db()
    assert (job.status, job.error) == (Job.Status.FAILED, ERR_UPLOAD_PRUNED)
    assert "upload the file again" in lead_client.get(job_url(job)).content.decode()


def test_the_jobs_command_reads_an_id_in_the_digits_0_to_9_only() -> None:
    with pytest.raises(CommandError, match="argument --wait: invalid int value: '١'"):
        call_command("jobs", "--wait", "١")
