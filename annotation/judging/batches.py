"""The judge's batch, where the corpus's campaign splits the work (``Campaign.
splits_work``): which of the judge's batches a page shows, how far the judge is in it,
and which of their batches of the corpus it is ("batch 3").

A judge works through one batch at a time (:class:`~annotation.models.Task`), so the
judge's header, the home page and the finished page count that batch's items, not the
corpus's: the batch's candidates done (:func:`annotation.dealt.done_for`:
in the batch by whoever held it, or by the judge), and while controls are on its
control items done, of the batch's items (:func:`annotation.controls.runs.
queue_progress`, the one rule every page reads). The counts are scalar subqueries
(:func:`batch_annotations`) that the header adds to its one query and the other pages
read for all the judge's batches they show in one query (:func:`judge_batches`): none
grows with the corpus.

A batch's number counts the judge's batches of the corpus dealt up to it (in the order
they were dealt: ``assigned_at``, then the dealing order). A batch given back to the
pool is no longer the judge's and has no number for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import models
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import Coalesce

from annotation.controls.api import ItemsProgress, queue_progress
from annotation.dealt import done_for, task_controls_done, task_targets
from annotation.models import Corpus, Judgment, Task, User, scalar

#: Earlier than any time a batch was finished.
_NEVER = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True)
class JudgeBatch:
    """The batch of a corpus a page shows a judge: the one they hold, else the one they
    finished last (``task``; None: none dealt to them yet), its ``number`` among theirs
    and the ``progress`` and active ``seconds`` of its items (None without a batch)."""

    task: Task | None
    number: int | None = None
    progress: ItemsProgress | None = None
    seconds: float = 0.0

    @property
    def open(self) -> bool:
        """Whether the judge has a batch to go on with (else: ask for the next one)."""
        return self.task is not None and self.task.finished_at is None


#: The names :func:`batch_annotations` gives its counts.
BATCH_COUNTS = ("n_done", "n_controls_done", "seconds", "number")


def batch_annotations(task: Task, *, user_id: int, controls: bool) -> dict[str, Any]:
    """The scalar subqueries of ``task``'s progress for its judge ``user_id``, to
    annotate any one row with (no outer reference): ``n_done`` (its candidates done),
    ``n_controls_done`` (its control items done, while ``controls`` are on), ``seconds``
    (the active time of those judgments: the pace) and ``number`` (the module's)."""
    done = done_for(task, user_id)
    candidates = task_targets(task)
    counted = done & Q(target__in=candidates)
    spent = counted | task_controls_done(task) if controls else counted
    return {
        "n_done": scalar(
            candidates.filter(Exists(Judgment.objects.filter(done, target_id=OuterRef("pk")))),
            "COUNT",
            "pk",
        ),
        "n_controls_done": (
            scalar(Judgment.objects.filter(task_controls_done(task)), "COUNT", "pk")
            if controls
            else Value(0)
        ),
        "seconds": Coalesce(
            scalar(Judgment.objects.filter(spent), "SUM", "active_seconds", models.FloatField()),
            Value(0.0),
            output_field=models.FloatField(),
        ),
        "number": _number(task, user_id),
    }


def _number(task: Task, user_id: int) -> Any:
    """``task``'s number among ``user_id``'s batches of its corpus, as a subquery: those
    dealt to them no later (a batch without a time of dealing, as a test makes, counts
    as dealt first, by its dealing order); None where it is not theirs."""
    if task.assignee_id != user_id:
        return Value(None, output_field=models.IntegerField())
    at = task.assigned_at
    up_to = Q(assigned_at__isnull=True, order__lte=task.order)
    if at is not None:
        up_to = (
            Q(assigned_at__isnull=True)
            | Q(assigned_at__lt=at)
            | Q(assigned_at=at, order__lte=task.order)
        )
    theirs = Task.objects.filter(up_to, corpus_id=task.corpus_id, assignee_id=user_id)
    return scalar(theirs, "COUNT", "pk")


def judge_batches(*, user: User, corpora: Iterable[Corpus]) -> dict[int, JudgeBatch]:
    """The :class:`JudgeBatch` of each of ``corpora`` whose campaign splits the work
    (read with the corpus: ``select_related("campaign")``), by corpus pk: two queries
    (the judge's batches of those corpora, and the counts of those shown), none where
    no campaign splits the work."""
    split = {c.pk: c for c in corpora if c.campaign.splits_work}
    if not split:
        return {}
    held: dict[int, list[Task]] = {pk: [] for pk in split}
    for held_task in Task.objects.filter(corpus_id__in=split, assignee_id=user.pk).order_by():
        held[held_task.corpus_id].append(held_task)
    shown = {pk: _shown(tasks) for pk, tasks in held.items()}
    counts = _counts([t for t in shown.values() if t is not None], user.pk, split)
    out = {}
    for pk, task in shown.items():
        if task is None:
            out[pk] = JudgeBatch(None)
            continue
        row = counts[task.pk]
        progress = queue_progress(
            split[pk], counted=row["n_done"], controls=row["n_controls_done"], task=task
        )
        out[pk] = JudgeBatch(task, row["number"], progress, row["seconds"])
    return out


def _shown(tasks: Sequence[Task]) -> Task | None:
    """Of a judge's batches of a corpus, the one a page shows: the one they hold
    unfinished, else the one they finished last."""
    unfinished = [t for t in tasks if t.finished_at is None]
    if unfinished:
        return min(unfinished, key=lambda t: t.order)
    return max(tasks, key=lambda t: (t.finished_at or _NEVER, t.order), default=None)


def _counts(
    tasks: Sequence[Task], user_id: int, corpora: dict[int, Corpus]
) -> dict[int, dict[str, Any]]:
    """:func:`batch_annotations` of each of ``tasks``, by pk, in one query (a union)."""
    if not tasks:
        return {}
    rows = [
        Task.objects.filter(pk=task.pk)
        .order_by()
        .annotate(
            **batch_annotations(
                task, user_id=user_id, controls=corpora[task.corpus_id].controls_enabled
            )
        )
        .values("pk", *BATCH_COUNTS)
        for task in tasks
    ]
    combined = rows[0].union(*rows[1:], all=True) if len(rows) > 1 else rows[0]
    return {row["pk"]: row for row in combined}
