"""A system imported as one document, judged in real Chromium (seed 002): the judge sees
the neighbouring candidates, moves a word across a boundary, undoes it, and judges the
candidate with aWER like any other."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.documents import unsegmented_document
from annotation.tests.factories import DEMO_XML, target_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ana(user_factory) -> User:
    return user_factory("ana", role=User.Role.JUDGE)


@pytest.fixture
def speech(ana: User, tmp_path: Path) -> Corpus:
    """The demo corpus, with NiuTrans's output added again through ``import_text
    --unsegmented`` as a document broken into lines of seven words."""
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    corpus.judges.add(ana)
    path = tmp_path / "speech.txt"
    path.write_text("\n".join(unsegmented_document(corpus)), encoding="utf-8")
    call_command("import_text", "--name", "demo", "--hyp", f"speech={path}", "--unsegmented")
    return corpus


def texts(corpus: Corpus, *positions: int) -> list[str]:
    return [target_of(corpus, "speech", k).text for k in positions]


def test_a_judge_moves_a_word_across_a_boundary_undoes_it_and_judges_the_candidate(
    page: Page, live_server, speech: Corpus, ana: User
) -> None:
    judgment = judgment_open(user=ana, target=target_of(speech, "speech", 5))
    before = texts(speech, 5, 6)
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/judgments/{judgment.pk}/")
    wait_for_htmx(page)
    next_words = before[1].split()[:3]
    expect(page.locator("#next-words")).to_have_text(" ".join(next_words) + " …")

    last = before[0].split()[-1]
    give = page.locator('[data-action="move-word"][data-edge="end"][data-move="give"]')
    expect(give).to_have_text(f"Give “{last}” to the next sentence")
    give.click()

    expect(page.locator("#next-words")).to_have_text(" ".join([last, *next_words[:2]]) + " …")
    moved = texts(speech, 5, 6)
    assert moved == [" ".join(before[0].split()[:-1]), " ".join([last, *before[1].split()])]
    expect(page.locator("#move-end .own")).to_have_text("… " + " ".join(moved[0].split()[-3:]))

    page.click("#undo")
    expect(page.locator("#next-words")).to_have_text(" ".join(next_words) + " …")
    assert texts(speech, 5, 6) == before

    version = page.locator("#judge").get_attribute("data-version")
    page.locator("#candidate button.op").first.click()
    expect(page.locator("#judge")).not_to_have_attribute("data-version", version or "")
    page.click('button[data-sser="7"]')
    expect(page.locator('button[data-sser="7"]')).to_have_attribute("aria-pressed", "true")
    page.click("#accept-next")
    expect(page.locator("#judge")).not_to_have_attribute("data-judgment", str(judgment.pk))

    done = Judgment.objects.get(pk=judgment.pk)
    assert done.state == Judgment.State.DONE
    assert done.sser == 7
    assert done.edits is not None
    assert done.target.text == before[0]
