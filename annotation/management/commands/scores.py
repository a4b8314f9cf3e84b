"""``manage.py scores NAME [--json]`` — every metric per system, through ``metrics/``, and
every metric a lead imported for the corpus (``manage.py import_scores``), under its name.

The automatic figures are the stored ones (read in a moment); when they are not stored
yet, the command waits for their scoring job with its progress on standard error (so
``--json`` stays clean), computing it itself if no worker takes it within seconds."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.formatting import number
from annotation.jobs import Job, wait_for
from annotation.management.lookup import corpus_named
from annotation.models import Corpus
from annotation.statistics import (
    AUTOMATIC_METRICS,
    HUMAN_METRICS,
    AutomaticStats,
    corpus_scores,
    external_metrics,
    judgment_rows,
    scores_json,
    sser_by_judge_json,
    statistics_or_job,
    stored_statistics,
)
from metrics.json_out import json_dumps


class Command(BaseCommand):
    help = (
        "Print every automatic metric, (where judged) every human one and every imported "
        "one per system."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        automatic = self.automatic(corpus)
        rows = judgment_rows(corpus)
        scores = corpus_scores(corpus, automatic, rows)
        if options["json"]:
            payload = scores_json(
                corpus.name,
                {
                    system: {m: score.as_json() for m, score in figures.items()}
                    for system, figures in scores.items()
                },
                annotators=sser_by_judge_json(rows, automatic.systems, automatic.n_segments),
            )
            self.stdout.write(json_dumps(payload))
            return
        columns = [
            m for m in (*AUTOMATIC_METRICS, *HUMAN_METRICS) if any(m in f for f in scores.values())
        ]
        # an imported metric is headed by its name as the lead gave it (xCOMET, not XCOMET)
        headings = [c.upper() for c in columns]
        for metric in external_metrics(corpus):
            columns.append(metric.name)
            headings.append(metric.name)
        widths = [max(7, len(h)) for h in headings]
        width = max([len("system"), *(len(s) for s in scores)])
        heads = (h.rjust(w) for h, w in zip(headings, widths, strict=True))
        self.stdout.write("  ".join(["system".ljust(width), *heads]))
        for system, figures in scores.items():
            cells = [
                number(figures[c].score if c in figures else None).rjust(w)
                for c, w in zip(columns, widths, strict=True)
            ]
            self.stdout.write("  ".join([system.ljust(width), *cells]))

    def automatic(self, corpus: Corpus) -> AutomaticStats:
        found = statistics_or_job(corpus)
        if not isinstance(found, Job):
            return found
        job = wait_for(found, out=self.stderr)
        if job.status == Job.Status.FAILED:
            raise CommandError(f"scoring {corpus.name} failed: {job.error}")
        stored = stored_statistics(corpus)
        if stored is None:
            raise CommandError(f"{corpus.name}'s texts changed while it was scored: run it again")
        return stored
