"""Side by side on an aWER corpus in real Chromium (issue 42, point 1): a judge accepts
marked words, types a new reference and gives each candidate its SSER, by the mouse and
by the keys, prefers one and goes on; accept without an SSER is refused and keeps what
was typed; with IER on, splits and marks one panel's items. Each test reads the
database afterwards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from annotation.models import Comparison, Corpus, Judgment, User
from annotation.models.corpus import Protocol
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.sidebyside.corpora import side_by_side_corpus
from annotation.tests.test_browser_accessibility import Audit, tab_through

pytestmark = pytest.mark.django_db(transaction=True)

CHANGE = re.compile(r"/judgments/\d+/[a-z-]+/$")


def panel(page: Page, letter: str) -> Locator:
    return page.locator(f"#sbs-panel-{letter}")


def ops(page: Page, letter: str) -> Locator:
    return page.locator(f"#candidate-{letter} [data-op]")


def open_awer(page: Page, base: str, user_factory, *, ier: bool = False) -> User:
    """ana's first screen of an aWER corpus judged side by side, two sentences (with
    IER's items if ``ier``)."""
    ana = user_factory("ana", role=User.Role.JUDGE)
    corpus = side_by_side_corpus(ana, name="awer", protocol=Protocol.AWER, n=2)
    Corpus.objects.filter(pk=corpus.pk).update(ier_enabled=ier)
    log_in(page, base, "ana")
    page.goto(f"{base}/corpora/{corpus.pk}/side-by-side/")
    page.wait_for_url(re.compile(r"/comparisons/\d+/$"))
    wait_for_htmx(page)
    return ana


def judgments(ana: User, comparison: Comparison) -> list[Judgment]:
    return [Judgment.objects.get(target_id=t, evaluator=ana) for t in comparison.targets]


def test_a_judge_judges_an_aWER_screen_by_the_mouse(page: Page, live_server, user_factory) -> None:
    ana = open_awer(page, live_server.url, user_factory)
    first = Comparison.objects.get(judge=ana, position=0)
    expect(page.locator("#sbs-pool-rule")).to_contain_text("when this screen first opened")
    marked = ops(page, "a").count()
    started = panel(page, "a").locator(".sbs-new-ref").get_attribute("data-text")

    with page.expect_response(CHANGE):
        ops(page, "a").first.click()
    expect(ops(page, "a")).to_have_count(marked - 1)
    expect(panel(page, "a").locator(".sbs-new-ref")).not_to_have_attribute("data-text", started)
    with page.expect_response(CHANGE):
        panel(page, "a").locator('[data-sser="7"]').click()
    expect(panel(page, "a").locator('[data-sser="7"]')).to_have_attribute("aria-pressed", "true")

    # B's text typed, not saved: B's own answer (its SSER) leaves it as typed.
    panel(page, "b").locator(".sbs-new-ref-text").fill("typed by the mouse")
    with page.expect_response(CHANGE):
        panel(page, "b").locator('[data-sser="4"]').click()
    expect(panel(page, "b")).to_have_attribute("data-sser", "4")
    expect(panel(page, "b").locator(".sbs-new-ref-text")).to_have_value("typed by the mouse")
    with page.expect_response(re.compile(r"/preference/$")):
        page.locator("#prefer-a").click()

    page.locator("#sbs-accept").click()
    page.wait_for_url(re.compile(rf"/comparisons/(?!{first.pk}/)\d+/$"))
    expect(page.locator("#sbs-done")).to_have_attribute("data-done", "1")
    first.refresh_from_db()
    a, b = judgments(ana, first)
    assert (first.state, first.preference) == ("done", "a")
    assert (a.state, a.sser, b.state, b.sser) == ("done", 7, "done", 4)
    assert a.new_ref != started
    assert b.new_ref == "typed by the mouse"


def test_a_judge_splits_and_marks_IER_items_by_the_mouse_and_the_keys_and_accepts(
    page: Page, live_server, user_factory
) -> None:
    ana = open_awer(page, live_server.url, user_factory, ier=True)
    first = Comparison.objects.get(judge=ana, position=0)
    items_b = page.locator("#ier-items-b .ier-item")
    expect(page.locator("#ier-items-a .ier-item")).to_have_count(1)
    expect(items_b).to_have_count(1)

    with page.expect_response(CHANGE):
        panel(page, "b").locator('.ier-gap[value="1"]').click()
    expect(items_b).to_have_count(2)
    with page.expect_response(CHANGE):
        items_b.first.locator('[data-mark="meaning"]').click()
    expect(items_b.first).to_have_attribute("data-label", "meaning")
    # A's item by the keys: i focuses it, y marks syntax, then m (on an item) meaning.
    page.locator("#sbs-panel-a h2").click()
    page.keyboard.press("i")
    with page.expect_response(CHANGE):
        page.keyboard.press("y")
    item_a = page.locator("#ier-items-a .ier-item").first
    expect(item_a).to_have_attribute("data-label", "syntax")
    expect(item_a.locator('[data-mark="syntax"]')).to_be_focused()
    with page.expect_response(CHANGE):
        page.keyboard.press("m")
    expect(item_a).to_have_attribute("data-label", "meaning")
    for letter, sser in (("a", "9"), ("b", "5")):
        with page.expect_response(CHANGE):
            panel(page, letter).locator(f'[data-sser="{sser}"]').click()
    page.locator("#sbs-accept").click()
    page.wait_for_url(re.compile(rf"/comparisons/(?!{first.pk}/)\d+/$"))

    a, b = judgments(ana, first)
    assert (a.state, b.state) == ("done", "done")
    assert [label for _, _, label in b.ier_items] == ["meaning", "ok"]
    assert b.ier_items[0][:2] == [0, 1]
    assert [label for _, _, label in a.ier_items] == ["meaning"]


def test_a_judge_judges_an_aWER_screen_by_the_keys_and_is_refused_without_an_sser(
    page: Page, live_server, user_factory
) -> None:
    ana = open_awer(page, live_server.url, user_factory)
    first = Comparison.objects.get(judge=ana, position=0)
    expect(panel(page, "a")).to_have_class(re.compile(r"\bactive\b"))
    marked = ops(page, "a").count()

    # A: → to its first marked word, m makes it major, Enter accepts it; 8 its SSER.
    page.keyboard.press("ArrowRight")
    expect(ops(page, "a").first).to_be_focused()
    with page.expect_response(CHANGE):
        page.keyboard.press("m")
    expect(ops(page, "a").first).to_have_attribute("data-severity", "major")
    ops(page, "a").first.focus()
    with page.expect_response(CHANGE):
        page.keyboard.press("Enter")
    expect(ops(page, "a")).to_have_count(marked - 1)
    with page.expect_response(CHANGE):
        page.keyboard.press("8")
    expect(panel(page, "a")).to_have_attribute("data-sser", "8")

    # B: ] to it, e to its text, typed and saved with Enter; + is SSER 10, u takes it back.
    page.keyboard.press("]")
    expect(panel(page, "b")).to_have_class(re.compile(r"\bactive\b"))
    page.keyboard.press("e")
    expect(panel(page, "b").locator(".sbs-new-ref-text")).to_be_focused()
    page.keyboard.type("typed by the keys")
    with page.expect_response(CHANGE):
        page.keyboard.press("Enter")
    expect(panel(page, "b").locator(".sbs-new-ref")).to_have_attribute(
        "data-text", "typed by the keys"
    )
    with page.expect_response(CHANGE):
        page.keyboard.press("+")
    expect(panel(page, "b")).to_have_attribute("data-sser", "10")
    with page.expect_response(CHANGE):
        page.keyboard.press("u")
    expect(panel(page, "b")).to_have_attribute("data-sser", "")

    # Accept without B's SSER: refused, and what was given stays.
    page.keyboard.press("Control+Enter")
    expect(page.locator("#sbs-message")).to_contain_text("Give B an SSER score")
    expect(panel(page, "a")).to_have_attribute("data-sser", "8")
    expect(panel(page, "b").locator(".sbs-new-ref-text")).to_have_value("typed by the keys")
    first.refresh_from_db()
    assert first.state == "pending"

    expect(panel(page, "b")).to_have_class(re.compile(r"\bactive\b"))  # still the keys'
    with page.expect_response(CHANGE):
        page.keyboard.press("3")
    with page.expect_response(re.compile(r"/preference/$")):
        page.keyboard.press("b")
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(rf"/comparisons/(?!{first.pk}/)\d+/$"))
    first.refresh_from_db()
    a, b = judgments(ana, first)
    assert (first.state, first.preference) == ("done", "b")
    assert (a.state, a.sser, b.state, b.sser) == ("done", 8, "done", 3)
    assert b.new_ref == "typed by the keys"


def test_the_aWER_side_by_side_screen_passes_the_accessibility_audit(
    page: Page, live_server, user_factory
) -> None:
    open_awer(page, live_server.url, user_factory)
    with page.expect_response(CHANGE):
        ops(page, "a").first.click()
    with page.expect_response(CHANGE):
        panel(page, "b").locator('[data-sser="9"]').click()
    audit = Audit(page)
    audit.check("aWER side-by-side screen")
    assert tab_through(page, "aWER side-by-side screen") == []
    Corpus.objects.update(ier_enabled=True)  # the same screen with IER's items
    page.reload()
    expect(page.locator("#ier-items-b")).to_be_visible()
    audit.check("aWER side-by-side screen with IER")
    assert tab_through(page, "aWER side-by-side screen with IER") == []
    assert audit.failures == []
