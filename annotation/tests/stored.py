"""The stored statistics a test reads, scored first where they are not stored yet."""

from __future__ import annotations

import hashlib

from django.conf import settings

from annotation.jobs import Job, run_queued_jobs
from annotation.models import Corpus, CorpusStatistics
from annotation.statistics import (
    AutomaticStats,
    corpus_texts,
    statistics_choice,
    statistics_or_job,
    stored_statistics,
)
from metrics.tokenize import Preprocessor

#: The default choice's stored row (engine, data) per texts, bootstrap samples and
#: choice, as this process's first scoring of those texts stored it.
_SCORED: dict[tuple[str, int, str], tuple[str, bytes]] = {}


def automatic_statistics(
    corpus: Corpus, *, preprocessor: Preprocessor | None = None, ref_length: str = "nearest"
) -> AutomaticStats:
    """The corpus's stored statistics of a choice, scored first (by the job a page would
    queue, computed here) if they are not stored."""
    found = statistics_or_job(corpus, preprocessor, ref_length)
    if isinstance(found, Job):
        run_queued_jobs()
        found = stored_statistics(corpus, preprocessor, ref_length)
    assert found is not None, f"{corpus.name}: its scoring job did not store statistics"
    return found


def scored(corpus: Corpus) -> Corpus:
    """``corpus`` with its default choice's statistics stored, as once its import's
    scoring job is done: scored by that job the first time this process meets these
    texts, and the row that job stored written again for every later corpus of the same
    texts (scoring is deterministic: the same texts, choice and bootstrap give the same
    bytes, as ``tests/statistics/test_scoring.py`` checks to the last bit)."""
    choice = statistics_choice(Preprocessor(), "nearest")
    texts = corpus_texts(corpus)
    fingerprint = hashlib.sha256(repr((texts.refs, texts.systems, texts.docs)).encode())
    key = (fingerprint.hexdigest(), settings.EVALTOOL_BOOTSTRAP_SAMPLES, choice)
    if key not in _SCORED:
        automatic_statistics(corpus)
        row = CorpusStatistics.objects.get(corpus=corpus, choice=choice)
        _SCORED[key] = (row.engine, bytes(row.data))
        return corpus
    engine, data = _SCORED[key]
    CorpusStatistics.objects.create(
        corpus=corpus, choice=choice, engine=engine, texts_stamp=corpus.texts_stamp, data=data
    )
    return corpus
