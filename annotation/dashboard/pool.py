"""The dashboard's "grown pool" choice: every automatic metric against the corpus's
references grown by the judges' accepted new references (:mod:`annotation.pool_references`
states the rules), how many references each sentence then has, and how the ranking moves.

Unlike the original references' statistics, which are stored for good (the corpus texts
never change), these depend on the judgments: they are remembered under the corpus's
judgments stamp (:mod:`~annotation.dashboard.cache`), so a judgment finished a second ago
is in the next view's figures, and no stale pool is ever shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from annotation.apart import give_back_memory
from annotation.metric_set import AUTOMATIC_METRICS, app_metric
from annotation.models import Corpus
from annotation.pool_references import SentencePool, new_references, sentence_pools
from annotation.scoring import (
    AutomaticStats,
    CorpusTexts,
    automatic_scores,
    automatic_significance,
    compute_statistics,
    corpus_texts,
)
from metrics.registry import metric_info
from metrics.significance import DEFAULT_SAMPLES, DEFAULT_SEED, Bootstrap
from metrics.stats import Score
from metrics.tokenize import Preprocessor


@dataclass(frozen=True)
class ReferenceCounts:
    """How many references each sentence has under each choice (``pool[k]``,
    ``original[k]``: sentence k's), and each sentence's pool (a repeated reference of the
    corpus is one in the pool; ``pools[k].added``: the new references it gained)."""

    original: tuple[int, ...]
    pools: tuple[SentencePool, ...]

    @property
    def pool(self) -> tuple[int, ...]:
        return tuple(len(p.texts) for p in self.pools)

    @property
    def least(self) -> int:
        return min(self.pool, default=0)

    @property
    def most(self) -> int:
        return max(self.pool, default=0)

    @property
    def mean(self) -> float:
        return sum(self.pool) / len(self.pool) if self.pool else 0.0

    @property
    def new(self) -> int:
        """The new references that joined (each counted once)."""
        return sum(len(p.added) for p in self.pools)

    @property
    def grown(self) -> int:
        """Sentences that gained at least one new reference."""
        return sum(bool(p.added) for p in self.pools)

    @property
    def original_mean(self) -> float:
        return sum(self.original) / len(self.original) if self.original else 0.0


@dataclass(frozen=True)
class Shift:
    """A system's place in one metric's ranking (1 = best; ties share a place) against
    the original references (``before``) and against the grown pool (``after``)."""

    before: int
    after: int

    @property
    def moved(self) -> int:
        """Places gained (positive: up the ranking)."""
        return self.before - self.after

    @property
    def arrow(self) -> str:
        if self.moved > 0:
            return f"▲{self.moved}"
        if self.moved < 0:
            return f"▼{-self.moved}"
        return "="

    @property
    def title(self) -> str:
        return (
            f"place {self.before} against the original references, "
            f"{self.after} against the grown pool"
        )


#: Per metric, per system: its :class:`Shift`.
Shifts = dict[str, dict[str, Shift]]


def places(stats: AutomaticStats, metric: str) -> dict[str, int]:
    """Each system's place by ``metric``'s corpus score: 1 + the systems strictly better
    (ties share a place); 0 for a system without a finite score."""
    higher = metric_info(metric).higher_is_better
    scores = {s: score.score for s, score in stats.scores[metric].items()}
    finite = [v for v in scores.values() if math.isfinite(v)]
    return {
        s: 0 if not math.isfinite(v) else 1 + sum((w > v) if higher else (w < v) for w in finite)
        for s, v in scores.items()
    }


def rank_shifts(original: AutomaticStats, pool: AutomaticStats) -> Shifts:
    """Every automatic metric's :class:`Shift` of every system."""
    out: Shifts = {}
    for m in AUTOMATIC_METRICS:
        before, after = places(original, m), places(pool, m)
        out[m] = {s: Shift(before.get(s, 0), after.get(s, 0)) for s in pool.systems}
    return out


@dataclass(frozen=True)
class PoolPart:
    """What the pool choice shows: the automatic statistics against the grown pool (the
    same shape as the stored ones), the reference counts and the ranking's shifts; and
    the corpus's texts stamp they were scored on (a later pool builds on them only if
    no candidate changed since) and the sentences scored again from the previous pool
    (None: every sentence was scored; empty: none, the figures were taken as they were)."""

    stats: AutomaticStats
    counts: ReferenceCounts
    shifts: Shifts
    texts_stamp: int = 0
    rescored: tuple[int, ...] | None = None


#: Metrics whose statistics of a sentence depend on other sentences' references: NIST's
#: information weights count every reference n-gram of the corpus. (The weighted n-grams'
#: document weights too, but they read the first reference only: always the original's.)
CORPUS_WIDE = frozenset({"nist"})


def first_reference_metrics(preprocessor: Preprocessor, ref_length: str) -> list[str]:
    """The metrics that read each sentence's first reference only: their signature says
    ``nrefs:1`` whatever the references."""
    two = [("a", "b")]
    return [
        m
        for m in AUTOMATIC_METRICS
        if app_metric(m, preprocessor, ref_length).signature(two).startswith("nrefs:1|")
    ]


def pool_part(
    corpus: Corpus,
    preprocessor: Preprocessor,
    ref_length: str,
    original: AutomaticStats,
    previous: PoolPart | None = None,
) -> PoolPart:
    """Score the corpus against its grown pool (four queries: the texts and the new
    references). Metrics that read only each sentence's first reference are taken from
    ``original``, the original choice's stored statistics; when the pool is the corpus's
    references, all of them are.

    ``previous``, the pool as scored before the latest judgments (same choice), saves most
    of the work: a judgment changes the pool of one sentence, and every metric but
    :data:`CORPUS_WIDE` scores a sentence from its own texts alone, so only the sentences
    whose pool changed are scored again and their rows replace the previous ones (the
    figures are those of scoring afresh, to the last bit: the corpus score is a function
    of the summed rows)."""
    texts = corpus_texts(corpus)
    pools = sentence_pools(texts.refs, new_references(corpus))
    grown = [p.texts for p in pools]
    counts = ReferenceCounts(original=tuple(len(r) for r in texts.refs), pools=tuple(pools))
    stamp = corpus.texts_stamp
    if grown == texts.refs:
        return PoolPart(original, counts, rank_shifts(original, original), stamp, ())
    first_only = first_reference_metrics(preprocessor, ref_length)
    usable = (
        previous is not None
        and previous.texts_stamp == stamp
        and previous.stats.systems == tuple(texts.systems)
        and len(previous.counts.pools) == len(pools)
    )
    if previous is not None and usable:
        before = [p.texts for p in previous.counts.pools]
        if before == grown:
            return PoolPart(previous.stats, counts, previous.shifts, stamp, ())
        changed = [k for k, (old, new) in enumerate(zip(before, grown, strict=True)) if old != new]
        stats = _rescored(
            texts, grown, changed, previous.stats, original, first_only, preprocessor, ref_length
        )
        rescored: tuple[int, ...] | None = tuple(changed)
    else:
        known = AutomaticStats(
            original.systems,
            original.n_segments,
            {m: original.scores[m] for m in first_only},
            {m: original.significance[m] for m in first_only if m in original.significance},
        )
        pooled = replace(texts, refs=grown)
        stats = compute_statistics(corpus, preprocessor, ref_length, known=[known], texts=pooled)
        rescored = None
    give_back_memory()
    return PoolPart(stats, counts, rank_shifts(original, stats), stamp, rescored)


def _rescored(
    texts: CorpusTexts,
    grown: list[tuple[str, ...]],
    changed: list[int],
    previous: AutomaticStats,
    original: AutomaticStats,
    first_only: list[str],
    preprocessor: Preprocessor,
    ref_length: str,
) -> AutomaticStats:
    """:func:`pool_part`'s statistics from the previous pool's: the ``changed`` sentences
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
    again = automatic_scores(part, metrics=local, preprocessor=preprocessor, ref_length=ref_length)
    afresh = automatic_scores(
        replace(texts, refs=grown), metrics=wide, preprocessor=preprocessor, ref_length=ref_length
    )
    scores: dict[str, dict[str, Score]] = {m: original.scores[m] for m in first_only}
    for m in wide:
        scores[m] = {s: afresh[s][m] for s in systems}
    for m in local:
        metric = metrics[m]
        signature = metric.signature(grown)
        scores[m] = {}
        for s in systems:
            rows = previous.segment_stats(m, s).copy()
            rows[changed] = again[s][m].stats
            total = float(metric.score_from_stats(rows.sum(axis=0)))
            scores[m][s] = Score(metric.name, total, signature, rows)
    significance = {m: original.significance[m] for m in first_only if m in original.significance}
    n = len(grown)
    if n and systems:
        todo = (*local, *wide)
        bootstrap = Bootstrap(n, DEFAULT_SAMPLES, DEFAULT_SEED)
        significance.update(
            automatic_significance(
                {m: scores[m] for m in todo}, {m: metrics[m] for m in todo}, bootstrap
            )
        )
    return AutomaticStats(systems, n, scores, significance)
