"""``manage.py add_judges FILE [--corpus NAME …]``: judge accounts from a list, as the
judges page's "New judges from a list" makes them (:mod:`annotation.campaigns.roster`:
one username a line, optionally ``,email``; ``-`` reads standard input). Prints a CSV of
the accounts made with their one-time passwords (the only time they are shown); a list
with any problem creates nothing and names each problem's line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.campaigns.handover import accounts_csv
from annotation.campaigns.roster import RosterRefused, judges_create_from_roster, roster_read
from annotation.models import Corpus


class Command(BaseCommand):
    help = "Create judge accounts from a list (one username a line, optionally ,email)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The list (UTF-8); - reads standard input.")
        parser.add_argument(
            "--corpus",
            action="append",
            default=[],
            metavar="NAME",
            help="Assign a corpus to every account (repeatable).",
        )
        parser.add_argument(
            "--login-url",
            default="",
            help="The login page's URL, written in the CSV (e.g. https://eval.example.org/accounts/login/).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        names = options["corpus"]
        corpora = list(Corpus.objects.filter(name__in=names))
        missing = sorted(set(names) - {c.name for c in corpora})
        if missing:
            raise CommandError(f"no corpus named {', '.join(map(repr, missing))}")
        path = options["file"]
        try:
            data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: cannot be read ({exc.strerror})") from None
        try:
            made = judges_create_from_roster(entries=roster_read(data), corpora=corpora)
        except RosterRefused as refused:
            raise CommandError(f"{path}: nothing created:\n" + "\n".join(refused.shown())) from None
        self.stdout.write(accounts_csv(made, options["login_url"]), ending="")
        self.stderr.write(f"Created {len(made)} judge account{'s' if len(made) != 1 else ''}.")
