"""A campaign judged side by side, in real Chromium (issue 42, point 1): the lead sets it
once on the campaign's page, and a judge of one of its corpora, which has no setting of
its own, is offered side by side on their home and gets a screen of the campaign's
number of systems; the lead turns either setting off, and a corpus back to the
campaign's, and the judge's home follows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from annotation.campaigns.membership import campaign_create
from annotation.models import Campaign, Comparison, Corpus, SideBySide, User
from annotation.models.corpus import Protocol
from annotation.sidebyside.campaign import campaign_side_by_side_set
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.factories import import_xml
from annotation.tests.sidebyside.corpora import three_systems_xml

pytestmark = pytest.mark.django_db(transaction=True)


def campaign_of_one_corpus(user_factory) -> tuple[User, Campaign, Corpus]:
    """Judge ana, lead lee, and campaign WMT25 of one ESA corpus "news" that ana judges."""
    ana = user_factory("ana", role=User.Role.JUDGE)
    user_factory("lee", role=User.Role.LEAD)
    wmt = campaign_create(name="WMT25")
    corpus = import_xml(three_systems_xml(n=3), "news", ana)
    Corpus.objects.filter(pk=corpus.pk).update(campaign=wmt, protocol=Protocol.ESA)
    return ana, wmt, corpus


def test_a_judge_of_a_campaign_judged_side_by_side_gets_a_side_by_side_screen(
    page: Page, other_page: Page, live_server, user_factory
) -> None:
    ana, wmt, corpus = campaign_of_one_corpus(user_factory)

    log_in(page, live_server.url, "lee")
    page.goto(f"{live_server.url}/campaigns/c/{wmt.pk}/")
    page.select_option("#id_sbs-per_screen", "3")
    page.click('button[data-action="campaign-side-by-side"]')
    page.wait_for_url(re.compile(rf"/campaigns/c/{wmt.pk}/#h-side-by-side$"))
    expect(page.locator('#campaign-sbs-corpora tr[data-corpus="news"]')).to_have_attribute(
        "data-sbs", "follows"
    )

    log_in(other_page, live_server.url, "ana")
    other_page.click('a[data-action="side-by-side"][data-corpus="news"]')
    other_page.wait_for_url(re.compile(r"/comparisons/\d+/$"))
    wait_for_htmx(other_page)

    for letter in "abc":
        expect(other_page.locator(f"#sbs-panel-{letter}")).to_be_visible()
    expect(other_page.locator("#sbs-panel-d")).to_have_count(0)
    expect(other_page.locator("#sbs-preference-label")).to_contain_text("Which is best?")
    setting = SideBySide.objects.get(corpus=corpus)
    assert (setting.per_screen, setting.from_campaign) == (3, True)
    assert Comparison.objects.filter(setting=setting, judge=ana).count() == 3


def test_a_lead_turns_side_by_side_off_and_a_corpus_back_to_the_campaign_s(
    page: Page, other_page: Page, live_server, user_factory
) -> None:
    _, wmt, corpus = campaign_of_one_corpus(user_factory)
    campaign_side_by_side_set(campaign=wmt, per_screen=2)
    side_by_side_link = other_page.locator('a[data-action="side-by-side"][data-corpus="news"]')
    log_in(other_page, live_server.url, "ana")
    expect(side_by_side_link).to_have_count(1)

    log_in(page, live_server.url, "lee")
    page.goto(f"{live_server.url}/corpora/{corpus.pk}/side-by-side/figures/")
    page.select_option("#sbs-per-screen", "off")
    page.click("#sbs-save-setting")
    expect(page.locator("#sbs-off")).to_be_visible()
    other_page.reload()
    expect(side_by_side_link).to_have_count(0)

    page.select_option("#sbs-per-screen", "campaign")
    page.click("#sbs-save-setting")
    expect(page.locator("#sbs-from-campaign")).to_contain_text("2 systems a screen")
    other_page.reload()
    expect(side_by_side_link).to_have_count(1)

    page.goto(f"{live_server.url}/campaigns/c/{wmt.pk}/")
    page.select_option("#id_sbs-per_screen", "off")
    page.click('button[data-action="campaign-side-by-side"]')
    page.wait_for_url(re.compile(rf"/campaigns/c/{wmt.pk}/#h-side-by-side$"))
    expect(page.locator('#campaign-sbs-corpora tr[data-corpus="news"]')).to_have_attribute(
        "data-sbs", "off"
    )
    other_page.reload()
    expect(side_by_side_link).to_have_count(0)
