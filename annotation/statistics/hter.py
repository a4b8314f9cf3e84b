"""HTER's counts of the done judgments, filled after the judge's click, never on it.

HTER needs TER's shift search of the candidate against the judge's new reference
(:func:`metrics.human.hter_row`), far more work than everything else a click does. So a
click stores its new reference with aWER's counts and leaves HTER's empty
(:func:`annotation.text.new_ref_counts`), and they are filled here, for done judgments
only (the ones the figures read; a pending judgment changes again before it counts):

* by every worker, in the background (``manage.py worker``), so the backlog stays small;
* by whatever reads them, before it computes a figure (:func:`hter_counts_stored`, by
  :func:`~annotation.statistics.human.judgment_rows`): a figure never leaves out a
  judgment whose counts a worker has not filled yet.

Each count is written only while the judgment is still as it was read (its ``version``,
which every change moves, its new reference) and still lacks it (one conditional
UPDATE): a judgment changed meanwhile (a new reference, a word moved into its candidate)
never gets counts of what it no longer is; the next fill computes it again.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet

from annotation.models import Judgment
from annotation.text import hter_counts

#: Judgments filled per transaction: a worker's writes never hold the database for long.
BATCH = 200


def _missing() -> QuerySet[Judgment]:
    """Done judgments with a new reference (aWER's counts) and no HTER counts yet."""
    return Judgment.objects.filter(
        state=Judgment.State.DONE, edits__isnull=False, ter_edits__isnull=True
    )


def fill_hter_counts() -> int:
    """Compute and store the HTER counts of every done judgment that lacks them,
    :data:`BATCH` a transaction; how many were computed (a judgment changed meanwhile
    is left for the next fill)."""
    ids = list(_missing().order_by("pk").values_list("pk", flat=True))
    computed = 0
    for start in range(0, len(ids), BATCH):
        rows = _missing().filter(pk__in=ids[start : start + BATCH]).values_list("pk", "new_ref")
        computed += len(hter_counts_stored(dict(rows)))
    return computed


def hter_counts_stored(new_refs: dict[int, str]) -> dict[int, tuple[int, int]]:
    """The HTER counts of judgments ``pk → new reference``, :data:`BATCH` at a time (one
    query for their candidates, one transaction for their counts), each stored where the
    judgment is unchanged since that query, with that new reference and no counts; the
    counts of each, stored or not. Nothing is cached: each pair is searched once."""
    pks = list(new_refs)
    computed: dict[int, tuple[int, int]] = {}
    for start in range(0, len(pks), BATCH):
        rows = Judgment.objects.filter(pk__in=pks[start : start + BATCH]).values_list(
            "pk", "version", "control", "shown_text", "target__text"
        )
        version_of = {}
        for pk, version, control, shown_text, target_text in rows:
            candidate = shown_text if control == Judgment.Control.DEGRADED else target_text
            computed[pk] = hter_counts(candidate, new_refs[pk], cache=False)
            version_of[pk] = version
        with transaction.atomic():
            for pk, version in version_of.items():
                edits, length = computed[pk]
                unchanged = _missing().filter(pk=pk, version=version, new_ref=new_refs[pk])
                unchanged.update(ter_edits=edits, ter_length=length)
    return computed


def missing_hter_counts() -> int:
    """How many done judgments lack their HTER counts (one query)."""
    return _missing().count()
