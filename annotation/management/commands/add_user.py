"""``manage.py add_user USERNAME --password PW --role judge|lead [--corpus NAME …]``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.accounts import user_upsert
from annotation.limits import EVALUATOR_MAX_LENGTH, length_problem
from annotation.models import Corpus, User


class Command(BaseCommand):
    help = "Create or update an account (activating it) and assign corpora to a judge."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", required=True)
        parser.add_argument("--role", choices=[r.value for r in User.Role], required=True)
        parser.add_argument(
            "--corpus",
            action="append",
            default=[],
            metavar="NAME",
            help="Assign a corpus (repeatable).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        problem = length_problem("the username", options["username"], EVALUATOR_MAX_LENGTH)
        if problem is not None:
            raise CommandError(problem)
        names = options["corpus"]
        corpora = list(Corpus.objects.filter(name__in=names))
        missing = sorted(set(names) - {c.name for c in corpora})
        if missing:
            raise CommandError(f"no corpus named {', '.join(map(repr, missing))}")
        user, created = user_upsert(
            username=options["username"],
            password=options["password"],
            role=options["role"],
            corpora=corpora,
        )
        verb = "Created" if created else "Updated"
        assigned = f", corpora: {', '.join(c.name for c in corpora)}" if corpora else ""
        self.stdout.write(f"{verb} {user.role} {user.username!r}{assigned}.")
