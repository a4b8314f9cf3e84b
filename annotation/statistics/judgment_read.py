"""The judgments the dashboard's figures count, brought up to date instead of read again.

Every figure made of the judgments starts from all of them (:func:`~annotation.
statistics.human.judgment_rows`: 18,000 rows in a real campaign, the largest read of a
view after a judgment). One judge's click changes one of them. So each process keeps the
rows it read last (:data:`KEPT`: its memory only, a few corpora, under the texts stamp,
since a text changed changes what they are counted against), with the judgments stamp
they are as of, and a later view reads only the judgments changed since: those whose
``figures_stamp`` is above it (:func:`~annotation.changes.judgment_changing`, which the
judge's clicks call), whether they count now or no longer do, and puts each in its
place in the read's order (:data:`~annotation.statistics.human.ORDER`, which the sums of
every figure follow). The rows are then those a whole read gives, in the same order, to
the last bit (``annotation/tests/statistics/test_judgment_read.py``, over random writes;
``annotation/tests/test_changes.py``, after every write path).

Only a judge's click names the judgment it changed. Every other change of the judgments
(a deletion, which leaves no row to stamp; a judge left out or counted again; the admin;
an import) moves the corpus's ``judgments_reread_stamp`` with its judgments stamp
(:func:`~annotation.changes.judgments_changed`), and rows kept from before it are read
again whole. A reader that sees a judgments stamp sees every judgment stamped up to it:
a click moves the corpus's stamp first, holding its row until the click's transaction
ends, and stamps the judgment after (:mod:`annotation.changes`).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from dataclasses import dataclass

from django.db.models import BooleanField, ExpressionWrapper

from annotation.changes import Stamp
from annotation.models import COUNTED, Corpus, Judgment, JudgmentQuerySet, left_out
from annotation.statistics.human import (
    JudgmentRow,
    figures_read,
    read_rows,
    span_protocol_rows,
    with_hter_counts,
)
from annotation.statistics.memo import CACHE, Shelf

#: Each process's rows of a few corpora (about 10 MB each at real size: not shared, a
#: round trip would move them all), under the texts stamp.
KEPT = Shelf("judgment-rows", Stamp.TEXTS, 4)

#: A row's place in the read's order: the values of :data:`~annotation.statistics.human.
#: ORDER` (sentence, target's position in it, judge, primary key).
Place = tuple[int, int, int, int]
#: What the read's query adds to each row: the columns of :data:`Place` the row lacks.
_PLACE = ("target__position", "evaluator_id")


#: Each whole read's number in this process (:attr:`CountedJudgments.read`).
_READS = itertools.count(1)


@dataclass(frozen=True)
class Versions:
    """Which rows changed since a whole read: the read's number, unique in this process,
    and the latest ``figures_stamp`` read of each judge's and each system's rows after it
    (absent: none). Two views whose ``read`` and a judge's (or a system's) :meth:`of_judge`
    are equal have the same rows of that judge, to the bit (the rows seen are those of
    every change stamped up to the latest seen: changes are stamped in the order they
    are committed): a figure of one judge's rows alone can be kept under them (in this
    process: another numbers its reads apart)."""

    read: int
    judges: dict[str, int]
    systems: dict[str, int]

    def of_judge(self, name: str) -> tuple[int, int]:
        return self.read, self.judges.get(name, 0)

    def of_system(self, name: str) -> tuple[int, int]:
        return self.read, self.systems.get(name, 0)


@dataclass(frozen=True)
class CountedJudgments:
    """Every judgment the figures count, as :func:`~annotation.statistics.human.
    judgment_rows` reads them, in its order, and which of them changed since this
    process last read them all (:class:`Versions`)."""

    rows: list[JudgmentRow]
    versions: Versions


@dataclass(frozen=True)
class KeptRows:
    """The rows of the judgments the figures count as of judgments stamp ``stamp`` (at
    least: some may be newer), in the read's order, each with its :data:`Place`; HTER's
    counts filled (a corpus judged by error spans: its figures not yet); and their
    versions. Never changed once kept: a later state is a new one."""

    stamp: int
    rows: list[JudgmentRow]
    places: list[Place]
    place_of: dict[int, Place]
    versions: Versions


def counted_judgments(corpus: Corpus) -> CountedJudgments:
    """Every judgment the figures of ``corpus`` count, as :func:`~annotation.statistics.
    human.judgment_rows` reads them, in its order: one query, of the judgments changed
    since the rows this process kept (or of all of them, when it kept none or a change
    that named no judgment came since)."""
    key = KEPT.key(corpus)
    kept: KeptRows | None = CACHE.get(key)
    if kept is None or kept.stamp < corpus.judgments_reread_stamp:
        kept = _read_whole(corpus)
        CACHE.put(key, kept)
    elif kept.stamp < corpus.judgments_stamp:
        kept = _brought_up_to_date(corpus, kept)
        CACHE.put(key, kept)
    rows = list(kept.rows)
    if corpus.marks_spans:
        qs = Judgment.objects.in_figures(corpus.pk)
        rows = span_protocol_rows(corpus, rows, qs, whole=True)
    return CountedJudgments(rows, kept.versions)


def _read_whole(corpus: Corpus) -> KeptRows:
    qs = Judgment.objects.in_figures(corpus.pk)
    rows, extra = read_rows(qs, *_PLACE)
    places = [_place(r, p, e) for r, (p, e) in zip(rows, extra, strict=True)]
    if not corpus.marks_spans:
        rows = figures_read(corpus, rows, qs, whole=True)  # HTER's counts filled
    place_of = {place[-1]: place for place in places}
    versions = Versions(next(_READS), {}, {})
    return KeptRows(corpus.judgments_stamp, rows, places, place_of, versions)


def _brought_up_to_date(corpus: Corpus, kept: KeptRows) -> KeptRows:
    """``kept`` with the judgments stamped above its stamp read (one query, those that no
    longer count too) and each put in its place, or taken out."""
    counts = ExpressionWrapper(COUNTED & left_out(corpus.pk), output_field=BooleanField())
    changed = _stamped_above(corpus, kept.stamp)
    read, extra = read_rows(changed.annotate(counts=counts), *_PLACE, "counts", "figures_stamp")
    found = [r for r, (_, _, n, _) in zip(read, extra, strict=True) if n]
    places = [_place(r, p, e) for r, (p, e, n, _) in zip(read, extra, strict=True) if n]
    if not corpus.marks_spans:
        found = with_hter_counts(found)
    rows, order, place_of = list(kept.rows), list(kept.places), dict(kept.place_of)
    for r in read:  # each changed row leaves its place, and a counted one takes it again
        old = place_of.pop(r.pk or 0, None)
        if old is not None:
            at = bisect_left(order, old)
            del rows[at], order[at]
    for row, place in zip(found, places, strict=True):
        at = bisect_left(order, place)
        rows.insert(at, row)
        order.insert(at, place)
        place_of[place[-1]] = place
    was, judges, systems = kept.versions, dict(kept.versions.judges), dict(kept.versions.systems)
    for r, (_, _, _, stamp) in zip(read, extra, strict=True):  # the latest change seen
        judges[r.evaluator] = max(judges.get(r.evaluator, 0), stamp)
        systems[r.system] = max(systems.get(r.system, 0), stamp)
    versions = Versions(was.read, judges, systems)
    return KeptRows(corpus.judgments_stamp, rows, order, place_of, versions)


def _stamped_above(corpus: Corpus, stamp: int) -> JudgmentQuerySet:
    """The judgments of ``corpus`` whose ``figures_stamp`` is above ``stamp``, found by
    the index on (``figures_corpus``, ``figures_stamp``): the changed ones alone, whatever
    the number of the corpus's judgments or of other corpora's stamped above (their
    stamps are counted apart). By the corpus through the target, the planner would walk
    every candidate of the corpus for the few changed."""
    return Judgment.objects.filter(figures_corpus=corpus.pk, figures_stamp__gt=stamp)


def _place(row: JudgmentRow, position: int, judge: int) -> Place:
    return (row.segment, position, judge, row.pk or 0)
