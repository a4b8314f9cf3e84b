"""A campaign of two language pairs run end to end in real Chromium, as the field runs
one (issue 37): the lead creates it, uploads two corpora into it, sets its rules (one
annotator per item, 20 % overlap, batches of about 10 candidates) and waits for the
batches to be drawn; makes three accounts from a pasted list, assigned to both corpora,
and a link for each. Each annotator opens their link in a browser of their own and
judges batch after batch, taking turns as people at work do, until none is left for
them; the link then shows their completion code. Every candidate is judged once, the
overlap items twice by two annotators, and the campaign page says both corpora are done.

Control items are off (the corpora's default): the judge's clicks are the same on a
control, and the controls inside a batch have tests of their own. The jobs (imports,
their scoring, the draw) wait for a worker, as in production: the test runs it
(:func:`run_queued_jobs`) while the lead's page follows the job."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db.models import F
from playwright.sync_api import Page, expect

from annotation.jobs import run_queued_jobs
from annotation.models import Campaign, Judgment, Target, Task, Translator, User
from annotation.tests.browsing import (
    log_in,
    score,
    until_shown,
    upload_into_the_campaign,
    wait_for_htmx,
)
from annotation.tests.factories import write_corpus

#: Three batches a corpus, six in all: each annotator gets two as they take turns (every
#: item a judged page: a larger campaign would only take longer, the same way).
SENTENCES, SYSTEMS, PER_DOCUMENT = 9, 3, 3
BATCH_SIZE, OVERLAP = 10, 20
#: A batch is a document (9 candidates: two documents are past 10), 20 % of it (2
#: items) judged again by the annotator of the next batch.
BATCHES, OVERLAP_ITEMS = SENTENCES // PER_DOCUMENT, 2
#: The judgments the rules call for in a corpus: every candidate once, the overlap twice.
DUE = SENTENCES * SYSTEMS + BATCHES * OVERLAP_ITEMS
ANNOTATORS = {"ann": 3, "bob": 8, "cy": 5}  # each one's usual score: a strict one, a lenient


def language_pair(path: Path, pair: str) -> Path:
    """A corpus file of ``pair``: 9 sentences in documents of 3, 2 references, 3 systems
    (batches of 10 candidates hold one document: 9 candidates)."""
    refs = [[f"{pair} reference {r} of sentence {k} ." for r in range(2)] for k in range(SENTENCES)]
    hyps = {
        f"{pair} system {s}": [f"{pair} system {s} says sentence {k} ." for k in range(SENTENCES)]
        for s in range(SYSTEMS)
    }
    docs = [f"{pair}-doc{k // PER_DOCUMENT}" for k in range(SENTENCES)]
    return write_corpus(path / f"{pair}.xml", refs, hyps, docs=docs)


@dataclass
class Annotator:
    """One annotator's browser and what the test saw of their work."""

    name: str
    page: Page
    link: str
    batches: int = 0
    finished: bool = False
    seen: list[str] = field(default_factory=list)  # the corpus of each batch
    code: str = ""


def judge_the_batch(annotator: Annotator) -> None:
    """Judge every item of the batch the page is on (score, accept), to its finished page."""
    page = annotator.page
    page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    wait_for_htmx(page)
    done, total = map(int, page.locator("#progress").inner_text().split("/"))
    assert done == 0, f"{annotator.name} landed in a batch begun"
    annotator.batches += 1
    annotator.seen.append(page.locator("#corpus-name").inner_text())
    for k in range(total):
        score(page, ANNOTATORS[annotator.name] + k % 2)
        page.click("#accept-next")
        until_shown(page, "#progress, #all-done", f"{k + 1}/{total}")
        expect(page.locator("#progress, #all-done").first).to_contain_text(f"{k + 1}/{total}")
    expect(page.locator("#all-done")).to_contain_text(f"all {total} items of this batch")


def ask_for_the_next_batch(annotator: Annotator) -> None:
    """Press "Next batch" on the finished page: the next batch's first item, or the page
    that says none is left."""
    page = annotator.page
    page.click('button[data-action="next-batch"]')
    expect(page.locator("#candidate, #no-batch-left").first).to_be_visible()
    annotator.finished = page.locator("#no-batch-left").is_visible()


def set_up_the_campaign(page: Page, base: str, tmp_path: Path) -> Campaign:
    """The lead's part: the campaign, its two corpora, its rules, its batches drawn."""
    log_in(page, base, "lee")
    page.goto(f"{base}/campaigns/c/")
    page.fill("#id_name", "WMT26 general")
    page.click("#campaign-create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/campaigns/c/\d+/$"))
    campaign = Campaign.objects.get(name="WMT26 general")
    for pair in ("de-en", "cs-uk"):
        upload_into_the_campaign(page, campaign, language_pair(tmp_path, pair), pair)
    expect(page.locator("#campaign-corpora tbody tr")).to_have_count(2)
    assert Campaign.objects.count() == 1  # both corpora in it, no campaign of their own

    page.click('#campaign-tasks a[data-action="rules"]')
    page.select_option("#id_judges_per_item", "1")
    page.fill("#id_overlap_percent", str(OVERLAP))
    page.fill("#id_batch_size", str(BATCH_SIZE))
    page.click('#rules-form button[data-action="save-rules"]')
    drawing = page.locator("#drawing")
    expect(drawing).to_have_attribute("data-status", "queued")
    wait_for_htmx(page)
    assert run_queued_jobs() == 1  # a worker draws the batches; the page follows it
    expect(drawing).to_have_attribute("data-status", "done")
    page.reload()
    for pair in ("de-en", "cs-uk"):
        expect(page.locator(f'#rules-corpora tr[data-corpus="{pair}"]')).to_have_attribute(
            "data-tasks", str(BATCHES)
        )
    return campaign


def make_the_annotators(page: Page, campaign: Campaign) -> dict[str, str]:
    """Three accounts from a pasted list, assigned to both corpora, and a link for each,
    read from the page that shows them once: the links by username."""
    page.click('a[data-action="open-campaign"]')
    page.click('#campaign-tasks a[data-action="judges"]')
    page.fill("#id_bulk_accounts", "\n".join(ANNOTATORS) + "\n")
    for pair in ("de-en", "cs-uk"):
        page.locator("#bulk-form").get_by_label(pair).check()
    page.click("#bulk-form button[type=submit]")
    expect(page.locator("#bulk-accounts tbody tr")).to_have_count(len(ANNOTATORS))

    page.click(f'a[data-action="links"][data-campaign="{campaign.name}"]')
    page.locator("#links-form").get_by_label("Every annotator of the campaign").check()
    page.click("#links-form button[type=submit]")
    made = page.locator("#made-links tbody tr")
    expect(made).to_have_count(len(ANNOTATORS))
    return {
        name: page.locator(f'#made-links tr[data-judge="{name}"] .secret-link').inner_text()
        for name in ANNOTATORS
    }


def test_a_two_corpus_campaign_with_links_batches_and_overlap_runs_to_the_end(
    page: Page,
    new_page: Callable[[], Page],
    live_server: Any,
    tmp_path: Path,
    user_factory: Callable[..., User],
    settings: Any,
) -> None:
    settings.TASKS = settings.QUEUED_TASKS  # every job waits for a worker, as in production
    user_factory("lee", role=User.Role.LEAD)
    base = live_server.url
    campaign = set_up_the_campaign(page, base, tmp_path)
    links = make_the_annotators(page, campaign)

    annotators = [Annotator(name, new_page(), link) for name, link in links.items()]
    for annotator in annotators:  # each in a browser of their own
        annotator.page.goto(annotator.link)
    while not all(a.finished for a in annotators):  # they take turns, a batch each
        for annotator in (a for a in annotators if not a.finished):
            judge_the_batch(annotator)
            ask_for_the_next_batch(annotator)
    for annotator in annotators:  # told no work is left, they go on to their code
        annotator.page.click('#no-batch a[data-action="link-next"]')
        code = annotator.page.locator("#completion-code")
        expect(code).to_have_text(re.compile(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}"))
        annotator.code = code.inner_text()
        annotator.page.reload()
        expect(code).to_have_text(annotator.code)

    assert all(a.batches >= 2 for a in annotators), [(a.name, a.seen) for a in annotators]
    assert sum(a.batches for a in annotators) == 2 * BATCHES
    assert_every_item_judged_as_the_rules_say(campaign)
    see_it_done_on_the_leads_pages(page, base, campaign, annotators)


def see_it_done_on_the_leads_pages(
    page: Page, base: str, campaign: Campaign, annotators: list[Annotator]
) -> None:
    """From the campaign's page: both corpora done; on its rules page, every task
    finished; on its links page, each annotator's completion code; on each corpus's
    page, how each judge scores (the strict one lowest, the lenient one highest)."""
    page.goto(f"{base}/campaigns/c/{campaign.pk}/")
    for pair in ("de-en", "cs-uk"):
        expect(page.locator(f'[data-judges-progress="{pair}"]')).to_have_text(f"{DUE}/{DUE}")
    progress = page.locator("#campaign-progress")
    expect(progress).to_have_attribute("data-done", str(2 * DUE))
    expect(progress).to_have_attribute("data-assigned", str(2 * DUE))

    page.click('#campaign-tasks a[data-action="rules"]')
    for pair in ("de-en", "cs-uk"):
        expect(page.locator(f'#rules-corpora tr[data-corpus="{pair}"]')).to_have_attribute(
            "data-finished", str(BATCHES)
        )
    page.click('a[data-action="open-campaign"]')
    page.click('#campaign-tasks a[data-action="annotator-links"]')
    for annotator in annotators:
        row = page.locator(f'#links tr[data-judge="{annotator.name}"]')
        expect(row.locator('[data-col="code"]')).to_have_text(annotator.code)

    for pair in ("de-en", "cs-uk"):
        page.click(f'a[data-action="campaign"][data-corpus="{pair}"]')
        effects = page.locator("#judge-effects-table tbody tr")
        expect(effects).to_have_count(len(ANNOTATORS))
        means = {
            name: float(
                page.get_attribute(
                    f'#judge-effects-table tr[data-judge="{name}"] td[data-col="mean"]',
                    "data-value",
                )
                or "nan"
            )
            for name in ANNOTATORS
        }
        assert means["ann"] < means["cy"] < means["bob"], means
        page.go_back()


def assert_every_item_judged_as_the_rules_say(campaign: Campaign) -> None:
    """Every candidate of both corpora judged once, the overlap items twice by two
    annotators, about 20 % of each batch (±1 item); no annotator twice on one item."""
    judged = Judgment.objects.counted().filter(target__translator__corpus__campaign=campaign)
    judges = defaultdict(list)
    for target_id, evaluator_id in judged.values_list("target_id", "evaluator_id"):
        judges[target_id].append(evaluator_id)
    candidates = Target.objects.filter(
        sentence__corpus__campaign=campaign, translator__role=Translator.Role.SYSTEM
    )
    assert candidates.count() == 2 * SENTENCES * SYSTEMS
    times = Counter(len(judges[pk]) for pk in candidates.values_list("pk", flat=True))
    overlap = 2 * BATCHES * OVERLAP_ITEMS
    assert times == {1: 2 * SENTENCES * SYSTEMS - overlap, 2: overlap}, times
    assert all(len(set(ids)) == len(ids) for ids in judges.values())
    assert not judged.exclude(task__assignee_id=F("evaluator_id")).exists()  # in their batch
    tasks = list(Task.objects.filter(corpus__campaign=campaign))
    assert len(tasks) == 2 * BATCHES
    assert all(t.finished_at for t in tasks)
    twice = {pk for pk, ids in judges.items() if len(ids) == 2}
    assert twice == {pk for t in tasks for pk in t.extra}
    for task in tasks:  # the overlap share of each batch
        batch = candidates.filter(
            sentence__corpus_id=task.corpus_id,
            sentence__position__gte=task.start,
            sentence__position__lt=task.end,
        ).values_list("pk", flat=True)
        n_twice = sum(pk in twice for pk in batch)
        assert abs(n_twice - OVERLAP / 100 * len(batch)) <= 1, (task.batch, n_twice, len(batch))
