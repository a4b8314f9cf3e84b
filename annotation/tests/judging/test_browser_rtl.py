"""Right-to-left targets on the judge's page (issue 35, point 9) in real Chromium: every
text of a sentence and every field a judge types one into takes its language's direction
(the corpus's language where its file names it, else its own first strong character),
and the source and target carry the corpus's ``lang``. Each test reads the layout the
browser drew, not only the attributes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import open_corpus
from annotation.tests.factories import import_xml
from annotation.text import words

pytestmark = pytest.mark.django_db(transaction=True)

#: A long Arabic reference: its button in the pool takes several lines.
LONG_ARABIC = " ".join(["يبحث المستخدمون عن المعلومات في محركات البحث كل يوم"] * 6) + "."

#: English into Arabic, the languages named on the root as WMT names them. The candidate
#: and the first reference start with a Latin word: their first strong character is left
#: to right, their language is not.
ARABIC = f"""<evalTrans srclang="en" trglang="ar">
<sentence><source>Google is a search engine.</source>
<eval translator="first reference"><target>Google محرك بحث.</target></eval>
<eval translator="second reference"><target>{LONG_ARABIC}</target></eval>
<eval translator="sys"><target>Google هو محرك بحث.</target></eval></sentence>
</evalTrans>"""

#: English into Hebrew, no language named: each text's own characters decide.
HEBREW = """<evalTrans>
<sentence><source>The cat sleeps.</source>
<eval translator="first reference"><target>החתול ישן.</target></eval>
<eval translator="sys"><target>החתול נרדם.</target></eval></sentence>
</evalTrans>"""


@pytest.fixture
def ana(user_factory) -> User:
    return user_factory("ana", role=User.Role.JUDGE)


def direction(field: Locator) -> str:
    """The direction the browser lays the element out in."""
    return field.evaluate("e => getComputedStyle(e).direction")


def full_stop_at_the_left_end(words_of: Locator) -> bool:
    """Whether the last word (the full stop) is drawn left of every other word."""
    boxes = [words_of.nth(k).bounding_box() for k in range(words_of.count())]
    assert boxes, "no words"
    assert all(boxes), "the words are not drawn"
    return all(boxes[-1]["x"] + boxes[-1]["width"] <= b["x"] + 1 for b in boxes[:-1])


def line_ends(button: Locator) -> tuple[list[float], float]:
    """Where each line of a button's text ends on the right, and where its content box
    ends: a right-to-left text aligned to its start ends every line there."""
    ends = button.evaluate(
        """b => {
            const range = document.createRange();
            range.selectNodeContents(b);
            const ends = new Map();
            for (const r of range.getClientRects()) {
                const top = Math.round(r.top);
                ends.set(top, Math.max(ends.get(top) ?? -Infinity, r.right));
            }
            const style = getComputedStyle(b);
            const content = b.getBoundingClientRect().right
                - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
            return {lines: [...ends.values()], content};
        }"""
    )
    return ends["lines"], ends["content"]


def test_an_arabic_corpus_is_tagged_with_its_languages_and_laid_out_right_to_left(
    page: Page, live_server, ana: User
) -> None:
    import_xml(ARABIC, "arabic", ana)
    open_corpus(page, live_server.url, "arabic")

    expect(page.locator("#source")).to_have_attribute("lang", "en")
    assert direction(page.locator("#source")) == "ltr"
    target_texts = ["#candidate", "#new-ref", "#new-ref-text", ".pool-ref >> nth=0"]
    for selector in target_texts:
        expect(page.locator(selector)).to_have_attribute("lang", "ar")
        assert direction(page.locator(selector)) == "rtl", selector
    # "Google محرك بحث.": a Latin word first, yet the sentence reads right to left
    assert full_stop_at_the_left_end(page.locator("#new-ref .nr-word"))
    assert full_stop_at_the_left_end(page.locator("#candidate .w, #candidate .op"))

    long_ref = page.locator(".pool-ref", has_text="يبحث")
    lines, content = line_ends(long_ref)
    assert len(lines) >= 2, lines
    assert all(abs(end - content) < 1.5 for end in lines), (lines, content)

    page.locator('#new-ref a[data-pos="1"]').click()  # "محرك": the word editor
    for field in ("#word-edit-text", "#word-insert-text"):
        expect(page.locator(field)).to_have_attribute("lang", "ar")
        assert direction(page.locator(field)) == "rtl", field
    page.fill("#word-edit-text", "محركات")
    page.keyboard.press("Enter")
    expect(page.locator("#new-ref")).to_contain_text("محركات")
    assert words(Judgment.objects.get().new_ref)[1] == "محركات"


def test_a_hebrew_corpus_naming_no_language_takes_each_texts_own_direction(
    page: Page, live_server, ana: User
) -> None:
    corpus: Corpus = import_xml(HEBREW, "hebrew", ana)
    open_corpus(page, live_server.url, "hebrew")

    assert page.locator("#judge [lang]").count() == 0  # the file names none: none claimed
    assert direction(page.locator("#source")) == "ltr"
    for selector in ("#candidate", "#new-ref", "#new-ref-text", ".pool-ref"):
        assert direction(page.locator(selector)) == "rtl", selector
    assert full_stop_at_the_left_end(page.locator("#new-ref .nr-word"))

    page.fill("#note-text", "לא בטוח")  # the judge's note, in the judge's language
    assert direction(page.locator("#note-text")) == "rtl"
    page.keyboard.press("Enter")
    expect(page.locator("#note-shown")).to_contain_text("לא בטוח")

    page.locator('#new-ref a[data-pos="0"]').click()
    assert direction(page.locator("#word-edit-text")) == "rtl"
    page.keyboard.press("Escape")
    expect(page.locator("#word-editor")).to_have_count(0)

    page.fill("#new-ref-text", "החתול ישן בשקט.")
    assert direction(page.locator("#new-ref-text")) == "rtl"
    page.keyboard.press("Enter")
    expect(page.locator("#new-ref .nr-word")).to_have_count(4)
    assert full_stop_at_the_left_end(page.locator("#new-ref .nr-word"))
    assert Judgment.objects.get(target__sentence__corpus=corpus).new_ref == "החתול ישן בשקט."
