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

from annotation.metric_set import AUTOMATIC_METRICS, app_metric
from annotation.models import Corpus
from annotation.pool_references import SentencePool, new_references, sentence_pools
from annotation.scoring import (
    AutomaticStats,
    compute_statistics,
    corpus_texts,
    give_back_memory,
)
from metrics.registry import metric_info
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
    same shape as the stored ones), the reference counts and the ranking's shifts."""

    stats: AutomaticStats
    counts: ReferenceCounts
    shifts: Shifts


def pool_part(
    corpus: Corpus, preprocessor: Preprocessor, ref_length: str, original: AutomaticStats
) -> PoolPart:
    """Score the corpus against its grown pool (four queries: the texts and the new
    references). Metrics that read only each sentence's first reference (their signature
    says ``nrefs:1`` whatever the references) are taken from ``original``, the original
    choice's stored statistics; when the pool is the corpus's references, all of them
    are."""
    texts = corpus_texts(corpus)
    pools = sentence_pools(texts.refs, new_references(corpus))
    grown = [p.texts for p in pools]
    counts = ReferenceCounts(original=tuple(len(r) for r in texts.refs), pools=tuple(pools))
    if grown == texts.refs:
        return PoolPart(original, counts, rank_shifts(original, original))
    two = [("a", "b")]
    first_only = [
        m
        for m in AUTOMATIC_METRICS
        if app_metric(m, preprocessor, ref_length).signature(two).startswith("nrefs:1|")
    ]
    known = AutomaticStats(
        original.systems,
        original.n_segments,
        {m: original.scores[m] for m in first_only},
        {m: original.significance[m] for m in first_only if m in original.significance},
    )
    stats = compute_statistics(
        corpus,
        preprocessor,
        ref_length,
        known=[known],
        texts=replace(texts, refs=grown),
    )
    give_back_memory()
    return PoolPart(stats, counts, rank_shifts(original, stats))
