"""``manage.py export_references NAME --out DIR`` — the grown reference pool as plain files.

One file per reference slot, as sacreBLEU and ``python -m metrics`` read several
references: ``DIR/ref0.txt`` (every sentence's first reference), ``DIR/ref1.txt``, …, one
line per sentence in corpus order; a sentence with fewer references than the most any
sentence has gets its first reference repeated in the missing slots
(:mod:`annotation.statistics.pool_references` states which references and in what
order).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.formatting import counted
from annotation.management.lookup import corpus_named
from annotation.statistics import (
    corpus_texts,
    new_references,
    sentence_pools,
    write_reference_files,
)


class Command(BaseCommand):
    help = (
        "Write a corpus's references grown by the judges' accepted new references as "
        "DIR/ref0.txt, DIR/ref1.txt, … (one line per sentence)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--out", type=Path, required=True, help="directory to write to")
        parser.add_argument(
            "--original",
            action="store_true",
            help="the corpus's own references only, without the new ones",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        out: Path = options["out"]
        if out.exists() and not out.is_dir():
            raise CommandError(f"--out {out}: is a file, not a directory")
        texts = corpus_texts(corpus)
        refs = texts.refs
        added = 0
        if not options["original"]:
            pools = sentence_pools(texts.refs, new_references(corpus))
            refs, added = [p.texts for p in pools], sum(len(p.added) for p in pools)
        try:
            paths = write_reference_files(refs, out)
        except OSError as exc:
            raise CommandError(f"--out {out}: cannot write ({exc.strerror})") from None
        counts = [len(r) for r in refs]
        least, most = (min(counts), max(counts)) if counts else (0, 0)
        each = f"{least}" if least == most else f"{least}–{most}"
        self.stderr.write(
            f"Wrote {counted(len(paths), 'reference file')} "
            f"({', '.join(p.name for p in paths)}) to {out}: {counted(len(refs), 'sentence')}, "
            f"{each} reference{'s' if most != 1 else ''} each, {added} new"
        )
