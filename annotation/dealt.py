"""What a dealt batch holds and who holds which: its candidates, whether one is done for
its holder, the judge's batch of a corpus, and the order its holder takes its items in.

The reads the judge's queue, the control items and the campaign's dealing share, so
they sit under all three; the rules of dealing are :mod:`annotation.campaigns.dealing`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from annotation.models import COUNTED, Corpus, Judgment, Target, Task, Translator, User
from annotation.queue_order import shuffled_systems


def task_targets(task: Task) -> QuerySet[Target]:
    """The system candidates of ``task``: those of its sentences (file positions
    ``start`` to ``end``), and its ``extra`` overlap items. One query when read."""
    mine = Q(pk__in=task.extra) if task.extra else Q(pk__in=[])
    if task.batch is not None:
        mine |= Q(sentence__position__gte=task.start, sentence__position__lt=task.end)
    return Target.objects.filter(
        mine, sentence__corpus_id=task.corpus_id, translator__role=Translator.Role.SYSTEM
    )


def task_holds(task: Task, *, position: int, target_id: int) -> bool:
    """Whether the system candidate ``target_id`` of the sentence at file position
    ``position`` of ``task``'s corpus is one of ``task``'s: :func:`task_targets`' rule,
    for rows already read (the judge's page has its sentence's targets in hand)."""
    in_batch = task.batch is not None and task.start <= position < task.end
    return in_batch or target_id in task.extra


def done_for(task: Task, user_id: int) -> Q:
    """The judgments (a condition on :class:`~annotation.models.Judgment`) that make a
    candidate done for ``user_id`` working in ``task``: done real judgments made in the
    task, whoever made them (a batch given back keeps what its earlier holder did), or
    by the judge, in whatever batch (a candidate is never judged twice by one judge).
    Combined with the candidate it is of: a target row (the queue) or the task's
    candidates (its progress)."""
    return COUNTED & (Q(task_id=task.pk) | Q(evaluator_id=user_id))


def task_controls_done(task: Task) -> Q:
    """The control items done in ``task`` (a condition on judgments), whoever did them:
    the items of the batch's runs its progress counts besides its candidates."""
    return Q(task_id=task.pk, state=Judgment.State.DONE) & ~Q(control=Judgment.Control.NONE)


def current_task(*, user: User, corpus: Corpus) -> Task | None:
    """The batch of ``corpus`` that ``user`` holds and has not finished (a judge holds at
    most one per corpus), None where they hold none. One query."""
    return (
        Task.objects.filter(corpus_id=corpus.pk, assignee_id=user.pk, finished_at__isnull=True)
        .order_by("order")
        .first()
    )


def task_take_own_done(task: Task, user_id: int) -> int:
    """Put under ``task`` the done judgments its holder ``user_id`` made of its
    candidates outside any batch (before the campaign split the work, or imported): the
    queue skips what the judge has done (:func:`done_for`), and a batch is finished
    once every item of it has a done judgment under it
    (:func:`annotation.campaigns.dealing.finish_task_if_done`), so the two agree. How
    many; one UPDATE, made when the judge's batch has nothing left."""
    own = Q(evaluator_id=user_id, task__isnull=True, target__in=task_targets(task))
    return Judgment.objects.filter(COUNTED & own).update(task=task)


@dataclass(frozen=True)
class TaskItem:
    """A candidate of a judge's batch, in the judge's order (:func:`task_order`): its
    place among the batch's candidates of its sentence (``here``, 0-based, of
    ``systems``), whether it is ``done`` (:func:`done_for`)
    and whether the judge has a judgment of it (``mine``)."""

    target_id: int
    sentence_id: int
    here: int
    systems: int
    done: bool
    mine: bool

    @property
    def theirs(self) -> bool:
        """Done in the batch by another judge (its earlier holder): not the judge's item."""
        return self.done and not self.mine


@dataclass(frozen=True)
class TaskStep:
    """The judge's next candidate in the batch ``task``, with where it stands in it."""

    task: Task
    target: Target
    item: TaskItem


def task_order(*, user_id: int, task: Task) -> list[TaskItem]:
    """Every candidate of ``task`` in the order the judge ``user_id`` takes them: its
    sentences by queue position, each one's candidates of the batch in the judge's order
    (:func:`~annotation.queue_order.shuffled_systems`). One query of the batch's
    candidates (a batch holds about ``Campaign.batch_size`` of them, whatever the corpus's
    size), each marked done and mine by an index lookup of its judgments."""
    done = Judgment.objects.filter(done_for(task, user_id), target_id=OuterRef("pk"))
    mine = Judgment.objects.real().filter(evaluator_id=user_id, target_id=OuterRef("pk"))
    rows = (
        task_targets(task)
        .order_by()
        .annotate(done=Exists(done), mine=Exists(mine))
        .values_list(
            "pk",
            "sentence_id",
            "sentence__queue_position",
            "translator__position",
            "ordinal",
            "done",
            "mine",
            named=True,
        )
    )
    sentences: dict[int, list[Any]] = {}
    for row in rows:
        sentences.setdefault(row.sentence_id, []).append(row)
    out: list[TaskItem] = []
    for sentence_id, here in sorted(
        sentences.items(), key=lambda s: (s[1][0].sentence__queue_position or 0, s[0])
    ):
        ordered = shuffled_systems(
            here,
            user_id=user_id,
            sentence_id=sentence_id,
            place=lambda r: (r.translator__position, r.ordinal, r.pk),
        )
        out.extend(
            TaskItem(r.pk, sentence_id, k, len(ordered), r.done, r.mine)
            for k, r in enumerate(ordered)
        )
    return out
