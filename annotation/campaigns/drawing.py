"""Drawing a corpus's tasks: the batches :mod:`annotation.campaigns.batches` plans,
written as :class:`~annotation.models.Task` rows, before any is dealt.

A draw replaces the corpus's tasks whole, so it is allowed only while none of them was
dealt: a dealt task has an annotator's judgments under it, and a new cut would give its
items other batches (an annotator could then be dealt an item they judged). Once
dealing has started in a corpus, the rules that shape its batches are fixed; the
timeout and the quotas are not (:mod:`annotation.campaigns.rules`).

The cost does not grow with the corpus: one read of its candidates, one delete, one
insert of every task (:class:`~annotation.rows.RowWriter`: one statement, where
``bulk_create`` would take one per 60-odd rows on SQLite), a few checks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from django.db import transaction
from django.db.models import Exists, OuterRef

from annotation.adaptive.rounds import record_warm_up, task_round, warm_up_batches
from annotation.campaigns.batches import PlannedTask, SentenceSize, plan_tasks
from annotation.jobs import Job, Progress, enqueue, handler
from annotation.models import Campaign, Corpus, Target, Task, Translator, User
from annotation.rows import RowWriter

ERR_DEALING_STARTED = (
    "{corpus}: {dealt} of its batches {were} dealt already, so its batches can no longer "
    "be drawn again (annotators per item, overlap and batch size stay as they are; the "
    "timeout and the quotas can still change)"
)

#: The columns a drawn task is written with (the others: NULL, the defaults below).
TASK_COLUMNS = (
    "corpus",
    "batch",
    "start",
    "end",
    "copy",
    "order",
    "extra_batch",
    "extra",
    "size",
    "returned",
    "round",
    "probability",
)


#: The kind of job that draws a campaign's batches (:func:`queue_draw`).
DRAWING = "draw-batches"


class DrawRefused(ValueError):
    """The tasks cannot be drawn again (the reason is the message, for the lead)."""


def draw_tasks(corpus: Corpus) -> int:
    """Draw the tasks of ``corpus`` under its campaign's rules, replacing any drawn
    before (none where the campaign does not split the work); the number of tasks.

    Refused (:class:`DrawRefused`) once a task of the corpus was dealt. The check is
    the delete itself (only tasks never dealt are deleted, then any left means dealing
    started), so a task dealt at the same moment is never deleted under its holder."""
    campaign = corpus.campaign
    with transaction.atomic():
        clear_undealt_tasks(corpus)
        if campaign.judges_per_item is None:
            return 0
        sentences, ids = corpus_items(corpus)
        planned = plan_tasks(
            sentences,
            batch_size=campaign.batch_size,
            judges_per_item=campaign.judges_per_item,
            overlap_percent=campaign.overlap_percent,
            seed=corpus.name,
        )
        warm_up: tuple[set[int], float] = (set(), 1.0)
        if campaign.adaptive:
            warm_up = warm_up_batches(planned, campaign.warm_up_percent)
            record_warm_up(corpus, planned, campaign.warm_up_percent)
        RowWriter(Task, TASK_COLUMNS).insert(
            _row(corpus, task, ids, warm_up if campaign.adaptive else None) for task in planned
        )
    return len(planned)


def clear_undealt_tasks(corpus: Corpus) -> None:
    """Delete the tasks of ``corpus`` (none may have been dealt: else refused with
    :class:`DrawRefused`, in the caller's transaction, which rolls back). The check is
    the delete itself (only tasks never dealt are deleted, then any left means dealing
    started), so a task dealt at the same moment is never deleted under its holder."""
    Task.objects.filter(corpus_id=corpus.pk, assigned_at__isnull=True)._raw_delete(
        Task.objects.db  # no judgment hangs under a task never dealt: no cascade to run
    )
    dealt = Task.objects.filter(corpus_id=corpus.pk).count()
    if dealt:
        raise DrawRefused(
            ERR_DEALING_STARTED.format(
                corpus=corpus.name, dealt=dealt, were="was" if dealt == 1 else "were"
            )
        )


def queue_draw(campaign: Campaign, *, requested_by: User | None = None) -> Job:
    """A worker's job drawing the tasks of every corpus of ``campaign`` that has none
    while its work is split (:func:`draw_undrawn`): 15 corpora of 1,000 sentences × 20
    systems take 2 s on SQLite (``bench/campaign.py``), too long for a request. Until it
    has drawn a corpus, nothing of it is dealt (it has no task), so no annotator is dealt
    a batch of a cut about to be replaced."""
    return enqueue(
        DRAWING,
        f"{DRAWING}:{campaign.pk}",
        label=f"Drawing the batches of campaign {campaign.name}",
        payload={"campaign": campaign.pk},
        requested_by=requested_by,
        after_failure=True,
    )


@handler(DRAWING)
def _draw_job(job: Job, progress: Progress) -> None:
    campaign = Campaign.objects.filter(pk=job.payload["campaign"]).first()
    if campaign is not None:  # else deleted meanwhile: nothing to draw
        draw_undrawn(campaign, progress)


def draw_undrawn(
    campaign: Campaign, progress: Callable[[int, int, str], None] | None = None
) -> dict[str, int]:
    """Draw every corpus of ``campaign`` that has no task while its work is split, one
    corpus a transaction, reading the rules afresh for each: rules saved meanwhile
    (which clear the tasks they change) are drawn by the same job. The tasks drawn per
    corpus name."""
    drawn: dict[str, int] = {}
    while True:
        campaign.refresh_from_db()
        left = undrawn_corpora(campaign)
        if not left:
            return drawn
        corpus = left[0]
        corpus.campaign = campaign
        drawn[corpus.name] = draw_tasks(corpus)
        if progress is not None:
            progress(len(drawn), len(drawn) + len(left) - 1, "drawing batches")


def last_draw(campaign: Campaign) -> Job | None:
    """The latest job that drew (or draws) ``campaign``'s batches, for its pages."""
    key = f"{DRAWING}:{campaign.pk}"
    return Job.objects.filter(key=key).defer("upload", "result").order_by("-pk").first()


def undrawn_corpora(campaign: Campaign) -> list[Corpus]:
    """The corpora of ``campaign`` with no task drawn, where its work is split (none
    otherwise), by name."""
    if not campaign.splits_work:
        return []
    drawn = Task.objects.filter(corpus_id=OuterRef("pk"))
    corpora = Corpus.objects.filter(campaign_id=campaign.pk).filter(~Exists(drawn))
    return list(corpora.order_by("name"))


def draw_campaign_tasks(campaign: Campaign) -> dict[str, int]:
    """Draw the tasks of every corpus of ``campaign`` (:func:`draw_tasks`), all or none:
    the number of tasks per corpus name. Refused, and nothing drawn, if dealing started
    in any of them."""
    with transaction.atomic():
        corpora = list(Corpus.objects.filter(campaign_id=campaign.pk).order_by("name"))
        for corpus in corpora:
            corpus.campaign = campaign  # the rules as the caller has them, read once
        return {corpus.name: draw_tasks(corpus) for corpus in corpora}


def corpus_join_campaign(*, corpus: Corpus, campaign: Campaign) -> int:
    """Move ``corpus`` into ``campaign`` and draw its tasks under the campaign's rules
    (the number of tasks). Refused, and the corpus left where it was, if dealing started
    in it."""
    with transaction.atomic():
        corpus.campaign = campaign
        corpus.save(update_fields=["campaign"])
        return draw_tasks(corpus)


def corpus_items(corpus: Corpus) -> tuple[list[SentenceSize], dict[int, list[int]]]:
    """The corpus's sentences as planning reads them (those with candidates, in file
    order), and each one's candidate ids in the corpus's order of systems (what an
    :data:`~annotation.campaigns.batches.Item`'s index counts). One query."""
    rows = (
        Target.objects.filter(
            sentence__corpus_id=corpus.pk, translator__role=Translator.Role.SYSTEM
        )
        .order_by("sentence__position", "translator__position", "pk")
        .values_list("pk", "sentence__position", "sentence__doc", named=True)
    )
    ids: dict[int, list[int]] = defaultdict(list)
    docs: dict[int, str | None] = {}
    for row in rows:
        ids[row.sentence__position].append(row.pk)
        docs[row.sentence__position] = row.sentence__doc
    sentences = [SentenceSize(p, docs[p], len(ids[p])) for p in ids]
    return sentences, ids


def _row(
    corpus: Corpus,
    task: PlannedTask,
    ids: dict[int, list[int]],
    warm_up: tuple[set[int], float] | None,
) -> tuple[object, ...]:
    extra = [ids[position][k] for position, k in task.extra]
    drawn = (None, None) if warm_up is None else task_round(task, *warm_up)
    return (
        corpus.pk,
        task.batch,
        task.start,
        task.end,
        task.copy,
        task.order,
        task.extra_batch,
        extra,
        task.size,
        0,
        *drawn,
    )
