"""``manage.py prune_jobs [--days N] [--rows-days M]`` — clear what ended jobs keep
(:mod:`annotation.jobs.pruning`): the uploaded file of every job that ended more than N
days ago (default 7; a failed upload can be retried until then), and the rows of jobs
that ended more than M days ago (default 90). Live jobs are never touched. Run it daily
(cron, a systemd timer)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.jobs.pruning import ROW_DAYS, UPLOAD_DAYS, prune_jobs
from metrics.numerals import int_option


class Command(BaseCommand):
    help = "Clear the files of ended jobs after N days, and their rows after M days."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=int_option,
            default=UPLOAD_DAYS,
            metavar="N",
            help=f"clear the uploaded file of jobs ended more than N days ago "
            f"(default {UPLOAD_DAYS})",
        )
        parser.add_argument(
            "--rows-days",
            type=int_option,
            default=ROW_DAYS,
            metavar="M",
            help=f"delete the jobs ended more than M days ago (default {ROW_DAYS})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for option in ("days", "rows_days"):
            if options[option] < 0:
                flag = "--" + option.replace("_", "-")
                raise CommandError(f"{flag} {options[option]}: must not be negative")
        pruned = prune_jobs(upload_days=options["days"], row_days=options["rows_days"])
        self.stdout.write(
            f"cleared the files of {pruned.uploads} ended job(s), "
            f"deleted {pruned.rows} ended job(s)"
        )
