"""``manage.py import_text --name NAME --source FILE --ref FILE … --hyp SYSTEM=FILE …``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.corpora.imports import ImportRefused
from annotation.corpora.text_imports import corpus_import_text


def _system_file(value: str) -> tuple[str, Path]:
    system, sep, path = value.partition("=")
    if not sep or not system or not path:
        raise ValueError(f"--hyp {value!r} is not SYSTEM=FILE")
    return system, Path(path)


class Command(BaseCommand):
    help = "Import plain one-segment-per-line files (source, references, systems) as a corpus."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True)
        parser.add_argument("--source", required=True, type=Path)
        parser.add_argument("--ref", action="append", required=True, type=Path, metavar="FILE")
        parser.add_argument("--hyp", action="append", required=True, metavar="SYSTEM=FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            hyps = [_system_file(v) for v in options["hyp"]]
            summary = corpus_import_text(
                name=options["name"], source=options["source"], refs=options["ref"], hyps=hyps
            )
        except (ImportRefused, ValueError) as exc:
            raise CommandError(str(exc)) from None
        for line in summary.lines():
            self.stdout.write(line)
