"""Control items in real Chromium: a lead turns them on (a bad value refused in the page
first), and a judge goes through a sentence's run holding a reference shown as a
candidate, judges it as any candidate (clicks the marks until no edit is left, scores
10, accept & next) and passes it, while the counters move on every item alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from annotation.controls.quality import control_passed, control_rows
from annotation.controls.runs import Placement, RunItem, corpus_spans, queue_total, run_items
from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.controls.factories import queue_corpus


@pytest.fixture
def ana(user_factory) -> User:
    return user_factory("ana")


def test_a_lead_turns_control_items_on_in_the_page(
    page: Page, live_server, seed: Corpus, lead: User
) -> None:
    log_in(page, live_server.url, "lead")
    page.goto(f"{live_server.url}/controls/{seed.pk}/")
    wait_for_htmx(page)
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


def first_run_with_a_reference_control(corpus: Corpus, judge: User) -> list[RunItem]:
    """Set ``corpus``'s rate to the first one whose first sentence's run (the queue's
    first), for ``judge``, holds a reference control; that run's items."""
    sentence = corpus.sentences.get(queue_position=0)
    for rate in range(3, 101):
        corpus.control_rate = rate
        span = corpus_spans(corpus)[sentence.pk]
        run = run_items(
            Placement.of(corpus, judge.pk),
            blind=True,
            sentence_id=sentence.pk,
            span=span,
            order=range(span.systems),
            references=range(span.references),
        )
        if any(i.kind == Judgment.Control.REFERENCE for i in run):
            corpus.save()
            return run
    raise AssertionError("no rate puts a reference control in the first run")


def test_a_judge_goes_through_a_run_with_a_reference_control_and_passes_it(
    page: Page, live_server, tmp_path: Path, ana: User
) -> None:
    """The judge takes the first sentence's run item by item: "candidate k of N" counts
    the control like any item (1 … N, N the same on every item), "done x / T" moves by
    one after the control as after a candidate, every item of the run has its own label,
    and the reference shown as a candidate is judged as any candidate (clicks on the
    marks until no edit is left, 10) and passes."""
    corpus = queue_corpus(tmp_path, "meet", [ana], sentences=3, systems=4)
    run = first_run_with_a_reference_control(corpus, ana)
    total = queue_total(Placement.of(corpus, ana.pk), corpus.n_candidates)
    first, second = corpus.sentences.order_by("queue_position")[:2]  # as the queue has them

    log_in(page, live_server.url, "ana")
    page.click('a[data-action="continue"][data-corpus="meet"]')
    labels = []
    for done, item in enumerate(run):
        page.wait_for_url(re.compile(r"/judgments/\d+/$"))
        wait_for_htmx(page)
        expect(page.locator("#sentence-number")).to_have_text(str(first.position + 1))
        expect(page.locator("#candidate-number")).to_have_text(str(item.number))
        expect(page.locator("#position")).to_contain_text(f"of {len(run)} ·")
        expect(page.locator("#progress")).to_have_text(f"{done}/{total}")
        labels.append(page.locator("#translator-label").inner_text())
        judgment = Judgment.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
        assert judgment.control == item.kind
        if item.kind == Judgment.Control.REFERENCE:
            expect(page.locator("#pool")).not_to_contain_text(judgment.target.text)
            while page.locator("#candidate button[data-op]").count():
                before = page.locator("#judge").get_attribute("data-version")
                page.locator("#candidate button[data-op]").first.click()
                expect(page.locator("#judge")).not_to_have_attribute("data-version", before or "")
            expect(page.locator("#edit-count")).to_have_text("0")
            page.click('[data-sser="10"]')
        else:
            page.click('[data-sser="3"]' if item.kind else '[data-sser="7"]')
        page.click("#accept-next")
        expect(page.locator("#progress")).to_have_text(f"{done + 1}/{total}")
    expect(page.locator("#sentence-number")).to_have_text(str(second.position + 1))

    assert sorted(labels) == sorted(f"System {k}" for k in range(1, len(run) + 1))
    reference = next(r for r in control_rows(corpus) if r.kind == Judgment.Control.REFERENCE)
    assert control_passed(reference)
