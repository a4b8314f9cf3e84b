"""``manage.py import_appraise FILE --texts DIR --pair SRC-TGT --name NAME`` or
``manage.py import_appraise FILE --corpus NAME [--pair SRC-TGT]``.

Imports Appraise's ESA/DA CSV (no header; :mod:`annotation.corpora.appraise_csv`) as
judgments: of a new corpus made of WMT's plain-text files under ``DIR``, or of a corpus
already imported (an evalTrans file). All or nothing: a row that does not match the
texts is refused with its line and reason (:mod:`annotation.corpora.appraise`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.corpora.appraise import corpus_import_appraise
from annotation.corpora.imports import ImportRefused
from annotation.management.lookup import corpus_named
from metrics.textfiles import SegmentFileError, display_name, read_bytes


class Command(BaseCommand):
    help = "Import an Appraise ESA/DA CSV export as judgments (new corpus or existing one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The Appraise CSV (- : standard input).")
        parser.add_argument(
            "--texts",
            type=Path,
            metavar="DIR",
            help="WMT's plain-text layout: sources/, references/, system-outputs/, documents/.",
        )
        parser.add_argument("--pair", metavar="SRC-TGT", help="The language pair, e.g. en-ja.")
        parser.add_argument("--name", help="The new corpus's name (with --texts).")
        parser.add_argument("--corpus", metavar="NAME", help="An already imported corpus.")

    def handle(self, *args: Any, **options: Any) -> None:
        texts, pair, name, existing = (
            options["texts"],
            options["pair"],
            options["name"],
            options["corpus"],
        )
        if (existing is None) == (texts is None):
            raise CommandError("give either --texts DIR (with --pair and --name) or --corpus NAME")
        if texts is not None and (pair is None or name is None):
            raise CommandError("--texts needs --pair SRC-TGT and --name NAME")
        corpus = None if existing is None else corpus_named(existing)
        try:
            summary = corpus_import_appraise(
                data=read_bytes(options["file"]),
                filename=display_name(options["file"]),
                pair=pair,
                texts=texts,
                name=name,
                corpus=corpus,
            )
        except (ImportRefused, SegmentFileError) as exc:
            raise CommandError(str(exc)) from None
        for line in summary.lines():
            self.stdout.write(line)
