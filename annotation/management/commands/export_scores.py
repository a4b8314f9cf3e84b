"""``manage.py export_scores NAME --format mtme [--metric NAME] [--level seg|sys] [-o FILE]``
— a corpus's scores per segment (or per system) in mt-metrics-eval's layout
(:mod:`annotation.corpora.score_exports`, :mod:`metrics.mtme`), the files WMT's analysis
scripts read. ``--metric``: ``esa`` (the default for an ESA corpus), ``mqm`` (negated
penalty points, as mt-metrics-eval keeps them; the default for an MQM corpus) or an
imported metric's name (human scores imported as a ``.sys.score`` alone: ``--level sys``
only, their published figures as read)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.corpora.score_exports import DEFAULT_METRIC as DEFAULT_METRIC
from annotation.corpora.score_exports import default_scores, score_file
from annotation.management.lookup import corpus_named
from annotation.management.text_output import write_text

FORMATS = ("mtme",)


class Command(BaseCommand):
    help = "Export a corpus's segment (or system) scores as mt-metrics-eval's .seg/.sys.score."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--format", choices=FORMATS, default="mtme")
        parser.add_argument(
            "--metric",
            help="esa (default for an ESA corpus), mqm (negated points; default for an MQM "
            "corpus), or an imported metric's name (default for another corpus: the first "
            "human scores imported).",
        )
        parser.add_argument(
            "--level",
            choices=("seg", "sys"),
            default="seg",
            help="seg: a .seg.score (default); sys: a .sys.score.",
        )
        parser.add_argument(
            "-o", "--output", type=Path, help="Write to this file instead of stdout."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        metric = options["metric"]
        if metric is None:
            metric = default_scores(corpus)
            if metric is None:
                raise CommandError("--metric NAME: which scores (an imported metric's name)")
        try:
            text = score_file(corpus, metric, options["level"])
        except LookupError as exc:
            raise CommandError(str(exc.args[0])) from None
        write_text(self, [text], options["output"])
