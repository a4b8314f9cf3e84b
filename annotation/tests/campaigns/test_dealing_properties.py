"""The dealing rules as properties, with the real :func:`~annotation.campaigns.dealing.
deal_next` against the test database: over random corpora (documents, sizes, systems),
1–3 annotators per item, any overlap, pools of 1–8 annotators asking in a random order,
some giving their task back half done (left untouched past the timeout), everyone asks
until nothing is left for them. Then

* no annotator was ever dealt an item they had judged (nor judged one twice);
* every item is judged exactly as often as set (k; with k = 1, twice for the overlap's
  items) and every task is finished, wherever the annotators are enough to make that
  possible; where they are not, no item is judged more often than set;
* each batch's overlap is within one item of its share.

"Enough annotators": with k copies of a batch, the holders of the k - 1 others can't
take a copy; with k = 1 and overlap, a task's two neighbours in the dealing order carry
or hold its items, so three annotators are always enough (two where the corpus has two
tasks); and an annotator who gave a task back with work in it is barred from it and its
neighbours, one more each time. The pool is drawn first, and as many give-backs with
work in them are allowed as the pool has annotators beyond that need.

Each example runs in a transaction rolled back at its end."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import pytest
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from annotation.campaigns.batches import overlap_count
from annotation.campaigns.dealing import deal_next, finish_task_if_done, task_items_left
from annotation.campaigns.drawing import draw_campaign_tasks
from annotation.dealt import task_targets
from annotation.models import Campaign, Judgment, Task, User
from annotation.tests.campaigns.split import (
    corpus_of_documents,
    judge_items,
    leave_untouched,
    split_campaign,
    system_targets,
)

pytestmark = pytest.mark.django_db

#: A few dozen examples: each builds a corpus and deals it through, a second or less.
AGAINST_THE_DATABASE = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: Give-backs in one run at most, with or without work in them.
GIVE_BACKS_MAX = 4


@dataclass(frozen=True)
class Case:
    documents: list[int]
    systems: int
    batch_size: int
    k: int
    overlap: int
    annotators: int
    seed: int


cases = st.builds(
    Case,
    documents=st.lists(st.integers(1, 10), min_size=1, max_size=7),
    systems=st.integers(1, 4),
    batch_size=st.integers(10, 30),
    k=st.integers(1, 3),
    overlap=st.integers(0, 100),
    annotators=st.integers(1, 8),
    seed=st.integers(0, 2**32),
)


@dataclass
class Run:
    """What happened: each annotator's judged items, the give-backs with work in them."""

    judged: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    given_back_with_work: int = 0


def annotators_needed(tasks: list[Task], k: int) -> int:
    """Annotators always enough without give-backs (module doc)."""
    if k > 1:
        return k
    if any(t.extra for t in tasks):
        return min(3, len(tasks))
    return 1


def work_through(campaign: Campaign, users: list[User], rng: random.Random, spare: int) -> Run:
    """Everyone asks, in a random order, until nothing is left for anyone: a dealt task
    is judged through, or (now and then) partly and left untouched, while the pool has
    ``spare`` annotators for give-backs with work in them."""
    run, give_backs, asking = Run(), 0, list(users)
    while asking:
        user = rng.choice(asking)
        task = deal_next(user=user, campaign=campaign)
        if task is None:
            asking.remove(user)
            continue
        assert task.assignee_id == user.pk
        left = sorted(task_items_left(task))
        assert not run.judged[user.pk] & set(left), "dealt an item they judged"
        if left and give_backs < GIVE_BACKS_MAX and rng.random() < 0.3:
            part = rng.sample(
                left, rng.randrange(len(left)) if run.given_back_with_work < spare else 0
            )
            judge_items(task, user, part)
            run.judged[user.pk].update(part)
            run.given_back_with_work += bool(part)
            give_backs += 1
            leave_untouched(task, campaign)
            asking = list(users)  # the task is free again at the next deal
            continue
        judge_items(task, user, left)
        run.judged[user.pk].update(left)
        assert finish_task_if_done(task)
    return run


def check_overlap_shares(tasks: list[Task], k: int, overlap: int) -> None:
    """Each batch's overlap is its share, within one item (none with k > 1)."""
    overlap = overlap if k == 1 else 0
    carried = {t.extra_batch: len(t.extra) for t in tasks if t.extra}
    for t in tasks:
        if t.batch is not None and t.copy == 0:
            share = overlap / 100 * (t.size - len(t.extra))
            assert abs(carried.get(t.batch, 0) - round(share)) <= 1
            assert carried.get(t.batch, 0) == overlap_count(t.size - len(t.extra), overlap)


def dealt_through(case: Case) -> None:
    users = [User.objects.create_user(f"ann{n}") for n in range(case.annotators)]
    campaign = split_campaign(
        "property",
        judges_per_item=case.k,
        batch_size=case.batch_size,
        overlap_percent=case.overlap,
    )
    corpus = corpus_of_documents(
        "c", case.documents, systems=case.systems, campaign=campaign, judges=users
    )
    draw_campaign_tasks(campaign)
    tasks = list(Task.objects.filter(corpus=corpus))
    needed = annotators_needed(tasks, case.k)

    run = work_through(campaign, users, random.Random(case.seed), case.annotators - needed)

    judgments = Judgment.objects.filter(target__sentence__corpus=corpus)
    pairs = list(judgments.values_list("target_id", "evaluator_id"))
    assert len(pairs) == len(set(pairs)), "an annotator judged an item twice"
    times = Counter(target for target, _ in pairs)
    overlap_items = {pk for t in tasks for pk in t.extra}
    set_to = {pk: 2 if pk in overlap_items else case.k for pk in system_targets(corpus)}
    assert not overlap_items or (case.k == 1 and case.overlap > 0)
    assert sum(len(task_targets(t)) for t in tasks) == sum(set_to.values())
    if case.annotators >= needed:
        assert times == Counter(set_to)
        assert not Task.objects.filter(corpus=corpus, finished_at__isnull=True).exists()
    else:
        assert all(times[pk] <= n for pk, n in set_to.items())
    assert sum(len(items) for items in run.judged.values()) == len(pairs)
    check_overlap_shares(tasks, case.k, case.overlap)


@AGAINST_THE_DATABASE
@given(case=cases)
# Always among the examples: the cases the rules are for (overlap over several batches
# with give-backs, one batch and its overlap task, two and three annotators per item).
@example(case=Case([6, 3, 8, 2, 5], 3, 15, k=1, overlap=10, annotators=3, seed=1))
@example(case=Case([6, 3, 8, 2, 5], 3, 15, k=1, overlap=30, annotators=6, seed=2))
@example(case=Case([5], 2, 30, k=1, overlap=50, annotators=2, seed=3))
@example(case=Case([4, 4, 4, 4], 2, 10, k=2, overlap=0, annotators=4, seed=4))
@example(case=Case([7, 7, 7], 4, 20, k=3, overlap=20, annotators=5, seed=5))
def test_every_item_is_judged_as_often_as_set_and_never_twice_by_one_annotator(
    db: None, case: Case
) -> None:
    with transaction.atomic():
        dealt_through(case)
        transaction.set_rollback(True)
