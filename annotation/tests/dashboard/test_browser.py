"""A lead opens the dashboard in a real browser, sorts a column, recomputes with another
tokenization (htmx), downloads the table as CSV, and scores against the grown reference
pool."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.dashboard import figures, sources
from annotation.dashboard.preprocessing import Preprocessing
from annotation.jobs import Job, run_queued_jobs
from annotation.jobs.runner import claim
from annotation.models import Corpus, Judgment, Target, User
from annotation.tests.boards import view_of
from annotation.tests.factories import BIDI_XML, DEMO_XML, PASSWORD
from annotation.tests.pools import POOL_ACCEPTED, grow_demo_pool


def rows(page: Page) -> list[str]:
    return page.locator("#metrics-table tbody tr").evaluate_all(
        "trs => trs.map(tr => tr.dataset.translator)"
    )


def test_a_lead_sorts_the_table_recomputes_and_downloads_the_csv(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    """One lead's session from login to download, in one browser page: each step starts
    from the state the previous one left (the sort survives the htmx recompute), so it is
    one long test rather than several that would each log in and set up again."""
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    user_factory("lee", role=User.Role.LEAD)
    ann = user_factory("ann")
    for i, target in enumerate(
        Target.objects.filter(sentence__corpus=corpus, translator__role="system")[:20]
    ):
        Judgment.objects.create(
            target=target,
            evaluator=ann,
            sser=i % 11,
            new_ref=target.text,
            edits=i % 3,
            ref_length=9,
            state="done",
            active_seconds=30,
        )
    table = view_of(corpus).get(figures.table)
    corpus_order = [r.system for r in table.rows]
    by_bleu = sorted(
        corpus_order, key=lambda s: -table.rows[corpus_order.index(s)].cell("bleu").score
    )

    page.goto(f"{live_server.url}/dashboard/{corpus.pk}/")
    page.fill("#id_username", "lee")
    page.fill("#id_password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/dashboard/{corpus.pk}/")
    assert rows(page) == corpus_order

    # sort: best BLEU first, then worst first, as the server sorts it, without a page load
    page.evaluate("window.stillTheSamePage = true")
    for sort, order, aria in (
        ("bleu", by_bleu, "descending"),
        ("-bleu", by_bleu[::-1], "ascending"),
    ):
        with page.expect_response(lambda r, sort=sort: f"sort={sort}" in r.url):
            page.click('#metrics-table thead a[data-sort="bleu"]')
        expect(page.locator("#metrics-table")).to_have_attribute("data-sort", sort)
        assert rows(page) == order
        assert page.get_attribute('#metrics-table th[data-metric="bleu"]', "aria-sort") == aria
        assert f"sort={sort}" in page.url
    assert page.evaluate("document.activeElement.id") == "sort-bleu"  # the focus stays
    assert page.evaluate("window.stillTheSamePage") is True

    # recompute with another tokenization: htmx swaps the dashboard, the sort stays
    page.select_option("#pre-tok", "none")
    # (a locator wait: the page's Content-Security-Policy forbids the eval of a
    # string predicate that wait_for_function would poll with)
    expect(page.locator("#pre-signature")).to_have_text(re.compile(r"^tok:none"))
    assert "tok:none" in page.get_attribute(
        '#metrics-table tr[data-translator] td[data-metric="mwer"]', "title"
    )
    # the sort went into the form, so the server sorted worst BLEU first
    bleu = page.locator('#metrics-table tbody td[data-metric="bleu"]').evaluate_all(
        "tds => tds.map(td => parseFloat(td.dataset.value))"
    )
    assert len(bleu) == len(corpus_order)
    assert bleu == sorted(bleu)

    # download the table as CSV
    with page.expect_download() as download:
        page.click("#download-csv")
    path = download.value.path()
    with open(path, encoding="utf-8", newline="") as f:
        got = list(csv.DictReader(f))
    assert download.value.suggested_filename == "demo-metrics.csv"
    assert {r["system"] for r in got} == set(corpus_order)
    assert all(r["wer_signature"].startswith("nrefs:1|tok:none") for r in got)


def left_to_right(page: Page, selector: str) -> bool:
    boxes = page.locator(selector).evaluate_all("es => es.map(e => e.getBoundingClientRect().left)")
    return len(boxes) >= 2 and boxes == sorted(boxes) and len(set(boxes)) == len(boxes)


def test_an_unclosed_bidi_override_stays_inside_its_name_or_text(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_import(source=io.BytesIO(BIDI_XML), name="bidi \u202ecorpus").corpus
    system = corpus.translators.get(role="system")
    user_factory("lee", role=User.Role.LEAD)
    page.goto(f"{live_server.url}/dashboard/{corpus.pk}/system/{system.pk}/")
    page.fill("#id_username", "lee")
    page.fill("#id_password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/system/\d+/"))

    # what follows a name reads after it: "sentence by sentence" right of the system
    assert left_to_right(page, "main h1 > bdi, main h1 > small")
    marks = page.locator("#drill .ops bdi.words > span")
    styles = marks.evaluate_all("ms => ms.map(m => getComputedStyle(m).unicodeBidi)")
    assert len(styles) >= 3
    assert set(styles) == {"isolate"}
    assert left_to_right(page, "#drill .ops bdi.words > span")  # word by word, in order

    page.goto(f"{live_server.url}/dashboard/{corpus.pk}/")
    assert left_to_right(page, "#dashboard h1 > bdi, #dashboard h1 > small")


def test_a_lead_scores_against_the_grown_pool_and_sees_the_ranking_move(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    grow_demo_pool(corpus, user_factory("ann"), user_factory("bob"))
    user_factory("lee", role=User.Role.LEAD)
    pool = view_of(corpus, Preprocessing(pool=True)).get(sources.chosen_statistics)
    page.goto(f"{live_server.url}/dashboard/{corpus.pk}/")
    page.fill("#id_username", "lee")
    page.fill("#id_password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/dashboard/{corpus.pk}/")
    assert page.locator("#pool-references").count() == 0

    page.evaluate("window.stillTheSamePage = true")
    page.select_option("#pre-refs", "pool")
    expect(page.locator("#pre-signature")).to_have_text(re.compile(r"refs:pool$"))

    assert page.evaluate("window.stillTheSamePage") is True  # htmx swapped the dashboard
    assert "refs=pool" in page.url
    expect(page.locator("#pool-references")).to_contain_text("12 new references")
    cell = page.locator(
        f'#metrics-table tr[data-translator="{POOL_ACCEPTED}"] td[data-metric="bleu"]'
    )
    assert (
        float(cell.get_attribute("data-value") or "nan") == pool.scores["bleu"][POOL_ACCEPTED].score
    )
    expect(cell.locator(".shift")).to_have_text("▲4")


def _pool_waiting_for_a_worker(
    page: Page, live_server: Any, user_factory: Callable[..., User], settings: Any
) -> tuple[Corpus, str]:
    """A grown pool too large to score on the page, and a lead logging in to see it,
    whose page answers with the pool job's progress (the job waits for a worker)."""
    settings.EVALTOOL_POOL_ON_THE_PAGE = 0
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    grow_demo_pool(corpus, user_factory("ann"), user_factory("bob"))
    user_factory("lee", role=User.Role.LEAD)
    settings.TASKS = settings.QUEUED_TASKS
    url = f"{live_server.url}/dashboard/{corpus.pk}/?refs=pool"
    page.goto(url)
    page.fill("#id_username", "lee")
    page.fill("#id_password", PASSWORD)
    with page.expect_response(lambda r: r.url == url) as first:
        page.click("#login-form button[type=submit]")
    assert 'id="pool-scoring"' in first.value.text()  # the page came before the figures
    return corpus, url


def _shows_the_pools_figures(page: Page, corpus: Corpus) -> None:
    expect(page.locator("#pool-scoring")).to_have_count(0, timeout=15_000)
    expect(page.locator("#pool-references")).to_contain_text("12 new references")
    pool = view_of(corpus, Preprocessing(pool=True)).get(
        sources.chosen_statistics
    )  # stored by the worker
    cell = page.locator(
        f'#metrics-table tr[data-translator="{POOL_ACCEPTED}"] td[data-metric="bleu"]'
    )
    assert (
        float(cell.get_attribute("data-value") or "nan") == pool.scores["bleu"][POOL_ACCEPTED].score
    )


def test_a_pool_with_much_to_score_shows_its_progress_then_its_figures(
    page: Page, live_server: Any, user_factory: Callable[..., User], settings: Any
) -> None:
    """The page answers at once with the job's progress; once a worker has computed it,
    the page swaps the figures in without the lead doing anything."""
    corpus, url = _pool_waiting_for_a_worker(page, live_server, user_factory, settings)
    scoring = page.locator("#pool-scoring")
    expect(scoring).to_have_attribute("data-status", "queued")
    expect(scoring).to_have_attribute("aria-busy", "true")

    assert run_queued_jobs() == 1  # a worker

    _shows_the_pools_figures(page, corpus)
    assert page.url == url  # the address to share is the page's


def test_a_failed_pool_job_shows_its_reason_and_a_retry_that_works(
    page: Page, live_server: Any, user_factory: Callable[..., User], settings: Any
) -> None:
    corpus, _ = _pool_waiting_for_a_worker(page, live_server, user_factory, settings)
    (job,) = Job.objects.filter(kind="pool")
    claim(job.pk, "a worker")  # which then fails, as run_claimed records it
    Job.objects.filter(pk=job.pk).update(status="failed", error="MemoryError: out of memory")

    scoring = page.locator("#pool-scoring")
    expect(scoring).to_have_attribute("data-status", "failed")
    expect(scoring).to_have_attribute("aria-busy", "false")
    expect(scoring).to_contain_text("failed: MemoryError: out of memory")
    page.click(f"#retry-job-{job.pk}")
    expect(page.locator("#pool-scoring")).to_have_attribute("data-status", "queued")

    assert run_queued_jobs() == 1
    _shows_the_pools_figures(page, corpus)


def test_a_progress_request_that_fails_says_so_and_asks_again(
    page: Page, live_server: Any, user_factory: Callable[..., User], settings: Any
) -> None:
    corpus, _ = _pool_waiting_for_a_worker(page, live_server, user_factory, settings)
    polls = re.compile(rf"/dashboard/{corpus.pk}/\?tok=")  # what the progress block asks
    page.route(polls, lambda route: route.fulfill(status=502, body="gateway"))

    scoring = page.locator("#pool-scoring")
    expect(scoring).to_have_attribute("data-unreachable", "true")
    expect(scoring.locator(".poll-note")).to_have_text(
        "The server did not answer (HTTP 502): still asking every second."
    )
    page.unroute(polls)
    run_queued_jobs()
    _shows_the_pools_figures(page, corpus)
