"""A campaign judged side by side, in real Chromium (issue 42, point 1): the lead sets it
once on the campaign's page, and a judge of one of its corpora, which has no setting of
its own, is offered side by side on their home and gets a screen of the campaign's
number of systems."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from annotation.campaigns.membership import campaign_create
from annotation.models import Comparison, Corpus, SideBySide, User
from annotation.models.corpus import Protocol
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.factories import import_xml
from annotation.tests.sidebyside.corpora import three_systems_xml

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_judge_of_a_campaign_judged_side_by_side_gets_a_side_by_side_screen(
    page: Page, other_page: Page, live_server, user_factory
) -> None:
    ana = user_factory("ana", role=User.Role.JUDGE)
    user_factory("lee", role=User.Role.LEAD)
    wmt = campaign_create(name="WMT25")
    corpus = import_xml(three_systems_xml(n=3), "news", ana)
    Corpus.objects.filter(pk=corpus.pk).update(campaign=wmt, protocol=Protocol.ESA)

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
