"""Dealing a campaign's work in batches (issue 37): who gets which task, when a task goes
back to the pool, and when it is finished. The tasks themselves are drawn by
:mod:`annotation.campaigns.drawing` (their cut and order: :mod:`annotation.campaigns.
batches`).

An annotator who asks (:func:`deal_next`) gets, in this order:

1. the task they hold and have not finished (in any corpus of the campaign);
2. nothing, once the lead stopped the campaign's dealing (:func:`campaign_stop_dealing`:
   the pairs they care about are resolved), or once they were dealt their quota of tasks
   in the campaign (the lead's ``CampaignAnnotator.quota`` for them, else
   ``Campaign.quota``; None: no limit);
3. a free task of a corpus of the campaign they judge (``Corpus.judges``), from the
   corpus whose work is least dealt (the share of its candidates in dealt tasks: a
   campaign of several language pairs fills evenly), in dealing order within it; never
   one that would show them an item twice: not a task of a batch they hold or held
   (dealt to them, now or before, or with judgments of theirs under it), nor one
   carrying that batch's overlap items (``extra_batch``), nor one whose batch's overlap
   items a task of theirs carries.

A task untouched (:func:`touch_task`, which the judge's saves call) for the campaign's
``batch_timeout_hours`` goes back to the pool (``assignee`` None, ``returned`` + 1)
the next time anyone asks in that campaign (no timer to run). What was judged in it
stays (the judgments keep their ``task``); its next holder judges only what is left
(:func:`task_items_left`), and its first holder, who judged part of it, is never dealt
it again. A task is finished (:func:`finish_task_if_done`) once every one of its items
has a done judgment under it, whoever made it.

Two annotators asking at once never get the same task: the claim is a conditional
update (only a task still free is claimed), and on PostgreSQL the first free task is
read ``FOR UPDATE SKIP LOCKED``, so each deal claims one no other deal is claiming; an
annotator whose every free task is being claimed by other deals waits for them rather
than being told nothing is left. One
annotator asking twice at once (two tabs) is dealt once: the deal holds a lock on
their row until it is done (on SQLite, every write transaction holds the database).

The number of queries of a deal does not grow with the corpora or the campaign.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import timedelta

from django.db import OperationalError, transaction
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.utils import timezone

from annotation.adaptive.rounds import draw_next_round
from annotation.dealt import task_targets
from annotation.models import Campaign, CampaignAnnotator, Corpus, Judgment, Target, Task, User

#: A task is touched at most this often (a judge saves many times a minute; a task's
#: timeout is hours).
TOUCH_EVERY = timedelta(minutes=1)


#: How often a deal is started again when PostgreSQL ended it as a deadlock's victim.
DEAL_ATTEMPTS = 4
#: PostgreSQL's code for a transaction ended to break a deadlock.
DEADLOCK_DETECTED = "40P01"


def deal_next(*, user: User, campaign: Campaign) -> Task | None:
    """The task ``user`` works on next in ``campaign`` (module doc): the one they hold
    unfinished, else a free one claimed for them now; None when none is left for them
    (or their quota is reached). Stale tasks of the campaign go back to the pool first.

    Deals at once can deadlock on PostgreSQL (one drawing an adaptive round's tasks while
    another waits for a task it holds): the server ends one of them, which then deals
    again from the start, its work undone with its transaction."""
    release_stale_tasks(campaign)
    attempt = 1
    while True:
        try:
            return _deal(user, campaign)
        except OperationalError as exc:
            if attempt >= DEAL_ATTEMPTS or not _deadlocked(exc):
                raise
            attempt += 1


def _deadlocked(exc: OperationalError) -> bool:
    """Whether the database ended the transaction to break a deadlock."""
    return getattr(exc.__cause__, "sqlstate", None) == DEADLOCK_DETECTED


def _deal(user: User, campaign: Campaign) -> Task | None:
    """One attempt of :func:`deal_next`, in a transaction of its own."""
    with transaction.atomic():
        _lock_annotator(user)
        held = (
            Task.objects.filter(
                corpus__campaign_id=campaign.pk, assignee_id=user.pk, finished_at__isnull=True
            )
            .order_by("corpus_id", "order")
            .first()
        )
        if held is not None:
            return held
        if campaign.stopped_at is not None:
            return None
        quota = annotator_quota(user=user, campaign=campaign)
        if quota is not None and tasks_dealt(user=user, campaign=campaign) >= quota:
            return None
        return _claim_free_task(user, campaign)


def campaign_stop_dealing(campaign: Campaign, *, stopped: bool) -> None:
    """Stop dealing ``campaign``'s work (``stopped``; no new batch for anyone, a batch a
    judge holds can still be finished: nothing typed is lost), or deal it again. A second
    stop keeps the first one's time. One update."""
    if stopped:
        now = timezone.now()
        Campaign.objects.filter(pk=campaign.pk, stopped_at__isnull=True).update(stopped_at=now)
        campaign.stopped_at = campaign.stopped_at or now
    else:
        Campaign.objects.filter(pk=campaign.pk).update(stopped_at=None)
        campaign.stopped_at = None


def annotator_quota(*, user: User, campaign: Campaign) -> int | None:
    """The most tasks ``user`` is dealt in ``campaign``: their own quota where the lead
    set one, else the campaign's (None: no limit). One query."""
    own = (
        CampaignAnnotator.objects.filter(campaign_id=campaign.pk, user_id=user.pk)
        .values_list("quota", flat=True)
        .first()
    )
    return own if own is not None else campaign.quota


def tasks_dealt(*, user: User, campaign: Campaign) -> int:
    """The tasks dealt to ``user`` in ``campaign`` that are still theirs (finished or
    not; one given back to the pool is no longer theirs): what a quota counts."""
    return Task.objects.filter(corpus__campaign_id=campaign.pk, assignee_id=user.pk).count()


def release_stale_tasks(campaign: Campaign) -> int:
    """Give back to the pool every unfinished task of ``campaign`` untouched for its
    ``batch_timeout_hours`` (how many). One update; a task released at the same moment
    by another deal is released once (the update re-checks its holder)."""
    cutoff = timezone.now() - timedelta(hours=campaign.batch_timeout_hours)
    untouched = Q(touched_at__lt=cutoff) | Q(touched_at__isnull=True, assigned_at__lt=cutoff)
    return (
        Task.objects.filter(untouched, corpus_id__in=_corpora_of(campaign))
        .filter(assignee__isnull=False, finished_at__isnull=True)
        .update(assignee=None, returned=F("returned") + 1)
    )


def tasks_back_to_pool(task_ids: Iterable[int]) -> int:
    """Give these tasks back to the pool, finished or not (how many): a lead discarded
    judgments made in them, so their items are to judge again. Their next holder judges
    what is left (:func:`task_items_left`); one update."""
    return Task.objects.filter(pk__in=list(task_ids)).update(
        assignee=None, finished_at=None, returned=F("returned") + 1
    )


def touch_task(task: Task) -> bool:
    """Record that ``task``'s holder is working on it (what keeps it theirs past the
    timeout): at most one write a minute, and none for a task no longer theirs (given
    back meanwhile) or finished. Whether it wrote."""
    now = timezone.now()
    if task.assignee_id is None or task.finished_at is not None:
        return False
    if task.touched_at is not None and now - task.touched_at < TOUCH_EVERY:
        return False
    written = Task.objects.filter(
        pk=task.pk, assignee_id=task.assignee_id, finished_at__isnull=True
    ).update(touched_at=now)
    if written:
        task.touched_at = now
    return bool(written)


def task_items_left(task: Task) -> QuerySet[Target, int]:
    """The ids of ``task``'s items (:func:`~annotation.dealt.task_targets`)
    without a done judgment under the task (by whoever held it): what its holder has
    left to judge. One query when read."""
    done = Judgment.objects.real().done().filter(task_id=task.pk, target_id=OuterRef("pk"))
    return task_targets(task).exclude(Exists(done)).values_list("pk", flat=True)


def finish_task_if_done(task: Task) -> bool:
    """Mark ``task`` finished once every item of it has a done judgment under it (the
    judge's saves call this after a judgment is done); whether it is finished. Two
    queries at most: what is left, and the mark."""
    if task.finished_at is not None:
        return True
    if task_items_left(task).exists():
        return False
    now = timezone.now()
    Task.objects.filter(pk=task.pk, finished_at__isnull=True).update(
        finished_at=now, touched_at=now
    )
    task.finished_at = task.touched_at = now
    return True


def _corpora_of(campaign: Campaign) -> QuerySet[Corpus, int]:
    return Corpus.all_objects.filter(campaign_id=campaign.pk).values_list("pk", flat=True)


def _lock_annotator(user: User) -> None:
    """Hold ``user``'s row until the deal is done, so that two deals for one annotator
    (two tabs asking at once) run one after the other: the second finds the first's task
    held. (On SQLite the write transaction already holds the whole database.)"""
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))


def _claim_free_task(user: User, campaign: Campaign) -> Task | None:
    """Claim the first free task ``user`` may be dealt (module doc, rule 3), or None."""
    ranked = _corpora_least_dealt_first(user, campaign)
    if not ranked:
        return None
    free = Task.objects.filter(
        corpus_id__in=ranked, assignee__isnull=True, finished_at__isnull=True
    )
    for corpus_id, batches in _batches_seen(user, campaign).items():
        free = free.exclude(corpus_id=corpus_id, batch__in=batches).exclude(
            corpus_id=corpus_id, extra_batch__in=batches
        )
    rank = Case(
        *(When(corpus_id=pk, then=Value(r)) for r, pk in enumerate(ranked)),
        output_field=IntegerField(),
    )
    if campaign.adaptive:  # only the batches a round drew (annotation.adaptive.rounds)
        free = free.filter(round__isnull=False)
    in_order = free.order_by(rank, "order")
    while True:
        task = _first_free(in_order)
        if task is None:
            if campaign.adaptive and _drew_a_round(ranked, campaign, in_order):
                continue
            return None
        now = timezone.now()
        claimed = Task.objects.filter(pk=task.pk, assignee__isnull=True).update(
            assignee_id=user.pk, assigned_at=now, touched_at=now
        )
        if claimed:
            task.assignee_id, task.assigned_at, task.touched_at = user.pk, now, now
            return task


def _drew_a_round(ranked: list[int], campaign: Campaign, waiting: QuerySet[Task]) -> bool:
    """With adaptive dealing, when no batch drawn so far is left for the judge: the next
    round of the first corpus (least dealt first) that has batches left to draw
    (:func:`annotation.adaptive.rounds.draw_next_round`); whether one now has work."""
    corpora = Corpus.objects.in_bulk(ranked)
    return any(draw_next_round(corpora[pk], campaign, waiting) for pk in ranked)


def _first_free(in_order: QuerySet[Task]) -> Task | None:
    """The first of these free tasks, locked for this deal: one no other deal is
    claiming (``SKIP LOCKED``), else, when every one is (the last tasks of a campaign,
    all asked for at once), the first once the deals claiming it are done, if it is
    still free then. Skipping alone would tell an annotator that nothing is left while
    a task another deal merely looked at stays free. (On SQLite the lock is the write
    transaction's, and the loop of :func:`_claim_free_task` re-checks the claim.)"""
    return (
        in_order.select_for_update(skip_locked=True).first() or in_order.select_for_update().first()
    )


def _batches_seen(user: User, campaign: Campaign) -> dict[int, set[int]]:
    """Per corpus of ``campaign``, the batches whose items ``user`` saw or may see: the
    batch and the overlap's batch of every task dealt to them (now or before) or with a
    judgment of theirs under it. One query."""
    theirs = Judgment.objects.filter(evaluator_id=user.pk, task__isnull=False).values("task_id")
    rows = (
        Task.objects.filter(Q(assignee_id=user.pk) | Q(pk__in=theirs))
        .filter(corpus__campaign_id=campaign.pk)
        .values_list("corpus_id", "batch", "extra_batch")
    )
    seen: dict[int, set[int]] = defaultdict(set)
    for corpus_id, batch, extra_batch in rows:
        seen[corpus_id].update(b for b in (batch, extra_batch) if b is not None)
    return seen


def _corpora_least_dealt_first(user: User, campaign: Campaign) -> list[int]:
    """The corpora of ``campaign`` that ``user`` judges with a free task left, the least
    dealt first (the share of their candidates in tasks dealt; ties: the older corpus).
    One query, a row per corpus."""
    rows = (
        Task.objects.filter(
            corpus__campaign_id=campaign.pk, corpus__judges=user, corpus__archived=False
        )
        .values("corpus_id")
        .annotate(
            total=Sum("size"),
            dealt=Sum("size", filter=Q(assignee__isnull=False), default=0),
            free=Count("pk", filter=Q(assignee__isnull=True, finished_at__isnull=True)),
        )
        .order_by()
    )
    open_corpora = [r for r in rows if r["free"]]
    open_corpora.sort(key=lambda r: (r["dealt"] / max(r["total"], 1), r["corpus_id"]))
    return [r["corpus_id"] for r in open_corpora]
