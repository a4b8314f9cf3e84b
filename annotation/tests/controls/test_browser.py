"""Control items in real Chromium: a lead turns them on (a bad value refused in the page
first), and a judge meets a reference shown as a candidate, judges it as any candidate
(clicks the marks until no edit is left, scores 10, accept & next) and passes it,
while the progress counts candidates only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from annotation.controls.quality import control_passed, control_rows
from annotation.controls.queue import ControlPlan, is_control_item
from annotation.judging.start import control_open, judgment_open
from annotation.models import Corpus, Judgment, Target, Translator, User
from annotation.tests.browsing import log_in
from annotation.tests.controls.factories import queue_corpus
from annotation.tests.factories import finish


@pytest.fixture
def ana(user_factory) -> User:
    return user_factory("ana")


def test_a_lead_turns_control_items_on_in_the_page(
    page: Page, live_server, seed: Corpus, lead: User
) -> None:
    log_in(page, live_server.url, "lead")
    page.goto(f"{live_server.url}/controls/{seed.pk}/")
    page.wait_for_function("window.htmx !== undefined")
    expect(page.locator("[data-status]")).to_have_text("off")

    page.check("#id_controls_enabled")
    page.fill("#id_control_rate", "1")
    page.click('[data-action="save-controls"]')
    expect(page.locator('[data-error-for="control_rate"]')).to_contain_text("greater than")
    expect(page.locator("#controls-refused")).to_have_attribute("role", "alert")
    expect(page.locator("[data-status]")).to_have_text("off")

    page.fill("#id_control_rate", "8")
    page.click('[data-action="save-controls"]')
    expect(page.locator("[data-status]")).to_have_text("on")
    expect(page.locator("#controls-status")).to_contain_text("one in every 8 items")
    seed.refresh_from_db()
    assert (seed.controls_enabled, seed.control_rate) == (True, 8)
    assert page.url == f"{live_server.url}/controls/{seed.pk}/"


def test_a_judge_meets_a_reference_as_a_candidate_and_passes_it(
    page: Page, live_server, tmp_path: Path, ana: User
) -> None:
    corpus = queue_corpus(tmp_path, "meet", [ana], sentences=3)
    corpus.controls_enabled = False
    corpus.save()
    for target in Target.objects.filter(
        sentence__corpus=corpus, sentence__position=0, translator__role="system"
    ).select_related("translator", "sentence__corpus"):
        finish(judgment_open(user=ana, target=target), ana, target.text, 7)
    # on again, at a rate whose next place is not the item after the control
    corpus.controls_enabled = True
    corpus.control_rate = next(
        r
        for r in range(3, 101)
        if not is_control_item(user_id=ana.pk, corpus_id=corpus.pk, rate=r, item=4)
    )
    corpus.save()
    shown = Target.objects.select_related("translator", "sentence__corpus").get(
        sentence__corpus=corpus, sentence__position=0, translator__name="multi reference"
    )
    system_1 = Translator.objects.get(corpus=corpus, name="system 1")
    control = control_open(user=ana, plan=ControlPlan(shown, Judgment.Control.REFERENCE, system_1))

    log_in(page, live_server.url, "ana")
    page.click('a[data-action="continue"][data-corpus="meet"]')
    page.wait_for_url(f"{live_server.url}/judgments/{control.pk}/")
    page.wait_for_function("window.htmx !== undefined")
    expect(page.locator("#translator-label")).to_have_text("System 2")
    expect(page.locator("#sentence-number")).to_have_text("1")
    expect(page.locator("#progress")).to_have_text("3/9")
    expect(page.locator("#candidate")).to_contain_text("reference 1 says sentence 0 well")
    expect(page.locator("#pool")).not_to_contain_text("reference 1 says")
    expect(page.locator("#edit-count")).not_to_have_text("0")

    while page.locator("#candidate button[data-op]").count():
        before = page.locator("#judge").get_attribute("data-version")
        page.locator("#candidate button[data-op]").first.click()
        expect(page.locator("#judge")).not_to_have_attribute("data-version", before or "")
    expect(page.locator("#edit-count")).to_have_text("0")
    page.click('[data-sser="10"]')
    expect(page.locator('[data-sser="10"]')).to_have_attribute("aria-pressed", "true")
    page.click("#accept-next")
    page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    expect(page.locator("#sentence-number")).to_have_text("2")
    expect(page.locator("#progress")).to_have_text("3/9")  # candidates only

    stored = Judgment.objects.get(pk=control.pk)
    assert (stored.state, stored.edits, stored.sser) == ("done", 0, 10)
    (row,) = control_rows(corpus)
    assert control_passed(row)
