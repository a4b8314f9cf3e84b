"""Nothing a judge sees tells adaptive dealing from dealing in the random order: the same
batch, held by the same judge with the same history, gives the same page (its markup to
the byte, once the session's CSRF token and the new judgment's id are set aside), the
home page the same counts, whether a round drew it or the random order dealt it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotation.campaigns.dealing import deal_next
from annotation.campaigns.drawing import draw_campaign_tasks
from annotation.models import Campaign, Corpus, Judgment, Task, User
from annotation.tests.adaptive.helpers import adaptive_corpus, judge_task

pytestmark = pytest.mark.django_db

ASIDE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), "csrf"),
    (re.compile(r'"x-csrftoken": "[^"]+"'), "csrf"),
    (re.compile(r"/judgments/\d+/"), "/judgments/N/"),
    (re.compile(r'data-judgment="\d+"'), 'data-judgment="N"'),
]


def seen(client: Client, corpus: Corpus) -> tuple[str, str]:
    """The judge's page of their next item and their home page, as served."""
    page = client.get(reverse("annotation:judge_continue", args=[corpus.pk]), follow=True)
    home = client.get(reverse("annotation:home"))
    assert page.status_code == home.status_code == 200
    out = []
    for text in (page.content.decode(), home.content.decode()):
        for pattern, replacement in ASIDE:
            text = pattern.sub(replacement, text)
        out.append(text)
    return out[0], out[1]


def redraw(campaign: Campaign, *, adaptive: bool) -> None:
    """Start the campaign again under the other rule: no judgment, no task dealt."""
    Judgment.objects.all().delete()
    Task.objects.all().update(assignee=None, assigned_at=None, finished_at=None)
    Task.objects.all().delete()
    Campaign.objects.filter(pk=campaign.pk).update(adaptive=adaptive)
    campaign.refresh_from_db()
    draw_campaign_tasks(campaign)


def test_a_batch_drawn_by_a_round_looks_as_it_would_dealt_in_the_random_order(
    user_factory: Callable[..., User],
) -> None:
    judge = user_factory("ann")
    client = Client()
    client.force_login(judge)
    campaign, corpus = adaptive_corpus("unseen", [3] * 12, systems=3, judges=[judge])
    adaptive_pages, batches = [], []
    for _ in range(4):  # the warm-up's three batches, then one a round drew
        task = deal_next(user=judge, campaign=campaign)
        assert task is not None
        batches.append(task.batch)
        adaptive_pages.append(seen(client, corpus))
        judge_task(task, judge)
    assert Task.objects.get(corpus=corpus, batch=batches[-1], copy=0).round == 1

    redraw(campaign, adaptive=False)
    plain_pages = []
    for batch in batches:  # the same batches, held in the same order, without rounds
        Task.objects.filter(corpus=corpus, batch=batch).update(
            assignee=judge, assigned_at=timezone.now(), touched_at=timezone.now()
        )
        task = Task.objects.get(corpus=corpus, batch=batch)
        assert task.round is None
        plain_pages.append(seen(client, corpus))
        judge_task(task, judge)

    for adaptive, plain in zip(adaptive_pages, plain_pages, strict=True):
        assert adaptive[0] == plain[0]  # the judge's page
        assert adaptive[1] == plain[1]  # the home page
