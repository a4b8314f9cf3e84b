"""``manage.py jobs`` — the queue as the lead sees it: live and failed jobs, a retry, a
wait with progress, or the queued jobs computed here when no worker runs.

    manage.py jobs                 live and failed jobs, one line each
    manage.py jobs --all --json    every job, as JSON
    manage.py jobs --wait ID       progress until job ID ends (exit 1 if it failed)
    manage.py jobs --retry ID      queue a failed job again
    manage.py jobs --run           compute every queued job in this process
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.jobs import Job, retry, run_queued_jobs, wait_for
from metrics.json_out import json_dumps
from metrics.numerals import int_option


class Command(BaseCommand):
    help = "List, wait for, retry or run the queue's jobs (scoring, imports)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true", help="finished jobs too")
        parser.add_argument("--json", action="store_true")
        parser.add_argument(
            "--wait", type=int_option, metavar="ID", help="show progress until it ends"
        )
        parser.add_argument(
            "--retry", type=int_option, metavar="ID", help="queue a failed job again"
        )
        parser.add_argument("--run", action="store_true", help="compute queued jobs here")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["retry"] is not None:
            job = retry(_job(options["retry"]))
            self.stdout.write(f"job {job.pk}: {job.progress_text}")
            return
        if options["wait"] is not None:
            job = wait_for(_job(options["wait"]), out=self.stdout)
            if job.status == Job.Status.FAILED:
                raise CommandError(f"job {job.pk} failed: {job.error}")
            return
        if options["run"]:
            self.stdout.write(f"{run_queued_jobs()} job(s) computed")
            return
        jobs = Job.objects.defer("upload", "result").order_by("pk")
        if not options["all"]:
            jobs = jobs.exclude(status=Job.Status.DONE)
        if options["json"]:
            self.stdout.write(json_dumps([j.as_json() for j in jobs], ensure_ascii=True))
            return
        for job in jobs:
            self.stdout.write(f"{job.pk:>6}  {job.label}: {job.progress_text}")


def _job(pk: int) -> Job:
    try:
        return Job.objects.defer("upload").get(pk=pk)
    except Job.DoesNotExist:
        raise CommandError(f"no job {pk}") from None
