"""How far each annotator is in the batches of a campaign that splits the work
(``Campaign.splits_work``): the batches they hold and have finished, the items they
judged in batches, and what the batch they hold unfinished has left. What the campaign
page lists per annotator and a corpus's campaign page per judge.

Counted by the rule the corpora's progress follows
(:meth:`~annotation.models.CorpusQuerySet.with_judges_progress`): a finished batch's items
are all done (its size: that is when a batch is finished), and only the judgments made
under batches still open, or given back once, are counted one by one, through the
judgment's task index. A finished batch never given back was judged by its holder
alone (a batch is judged by whoever holds it), so its size counts for them; the
judgments under one given back count for whoever made them. However many batches were
judged, the campaign page reads it in two queries (:func:`annotator_batches`: the
batches grouped by holder, and those judgments grouped by judge and holder), a
corpus's campaign page with its judges' row (:func:`judge_batch_annotations`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import BooleanField, Count, ExpressionWrapper, OuterRef, Q, QuerySet, Sum

from annotation.models import COUNTED, AmongIds, Judgment, Task, scalar_total


@dataclass(frozen=True)
class AnnotatorBatches:
    """One annotator's batches: ``held`` (dealt to them and still theirs, finished or
    not), ``finished``, the ``items_done`` they judged in batches, and ``left``: the
    items the batch they hold unfinished has left (None: they hold none)."""

    held: int = 0
    finished: int = 0
    items_done: int = 0
    left: int | None = None


_FINISHED = Q(finished_at__isnull=False)
_OPEN = Q(finished_at__isnull=True)


def annotator_batches(tasks: QuerySet[Task]) -> dict[int, AnnotatorBatches]:
    """:class:`AnnotatorBatches` of everyone who holds one of ``tasks`` or judged under
    one (a campaign's), by user id (module doc: two queries)."""
    held = (
        tasks.filter(assignee__isnull=False)
        .values("assignee_id")
        .annotate(
            held=Count("pk"),
            finished=Count("pk", filter=_FINISHED),
            open=Count("pk", filter=_OPEN),
            open_size=Sum("size", filter=_OPEN, default=0),
            sole_size=Sum("size", filter=_FINISHED & Q(returned=0), default=0),
        )
        .order_by()
    )
    judged = (
        Judgment.objects.filter(COUNTED, AmongIds("task_id", _counted_apart(tasks).values("pk")))
        .values(
            "evaluator_id",
            "task__assignee_id",
            in_open=ExpressionWrapper(Q(task__finished_at__isnull=True), BooleanField()),
        )
        .annotate(n=Count("pk"))
        .order_by()
    )
    done: dict[int, int] = defaultdict(int)
    done_in_open: dict[int, int] = defaultdict(int)  # by the holder of the open batch
    for row in judged:
        done[row["evaluator_id"]] += row["n"]
        if row["in_open"] and row["task__assignee_id"] is not None:
            done_in_open[row["task__assignee_id"]] += row["n"]
    out = {user: AnnotatorBatches(items_done=n) for user, n in done.items()}
    for holder in held:
        user = holder["assignee_id"]
        out[user] = batches_of(holder, done_apart=done[user], done_in_open=done_in_open[user])
    return out


def judge_batch_annotations(corpus_id: int) -> dict[str, Any]:
    """Annotations of a query of users (``pk``, one row each) with the figures of
    :func:`batches_of` in corpus ``corpus_id``, by the module's rule: for a page that
    lists a corpus's judges in one query. Subqueries a judge: their batches' counts and
    sizes through the batches' holder index, the judgments under their open batch
    through its task index, and theirs among the corpus's batches counted one by one."""
    tasks = Task.objects.filter(corpus_id=corpus_id)
    theirs = tasks.filter(assignee_id=OuterRef("pk"))
    finished, open_ = theirs.filter(_FINISHED), theirs.filter(_OPEN)
    return {
        "held": scalar_total(theirs, "COUNT", "pk"),
        "finished": scalar_total(finished, "COUNT", "pk"),
        "open": scalar_total(open_, "COUNT", "pk"),
        "open_size": scalar_total(open_, "SUM", "size"),
        "sole_size": scalar_total(finished.filter(returned=0), "SUM", "size"),
        "done_in_open": scalar_total(
            Judgment.objects.filter(
                COUNTED,
                task__corpus_id=corpus_id,
                task__assignee_id=OuterRef("pk"),
                task__finished_at__isnull=True,
            ),
            "COUNT",
            "pk",
        ),
        "done_apart": scalar_total(
            Judgment.objects.filter(
                COUNTED,
                AmongIds("task_id", _counted_apart(tasks).values("pk")),
                evaluator_id=OuterRef("pk"),
            ),
            "COUNT",
            "pk",
        ),
    }


def batches_of(
    counts: Mapping[str, Any], *, done_apart: int, done_in_open: int
) -> AnnotatorBatches:
    """An annotator's :class:`AnnotatorBatches` from their batches' ``counts`` (``held``,
    ``finished``, ``open``, and the sizes of those open, ``open_size``, and of those
    finished and never given back, ``sole_size``), the judgments they made under batches
    open or given back (``done_apart``) and those under their open batch
    (``done_in_open``): the module's rule."""
    left = max(0, counts["open_size"] - done_in_open) if counts["open"] else None
    return AnnotatorBatches(
        held=counts["held"],
        finished=counts["finished"],
        items_done=counts["sole_size"] + done_apart,
        left=left,
    )


def _counted_apart(tasks: QuerySet[Task]) -> QuerySet[Task]:
    """Of ``tasks``, those whose judgments are counted one by one (module doc): open
    and dealt, or given back once."""
    return tasks.filter(Q(finished_at__isnull=True, assigned_at__isnull=False) | Q(returned__gt=0))
