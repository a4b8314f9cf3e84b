"""``manage.py archive_corpus NAME [--restore]`` — hide a corpus from its judges, kept
whole for its leads, or restore it (:func:`annotation.corpora.removal.corpus_set_archived`)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from annotation.corpora.removal import corpus_set_archived
from annotation.management.lookup import corpus_named


class Command(BaseCommand):
    help = "Archive a corpus (hidden from its judges, kept for its leads), or restore it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--restore", action="store_true", help="Show it to its judges again.")

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        corpus_set_archived(corpus=corpus, archived=not options["restore"])
        state = "restored: its judges see it again" if options["restore"] else "archived"
        self.stdout.write(f"{corpus.name}: {state}.")
