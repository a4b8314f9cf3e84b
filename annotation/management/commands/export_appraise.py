"""``manage.py export_appraise NAME [--pair SRC-TGT] [-o FILE]`` — the corpus's ESA
judgments as Appraise's ESA/DA CSV (:mod:`annotation.corpora.appraise_export`), the file
``import_appraise`` reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.corpora.appraise_csv import appraise_csv
from annotation.corpora.appraise_export import appraise_rows
from annotation.management.lookup import corpus_named
from annotation.management.text_output import write_text


class Command(BaseCommand):
    help = "Export a corpus's ESA judgments as Appraise's ESA/DA CSV (no header)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument(
            "--pair",
            metavar="SRC-TGT",
            help="The languages to write (default: the corpus's srclang and trglang).",
        )
        parser.add_argument(
            "-o", "--output", type=Path, help="Write to this file instead of stdout."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        try:
            text = appraise_csv(appraise_rows(corpus, pair=options["pair"]))
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        write_text(self, [text], options["output"])
