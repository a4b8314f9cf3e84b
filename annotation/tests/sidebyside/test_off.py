"""Turning side by side off, and a corpus following its campaign's setting again (issue
42, point 1; :mod:`annotation.sidebyside.campaign`): either setting, the campaign's and
a corpus's own, can be turned off at any time, never refused; what judges did side by
side (queues, preferences, judgments) is kept and its figures still shown; a corpus
gives its own setting up to follow the campaign's again. On the service, the pages
(the corpus's panel, the campaign's page, the judge's screens) and the command."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError
from django.test import Client
from django.urls import reverse
from lxml import html as lxml_html

from annotation.models import Campaign, Comparison, Corpus, SideBySide, User
from annotation.models.corpus import Protocol
from annotation.sidebyside.actions import comparison_accept, comparison_judgments
from annotation.sidebyside.campaign import (
    ERR_CHOICE,
    ERR_STARTED,
    FOLLOWS,
    OFF,
    OWN,
    campaign_reach,
    campaign_side_by_side_off,
    campaign_side_by_side_set,
    corpus_side_by_side_choose,
    side_by_side_of,
)
from annotation.sidebyside.queue import ERR_OFF, SideBySideRefused, next_comparison
from annotation.tests.factories import page_queries
from annotation.tests.sidebyside.corpora import corpus_in, settings_of, side_by_side_command

pytestmark = pytest.mark.django_db


def corpus(name: str) -> Corpus:
    return Corpus.objects.select_related("campaign").get(name=name)


def reach(campaign: Campaign) -> dict[str, tuple[str, int | None]]:
    """Each corpus's state and systems a screen, as the campaign's page shows them."""
    corpora = Corpus.objects.filter(campaign=campaign).select_related("side_by_side", "campaign")
    rows = campaign_reach(campaign, corpora.order_by("name"))
    return {r.corpus.name: (r.state, r.per_screen) for r in rows}


def offered(client: Client) -> set[str]:
    """The corpora the judge's home page offers side by side."""
    home = lxml_html.fromstring(client.get(reverse("annotation:home")).content)
    return {a.get("data-corpus") for a in home.cssselect('a[data-action="side-by-side"]')}


def judged_one_screen(name: str, judge: User) -> Comparison:
    """The judge's first screen of corpus ``name``, accepted with A preferred (each ESA
    candidate scored 70)."""
    setting = side_by_side_of(corpus(name))
    assert setting is not None
    first = next_comparison(setting=setting, user=judge)
    assert first is not None
    judgments = comparison_judgments(comparison=first, user=judge)
    scores = {j.pk: 70 for j in judgments} if setting.corpus.scores_esa else {}
    comparison_accept(comparison=first, user=judge, scores=scores, preference="a")
    return first


def test_the_campaign_s_setting_turned_off_keeps_what_was_judged_and_its_figures(
    wmt: Campaign,
    judge: User,
    judge_client: Client,
    lead: User,
) -> None:
    lead_client = Client()  # judge_client's is the test's one client
    lead_client.force_login(lead)
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    done = judged_one_screen("mqm", judge)
    assert offered(judge_client) == {"awer", "esa", "mqm"}

    followed = campaign_side_by_side_off(campaign=wmt)

    assert followed == 3
    wmt.refresh_from_db()
    assert wmt.side_by_side_per_screen is None
    assert reach(wmt)["esa"] == (OFF, None)
    assert reach(wmt)["mqm"] == (OFF, None)
    assert offered(judge_client) == set()
    assert Comparison.objects.filter(pk=done.pk, preference="a", state="done").exists()
    mqm = corpus("mqm")
    refused = judge_client.get(f"/corpora/{mqm.pk}/side-by-side/")
    assert refused.status_code == 409
    assert ERR_OFF in refused.content.decode()
    figures = lead_client.get(f"/corpora/{mqm.pk}/side-by-side/figures/")
    panel = lxml_html.fromstring(figures.content)
    assert panel.cssselect("#sbs-off")
    assert not panel.cssselect("#sbs-judge-link")
    assert [r.get("data-n") for r in panel.cssselect("#sbs-win-rates tr.sbs-rate")] == ["1"]


def test_a_screen_drawn_before_the_setting_went_off_is_not_shown(
    wmt: Campaign,
    judge: User,
    judge_client: Client,
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    setting = side_by_side_of(corpus("esa"))
    assert setting is not None
    pending = next_comparison(setting=setting, user=judge)
    assert pending is not None
    assert judge_client.get(f"/comparisons/{pending.pk}/").status_code == 200

    corpus_side_by_side_choose(corpus=corpus("esa"), choice="off")

    refused = judge_client.get(f"/comparisons/{pending.pk}/")
    assert refused.status_code == 409
    assert ERR_OFF in refused.content.decode()


def test_turned_on_again_with_the_values_queues_were_drawn_by_is_no_change(
    wmt: Campaign,
    judge: User,
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    judged_one_screen("esa", judge)
    campaign_side_by_side_off(campaign=wmt)

    with pytest.raises(SideBySideRefused) as refused:
        campaign_side_by_side_set(campaign=wmt, per_screen=3)
    assert str(refused.value) == ERR_STARTED.format(corpora="esa")

    assert campaign_side_by_side_set(campaign=wmt, per_screen=2) == 3
    assert reach(wmt) == {"awer": (FOLLOWS, 2), "esa": (FOLLOWS, 2), "mqm": (FOLLOWS, 2)}
    setting = side_by_side_of(corpus("esa"))
    assert setting is not None
    assert next_comparison(setting=setting, user=judge) is not None  # where it was
    assert setting.comparisons.filter(judge=judge, state="done").count() == 1


def test_a_corpus_s_own_setting_off_overrides_the_campaign_s(
    wmt: Campaign,
    judge_client: Client,
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2)

    corpus_side_by_side_choose(corpus=corpus("esa"), choice="off")
    campaign_side_by_side_set(campaign=wmt, per_screen=3)

    assert reach(wmt)["esa"] == (OWN, None)
    assert reach(wmt)["mqm"] == (FOLLOWS, 3)
    assert offered(judge_client) == {"awer", "mqm"}
    stored = SideBySide.objects.get(corpus__name="esa")
    assert (stored.off, stored.from_campaign) == (True, False)


def test_a_corpus_follows_the_campaign_s_setting_again(
    wmt: Campaign,
    judge_client: Client,
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2, asks_preference=False)
    corpus_side_by_side_choose(corpus=corpus("esa"), choice="4")
    corpus_side_by_side_choose(corpus=corpus("mqm"), choice="off")

    for name in ("esa", "mqm"):
        corpus_side_by_side_choose(corpus=corpus(name), choice="campaign")

    assert settings_of(wmt) == {
        "awer": (2, False, True),
        "esa": (2, False, True),
        "mqm": (2, False, True),
    }
    assert reach(wmt)["esa"] == reach(wmt)["mqm"] == (FOLLOWS, 2)
    assert offered(judge_client) == {"awer", "esa", "mqm"}
    campaign_side_by_side_set(campaign=wmt, per_screen=3)  # the campaign's changes reach it
    assert settings_of(wmt)["esa"] == (3, True, True)


def test_a_corpus_with_queues_drawn_follows_again_and_keeps_them(
    wmt: Campaign,
    judge: User,
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    corpus_side_by_side_choose(corpus=corpus("esa"), choice="3")
    done = judged_one_screen("esa", judge)
    assert len(done.targets) == 3

    followed = corpus_side_by_side_choose(corpus=corpus("esa"), choice="campaign")

    assert followed is not None
    assert (followed.pk, followed.per_screen, followed.from_campaign) == (
        done.setting_id,
        2,
        True,
    )
    assert Comparison.objects.filter(pk=done.pk, preference="a").exists()
    with pytest.raises(SideBySideRefused):  # its queues were drawn by other values
        campaign_side_by_side_set(campaign=wmt, per_screen=4)


def test_a_choice_that_is_none_of_them_is_refused_with_the_reason(
    wmt: Campaign,
    lead_client: Client,
) -> None:
    esa = corpus("esa")
    with pytest.raises(SideBySideRefused) as refused:
        corpus_side_by_side_choose(corpus=esa, choice="sometimes")
    assert str(refused.value) == ERR_CHOICE.format(value="sometimes")

    response = lead_client.post(f"/corpora/{esa.pk}/side-by-side/figures/", {"per_screen": "x"})

    assert response.status_code == 422
    assert ERR_CHOICE.format(value="x") in response.content.decode().replace("&#x27;", "'")
    assert not SideBySide.objects.filter(corpus=esa).exists()


def test_the_corpus_s_panel_turns_it_off_and_back_to_the_campaign_s(
    wmt: Campaign,
    lead_client: Client,
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=3)
    esa = corpus("esa")
    url = f"/corpora/{esa.pk}/side-by-side/figures/"

    def selected() -> str:
        page = lxml_html.fromstring(lead_client.get(url).content)
        return str(page.cssselect("#sbs-per-screen option[selected]")[0].get("value"))

    assert selected() == "campaign"
    assert lead_client.post(url, {"per_screen": "off"}).status_code == 303
    assert reach(wmt)["esa"] == (OWN, None)
    assert selected() == "off"
    assert lead_client.post(url, {"per_screen": "campaign"}).status_code == 303
    assert reach(wmt)["esa"] == (FOLLOWS, 3)
    assert selected() == "campaign"


def test_the_campaign_page_turns_the_campaign_s_setting_off(
    wmt: Campaign,
    lead_client: Client,
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=3)
    corpus_side_by_side_choose(corpus=corpus("mqm"), choice="off")
    url = reverse("campaigns:campaign_side_by_side", args=[wmt.pk])

    response = lead_client.post(url, {"sbs-per_screen": "off"})

    assert response.status_code == 303
    wmt.refresh_from_db()
    assert wmt.side_by_side_per_screen is None
    page = lxml_html.fromstring(lead_client.get(f"/campaigns/c/{wmt.pk}/").content)
    rows = {
        tr.get("data-corpus"): (tr.get("data-sbs"), tr.text_content())
        for tr in page.cssselect("#campaign-sbs-corpora tr[data-corpus]")
    }
    assert rows["esa"][0] == OFF
    assert rows["mqm"][0] == OWN
    assert "its own setting: off" in rows["mqm"][1]


def test_the_command_turns_either_setting_off_and_a_corpus_back_to_the_campaign_s(
    wmt: Campaign,
) -> None:
    side_by_side_command("WMT25", "--per-screen", "2")

    printed = side_by_side_command("WMT25", "--corpus", "esa", "--off")
    assert "esa: own, one at a time" in printed.splitlines()
    side_by_side_command("WMT25", "--corpus", "mqm", "--per-screen", "4")

    printed = side_by_side_command("WMT25", "--off")
    shown = json.loads(side_by_side_command("WMT25", "--json"))
    assert printed.splitlines()[0] == "WMT25: no side-by-side setting."
    assert shown["per_screen"] is None
    assert shown["corpora"]["esa"]["state"] == OWN
    assert shown["corpora"]["esa"]["per_screen"] is None
    assert shown["corpora"]["mqm"]["per_screen"] == 4

    side_by_side_command("WMT25", "--per-screen", "3")
    side_by_side_command("WMT25", "--corpus", "esa", "--follow-campaign")
    shown = json.loads(side_by_side_command("WMT25", "--json"))
    assert shown["corpora"]["esa"] == {
        "state": FOLLOWS,
        "per_screen": 3,
        "asks_preference": True,
        "reason": "",
    }


def test_the_command_refuses_what_does_not_go_together_naming_the_option(
    wmt: Campaign,
) -> None:
    with pytest.raises(CommandError, match=r"^--off: not with --per-screen"):
        side_by_side_command("WMT25", "--per-screen", "2", "--off")
    with pytest.raises(CommandError, match=r"^--follow-campaign: give the corpus"):
        side_by_side_command("WMT25", "--follow-campaign")
    with pytest.raises(CommandError, match=r"^--corpus: no corpus named 'nope' in 'WMT25'"):
        side_by_side_command("WMT25", "--corpus", "nope", "--off")
    with pytest.raises(CommandError, match=r"^--per-screen: A screen shows 2 to 4"):
        side_by_side_command("WMT25", "--corpus", "esa", "--per-screen", "5")
    assert not SideBySide.objects.filter(corpus__campaign=wmt).exists()


def test_the_judge_s_home_reads_each_corpus_s_setting_without_a_query_of_its_own(
    wmt: Campaign, judge: User, judge_client: Client
) -> None:
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    corpus_side_by_side_choose(corpus=corpus("esa"), choice="off")
    few = page_queries(judge_client, reverse("annotation:home"))
    for name, choice in (("own", "3"), ("own-off", "off"), ("follows", "campaign")):
        added = corpus_in(wmt, name, Protocol.ESA, judge)
        corpus_side_by_side_choose(corpus=added, choice=choice)

    many = page_queries(judge_client, reverse("annotation:home"))

    assert many == few
    assert offered(judge_client) == {"awer", "mqm", "own", "follows"}
