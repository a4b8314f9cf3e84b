"""``manage.py delete_corpus NAME [--yes]`` — delete a corpus with everything it holds
(:func:`annotation.corpora.removal.corpus_delete`), a hidden one left by an unfinished
import included. Without ``--yes`` it only says what it would delete; with it, it waits
for the deletion (a worker's job, or its own if no worker takes it) with its progress."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.corpora.removal import corpus_contents, corpus_delete
from annotation.jobs import Job, wait_for
from annotation.management.lookup import corpus_named
from annotation.models import Corpus


class Command(BaseCommand):
    help = "Delete a corpus with its sentences, judgments and figures (asks for --yes)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--yes", action="store_true", help="Delete it: this is for good.")

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"], Corpus.all_objects.all())
        lines = corpus_contents(corpus).lines()
        if not options["yes"]:
            for line in lines:
                self.stdout.write(line)
            raise CommandError("nothing deleted: add --yes to delete all of the above for good")
        job = wait_for(corpus_delete(corpus=corpus), out=self.stderr)
        if job.status == Job.Status.FAILED:
            raise CommandError(f"not deleted whole: {job.error} (run it again)")
        self.stdout.write(f"Deleted. {' '.join(lines)}")
