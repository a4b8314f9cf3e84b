"""Judgments as the annotator statistics read them (:class:`Ratings`), and the
per-annotator z-scores and items' and systems' means computed from them, as WMT computes
them (:mod:`metrics.annotators` says why and what the figures claim).

Its own module because every annotator statistic reads :class:`Ratings`
(:mod:`metrics.judge_aware`, :mod:`metrics.annotator_effects`, :mod:`metrics.protocols`),
and these are the figures without resampling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from metrics.correlation import z_normalize
from metrics.stats import FloatArray

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class Ratings:
    """Judgments as the annotator statistics read them, one entry per judgment: the
    system, the sentence (``segment``, 0 … ``n_segments`` − 1, the resampling unit) and
    the annotator (indices into ``systems`` and ``annotators``), and the ``value``.
    (``eq=False``: it holds arrays.)"""

    systems: tuple[str, ...]
    annotators: tuple[str, ...]
    n_segments: int
    system: IntArray
    segment: IntArray
    annotator: IntArray
    value: FloatArray

    def __len__(self) -> int:
        return len(self.value)

    @property
    def items(self) -> IntArray:
        """Each judgment's item (candidate): ``system · n_segments + segment``."""
        return self.system * self.n_segments + self.segment

    def judged(self) -> BoolArray:
        """Which (system, sentence) items have a judgment: systems × sentences."""
        out = np.zeros(len(self.systems) * self.n_segments, dtype=np.bool_)
        out[self.items] = True
        return out.reshape(len(self.systems), self.n_segments)


def ratings(
    systems: Sequence[str],
    segments: Sequence[int],
    annotators: Sequence[str],
    values: Sequence[float] | FloatArray,
    n_segments: int,
    *,
    order: Sequence[str] = (),
) -> Ratings:
    """:class:`Ratings` of parallel lists, one entry per judgment; a NaN value (no score)
    is left out. Systems in ``order`` first (the corpus's), then any other in order of
    first appearance; annotators by name."""
    v = np.asarray(values, dtype=np.float64)
    if not len(systems) == len(segments) == len(annotators) == v.size:
        raise ValueError(
            f"{len(systems)} systems, {len(segments)} segments, {len(annotators)} "
            f"annotators and {v.size} values: one of each per judgment"
        )
    seg = np.asarray(segments, dtype=np.int64).reshape(-1)
    if seg.size and (seg.min() < 0 or seg.max() >= n_segments):
        bad = seg[(seg < 0) | (seg >= n_segments)][0]
        raise ValueError(f"segment {bad} is outside 0…{n_segments - 1}")
    keep = ~np.isnan(v)
    names = list(dict.fromkeys([*order, *systems]))
    judges = sorted(set(annotators))
    where_s = {name: k for k, name in enumerate(names)}
    where_a = {name: k for k, name in enumerate(judges)}
    return Ratings(
        tuple(names),
        tuple(judges),
        n_segments,
        np.fromiter(map(where_s.__getitem__, systems), np.int64, len(systems))[keep],
        seg[keep],
        np.fromiter(map(where_a.__getitem__, annotators), np.int64, len(annotators))[keep],
        v[keep],
    )


def z_scores(r: Ratings) -> FloatArray:
    """Each judgment's z-score within its annotator's judgments (:mod:`metrics.annotators`)."""
    return z_normalize(r.value, r.annotator.tolist()).values


def item_means(r: Ratings, values: FloatArray | None = None) -> FloatArray:
    """Each item's mean of ``values`` (default: the ratings' own), systems × sentences;
    NaN where an item has no judgment."""
    v = r.value if values is None else np.asarray(values, dtype=np.float64)
    size = len(r.systems) * r.n_segments
    total = np.bincount(r.items, weights=v, minlength=size)
    count = np.bincount(r.items, minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return out.reshape(len(r.systems), r.n_segments)


def system_means(r: Ratings, values: FloatArray | None = None) -> tuple[FloatArray, IntArray]:
    """Each system's mean over its items of the item's mean (:func:`item_means`), and its
    number of items; NaN for a system without any."""
    per_item = item_means(r, values)
    n = (~np.isnan(per_item)).sum(axis=1).astype(np.int64)
    with np.errstate(invalid="ignore"):
        means = np.where(n > 0, np.nansum(per_item, axis=1) / np.maximum(n, 1), np.nan)
    return means, n
