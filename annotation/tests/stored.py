"""The stored statistics a test reads, scored first where they are not stored yet."""

from __future__ import annotations

from annotation.jobs import Job, run_queued_jobs
from annotation.models import Corpus
from annotation.statistics import AutomaticStats, statistics_or_job, stored_statistics
from metrics.tokenize import Preprocessor


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
