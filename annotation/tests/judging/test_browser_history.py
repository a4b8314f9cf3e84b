"""Back, Forward and Reload on the judge's pages (ESA here; the aWER page shares the
template and the rule): each shows the judgment as the server has it now, never a copy
the browser kept (the page keeps none: ``hx-history="false"``, which spares htmx a
clone of the whole page at each accept & next), and accept & next keeps the keyboard's
place."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from annotation.models import Judgment
from annotation.models.corpus import Protocol
from annotation.tests.browsing import open_corpus
from annotation.tests.judging.test_browser_esa import corpus, first_judgment

pytestmark = pytest.mark.django_db(transaction=True)


def judge_shows(page: Page, judgment: Judgment) -> None:
    expect(page).to_have_url(re.compile(rf"/judgments/{judgment.pk}/$"))
    expect(page.locator("#judge")).to_have_attribute("data-judgment", str(judgment.pk))


def test_back_after_accept_and_next_shows_the_previous_judgment_fresh_from_the_server(
    page: Page, live_server, user_factory
) -> None:
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")
    first = first_judgment()
    page.fill("#esa-score-number", "72")
    page.click("#accept-next")
    expect(page.locator("#candidate")).to_contain_text("a dog run")
    expect(page.locator("#accept-next")).to_be_focused()  # the keys go on from there
    second = Judgment.objects.get(target__sentence__position=1)
    judge_shows(page, second)
    Judgment.objects.filter(pk=first.pk).update(esa_score=90)  # changed in another tab

    page.go_back()

    judge_shows(page, first)
    expect(page.locator("#judge")).to_have_attribute("data-state", "done")
    expect(page.locator("#done-note")).to_contain_text("Accepted with 90")
    expect(page.locator("#esa-score-number")).to_have_value("90")
    # Back reloaded the page (no copy kept); its Forward is htmx's once htmx has started,
    # at DOMContentLoaded: a Forward before then changes the address alone.
    page.wait_for_load_state()

    page.go_forward()
    judge_shows(page, second)
    expect(page.locator("#candidate")).to_contain_text("a dog run")
    page.reload()
    judge_shows(page, second)
    expect(page.locator("#judge")).to_have_attribute("data-state", "pending")


def test_previous_then_accept_and_next_is_drawn_each_time_with_its_own_candidate(
    page: Page, live_server, user_factory
) -> None:
    """From the second candidate to the first (previous) and back (accept & next): each
    page is the whole of its own candidate, with a score typed on the first saved."""
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")
    page.fill("#esa-score-number", "30")
    page.click("#accept-next")
    expect(page.locator("#candidate")).to_contain_text("a dog run")

    page.click("#previous")
    expect(page.locator("#candidate")).to_contain_text("the cat sat on the mat")
    expect(page.locator("#esa-score-number")).to_have_value("30")
    page.fill("#esa-score-number", "35")
    page.click("#accept-next")

    expect(page.locator("#candidate")).to_contain_text("a dog run")
    expect(page.locator("#esa-score-number")).to_have_value("")
    expect(page.locator("#candidate .piece.selected")).to_have_count(0)
    assert first_judgment().esa_score == 35


#: Counts the page's history calls (``window.historyCalls``), from its first script on.
COUNT_HISTORY_CALLS = """
window.historyCalls = {pushState: 0, replaceState: 0};
for (const name of ["pushState", "replaceState"]) {
  const call = History.prototype[name];
  History.prototype[name] = function () {
    window.historyCalls[name] += 1;
    return call.apply(this, arguments);
  };
}
"""


def test_accept_and_next_pushes_the_next_url_with_one_history_call(
    page: Page, live_server, user_factory
) -> None:
    """Each history call is a same-document navigation, milliseconds of the page's main
    thread: the page's own entry is marked once, as it loads (Back to it then loads it
    from the server), and each new candidate's URL is pushed alone, never after a second
    marking of the entry it leaves."""
    corpus(user_factory, Protocol.ESA)
    page.add_init_script(COUNT_HISTORY_CALLS)
    open_corpus(page, live_server.url, name="esa")
    first = first_judgment()
    at_load = page.evaluate("({...window.historyCalls})")
    page.fill("#esa-score-number", "72")

    page.click("#accept-next")

    expect(page.locator("#candidate")).to_contain_text("a dog run")
    judge_shows(page, Judgment.objects.get(target__sentence__position=1))
    assert page.evaluate("({...window.historyCalls})") == {**at_load, "pushState": 1}
    page.go_back()
    judge_shows(page, first)
    expect(page.locator("#judge")).to_have_attribute("data-state", "done")
