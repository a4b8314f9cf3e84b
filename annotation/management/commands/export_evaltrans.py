"""``manage.py export_evaltrans NAME [-o FILE]`` — canonical evalTrans XML, stdout by default."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from annotation.corpora.exports import corpus_export
from annotation.management.lookup import corpus_named


class Command(BaseCommand):
    help = "Export a corpus, with every judgment, as evalTrans XML."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument(
            "-o", "--output", type=Path, help="Write to this file instead of stdout."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        if options["output"] is None:
            # Bytes straight to the real stdout (streaming), not through Django's text wrapper.
            out = getattr(self.stdout._out, "buffer", sys.stdout.buffer)
            corpus_export(corpus=corpus, out=out)
            out.flush()
            return
        with options["output"].open("wb") as out:
            corpus_export(corpus=corpus, out=out)
        self.stderr.write(f"Wrote {options['output']}")
