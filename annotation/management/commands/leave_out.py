"""``manage.py leave_out NAME USERNAME [--count-again]`` — leave a judge out of every
figure of a corpus, or count them again (:func:`annotation.campaigns.judges.
corpus_leave_out_judge`): their judgments stay stored and exported."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.campaigns.judges import corpus_leave_out_judge
from annotation.management.lookup import corpus_named
from annotation.models import User


class Command(BaseCommand):
    help = "Leave a judge out of every figure of a corpus (their judgments stay), or not."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The corpus.")
        parser.add_argument("username", help="The judge.")
        parser.add_argument("--count-again", action="store_true", help="Count them again.")

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        judge = User.objects.filter(username=options["username"]).first()
        if judge is None:
            raise CommandError(f"no account named {options['username']!r}")
        left_out = not options["count_again"]
        corpus_leave_out_judge(corpus=corpus, judge=judge, left_out=left_out)
        state = "left out of every figure" if left_out else "counted again"
        self.stdout.write(f"{corpus.name}: {judge.username} {state}.")
