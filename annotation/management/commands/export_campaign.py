"""``manage.py export_campaign NAME [-o FILE]``: the campaign CSV of the campaign page's
download (:mod:`annotation.campaigns.export`), for scripts and cron."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from annotation.campaigns.export import campaign_csv
from annotation.management.lookup import corpus_named
from annotation.management.text_output import write_text
from annotation.models import Corpus


class Command(BaseCommand):
    help = (
        "Export a corpus's campaign as CSV: per judge x system done / assigned and active "
        "time, per judgment its first and last times (UTC, ISO 8601)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument(
            "-o", "--output", type=Path, help="Write to this file instead of stdout."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"], Corpus.objects.with_judges_progress())
        pieces = campaign_csv(corpus)
        write_text(self, pieces, options["output"])
