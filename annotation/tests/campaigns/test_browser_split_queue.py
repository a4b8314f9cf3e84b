"""A judge in a campaign that splits the work, in real Chromium: they finish the small
batch dealt to them, press "Next batch" on the finished page and go on in the next one,
and when none is left the page says so and whom to ask."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from annotation.models import Judgment, Task, User
from annotation.tests.browsing import log_in, score, wait_for_htmx
from annotation.tests.factories import sized_corpus


def test_a_judge_finishes_a_batch_asks_for_the_next_and_goes_on_in_it(
    page: Page, live_server, tmp_path: Path, user_factory: Callable[..., User], lead: User
) -> None:
    ana = user_factory("ana")
    corpus = sized_corpus(tmp_path, "split", 4, systems=2)
    corpus.judges.add(ana)
    corpus.leads.add(lead)
    corpus.campaign.judges_per_item = 1
    corpus.campaign.save()
    first = Task.objects.create(
        corpus=corpus, batch=0, start=0, end=1, order=0, size=2, assignee=ana
    )
    second = Task.objects.create(corpus=corpus, batch=1, start=2, end=3, order=1, size=2)
    base = live_server.url

    log_in(page, base, "ana")
    expect(page.locator('[data-batch="split"]')).to_have_text("batch 1")
    expect(page.locator('[data-progress="split"]')).to_have_text("0/2")
    page.click('a[data-action="continue"][data-corpus="split"]')
    for done in range(2):
        page.wait_for_url(re.compile(r"/judgments/\d+/$"))
        wait_for_htmx(page)
        expect(page.locator("#batch-number")).to_have_text("1")
        expect(page.locator("#progress")).to_have_text(f"{done}/2")
        score(page, 7)
        page.click("#accept-next")
        if done == 0:
            expect(page.locator("#progress")).to_have_text("1/2")
    expect(page.locator("#all-done")).to_contain_text("all 2 items of this batch (2/2)")
    first.refresh_from_db()
    assert first.finished_at is not None

    page.click('button[data-action="next-batch"]')
    page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    wait_for_htmx(page)
    expect(page.locator("#batch-number")).to_have_text("2")
    expect(page.locator("#progress")).to_have_text("0/2")
    for done in range(2):
        score(page, 4)
        page.click("#accept-next")
        expect(page.locator("#progress, #all-done").first).to_contain_text(f"{done + 1}/2")
    second.refresh_from_db()
    assert second.assignee == ana
    assert second.finished_at is not None
    sentences = {j.target.sentence.position for j in Judgment.objects.filter(evaluator=ana)}
    assert sentences == {0, 2}  # the two batches' sentences, nothing else of the corpus

    page.click('button[data-action="next-batch"]')  # on the finished page: none left
    expect(page.locator("#judge #no-batch-left")).to_be_visible()
    expect(page.locator('#no-batch [data-lead="lead"]')).to_be_visible()

    page.goto(f"{base}/")
    expect(page.locator('[data-batch="split"]')).to_have_text("batch 2")
    expect(page.locator('[data-progress="split"]')).to_have_text("2/2")
    page.click('button[data-action="next-batch"][data-corpus="split"]')
    expect(page.locator("#no-batch-left")).to_be_visible()
    expect(page.locator('#no-batch [data-lead="lead"]')).to_be_visible()
    assert page.url == f"{base}/corpora/{corpus.pk}/next-batch/"  # the plain form's page
