"""``manage.py import_spans CORPUS FILE``.

Imports error spans computed elsewhere (xCOMET, GEMBA-MQM, …) for an ESA corpus with
pre-filled spans (``esa_prefill``), to be suggested to its judges in place of the aWER
alignment's (:func:`annotation.corpora.span_imports.imported_spans_import`): all of the
file or nothing, a refusal naming the file's line and the reason. The layout (JSON lines
``{"system", "segment", "spans": [{"start", "end", "severity"}]}``) is
:mod:`metrics.span_file`'s. ``FILE`` ``-`` reads standard input.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.corpora.span_imports import SpansRefused, imported_spans_import
from annotation.management.lookup import corpus_named
from metrics.textfiles import STDIN, SegmentFileError, display_name, read_bytes


class Command(BaseCommand):
    help = (
        "Import a file of error spans (JSON lines: system, segment, spans of start, end, "
        "severity in characters) to suggest to the judges of an esa_prefill corpus."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("corpus", help="The corpus's name.")
        parser.add_argument("file", help=f"The spans file ({STDIN}: standard input).")

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["corpus"])
        filename = display_name(options["file"])
        try:
            counts = imported_spans_import(
                corpus=corpus, data=read_bytes(options["file"]), filename=filename
            )
        except (SpansRefused, SegmentFileError) as refused:
            raise CommandError(str(refused)) from None
        systems = ", ".join(f"{name} ({n} spans)" for name, n in counts.items())
        self.stdout.write(
            f"{corpus.name}: imported the spans of {len(counts)} "
            f"system{'s' * (len(counts) != 1)} from {filename}: {systems}."
        )
