"""The campaign as one CSV file (``/campaigns/<id>/campaign.csv``, ``manage.py
export_campaign NAME``): what the campaign page shows, per judge and system, and each
judgment's times, for a spreadsheet or a script.

One file, one header, a ``kind`` column saying what a row is (so it opens in any
spreadsheet and filters in one click):

* ``judge-system`` rows, one per judge × system (judges as the campaign page lists
  them, systems in corpus order): ``done`` judgments of ``assigned`` candidates (the
  system's sentences for an assigned judge; empty for an evaluator who is not assigned,
  and in a campaign that deals its work in batches, where no judge is assigned a fixed
  share of a system: the campaign pages count their batches) and their
  ``active_seconds``;
* ``judgment`` rows, one per done judgment (the ones every figure counts: no control
  item), by judge, system and sentence: its ``sentence`` (1-based, as the pages number
  them), ``active_seconds``, and ``first_utc`` / ``last_utc``: the first and last of the
  judge's events on it (a judgment without events, an imported one, gives the times it
  was stored and last changed). Times are UTC, ISO 8601 (``2026-11-26T22:45:22Z``).

Streamed: the judgments are read with one query through a database cursor, and each row
is written as it comes, so neither the number of queries nor the memory grows with the
corpus. Text cells (judge and system names, from uploads) go through
:func:`~annotation.formatting.spreadsheet_safe`, as the metrics CSV's do.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime

from django.db.models import Max, Min

from annotation.campaigns.progress import campaign_of
from annotation.formatting import spreadsheet_safe
from annotation.models import Corpus, Judgment

COLUMNS = (
    "kind",
    "judge",
    "system",
    "sentence",
    "done",
    "assigned",
    "active_seconds",
    "first_utc",
    "last_utc",
)

#: Judgments fetched from the cursor at a time.
CHUNK = 2000


def utc_iso(moment: datetime | None) -> str:
    """ISO 8601 in UTC, to the second, with ``Z`` ("" for no time)."""
    if moment is None:
        return ""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _seconds(value: float) -> str:
    return f"{value:.1f}"


def judge_system_rows(corpus: Corpus) -> Iterator[list[str]]:
    """The ``judge-system`` rows (module doc). ``corpus`` is read with
    ``Corpus.objects.with_judges_progress()``, as the campaign page reads it."""
    campaign = campaign_of(corpus)
    dealt = corpus.campaign.splits_work
    for judge in campaign.judges:
        assigned = str(corpus.n_sentences) if judge.assigned and not dealt else ""
        seconds = judge.per_system_seconds or (0.0,) * len(judge.per_system)
        for (system, done), spent in zip(judge.per_system, seconds, strict=True):
            name, system_name = spreadsheet_safe(judge.username), spreadsheet_safe(system)
            yield [
                "judge-system",
                name,
                system_name,
                "",
                str(done),
                assigned,
                _seconds(spent),
                "",
                "",
            ]


def judgment_rows(corpus: Corpus) -> Iterator[list[str]]:
    """The ``judgment`` rows (module doc), one query read through a cursor."""
    rows = (
        Judgment.objects.counted()
        .of_corpus(corpus.pk)
        .order_by(
            "evaluator__username", "target__translator__position", "target__sentence__position"
        )
        .values_list(
            "pk",
            "evaluator__username",
            "target__translator__name",
            "target__sentence__position",
            "active_seconds",
            "created_at",
            "updated_at",
        )
        .annotate(first=Min("events__created_at"), last=Max("events__created_at"))
    )
    for _, judge, system, position, seconds, created, updated, first, last in rows.iterator(
        chunk_size=CHUNK
    ):
        yield [
            "judgment",
            spreadsheet_safe(judge),
            spreadsheet_safe(system),
            str(position + 1),
            "",
            "",
            _seconds(seconds),
            utc_iso(first or created),
            utc_iso(last or updated),
        ]


def campaign_csv(corpus: Corpus) -> Iterator[str]:
    """The file, a piece at a time: the header, the judge × system rows, the judgments."""
    yield from _lines([list(COLUMNS)])
    yield from _lines(judge_system_rows(corpus))
    yield from _lines(judgment_rows(corpus))


def _lines(rows: Iterable[list[str]]) -> Iterator[str]:
    """CSV text of ``rows``, about a hundred rows a piece (few, small writes)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for k, row in enumerate(rows, start=1):
        writer.writerow(row)
        if k % 100 == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    if out.tell():
        yield out.getvalue()
