"""The ESA page sends a score once: once saved (the slider let go, or the number typed
and Enter), accept & next does not save it again. Every request a judge's action sends
costs them a round trip (bench/protocols.py times them), so a score already saved must
not count as typed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotation.models import Judgment
from annotation.models.corpus import Protocol
from annotation.tests.browsing import open_corpus
from annotation.tests.judging.test_browser_esa import corpus, first_judgment

pytestmark = pytest.mark.django_db(transaction=True)


def score_posts(page: Page, live_server, user_factory) -> list[str]:
    """An ESA corpus's first candidate opened; the score requests the page sends from
    now on."""
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.post_data or "") if r.url.endswith("/esa-score/") else None,
    )
    return sent


def test_a_score_saved_with_the_slider_is_not_sent_again_by_accept_and_next(
    page: Page, live_server, user_factory
) -> None:
    sent = score_posts(page, live_server, user_factory)
    slider = page.locator("#esa-score-range")
    box = slider.bounding_box()
    assert box is not None
    slider.click(position={"x": box["width"] * 0.2, "y": box["height"] / 2})
    expect(page.locator("#undo")).to_be_enabled()

    page.click("#accept-next")

    expect(page.locator("#candidate")).to_contain_text("a dog run")
    assert first_judgment().state == Judgment.State.DONE
    assert len(sent) == 1, sent


def test_a_score_typed_and_saved_with_enter_is_not_sent_again_by_the_n_key(
    page: Page, live_server, user_factory
) -> None:
    sent = score_posts(page, live_server, user_factory)
    page.keyboard.press("s")
    page.keyboard.type("64")
    page.keyboard.press("Enter")
    expect(page.locator("#undo")).to_be_enabled()
    page.keyboard.press("Escape")

    page.keyboard.press("n")

    expect(page.locator("#candidate")).to_contain_text("a dog run")
    assert first_judgment().esa_score == 64
    assert len(sent) == 1, sent
