"""``manage.py delete_scores CORPUS NAME`` — delete a metric a lead imported
(``manage.py import_scores``) with its scores (:func:`annotation.statistics.
external_metric_delete`)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.management.lookup import corpus_named
from annotation.statistics import ScoresRefused, external_metric_delete


class Command(BaseCommand):
    help = "Delete an imported metric of a corpus with its scores."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("corpus", help="The corpus's name.")
        parser.add_argument("name", help="The imported metric's name.")

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["corpus"])
        try:
            external_metric_delete(corpus=corpus, name=options["name"])
        except ScoresRefused as refused:
            raise CommandError(str(refused)) from None
        self.stdout.write(f"{corpus.name}: deleted {options['name']} with its scores.")
