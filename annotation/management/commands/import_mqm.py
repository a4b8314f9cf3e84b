"""``manage.py import_mqm FILE --texts DIR --pair SRC-TGT --name NAME`` or
``manage.py import_mqm FILE --corpus NAME``.

Imports the MQM TSV of the public WMT MQM releases (:mod:`annotation.corpora.mqm_tsv`)
as judgments with error spans: of a new MQM corpus made of WMT's plain-text files under
``DIR``, or of an MQM corpus already imported. All or nothing: a row that does not
match the texts is refused with its line and reason (:mod:`annotation.corpora.mqm_import`).
``manage.py export_mqm`` writes the same TSV back.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from annotation.corpora.mqm_import import corpus_import_mqm
from annotation.management.campaign_import import add_campaign_arguments, run_campaign_import


class Command(BaseCommand):
    help = "Import WMT's MQM TSV as judgments with error spans (new corpus or existing one)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_campaign_arguments(parser, "The MQM TSV")

    def handle(self, *args: Any, **options: Any) -> None:
        run_campaign_import(self, options, corpus_import_mqm)
