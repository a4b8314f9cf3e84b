"""``manage.py import_text --name NAME --source FILE --ref FILE … --hyp SYSTEM=FILE …``.

``--unsegmented``: each ``--hyp`` file is one document (seed 002), re-segmented against
the references into one candidate per sentence. Without ``--source`` and ``--ref``, the
``--hyp`` systems are added to the existing corpus ``NAME``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.corpora.import_state import ImportRefused
from annotation.corpora.systems import corpus_add_system
from annotation.corpora.text_imports import corpus_import_text
from annotation.management.scoring import report_scoring
from annotation.models import Corpus
from metrics.textfiles import SegmentFileError, read_segments


def _system_file(value: str) -> tuple[str, Path]:
    system, sep, path = value.partition("=")
    if not sep or not system or not path:
        raise ValueError(f"--hyp {value!r} is not SYSTEM=FILE")
    return system, Path(path)


class Command(BaseCommand):
    help = (
        "Import plain one-segment-per-line files (source, references, systems) as a corpus, "
        "or add systems to an existing corpus (no --source and --ref)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True)
        parser.add_argument("--source", type=Path)
        parser.add_argument("--ref", action="append", default=[], type=Path, metavar="FILE")
        parser.add_argument("--hyp", action="append", required=True, metavar="SYSTEM=FILE")
        parser.add_argument(
            "--unsegmented",
            action="store_true",
            help="each --hyp file is one document (its line breaks are spaces), re-segmented "
            "against the references into one candidate per sentence (AS-WER, seed 002)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name, unsegmented = options["name"], options["unsegmented"]
        try:
            hyps = [_system_file(v) for v in options["hyp"]]
            if options["source"] is None and not options["ref"]:
                corpus = _existing_corpus(name)
                self._add_systems(corpus, _read(hyps), unsegmented)
                self._report_scoring(corpus)
                return
            if options["source"] is None or not options["ref"]:
                raise ValueError("a new corpus needs --source and --ref (both)")
            documents = _read(hyps) if unsegmented else []  # refused before anything is stored
            summary = corpus_import_text(
                name=name,
                source=options["source"],
                refs=options["ref"],
                hyps=[] if unsegmented else hyps,
            )
        except (ImportRefused, SegmentFileError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        for line in summary.lines():
            self.stdout.write(line)
        if unsegmented:
            self._add_systems(summary.corpus, documents, unsegmented=True)
        self._report_scoring(summary.corpus)

    def _report_scoring(self, corpus: Corpus) -> None:
        corpus.refresh_from_db()  # an added system moved its texts stamp
        report_scoring(self, corpus, wait=False)

    def _add_systems(
        self, corpus: Corpus, systems: list[tuple[str, Path, list[str]]], unsegmented: bool
    ) -> None:
        for system, path, lines in systems:
            try:
                added = corpus_add_system(
                    corpus=corpus,
                    name=system,
                    lines=lines,
                    filename=str(path),
                    unsegmented=unsegmented,
                )
            except ImportRefused as exc:
                raise CommandError(str(exc)) from None
            for line in added.lines():
                self.stdout.write(line)


def _existing_corpus(name: str) -> Corpus:
    corpus = Corpus.objects.filter(name=name).first()
    if corpus is None:
        raise ValueError(f"no corpus named {name!r} (give --source and --ref to create one)")
    return corpus


def _read(hyps: list[tuple[str, Path]]) -> list[tuple[str, Path, list[str]]]:
    return [(system, path, read_segments(path)) for system, path in hyps]
