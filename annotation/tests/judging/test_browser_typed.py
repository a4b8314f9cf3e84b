"""Nothing typed is lost (issue 23, point 1) in real Chromium: a value typed and not saved
(the whole text, the word editor, the note) is saved before the action that would redraw
the page, a flag is saved as soon as it is chosen, Esc on the word editor discards it on
purpose, and leaving the page with unsaved text asks first. Each test reads the database
afterwards."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotation.models import Corpus, Judgment
from annotation.tests.browsing import open_corpus, score, shown_words
from annotation.tests.factories import FIGURE_1_FIRST_REF, FIGURE_1_RESULT
from annotation.tests.judging import test_browser_spans
from annotation.tests.judging.test_browser import hold_the_first_request, release

pytestmark = pytest.mark.django_db(transaction=True)

seed = test_browser_spans.seed  # seed 001's corpus, judged by "ana"


def first() -> Judgment:
    return Judgment.objects.get(target__sentence__position=0)


def kinds(judgment: Judgment) -> list[str]:
    return list(judgment.events.exclude(kind="open").values_list("kind", flat=True))


def test_a_whole_text_typed_and_not_saved_is_saved_by_accept_and_next(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    score(page, 8)
    page.fill("#new-ref-text", FIGURE_1_RESULT)  # no Enter, no "Save text"

    page.click("#accept-next")

    expect(page.locator("#sentence-number")).to_have_text("2")
    judgment = first()
    assert (judgment.new_ref, judgment.edits, judgment.sser, judgment.state) == (
        FIGURE_1_RESULT,
        2,
        8,
        "done",
    )
    assert kinds(judgment) == ["set_sser", "edit_ref", "finish"]


def test_a_note_and_the_flag_unsure_survive_an_sser_click(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    page.fill("#note-text", "not sure of “muestra”")
    page.select_option("#note-flag", "unsure")  # saved at once, with the note as typed
    expect(page.locator("#note-shown")).to_have_attribute("data-flag", "unsure")
    assert (first().note, first().flag) == ("not sure of “muestra”", "unsure")

    page.fill("#note-text", "not sure of “muestra” nor of “ficheros”")
    page.click('[data-sser="6"]')

    expect(page.locator('[data-sser="6"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#note-text")).to_have_value("not sure of “muestra” nor of “ficheros”")
    expect(page.locator("#note-flag")).to_have_value("unsure")
    judgment = first()
    assert (judgment.note, judgment.flag, judgment.sser) == (
        "not sure of “muestra” nor of “ficheros”",
        "unsure",
        6,
    )
    assert kinds(judgment) == ["set_note", "set_note", "set_sser"]


def test_a_whole_text_and_a_note_both_typed_are_both_saved_before_n(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    score(page, 8)
    page.fill("#new-ref-text", FIGURE_1_RESULT)
    page.fill("#note-text", "two fields typed")
    page.click("#h-source")
    page.keyboard.press("n")

    expect(page.locator("#sentence-number")).to_have_text("2")
    judgment = first()
    assert (judgment.new_ref, judgment.note, judgment.state) == (
        FIGURE_1_RESULT,
        "two fields typed",
        "done",
    )
    assert kinds(judgment) == ["set_sser", "edit_ref", "set_note", "finish"]


def test_a_refused_save_holds_the_action_back_and_keeps_the_text(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    score(page, 8)
    page.fill("#new-ref-text", "a bell \x07 rings")  # XML cannot hold it: refused
    page.click("#accept-next")

    expect(page.locator("#judge-message")).to_be_visible()
    expect(page.locator("#client-status")).to_contain_text("was not done")
    expect(page.locator("#new-ref-text")).to_have_value("a bell \x07 rings")
    expect(page.locator("#sentence-number")).to_have_text("1")
    judgment = first()
    assert (judgment.new_ref, judgment.state) == (FIGURE_1_FIRST_REF, "pending")


def test_a_note_typed_while_a_click_is_on_its_way_is_kept_and_saved(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    held = hold_the_first_request(page, "**/judgments/*/sser/")
    page.click('[data-sser="8"]')
    page.fill("#note-text", "typed meanwhile")
    release(page, held)
    expect(page.locator('[data-sser="8"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#note-text")).to_have_value("typed meanwhile")  # put back

    page.click("#accept-next")
    expect(page.locator("#sentence-number")).to_have_text("2")
    judgment = first()
    assert (judgment.note, judgment.sser, judgment.state) == ("typed meanwhile", 8, "done")


def test_a_flag_chosen_with_the_keyboard_is_saved_before_n(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    score(page, 8)
    page.focus("#note-flag")
    page.keyboard.press("ArrowDown")  # garbled
    page.keyboard.press("ArrowDown")  # unsure
    expect(page.locator("#note-shown")).to_have_attribute("data-flag", "unsure")
    expect(page.locator("#note-flag")).to_be_focused()  # ↓ goes on choosing
    page.keyboard.press("Escape")
    page.keyboard.press("n")

    expect(page.locator("#sentence-number")).to_have_text("2")
    judgment = first()
    assert (judgment.flag, judgment.sser, judgment.state) == ("unsure", 8, "done")


def test_the_word_editor_typed_in_is_saved_before_an_action_and_esc_discards_it(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    page.locator('#new-ref a[data-pos="0"]').click()  # "This"
    page.fill("#word-edit-text", "Diagram")  # no Enter
    page.click('[data-sser="7"]')

    expect(page.locator('[data-sser="7"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#new-ref")).to_have_text(
        shown_words("Diagram figure shows the scan procedure to find the archives.")
    )
    assert (first().new_ref, first().sser) == (
        "Diagram figure shows the scan procedure to find the archives.",
        7,
    )

    page.locator('#new-ref a[data-pos="6"]').click()  # "to"
    page.fill("#word-insert-text", "for")
    page.keyboard.press("Escape")  # the judge closes the editor: discarded on purpose
    expect(page.locator("#word-editor")).to_have_count(0)
    assert first().version == 3

    page.locator('#new-ref a[data-pos="6"]').click()
    page.fill("#word-insert-text", "for")  # saved as Enter would: before the word
    page.click("#h-source")  # out of the field, the editor still open …
    expect(page.locator("#word-editor")).to_have_count(1)
    page.keyboard.press("=")  # … and a key acts: the insertion is saved first
    expect(page.locator('[data-sser="10"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#new-ref")).to_have_text(
        shown_words("Diagram figure shows the scan procedure for to find the archives.")
    )
    judgment = first()
    assert (judgment.new_ref, judgment.sser) == (
        "Diagram figure shows the scan procedure for to find the archives.",
        10,
    )
    assert kinds(judgment) == ["edit_word", "set_sser", "edit_word", "set_sser"]


def test_leaving_the_page_with_unsaved_text_asks_first(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    dialogs: list[str] = []

    def dismiss(dialog) -> None:
        dialogs.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.click("#new-ref-text")
    page.keyboard.press("Control+A")
    page.keyboard.type(FIGURE_1_RESULT)

    with page.expect_event("dialog"):
        page.close(run_before_unload=True)  # the judge closes the tab: asked, and stays
    assert dialogs == ["beforeunload"]
    assert not page.is_closed()
    assert first().new_ref == FIGURE_1_FIRST_REF  # nothing saved behind the judge's back

    page.keyboard.press("Enter")  # saved: leaving asks nothing
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_RESULT))
    with page.expect_event("close"):
        page.close(run_before_unload=True)
    assert dialogs == ["beforeunload"]
    assert first().new_ref == FIGURE_1_RESULT
