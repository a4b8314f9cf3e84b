"""IER (issue 14, point 2) in real Chromium: the default split offered, a gap clicked to
split an item and a boundary to join two, items marked by button and by key, undo and
redo, quick clicks queued and none lost, and everything saved."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import wait_for_htmx
from annotation.tests.factories import PASSWORD, import_xml

pytestmark = pytest.mark.django_db(transaction=True)

#: 11 words: "He came home ," | "he said ." | "Was it late ?" by default.
CORPUS = """<evalTrans><sentence><source>s</source>
<eval translator="first reference"><target>He came home, he said. Was it late?</target></eval>
<eval translator="sys"><target>He came home , he said . Was it late ?</target></eval>
</sentence></evalTrans>"""


@pytest.fixture
def ana(user_factory) -> User:
    return user_factory("ana", role=User.Role.JUDGE)


@pytest.fixture
def ier_corpus(ana: User) -> Corpus:
    corpus = import_xml(CORPUS, "ier", ana)
    corpus.ier_enabled = True
    corpus.save()
    return corpus


def open_corpus(page: Page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{base}/")
    page.click('a[data-action="continue"][data-corpus="ier"]')
    page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    wait_for_htmx(page)


def items(page: Page) -> list[tuple[str, str, str]]:
    """(start, end, mark) of each item as the page shows it."""
    return page.locator("#ier-items li.ier-item").evaluate_all(
        "lis => lis.map(li => [li.dataset.start, li.dataset.end, li.dataset.label])"
    )


def stored() -> list[list[object]]:
    return Judgment.objects.get().ier_items


def test_items_are_split_joined_and_marked_and_undo_walks_back(
    page: Page, live_server, ier_corpus: Corpus
) -> None:
    open_corpus(page, live_server.url)
    ier = page.locator("#ier")
    expect(ier).to_have_attribute("data-ier-items", "3")  # the default split
    assert items(page) == [["0", "4", "ok"], ["4", "7", "ok"], ["7", "11", "ok"]]

    page.click('[data-key="gap-2"]')  # between "came" and "home": split
    expect(ier).to_have_attribute("data-ier-items", "4")
    page.click('[data-key="gap-4"]')  # the boundary after "home ,": join
    expect(ier).to_have_attribute("data-ier-items", "3")
    assert items(page) == [["0", "2", "ok"], ["2", "7", "ok"], ["7", "11", "ok"]]

    page.click('[data-key="mark-2-syntax"]')
    expect(ier).to_have_attribute("data-ier-errors", "1")
    expect(page.locator("#h-ier")).to_contain_text("IER 33.3 %")
    expect(page.locator('[data-key="mark-2-syntax"]')).to_have_attribute("aria-pressed", "true")

    page.keyboard.press("u")
    expect(ier).to_have_attribute("data-ier-errors", "0")
    page.keyboard.press("u")
    expect(ier).to_have_attribute("data-ier-items", "4")
    page.keyboard.press("r")
    page.keyboard.press("r")
    expect(ier).to_have_attribute("data-ier-errors", "1")
    assert stored() == [[0, 2, "ok"], [2, 7, "syntax"], [7, 11, "ok"]]

    page.reload()
    assert items(page) == [["0", "2", "ok"], ["2", "7", "syntax"], ["7", "11", "ok"]]


def test_items_are_marked_by_key(page: Page, live_server, ier_corpus: Corpus) -> None:
    open_corpus(page, live_server.url)
    ier = page.locator("#ier")
    page.keyboard.press("i")  # the first item
    page.keyboard.press("m")  # meaning
    expect(page.locator('[data-key="mark-0-meaning"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("i")  # the focus came back to the first item: on to the second
    page.keyboard.press("i")
    page.keyboard.press("x")  # the third: other
    expect(ier).to_have_attribute("data-ier-errors", "2")
    page.keyboard.press("Shift+I")
    page.keyboard.press("y")  # the second: syntax
    expect(ier).to_have_attribute("data-ier-errors", "3")
    page.keyboard.press("k")  # and OK again
    expect(ier).to_have_attribute("data-ier-errors", "2")
    assert stored() == [[0, 4, "meaning"], [4, 7, "ok"], [7, 11, "other"]]


def test_quick_clicks_are_queued_and_each_lands_on_its_own_item(
    page: Page, live_server, ier_corpus: Corpus
) -> None:
    open_corpus(page, live_server.url)
    # Three clicks in one go: the second and third come while the first is in flight.
    page.evaluate(
        """keys => keys.forEach(k => document.querySelector(`[data-key="${k}"]`).click())""",
        ["mark-0-syntax", "mark-7-other", "gap-9"],
    )
    expect(page.locator("#ier")).to_have_attribute("data-ier-items", "4")
    expect(page.locator("#ier")).to_have_attribute("data-ier-errors", "3")
    expect(page.locator("#queue-status")).to_be_hidden()
    assert stored() == [[0, 4, "syntax"], [4, 7, "ok"], [7, 9, "other"], [9, 11, "other"]]
    kinds = Judgment.objects.get().events.exclude(kind="open").values_list("kind", flat=True)
    assert list(kinds) == ["ier_mark", "ier_mark", "ier_split"]
