"""``manage.py backfill_hter`` — fill HTER's counts of judgments stored before they
existed (a database migrated from before migration 0008): each judgment with a new
reference and no ``ter_edits`` gets the counts the app stores with every new reference
(:func:`annotation.text.new_ref_counts`), five hundred a transaction."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from annotation.models import Judgment
from annotation.text import new_ref_counts

BATCH = 500


class Command(BaseCommand):
    help = "Fill HTER's counts of judgments stored before they existed."

    def handle(self, *args: Any, **options: Any) -> None:
        todo = Judgment.objects.filter(edits__isnull=False, ter_edits__isnull=True)
        pks = list(todo.order_by("pk").values_list("pk", flat=True))
        for start in range(0, len(pks), BATCH):
            rows = Judgment.objects.filter(pk__in=pks[start : start + BATCH])
            batch = []
            for pk, candidate, new_ref in rows.values_list("pk", "target__text", "new_ref"):
                counts = new_ref_counts(candidate, new_ref, cache=False)
                batch.append(
                    Judgment(pk=pk, ter_edits=counts["ter_edits"], ter_length=counts["ter_length"])
                )
            with transaction.atomic():
                Judgment.objects.bulk_update(batch, ["ter_edits", "ter_length"])
        self.stdout.write(f"{len(pks)} judgment(s) given their HTER counts.")
