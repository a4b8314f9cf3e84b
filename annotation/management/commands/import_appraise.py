"""``manage.py import_appraise FILE --texts DIR --pair SRC-TGT --name NAME`` or
``manage.py import_appraise FILE --corpus NAME [--pair SRC-TGT]``.

Imports Appraise's ESA/DA CSV (no header; :mod:`annotation.corpora.appraise_csv`) as
judgments: of a new corpus made of WMT's plain-text files under ``DIR``, or of a corpus
already imported (an evalTrans file). All or nothing: a row that does not match the
texts is refused with its line and reason (:mod:`annotation.corpora.appraise`).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from annotation.corpora.appraise import corpus_import_appraise
from annotation.management.campaign_import import add_campaign_arguments, run_campaign_import


class Command(BaseCommand):
    help = "Import an Appraise ESA/DA CSV export as judgments (new corpus or existing one)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_campaign_arguments(parser, "The Appraise CSV")

    def handle(self, *args: Any, **options: Any) -> None:
        run_campaign_import(self, options, corpus_import_appraise)
