"""``manage.py import_scores CORPUS [FILE] --name NAME (--higher-is-better |
--lower-is-better) [--format tsv|wmt|mtme] [--sys FILE] [--description TEXT] [--replace]``.

Imports segment scores computed elsewhere (COMET, xCOMET, MetricX, GEMBA, …) as the
corpus's metric ``NAME`` (:func:`annotation.statistics.external_metric_import`): all of
the file or nothing, a refusal naming the file's line and the reason. ``FILE`` ``-``
reads standard input. The layouts are :data:`metrics.segment_scores.LAYOUTS`; the
metric's figure is the mean of each system's segment scores. ``manage.py delete_scores``
deletes one.

Human scores from mt-metrics-eval (``--format mtme``: a ``.seg.score`` where ``None`` is a
segment nobody rated) may come with their ``.sys.score`` (``--sys FILE``): each system's
line must be the mean of its rated segments, or the import is refused with its line.
Without ``FILE``, ``--sys FILE`` alone imports the ``.sys.score`` as the published
system-level figures (a release without segment-level human scores for the pair): a
human figure at system level only, refused with its line when a system is unknown,
twice or left out, a score no number, or a line not two columns.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.management.lookup import corpus_named
from annotation.statistics import AGGREGATE, ScoresRefused, external_metric_import
from metrics.segment_scores import LAYOUTS
from metrics.textfiles import STDIN, SegmentFileError, display_name, read_bytes


class Command(BaseCommand):
    help = (
        "Import a file of segment scores computed elsewhere (COMET, MetricX, …) as a named "
        f"metric of a corpus; a system's figure is {AGGREGATE}."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("corpus", help="The corpus's name.")
        parser.add_argument(
            "file",
            nargs="?",
            help=f"The scores file ({STDIN}: standard input); left out with --format mtme "
            "--sys FILE: the .sys.score alone.",
        )
        parser.add_argument("--name", required=True, help="The metric's name, e.g. COMET-22.")
        direction = parser.add_mutually_exclusive_group(required=True)
        direction.add_argument(
            "--higher-is-better", action="store_true", help="Higher scores are better (COMET)."
        )
        direction.add_argument(
            "--lower-is-better", action="store_true", help="Lower scores are better (MetricX)."
        )
        parser.add_argument(
            "--format",
            choices=tuple(LAYOUTS),
            default="tsv",
            help="; ".join(f"{key}: {words}" for key, words in LAYOUTS.items()) + " (default: tsv)",
        )
        parser.add_argument(
            "--sys",
            metavar="FILE",
            help="With --format mtme: the .sys.score beside the .seg.score, checked against it; "
            "without FILE, the system-level human scores alone.",
        )
        parser.add_argument("--description", default="", help="What it is (model, version, …).")
        parser.add_argument(
            "--replace", action="store_true", help="Replace the imported metric of this name."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["corpus"])
        sys_file = options["sys"]
        if sys_file is not None and options["format"] != "mtme":
            raise CommandError("--sys goes with --format mtme (mt-metrics-eval human scores)")
        if options["file"] is None and sys_file is None:
            raise CommandError("FILE: the scores file (or --format mtme --sys FILE alone)")
        filename = display_name(options["file"] or sys_file)
        try:
            data = None if options["file"] is None else _read(options["file"], filename)
            system_scores = None if sys_file is None else read_bytes(sys_file)
            metric = external_metric_import(
                corpus=corpus,
                data=data,
                layout=options["format"],
                name=options["name"],
                higher_is_better=options["higher_is_better"],
                filename=filename,
                description=options["description"],
                replace=options["replace"],
                system_scores=system_scores,
                system_filename=display_name(sys_file or "sys.score"),
            )
        except (ScoresRefused, SegmentFileError) as refused:
            raise CommandError(str(refused)) from None
        direction = "higher" if metric.higher_is_better else "lower"
        scored = (
            f" × {corpus.n_sentences} sentences"
            if data is not None
            else ", system-level figures only (no segment score),"
        )
        self.stdout.write(
            f"{corpus.name}: imported {metric.name} ({direction} is better) for "
            f"{metric.scores.count()} systems{scored} from {filename}."
        )


def _read(path: str, filename: str) -> bytes:
    """The file's bytes (standard input's for ``-``), or the refusal naming it."""
    if path == STDIN:
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise SegmentFileError(filename, None, "no such file") from None
    except IsADirectoryError:
        raise SegmentFileError(filename, None, "is a directory, not a file") from None
    except OSError as exc:
        raise SegmentFileError(filename, None, f"cannot be read ({exc.strerror})") from None
