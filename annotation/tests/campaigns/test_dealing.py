"""The dealing rules (:mod:`annotation.campaigns.dealing`), one by one, against the test
database: the held task first, never an item twice, quotas, the least dealt corpus
first, stale tasks given back, what is left of a task given back, touching and
finishing, and a deal's query count, the same on any corpus."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from annotation.campaigns.dealing import (
    deal_next,
    finish_task_if_done,
    task_items_left,
    touch_task,
)
from annotation.campaigns.drawing import draw_campaign_tasks
from annotation.campaigns.judges import corpus_discard_judgments
from annotation.dealt import task_targets
from annotation.models import Campaign, CampaignAnnotator, Corpus, Judgment, Task, User
from annotation.tests.campaigns.split import (
    corpus_of_documents,
    dealt,
    judge_items,
    leave_untouched,
    split_campaign,
)

pytestmark = pytest.mark.django_db

#: What a deal may cost, whatever the corpora: the stale tasks given back, the
#: annotator's row locked, their task held, their quota and tasks dealt, the batches they
#: saw, the corpora's shares dealt, the free tasks, the claim (and the savepoints).
MAX_QUERIES_DEAL = 12

Users = Callable[..., User]


def judged_through(task: Task, user: User) -> None:
    """``user`` judges every item left in ``task``, which is then finished."""
    judge_items(task, user, task_items_left(task))
    assert finish_task_if_done(task)


@pytest.fixture
def two_copies(user_factory: Users) -> tuple[Campaign, Corpus, list[User]]:
    """Two annotators per item: 3 documents of 5 sentences × 2 systems, batches of 10
    (one document each), three annotators."""
    users = [user_factory(f"ann{k}") for k in range(3)]
    campaign = split_campaign("two each", judges_per_item=2, batch_size=10)
    corpus = corpus_of_documents("c", [5, 5, 5], systems=2, campaign=campaign, judges=users)
    draw_campaign_tasks(campaign)
    return campaign, corpus, users


@pytest.fixture
def with_overlap(user_factory: Users) -> tuple[Campaign, Corpus, list[User]]:
    """One annotator per item, 20 % overlap: 4 batches of 10, four annotators."""
    users = [user_factory(f"ann{k}") for k in range(4)]
    campaign = split_campaign("overlap", judges_per_item=1, batch_size=10, overlap_percent=20)
    corpus = corpus_of_documents("c", [5] * 4, systems=2, campaign=campaign, judges=users)
    draw_campaign_tasks(campaign)
    return campaign, corpus, users


def test_an_annotator_gets_their_unfinished_task_again(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, *_) = two_copies
    first = dealt(ann, campaign)
    assert (first.assignee_id, first.order) == (ann.pk, 0)

    again = dealt(ann, campaign)
    assert again.pk == first.pk
    assert Task.objects.filter(assignee=ann).count() == 1


def test_an_annotator_never_gets_a_second_copy_of_a_batch_they_judged(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, other, _) = two_copies
    first = dealt(ann, campaign)
    judged_through(first, ann)

    second = deal_next(user=ann, campaign=campaign)
    for_other = deal_next(user=other, campaign=campaign)

    assert second is not None
    assert second.batch != first.batch  # copy 1 of the first batch is left for another
    assert for_other is not None
    assert (for_other.batch, for_other.copy) == (first.batch, 1)


def test_with_overlap_an_annotator_never_gets_a_neighbour_of_their_batch(
    with_overlap: tuple[Campaign, Corpus, list[User]],
) -> None:
    """The next batch's task carries this one's overlap items, this one carries the
    previous one's: either would show the annotator items they judged."""
    campaign, corpus, (ann, *_) = with_overlap
    orders = []
    while (task := deal_next(user=ann, campaign=campaign)) is not None:
        judged_through(task, ann)
        orders.append(task.order)

    assert orders == [0, 2]  # of 0 1 2 3 in a cycle: 1 and 3 are 0's neighbours, 3 is 2's
    judged = Judgment.objects.filter(evaluator=ann).values_list("target_id", flat=True)
    assert len(judged) == len(set(judged))


def test_a_task_with_judgments_of_theirs_is_not_dealt_to_them_again_once_given_back(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, other, third) = two_copies
    task = dealt(ann, campaign)
    done_before = list(task_items_left(task))[:3]
    judge_items(task, ann, done_before)
    leave_untouched(task, campaign)

    again = deal_next(user=ann, campaign=campaign)  # the stale task goes back first

    task.refresh_from_db()
    assert (task.assignee_id, task.returned) == (None, 1)
    assert again is not None
    assert again.batch != task.batch
    taken_over = dealt(other, campaign)
    assert taken_over.pk == task.pk
    left = set(task_items_left(taken_over))
    assert left == set(task_targets(task).values_list("pk", flat=True)) - set(done_before)
    assert len(left) == task.size - 3
    assert deal_next(user=third, campaign=campaign) is not None


def test_a_task_given_back_untouched_may_go_to_its_first_holder_again(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    """Nothing judged: nothing to judge twice."""
    campaign, _, (ann, *_) = two_copies
    task = dealt(ann, campaign)
    leave_untouched(task, campaign)

    again = dealt(ann, campaign)
    assert again.pk == task.pk
    assert Task.objects.get(pk=task.pk).returned == 1


def test_a_task_touched_within_the_timeout_stays_with_its_holder(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, other, _) = two_copies
    task = dealt(ann, campaign)
    nearly = timezone.now() - timedelta(hours=campaign.batch_timeout_hours, minutes=-5)
    Task.objects.filter(pk=task.pk).update(touched_at=nearly)

    deal_next(user=other, campaign=campaign)

    assert Task.objects.get(pk=task.pk).assignee_id == ann.pk


def test_touching_a_task_writes_at_most_once_a_minute(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, *_) = two_copies
    task = dealt(ann, campaign)

    with CaptureQueriesContext(connection) as soon:
        assert touch_task(task) is False  # dealt a moment ago
    task.touched_at = timezone.now() - timedelta(minutes=2)
    assert touch_task(task) is True
    assert touch_task(task) is False

    assert len(soon) == 0
    stored = Task.objects.get(pk=task.pk).touched_at
    assert stored is not None
    assert timezone.now() - stored < timedelta(minutes=1)


def test_touching_a_task_given_back_meanwhile_does_not_take_it_back(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, other, _) = two_copies
    task = dealt(ann, campaign)
    leave_untouched(task, campaign)
    deal_next(user=other, campaign=campaign)  # gives it back, then deals it to other
    stale_copy = Task.objects.get(pk=task.pk)
    stale_copy.assignee_id = ann.pk  # what ann's page read before
    stale_copy.touched_at = timezone.now() - timedelta(minutes=5)

    assert touch_task(stale_copy) is False
    assert Task.objects.get(pk=task.pk).assignee_id == other.pk


def test_a_task_is_finished_once_each_of_its_items_has_a_done_judgment_under_it(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, *_) = two_copies
    task = dealt(ann, campaign)
    items = list(task_items_left(task))
    judge_items(task, ann, items[:-1])
    last = items[-1]
    Judgment.objects.create(target_id=last, evaluator=ann, state=Judgment.State.DONE)

    assert finish_task_if_done(task) is False  # the last one is not under the task
    Judgment.objects.filter(target_id=last, evaluator=ann).update(task=task)
    assert finish_task_if_done(task) is True
    assert Task.objects.get(pk=task.pk).finished_at is not None
    nxt = dealt(ann, campaign)
    assert nxt.pk != task.pk


def test_a_pending_judgment_does_not_finish_a_task(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, *_) = two_copies
    task = dealt(ann, campaign)
    items = list(task_items_left(task))
    judge_items(task, ann, items)
    Judgment.objects.filter(target_id=items[0]).update(state=Judgment.State.PENDING)

    assert finish_task_if_done(task) is False
    assert list(task_items_left(task)) == [items[0]]


def test_the_campaign_quota_stops_the_deals_and_an_annotators_own_overrides_it(
    two_copies: tuple[Campaign, Corpus, list[User]],
) -> None:
    campaign, _, (ann, other, _) = two_copies
    Campaign.objects.filter(pk=campaign.pk).update(quota=1)
    campaign.refresh_from_db()
    CampaignAnnotator.objects.create(campaign=campaign, user=other, quota=2)

    got = {}
    for user in (ann, other):
        dealt = 0
        while (task := deal_next(user=user, campaign=campaign)) is not None:
            judged_through(task, user)
            dealt += 1
        got[user.username] = dealt

    assert got == {"ann0": 1, "ann1": 2}


def test_an_annotator_gets_nothing_of_a_corpus_they_do_not_judge_or_that_is_archived(
    two_copies: tuple[Campaign, Corpus, list[User]], user_factory: Users
) -> None:
    campaign, corpus, (ann, *_) = two_copies
    stranger = user_factory("stranger")

    assert deal_next(user=stranger, campaign=campaign) is None
    Corpus.objects.filter(pk=corpus.pk).update(archived=True)
    assert deal_next(user=ann, campaign=campaign) is None


def test_a_campaign_of_two_corpora_fills_them_evenly(user_factory: Users) -> None:
    users = [user_factory(f"ann{k}") for k in range(6)]
    campaign = split_campaign("two pairs", judges_per_item=1, batch_size=10, overlap_percent=0)
    de = corpus_of_documents("de-en", [5] * 6, systems=2, campaign=campaign, judges=users)
    fr = corpus_of_documents("fr-en", [5] * 3, systems=2, campaign=campaign, judges=users)
    draw_campaign_tasks(campaign)

    corpora = [deal_next(user=u, campaign=campaign) for u in users]

    shares = [t.corpus_id for t in corpora if t is not None]
    # the least dealt first (ties: the older corpus): de-en 1/6, fr-en 1/3, de-en 2/6,
    # 3/6, fr-en 2/3, de-en 4/6: both two thirds dealt
    assert shares == [de.pk, fr.pk, de.pk, de.pk, fr.pk, de.pk]


def test_a_deal_costs_the_same_queries_on_a_small_and_a_large_campaign(
    user_factory: Users,
) -> None:
    users = [user_factory(f"ann{k}") for k in range(3)]
    small = split_campaign("small", judges_per_item=1, batch_size=10, overlap_percent=10)
    corpus_of_documents("s", [5], systems=2, campaign=small, judges=users)
    large = split_campaign("large", judges_per_item=1, batch_size=40, overlap_percent=10)
    for name in ("l1", "l2", "l3"):
        corpus_of_documents(name, [20] * 15, systems=8, campaign=large, judges=users)
    draw_campaign_tasks(small)
    draw_campaign_tasks(large)
    for campaign in (small, large):  # a history: judged tasks, one given back with work in it
        task = deal_next(user=users[0], campaign=campaign)
        assert task is not None
        judged_through(task, users[0])
        task = deal_next(user=users[1], campaign=campaign)
        assert task is not None
        judge_items(task, users[1], list(task_items_left(task))[:1])
        leave_untouched(task, campaign)

    counts = []
    for campaign in (small, large):
        with CaptureQueriesContext(connection) as deal:
            assert deal_next(user=users[2], campaign=campaign) is not None
        counts.append(len(deal))

    print("COUNTS", counts, deal.captured_queries)
    assert counts[0] == counts[1] <= MAX_QUERIES_DEAL


def test_a_discarded_judges_batches_go_back_to_the_pool_to_be_judged_again(
    with_overlap: tuple[Campaign, Corpus, list[User]],
) -> None:
    """A lead discards a careless annotator's work: the batches it was made in, finished
    or not, are dealt again, so every item is still judged as often as the rules say."""
    campaign, corpus, (careless, other, *_) = with_overlap
    finished = dealt(careless, campaign)
    judged_through(finished, careless)
    held = dealt(careless, campaign)
    judge_items(held, careless, list(task_items_left(held))[:3])
    corpus.excluded_judges.add(careless)

    corpus_discard_judgments(corpus=corpus, judge=careless, typed="ann0")

    back = Task.objects.filter(pk__in=[finished.pk, held.pk])
    assert [(t.assignee_id, t.finished_at, t.returned) for t in back] == [(None, None, 1)] * 2
    assert {len(task_items_left(t)) for t in back} == {finished.size, held.size}
    assert dealt(other, campaign).pk in {finished.pk, held.pk}
