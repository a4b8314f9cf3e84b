"""How systems are ranked on one metric, and the figures a paired bootstrap concludes.

Apart from the resampling itself (:mod:`metrics.significance`, which re-exports every
name here): the rank-group rule, the ten-segment rule, and the frozen results the
dashboard, the scores command and the stored statistics read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from metrics.claims import MIN_SENTENCES
from metrics.stats import FloatArray

IntArray = npt.NDArray[np.int64]

#: A difference is significant at p below this (sacreBLEU's and the seed's 0.05).
DEFAULT_ALPHA = 0.05
#: Group number of a system that has no score (nothing to rank it on).
UNRANKED = 0
#: The fewest segments two systems must have in common (human metrics: sentences both
#: have judgments for; automatic metrics: all segments) for a difference to be claimed:
#: the one rule of :mod:`metrics.claims`.
MIN_COMMON = MIN_SENTENCES


def order_systems(scores: Sequence[float], *, higher_is_better: bool) -> tuple[int, ...]:
    """Indices of ``scores`` best first; ties keep the input order, NaN scores go last."""

    def key(i: int) -> tuple[bool, float, int]:
        s = scores[i]
        if math.isnan(s):
            return (True, 0.0, i)
        return (False, -s if higher_is_better else s, i)

    return tuple(sorted(range(len(scores)), key=key))


def rank_groups(
    scores: Sequence[float],
    p_values: Sequence[Sequence[float]] | FloatArray,
    *,
    higher_is_better: bool,
    alpha: float = DEFAULT_ALPHA,
    n_common: Sequence[Sequence[int]] | IntArray | None = None,
    min_common: int = MIN_COMMON,
) -> tuple[int, ...]:
    """Group number per system (input order), 1 = best; the leader rule of the module doc.

    ``p_values[i][j]`` is the p-value of systems i and j (only pairs with the leader of
    a group are read); ``n_common[i][j]``, when given, the segments they were compared
    on: a pair with fewer than ``min_common`` is never significant. NaN scores get
    :data:`UNRANKED` (0).
    """
    _check_alpha(alpha)
    n = len(scores)
    p = np.asarray(p_values, dtype=np.float64)
    if p.shape != (n, n):
        raise ValueError(f"p_values of shape {p.shape}: expected ({n}, {n}) for {n} scores")
    if n_common is not None:
        common = np.asarray(n_common, dtype=np.int64)
        if common.shape != (n, n):
            raise ValueError(f"n_common of shape {common.shape}: expected ({n}, {n})")
        p = np.where(common >= min_common, p, np.nan)
    return leader_groups(
        scores, lambda leader, i: float(p[leader, i]) < alpha, higher_is_better=higher_is_better
    )


def leader_groups(
    scores: Sequence[float],
    differs: Callable[[int, int], bool],
    *,
    higher_is_better: bool,
) -> tuple[int, ...]:
    """Group number per system (input order), 1 = best, by the leader rule of the module
    doc, with ``differs(leader, i)`` the test of a group's leader against the next
    system: asked only for those pairs (at most one per system), so a test that costs a
    fit per pair (:mod:`annotation.dashboard.estimates`) runs n − 1 times, not n²/2.
    NaN scores get :data:`UNRANKED` (0)."""
    groups = [UNRANKED] * len(scores)
    group = 0
    leader = -1
    for i in order_systems([float(s) for s in scores], higher_is_better=higher_is_better):
        if math.isnan(scores[i]):
            continue
        if leader < 0 or differs(leader, i):
            group += 1
            leader = i
        groups[i] = group
    return tuple(groups)


def most_in_common(own: Sequence[int], n_common: Sequence[Sequence[int]]) -> int:
    """The most segments any two systems that have some (``own[i] > 0``) were compared
    on (``n_common[i][j]``); with a single such system, its own count; none: 0. Under
    :data:`MIN_COMMON`, no difference can be claimed for any pair."""
    scored = [i for i, n in enumerate(own) if n > 0]
    if len(scored) == 1:
        return int(own[scored[0]])
    return max((int(n_common[i][j]) for i in scored for j in scored if i != j), default=0)


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Interval:
    """The 95% percentile bootstrap interval ``[low, high]``, inside the metric's range
    (module doc), and the mean of the samples it comes from (sacreBLEU's μ)."""

    low: float
    high: float
    mean: float

    @property
    def half_width(self) -> float:
        """Half the interval's width: sacreBLEU's ``ci`` (unless clipped to a bound)."""
        return 0.5 * (self.high - self.low)

    @property
    def defined(self) -> bool:
        return math.isfinite(self.low) and math.isfinite(self.high)

    @property
    def spread(self) -> float:
        """``high − low`` (NaN when undefined): 0 when every resample gives one score."""
        return self.high - self.low


#: The interval of a figure that has nothing to rest on.
NO_INTERVAL = Interval(math.nan, math.nan, math.nan)


@dataclass(frozen=True)
class SystemFigure:
    """One system's figure for one metric: score, segments it rests on, interval, group."""

    system: str
    score: float
    n: int
    interval: Interval
    group: int


@dataclass(frozen=True)
class MetricSignificance:
    """Everything the paired bootstrap says about one metric over all systems.

    ``figures`` are in input order; ``p_values[i][j]`` and ``n_common[i][j]`` (segments
    the pair was compared on) follow the same order. ``signature`` records the test,
    the number of samples and the seed, sacreBLEU style.
    """

    metric: str
    higher_is_better: bool
    figures: tuple[SystemFigure, ...]
    p_values: tuple[tuple[float, ...], ...]
    n_common: tuple[tuple[int, ...], ...]
    n_samples: int
    seed: int
    alpha: float
    signature: str
    min_common: int = MIN_COMMON
    #: Each system's score on every bootstrap sample (systems × samples, input order;
    #: NaN where a sample drew none of its segments): what its interval is read from,
    #: kept so that whatever else resamples the same sentences (the meta-evaluation's
    #: system-level intervals) reads them instead of scoring every sample again. None
    #: when not kept. Left out of ``==`` (an array's ``==`` is elementwise).
    samples: FloatArray | None = field(default=None, compare=False, repr=False)

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(f.system for f in self.figures)

    @property
    def evidence(self) -> int:
        """:func:`most_in_common` of the figures: what the "too few" note reports."""
        return most_in_common([f.n for f in self.figures], self.n_common)

    @property
    def too_few(self) -> bool:
        """No pair of systems has :attr:`min_common` segments in common: no difference
        can be claimed, every scored system is in group 1 (module doc)."""
        return self.evidence < self.min_common

    def _index(self, system: str) -> int:
        try:
            return self.systems.index(system)
        except ValueError:
            raise ValueError(f"unknown system {system!r}") from None

    def figure(self, system: str) -> SystemFigure:
        return self.figures[self._index(system)]

    def p_value(self, a: str, b: str) -> float:
        return self.p_values[self._index(a)][self._index(b)]

    def common(self, a: str, b: str) -> int:
        """The segments a and b were compared on."""
        return self.n_common[self._index(a)][self._index(b)]

    def significant(self, a: str, b: str) -> bool:
        """Whether a and b differ at level ``alpha`` on at least :attr:`min_common`
        common segments (NaN p: no)."""
        return self.common(a, b) >= self.min_common and self.p_value(a, b) < self.alpha

    def verdict(self) -> Verdict:
        """What the groups let a lead say about the best system (:class:`Verdict`)."""
        ranked = [f for f in self.ranked() if f.group != UNRANKED]
        if not ranked:
            return Verdict(self.metric, None, (), None, math.nan, self.evidence, True)
        best = ranked[0]
        others = tuple(f.system for f in ranked[1:] if f.group == 1)
        nxt = next((f for f in ranked if f.group == 2), None)
        if nxt is None:
            return Verdict(
                self.metric, best.system, others, None, math.nan, self.evidence, self.too_few
            )
        return Verdict(
            self.metric,
            best.system,
            others,
            nxt.system,
            self.p_value(best.system, nxt.system),
            self.common(best.system, nxt.system),
            False,
        )

    def ranked(self) -> tuple[SystemFigure, ...]:
        """Figures best first (the order the groups were formed in)."""
        order = order_systems(
            [f.score for f in self.figures], higher_is_better=self.higher_is_better
        )
        return tuple(self.figures[i] for i in order)


@dataclass(frozen=True)
class Verdict:
    """One metric's rank groups in the words a lead needs: the ``best`` system (None:
    no figure), the ``others`` sharing group 1 with it, and ``separated``, the best
    system of group 2 — the one the best was found to differ from, at ``p`` on ``n``
    common segments. Nothing separated: ``separated`` is None and ``n`` the most
    segments any pair was compared on; ``too_few`` when that is under
    :data:`MIN_COMMON`."""

    metric: str
    best: str | None
    others: tuple[str, ...]
    separated: str | None
    p: float
    n: int
    too_few: bool


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha!r} must lie strictly between 0 and 1")
