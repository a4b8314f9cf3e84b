"""The lead's page of a campaign's rules (``/campaigns/c/<id>/rules/``): who may see it,
saving rules that draw the batches, refusals with their field and reason (nothing
saved), the batches fixed once dealing started while the timeout and quotas still
change, and a query count that does not grow with the campaign."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from lxml import html

from annotation.campaigns.drawing import ERR_DEALING_STARTED
from annotation.jobs import run_queued_jobs
from annotation.models import Campaign, CampaignAnnotator, Corpus, Task, User
from annotation.tests.campaigns.split import corpus_of_documents, dealt, split_campaign

pytestmark = pytest.mark.django_db

#: The page's budget: session and user, the campaign, its annotators, their quotas, the
#: corpora with their tasks counted, the job drawing the batches.
MAX_QUERIES_RULES = 7

Users = Callable[..., User]


@pytest.fixture
def annotators(user_factory: Users) -> list[User]:
    return [user_factory(f"ann{k}") for k in range(3)]


@pytest.fixture
def campaign(annotators: list[User]) -> Campaign:
    """Two corpora, every annotator on every candidate (as a migrated corpus is)."""
    campaign = Campaign.objects.create(name="wmt")
    corpus_of_documents("de-en", [5] * 4, systems=2, campaign=campaign, judges=annotators)
    corpus_of_documents("fr-en", [5] * 2, systems=2, campaign=campaign, judges=annotators[:1])
    return campaign


def url(campaign: Campaign) -> str:
    return reverse("campaigns:rules", args=[campaign.pk])


def rules(**changed: Any) -> dict[str, Any]:
    """A valid post: one annotator per item, 20 % overlap, batches of 10."""
    return {
        "judges_per_item": "1",
        "overlap_percent": "20",
        "batch_size": "10",
        "batch_timeout_hours": "24",
        "quota": "",
        **changed,
    }


def refusals(response: Any) -> dict[str, str]:
    """The reasons the page gives, by field ("" for the form as a whole)."""
    tree = html.fromstring(response.content)
    return {
        li.get("data-field", ""): li.text_content()
        for li in tree.xpath("//*[@id='rules-errors']//li")
    }


def test_the_page_is_the_leads_only(client: Client, judge: User, campaign: Campaign) -> None:
    assert client.get(url(campaign)).status_code == 302  # to the login
    client.force_login(judge)
    assert client.get(url(campaign)).status_code == 404
    assert client.post(url(campaign), rules()).status_code == 404
    assert Campaign.objects.get(pk=campaign.pk).judges_per_item is None


def test_a_campaign_that_does_not_exist_is_not_found(lead_client: Client) -> None:
    assert lead_client.get(reverse("campaigns:rules", args=[999])).status_code == 404


def test_the_page_shows_the_rules_each_corpus_and_each_annotators_quota(
    lead_client: Client, campaign: Campaign, annotators: list[User]
) -> None:
    CampaignAnnotator.objects.create(campaign=campaign, user=annotators[1], quota=4)

    response = lead_client.get(url(campaign))

    assert response.status_code == 200
    tree = html.fromstring(response.content)
    assert tree.xpath("//*[@id='rules-corpora']/tbody/tr/@data-corpus") == ["de-en", "fr-en"]
    rows = tree.xpath("//*[@id='annotator-quotas']/tbody/tr")
    assert [r.get("data-annotator") for r in rows] == ["ann0", "ann1", "ann2"]
    assert [r.xpath(".//input/@value") for r in rows] == [[], ["4"], []]
    assert tree.xpath("//select[@name='judges_per_item']/option[@selected]/@value") == [""]
    for name in ("overlap_percent", "batch_size", "batch_timeout_hours", "quota"):
        assert tree.xpath(f"//*[@id='rules-form']//input[@name='{name}']")


def test_saving_split_rules_draws_the_batches_and_stores_the_quotas(
    lead_client: Client, campaign: Campaign, annotators: list[User]
) -> None:
    quota_of = {f"quota_{annotators[0].pk}": "2", f"quota_{annotators[2].pk}": ""}

    response = lead_client.post(url(campaign), rules(quota="5", **quota_of))

    assert response.status_code == 303
    assert response["Location"] == url(campaign)
    stored = Campaign.objects.get(pk=campaign.pk)
    assert (stored.judges_per_item, stored.overlap_percent, stored.batch_size) == (1, 20, 10)
    assert stored.quota == 5
    assert dict(
        CampaignAnnotator.objects.filter(campaign=campaign).values_list("user__username", "quota")
    ) == {"ann0": 2, "ann1": None, "ann2": None}
    drawn = {c.name: c.tasks.count() for c in Corpus.objects.filter(campaign=campaign)}
    assert drawn == {"de-en": 4, "fr-en": 2}


@pytest.mark.parametrize(
    "field, value, reason",
    [
        ("batch_size", "5", "greater than or equal to 10"),
        ("overlap_percent", "101", "less than or equal to 100"),
        ("judges_per_item", "4", "Select a valid choice"),
        ("batch_timeout_hours", "0", "greater than or equal to 1"),
        ("quota", "-1", "greater than or equal to 0"),
    ],
)
def test_a_refused_value_answers_400_with_its_field_and_reason_and_saves_nothing(
    lead_client: Client, campaign: Campaign, field: str, value: str, reason: str
) -> None:
    response = lead_client.post(url(campaign), rules(**{field: value}))

    assert response.status_code == 400
    assert reason in refusals(response)[field]
    assert Campaign.objects.get(pk=campaign.pk).judges_per_item is None
    assert not Task.objects.exists()


def test_an_annotators_negative_quota_is_refused(
    lead_client: Client, campaign: Campaign, annotators: list[User]
) -> None:
    field = f"quota_{annotators[1].pk}"

    response = lead_client.post(url(campaign), rules(**{field: "-3"}))

    assert response.status_code == 400
    assert "greater than or equal to 0" in refusals(response)[field]
    assert not CampaignAnnotator.objects.exists()


def test_once_dealing_started_the_batches_are_fixed_but_timeout_and_quotas_change(
    lead_client: Client, campaign: Campaign, annotators: list[User]
) -> None:
    assert lead_client.post(url(campaign), rules()).status_code == 303
    campaign.refresh_from_db()
    dealt(annotators[0], campaign)
    before = sorted(Task.objects.values_list("pk", "batch", "extra_batch"))

    refused = lead_client.post(url(campaign), rules(batch_size="20", batch_timeout_hours="48"))
    changed = lead_client.post(
        url(campaign), rules(batch_timeout_hours="48", **{f"quota_{annotators[1].pk}": "1"})
    )

    assert refused.status_code == 400
    reason = ERR_DEALING_STARTED.format(corpus="de-en", dealt=1, were="was")
    assert refusals(refused) == {"": reason}
    assert changed.status_code == 303
    stored = Campaign.objects.get(pk=campaign.pk)
    assert (stored.batch_size, stored.batch_timeout_hours) == (10, 48)
    assert CampaignAnnotator.objects.get(user=annotators[1]).quota == 1
    assert sorted(Task.objects.values_list("pk", "batch", "extra_batch")) == before


def test_back_to_everyone_on_everything_removes_the_batches_before_dealing(
    lead_client: Client, campaign: Campaign
) -> None:
    lead_client.post(url(campaign), rules())

    response = lead_client.post(url(campaign), rules(judges_per_item=""))

    assert response.status_code == 303
    assert Campaign.objects.get(pk=campaign.pk).judges_per_item is None
    assert not Task.objects.exists()


def page_queries(client: Client, campaign: Campaign) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url(campaign)).status_code == 200
    return len(captured)


def test_the_page_costs_the_same_queries_on_a_small_and_a_large_campaign(
    lead_client: Client, user_factory: Users
) -> None:
    small = split_campaign("small", batch_size=10)
    corpus_of_documents("s", [3], systems=2, campaign=small, judges=[user_factory("a")])
    large = split_campaign("large", batch_size=10)
    many = [user_factory(f"b{k}") for k in range(12)]
    for name in ("l1", "l2", "l3"):
        corpus_of_documents(name, [5] * 20, systems=4, campaign=large, judges=many)
    for campaign in (small, large):
        lead_client.post(url(campaign), rules())
    CampaignAnnotator.objects.filter(campaign=large, user=many[0]).update(quota=3)

    assert page_queries(lead_client, small) == page_queries(lead_client, large)
    assert page_queries(lead_client, large) <= MAX_QUERIES_RULES


def test_the_batches_are_drawn_by_a_worker_while_the_page_follows_it(
    lead_client: Client, campaign: Campaign, settings: Any
) -> None:
    """Drawing a WMT-size campaign takes seconds (bench/campaign.py): the request stores
    the rules and queues the draw; nothing is dealt until a worker has drawn it."""
    settings.TASKS = settings.QUEUED_TASKS

    response = lead_client.post(url(campaign), rules())

    assert response.status_code == 303
    assert not Task.objects.filter(corpus__campaign=campaign).exists()
    page = html.fromstring(lead_client.get(url(campaign)).content)
    (drawing,) = page.xpath("//*[@id='drawing']")
    assert drawing.get("data-status") == "queued"
    assert drawing.get("hx-trigger") == "every 2s"  # the line follows the job

    assert run_queued_jobs() == 1

    drawn = {c.name: c.tasks.count() for c in Corpus.objects.filter(campaign=campaign)}
    assert drawn == {"de-en": 4, "fr-en": 2}
    page = html.fromstring(lead_client.get(url(campaign)).content)
    (drawing,) = page.xpath("//*[@id='drawing']")
    assert drawing.get("data-status") == "done"
    assert drawing.get("hx-trigger") is None
