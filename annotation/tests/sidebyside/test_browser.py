"""Side-by-side judging in real Chromium (issue 42, point 1): a judge marks spans in two
candidates with the mouse and the keys, scores both, prefers one and goes on; nothing
typed is lost to a panel's answer. The lead then sees the win rates. Each test reads
the database afterwards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from annotation.models import Comparison, Corpus, Judgment, Span, User
from annotation.sidebyside.queue import side_by_side_set
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.sidebyside.corpora import side_by_side_corpus
from annotation.tests.test_browser_accessibility import Audit, tab_through

pytestmark = pytest.mark.django_db(transaction=True)


def panel(page: Page, letter: str) -> Locator:
    return page.locator(f"#sbs-panel-{letter}")


def rows(page: Page, letter: str) -> Locator:
    return panel(page, letter).locator(".span-row")


def open_side_by_side(page: Page, base: str, user_factory, sentences: int) -> tuple[User, Corpus]:
    """A side-by-side corpus of ``sentences`` judged by ana, who opens her first screen."""
    ana = user_factory("ana", role=User.Role.JUDGE)
    corpus = side_by_side_corpus(ana, n=sentences)
    log_in(page, base, "ana")
    page.goto(f"{base}/corpora/{corpus.pk}/side-by-side/")
    page.wait_for_url(re.compile(r"/comparisons/\d+/$"))
    wait_for_htmx(page)
    return ana, corpus


def lead_panel(new_page, base: str, user_factory, corpus: Corpus) -> Page:
    """The side-by-side panel of ``corpus``, as a lead opens it in a tab of their own."""
    lead = new_page()
    user_factory("lee", role=User.Role.LEAD)
    log_in(lead, base, "lee")
    lead.goto(f"{base}/corpora/{corpus.pk}/side-by-side/figures/")
    return lead


def test_a_judge_judges_two_candidates_side_by_side_and_the_lead_sees_win_rates(
    page: Page, new_page, live_server, user_factory
) -> None:
    ana, corpus = open_side_by_side(page, live_server.url, user_factory, 3)
    first = Comparison.objects.get(judge=ana, position=0)
    expect(panel(page, "a")).to_have_class(re.compile(r"\bactive\b"))

    # A, by mouse: a click selects a word, then Major.
    panel(page, "a").locator('.piece[data-start="0"]').click()
    expect(panel(page, "a").locator(".sbs-selection")).to_contain_text("Selected:")
    panel(page, "a").locator('[data-action="mark-major"]').click()
    expect(rows(page, "a")).to_have_count(1)
    expect(rows(page, "a").first).to_have_attribute("data-severity", "major")

    # A's score typed, not saved: B's answers must leave it as typed.
    panel(page, "a").locator(".sbs-score").fill("72")

    # B, by keys: ] to B, → selects its first word, 1 marks it minor; i and 2 a major omission.
    page.locator("#h-source").click()  # out of the field: keys act on the panels again
    page.keyboard.press("]")
    expect(panel(page, "b")).to_have_class(re.compile(r"\bactive\b"))
    page.keyboard.press("ArrowRight")
    expect(panel(page, "b").locator(".sbs-selection")).to_contain_text("Selected:")
    page.keyboard.press("1")
    expect(rows(page, "b")).to_have_count(1)
    page.keyboard.press("i")
    page.keyboard.press("2")
    expect(rows(page, "b")).to_have_count(2)
    page.keyboard.press("u")  # undo, redo: B's omission goes and comes back
    expect(rows(page, "b")).to_have_count(1)
    page.keyboard.press("r")
    expect(rows(page, "b")).to_have_count(2)
    expect(panel(page, "a").locator(".sbs-score")).to_have_value("72")

    # B's score with its key, saved with Enter; the preference by key.
    page.keyboard.press("s")
    expect(panel(page, "b").locator(".sbs-score")).to_be_focused()
    page.keyboard.type("40")
    page.keyboard.press("Enter")
    expect(panel(page, "b").locator(".sbs-score")).to_have_attribute("data-saved", "40")
    expect(panel(page, "a").locator(".sbs-score")).to_have_value("72")
    page.locator("#h-source").click()
    with page.expect_response(re.compile(r"/preference/$")):
        page.keyboard.press("b")
    expect(page.locator("#prefer-b")).to_have_attribute("aria-pressed", "true")

    page.evaluate("() => { window.sameDocument = true; }")
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(rf"/comparisons/(?!{first.pk}/)\d+/$"))
    expect(page.locator("#sbs-done")).to_have_attribute("data-done", "1")
    assert page.evaluate("() => window.sameDocument === true")  # swapped in, not reloaded
    expect(panel(page, "a")).to_have_class(re.compile(r"\bactive\b"))
    expect(panel(page, "a").locator(".sbs-selection")).to_have_text("Nothing selected")

    first.refresh_from_db()
    assert (first.state, first.preference) == ("done", "b")
    a, b = (Judgment.objects.get(target_id=t, evaluator=ana) for t in first.targets)
    assert (a.state, a.esa_score, b.state, b.esa_score) == ("done", 72, "done", 40)
    assert list(Span.objects.filter(judgment=a).values_list("start", "severity")) == [(0, "major")]
    assert sorted(Span.objects.filter(judgment=b).values_list("severity", "missing")) == [
        ("major", True),
        ("minor", False),
    ]

    lead = lead_panel(new_page, live_server.url, user_factory, corpus)
    left, right = first.left.translator.name, first.right.translator.name
    shown = lead.locator("#sbs-win-rates .sbs-rate")
    expect(shown).to_have_count(1)
    first_name, second_name = sorted([left, right], key=["alpha", "beta", "gamma"].index)
    expect(shown).to_have_attribute("data-first", first_name)
    expect(shown).to_have_attribute("data-rate", "1.0" if right == first_name else "0.0")
    expect(lead.locator("#sbs-ranking .sbs-ranked").first).to_have_attribute("data-system", right)


def test_side_by_side_stacks_the_candidates_on_a_narrow_screen(
    page: Page, live_server, user_factory
) -> None:
    shared = page.viewport_size  # the tab goes back to the next test as it came
    assert shared
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        open_side_by_side(page, live_server.url, user_factory, 1)
        a, b = panel(page, "a").bounding_box(), panel(page, "b").bounding_box()
        assert a
        assert b
        assert b["x"] > a["x"] + a["width"] - 1
        assert abs(a["y"] - b["y"]) < 2
        page.set_viewport_size({"width": 400, "height": 800})
        a, b = panel(page, "a").bounding_box(), panel(page, "b").bounding_box()
        assert a
        assert b
        assert b["y"] >= a["y"] + a["height"] - 1
    finally:
        page.set_viewport_size(shared)


def test_the_side_by_side_pages_pass_the_accessibility_audit(
    page: Page, new_page, live_server, user_factory
) -> None:
    _, corpus = open_side_by_side(page, live_server.url, user_factory, 2)
    panel(page, "a").locator('.piece[data-start="0"]').click()
    panel(page, "a").locator('[data-action="mark-major"]').click()
    expect(rows(page, "a")).to_have_count(1)
    page.locator("#prefer-same").click()
    expect(page.locator("#prefer-same")).to_have_attribute("aria-pressed", "true")
    audit = Audit(page)
    audit.check("side-by-side screen")
    assert tab_through(page, "side-by-side screen") == []
    lead_audit = Audit(lead_panel(new_page, live_server.url, user_factory, corpus))
    lead_audit.check("side-by-side panel")
    assert audit.failures == []
    assert lead_audit.failures == []


def test_a_judge_picks_the_best_of_three_by_its_key(page: Page, live_server, user_factory) -> None:
    ana = user_factory("ana", role=User.Role.JUDGE)
    corpus = side_by_side_corpus(ana, n=2)
    side_by_side_set(corpus=corpus, per_screen=3)
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/corpora/{corpus.pk}/side-by-side/")
    page.wait_for_url(re.compile(r"/comparisons/\d+/$"))
    wait_for_htmx(page)
    expect(page.locator("#sbs-preference-label")).to_contain_text("Which is best?")

    page.locator("#h-source").click()
    with page.expect_response(re.compile(r"/preference/$")):
        page.keyboard.press("c")
    expect(page.locator("#prefer-c")).to_have_attribute("aria-pressed", "true")
    with page.expect_response(re.compile(r"/preference/$")):
        page.keyboard.press("c")  # pressed again: taken back
    expect(page.locator("#prefer-c")).to_have_attribute("aria-pressed", "false")
    with page.expect_response(re.compile(r"/preference/$")):
        page.keyboard.press("c")

    first = Comparison.objects.get(judge=ana, position=0)
    assert (first.picks_best, first.preference) == (True, "c")
