"""An ESA corpus from the judge's keys to the lead's dashboard in real Chromium (issue 41,
point 5): the judge scores two candidates, and the lead finds their mean as the ``esa``
column, ``esa_z`` beside it, WMT's clusters below, and no aWER figure."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from annotation.models import Corpus, Judgment, User
from annotation.models.corpus import Protocol
from annotation.tests.browsing import log_in, open_corpus
from annotation.tests.judging.test_browser_esa import TWO, corpus, piece, row
from annotation.tests.stored import scored
from annotation.tests.test_browser_accessibility import Audit

pytestmark = pytest.mark.django_db(transaction=True)


def score_and_accept(page: Page, score: int) -> None:
    """The ESA page's keys: ``s`` to the score, the number, Enter, ``n`` accept & next."""
    page.keyboard.press("s")
    expect(page.locator("#esa-score-number")).to_be_focused()
    page.keyboard.type(str(score))
    page.keyboard.press("Enter")
    expect(page.locator("#esa-shown")).to_have_text(str(score))
    page.keyboard.press("n")


def judged_then_shown(
    page: Page, other_page: Page, base: str, made: Corpus, judge: Callable[[Page], None]
) -> None:
    """ana judges ``made`` on ``page`` (``judge``: her keys and clicks), then lee, a lead,
    opens its dashboard on ``other_page``."""
    open_corpus(page, base, name="esa")
    judge(page)
    log_in(other_page, base, "lee")
    other_page.goto(f"{base}/dashboard/{made.pk}/")


def test_a_judge_scores_an_esa_corpus_and_the_lead_sees_esa_on_the_dashboard(
    page: Page, other_page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    made = scored(corpus(user_factory, Protocol.ESA, TWO))
    user_factory("lee", role=User.Role.LEAD)

    def judge(page: Page) -> None:
        expect(page.locator("#candidate")).to_contain_text("the cat sat on the mat")
        score_and_accept(page, 90)
        expect(page.locator("#candidate")).to_contain_text("a dog run")
        score_and_accept(page, 61)
        expect(page.locator("#esa-score-number")).to_have_count(0)  # nothing left to judge
        done = Judgment.objects.filter(state=Judgment.State.DONE)
        assert sorted(done.values_list("esa_score", flat=True)) == [61, 90]

    judged_then_shown(page, other_page, live_server.url, made, judge)
    cell = other_page.locator('#metrics-table tr[data-translator="sys"] td[data-metric="esa"]')
    expect(cell).to_have_attribute("data-value", "75.5")  # (90 + 61) / 2
    expect(cell).to_contain_text("75.50")
    expect(other_page.locator('th[data-metric="esa"]')).to_contain_text("ESA")
    z = other_page.locator('#metrics-table tr[data-translator="sys"] td[data-metric="esa_z"]')
    expect(z).to_have_attribute("data-value", "0.0")  # one judge: z-scores average 0
    expect(other_page.locator('#metrics-table td[data-metric="awer"]')).to_have_count(0)
    expect(other_page.locator('#esa-clusters tr[data-translator="sys"]')).to_have_attribute(
        "data-cluster", "1"
    )
    audit = Audit(other_page)
    audit.check("an ESA corpus's dashboard")
    audit.visit(f"{live_server.url}/dashboard/{made.pk}/panel/judges/", "its judges", "#judges")
    assert audit.failures == []


def test_a_judge_marks_an_mqm_error_and_the_lead_sees_its_points(
    page: Page, other_page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    made = scored(corpus(user_factory, Protocol.MQM, TWO))
    user_factory("lee", role=User.Role.LEAD)

    def judge(page: Page) -> None:
        page.select_option("#mqm-category", "Accuracy/Mistranslation")
        piece(page, 19).click()  # "mat"
        page.keyboard.press("2")  # major: 5 points
        expect(row(page, "19:22:major:0:Accuracy/Mistranslation")).to_be_visible()
        page.keyboard.press("n")
        expect(page.locator("#candidate")).to_contain_text("a dog run")
        page.keyboard.press("n")  # no error: 0 points
        expect(page.locator("#candidate")).to_have_count(0)

    judged_then_shown(page, other_page, live_server.url, made, judge)
    cell = other_page.locator('#metrics-table tr[data-translator="sys"] td[data-metric="mqm"]')
    expect(cell).to_have_attribute("data-value", "2.5")  # (5 + 0) / 2
    expect(other_page.locator('th[data-metric="mqm"] a')).to_have_text("MQM")
    expect(other_page.locator('#mqm-clusters tr[data-translator="sys"]')).to_have_count(1)
