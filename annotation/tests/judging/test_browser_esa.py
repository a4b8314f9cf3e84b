"""The ESA / MQM page (issue 41, point 2) in real Chromium: an ESA judgment end to end
with the mouse, one with the keyboard, an MQM judgment with a category, and a
right-to-left candidate marked by keys. Each test reads the database afterwards."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from annotation.models import Corpus, Judgment, Span, User
from annotation.models.corpus import Protocol
from annotation.tests.browsing import open_corpus
from annotation.tests.factories import import_xml, in_file_order
from annotation.tests.judging.test_browser import hold_the_first_request, release
from annotation.tests.test_browser_accessibility import Audit, tab_through

pytestmark = pytest.mark.django_db(transaction=True)

#: Two sentences of one document; the first candidate is the one the tests mark.
TWO = """<evalTrans>
<sentence doc="news"><source>el gato se sentó en la alfombra</source>
<eval translator="first reference"><target>the cat sat on the mat</target></eval>
<eval translator="sys"><target>the cat sat on the mat</target></eval></sentence>
<sentence doc="news"><source>un perro corrió</source>
<eval translator="first reference"><target>a dog ran</target></eval>
<eval translator="sys"><target>a dog run</target></eval></sentence>
</evalTrans>"""
FIRST = "the cat sat on the mat"
END = len(FIRST)

#: English into Arabic: the candidate is drawn right to left.
ARABIC = """<evalTrans srclang="en" trglang="ar">
<sentence><source>The cat sleeps well.</source>
<eval translator="first reference"><target>القطة تنام جيدا</target></eval>
<eval translator="sys"><target>القطة نامت جيدا</target></eval></sentence>
</evalTrans>"""


def corpus(user_factory, protocol: str, text: str = TWO, name: str = "esa") -> Corpus:
    made = in_file_order(import_xml(text, name, user_factory("ana", role=User.Role.JUDGE)))
    made.protocol = protocol
    made.save(update_fields=["protocol"])
    return made


def first_judgment() -> Judgment:
    return Judgment.objects.get(target__sentence__position=0)


def spans() -> list[tuple[int, int, str, str, bool]]:
    return list(
        Span.objects.filter(judgment=first_judgment())
        .order_by("start", "end")
        .values_list("start", "end", "severity", "category", "missing")
    )


def piece(page: Page, start: int) -> Locator:
    return page.locator(f'#candidate .piece[data-start="{start}"]')


def drag(page: Page, start: Locator, end: Locator) -> None:
    """Select with the mouse from the left edge of ``start`` to the right edge of ``end``."""
    a, b = start.bounding_box(), end.bounding_box()
    assert a
    assert b
    page.mouse.move(a["x"] + 1, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] - 1, b["y"] + b["height"] / 2, steps=5)
    page.mouse.up()


def row(page: Page, token: str) -> Locator:
    return page.locator(f'#spans .span-row[data-span="{token}"]')


def test_an_esa_judgment_with_the_mouse(page: Page, live_server, user_factory) -> None:
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")
    expect(page.locator("#source-after")).to_contain_text("un perro corrió")
    expect(page.locator("#candidate")).to_contain_text(FIRST)

    drag(page, piece(page, 4), piece(page, 8))  # "cat sat"
    expect(page.locator("#selection-shown")).to_have_text("Selected: “cat sat”")
    page.click("#mark-major")
    expect(row(page, "4:11:major:0:")).to_be_visible()
    piece(page, 19).click()  # "mat": a click selects its word
    page.click("#mark-minor")
    expect(row(page, "19:22:minor:0:")).to_be_visible()
    page.click("#missing-token")
    page.click("#mark-minor")
    expect(row(page, f"{END}:{END}:minor:1:")).to_be_visible()
    row(page, "19:22:minor:0:").locator('[data-action="remove-span"]').click()
    expect(row(page, "19:22:minor:0:")).to_have_count(0)
    drag(page, piece(page, 4), piece(page, 4))  # "cat" over the span "cat sat": resized
    page.click("#mark-minor")
    expect(row(page, "4:7:minor:0:")).to_be_visible()
    expect(page.locator("#spans .span-row")).to_have_count(2)

    slider = page.locator("#esa-score-range")
    box = slider.bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] * 0.7, box["y"] + box["height"] / 2)
    value = slider.input_value()
    expect(page.locator("#esa-score-number")).to_have_value(value)
    expect(page.locator("#esa-shown")).to_have_text(value)
    assert 60 <= int(value) <= 80
    page.fill("#esa-score-number", "72")
    page.press("#esa-score-number", "Enter")
    expect(page.locator("#esa-shown")).to_have_text("72")
    expect(slider).to_have_value("72")
    page.click("#accept-next")

    expect(page.locator("#candidate")).to_contain_text("a dog run")
    saved = first_judgment()
    assert (saved.state, saved.esa_score) == (Judgment.State.DONE, 72)
    assert spans() == [(4, 7, "minor", "", False), (END, END, "minor", "", True)]


def test_an_esa_judgment_with_the_keyboard(page: Page, live_server, user_factory) -> None:
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")
    for key in ("ArrowRight", "ArrowRight", "Shift+ArrowRight"):
        page.keyboard.press(key)
    expect(page.locator("#selection-shown")).to_have_text("Selected: “cat sat”")
    page.keyboard.press("2")
    expect(row(page, "4:11:major:0:")).to_be_visible()
    page.keyboard.press("ArrowLeft")  # the cursor from "sat" to "cat": resize to it
    page.keyboard.press("1")
    expect(row(page, "4:7:minor:0:")).to_be_visible()
    page.keyboard.press("i")
    page.keyboard.press("2")
    expect(row(page, f"{END}:{END}:major:1:")).to_be_visible()
    page.keyboard.press("i")
    page.keyboard.press("Delete")
    expect(row(page, f"{END}:{END}:major:1:")).to_have_count(0)
    page.keyboard.press("u")  # undo brings it back
    expect(row(page, f"{END}:{END}:major:1:")).to_be_visible()
    page.keyboard.press("s")
    expect(page.locator("#esa-score-number")).to_be_focused()
    page.keyboard.type("40")
    page.keyboard.press("Enter")
    expect(page.locator("#esa-shown")).to_have_text("40")
    expect(page.locator("#esa-score-range")).to_have_value("40")
    page.keyboard.press("n")

    expect(page.locator("#candidate")).to_contain_text("a dog run")
    saved = first_judgment()
    assert (saved.state, saved.esa_score) == (Judgment.State.DONE, 40)
    assert spans() == [(4, 7, "minor", "", False), (END, END, "major", "", True)]


def test_an_mqm_judgment_with_a_category(page: Page, live_server, user_factory) -> None:
    corpus(user_factory, Protocol.MQM)
    open_corpus(page, live_server.url, name="esa")
    expect(page.locator("#esa-score-range")).to_have_count(0)
    page.select_option("#mqm-category", "Fluency/Punctuation")
    piece(page, 19).click()
    page.click("#mark-minor")
    expect(row(page, "19:22:minor:0:Fluency/Punctuation")).to_be_visible()
    expect(page.locator("#mqm-score")).to_have_text("0.1")
    # The same word, another category: MQM lets two errors cover it.
    page.keyboard.press("c")
    expect(page.locator("#mqm-category")).to_be_focused()
    page.select_option("#mqm-category", "Accuracy/Mistranslation")
    page.keyboard.press("Escape")
    piece(page, 19).click()
    page.keyboard.press("2")
    expect(row(page, "19:22:major:0:Accuracy/Mistranslation")).to_be_visible()
    expect(page.locator("#mqm-score")).to_have_text("5.1")
    # A span's category changed in its row.
    row(page, "19:22:minor:0:Fluency/Punctuation").locator("select").select_option("Other")
    expect(row(page, "19:22:minor:0:Other")).to_be_visible()
    expect(page.locator("#mqm-score")).to_have_text("6")
    page.click("#accept-next")

    expect(page.locator("#candidate")).to_contain_text("a dog run")
    assert first_judgment().state == Judgment.State.DONE
    assert sorted(spans()) == [
        (19, 22, "major", "Accuracy/Mistranslation", False),
        (19, 22, "minor", "Other", False),
    ]


def test_a_right_to_left_candidate_is_marked_by_keys_in_characters(
    page: Page, live_server, user_factory
) -> None:
    corpus(user_factory, Protocol.ESA, ARABIC, "arabic")
    open_corpus(page, live_server.url, name="arabic")
    candidate = page.locator("#candidate")
    expect(candidate).to_have_attribute("dir", "rtl")
    assert candidate.evaluate("e => getComputedStyle(e).direction") == "rtl"
    page.keyboard.press("ArrowLeft")  # right to left: ← goes on to the first word
    page.keyboard.press("ArrowLeft")  # and to the second, "نامت"
    page.keyboard.press("2")
    expect(row(page, "6:10:major:0:")).to_be_visible()
    assert spans() == [(6, 10, "major", "", False)]


def at_1000_by_700_with_two_spans(page: Page, base: str, user_factory, protocol: str) -> None:
    """The judge's first candidate of a ``protocol`` corpus in a 1000×700 window, "cat"
    marked major and [MISSING] minor."""
    corpus(user_factory, protocol)
    page.set_viewport_size({"width": 1000, "height": 700})
    open_corpus(page, base, name="esa")
    piece(page, 4).click()
    page.keyboard.press("2")
    page.keyboard.press("i")
    page.keyboard.press("1")
    expect(page.locator("#spans .span-row")).to_have_count(2)


@pytest.mark.parametrize("protocol", [Protocol.ESA, Protocol.MQM])
def test_the_page_fits_one_screen_of_1000_by_700(
    page: Page, live_server, user_factory, protocol: str
) -> None:
    """Source and its context, candidate, marking, score and accept & next: all in the
    window without scrolling, with spans marked."""
    at_1000_by_700_with_two_spans(page, live_server.url, user_factory, protocol)
    shown = ["#source-after", "#candidate", "#mark-major", "#spans", "#accept-next"]
    shown += ["#mqm-score", "#mqm-category"] if protocol == Protocol.MQM else ["#esa-score-number"]
    for selector in shown:
        box = page.locator(selector).bounding_box()
        assert box, selector
        assert box["y"] >= 0, selector
        assert box["y"] + box["height"] <= 700, selector
        assert box["x"] + box["width"] <= 1000, selector


def test_a_refused_span_says_why_and_saves_nothing(page: Page, live_server, user_factory) -> None:
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")
    piece(page, 4).click()
    page.keyboard.press("1")
    piece(page, 12).click()
    page.keyboard.press("1")
    expect(page.locator("#spans .span-row")).to_have_count(2)
    drag(page, piece(page, 4), piece(page, 12))  # "cat sat on": over both spans
    page.keyboard.press("2")

    expect(page.locator("#judge-message")).to_contain_text("the new span: overlaps span 1")
    assert spans() == [(4, 7, "minor", "", False), (12, 14, "minor", "", False)]


def test_a_lost_answer_retried_is_saved_once(page: Page, live_server, user_factory) -> None:
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")

    def deliver_then_drop(route: Route) -> None:
        route.fetch()  # the server saves the span …
        route.abort("connectionreset")  # … and the answer is lost

    page.route("**/judgments/*/mark-span/", deliver_then_drop)
    piece(page, 4).click()
    page.click("#mark-major")
    expect(page.locator("#client-status")).to_contain_text("was not saved")
    page.unroute("**/judgments/*/mark-span/")
    page.click("#retry")

    expect(row(page, "4:7:major:0:")).to_be_visible()
    expect(page.locator("#client-status")).to_be_hidden()
    expect(page.locator("#judge-message")).to_have_count(0)
    assert spans() == [(4, 7, "major", "", False)]
    assert first_judgment().events.filter(kind="mark_span").count() == 1


def test_spans_marked_while_a_request_is_held_are_all_saved_in_order(
    page: Page, live_server, user_factory
) -> None:
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")
    held = hold_the_first_request(page, "**/judgments/*/mark-span/")
    piece(page, 4).click()
    page.keyboard.press("1")  # held on its way
    piece(page, 19).click()
    page.keyboard.press("2")
    piece(page, 19).click()
    page.keyboard.press("Delete")  # acts on "mat" once it is saved
    expect(page.locator("#queue-status")).to_contain_text("waiting")
    release(page, held)

    expect(page.locator("#judge")).to_have_attribute("data-version", "4")  # 3 changes
    expect(row(page, "4:7:minor:0:")).to_be_visible()
    expect(page.locator("#spans .span-row")).to_have_count(1)
    expect(page.locator("#queue-status")).to_be_hidden()
    assert spans() == [(4, 7, "minor", "", False)]
    assert first_judgment().events.filter(kind="mark_span").count() == 3


@pytest.mark.parametrize("protocol", [Protocol.ESA, Protocol.MQM])
def test_the_page_has_no_serious_accessibility_violation_and_tab_reaches_everything(
    page: Page, live_server, user_factory, protocol: str
) -> None:
    at_1000_by_700_with_two_spans(page, live_server.url, user_factory, protocol)
    audit = Audit(page)
    audit.check(f"{protocol} page")
    assert audit.failures == []
    assert tab_through(page, f"{protocol} page") == []


def test_a_score_typed_and_not_saved_is_saved_before_accept_and_next(
    page: Page, live_server, user_factory
) -> None:
    """Nothing typed is lost: the score in its box, never saved with Enter, is saved
    first, then the candidate accepted."""
    corpus(user_factory, Protocol.ESA)
    open_corpus(page, live_server.url, name="esa")
    page.fill("#esa-score-number", "55")
    page.click("#accept-next")

    expect(page.locator("#candidate")).to_contain_text("a dog run")
    saved = first_judgment()
    assert (saved.state, saved.esa_score) == (Judgment.State.DONE, 55)


EMOJI = """<evalTrans><sentence><source>s</source>
<eval translator="first reference"><target>a 😀b cat</target></eval>
<eval translator="sys"><target>a 😀b cat</target></eval></sentence></evalTrans>"""


def test_a_selection_after_a_character_beyond_the_bmp_counts_characters(
    page: Page, live_server, user_factory
) -> None:
    """The browser counts "😀" as two UTF-16 units, the span model as one character:
    "b" of "a 😀b cat" is character 3, where the browser's offset says 4."""
    corpus(user_factory, Protocol.ESA, EMOJI, "emoji")
    open_corpus(page, live_server.url, name="emoji")
    page.evaluate(
        """() => {
            const text = document.querySelector('#candidate .piece[data-start="2"]').firstChild;
            const range = document.createRange();
            range.setStart(text, 2);  // after the emoji's two units
            range.setEnd(text, 3);
            getSelection().removeAllRanges();
            getSelection().addRange(range);
            document.querySelector("#candidate").dispatchEvent(
                new MouseEvent("mouseup", {bubbles: true}));
        }"""
    )
    expect(page.locator("#selection-shown")).to_have_text("Selected: “b”")
    page.click("#mark-major")
    expect(row(page, "3:4:major:0:")).to_be_visible()
    assert spans() == [(3, 4, "major", "", False)]
