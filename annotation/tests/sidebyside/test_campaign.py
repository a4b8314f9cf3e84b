"""A campaign's side-by-side setting (issue 42, point 1; :mod:`annotation.sidebyside.
campaign`): set once on the campaign's page, it reaches every corpus of the campaign,
aWER with IER on too; a corpus's own setting overrides it, a corpus that joins later
follows it, and it is fixed once a queue was drawn under it. The page's form, and its
queries, which do not grow with the corpora."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.core.management import CommandError
from django.test import Client
from django.urls import reverse
from lxml import html as lxml_html

from annotation.campaigns.membership import campaign_create, corpus_move
from annotation.models import Campaign, Comparison, Corpus, User
from annotation.models.corpus import Protocol
from annotation.sidebyside.campaign import (
    ERR_STARTED,
    FOLLOWS,
    OWN,
    campaign_reach,
    campaign_side_by_side_set,
    side_by_side_of,
)
from annotation.sidebyside.queue import SideBySideRefused, next_comparison, side_by_side_set
from annotation.tests.factories import page_queries
from annotation.tests.sidebyside.corpora import corpus_in, settings_of, side_by_side_command

pytestmark = pytest.mark.django_db


def test_the_campaign_setting_reaches_every_corpus_it_can(wmt: Campaign) -> None:
    reached = campaign_side_by_side_set(campaign=wmt, per_screen=3, asks_preference=False)

    assert reached == 3
    assert settings_of(wmt) == {
        "awer": (3, False, True),
        "esa": (3, False, True),
        "mqm": (3, False, True),
    }
    wmt.refresh_from_db()
    assert (wmt.side_by_side_per_screen, wmt.side_by_side_asks_preference) == (3, False)


def test_a_corpus_s_own_setting_overrides_the_campaign_s(wmt: Campaign) -> None:
    esa, mqm = Corpus.objects.get(name="esa"), Corpus.objects.get(name="mqm")
    side_by_side_set(corpus=esa, per_screen=4, asks_preference=False)  # its own, before
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    side_by_side_set(corpus=mqm, per_screen=3)  # its own, after

    campaign_side_by_side_set(campaign=wmt, per_screen=4, asks_preference=True)

    assert settings_of(wmt) == {
        "awer": (4, True, True),
        "esa": (4, False, False),
        "mqm": (3, True, False),
    }
    corpora = Corpus.objects.filter(campaign=wmt).select_related("side_by_side").order_by("name")
    states = {r.corpus.name: r.state for r in campaign_reach(wmt, corpora)}
    assert states == {"awer": FOLLOWS, "esa": OWN, "mqm": OWN}


def test_a_corpus_added_later_follows_the_campaign_s_setting(
    wmt: Campaign, judge: User, judge_client: Client
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=3, asks_preference=False)
    elsewhere = campaign_create(name="elsewhere")
    later = corpus_in(elsewhere, "later", Protocol.ESA, judge)
    uploaded = corpus_in(wmt, "uploaded", Protocol.MQM, judge)  # joined without a hook

    corpus_move(corpus=later, campaign=wmt)

    home = lxml_html.fromstring(judge_client.get(reverse("annotation:home")).content)
    offered = {a.get("data-corpus") for a in home.cssselect('a[data-action="side-by-side"]')}
    assert offered == {"awer", "esa", "mqm", "later", "uploaded"}
    assert judge_client.get(f"/corpora/{later.pk}/side-by-side/").status_code == 302
    assert settings_of(wmt)["later"] == (3, False, True)
    setting = side_by_side_of(Corpus.objects.select_related("campaign").get(pk=uploaded.pk))
    assert setting is not None
    first = next_comparison(setting=setting, user=judge)
    assert first is not None
    assert len(first.targets) == 3
    assert first.picks_best


def test_the_campaign_setting_is_fixed_once_a_queue_was_drawn_under_it(
    wmt: Campaign, judge: User
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    esa = Corpus.objects.select_related("campaign").get(name="esa")
    drawn = side_by_side_of(esa)
    assert drawn is not None
    assert next_comparison(setting=drawn, user=judge) is not None

    with pytest.raises(SideBySideRefused) as refused:
        campaign_side_by_side_set(campaign=wmt, per_screen=3)
    with pytest.raises(SideBySideRefused):
        campaign_side_by_side_set(campaign=wmt, per_screen=2, asks_preference=False)

    assert str(refused.value) == ERR_STARTED.format(corpora="esa")
    assert settings_of(wmt) == {
        "awer": (2, True, True),
        "esa": (2, True, True),
        "mqm": (2, True, True),
    }
    assert campaign_side_by_side_set(campaign=wmt, per_screen=2) == 3  # unchanged: saved
    side_by_side_set(corpus=esa, per_screen=3)  # the corpus's own still changes
    campaign_side_by_side_set(campaign=wmt, per_screen=4)  # no longer follows: no refusal
    assert settings_of(wmt) == {
        "awer": (4, True, True),
        "esa": (3, True, False),
        "mqm": (4, True, True),
    }
    assert Comparison.objects.filter(setting=drawn).exists()


def test_an_awer_corpus_with_ier_follows_the_campaign_s_setting_too(
    wmt: Campaign, lead_client: Client
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2)

    corpora = Corpus.objects.filter(campaign=wmt).select_related("side_by_side").order_by("name")
    reach = {r.corpus.name: (r.state, r.reason) for r in campaign_reach(wmt, corpora)}
    page = lxml_html.fromstring(
        lead_client.get(reverse("campaigns:campaign", args=[wmt.pk])).content
    )

    assert reach == {"awer": (FOLLOWS, ""), "esa": (FOLLOWS, ""), "mqm": (FOLLOWS, "")}
    assert side_by_side_of(Corpus.objects.select_related("campaign").get(name="awer"))
    assert not page.cssselect('#campaign-sbs-corpora tr[data-sbs="left"]')


# --- the page's form ------------------------------------------------------------------


def test_a_lead_sets_side_by_side_on_the_campaign_page(wmt: Campaign, lead_client: Client) -> None:
    url = reverse("campaigns:campaign_side_by_side", args=[wmt.pk])

    response = lead_client.post(url, {"sbs-per_screen": "3", "sbs-asks_preference": "on"})

    assert response.status_code == 303
    assert response["Location"] == f"/campaigns/c/{wmt.pk}/#h-side-by-side"
    assert settings_of(wmt) == {
        "awer": (3, True, True),
        "esa": (3, True, True),
        "mqm": (3, True, True),
    }
    page = lxml_html.fromstring(lead_client.get(response["Location"]).content)
    assert page.cssselect("#campaign-side-by-side")[0].get("data-per-screen") == "3"
    assert page.cssselect("#id_sbs-per_screen option[selected]")[0].get("value") == "3"


@pytest.mark.parametrize("value", ["7", "1", "two", ""])
def test_a_bad_number_of_systems_is_refused_with_the_field_and_reason(
    wmt: Campaign, lead_client: Client, value: str
) -> None:
    url = reverse("campaigns:campaign_side_by_side", args=[wmt.pk])

    response = lead_client.post(url, {"sbs-per_screen": value})

    page = response.content.decode()
    assert response.status_code == 400
    assert '<li data-field="per_screen">' in page
    reason = "This field is required." if value == "" else "Select a valid choice."
    assert reason in page
    assert settings_of(wmt) == {}


def test_a_change_once_judging_started_is_refused_with_the_field_and_reason(
    wmt: Campaign, judge: User, lead_client: Client
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    mqm = side_by_side_of(Corpus.objects.select_related("campaign").get(name="mqm"))
    assert mqm is not None
    assert next_comparison(setting=mqm, user=judge) is not None
    url = reverse("campaigns:campaign_side_by_side", args=[wmt.pk])

    response = lead_client.post(url, {"sbs-per_screen": "4"})

    page = response.content.decode()
    assert response.status_code == 400
    assert '<li data-field="per_screen">' in page
    assert ERR_STARTED.format(corpora="mqm").replace("'", "&#x27;") in page
    assert settings_of(wmt)["mqm"] == (2, True, True)


def test_the_campaign_side_by_side_form_is_a_lead_s(
    wmt: Campaign, client: Client, judge: User
) -> None:
    url = reverse("campaigns:campaign_side_by_side", args=[wmt.pk])

    assert client.post(url, {"sbs-per_screen": "2"})["Location"].startswith("/accounts/login/")
    client.force_login(judge)
    assert client.post(url, {"sbs-per_screen": "2"}).status_code == 404
    assert settings_of(wmt) == {}


def test_the_campaign_page_s_queries_do_not_grow_with_its_corpora(
    lead_client: Client, user_factory: Callable[..., User]
) -> None:
    ana = user_factory("ana")
    campaign = campaign_create(name="WMT25")
    corpus_in(campaign, "first", Protocol.ESA, ana)
    campaign_side_by_side_set(campaign=campaign, per_screen=2)
    url = reverse("campaigns:campaign", args=[campaign.pk])
    few = page_queries(lead_client, url)
    own = corpus_in(campaign, "own", Protocol.MQM, ana)
    side_by_side_set(corpus=own, per_screen=3)
    corpus_in(campaign, "joined", Protocol.ESA_PREFILL, ana)  # follows, nothing stored yet
    corpus_in(campaign, "awer", Protocol.AWER, ana)  # follows too
    corpus_in(campaign, "ier", Protocol.AWER, ana, ier=True)

    many = page_queries(lead_client, url)

    assert many == few
    page = lxml_html.fromstring(lead_client.get(url).content)
    states = {
        tr.get("data-corpus"): tr.get("data-sbs")
        for tr in page.cssselect("#campaign-sbs-corpora tbody tr")
    }
    assert states == {
        "first": FOLLOWS,
        "own": OWN,
        "joined": FOLLOWS,
        "awer": FOLLOWS,
        "ier": FOLLOWS,
    }


# --- the command ----------------------------------------------------------------------


def test_the_command_sets_the_campaign_s_setting_and_prints_each_corpus(wmt: Campaign) -> None:
    printed = side_by_side_command("WMT25", "--per-screen", "3", "--no-preference")
    shown = json.loads(side_by_side_command("WMT25", "--json"))

    assert printed.splitlines() == [
        "WMT25: side by side, 3 systems a screen.",
        "awer: follows, 3 a screen",
        "esa: follows, 3 a screen",
        "mqm: follows, 3 a screen",
    ]
    assert settings_of(wmt)["esa"] == (3, False, True)
    assert (shown["per_screen"], shown["asks_preference"]) == (3, False)
    assert shown["corpora"]["awer"] == {
        "state": FOLLOWS,
        "per_screen": 3,
        "asks_preference": False,
        "reason": "",
    }


def test_the_command_refuses_what_the_page_refuses_naming_the_option(
    wmt: Campaign, judge: User
) -> None:
    with pytest.raises(CommandError, match=r"^--per-screen: Select a valid choice"):
        side_by_side_command("WMT25", "--per-screen", "5")
    with pytest.raises(CommandError, match=r"^--per-screen: This field is required"):
        side_by_side_command("WMT25", "--no-preference")  # nothing stored to keep
    side_by_side_command("WMT25", "--per-screen", "2")
    esa = side_by_side_of(Corpus.objects.select_related("campaign").get(name="esa"))
    assert esa is not None
    next_comparison(setting=esa, user=judge)
    with pytest.raises(CommandError) as refused:
        side_by_side_command("WMT25", "--no-preference")

    assert str(refused.value) == "--per-screen: " + ERR_STARTED.format(corpora="esa")
    assert settings_of(wmt)["esa"] == (2, True, True)
    with pytest.raises(CommandError, match="no campaign named 'nope'"):
        side_by_side_command("nope")
