"""Scoring as the queue's jobs: the one way the app computes a corpus's automatic
statistics (:mod:`annotation.jobs` runs them in a worker, never in a web request).

A job scores one preprocessing choice of one corpus *for one state of its texts*: its
key holds the corpus's texts stamp, so asking again while it runs gets the same job,
and texts changed meanwhile (a word moved, a system added) make a new job rather than
a stale result. The result is stored in the transaction that ends the job
(:func:`annotation.jobs.runner.run_claimed`), so a page finds the whole row or none.
"""

from __future__ import annotations

from typing import Any

from annotation.jobs import Job, Progress, enqueue, handler
from annotation.models import Corpus
from annotation.statistics.encoding import (
    AutomaticStats,
    default_choice,
    default_preprocessor,
    encode_statistics,
    statistics_choice,
)
from annotation.statistics.pool import scored_pool, store_pool
from annotation.statistics.store import fresh_statistics, store_statistics, stored_statistics
from metrics.tokenize import Preprocessor

SCORING = "statistics"
POOL = "pool"


def _payload(corpus: Corpus, pp: Preprocessor, ref_length: str) -> dict[str, Any]:
    return {
        "tokenize": pp.tokenize,
        "lowercase": pp.lowercase,
        "sentence_boundaries": pp.sentence_boundaries,
        "ref_length": ref_length,
        "texts_stamp": corpus.texts_stamp,
    }


def _choice(payload: dict[str, Any]) -> tuple[Preprocessor, str]:
    pp = Preprocessor(
        tokenize=payload["tokenize"],
        lowercase=payload["lowercase"],
        sentence_boundaries=payload["sentence_boundaries"],
    )
    return pp, payload["ref_length"]


def _job_corpus(job: Job) -> Corpus | None:
    """The job's corpus if it is still there with the texts the job was queued for."""
    if job.corpus_id is None:
        return None
    corpus = Corpus.all_objects.filter(pk=job.corpus_id).first()
    if corpus is None or corpus.texts_stamp != job.payload["texts_stamp"]:
        return None
    return corpus


def scoring_job(
    corpus: Corpus,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
    *,
    requested_by: Any = None,
) -> Job:
    """The job scoring this choice of the corpus's current texts (queued if there is
    none; the last one if it failed, for the lead to retry). No ``preprocessor``: the
    corpus's default one (:func:`~annotation.statistics.encoding.default_preprocessor`),
    what the import, a system added and the commands queue, and what the dashboard's
    first view reads."""
    pp = preprocessor or default_preprocessor(corpus)
    choice = statistics_choice(pp, ref_length)
    default = choice == default_choice(corpus)
    return enqueue(
        SCORING,
        f"{SCORING}:{corpus.pk}:{corpus.texts_stamp}:{choice}",
        label=f"Scoring {corpus.name}" + ("" if default else f" ({choice})"),
        corpus=corpus,
        payload=_payload(corpus, pp, ref_length),
        requested_by=requested_by,
    )


def statistics_or_job(
    corpus: Corpus,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
    *,
    requested_by: Any = None,
) -> AutomaticStats | Job:
    """The stored statistics of this choice (one query; no ``preprocessor``: the corpus's
    default one), or the job that computes them (queued now if need be): what a page
    shows, figures or progress."""
    stored = stored_statistics(corpus, preprocessor, ref_length)
    if stored is not None:
        return stored
    job = scoring_job(corpus, preprocessor, ref_length, requested_by=requested_by)
    if job.status == Job.Status.DONE:  # ended meanwhile (or run where it was queued)
        stored = stored_statistics(corpus, preprocessor, ref_length)
    return job if stored is None else stored


@handler(SCORING)
def score_choice(job: Job, progress: Progress) -> Any:
    """Compute the job's choice and hand back the store of its encoded statistics;
    nothing when the corpus is gone or its texts changed since the job was queued (the
    next reader queues a job for the new texts)."""
    corpus = _job_corpus(job)
    if corpus is None:
        return None
    pp, ref_length = _choice(job.payload)
    stats = fresh_statistics(corpus, pp, ref_length, progress)
    choice = statistics_choice(pp, ref_length)
    data = encode_statistics(stats)
    del stats

    def store() -> dict[str, Any]:
        store_statistics(corpus.pk, choice, corpus.texts_stamp, data)
        return {"choice": choice, "bytes": len(data)}

    return store


def pool_job(
    corpus: Corpus,
    preprocessor: Preprocessor,
    ref_length: str,
    *,
    backlog: tuple[int, int] = (0, 0),
    requested_by: Any = None,
) -> Job:
    """The job scoring the corpus against its grown pool for this choice, as the pool is
    when a worker takes it (one live job per choice, however many judgments come in
    meanwhile: what they add is scored on the page, a few sentences at a time).
    ``backlog`` (sentences, pairs to score) is kept with it for the page to show while
    it waits (:func:`live_pool_job`)."""
    sentences, pairs = backlog
    return enqueue(
        POOL,
        _pool_key(corpus, preprocessor, ref_length),
        label=f"Scoring {corpus.name} against the grown pool "
        f"({statistics_choice(preprocessor, ref_length)})",
        corpus=corpus,
        payload={**_payload(corpus, preprocessor, ref_length), "backlog": [sentences, pairs]},
        requested_by=requested_by,
    )


def live_pool_job(corpus: Corpus, preprocessor: Preprocessor, ref_length: str) -> Job | None:
    """The grown pool's job of this choice while it is queued or running, else None (one
    query): a page polling for the figures shows its progress without reading every
    judgment's new reference again to learn what is left to score."""
    key = _pool_key(corpus, preprocessor, ref_length)
    live = Job.objects.filter(key=key, status__in=Job.LIVE).defer("upload", "result")
    return live.order_by("-pk").first()


def _pool_key(corpus: Corpus, preprocessor: Preprocessor, ref_length: str) -> str:
    return f"{POOL}:{corpus.pk}:{corpus.texts_stamp}:{statistics_choice(preprocessor, ref_length)}"


@handler(POOL)
def score_pool(job: Job, progress: Progress) -> Any:
    """Score the grown pool of the job's choice, built on the pool last stored, and hand
    back its store; nothing when the corpus, its texts or the original references'
    statistics (which the pool builds on) are not there as the job expects."""
    corpus = _job_corpus(job)
    if corpus is None:
        return None
    pp, ref_length = _choice(job.payload)
    original = stored_statistics(corpus, pp, ref_length)
    if original is None:
        return None
    scored, changed = scored_pool(corpus, pp, ref_length, original, store=False, progress=progress)
    del original
    choice = statistics_choice(pp, ref_length)

    def store() -> dict[str, Any]:
        if changed:
            store_pool(corpus, choice, scored)
        return {"choice": choice, "sentences": len(changed)}

    return store
