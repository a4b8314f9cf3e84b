"""``manage.py backfill_hter`` — fill HTER's counts of the done judgments that lack them
now: those stored before the counts existed (a database migrated from before migration
0008), and those a worker has not reached yet (a judge's click leaves them to the
workers: :mod:`annotation.statistics.hter`), a batch a transaction."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from annotation.statistics import fill_hter_counts


class Command(BaseCommand):
    help = "Fill HTER's counts of the done judgments that lack them."

    def handle(self, *args: Any, **options: Any) -> None:
        filled = fill_hter_counts()
        self.stdout.write(f"{filled} judgment(s) given their HTER counts.")
