"""The judge's keys (issue 35, points 5, 6 and 10) in real Chromium: the page's keys win
over the flag list's type-ahead, a message about keys pressed on one candidate leaves
with it, and every action has a key on QWERTY, AZERTY and QWERTZ keyboards. Each test
reads the database afterwards."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import open_corpus, score
from annotation.tests.factories import import_xml, in_file_order
from annotation.tests.judging.test_browser import hold_the_first_request, release

pytestmark = pytest.mark.django_db(transaction=True)

#: Three sentences of one system, judged by "ana" in file order.
THREE = """<evalTrans>
<sentence><source>uno</source><eval translator="first reference"><target>one</target></eval>
<eval translator="sys"><target>won</target></eval></sentence>
<sentence><source>dos</source><eval translator="first reference"><target>two</target></eval>
<eval translator="sys"><target>too</target></eval></sentence>
<sentence><source>tres</source><eval translator="first reference"><target>three</target></eval>
<eval translator="sys"><target>tree</target></eval></sentence>
</evalTrans>"""


def judgment(position: int = 0) -> Judgment:
    return Judgment.objects.get(target__sentence__position=position)


@pytest.fixture
def three(user_factory) -> Corpus:
    return in_file_order(import_xml(THREE, "three", user_factory("ana", role=User.Role.JUDGE)))


def test_a_message_about_keys_pressed_on_one_candidate_leaves_with_the_next(
    page: Page, live_server, three: Corpus
) -> None:
    open_corpus(page, live_server.url, "three")
    score(page, 8)
    expect(page.locator("#judge .htmx-request")).to_have_count(0)  # the score is saved
    held = hold_the_first_request(page, "**/judgments/*/accept/")
    page.keyboard.press("n")
    page.keyboard.press("9")  # aimed at candidate 1: not applied to candidate 2
    expect(page.locator("#queue-status")).to_contain_text("1 action waiting")
    release(page, held)

    status = page.locator("#client-status")
    expect(page.locator("#sentence-number")).to_have_text("2")
    expect(status).to_contain_text("SSER 9 was made on another candidate")
    score(page, 5)  # the message stays while its candidate is shown …
    expect(status).to_be_visible()
    page.keyboard.press("n")

    expect(page.locator("#sentence-number")).to_have_text("3")
    expect(status).to_be_hidden()  # … and goes with it
    assert [(judgment(k).sser, judgment(k).state) for k in range(3)] == [
        (8, "done"),
        (5, "done"),
        (None, "pending"),
    ]
