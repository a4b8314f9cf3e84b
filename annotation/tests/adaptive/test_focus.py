"""A lead chooses the pairs of systems they care about and stops the campaign once those
are resolved (issue 43, point 2): the campaign page lists the open pairs among those
and the judgments they need, the next rounds favour those only, and a stopped campaign
deals no new batch while the batches judges hold can still be finished."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from lxml import html

from annotation.campaigns.dealing import deal_next
from annotation.models import Campaign, Corpus, DealingRound, PairsOfInterest, User
from annotation.tests.adaptive.helpers import adaptive_corpus, judge_task
from annotation.tests.adaptive.test_estimates import judged_through
from annotation.tests.stored import automatic_statistics

pytestmark = pytest.mark.django_db


@pytest.fixture
def judges(user_factory: Callable[..., User]) -> list[User]:
    return [user_factory(f"judge{k}") for k in range(3)]


def dealt(judges: list[User], spread: float) -> tuple[Campaign, Corpus]:
    """3 systems ``spread`` SSER points apart over 24 batches of 4 sentences, 14 of them
    judged. At 0 every pair is open; at 0.2 system 1 – system 2 is open, the others
    resolved."""
    campaign, corpus = adaptive_corpus("focus", [4] * 24, systems=3, judges=judges)
    automatic_statistics(corpus)
    judged_through(campaign, judges, 14, spread=spread)
    return campaign, corpus


@pytest.fixture
def under_way(judges: list[User]) -> tuple[Campaign, Corpus]:
    return dealt(judges, 0.0)


def stop_section(client: Client, corpus: Corpus) -> html.HtmlElement:
    page = client.get(reverse("campaigns:corpus", args=[corpus.pk]))
    assert page.status_code == 200
    return html.fromstring(page.content).get_element_by_id("adaptive-stop")


def choose(client: Client, corpus: Corpus, *pairs: str) -> int:
    response = client.post(reverse("campaigns:pairs", args=[corpus.pk]), {"pair": list(pairs)})
    return response.status_code


def test_the_lead_chooses_pairs_and_the_page_lists_the_open_ones_among_them(
    lead_client: Client, under_way: tuple[Campaign, Corpus]
) -> None:
    _, corpus = under_way
    before = stop_section(lead_client, corpus)
    assert before.get("data-chosen") == "false"
    every_open = [li.get("data-pair") for li in before.cssselect("#adaptive-open li")]
    assert every_open == ["system 1|system 2", "system 1|system 3", "system 2|system 3"]

    assert choose(lead_client, corpus, "system 1|system 2") == 303

    section = stop_section(lead_client, corpus)
    assert section.get("data-chosen") == "true"
    assert section.get("data-of-interest") == "1"
    (li,) = section.cssselect("#adaptive-open li")
    assert li.get("data-pair") == "system 1|system 2"
    needed = int(li.get("data-sentences-needed"))
    # the judgments left are that pair's: its sentences, each judged on the 3 systems
    left = int(section.get("data-judgments-left"))
    batches_left = int(section.get("data-batches-left"))
    assert left == min(needed, batches_left * 4) * 3  # at most the sentences not drawn
    ticked = section.cssselect('#adaptive-pairs-form input[name="pair"][checked]')
    assert [box.get("value") for box in ticked] == ["system 1|system 2"]


def test_once_the_pairs_chosen_are_resolved_the_page_says_the_campaign_can_stop(
    lead_client: Client, judges: list[User]
) -> None:
    _, corpus = dealt(judges, 0.2)

    assert choose(lead_client, corpus, "system 1|system 3") == 303

    section = stop_section(lead_client, corpus)
    assert int(section.get("data-open")) >= 1  # system 1 – system 2 is still open …
    assert section.get("data-open-of-interest") == "0"  # … but not of interest
    assert section.get("data-judgments-left") == "0"
    assert "can stop" in section.get_element_by_id("adaptive-all-resolved").text_content()
    # ticking none is every pair again
    assert choose(lead_client, corpus) == 303
    assert not PairsOfInterest.objects.filter(corpus=corpus).exists()
    assert stop_section(lead_client, corpus).get("data-chosen") == "false"


def test_the_next_round_favours_only_the_open_pairs_the_lead_cares_about(
    lead_client: Client, judges: list[User], under_way: tuple[Campaign, Corpus]
) -> None:
    campaign, corpus = under_way
    assert choose(lead_client, corpus, "system 1|system 2", "system 1|system 3") == 303
    rounds = DealingRound.objects.filter(corpus=corpus).count()

    while DealingRound.objects.filter(corpus=corpus).count() == rounds:
        task = deal_next(user=judges[0], campaign=campaign)
        assert task is not None
        judge_task(task, judges[0])

    latest = DealingRound.objects.filter(corpus=corpus).order_by("number").last()
    assert latest is not None
    assert latest.open_pairs == [["system 1", "system 2"], ["system 1", "system 3"]]


@pytest.mark.parametrize("pair", ["system 1|system 9", "system 2|system 1", "system 1", "<script>"])
def test_a_pair_not_of_the_corpus_is_refused_with_the_field(
    lead_client: Client, under_way: tuple[Campaign, Corpus], pair: str
) -> None:
    _, corpus = under_way
    response = lead_client.post(reverse("campaigns:pairs", args=[corpus.pk]), {"pair": [pair]})

    assert response.status_code == 400
    form = html.fromstring(response.content).get_element_by_id("adaptive-pairs-form")
    assert "Select a valid choice" in form.text_content()
    assert not PairsOfInterest.objects.exists()


def test_pairs_are_for_a_corpus_dealt_adaptively_and_for_leads_only(
    client: Client, lead_client: Client, judges: list[User]
) -> None:
    _, plain = adaptive_corpus("plain", [4] * 4, systems=3, judges=judges, adaptive=False)
    assert choose(lead_client, plain, "system 1|system 2") == 404
    client.force_login(judges[0])
    assert choose(client, plain, "system 1|system 2") == 404


def test_a_stopped_campaign_deals_no_new_batch_but_a_held_one_can_be_finished(
    lead_client: Client, judges: list[User], under_way: tuple[Campaign, Corpus]
) -> None:
    campaign, corpus = under_way
    held = deal_next(user=judges[0], campaign=campaign)
    assert held is not None
    stop = reverse("campaigns:campaign_stop", args=[campaign.pk])

    response = lead_client.post(stop, {"stopped": "1", "corpus": str(corpus.pk)})

    assert response.status_code == 303
    assert response["Location"].endswith(f"/campaigns/{corpus.pk}/#adaptive-stop")
    campaign.refresh_from_db()
    assert campaign.stopped_at is not None
    assert deal_next(user=judges[0], campaign=campaign) == held  # theirs to finish
    assert deal_next(user=judges[1], campaign=campaign) is None  # nothing new
    section = stop_section(lead_client, corpus)
    assert section.get("data-stopped") == "true"
    assert section.cssselect('button[data-action="deal-again"]')

    assert lead_client.post(stop, {"stopped": "0"}).status_code == 303
    campaign.refresh_from_db()
    assert campaign.stopped_at is None
    assert deal_next(user=judges[1], campaign=campaign) is not None


@pytest.mark.parametrize(
    "data, reason",
    [({"stopped": "yes"}, "stopped: 'yes'"), ({"stopped": "1", "corpus": "0"}, "corpus")],
)
def test_a_bad_stop_is_refused_with_its_reason(
    lead_client: Client, under_way: tuple[Campaign, Corpus], data: dict[str, str], reason: str
) -> None:
    campaign, _ = under_way
    response = lead_client.post(reverse("campaigns:campaign_stop", args=[campaign.pk]), data)

    assert response.status_code == 400
    campaign.refresh_from_db()
    assert campaign.stopped_at is None
