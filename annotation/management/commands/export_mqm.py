"""``manage.py export_mqm NAME [--json] [-o FILE]`` — the corpus's error spans in the
layout of the public WMT MQM data (:mod:`annotation.corpora.mqm`), TSV by default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from annotation.corpora.mqm import mqm_json, mqm_tsv
from annotation.management.lookup import corpus_named
from annotation.management.text_output import write_text


class Command(BaseCommand):
    help = "Export the error spans of a corpus's done judgments as MQM TSV (or JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--json", action="store_true", help="JSON instead of TSV.")
        parser.add_argument(
            "-o", "--output", type=Path, help="Write to this file instead of stdout."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        pieces = [mqm_json(corpus)] if options["json"] else mqm_tsv(corpus)
        write_text(self, pieces, options["output"])
