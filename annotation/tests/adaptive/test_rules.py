"""Adaptive dealing on the campaign's rules page: off by default, turned on with a warm-up
and a confidence, refused where the work is not dealt in batches or the warm-up is out
of range (the field and its reason, nothing saved), and part of the batches' cut (fixed
once a batch is dealt)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from lxml import html

from annotation.campaigns.forms import ERR_ADAPTIVE_NEEDS_BATCHES
from annotation.models import Campaign, DealingRound, Task, User
from annotation.tests.campaigns.split import corpus_of_documents, dealt

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(user_factory: Callable[..., User]) -> Campaign:
    campaign = Campaign.objects.create(name="wmt")
    corpus_of_documents("de-en", [5] * 8, systems=2, campaign=campaign, judges=[user_factory()])
    return campaign


def post(client: Client, campaign: Campaign, **changed: Any) -> Any:
    data = {
        "judges_per_item": "1",
        "overlap_percent": "0",
        "batch_size": "10",
        "batch_timeout_hours": "24",
        "quota": "",
        **changed,
    }
    return client.post(reverse("campaigns:rules", args=[campaign.pk]), data)


def field_error(response: Any, name: str) -> str:
    page = html.fromstring(response.content)
    return " ".join(e.text_content() for e in page.cssselect(f'[data-error-for="{name}"]'))


def test_adaptive_dealing_is_off_by_default_and_the_page_offers_it(
    lead_client: Client, campaign: Campaign
) -> None:
    page = lead_client.get(reverse("campaigns:rules", args=[campaign.pk]))
    form = html.fromstring(page.content).get_element_by_id("rules-form")

    assert not campaign.adaptive
    assert campaign.warm_up_percent == 25
    assert campaign.confidence == 95
    assert form.cssselect("#id_adaptive")[0].get("checked") is None
    assert form.cssselect("#id_warm_up_percent")[0].get("value") == "25"


def test_the_lead_turns_it_on_and_the_warm_up_is_drawn(
    lead_client: Client, campaign: Campaign
) -> None:
    response = post(lead_client, campaign, adaptive="on", warm_up_percent="50", confidence="99")

    assert response.status_code == 303
    campaign.refresh_from_db()
    assert (campaign.adaptive, campaign.warm_up_percent, campaign.confidence) == (True, 50, 99)
    assert campaign.alpha == 0.01
    assert Task.objects.filter(round=0).count() == Task.objects.count() // 2
    assert DealingRound.objects.get().number == 0


@pytest.mark.parametrize(
    "changed, field, reason",
    [
        ({"judges_per_item": "", "adaptive": "on"}, "adaptive", ERR_ADAPTIVE_NEEDS_BATCHES),
        ({"adaptive": "on", "warm_up_percent": "2"}, "warm_up_percent", "greater than or equal"),
        ({"adaptive": "on", "warm_up_percent": "101"}, "warm_up_percent", "less than or equal"),
        ({"adaptive": "on", "confidence": "50"}, "confidence", "Select a valid choice"),
    ],
)
def test_rules_it_cannot_deal_by_are_refused_with_their_reason(
    lead_client: Client, campaign: Campaign, changed: dict[str, str], field: str, reason: str
) -> None:
    response = post(lead_client, campaign, **changed)

    assert response.status_code == 400
    assert reason in field_error(response, field)
    campaign.refresh_from_db()
    assert not campaign.adaptive
    assert not DealingRound.objects.exists()


def test_it_is_part_of_the_cut_so_fixed_once_a_batch_is_dealt(
    lead_client: Client, campaign: Campaign, user_factory: Callable[..., User]
) -> None:
    post(lead_client, campaign)
    campaign.refresh_from_db()
    dealt(campaign.corpora.get().judges.get(), campaign)

    response = post(lead_client, campaign, adaptive="on")

    assert response.status_code == 400
    campaign.refresh_from_db()
    assert not campaign.adaptive
