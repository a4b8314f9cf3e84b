"""Every automatic metric of a corpus, per system, through ``metrics/``: the app's one
bridge between stored corpora and the metrics engine. It hands a corpus's texts
(:mod:`annotation.statistics.texts`) to the metric objects ``python -m metrics`` uses
(:func:`metrics.corpus.score_corpus`) and runs their paired bootstrap.

The automatic statistics are computed here (:func:`compute_statistics`) and *stored*
with the corpus by :mod:`annotation.statistics.store`: reading them is all a page does.
"""

from __future__ import annotations

import ctypes
import functools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from django.conf import settings

from annotation.models import Corpus
from annotation.statistics.encoding import AutomaticStats, decode_statistics, encode_statistics
from annotation.statistics.metric_set import AUTOMATIC_METRICS, app_metric, heaviest_first
from annotation.statistics.texts import CorpusTexts, corpus_texts
from metrics.corpus import score_corpus
from metrics.registry import metric_info
from metrics.significance import DEFAULT_SAMPLES, DEFAULT_SEED, Bootstrap, MetricSignificance
from metrics.stats import Metric, References, Score
from metrics.tokenize import Preprocessor


def automatic_scores(
    texts: CorpusTexts,
    *,
    metrics: tuple[str, ...] = AUTOMATIC_METRICS,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
) -> dict[str, dict[str, Score]]:
    """Every metric of every system, the corpus tokenized once for all of them (the same
    figures, to the last bit, as each metric scoring each system on its own)."""
    pp = preprocessor or Preprocessor()
    objects = [app_metric(m, pp, ref_length, texts.docs) for m in metrics]
    return score_corpus(texts.refs, texts.systems, objects)


def compute_statistics(
    corpus: Corpus,
    preprocessor: Preprocessor,
    ref_length: str,
    *,
    known: Sequence[AutomaticStats] = (),
    texts: CorpusTexts | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> AutomaticStats:
    """Score the corpus (:func:`automatic_scores`; its ``texts`` if given, e.g. grown by
    the reference pool) and run the paired bootstrap of every automatic metric
    (:func:`automatic_significance` on :func:`paired_bootstrap`'s samples).

    A metric whose signature for this choice equals its signature in ``known`` (stored
    statistics of another choice) is taken from there, statistics and bootstrap alike:
    a signature records every choice the metric reads, so equal signatures are the same
    computation (chrF under another tokenizer, WER under another reference length). The
    others are scored a group at a time (the metrics of a :data:`~annotation.statistics.
    metric_set.WORK_GROUPS` group share their work), the heaviest first, by
    :func:`scoring_processes` processes at once, and ``progress(done, total, "scoring")``
    hears of each group's metrics as they are done. This runs in a worker
    (:mod:`annotation.statistics.jobs`), never in a web request: a worker may fork.
    """
    texts = corpus_texts(corpus) if texts is None else texts
    systems = tuple(texts.systems)
    metrics = {m: app_metric(m, preprocessor, ref_length, texts.docs) for m in AUTOMATIC_METRICS}
    reused = {m: _only(m, kin) for m, kin in reusable(metrics, texts.refs, systems, known).items()}
    del known  # the stored choices' other metrics are freed before the scoring starts
    todo = tuple(m for m in AUTOMATIC_METRICS if m not in reused)
    computed: list[AutomaticStats] = []

    def report() -> None:
        if progress is not None:
            progress(sum(len(c.scores) for c in computed), len(todo), "scoring")

    report()
    groups = heaviest_first(todo)
    processes = min(scoring_processes(), len(groups))
    if processes <= 1:
        for names in groups:
            computed.append(_share(texts, names, preprocessor, ref_length))
            report()
    else:
        fork = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(
            max_workers=processes,
            mp_context=fork,
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        ) as pool:
            shares = [
                pool.submit(_encoded_share, texts, names, preprocessor, ref_length)
                for names in groups
            ]
            for done in as_completed(shares):
                computed.append(decode_statistics(done.result()))
                report()
    sources = {m: found for found in computed for m in found.scores} | reused
    scores = {m: sources[m].scores[m] for m in AUTOMATIC_METRICS}
    significance = {
        m: sources[m].significance[m] for m in AUTOMATIC_METRICS if m in sources[m].significance
    }
    return AutomaticStats(systems, len(texts.refs), scores, significance)


def scoring_processes() -> int:
    """Processes a worker scores a choice with (``EVALTOOL_SCORING_PROCESSES``, default
    2: the groups of metrics are independent, and a 2-core machine scores a real corpus
    in about half the time); 1 scores in the worker's own process."""
    return max(1, int(getattr(settings, "EVALTOOL_SCORING_PROCESSES", 2)))


#: prctl(2)'s request that the kernel signal this process when its parent dies.
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """A scoring process's first act: die with the worker that forked it (``parent``).

    A worker killed outright (SIGKILL, the out-of-memory killer) cleans nothing up, and a
    scoring process left behind waits for more work for ever (its pool's pipes are open
    at both ends in itself), holding its memory and the database connection it inherited.
    On Linux the kernel kills it when the thread that forked it ends (the job's: it
    outlives the pool), ``PR_SET_PDEATHSIG``; elsewhere a thread of its own watches its
    parent. Ctrl-C (SIGINT, sent to the terminal's whole process group) is the worker's to
    act on (it finishes its job first), so a scoring process ignores it; SIGTERM ends it
    as it ends any process (the handler it inherited from the worker's loop would only
    ask a copy of that loop to stop)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    asked = sys.platform == "linux" and (
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0
    )
    if not asked:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it died before the kernel was asked
        os._exit(1)


def _watch_parent(parent: int) -> None:
    """End this process once ``parent`` has died (it is then another's child)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def paired_bootstrap(n_segments: int) -> Bootstrap:
    """The resampling of ``n_segments`` segments every figure of the app is tested on:
    ``EVALTOOL_BOOTSTRAP_SAMPLES`` samples (default sacreBLEU's 1,000) from seed 12345,
    drawn alike wherever it is drawn, so the automatic metrics' tests (stored with their
    statistics) and the human metrics' (computed on the page) are paired across metrics."""
    samples = int(getattr(settings, "EVALTOOL_BOOTSTRAP_SAMPLES", DEFAULT_SAMPLES))
    return _drawn(n_segments, samples)


@functools.lru_cache(maxsize=4)
def _drawn(n_segments: int, samples: int) -> Bootstrap:
    """The resampling drawn once per process and size: every view after a judgment
    asked for it again (1,000 × 1,000 draws and their counts, 10–40 ms of CPU at real
    size), the same matrices each time. Read-only, so no figure can change them for the
    next (16 MB a size at 1,000 sentences; the four last sizes are kept)."""
    found = Bootstrap(n_segments, samples, DEFAULT_SEED)
    found.indices.setflags(write=False)
    found.counts.setflags(write=False)
    return found


def _encoded_share(
    texts: CorpusTexts, names: tuple[str, ...], preprocessor: Preprocessor, ref_length: str
) -> bytes:
    """:func:`_share` as stored bytes: what a child process hands back (exact, nothing
    pickled but bytes)."""
    return encode_statistics(_share(texts, names, preprocessor, ref_length))


def _only(m: str, stats: AutomaticStats) -> AutomaticStats:
    """``stats`` reduced to one metric (what a new choice takes from a stored one)."""
    kept = {m: stats.significance[m]} if m in stats.significance else {}
    return AutomaticStats(stats.systems, stats.n_segments, {m: stats.scores[m]}, kept)


def _share(
    texts: CorpusTexts, names: tuple[str, ...], preprocessor: Preprocessor, ref_length: str
) -> AutomaticStats:
    """The statistics and paired bootstrap of the metrics ``names`` only."""
    systems = tuple(texts.systems)
    by_system = automatic_scores(
        texts, metrics=names, preprocessor=preprocessor, ref_length=ref_length
    )
    scores = {m: {s: by_system[s][m] for s in systems} for m in names}
    n = len(texts.refs)
    significance: dict[str, MetricSignificance] = {}
    if n and systems:
        metrics = {m: app_metric(m, preprocessor, ref_length, texts.docs) for m in names}
        significance = automatic_significance(scores, metrics, paired_bootstrap(n))
    return AutomaticStats(systems, n, scores, significance)


def reusable(
    metrics: Mapping[str, Metric],
    refs: References,
    systems: Sequence[str],
    known: Sequence[AutomaticStats],
) -> dict[str, AutomaticStats]:
    """For each metric, stored statistics in ``known`` computed with the same signature
    for the same systems and segments (:func:`compute_statistics` takes it from there)."""
    out: dict[str, AutomaticStats] = {}
    for name, metric in metrics.items():
        signature = metric.signature(refs)
        for stats in known:
            same_corpus = stats.systems == tuple(systems) and stats.n_segments == len(refs)
            by_system = stats.scores.get(name, {})
            if (
                same_corpus
                and systems
                and name in stats.significance
                and all(s in by_system and by_system[s].signature == signature for s in systems)
            ):
                out[name] = stats
                break
    return out


def automatic_significance(
    scores: Mapping[str, Mapping[str, Score]],
    metrics: Mapping[str, Metric],
    bootstrap: Bootstrap,
) -> dict[str, MetricSignificance]:
    """Paired bootstrap of every automatic metric over all segments (``scores[metric]
    [system]`` with its statistics rows)."""
    return {
        m: bootstrap.compare(
            {s: score.stats for s, score in scores[m].items() if score.stats is not None},
            metrics[m].score_from_stats,
            higher_is_better=metric_info(m).higher_is_better,
            metric=m,
            bounds=metric_info(m).bounds,
        )
        for m in scores
    }
