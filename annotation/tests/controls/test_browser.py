"""Control items in real Chromium: a lead turns them on (a bad value refused in the page
first), and a judge goes through a sentence's run holding a reference shown as a
candidate, judges it as any candidate (clicks the marks until no edit is left, scores
10, accept & next) and passes it, while the counters move on every item alike."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from annotation.controls.quality import control_passed, control_rows
from annotation.controls.runs import corpus_queue
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import log_in, until_shown, wait_for_htmx
from annotation.tests.controls.factories import first_run_holding, queue_corpus
from annotation.tests.factories import write_corpus
from annotation.text import words


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


def test_a_judge_goes_through_a_run_with_a_reference_control_and_passes_it(
    page: Page, live_server, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """The judge takes the first sentence's run item by item: "candidate k of N" counts
    the control like any item (1 … N, N the same on every item), "done x / T" moves by
    one after the control as after a candidate, every item of the run has its own label,
    and the reference shown as a candidate is judged as any candidate (clicks on the
    marks until no edit is left, 10) and passes."""
    corpus = queue_corpus(tmp_path, "meet", [], sentences=3, systems=4)
    judge, run = first_run_holding(corpus, user_factory, {Judgment.Control.REFERENCE})
    total = corpus_queue(corpus).total
    first, second = corpus.sentences.order_by("queue_position")[:2]  # as the queue has them

    log_in(page, live_server.url, judge.username)
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
        until_shown(page, "#progress", f"{done + 1}/{total}")
        expect(page.locator("#progress")).to_have_text(f"{done + 1}/{total}")
    expect(page.locator("#sentence-number")).to_have_text(str(second.position + 1))

    assert sorted(labels) == sorted(f"System {k}" for k in range(1, len(run) + 1))
    reference = next(r for r in control_rows(corpus) if r.kind == Judgment.Control.REFERENCE)
    assert control_passed(reference)


def test_a_judge_sees_every_run_alike_and_the_home_tab_agrees(
    page: Page, live_server, tmp_path: Path, ana: User
) -> None:
    """Issue 35, as a judge sees it: every run (the items that share a source) has the
    same length and "of N"; the pool lists as many references on every item; an item
    identical to one judged before in its run, control or not, comes pre-filled with
    the note; and the home page, open in a second tab, counts what the header counts
    after every item."""
    refs = [[f"first reference of {k} .", f"second reference of {k} ."] for k in range(3)]
    hyps = {
        "system a": [f"system a says {k} ." for k in range(3)],
        "system b": [f"system a says {k} ." for k in range(3)],  # a's twin
        "system c": [f"system c says {k} ." for k in range(3)],
        "system d": [seg[1] for seg in refs],  # the second reference's words
    }
    corpus = corpus_import(
        source=write_corpus(tmp_path / "alike.xml", refs, hyps), name="alike", score=False
    ).corpus
    corpus.judges.add(ana)
    corpus.controls_enabled, corpus.control_rate, corpus.blind = True, 3, True
    corpus.save()
    log_in(page, live_server.url, "ana")
    home = page.context.new_page()
    home.goto(f"{live_server.url}/")
    page.click('a[data-action="continue"][data-corpus="alike"]')

    seen = []
    while True:
        page.wait_for_url(re.compile(r"/(judgments/\d+|corpora/\d+/judge)/$"))
        if page.locator("#all-done").count():
            break
        wait_for_htmx(page)
        judgment = Judgment.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
        progress = page.locator("#progress").inner_text()
        home.reload()
        assert home.locator('[data-progress="alike"]').inner_text() == progress
        page.bring_to_front()  # a tab behind gets few animation frames: slow clicks
        kinds = page.locator("#pool .pool-meta").all_inner_texts()
        seen.append(
            {
                "sentence": page.locator("#sentence-number").inner_text(),
                "of": page.locator("#position").inner_text().split(" · ")[1],
                "references": sum(1 for k in kinds if not k.startswith("new reference")),
                "note": page.locator("#reuse-note").count() == 1,
                "words": words(judgment.candidate_text),
                "control": judgment.control,
            }
        )
        if seen[-1]["note"]:
            page.keyboard.press("c")
        else:
            page.click('[data-sser="7"]')
            expect(page.locator('[data-sser="7"]')).to_have_attribute("aria-pressed", "true")
            page.click("#accept-next")
        expect(page.locator("#progress, #all-done").first).not_to_have_text(progress)

    runs = [list(run) for _, run in itertools.groupby(seen, key=lambda s: s["sentence"])]
    assert [len(run) for run in runs] == [6, 6, 6]  # 4 candidates and 2 controls each
    assert [sum(1 for s in run if s["control"]) for run in runs] == [2, 2, 2]
    for run in runs:
        assert [s["of"] for s in run] == [f"candidate {k} of 6" for k in range(1, 7)]
        assert {s["references"] for s in run} == {1}  # one of two, in every run
        for at, item in enumerate(run):
            assert item["note"] == any(s["words"] == item["words"] for s in run[:at])
    assert sum(s["note"] for s in seen) >= 3  # system b after a, or a after b
    home.reload()
    assert home.locator('[data-progress="alike"]').inner_text() == "18/18"
