"""ESA control items in real Chromium (issue 41, point 4): the lead sets the drop (a bad
value refused in the page first, the page passing axe) and turns controls on; a judge goes through a
sentence's run of an ESA corpus holding a candidate with injected errors and a repeat,
scores each by the keyboard as any candidate, and the lead sees the judge's pass rate,
consistency and bad references on the controls page."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from annotation.controls.runs import (
    corpus_queue,
)
from annotation.models import Judgment, User
from annotation.models.corpus import Protocol
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.controls.factories import first_run_holding, span_queue_corpus
from annotation.tests.test_browser_accessibility import Audit

DEGRADED, REPEAT = Judgment.Control.DEGRADED, Judgment.Control.REPEAT


def test_a_judge_meets_esa_controls_and_the_lead_sees_the_pass_rate(
    page: Page, live_server, tmp_path: Path, user_factory: Callable[..., User], lead: User
) -> None:
    corpus = span_queue_corpus(tmp_path, "esa", [], Protocol.ESA, sentences=3, systems=4, rate=3)
    corpus.controls_enabled = False
    corpus.save(update_fields=["controls_enabled"])
    settings = f"{live_server.url}/controls/{corpus.pk}/"

    # the lead: a drop of 0 is refused with its field and reason, 30 is saved
    log_in(page, live_server.url, "lead")
    page.goto(settings)
    wait_for_htmx(page)
    page.check("#id_controls_enabled")
    page.fill("#id_control_esa_drop", "0")
    page.click('[data-action="save-controls"]')
    expect(page.locator('[data-error-for="control_esa_drop"]')).to_contain_text(
        "greater than or equal to 1"
    )
    expect(page.locator("[data-status]")).to_have_text("off")
    audit = Audit(page)
    audit.check("ESA controls settings, a value refused")
    assert audit.failures == []
    page.fill("#id_control_esa_drop", "30")
    page.click('[data-action="save-controls"]')
    expect(page.locator("[data-status]")).to_have_text("on")
    expect(page.locator("#controls-rule")).to_have_attribute("data-drop", "30")
    corpus.refresh_from_db()
    assert (corpus.controls_enabled, corpus.control_esa_drop) == (True, 30)

    # the judge: the first run, by the keyboard, a bad reference scored 40 below
    judge, run = first_run_holding(corpus, user_factory, {DEGRADED, REPEAT})
    total = corpus_queue(corpus).total
    page.context.clear_cookies()
    log_in(page, live_server.url, judge.username)
    page.click('a[data-action="continue"][data-corpus="esa"]')
    for done, item in enumerate(run):
        page.wait_for_url(re.compile(r"/judgments/\d+/$"))
        wait_for_htmx(page)
        expect(page.locator("#candidate-number")).to_have_text(str(item.number))
        expect(page.locator("#position")).to_contain_text(f"of {len(run)} ·")
        expect(page.locator("#progress")).to_have_text(f"{done}/{total}")
        expect(page.locator("#judge")).to_have_attribute("data-protocol", "esa")
        judgment = Judgment.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
        assert judgment.control == item.kind
        expect(page.locator("#candidate")).to_contain_text(judgment.candidate_text)
        score = "40" if item.kind == DEGRADED else "80"
        page.keyboard.press("s")
        expect(page.locator("#esa-score-number")).to_be_focused()
        page.keyboard.type(score)
        page.keyboard.press("Enter")
        expect(page.locator("#esa-shown")).to_have_text(score)
        page.keyboard.press("n")
        expect(page.locator("#progress")).to_have_text(f"{done + 1}/{total}")

    # the lead sees the judge's two controls passed
    page.context.clear_cookies()
    log_in(page, live_server.url, "lead")
    page.goto(settings)
    row = page.locator(f'#control-judges tr[data-judge="{judge.username}"]')
    expect(row.locator('[data-col="controls"]')).to_have_text("2")
    expect(row.locator('[data-col="passed"]')).to_have_text("2")
    expect(row.locator('[data-col="pass-rate"]')).to_have_text("100.0 %")
    expect(row.locator('[data-col="consistency"]')).to_contain_text("100.0 % (1/1)")
    expect(row.locator('[data-col="bad-references"]')).to_have_text("1/1")
    expect(row).not_to_have_attribute("data-flagged", "true")
