"""The sentence-level points of the meta-evaluation (:mod:`annotation.dashboard.meta`), and
their Kendall τ-b counts brought up to date after a judgment rather than counted afresh.

At sentence level each human figure has one point per judged candidate: its human score
(y) and every metric's sentence score (x: the automatic metrics', then the imported
ones'). Counting the τ-b of each metric sorts and merges all the points (O(n log n) per
metric and figure: the largest part of the meta-evaluation after a judgment, on a
real-size campaign). A judgment moves one candidate's y (or adds or drops a point), so
the dashboard keeps each figure's points with their counts (:class:`SentencePoints`) and
the next computation finds, by comparing the points, which ones moved, came or went, and
updates the counts with their pairs alone (:func:`metrics.tau_update.updated_tau_counts`:
the counts are integers, so the τ-b is the same float as counted afresh).

Nothing is trusted that was not compared: the points kept are a value of some earlier
state of the corpus, of this process or not (an app server that last computed them a
hundred judgments ago), and only the points equal in candidate and human score to
today's, under the same metric scores (a digest of every candidate's: the points hold
no score of their own), are taken as they were; every other one is taken out with its
old values and put back with its new. So counts kept by any state, the latest or not,
bring the same counts. Counting afresh costs O(n log n) per metric, bringing up to date
O(n) per differing point, so past :func:`worth_bringing_up_to_date`'s few points (some
:data:`PER_LOG_POINTS` × log₂ n; the judgments of a crowd between two views of the lead,
a normalized SSER's judge's points) the counts are counted afresh: the same integers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from annotation.dashboard.meta_human import HumanSide
from annotation.statistics import (
    AUTOMATIC_METRICS,
    AutomaticStats,
    ExternalFigures,
    content_digest,
)
from metrics.correlation import TauCounts, tau_counts_against
from metrics.stats import FloatArray, Metric
from metrics.tau_update import updated_tau_counts

IntArray = npt.NDArray[np.int64]

#: How many differing points per log₂ of the points the counts are brought up to date
#: by, at most: each costs a comparison with every point, for each metric; counting
#: afresh sorts them. Measured at real size (18,000 points, 15 metrics): counting afresh
#: 127 ms, bringing up to date 18 ms for 2 points, 82 ms for 32 and 292 ms for 128: even
#: at 3 × log₂ n = 42 points.
PER_LOG_POINTS = 3
#: How many differing points are always brought up to date, whatever the size.
FEW_CHANGED = 16


def worth_bringing_up_to_date(differ: int, points: int) -> bool:
    """Whether ``differ`` points differing among ``points`` cost less brought up to
    date than counted afresh (:data:`PER_LOG_POINTS`)."""
    return differ <= max(FEW_CHANGED, PER_LOG_POINTS * math.log2(max(points, 2)))


@dataclass(frozen=True, eq=False)
class SentencePoints:
    """One human figure's sentence-level points as its τ-b counts were counted on: the
    digest of every candidate's metric scores (:attr:`SentenceScores.digest`), each
    judged candidate's code (its system's index × segments + its segment) and human
    score, in the order of :func:`~annotation.dashboard.meta_human.sentence_human`, and
    per metric the τ-b counts of the pairs (x, y). Its metric scores are not held: under
    the same digest, a code has the same ones.

    (``eq=False``: it holds arrays, whose ``==`` is elementwise.)"""

    scores: bytes
    codes: IntArray
    y: FloatArray
    counts: tuple[TauCounts, ...]
    #: How many points (old and new) the counts were brought up to date by; -1: counted
    #: afresh.
    moved: int = -1


@dataclass(frozen=True, eq=False)
class SentenceScores:
    """Every candidate's sentence score of every metric (metrics × systems × segments:
    the automatic metrics', then the imported ones', NaN where there is none) and a
    digest of them."""

    every: FloatArray
    digest: bytes

    def of(self, codes: IntArray) -> FloatArray:
        """The candidates' scores (metrics × candidates) by their codes, each metric's
        row contiguous (``[:, codes]`` would give them a stride of every metric: the
        row-wise work on them, 15 metrics × 16,000 points at real size, runs slower)."""
        flat: FloatArray = np.take(self.every.reshape(self.every.shape[0], -1), codes, axis=1)
        return flat


@dataclass(frozen=True, eq=False)
class SentenceLevel:
    """What the sentence-level correlations are computed from: every candidate's metric
    scores and, per human figure, its points with their counts."""

    scores: SentenceScores
    points: dict[str, SentencePoints]
    #: Per figure, its points' scores as taken already (:meth:`xs`).
    taken: dict[str, FloatArray] = field(default_factory=dict)

    def xs(self, figure: str) -> FloatArray:
        """The metrics' scores of the figure's points (metrics × points), taken once."""
        found = self.taken.get(figure)
        if found is None:
            found = self.taken[figure] = self.scores.of(self.points[figure].codes)
        return found


def sentence_level(
    auto: AutomaticStats,
    metrics: Mapping[str, Metric],
    human_values: HumanSide,
    imported: ExternalFigures | None = None,
    before: Mapping[str, SentencePoints] | None = None,
    scores: SentenceScores | None = None,
) -> SentenceLevel:
    """Every candidate's metric scores (``scores``, if kept: :func:`sentence_scores` of
    the same inputs), and per human figure its points, the counts brought up to date
    from ``before`` (the points of an earlier state, any: module doc) or counted afresh."""
    index = {s: i for i, s in enumerate(auto.systems)}
    if scores is None:
        scores = sentence_scores(auto, metrics, imported)
    out, taken = {}, {}
    for h in human_values.metrics:
        per_sentence = human_values.sentence[h]
        keys = list(per_sentence)
        systems = np.fromiter((index[s] for s, _ in keys), dtype=np.int64, count=len(keys))
        segments = np.fromiter((k for _, k in keys), dtype=np.int64, count=len(keys))
        y = np.fromiter(per_sentence.values(), dtype=np.float64, count=len(keys))
        codes = systems * auto.n_segments + segments
        taken[h] = scores.of(codes)
        earlier = None if before is None else before.get(h)
        out[h] = _brought_up_to_date(earlier, scores, codes, y, taken[h])
    return SentenceLevel(scores, out, taken)


def sentence_scores(
    auto: AutomaticStats, metrics: Mapping[str, Metric], imported: ExternalFigures | None
) -> SentenceScores:
    """:class:`SentenceScores`: each automatic metric's from each candidate's own
    statistics row scored alone (a row's score depends on that row only, so it is the
    score the judged candidates alone would get), each imported metric's segment score."""
    shape = (len(auto.systems), auto.n_segments)
    rows = []
    for m in AUTOMATIC_METRICS:
        if not auto.systems:
            rows.append(np.zeros(shape))
            continue
        stats = np.stack([auto.segment_stats(m, s) for s in auto.systems])
        scored = metrics[m].sentence_score_from_stats(stats.reshape(-1, stats.shape[-1]))
        rows.append(np.asarray(scored, dtype=np.float64).reshape(shape))
    for metric in () if imported is None else imported.metrics:
        nothing = np.full(auto.n_segments, math.nan)
        rows.append(
            np.stack([metric.scores.get(s, nothing) for s in auto.systems]).astype(np.float64)
            if auto.systems
            else np.zeros(shape)
        )
    every = np.ascontiguousarray(np.stack(rows))
    return SentenceScores(every, content_digest(every.tobytes(), repr(every.shape)))


def _brought_up_to_date(
    before: SentencePoints | None,
    scores: SentenceScores,
    codes: IntArray,
    y: FloatArray,
    xs: FloatArray | None = None,
) -> SentencePoints:
    """The points ``codes``, ``y`` with their counts: from ``before``'s, changed by the
    points that differ from its (module doc), or counted afresh. ``xs``: their metric
    scores, if taken already (``scores.of(codes)``)."""
    xs = scores.of(codes) if xs is None else xs
    if before is None or before.scores != scores.digest or not before.codes.size:
        return SentencePoints(scores.digest, codes, y, tuple(tau_counts_against(xs, y)))
    order = np.argsort(before.codes)
    old = order[np.minimum(np.searchsorted(before.codes[order], codes), order.size - 1)]
    same = (before.codes[old] == codes) & _equal(before.y[old], y)
    unmoved = np.zeros(before.codes.size, dtype=np.bool_)
    unmoved[old[same]] = True
    differ = int((~same).sum() + (~unmoved).sum())
    if not worth_bringing_up_to_date(differ, max(codes.size, before.codes.size)):
        return SentencePoints(scores.digest, codes, y, tuple(tau_counts_against(xs, y)))
    gone = before.codes[~unmoved]
    counts = updated_tau_counts(
        before.counts,
        (np.compress(same, xs, axis=1), y[same]),  # rows contiguous (:meth:`~.of`)
        (scores.of(gone), before.y[~unmoved]),
        (xs[:, ~same], y[~same]),
    )
    return SentencePoints(scores.digest, codes, y, tuple(counts), differ)


def _equal(a: FloatArray, b: FloatArray) -> npt.NDArray[np.bool_]:
    """Elementwise: the same float, NaN equal to NaN."""
    same: npt.NDArray[np.bool_] = (a == b) | (np.isnan(a) & np.isnan(b))
    return same
