"""Adaptive dealing costs the same number of queries on a small and a large corpus: a deal
within a round, a deal that draws the next round, the dashboard's weighted estimates
panel and the campaign page (first view, and a later one that reads its status back)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotation.campaigns.dealing import deal_next
from annotation.models import Campaign, Corpus, DealingRound, Task, User
from annotation.tests.adaptive.helpers import adaptive_corpus, judge_task
from annotation.tests.factories import page_queries
from annotation.tests.stored import automatic_statistics

pytestmark = pytest.mark.django_db


def deal_queries(user: User, campaign: Campaign) -> tuple[int, Task]:
    with CaptureQueriesContext(connection) as captured:
        task = deal_next(user=user, campaign=campaign)
    assert task is not None
    return len(captured), task


def costs(user_factory: Callable[..., User], name: str, documents: int, systems: int) -> dict:
    """A campaign of ``documents`` documents of 4 sentences dealt adaptively: the
    queries of a warm-up deal, of the deal that draws round 1, of one within round 1,
    and of the weighted estimates panel and the campaign page."""
    judge = user_factory(f"{name} judge")
    campaign, corpus = adaptive_corpus(
        name, [4] * documents, systems=systems, judges=[judge], warm_up_percent=40
    )
    automatic_statistics(corpus)
    found = {}
    warm = Task.objects.filter(corpus=corpus, round=0).count()
    for _ in range(warm):
        found["warm-up deal"], task = deal_queries(judge, campaign)
        judge_task(task, judge)
    found["deal drawing a round"], task = deal_queries(judge, campaign)
    assert DealingRound.objects.filter(corpus=corpus).count() >= 2
    judge_task(task, judge)
    if Task.objects.filter(corpus=corpus, round__gte=1, assignee__isnull=True).exists():
        found["deal within a round"], task = deal_queries(judge, campaign)
    found["campaign page"] = lead_views(corpus, "campaigns:corpus", [corpus.pk])
    found["panel"] = lead_views(corpus, "dashboard:panel", [corpus.pk, "adaptive"])
    return found


def lead_views(corpus: Corpus, name: str, args: list) -> tuple[int, int]:
    client = Client()
    client.force_login(User.objects.filter(role=User.Role.LEAD).get())
    url = reverse(name, args=args)
    return page_queries(client, url), page_queries(client, url)


def test_dealing_and_its_pages_cost_the_same_queries_on_a_small_and_a_large_corpus(
    lead: User, user_factory: Callable[..., User]
) -> None:
    small = costs(user_factory, "small", 16, 2)
    large = costs(user_factory, "large", 40, 6)

    assert "deal within a round" in small
    assert "deal within a round" in large
    assert small == large
