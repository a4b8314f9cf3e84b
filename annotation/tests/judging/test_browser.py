"""The judge's page in real Chromium: seed 001 Figure 1 by mouse and by keyboard, undo,
two tabs, a lost connection, queued clicks, and hostile corpus text."""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import Page, Request, Route, expect

from annotation.corpora.exports import corpus_export
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import log_in, open_corpus, shown_words, wait_for_htmx
from annotation.tests.factories import (
    BIDI_XML,
    FIGURE_1_FIRST_REF,
    FIGURE_1_RESULT,
    SEED_XML,
    in_file_order,
)

HOSTILE = """<evalTrans>
<sentence>
  <source>&lt;script&gt;document.title="owned"; alert(1)&lt;/script&gt; el gato</source>
  <eval translator="first reference">
    <target>the cat &lt;img src=x onerror=alert(2)&gt;</target>
  </eval>
  <eval translator="sys"><target>a cat &lt;script&gt;alert(3)&lt;/script&gt;</target></eval>
</sentence>
</evalTrans>"""


@pytest.fixture
def ana(user_factory) -> User:
    return user_factory("ana", role=User.Role.JUDGE)


@pytest.fixture
def seed(ana: User) -> Corpus:
    corpus = in_file_order(corpus_import(source=SEED_XML, name="seed").corpus)
    corpus.judges.add(ana)
    return corpus


def op(page: Page, kind: str, text: str):
    return page.locator(
        f'#candidate button[data-op="{kind}"]', has_text=re.compile(f"^{re.escape(text)}$")
    )


def hold_the_first_request(page: Page, url: str) -> list[Route]:
    """Hold the first request to ``url`` until the test continues the route the returned
    list then holds; let later ones through."""
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(url, hold_the_first)
    return held


def release(page: Page, held: list[Route]) -> None:
    """Let the held request through, once Playwright has handed it to the test (within
    30 s): the page may show it waiting before the route's callback has run here, or
    before the request ahead of it is answered on a busy machine."""
    for _ in range(600):
        if held:
            break
        page.wait_for_timeout(50)  # runs Playwright's callbacks meanwhile
    assert held, f"the request was never sent; the page: {page_state(page)}"
    held[0].continue_()


def page_state(page: Page) -> dict[str, object]:
    """What the judge's page shows of its requests: its queue, its message and the
    elements htmx marks as sending (for the message of a failed test)."""
    return page.evaluate(
        """() => ({
            queue: document.querySelector("#queue-status")?.textContent,
            message: document.querySelector("#client-status-text")?.textContent,
            sending: [...document.querySelectorAll(".htmx-request")].map(e => e.id || e.tagName),
            url: location.href,
        })"""
    )


def requests_to_the_app(page: Page, base: str) -> list[tuple[str, str]]:
    """(method, URL) of every request the page sends to the app from now on, redirects
    followed included (static files left out)."""
    sent: list[tuple[str, str]] = []

    def record(request: Request) -> None:
        if request.url.startswith(base) and "/static/" not in request.url:
            sent.append((request.method, request.url))

    page.on("request", record)
    return sent


def export_of(corpus: Corpus) -> str:
    out = io.BytesIO()
    corpus_export(corpus=corpus, out=out)
    return out.getvalue().decode()


def test_figure_1_by_mouse_saved_scored_accepted_and_exported(
    page: Page, live_server, figures_shown: Corpus, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    expect(page.locator("#edit-count")).to_have_text("5")
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_FIRST_REF))
    expect(page.locator('[data-figure="awer"]')).to_have_text("45.5")
    missing = page.locator('#candidate button[data-op="missing"][data-ref-word="This"]')
    expect(missing).to_have_text("–")
    expect(missing).to_have_attribute("title", re.compile("“This”"))

    missing.click()
    expect(page.locator("#edit-count")).to_have_text("4")
    op(page, "substitution", "Diagram").click()
    expect(page.locator("#edit-count")).to_have_text("3")
    op(page, "substitution", "locate").click()
    expect(page.locator("#edit-count")).to_have_text("2")
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_RESULT))
    expect(page.locator('[data-figure="awer"]')).to_have_text("20.0")

    page.reload()
    expect(page.locator("#edit-count")).to_have_text("2")
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_RESULT))

    page.click('[data-sser="8"]')
    expect(page.locator('[data-sser="8"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-figure="sser"]')).to_have_text("20.0")
    sent = requests_to_the_app(page, live_server.url)
    page.click("#accept-next")
    expect(page.locator("#sentence-number")).to_have_text("2")
    expect(page.locator("#progress")).to_have_text("1/2")
    page.wait_for_timeout(300)  # a redirect or a second request would have been sent by now
    first = Judgment.objects.get(target__sentence__position=0)
    second = Judgment.objects.get(target__sentence__position=1)
    assert sent == [("POST", f"{live_server.url}/judgments/{first.pk}/accept/")]
    assert page.url == f"{live_server.url}/judgments/{second.pk}/"

    export = export_of(seed)
    assert 'evaluator="ana"' in export
    assert 'sser="8"' in export
    assert 'awer="2/10"' in export
    assert f"<newRef>{FIGURE_1_RESULT}</newRef>" in export


def test_figure_1_by_keyboard(page: Page, live_server, seed: Corpus) -> None:
    open_corpus(page, live_server.url)
    expect(page.locator("#edit-count")).to_have_text("5")

    page.keyboard.press("ArrowRight")  # the "–" of the missing "This"
    page.keyboard.press("Enter")
    expect(page.locator("#edit-count")).to_have_text("4")
    expect(op(page, "substitution", "Diagram")).to_be_focused()  # focus stayed in place
    page.keyboard.press("a")
    expect(page.locator("#edit-count")).to_have_text("3")
    expect(op(page, "substitution", "show")).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    expect(page.locator("#edit-count")).to_have_text("2")
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_RESULT))
    page.keyboard.press("=")
    expect(page.locator('[data-sser="10"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("8")
    expect(page.locator('[data-sser="8"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("u")
    expect(page.locator('[data-sser="10"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("r")
    expect(page.locator('[data-sser="8"]')).to_have_attribute("aria-pressed", "true")

    page.keyboard.press("n")
    expect(page.locator("#sentence-number")).to_have_text("2")
    page.keyboard.press("p")
    expect(page.locator("#sentence-number")).to_have_text("1")
    expect(page.locator("#done-note")).to_contain_text("SSER 8")
    judgment = Judgment.objects.get(target__sentence__position=0)
    assert (judgment.new_ref, judgment.sser, judgment.state) == (FIGURE_1_RESULT, 8, "done")
    assert judgment.active_seconds > 0


def test_undo_and_redo_buttons(page: Page, live_server, seed: Corpus) -> None:
    open_corpus(page, live_server.url)
    expect(page.locator("#undo")).to_be_disabled()

    page.locator('#candidate button[data-op="missing"]').click()
    expect(page.locator("#edit-count")).to_have_text("4")
    page.click("#undo")
    expect(page.locator("#edit-count")).to_have_text("5")
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_FIRST_REF))
    page.click("#redo")
    expect(page.locator("#edit-count")).to_have_text("4")
    expect(page.locator("#redo")).to_be_disabled()


def test_editing_words_of_the_new_reference(page: Page, live_server, seed: Corpus) -> None:
    open_corpus(page, live_server.url)

    page.locator('#new-ref a[data-pos="0"]').click()  # "This"
    expect(page.locator("#word-edit-text")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("Diagram")
    page.keyboard.press("Enter")
    expect(page.locator("#edit-count")).to_have_text("4")
    page.locator('#new-ref a[data-pos="1"]').click()  # "figure"
    page.click('#word-change-form button[value="delete"]')
    expect(page.locator("#edit-count")).to_have_text("3")
    page.locator('#new-ref a[data-pos="5"]').click()  # "to"
    page.fill("#word-insert-text", "for")
    page.click('#word-insert-form button[value="insert_before"]')
    expect(page.locator("#new-ref")).to_have_text(
        "Diagram shows the scan procedure for to find the archives ."
    )
    page.fill("#new-ref-text", FIGURE_1_RESULT)
    page.press("#new-ref-text", "Enter")
    expect(page.locator("#edit-count")).to_have_text("2")
    assert page.url.endswith("/")
    assert "edit" not in page.url


def test_clicks_made_during_a_request_are_queued_not_dropped(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    held = hold_the_first_request(page, "**/judgments/*/op/")
    page.locator('#candidate button[data-op="missing"]').click()
    op(page, "substitution", "Diagram").click()  # while the first is in flight
    op(page, "substitution", "locate").click()
    op(page, "substitution", "Diagram").click()  # will no longer apply once accepted
    expect(page.locator("#queue-status")).to_contain_text("3 actions waiting")
    release(page, held)

    expect(page.locator("#edit-count")).to_have_text("2")
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_RESULT))
    expect(page.locator("#client-status")).to_contain_text("no longer applies")
    expect(page.locator("#client-status")).to_contain_text("“Diagram”")


def test_a_failed_request_shows_an_error_and_retry_sends_it(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    page.route("**/judgments/*/sser/", lambda route: route.abort("internetdisconnected"))

    page.click('[data-sser="7"]')
    expect(page.locator("#client-status")).to_be_visible()
    expect(page.locator("#client-status")).to_contain_text("SSER 7 was not saved")
    expect(page.locator("#retry")).to_be_visible()
    page.unroute("**/judgments/*/sser/")
    page.click("#retry")

    expect(page.locator('[data-sser="7"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#client-status")).to_be_hidden()
    assert Judgment.objects.get(target__sentence__position=0).sser == 7


def test_clicks_queued_during_accept_and_next_never_reach_the_next_candidate(
    page: Page, live_server, seed: Corpus
) -> None:
    """A second "n" (or an SSER key) pressed while "accept & next" is on its way was aimed
    at the accepted candidate: replayed on the next one it would score or accept a
    candidate the judge has not seen."""
    open_corpus(page, live_server.url)
    page.click('[data-sser="8"]')
    expect(page.locator('[data-sser="8"]')).to_have_attribute("aria-pressed", "true")
    held = hold_the_first_request(page, "**/judgments/*/accept/")

    page.click("#accept-next")
    page.wait_for_selector("#judge .htmx-request", state="attached")
    page.keyboard.press("9")
    page.keyboard.press("n")
    expect(page.locator("#queue-status")).to_contain_text("2 actions waiting")
    release(page, held)

    expect(page.locator("#sentence-number")).to_have_text("2")
    expect(page.locator("#client-status")).to_contain_text("SSER 9 was made on another candidate")
    expect(page.locator("#client-status")).to_contain_text("Accept & next")
    expect(page.locator('[data-sser="9"]')).to_have_attribute("aria-pressed", "false")
    second = Judgment.objects.get(target__sentence__position=1)
    assert (second.sser, second.state) == (None, "pending")
    assert Judgment.objects.get(target__sentence__position=0).sser == 8


def test_a_lost_answer_retried_is_saved_once_and_not_called_stale(
    page: Page, live_server, seed: Corpus
) -> None:
    """The request reached the server, the answer did not reach the page: Retry repeats the
    very request, and the page shows it saved rather than "changed in another tab"."""
    open_corpus(page, live_server.url)

    def deliver_then_drop(route: Route) -> None:
        route.fetch()  # the server saves the change …
        route.abort("connectionreset")  # … and the answer is lost

    page.route("**/judgments/*/op/", deliver_then_drop)
    page.locator('#candidate button[data-op="missing"]').click()
    expect(page.locator("#client-status")).to_contain_text("was not saved")
    expect(page.locator("#client-status-close")).to_be_hidden()  # only Retry clears it
    page.unroute("**/judgments/*/op/")
    page.click("#retry")

    expect(page.locator("#edit-count")).to_have_text("4")
    expect(page.locator("#client-status")).to_be_hidden()
    expect(page.locator("#judge-message")).to_have_count(0)
    judgment = Judgment.objects.get(target__sentence__position=0)
    assert (judgment.edits, judgment.version) == (4, 2)
    assert judgment.events.filter(kind="accept_op").count() == 1


def test_a_stale_tab_is_refused_with_the_fresh_state(page: Page, live_server, seed: Corpus) -> None:
    open_corpus(page, live_server.url)
    other = page.context.new_page()
    other.goto(page.url)
    wait_for_htmx(other)

    page.locator('#candidate button[data-op="missing"]').click()
    expect(page.locator("#edit-count")).to_have_text("4")
    other.click('[data-sser="9"]')

    message = other.locator('#judge-message[data-message-kind="stale"]')
    expect(message).to_be_visible()
    expect(message).to_contain_text("changed in another tab")
    expect(other.locator("#edit-count")).to_have_text("4")
    expect(other.locator('[data-sser="9"]')).to_have_attribute("aria-pressed", "false")
    judgment = Judgment.objects.get(target__sentence__position=0)
    assert (judgment.edits, judgment.sser) == (4, None)


def test_an_unclosed_bidi_override_cannot_reverse_the_rest_of_the_line(
    page: Page, live_server, ana: User
) -> None:
    corpus = corpus_import(source=io.BytesIO(BIDI_XML), name="bidi").corpus
    corpus.judges.add(ana)

    open_corpus(page, live_server.url, "bidi")

    for block in ("#source", "#candidate", "#new-ref"):
        assert page.get_attribute(block, "dir") == "auto"
    words = page.locator("#candidate .w, #candidate .op")
    assert words.count() >= 3
    styles = words.evaluate_all("ws => ws.map(w => getComputedStyle(w).unicodeBidi)")
    assert set(styles) == {"isolate"}
    # the override stays inside its own word: the word after it reads left to right
    boxes = [words.nth(k).bounding_box() for k in range(words.count())]
    assert all(a["x"] < b["x"] for a, b in zip(boxes, boxes[1:], strict=False))


def test_hostile_corpus_text_is_shown_as_text_and_never_runs(
    page: Page, live_server, ana: User
) -> None:
    corpus = corpus_import(source=io.BytesIO(HOSTILE.encode()), name="hostile").corpus
    corpus.judges.add(ana)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    open_corpus(page, live_server.url, "hostile")

    expect(page.locator("#source")).to_have_text(
        '<script>document.title="owned"; alert(1)</script> el gato'
    )
    expect(op(page, "substitution", "script")).to_be_visible()  # 13a: "<", "script", ">"
    op(page, "extra", "script").click()
    expect(page.locator("#new-ref")).to_contain_text("script")
    assert page.locator("#main script, #main img").count() == 0
    assert page.title() != "owned"
    assert dialogs == []


def test_the_page_works_without_javascript(browser, live_server, seed: Corpus) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, live_server.url)
        page.click('a[data-action="continue"][data-corpus="seed"]')
        page.wait_for_url(re.compile(r"/judgments/\d+/$"))

        page.locator('#candidate button[data-op="missing"]').click()
        expect(page.locator("#edit-count")).to_have_text("4")
        page.locator('#new-ref a[data-pos="0"]').click()  # the word editor, server-rendered
        page.fill("#word-edit-text", "Diagram")
        page.click('#word-change-form button[value="replace"]')
        expect(page.locator("#edit-count")).to_have_text("3")
        page.click('[data-sser="8"]')
        expect(page.locator('[data-sser="8"]')).to_have_attribute("aria-pressed", "true")
        page.click("#accept-next")
        expect(page.locator("#sentence-number")).to_have_text("2")
    finally:
        context.close()
    judgment = Judgment.objects.get(target__sentence__position=0)
    assert (judgment.new_ref, judgment.sser, judgment.state) == (
        "Diagram shows the scan procedure to find the archives.",
        8,
        "done",
    )


ONE_CANDIDATE = """<evalTrans>
<sentence>
  <source>el gato</source>
  <eval translator="first reference"><target>the cat</target></eval>
  <eval translator="sys"><target>a cat</target></eval>
</sentence>
</evalTrans>"""


def test_the_finished_pages_links_lead_where_they_say(page: Page, live_server, ana: User) -> None:
    """The finished page comes in by htmx after the last accept; its plain links (no
    htmx on them) navigate at once, never held back as a click made mid-request."""
    corpus = corpus_import(source=io.BytesIO(ONE_CANDIDATE.encode()), name="one").corpus
    corpus.judges.add(ana)
    open_corpus(page, live_server.url, name="one")
    page.keyboard.press("=")
    expect(page.locator('[data-sser="10"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("n")
    expect(page.locator("#last-candidate")).to_be_visible()
    judgment = Judgment.objects.get(evaluator=ana)

    page.locator("#last-candidate").click()

    expect(page).to_have_url(re.compile(rf"/judgments/{judgment.pk}/$"))
    expect(page.locator("#done-note")).to_contain_text("SSER 10")
