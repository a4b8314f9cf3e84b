"""The statistics against the grown pool: every automatic metric against the corpus's
references grown by the judges' accepted new references
(:mod:`annotation.statistics.pool_references` states the rules). What the dashboard shows
of them (reference counts, the ranking's shifts) is :mod:`annotation.dashboard.pool`'s.

Unlike the original references' statistics, which change only with the corpus's texts
(kept under its texts stamp: :mod:`annotation.changes`), these depend on the judgments,
and scoring them is heavy: a judged sentence gains tens of references (20 systems × 3
judges: 43 distinct on average in ``bench/pages.py``'s campaign), and TER, LEPOR, METEOR
and chrF work per reference. So:

* **Only what changed is scored.** A sentence's rows depend on its own pool alone (but
  NIST's, :data:`CORPUS_WIDE`), so a pool is built on the pool last scored — remembered
  by this process, else stored (:class:`~annotation.models.PoolStatistics`)
  by any — or, the first time, on the original references' statistics: the sentences
  whose pool differs from the one it scored are scored again, their rows replace the old
  ones, and the figures are those of scoring afresh to the last bit (tested).
* **Stored for every process.** What was scored is stored with each sentence's pool
  (:func:`pool_fingerprints`) and the texts stamp; a server's other workers, or the
  same after a restart, build on it.
* **Never stale.** The result is remembered under the corpus's judgments stamp
  (:mod:`~annotation.statistics.memo`), so a judgment finished a second ago is in the
  next view's figures.
* **The page does not wait for a large backlog** (:class:`Backlog`): a worker scores it
  (:func:`~annotation.statistics.jobs.pool_job`) while the page shows its progress.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from django.conf import settings
from django.db import transaction

from annotation.models import Corpus, PoolStatistics
from annotation.statistics.blobs import first_blob, insert_ignoring_conflicts
from annotation.statistics.compute import (
    automatic_scores,
    automatic_significance,
    paired_bootstrap,
)
from annotation.statistics.encoding import (
    STATISTICS_ENGINE,
    AutomaticStats,
    decode_statistics,
    encode_statistics,
    statistics_choice,
)
from annotation.statistics.metric_set import (
    AUTOMATIC_METRICS,
    CORPUS_WIDE,
    app_metric,
    heaviest_first,
)
from annotation.statistics.pool_references import SentencePool, new_references, sentence_pools
from annotation.statistics.texts import CorpusTexts, corpus_texts
from metrics.stats import Score
from metrics.tokenize import Preprocessor


@dataclass(frozen=True)
class ScoredPool:
    """A pool as scored: its statistics, the corpus's texts stamp they were scored on and
    each sentence's pool then (:func:`pool_fingerprints`). A later pool builds on it when
    no candidate changed since: only its sentences whose pool changed are scored again."""

    stats: AutomaticStats
    texts_stamp: int
    fingerprints: bytes


#: Bytes of one sentence's fingerprint: a collision would go unnoticed, so a digest long
#: enough that none ever happens (BLAKE2b, 128 bits), 16 kB for 1,000 sentences.
FINGERPRINT_BYTES = 16


def pool_fingerprints(refs: Sequence[Sequence[str]]) -> bytes:
    """Each sentence's references (its pool) as one digest, in sentence order: what is
    kept of the pool a stored scoring saw, to tell which sentences changed since."""
    out = bytearray()
    for texts in refs:
        digest = hashlib.blake2b(digest_size=FINGERPRINT_BYTES)
        for text in texts:
            data = text.encode()
            digest.update(len(data).to_bytes(8, "little"))
            digest.update(data)
        out += digest.digest()
    return bytes(out)


def changed_sentences(before: bytes, now: bytes) -> list[int]:
    """The sentences whose fingerprint differs (both of one corpus, in sentence order)."""
    size = FINGERPRINT_BYTES
    return [
        k
        for k in range(len(now) // size)
        if before[k * size : (k + 1) * size] != now[k * size : (k + 1) * size]
    ]


def first_reference_metrics(preprocessor: Preprocessor, ref_length: str) -> list[str]:
    """The metrics that read each sentence's first reference only: their signature says
    ``nrefs:1`` whatever the references."""
    two = [("a", "b")]
    return [
        m
        for m in AUTOMATIC_METRICS
        if app_metric(m, preprocessor, ref_length).signature(two).startswith("nrefs:1|")
    ]


@dataclass(frozen=True)
class PoolInputs:
    """What scoring the pool reads (four queries): the corpus's texts and each sentence's
    pool; its texts and their :func:`pool_fingerprints`, made once."""

    texts: CorpusTexts
    pools: list[SentencePool]

    @cached_property
    def grown(self) -> list[tuple[str, ...]]:
        return [p.texts for p in self.pools]

    @cached_property
    def fingerprints(self) -> bytes:
        return pool_fingerprints(self.grown)


def pool_inputs(corpus: Corpus) -> PoolInputs:
    texts = corpus_texts(corpus)
    return PoolInputs(texts, sentence_pools(texts.refs, new_references(corpus)))


def pool_base(
    corpus: Corpus,
    choice: str,
    inputs: PoolInputs,
    original: AutomaticStats,
    previous: ScoredPool | None,
) -> ScoredPool:
    """The scored pool to build on: ``previous`` (remembered by this process), else the
    one stored (:class:`~annotation.models.PoolStatistics`, one or two queries), if it
    was scored on today's candidates; else the original references' statistics, the
    pool of every sentence that gained no new reference."""
    for base in (previous, _stored(corpus, choice) if previous is None else None):
        if (
            base is not None
            and base.texts_stamp == corpus.texts_stamp
            and base.stats.systems == tuple(inputs.texts.systems)
            and len(base.fingerprints) == FINGERPRINT_BYTES * len(inputs.pools)
        ):
            return base
    return ScoredPool(original, corpus.texts_stamp, pool_fingerprints(inputs.texts.refs))


#: The most reference × candidate pairs the dashboard scores on the page's own request
#: (well under a second, on the app server the judges share); a larger backlog is a
#: worker's job while the page shows its progress
#: (:func:`annotation.statistics.jobs.pool_job`). A small corpus's pool is scored on the
#: page; at real size any change is a worker's, as the corpus-wide metrics and every
#: metric's bootstrap score the whole corpus again. The setting
#: ``EVALTOOL_POOL_ON_THE_PAGE`` overrides it.
SCORED_ON_THE_PAGE = 500

#: A pair of the whole corpus costs :data:`CORPUS_WIDE` metrics (NIST counts n-grams,
#: nothing more) about this many times less than a pair of a changed sentence costs all
#: the others (TER's search, METEOR's alignments): ``docs/performance.md``.
CORPUS_WIDE_CHEAPER = 20


@dataclass(frozen=True)
class Backlog:
    """What a pool view must score first: ``sentences`` (whose pool changed since it was
    last scored) and the ``pairs`` of a reference and a candidate they hold; when any
    did, :data:`CORPUS_WIDE` metrics score all ``corpus_pairs`` of the corpus again."""

    sentences: int = 0
    pairs: int = 0
    corpus_pairs: int = 0

    @property
    def cost(self) -> int:
        """The work, in pairs of a changed sentence."""
        return self.pairs + (self.corpus_pairs // CORPUS_WIDE_CHEAPER if self.sentences else 0)

    @property
    def on_the_page(self) -> bool:
        """Small enough to score before the page answers."""
        return self.cost <= getattr(settings, "EVALTOOL_POOL_ON_THE_PAGE", SCORED_ON_THE_PAGE)


def pool_backlog(base: ScoredPool, inputs: PoolInputs, systems: int) -> Backlog:
    """The sentences whose pool differs from the one ``base`` scored, and their pairs."""
    grown = inputs.grown
    changed = changed_sentences(base.fingerprints, inputs.fingerprints)
    return Backlog(
        len(changed),
        systems * sum(len(grown[k]) for k in changed),
        systems * sum(map(len, grown)),
    )


def scored_pool(
    corpus: Corpus,
    preprocessor: Preprocessor,
    ref_length: str,
    original: AutomaticStats,
    previous: ScoredPool | None = None,
    *,
    inputs: PoolInputs | None = None,
    base: ScoredPool | None = None,
    store: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
) -> tuple[ScoredPool, tuple[int, ...]]:
    """Score the corpus against its grown pool: the pool as scored, and the sentences
    scored again to get it from the pool it built on (none: the figures were taken as they
    were). Metrics that read only each sentence's first reference are taken from
    ``original``, the original choice's stored statistics; when the pool is the corpus's
    references, all of them are.

    Built on :func:`pool_base` (``base`` if the caller found it already): every metric
    but :data:`CORPUS_WIDE` scores a sentence from its own texts alone, so only the
    sentences whose pool changed since are scored again and their rows replace the
    base's (the figures are those of scoring afresh, to the last bit: the corpus score is
    a function of the summed rows). What was scored is stored for every later view, in
    any process (unless ``store`` is off: a job stores it with its end, :func:`store_pool`)."""
    inputs = inputs if inputs is not None else pool_inputs(corpus)
    texts, grown = inputs.texts, inputs.grown
    stamp, fingerprints = corpus.texts_stamp, inputs.fingerprints
    if grown == texts.refs:
        return ScoredPool(original, stamp, fingerprints), ()
    choice = statistics_choice(preprocessor, ref_length)
    if base is None:
        base = pool_base(corpus, choice, inputs, original, previous)
    changed = changed_sentences(base.fingerprints, fingerprints)
    stats = base.stats
    if changed:
        first_only = first_reference_metrics(preprocessor, ref_length)
        stats = _rescored(
            texts,
            grown,
            changed,
            base.stats,
            original,
            first_only,
            preprocessor,
            ref_length,
            progress,
        )
        if store:
            store_pool(corpus, choice, ScoredPool(stats, stamp, fingerprints))
    return ScoredPool(stats, stamp, fingerprints), tuple(changed)


def _stored(corpus: Corpus, choice: str) -> ScoredPool | None:
    """The pool last stored for ``choice`` (its stamps and fingerprints, then its
    statistics if they may serve), or None."""
    rows = PoolStatistics.objects.filter(corpus=corpus, choice=choice, engine=STATISTICS_ENGINE)
    found = rows.values_list("pk", "texts_stamp", "fingerprints").first()
    if found is None or found[1] != corpus.texts_stamp:
        return None
    data = first_blob(PoolStatistics.objects.filter(pk=found[0]).values_list("data", flat=True))
    if data is None:  # replaced meanwhile by a newer one: build on the original
        return None
    return ScoredPool(decode_statistics(data), found[1], bytes(found[2]))


def store_pool(corpus: Corpus, choice: str, scored: ScoredPool) -> None:
    """Keep ``scored`` in place of an older stored pool of ``choice``; a newer one stays
    (two requests storing at once: the pool of the later judgments wins)."""
    stamp = corpus.judgments_stamp
    with transaction.atomic():
        PoolStatistics.objects.filter(
            corpus=corpus, choice=choice, engine=STATISTICS_ENGINE, judgments_stamp__lte=stamp
        ).delete()
        insert_ignoring_conflicts(
            PoolStatistics(
                corpus=corpus,
                choice=choice,
                engine=STATISTICS_ENGINE,
                judgments_stamp=stamp,
                texts_stamp=scored.texts_stamp,
                fingerprints=scored.fingerprints,
                data=encode_statistics(scored.stats),
            )
        )


def _rows(
    texts: CorpusTexts, names: tuple[str, ...], preprocessor: Preprocessor, ref_length: str
) -> AutomaticStats:
    """The statistics of ``names`` (no bootstrap)."""
    by_system = automatic_scores(
        texts, metrics=names, preprocessor=preprocessor, ref_length=ref_length
    )
    scores = {m: {s: by_system[s][m] for s in texts.systems} for m in names}
    return AutomaticStats(tuple(texts.systems), len(texts.refs), scores, {})


def _rescored(
    texts: CorpusTexts,
    grown: list[tuple[str, ...]],
    changed: list[int],
    previous: AutomaticStats,
    original: AutomaticStats,
    first_only: list[str],
    preprocessor: Preprocessor,
    ref_length: str,
    progress: Callable[[int, int, str], None] | None = None,
) -> AutomaticStats:
    """:func:`scored_pool`'s statistics from the previous pool's: the ``changed`` sentences
    scored again (every metric but the first-reference ones and :data:`CORPUS_WIDE`,
    which is scored afresh), then the paired bootstrap of every metric that changed."""
    systems = tuple(texts.systems)
    metrics = {m: app_metric(m, preprocessor, ref_length, texts.docs) for m in AUTOMATIC_METRICS}
    local = tuple(m for m in AUTOMATIC_METRICS if m not in first_only and m not in CORPUS_WIDE)
    wide = tuple(m for m in AUTOMATIC_METRICS if m in CORPUS_WIDE and m not in first_only)
    part = CorpusTexts(
        refs=[grown[k] for k in changed],
        systems={s: [hyps[k] for k in changed] for s, hyps in texts.systems.items()},
        docs=[texts.docs[k] for k in changed],
    )
    again = AutomaticStats(systems, len(changed), {}, {})
    groups = heaviest_first(local)
    for done, names in enumerate(groups):
        if progress is not None:
            progress(done, len(groups) + bool(wide), "scoring the grown pool")
        again.scores.update(_rows(part, names, preprocessor, ref_length).scores)
    scores: dict[str, dict[str, Score]] = {m: original.scores[m] for m in first_only}
    if wide:
        scores.update(_rows(replace(texts, refs=grown), wide, preprocessor, ref_length).scores)
    for m in local:
        metric = metrics[m]
        signature = metric.signature(grown)
        scores[m] = {}
        for s in systems:
            rows = previous.segment_stats(m, s).copy()
            rows[changed] = again.segment_stats(m, s)
            total = float(metric.score_from_stats(rows.sum(axis=0)))
            scores[m][s] = Score(metric.name, total, signature, rows)
    significance = {m: original.significance[m] for m in first_only if m in original.significance}
    n = len(grown)
    if n and systems:
        todo = (*local, *wide)
        significance.update(
            automatic_significance(
                {m: scores[m] for m in todo}, {m: metrics[m] for m in todo}, paired_bootstrap(n)
            )
        )
    return AutomaticStats(systems, n, scores, significance)
