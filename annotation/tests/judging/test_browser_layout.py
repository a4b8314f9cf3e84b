"""The judge's page on one screen (issue 23, point 5) in real Chromium: at 1000×700 a
25-word sentence shows its source, candidate, new reference, the SSER buttons and
Accept & next without scrolling, none hidden under another; the legend and the key list
fold away and stay as the judge left them, on the next candidate and after a reload; on
a wide screen source and candidate sit side by side."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import open_corpus, wait_for_htmx
from annotation.tests.factories import import_xml

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1000, "height": 700}
WIDE = {"width": 1920, "height": 1080}

#: Three sentences of 25 words (source, reference and candidate), the candidate with a
#: substitution, an extra word and a missing one, as a real sentence has.
SOURCE = " ".join(f"quelle{k}" for k in range(25))
REFERENCE = " ".join(f"word{k}" for k in range(25))
CANDIDATE = " ".join(["other0", *(f"word{k}" for k in range(1, 12)), "extra"])
CANDIDATE += " " + " ".join(f"word{k}" for k in range(13, 25))
LONG = (
    "<evalTrans>"
    + (
        f"<sentence><source>{SOURCE}</source>"
        f'<eval translator="first reference"><target>{REFERENCE}</target></eval>'
        f'<eval translator="sys"><target>{CANDIDATE}</target></eval></sentence>'
    )
    * 3
    + "</evalTrans>"
)

#: What must be on the first screen: the texts, every SSER button, Accept & next.
ON_ONE_SCREEN = ["#source", "#candidate", "#new-ref", "#accept-next"] + [
    f'[data-sser="{s}"]' for s in range(11)
]


@pytest.fixture
def ana(user_factory) -> User:
    return user_factory("ana", role=User.Role.JUDGE)


@pytest.fixture
def long_sentences(ana: User) -> Corpus:
    return import_xml(LONG, "seed", ana)


def seen(page: Page, selector: str) -> dict[str, Any]:
    """Where ``selector`` is drawn, and whether its centre shows it (not another element
    drawn over it, such as the bar at the bottom)."""
    return page.locator(selector).evaluate(
        """e => {
            const r = e.getBoundingClientRect();
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return {x: r.left, y: r.top, right: r.right, bottom: r.bottom,
                    uncovered: !!top && (top === e || e.contains(top))};
        }"""
    )


def assert_in_the_window(page: Page, selectors: list[str], size: dict[str, int]) -> None:
    """Each of ``selectors`` is drawn wholly inside the window, nothing drawn over it."""
    for selector in selectors:
        expect(page.locator(selector)).to_be_visible()
        box = seen(page, selector)
        assert box["x"] >= 0, (selector, box)
        assert box["right"] <= size["width"], (selector, box)
        assert box["y"] >= 0, (selector, box)
        assert box["bottom"] <= size["height"], (selector, box)
        assert box["uncovered"], (selector, box)


def test_at_1000_by_700_a_25_word_sentence_and_every_control_a_click_needs_are_on_one_screen(
    page: Page, live_server, long_sentences: Corpus
) -> None:
    assert len(CANDIDATE.split()) == len(SOURCE.split()) == 25
    page.set_viewport_size(LAPTOP)
    open_corpus(page, live_server.url)

    assert page.evaluate("window.scrollY") == 0
    assert_in_the_window(page, ON_ONE_SCREEN, LAPTOP)


def test_a_scrolled_page_keeps_the_sser_buttons_and_accept_and_next_in_the_window(
    page: Page, live_server, long_sentences: Corpus
) -> None:
    page.set_viewport_size(LAPTOP)
    open_corpus(page, live_server.url)
    page.evaluate("window.scrollTo(0, 150)")

    assert page.evaluate("window.scrollY") == 150
    assert_in_the_window(page, ['[data-sser="0"]', '[data-sser="10"]', "#accept-next"], LAPTOP)


def test_a_field_reached_by_key_is_scrolled_above_the_bar_not_under_it(
    page: Page, live_server, long_sentences: Corpus
) -> None:
    page.set_viewport_size(LAPTOP)
    open_corpus(page, live_server.url)
    assert not seen(page, "#note-text")["uncovered"]  # below the first screen

    page.keyboard.press("f")
    expect(page.locator("#note-text")).to_be_focused()
    box = seen(page, "#note-text")
    assert box["uncovered"], box
    assert box["bottom"] <= LAPTOP["height"], box


def is_open(page: Page, box: str) -> bool:
    return page.locator(f'details[data-remember="{box}"]').evaluate("d => d.open")


def test_the_legend_and_the_key_list_stay_as_the_judge_left_them(
    page: Page, live_server, long_sentences: Corpus, ana: User
) -> None:
    page.set_viewport_size(LAPTOP)
    open_corpus(page, live_server.url)
    # on a laptop's screen the legend starts folded, the key list (at the bottom) open
    assert (is_open(page, "legend"), is_open(page, "keys")) == (False, True)
    expect(page.locator("#legend")).to_be_hidden()

    page.click('details[data-remember="legend"] > summary')
    page.click('details[data-remember="keys"] > summary')
    expect(page.locator("#legend")).to_be_visible()
    expect(page.locator("#keys dl")).to_be_hidden()

    page.reload()
    wait_for_htmx(page)
    assert (is_open(page, "legend"), is_open(page, "keys")) == (True, False)

    # a click swaps the candidate in anew, legend included: it stays open
    version = page.get_attribute("#judge", "data-version")
    page.locator("#candidate button[data-op]").first.click()
    expect(page.locator("#judge")).not_to_have_attribute("data-version", version)
    assert is_open(page, "legend")

    # and so it is on the next candidate
    first = page.get_attribute("#judge", "data-judgment")
    page.click('[data-sser="7"]')
    expect(page.locator('[data-sser="7"]')).to_have_attribute("aria-pressed", "true")
    page.click("#accept-next")
    expect(page.locator("#judge")).not_to_have_attribute("data-judgment", first)
    assert Judgment.objects.get(pk=first).state == "done"
    assert (is_open(page, "legend"), is_open(page, "keys")) == (True, False)

    # folded again, it stays folded on another visit
    page.click('details[data-remember="legend"] > summary')
    page.goto(page.url)
    wait_for_htmx(page)
    assert (is_open(page, "legend"), is_open(page, "keys")) == (False, False)


def test_on_a_tall_screen_the_legend_starts_open(
    page: Page, live_server, long_sentences: Corpus
) -> None:
    page.set_viewport_size(WIDE)
    open_corpus(page, live_server.url)
    assert is_open(page, "legend")
    expect(page.locator("#legend")).to_be_visible()


def test_on_a_wide_screen_source_and_candidate_sit_side_by_side(
    page: Page, live_server, long_sentences: Corpus
) -> None:
    page.set_viewport_size(WIDE)
    open_corpus(page, live_server.url)
    source, candidate = seen(page, "#source"), seen(page, "#candidate")
    assert abs(source["y"] - candidate["y"]) < 20, (source, candidate)
    assert candidate["x"] >= source["right"], (source, candidate)
    assert_in_the_window(page, ON_ONE_SCREEN, WIDE)

    page.set_viewport_size(LAPTOP)  # one above the other on a narrower window
    source, candidate = seen(page, "#source"), seen(page, "#candidate")
    assert candidate["y"] >= source["bottom"], (source, candidate)
