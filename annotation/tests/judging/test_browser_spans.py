"""Error spans on the judge's page (issue 14, point 3) in real Chromium: every marked
word left unaccepted is an error; m on the focused one makes it major (a visible mark),
m again minor, and undo takes the mark back like any other change."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import SEED_XML, in_file_order
from annotation.tests.judging.test_browser_faster import open_corpus

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def seed(user_factory) -> Corpus:
    """Seed 001's corpus, assigned to the judge "ana" (``open_corpus`` logs her in)."""
    corpus = in_file_order(corpus_import(source=SEED_XML, name="seed").corpus)
    corpus.judges.add(user_factory("ana", role=User.Role.JUDGE))
    return corpus


MAJOR_SHADOW = "rgb(176, 0, 32)"


def test_m_marks_the_focused_operation_major_and_undo_takes_it_back(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    ops = page.locator("#candidate button[data-op]")
    expect(ops).to_have_count(5)  # Figure 1: "This" missing, four substitutions
    expect(page.locator('#candidate [data-severity="minor"]')).to_have_count(5)

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # "Diagram" (reference: "figure")
    expect(ops.nth(1)).to_be_focused()
    page.keyboard.press("m")

    major = page.locator('#candidate [data-severity="major"]')
    expect(major).to_have_count(1)
    expect(major).to_have_text("Diagram")
    expect(ops.nth(1)).to_be_focused()  # the focus stays on the word
    assert MAJOR_SHADOW in major.evaluate("e => getComputedStyle(e).boxShadow")
    assert "major error" in (major.get_attribute("title") or "")
    judgment = Judgment.objects.get(target__sentence__position=0, evaluator__username="ana")
    assert judgment.severities == {"substitution:0": "major"}

    page.keyboard.press("u")
    expect(page.locator('#candidate [data-severity="major"]')).to_have_count(0)
    judgment.refresh_from_db()
    assert judgment.severities == {}

    page.keyboard.press("r")
    expect(page.locator('#candidate [data-severity="major"]')).to_have_text("Diagram")
    ops.nth(1).focus()
    page.keyboard.press("m")  # again: minor
    expect(page.locator('#candidate [data-severity="major"]')).to_have_count(0)
    kinds = list(judgment.events.exclude(kind="open").values_list("kind", flat=True))
    assert kinds == ["set_severity", "undo", "redo", "set_severity"]


def test_accepting_a_major_operation_takes_its_severity_with_it(
    page: Page, live_server, seed: Corpus
) -> None:
    open_corpus(page, live_server.url)
    ops = page.locator("#candidate button[data-op]")
    page.keyboard.press("ArrowRight")  # the missing "This"
    page.keyboard.press("m")
    expect(page.locator('#candidate [data-severity="major"]')).to_have_count(1)
    expect(ops.nth(0)).to_be_focused()
    page.keyboard.press("a")  # accepted: no error any more, nor its severity
    expect(ops).to_have_count(4)
    expect(page.locator('#candidate [data-severity="major"]')).to_have_count(0)
    page.keyboard.press("u")
    expect(page.locator('#candidate [data-severity="major"]')).to_have_text("–")


def test_the_button_marks_the_word_last_focused(page: Page, live_server, seed: Corpus) -> None:
    open_corpus(page, live_server.url)
    page.keyboard.press("m")  # no operation has had the focus: nothing to mark
    expect(page.locator("#judge")).to_have_attribute("data-version", "1")
    page.locator("#candidate button[data-op]").nth(2).focus()  # "show"
    page.click("#toggle-severity")
    expect(page.locator('#candidate [data-severity="major"]')).to_have_text("show")
    expect(page.locator("#judge")).to_have_attribute("data-version", "2")  # one change only
    expect(page.locator("#judge-message")).to_have_count(0)
