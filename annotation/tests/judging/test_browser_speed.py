"""Judging at speed (issue 23, points 4 and 5's digit keys) in real Chromium: a severity
set with the mouse, refusals in plain words in a fixed bar, the next candidate shown from
the top, keys pressed quickly applied in order each against the page the previous one
produced (never on a candidate not yet drawn), and digit keys that follow the character
typed (AZERTY). Each test reads the database afterwards."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotation.judging.errors import ERR_BAD_OP
from annotation.models import Corpus, Judgment
from annotation.tests.browsing import open_corpus, score, shown_words
from annotation.tests.factories import FIGURE_1_FIRST_REF
from annotation.tests.judging import test_browser_spans
from annotation.tests.judging.test_browser import hold_the_first_request, release
from annotation.text import words

pytestmark = pytest.mark.django_db(transaction=True)

seed = test_browser_spans.seed  # seed 001's corpus, judged by "ana"

#: Figure 1 once the missing "This", "Diagram" and "show" are accepted.
THREE_ACCEPTED = "Diagram show the scan procedure to find the archives."


def first() -> Judgment:
    return Judgment.objects.get(target__sentence__position=0)


def fixed(page: Page, selector: str) -> bool:
    """Whether the element stays in a fixed place inside the window."""
    return page.locator(selector).evaluate(
        """e => {
            const box = e.getBoundingClientRect();
            return getComputedStyle(e).position === "fixed"
                && box.top >= 0 && box.bottom <= window.innerHeight;
        }"""
    )


def keydown(page: Page, key: str, code: str, shift: bool) -> None:
    """A keydown as a keyboard layout sends it: ``key`` the character, ``code`` the place."""
    page.evaluate(
        """([key, code, shift]) => document.body.dispatchEvent(new KeyboardEvent("keydown",
            {key, code, shiftKey: shift, bubbles: true, cancelable: true}))""",
        [key, code, shift],
    )


def keys_during_a_held_click(page: Page, keys: list[str], waiting: str) -> None:
    """Press ``keys`` while the first click on a marked word is held on its way, see
    ``waiting`` in the queue, then let the click through."""
    held = hold_the_first_request(page, "**/judgments/*/op/")
    for key in keys:
        page.keyboard.press(key)
    expect(page.locator("#queue-status")).to_contain_text(waiting)
    release(page, held)


def test_a_mouse_marks_a_word_major_with_the_toggle_on_it_and_minor_again(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    mark = page.locator("#candidate .mark").nth(1)  # "Diagram" (reference: "figure")
    toggle = mark.locator(".severity-toggle")
    expect(toggle).to_be_hidden()
    mark.locator("button[data-op]").hover()
    expect(toggle).to_be_visible()
    toggle.click()

    major = page.locator('#candidate [data-severity="major"]')
    expect(major).to_have_text("Diagram")
    assert first().severities == {"substitution:0": "major"}
    expect(page.locator("#candidate")).not_to_contain_text("major")  # drawn, not text

    page.locator("#candidate .mark").nth(1).locator("button[data-op]").hover()
    page.locator("#candidate .mark").nth(1).locator(".severity-toggle").click()
    expect(major).to_have_count(0)
    judgment = first()
    assert judgment.severities == {}
    assert judgment.edits == 5  # the toggle accepted no word
    kinds = list(judgment.events.exclude(kind="open").values_list("kind", flat=True))
    assert kinds == ["set_severity", "set_severity"]


def test_a_refused_click_says_so_in_plain_words_in_a_fixed_bar(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    page.set_viewport_size({"width": 1000, "height": 500})
    page.locator("#candidate button[data-op]").first.evaluate("e => { e.value = ''; }")
    page.locator("#candidate button[data-op]").first.click()

    message = page.locator("#judge-message")
    expect(message).to_have_text(ERR_BAD_OP)
    expect(message).not_to_contain_text("edit operation")
    assert "out of date" in ERR_BAD_OP
    assert "refreshed" in ERR_BAD_OP
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert fixed(page, "#judge-message")  # in sight wherever the page is scrolled
    assert first().version == 1


def test_after_accept_and_next_the_new_source_and_candidate_are_at_the_top(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    page.set_viewport_size({"width": 1000, "height": 500})
    score(page, 8)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0
    page.click("#accept-next")  # the mouse, down the page

    expect(page.locator("#sentence-number")).to_have_text("2")
    page.wait_for_function("() => window.scrollY === 0")
    for block in ("#source", "#candidate"):
        box = page.locator(block).bounding_box()
        assert box["y"] >= 0
        assert box["y"] + box["height"] <= 500
    assert first().state == "done"


def test_a_a_a_pressed_during_a_request_accepts_three_words_in_order(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    # → the missing "This"; a then goes to the next word of each new page
    keys_during_a_held_click(page, ["ArrowRight", "a", "a", "a"], "2 actions waiting")

    expect(page.locator("#new-ref")).to_have_text(shown_words(THREE_ACCEPTED))
    expect(page.locator("#edit-count")).to_have_text("2")
    expect(page.locator("#client-status")).to_be_hidden()  # nothing refused as stale
    judgment = first()
    assert (judgment.new_ref, judgment.edits) == (THREE_ACCEPTED, 2)
    assert judgment.events.filter(kind="accept_op").count() == 3


def test_keys_pressed_as_fast_as_the_browser_sends_them_all_count(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    for key in ("ArrowRight", "a", "a", "a", "7"):
        page.keyboard.press(key)  # no waiting in between
    expect(page.locator('[data-sser="7"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#client-status")).to_be_hidden()
    judgment = first()
    assert (judgment.new_ref, judgment.sser) == (THREE_ACCEPTED, 7)


def test_arrows_and_a_queued_move_on_the_page_the_previous_key_produced(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    # the missing "This", then on the new page "Diagram" → "show" → "for"
    keys = ["ArrowRight", "a", "ArrowRight", "ArrowRight", "a"]
    keys_during_a_held_click(page, keys, "3 actions waiting")

    expected = "figure shows the scan procedure for find the archives."
    expect(page.locator("#new-ref")).to_have_text(shown_words(expected))
    assert first().new_ref == expected


def test_n_n_goes_on_once_and_never_accepts_a_candidate_not_yet_drawn(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    score(page, 8)
    expect(page.locator("#judge .htmx-request")).to_have_count(0)  # the score is saved
    held = hold_the_first_request(page, "**/judgments/*/accept/")
    page.keyboard.press("n")
    page.keyboard.press("n")
    expect(page.locator("#queue-status")).to_contain_text("1 action waiting")
    release(page, held)

    expect(page.locator("#sentence-number")).to_have_text("2")
    status = page.locator("#client-status")
    expect(status).to_contain_text("Accept & next")
    expect(status).to_contain_text("another candidate than the one now shown")
    assert fixed(page, "#client-status")
    second = Judgment.objects.get(target__sentence__position=1)
    assert (first().state, second.state) == ("done", "pending")


def test_digits_follow_the_character_typed_and_shift_1_picks_a_reference_on_qwerty(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    keydown(page, "3", "Digit3", shift=True)  # AZERTY: Shift and the key of "3"
    expect(page.locator('[data-sser="3"]')).to_have_attribute("aria-pressed", "true")
    assert first().sser == 3

    expect(page.locator('[data-pool="1"]')).to_have_class("pool-ref current")
    expect(page.locator('[data-pool="2"]')).to_have_class("pool-ref")  # not the current one
    pool_2 = page.locator('[data-pool="2"]').text_content()
    keydown(page, "@", "Digit2", shift=True)  # QWERTY: Shift+2 types "@"
    expect(page.locator(".pool-ref.current")).to_have_text(pool_2)
    judgment = first()
    assert (words(judgment.new_ref), judgment.sser) == (words(pool_2), 3)  # read as text
    assert judgment.new_ref != FIGURE_1_FIRST_REF
