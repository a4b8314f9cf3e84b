"""The grown pool's statistics kept in the database (annotation/statistics/pool.py,
annotation/models/statistics.py): any process builds on the pool last scored, and a page
whose pool has many sentences to score again answers at once and fetches the figures on
a request of its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from django.test import Client

from annotation.changes import corpus_texts_changed
from annotation.dashboard import sources
from annotation.dashboard.preprocessing import Preprocessing
from annotation.jobs import Job, run_queued_jobs
from annotation.judging.start import judgment_open
from annotation.models import Corpus, PoolStatistics, User
from annotation.statistics import (
    AUTOMATIC_METRICS,
    corpus_texts,
    forget,
    new_references,
    sentence_pools,
)
from annotation.statistics.pool import (
    CORPUS_WIDE_CHEAPER,
    FINGERPRINT_BYTES,
    Backlog,
    pool_fingerprints,
)
from annotation.tests.boards import view_of
from annotation.tests.factories import HTMX, cells, finish, target_of
from annotation.tests.pools import POOL_ACCEPTED, POOL_CORRECTED
from annotation.tests.stored import automatic_statistics

pytestmark = pytest.mark.django_db

POOL = Preprocessing(pool=True)
#: The demo sentences whose pool differs from their references: the 12 that gained new
#: references and the one whose repeated reference the pool reads once.
DIFFERING = (*range(12), 28)


def judge_sentence_30(corpus: Corpus, user_factory: Callable[..., User]) -> None:
    """One more new reference, for sentence 30 (Online-W's words, NiuTrans's candidate)."""
    cy = user_factory("cy")
    corpus.judges.add(cy)
    accepted = corpus_texts(corpus).systems[POOL_ACCEPTED][30]
    finish(judgment_open(user=cy, target=target_of(corpus, POOL_CORRECTED, 30)), cy, accepted, 8)
    corpus.refresh_from_db()


def test_the_pool_scored_is_stored_with_each_sentences_pool(judged_demo: Corpus) -> None:
    scored = view_of(judged_demo, POOL).get(sources.grown_pool)
    row = PoolStatistics.objects.get(corpus=judged_demo)
    texts = corpus_texts(judged_demo)
    pools = sentence_pools(texts.refs, new_references(judged_demo))

    assert scored is not None
    assert row.choice == "tok:13a|case:mixed|reflen:nearest|bounds:no"
    assert bytes(row.fingerprints) == pool_fingerprints([p.texts for p in pools])
    assert len(row.fingerprints) == FINGERPRINT_BYTES * 40
    assert row.judgments_stamp == judged_demo.judgments_stamp
    assert row.texts_stamp == judged_demo.texts_stamp


def test_another_process_takes_the_stored_pool_as_it_is(judged_demo: Corpus) -> None:
    """A process that remembers nothing (the memo emptied) scores nothing."""
    first = view_of(judged_demo, POOL).get(sources.grown_pool)
    forget()
    again = view_of(judged_demo, POOL).get(sources.grown_pool)

    assert first is not None
    assert first.rescored == DIFFERING
    assert again is not None
    assert again.rescored == ()
    for m in AUTOMATIC_METRICS:
        for s in again.stats.systems:
            assert again.stats.scores[m][s] == first.stats.scores[m][s]
            assert np.array_equal(again.stats.segment_stats(m, s), first.stats.segment_stats(m, s))
    assert again.stats.significance == first.stats.significance
    assert again.shifts == first.shifts


def test_another_process_scores_again_only_the_sentences_judged_since(
    judged_demo: Corpus, user_factory: Callable[..., User]
) -> None:
    view_of(judged_demo, POOL).get(sources.grown_pool)
    judge_sentence_30(judged_demo, user_factory)
    forget()

    now = view_of(judged_demo, POOL).get(sources.grown_pool)

    assert now is not None
    assert now.rescored == (30,)
    row = PoolStatistics.objects.get(corpus=judged_demo)  # replaced: still one row
    assert row.judgments_stamp == judged_demo.judgments_stamp


def test_a_pool_of_older_judgments_does_not_replace_a_newer_one(
    judged_demo: Corpus, user_factory: Callable[..., User]
) -> None:
    """Two requests storing at once: the one that read the later judgments wins."""
    stale = Corpus.objects.get(pk=judged_demo.pk)  # read before the judgment below
    judge_sentence_30(judged_demo, user_factory)
    view_of(judged_demo, POOL).get(sources.grown_pool)
    newer = PoolStatistics.objects.get(corpus=judged_demo)
    PoolStatistics.objects.update(fingerprints=b"")  # the next scoring must store again
    forget()

    view_of(stale, POOL).get(sources.grown_pool)

    kept = PoolStatistics.objects.get(corpus=judged_demo)
    assert kept.pk == newer.pk
    assert kept.judgments_stamp == judged_demo.judgments_stamp


def test_changed_candidates_forget_the_stored_pool(judged_demo: Corpus) -> None:
    view_of(judged_demo, POOL).get(sources.grown_pool)
    corpus_texts_changed(judged_demo.pk)

    assert not PoolStatistics.objects.filter(corpus=judged_demo).exists()


# ------------------------------------------------------------------ the page


@pytest.fixture
def scored_apart(settings: object) -> None:
    """Every backlog is too large to score on the page's own request."""
    settings.EVALTOOL_POOL_ON_THE_PAGE = 0  # type: ignore[attr-defined]


def test_a_large_backlog_is_a_workers_job_while_the_page_shows_its_progress(
    lead_client: Client, judged_demo: Corpus, scored_apart: None, settings: Any
) -> None:
    automatic_statistics(judged_demo)  # the original references' (the pool builds on them)
    settings.TASKS = settings.QUEUED_TASKS  # the job waits for a worker
    url = f"/dashboard/{judged_demo.pk}/?refs=pool"
    waiting = lead_client.get(url).content.decode()

    assert 'id="pool-scoring"' in waiting
    assert 'data-sentences="13"' in waiting
    assert f'hx-get="/dashboard/{judged_demo.pk}/?tok=13a' in waiting
    assert 'refs=pool" hx-trigger="every 1s"' in waiting
    assert 'id="table-panel"' not in waiting
    assert "40 sentences · 5 systems" in waiting  # the header needs no pool figure
    assert not PoolStatistics.objects.exists()  # nothing scored on the page
    (job,) = Job.objects.filter(kind="pool")
    assert (job.status, f'data-job="{job.pk}"' in waiting) == ("queued", True)

    assert run_queued_jobs() == 1  # a worker
    assert PoolStatistics.objects.count() == 1
    shown = lead_client.get(url, **HTMX).content.decode()  # htmx asks again
    pool = view_of(judged_demo, POOL).get(sources.chosen_statistics)
    assert shown.startswith('<div id="dashboard"')
    assert 'id="pool-scoring"' not in shown
    value = float(cells(shown)[(POOL_ACCEPTED, "mwer")]["data-value"])
    assert value == pool.scores["mwer"][POOL_ACCEPTED].score

    forget()  # another process: the stored pool is shown at once
    assert 'id="table-panel"' in lead_client.get(url).content.decode()


def test_downloads_and_panels_answer_202_with_the_job_until_the_figures_are_there(
    lead_client: Client, judged_demo: Corpus, scored_apart: None, settings: Any
) -> None:
    automatic_statistics(judged_demo)  # the original references' (the pool builds on them)
    settings.TASKS = settings.QUEUED_TASKS
    address = f"/dashboard/{judged_demo.pk}/table.json?refs=pool"
    pending = lead_client.get(address)
    assert (pending.status_code, pending["Retry-After"]) == (202, "2")
    body = pending.json()
    assert body["status"] == "scoring"
    assert body["corpus"] == judged_demo.name
    assert [(j["kind"], j["status"], j["percent"]) for j in body["jobs"]] == [("pool", "queued", 0)]
    panel = lead_client.get(f"/dashboard/{judged_demo.pk}/panel/table/?refs=pool")
    assert panel.status_code == 202
    assert 'id="pool-scoring"' in panel.content.decode()

    run_queued_jobs()
    table = lead_client.get(address).json()
    assert table["preprocessing"]["refs"] == "pool"
    assert "place" in table["translators"][POOL_ACCEPTED]["mwer"]


def test_the_backlog_counts_the_corpus_wide_rescoring_once_any_sentence_changed(
    settings: object,
) -> None:
    """One judged sentence of a large corpus still has NIST score every sentence again
    (its information weights are corpus-wide): at 1/20 of a changed sentence's pair."""
    settings.EVALTOOL_POOL_ON_THE_PAGE = 10_000  # type: ignore[attr-defined]
    nothing = Backlog(0, 0, 325_000)
    one = Backlog(1, 940, 325_000)
    small = Backlog(1, 940, 2_000)

    assert nothing.cost == 0
    assert nothing.on_the_page
    assert one.cost == 940 + 325_000 // CORPUS_WIDE_CHEAPER
    assert not one.on_the_page
    assert small.cost == 1_040
    assert small.on_the_page
