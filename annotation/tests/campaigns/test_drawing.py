"""Drawing a corpus's tasks (:mod:`annotation.campaigns.drawing`): the rows are what the
plan says, a draw replaces the tasks until one is dealt and is refused after, a corpus
that joins a campaign that splits the work gets its tasks, and a draw costs the same
queries on any corpus."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.campaigns.drawing import (
    ERR_DEALING_STARTED,
    DrawRefused,
    corpus_join_campaign,
    draw_campaign_tasks,
    draw_tasks,
)
from annotation.dealt import task_targets
from annotation.models import Campaign, Corpus, Target, Task, User
from annotation.tests.campaigns.split import corpus_of_documents, dealt, split_campaign

pytestmark = pytest.mark.django_db

#: A draw's budget: the tasks never dealt deleted, those left counted, the candidates
#: read, the tasks written (one statement), and the savepoints.
MAX_QUERIES_DRAW = 6

Users = Callable[..., User]


def rows(corpus: Corpus) -> list[tuple[int | None, int, int, int, int, int | None, int]]:
    return list(
        Task.objects.filter(corpus=corpus)
        .order_by("order")
        .values_list("batch", "start", "end", "copy", "order", "extra_batch", "size")
    )


def test_the_tasks_drawn_are_the_batches_in_dealing_order_with_the_overlap_on_the_next() -> None:
    campaign = split_campaign("c", judges_per_item=1, batch_size=10, overlap_percent=20)
    corpus = corpus_of_documents("de-en", [5, 5, 5], systems=2, campaign=campaign)

    assert draw_tasks(corpus) == 3

    tasks = list(Task.objects.filter(corpus=corpus).order_by("order"))
    assert sorted((t.batch, t.start, t.end) for t in tasks) == [(0, 0, 5), (1, 5, 10), (2, 10, 15)]
    for previous, task in zip([tasks[-1], *tasks], tasks, strict=False):
        assert task.extra_batch == previous.batch
        assert len(task.extra) == task.size - 10 == 2
        borrowed = Target.objects.filter(pk__in=task.extra)
        assert all(previous.start <= t.sentence.position < previous.end for t in borrowed)
        assert task_targets(task).count() == 12


def test_two_annotators_per_item_give_two_tasks_a_batch_one_after_the_other() -> None:
    campaign = split_campaign("c", judges_per_item=2, batch_size=10, overlap_percent=20)
    corpus = corpus_of_documents("de-en", [5, 5, 5], systems=2, campaign=campaign)

    draw_tasks(corpus)

    drawn = rows(corpus)
    assert [(b, copy) for b, _, _, copy, *_ in drawn][::2] == [(b, 0) for b, *_ in drawn[::2]]
    assert [r[0] for r in drawn[::2]] == [r[0] for r in drawn[1::2]]
    assert {r[5] for r in drawn} == {None}  # no overlap: every item is judged twice


def test_a_campaign_where_everyone_judges_everything_has_no_tasks() -> None:
    campaign = split_campaign("c", judges_per_item=1, batch_size=10)
    corpus = corpus_of_documents("de-en", [5, 5], systems=2, campaign=campaign)
    draw_tasks(corpus)
    Campaign.objects.filter(pk=campaign.pk).update(judges_per_item=None)
    corpus.refresh_from_db()

    assert draw_tasks(corpus) == 0
    assert not Task.objects.filter(corpus=corpus).exists()


def test_the_tasks_are_drawn_again_under_new_rules_until_one_is_dealt(user_factory: Users) -> None:
    ann = user_factory("ann")
    campaign = split_campaign("c", judges_per_item=1, batch_size=10, overlap_percent=0)
    corpus = corpus_of_documents("de-en", [5] * 4, systems=2, campaign=campaign, judges=[ann])
    draw_campaign_tasks(campaign)
    Campaign.objects.filter(pk=campaign.pk).update(batch_size=20)
    campaign.refresh_from_db()

    assert draw_campaign_tasks(campaign) == {"de-en": 2}
    dealt(ann, campaign)
    before = rows(corpus)
    Campaign.objects.filter(pk=campaign.pk).update(batch_size=40)
    campaign.refresh_from_db()

    with pytest.raises(DrawRefused) as refused:
        draw_campaign_tasks(campaign)
    assert str(refused.value) == ERR_DEALING_STARTED.format(corpus="de-en", dealt=1, were="was")
    assert rows(corpus) == before


def test_a_refusal_in_one_corpus_draws_none_of_the_campaign(user_factory: Users) -> None:
    ann = user_factory("ann")
    campaign = split_campaign("c", judges_per_item=1, batch_size=10, overlap_percent=0)
    fresh = corpus_of_documents("a fresh pair", [5] * 4, systems=2, campaign=campaign)
    started = corpus_of_documents("b started", [5] * 4, systems=2, campaign=campaign)
    started.judges.add(ann)
    draw_campaign_tasks(campaign)
    dealt(ann, campaign)
    before = rows(fresh)
    Campaign.objects.filter(pk=campaign.pk).update(batch_size=20)
    campaign.refresh_from_db()

    with pytest.raises(DrawRefused, match="b started"):
        draw_campaign_tasks(campaign)
    assert rows(fresh) == before


def test_a_corpus_joining_a_campaign_that_splits_the_work_gets_its_tasks() -> None:
    corpus = corpus_of_documents("de-en", [5] * 3, systems=2)
    own = corpus.campaign
    campaign = split_campaign("wmt", judges_per_item=2, batch_size=10)

    assert corpus_join_campaign(corpus=corpus, campaign=campaign) == 6

    assert Corpus.objects.get(pk=corpus.pk).campaign_id == campaign.pk
    assert own.pk != campaign.pk
    assert Task.objects.filter(corpus=corpus).count() == 6


def test_a_corpus_with_work_dealt_stays_in_its_campaign(user_factory: Users) -> None:
    ann = user_factory("ann")
    first = split_campaign("first", judges_per_item=1, batch_size=10)
    corpus = corpus_of_documents("de-en", [5] * 3, systems=2, campaign=first, judges=[ann])
    draw_tasks(corpus)
    dealt(ann, first)

    with pytest.raises(DrawRefused):
        corpus_join_campaign(corpus=corpus, campaign=split_campaign("second"))
    assert Corpus.objects.get(pk=corpus.pk).campaign_id == first.pk


def draw_queries(corpus: Corpus) -> int:
    with CaptureQueriesContext(connection) as drawn:
        draw_tasks(corpus)
    return len(drawn)


def test_a_draw_costs_the_same_queries_on_a_small_and_a_large_corpus() -> None:
    small = corpus_of_documents(
        "small", [3], systems=2, campaign=split_campaign("s", judges_per_item=1, batch_size=10)
    )
    large = corpus_of_documents(
        "large",
        [10] * 30,
        systems=10,
        campaign=split_campaign("l", judges_per_item=1, batch_size=100),
    )
    small.campaign.refresh_from_db()
    large.campaign.refresh_from_db()

    at_small, at_large = draw_queries(small), draw_queries(large)

    assert Task.objects.filter(corpus=large).count() == 30
    assert at_small == at_large <= MAX_QUERIES_DRAW
    assert draw_queries(large) == at_large  # drawn again, replacing the 30
