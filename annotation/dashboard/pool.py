"""The dashboard's "grown pool" choice as it shows it: every automatic metric against
the corpus's references grown by the judges' accepted new references (computed, stored
and brought up to date by :mod:`annotation.statistics.pool`), how many references each
sentence then has, and how the ranking moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from annotation.models import Corpus
from annotation.statistics import (
    AUTOMATIC_METRICS,
    AutomaticStats,
    PoolInputs,
    ScoredPool,
    SentencePool,
    pool_inputs,
    scored_pool,
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
class PoolPart(ScoredPool):
    """What the pool choice shows: the automatic statistics against the grown pool (the
    same shape as the stored ones), the reference counts and the ranking's shifts; and
    the sentences scored to get them from the pool it built on (empty: none, the
    figures were taken as they were)."""

    counts: ReferenceCounts = field(kw_only=True)
    shifts: Shifts = field(kw_only=True)
    rescored: tuple[int, ...] = field(kw_only=True, default=())


def pool_part(
    corpus: Corpus,
    preprocessor: Preprocessor,
    ref_length: str,
    original: AutomaticStats,
    previous: ScoredPool | None = None,
    *,
    inputs: PoolInputs | None = None,
    base: ScoredPool | None = None,
) -> PoolPart:
    """The pool choice of the dashboard: the corpus scored against its grown pool
    (:func:`~annotation.statistics.pool.scored_pool`, which says what is scored again and
    what is stored), with each sentence's reference counts and the ranking's shifts
    against ``original``, the original choice's stored statistics."""
    inputs = inputs if inputs is not None else pool_inputs(corpus)
    scored, rescored = scored_pool(
        corpus, preprocessor, ref_length, original, previous, inputs=inputs, base=base
    )
    counts = ReferenceCounts(
        original=tuple(len(r) for r in inputs.texts.refs), pools=tuple(inputs.pools)
    )
    return PoolPart(
        scored.stats,
        scored.texts_stamp,
        scored.fingerprints,
        counts=counts,
        shifts=rank_shifts(original, scored.stats),
        rescored=rescored,
    )
