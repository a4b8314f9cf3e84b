"""Faster judging (issue 14, point 1) in real Chromium: the reference word under every
mark (for the mouse and for the keyboard focus), "keep" on an extra word, the one-key
"correct as it is" and its undo, the whole-text field that grows, a note and a flag that
go through export and import, the document around the source and the progress bar."""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from annotation.corpora.exports import corpus_export
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import open_corpus, shown_words
from annotation.tests.factories import (
    DEMO_XML,
    FIGURE_1_AS_IS,
    FIGURE_1_CANDIDATE,
    FIGURE_1_FIRST_REF,
    SEED_XML,
    import_xml,
    in_file_order,
)
from annotation.text import readable_text

pytestmark = pytest.mark.django_db(transaction=True)

#: What the reference word under a mark looks like when the mark has the focus or the
#: pointer (static/css/evaltool.css): white on black.
HIGHLIGHTED = "rgb(0, 0, 0)"


#: One system whose candidate has one extra word, "big".
BIG_CAT = """<evalTrans><sentence><source>el gato</source>
<eval translator="first reference"><target>the cat sat on the mat .</target></eval>
<eval translator="sys"><target>the big cat sat on the mat .</target></eval>
</sentence></evalTrans>"""


@pytest.fixture
def ana(user_factory) -> User:
    return user_factory("ana", role=User.Role.JUDGE)


@pytest.fixture
def seed(ana: User) -> Corpus:
    corpus = in_file_order(corpus_import(source=SEED_XML, name="seed").corpus)
    corpus.judges.add(ana)
    return corpus


def under(mark: Locator) -> dict[str, str]:
    """The word drawn under a mark of the candidate (its ``::after``), as the browser
    renders it: which word, whether it is drawn, its background, and whether it takes a
    line of its own under the word (the mark is then taller than a plain word)."""
    return mark.evaluate(
        """e => {
            const s = getComputedStyle(e, "::after");
            const plain = document.querySelector("#candidate .w").getBoundingClientRect();
            return {
                word: e.getAttribute("data-inline"),
                shown: s.display === "block" && s.content.includes("attr(data-inline)")
                    || s.content.startsWith('"'),
                background: s.backgroundColor,
                below: e.getBoundingClientRect().height > 1.4 * plain.height,
            };
        }"""
    )


def test_every_reference_word_is_shown_inline_and_stands_out_on_focus_and_hover(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    marks = page.locator("#candidate button[data-op]")
    expect(marks).to_have_count(5)
    drawn = [under(marks.nth(k)) for k in range(5)]
    assert [d["word"] for d in drawn] == ["This", "figure", "shows", "to", "find"]
    assert all(d["shown"] and d["below"] for d in drawn), drawn
    assert all(d["background"] != HIGHLIGHTED for d in drawn)
    # the reference words are drawn, not text: the candidate reads as the candidate
    expect(page.locator("#candidate")).to_have_text(re.compile(r"^\s*–\s+Diagram\s+show\s"))
    expect(page.locator("#candidate")).not_to_contain_text("figure")

    page.keyboard.press("ArrowRight")  # the keyboard: "–" of the missing "This"
    expect(marks.nth(0)).to_be_focused()
    assert under(marks.nth(0))["background"] == HIGHLIGHTED
    page.keyboard.press("ArrowRight")
    expect(marks.nth(1)).to_be_focused()
    assert under(marks.nth(0))["background"] != HIGHLIGHTED
    assert under(marks.nth(1))["background"] == HIGHLIGHTED

    marks.nth(4).hover()  # the mouse: no tooltip to wait for
    assert under(marks.nth(4))["background"] == HIGHLIGHTED


def test_an_extra_word_reads_keep_and_is_not_struck_through(
    page: Page, live_server, ana: User
) -> None:
    import_xml(BIG_CAT, "cats", ana)
    open_corpus(page, live_server.url, "cats")
    extra = page.locator('#candidate button[data-op="extra"]')
    expect(extra).to_have_text("big")
    assert under(extra)["word"] == "keep"
    assert under(extra)["shown"]
    decoration = extra.evaluate("e => getComputedStyle(e, '::first-line').textDecorationLine")
    assert decoration == "underline"  # not struck through: it is kept, never deleted

    extra.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#new-ref")).to_have_text("the big cat sat on the mat .")


def test_correct_as_it_is_in_one_key_and_undone_in_one(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    expect(page.locator("#edit-count")).to_have_text("5")

    page.keyboard.press("o")
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_CANDIDATE))
    expect(page.locator("#edit-count")).to_have_text("0")
    expect(page.locator("#candidate button[data-op]")).to_have_count(0)
    expect(page.locator("#accept-as-is")).to_be_disabled()

    page.keyboard.press("u")
    expect(page.locator("#new-ref")).to_have_text(shown_words(FIGURE_1_FIRST_REF))
    expect(page.locator("#edit-count")).to_have_text("5")
    page.keyboard.press("r")
    expect(page.locator("#edit-count")).to_have_text("0")
    judgment = Judgment.objects.get(target__sentence__position=0)
    assert (judgment.new_ref, judgment.edits) == (FIGURE_1_AS_IS, 0)
    kinds = list(judgment.events.exclude(kind="open").values_list("kind", flat=True))
    assert kinds == ["as_is", "undo", "redo"]


def test_the_button_does_what_the_key_does(page: Page, live_server, seed: Corpus) -> None:
    open_corpus(page, live_server.url)
    page.click("#accept-as-is")
    expect(page.locator("#edit-count")).to_have_text("0")
    page.click("#undo")
    expect(page.locator("#edit-count")).to_have_text("5")


@pytest.mark.parametrize("sizing", ["css", "script"])
def test_the_whole_text_field_grows_with_its_text_and_enter_saves_it(
    page: Page, live_server, seed: Corpus, sizing: str
) -> None:
    """``css``: Chromium's own ``field-sizing: content``; ``script``: a browser without it,
    where static/js/layout.js sets the height."""
    if sizing == "script":
        page.add_init_script(WITHOUT_FIELD_SIZING)
    open_corpus(page, live_server.url)
    field = page.locator("#new-ref-text")
    assert field.evaluate("e => e.tagName") == "TEXTAREA"
    expect(field).to_have_value(FIGURE_1_FIRST_REF)
    one_line = field.bounding_box()["height"]
    width = field.bounding_box()["width"]

    page.keyboard.press("e")
    expect(field).to_be_focused()
    long_text = " ".join(["This figure shows the scan procedure to find the archives ,"] * 8)
    page.keyboard.type(long_text)  # "e" selected the text: typing replaces it
    assert field.bounding_box()["height"] > 3 * one_line
    assert field.bounding_box()["width"] == pytest.approx(width, abs=2)  # grows down only
    assert field.evaluate("e => e.scrollHeight <= e.clientHeight + 2")  # all of it shown

    page.keyboard.press("Enter")
    expect(page.locator("#new-ref")).to_have_text(shown_words(long_text))
    expect(page.locator("#new-ref-text")).to_have_value(readable_text(long_text))  # one line
    assert page.locator("#new-ref-text").bounding_box()["height"] > 3 * one_line  # drawn grown
    assert Judgment.objects.get(target__sentence__position=0).new_ref == readable_text(long_text)


#: A browser without CSS field-sizing: the property is ignored on the field, and
#: ``CSS.supports`` says so.
WITHOUT_FIELD_SIZING = """
const supports = CSS.supports.bind(CSS);
CSS.supports = (...args) => !String(args[0]).startsWith("field-sizing") && supports(...args);
const sheet = new CSSStyleSheet();
sheet.replaceSync("#new-ref-text { field-sizing: fixed !important; }");
document.adoptedStyleSheets = [sheet];
"""


def test_a_note_and_a_flag_are_saved_undone_exported_and_imported_again(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    page.select_option("#note-flag", "garbled")  # saved as soon as chosen
    expect(page.locator("#note-shown")).to_have_attribute("data-flag", "garbled")
    page.keyboard.press("Escape")
    page.keyboard.press("f")
    expect(page.locator("#note-text")).to_be_focused()
    page.keyboard.type("“muestra” has no subject")
    page.keyboard.press("Enter")
    expect(page.locator("#note-shown")).to_have_attribute("data-flag", "garbled")
    expect(page.locator("#note-shown")).to_contain_text("“muestra” has no subject")

    page.keyboard.press("u")  # the note goes, the flag chosen before it stays
    expect(page.locator("#note-text")).to_have_value("")
    expect(page.locator("#note-shown")).not_to_contain_text("muestra")
    expect(page.locator("#note-shown")).to_have_attribute("data-flag", "garbled")
    page.keyboard.press("r")
    expect(page.locator("#note-shown")).to_contain_text("“muestra” has no subject")
    expect(page.locator("#note-shown")).to_contain_text("The source is garbled")
    page.keyboard.press("8")
    expect(page.locator('[data-sser="8"]')).to_have_attribute("aria-pressed", "true")

    out = io.BytesIO()
    corpus_export(corpus=seed, out=out)
    exported = out.getvalue()
    assert b'judgeFlag="garbled" judgeNote="\xe2\x80\x9cmuestra\xe2\x80\x9d has no subject"' in (
        exported
    )
    corpus_import(source=io.BytesIO(exported), name="again", assign=True)

    page.goto(f"{live_server.url}/")
    page.click('a[data-action="continue"][data-corpus="again"]')
    page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    expect(page.locator("#source")).to_contain_text("La figura muestra el método de")
    expect(page.locator("#note-text")).to_have_value("“muestra” has no subject")
    expect(page.locator("#note-flag")).to_have_value("garbled")
    expect(page.locator('[data-sser="8"]')).to_have_attribute("aria-pressed", "true")


def test_the_document_around_the_source_and_the_progress_bar(
    page: Page, live_server, ana: User
) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    corpus.judges.add(ana)
    first = corpus.sentences.get(queue_position=0)  # drawn within the talk
    before, after = (corpus.sentences.get(position=first.position + d) for d in (-1, 1))
    assert first.doc == before.doc == after.doc  # the demo is one TED talk

    open_corpus(page, live_server.url, "demo")
    expect(page.locator("#source")).to_contain_text(first.source)
    expect(page.locator("#source-before")).to_contain_text(before.source)
    expect(page.locator("#source-after")).to_contain_text(after.source)
    size = page.locator("#source-after").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size < page.locator("#source").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    bar = page.locator("#progress-bar")
    expect(bar).to_be_visible()
    expect(bar).to_have_attribute("value", "0")
    expect(page.locator("#time-left")).to_contain_text("not known yet")

    page.keyboard.press("=")
    expect(page.locator('[data-sser="10"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("n")
    expect(bar).to_have_attribute("value", "1")
    expect(page.locator("#pace")).to_contain_text("per candidate")
    expect(page.locator("#time-left")).to_contain_text("left")
