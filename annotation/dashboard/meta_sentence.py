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
hundred judgments ago), and only the points equal in candidate, x and y to today's are
taken as they were; every other one is taken out with its old values and put back with
its new. So counts kept by any state, the latest or not, bring the same counts; when more
than :data:`MOST_CHANGED` of the points (and :data:`FEW_CHANGED`) differ, counting afresh
is cheaper, and done.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from annotation.dashboard.meta_human import HumanSide
from annotation.statistics import AUTOMATIC_METRICS, AutomaticStats, ExternalFigures
from metrics.correlation import TauCounts, tau_counts_against
from metrics.stats import FloatArray, Metric
from metrics.tau_update import updated_tau_counts

IntArray = npt.NDArray[np.int64]

#: The share of a figure's points that may differ from the kept ones for the counts to
#: be brought up to date; past it they are counted afresh (a normalized SSER moves every
#: point of the judge whose judgment changed; a kept state far in the past, many).
MOST_CHANGED = 1 / 16
#: How many differing points are always brought up to date, whatever the share.
FEW_CHANGED = 16


@dataclass(frozen=True, eq=False)
class SentencePoints:
    """One human figure's sentence-level points, in the order of its judged candidates
    (:func:`~annotation.dashboard.meta_human.sentence_human`'s): each candidate's code
    (its system's index × segments + its segment), its human score, every metric's
    sentence score (metrics × points: the automatic metrics', then the imported ones'),
    and per metric the τ-b counts of the pairs (x, y).

    (``eq=False``: it holds arrays, whose ``==`` is elementwise.)"""

    codes: IntArray
    y: FloatArray
    xs: FloatArray
    counts: tuple[TauCounts, ...]
    #: How many points (old and new) the counts were brought up to date by; -1: counted
    #: afresh.
    moved: int = -1


def sentence_points(
    auto: AutomaticStats,
    metrics: Mapping[str, Metric],
    human_values: HumanSide,
    imported: ExternalFigures | None = None,
    before: Mapping[str, SentencePoints] | None = None,
) -> dict[str, SentencePoints]:
    """Per human figure its :class:`SentencePoints`, the counts brought up to date from
    ``before`` (the points of an earlier state, any: module doc) or counted afresh."""
    index = {s: i for i, s in enumerate(auto.systems)}
    every = {m: _every_sentence_score(auto, metrics[m], m) for m in AUTOMATIC_METRICS}
    out = {}
    for h in human_values.metrics:
        per_sentence = human_values.sentence[h]
        keys = list(per_sentence)
        systems = np.fromiter((index[s] for s, _ in keys), dtype=np.int64, count=len(keys))
        segments = np.fromiter((k for _, k in keys), dtype=np.int64, count=len(keys))
        rows = [every[m][systems, segments] for m in AUTOMATIC_METRICS]
        for metric in () if imported is None else imported.metrics:
            rows.append(
                np.array(
                    [
                        float(metric.scores[s][k]) if s in metric.scores else math.nan
                        for s, k in keys
                    ],
                    dtype=np.float64,
                )
            )
        xs = np.stack(rows) if rows else np.zeros((0, len(keys)))
        y = np.fromiter(per_sentence.values(), dtype=np.float64, count=len(keys))
        codes = systems * max(1, auto.n_segments) + segments
        earlier = None if before is None else before.get(h)
        out[h] = _brought_up_to_date(earlier, codes, y, xs)
    return out


def _every_sentence_score(auto: AutomaticStats, metric: Metric, name: str) -> FloatArray:
    """Every candidate's sentence score of the metric (systems × segments): its own
    statistics row scored alone (a row's score depends on that row only, so it is the
    score the judged candidates alone would get)."""
    if not auto.systems:
        return np.zeros((0, auto.n_segments))
    every = np.stack([auto.segment_stats(name, s) for s in auto.systems])
    flat = every.reshape(-1, every.shape[-1])
    scores = np.asarray(metric.sentence_score_from_stats(flat), dtype=np.float64)
    return scores.reshape(every.shape[:2])


def _brought_up_to_date(
    before: SentencePoints | None, codes: IntArray, y: FloatArray, xs: FloatArray
) -> SentencePoints:
    """The points ``codes``, ``y``, ``xs`` with their counts: from ``before``'s, changed
    by the points that differ from its (module doc), or counted afresh."""
    if before is None or before.xs.shape[0] != xs.shape[0] or not before.codes.size:
        return SentencePoints(codes, y, xs, tuple(tau_counts_against(xs, y)))
    order = np.argsort(before.codes)
    old = order[np.minimum(np.searchsorted(before.codes[order], codes), order.size - 1)]
    same = (
        (before.codes[old] == codes)
        & _equal(before.y[old], y)
        & _equal(before.xs[:, old], xs).all(axis=0)
    )
    unmoved = np.zeros(before.codes.size, dtype=np.bool_)
    unmoved[old[same]] = True
    differ = int((~same).sum() + (~unmoved).sum())
    if differ > max(FEW_CHANGED, MOST_CHANGED * max(codes.size, before.codes.size)):
        return SentencePoints(codes, y, xs, tuple(tau_counts_against(xs, y)))
    counts = updated_tau_counts(
        before.counts,
        (xs[:, same], y[same]),
        (before.xs[:, ~unmoved], before.y[~unmoved]),
        (xs[:, ~same], y[~same]),
    )
    return SentencePoints(codes, y, xs, tuple(counts), differ)


def _equal(a: FloatArray, b: FloatArray) -> npt.NDArray[np.bool_]:
    """Elementwise: the same float, NaN equal to NaN."""
    same: npt.NDArray[np.bool_] = (a == b) | (np.isnan(a) & np.isnan(b))
    return same
