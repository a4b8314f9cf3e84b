"""``manage.py comet NAME --model PATH [--batch-size N] [--out FILE] [--import METRIC
[--replace]] [--python PYTHON]``.

COMET computed here (:mod:`annotation.comet`): every system of the corpus scored against
its first reference by the COMET model at ``PATH`` (a model on this machine, its
directory or its ``checkpoints/model.ckpt``: nothing is downloaded), run in the COMET
environment (``make comet``; ``--python`` or ``EVALTOOL_COMET_PYTHON`` names another).
The scores are written in the ``tsv`` layout of the imported segment scores
(``system<TAB>segment<TAB>score``, segments from 1, after a header line) to ``FILE``, or
to standard output; the progress goes to standard error on a terminal.

``--import METRIC`` (with ``--replace`` for a metric of that name already there) also
stores the scores as the corpus's named metric, higher is better, as ``manage.py
import_scores`` stores a file: the name is checked before the model is loaded."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

from django.core.checks import Tags
from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.comet import DEFAULT_BATCH_SIZE, CometRefused, Progress, comet_scores
from annotation.management.lookup import corpus_named
from annotation.statistics import ScoresRefused, check_external_name, external_metric_store
from metrics.numerals import int_option
from metrics.segment_scores import segment_scores_tsv


class Command(BaseCommand):
    help = (
        "Score every system of a corpus with a COMET model on this machine (against the "
        "first reference) and write the segment scores as TSV: system, segment, score."
    )
    # The checks of what it touches: the models and the database (as import_evaltrans).
    requires_system_checks = [Tags.models, Tags.database]

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The corpus.")
        parser.add_argument(
            "--model",
            type=Path,
            required=True,
            help="A COMET model on this machine: its directory (checkpoints/model.ckpt and "
            "hparams.yaml) or its model.ckpt. Nothing is downloaded.",
        )
        parser.add_argument(
            "--batch-size",
            type=int_option,
            default=DEFAULT_BATCH_SIZE,
            help=f"Segments per batch (default {DEFAULT_BATCH_SIZE}).",
        )
        parser.add_argument(
            "--out", type=Path, help="The TSV file to write (default: standard output)."
        )
        parser.add_argument(
            "--import",
            dest="metric",
            metavar="METRIC",
            help="Also store the scores as the corpus's metric METRIC (e.g. COMET-22), "
            "higher is better: it joins the dashboard as an imported metric.",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="With --import: replace a metric of that name.",
        )
        parser.add_argument(
            "--python",
            type=Path,
            help="The COMET environment's python (default: EVALTOOL_COMET_PYTHON, where "
            "make comet makes it).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        metric: str | None = options["metric"]
        if metric is not None:
            try:
                check_external_name(corpus, metric, replace=options["replace"])
            except ScoresRefused as refused:
                raise CommandError(str(refused)) from None
        terminal = sys.stderr.isatty()
        if terminal:
            sys.stderr.write("COMET: loading the model…")
            sys.stderr.flush()
        try:
            scores = comet_scores(
                corpus,
                model=options["model"],
                python=options["python"],
                batch_size=options["batch_size"],
                progress=_progress_bar(sys.stderr) if terminal else None,
            )
        except CometRefused as refused:
            raise CommandError(str(refused)) from None
        finally:
            if terminal:
                sys.stderr.write("\n")
        text = segment_scores_tsv(scores)
        out: Path | None = options["out"]
        systems = f"{len(scores)} system{'s' * (len(scores) != 1)}"
        sentences = f"{corpus.n_sentences} sentence{'s' * (corpus.n_sentences != 1)}"
        if out is not None:
            out.write_text(text, encoding="utf-8")
            self.stdout.write(f"COMET of {systems} × {sentences} written to {out}.")
        elif metric is None:
            self.stdout.write(text, ending="")
        if metric is not None:
            try:
                external_metric_store(
                    corpus=corpus,
                    name=metric,
                    higher_is_better=True,
                    scores=scores,
                    description=f"COMET, model {options['model']}",
                    source=str(options["model"]),
                    replace=options["replace"],
                )
            except ScoresRefused as refused:
                raise CommandError(str(refused)) from None
            self.stdout.write(f"COMET of {systems} × {sentences} imported as {metric!r}.")


def _progress_bar(out: TextIO) -> Progress:
    """A one-line progress bar for terminals: the share of segments scored."""

    def show(done: int, total: int) -> None:
        share = done / total if total else 1.0
        filled = int(share * 30)
        out.write(
            f"\r\033[KCOMET: [{'#' * filled}{'.' * (30 - filled)}] {share:4.0%}  "
            f"{done:,} of {total:,} segments"
        )
        out.flush()

    return show
