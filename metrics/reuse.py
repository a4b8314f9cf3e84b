"""Pairwise tests kept by what they are computed from, so that a figure brought up to
date after one more judgment computes again only what that judgment changed.

A judgment changes one system's statistics on one sentence. The human metrics' paired
bootstrap (:meth:`metrics.significance.Bootstrap.compare` on common segments) and WMT's
clusters (:func:`metrics.ranksum.wmt_clusters`) compare every pair of systems, each
pair from the two systems' own inputs alone: of 190 pairs of 20 systems, 19 involve
the system judged. :class:`PairMemo` keeps each system's and each pair's result under
a digest of its inputs (:func:`content_digest`), so a result found is never stale, and
:func:`compare_reusing` computes what it does not find.

**The same figures as a full computation, to the bit.** A kept result is the one the
same inputs gave before. What is computed anew is computed pair by pair from the two
systems' statistics alone, which gives what the all-pairs computation gives only where
every sum is exact in any order: whole numbers, as :meth:`~metrics.significance.
Bootstrap.compare` itself relies on when it leaves out the segments nobody judged. So
the statistics are summed as whole numbers of their unit (:func:`_decimal_scale`):
counts as they are, SSER's tenths as tenths, each sum then divided by its scale (exact
sums of tenths, where ``compare``'s float sums of them may differ in the last bit).
Other fractions (a span protocol's candidate means) are left to ``compare`` in full.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from metrics.claims import UNBOUNDED
from metrics.ranking import DEFAULT_ALPHA, MIN_COMMON, MetricSignificance
from metrics.significance import (
    Bootstrap,
    ScoreFn,
    metric_significance,
    p_values_from_samples,
)
from metrics.stats import FloatArray

#: What :meth:`PairMemo.found` answers for a result it does not keep.
MISSING: Any = object()


def content_digest(*parts: bytes | str | int | float) -> bytes:
    """A digest of ``parts`` (arrays as their ``tobytes()``), each part's length and
    kind kept apart so that no two different sequences of parts share one."""
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        raw = part if isinstance(part, bytes) else repr(part).encode()
        digest.update(b"b" if isinstance(part, bytes) else b"r")
        digest.update(len(raw).to_bytes(8, "little"))
        digest.update(raw)
    return digest.digest()


class PairMemo:
    """Results kept by the digest of their inputs (``kept``: what an earlier computation
    used), and what this one used (:attr:`used`: the results to keep for the next one;
    those of inputs no longer present are dropped with them). :attr:`computed` counts
    the results computed here."""

    def __init__(self, kept: Mapping[bytes, Any] | None = None) -> None:
        self._kept: dict[bytes, Any] = dict(kept or {})
        self.used: dict[bytes, Any] = {}
        self.computed = 0

    def found(self, key: bytes) -> Any:
        """The result kept under ``key`` (now used), else :data:`MISSING`."""
        value = self.used.get(key, MISSING)
        if value is MISSING:
            value = self._kept.get(key, MISSING)
            if value is not MISSING:
                self.used[key] = value
        return value

    def keep(self, key: bytes, value: Any) -> None:
        """Keep ``value``, computed here, under ``key``."""
        self.used[key] = value
        self.computed += 1

    def get(self, key: bytes, compute: Callable[[], Any]) -> Any:
        """The result kept under ``key``, else ``compute()``'s, kept from now on."""
        value = self.found(key)
        if value is MISSING:
            value = compute()
            self.keep(key, value)
        return value


def compare_reusing(
    bootstrap: Bootstrap,
    stats: Mapping[str, FloatArray],
    score_from_stats: ScoreFn,
    *,
    higher_is_better: bool,
    masks: Mapping[str, Any],
    metric: str,
    memo: PairMemo,
    alpha: float = DEFAULT_ALPHA,
    bounds: tuple[float, float] = UNBOUNDED,
    min_common: int = MIN_COMMON,
) -> MetricSignificance | None:
    """:meth:`~metrics.significance.Bootstrap.compare` of a human metric (pairs on their
    common segments), with each system's own figure and each pair's p-value taken from
    ``memo`` where its inputs are unchanged and computed (and kept there) where not: the
    same result as with a memo of nothing, to the bit. ``metric`` names the statistics'
    scoring (part of every key). None where the statistics are no whole numbers of
    tenths, hundredths or thousandths (module doc): the caller compares them in full."""
    names, x = bootstrap._stack(stats)
    mask = bootstrap._masks(names, masks)
    scale = _decimal_scale(np.where(mask[:, :, None], x, 0.0))
    if not metric or scale is None:
        return None
    x = np.round(np.where(mask[:, :, None], x, 0.0) * scale)

    def scored(sums: FloatArray) -> Any:
        return score_from_stats(sums / scale)

    setting = (metric, scale, bootstrap.n_segments, bootstrap.n_samples, bootstrap.seed)
    own = [
        content_digest("own", *setting, x[i].tobytes(), mask[i].tobytes()) for i in range(len(x))
    ]
    own_sums = _own_sums(bootstrap, x, range(len(x)), own, memo)  # sample, system, k
    scores, own_n, own_samples = _own_figures(bootstrap, x, mask, scored, own, memo, own_sums)
    p, common = _pair_tests(bootstrap, x, mask, scored, own_sums, own, memo)
    return metric_significance(
        names,
        np.where(own_n > 0, scores, np.nan),
        own_n,
        own_samples,
        p,
        common,
        bootstrap,
        metric=metric,
        higher_is_better=higher_is_better,
        bounds=bounds,
        alpha=alpha,
        min_common=min_common,
        signature=bootstrap.signature(alpha=alpha, common=True, min_common=min_common),
    )


#: The scales tried, smallest first: the statistics times one of them are whole numbers.
SCALES = (1.0, 10.0, 100.0, 1000.0)
#: How far from a whole number a scaled statistic may be, relative (float sums' rounding).
ROUNDING = 1e-9


def _decimal_scale(x: FloatArray) -> float | None:
    """The smallest of :data:`SCALES` by which every statistic is a whole number, to
    rounding (a segment's SSER rows of two judgments summed in floats: 0.1 + 0.2 is
    three tenths and a little more), every sum of them exact (below 2⁵²); None if
    there is none."""
    for scale in SCALES:
        scaled = x * scale
        whole = np.round(scaled)
        close = bool(np.all(np.abs(scaled - whole) <= ROUNDING * np.maximum(1.0, whole)))
        if close and float(np.abs(whole).sum()) < 2.0**52:
            return scale
    return None


def _own_figures(
    bootstrap: Bootstrap,
    x: FloatArray,
    mask: Any,
    score_from_stats: ScoreFn,
    keys: Sequence[bytes],
    memo: PairMemo,
    own_sums: FloatArray,
) -> tuple[FloatArray, Any, FloatArray]:
    """Each system's score, judged-segment count and score on every sample (from its
    sums ``own_sums``; NaN where the sample drew none of its segments): the score, count
    and undrawn samples kept, or computed for the systems not kept."""
    found = [memo.found(k) for k in keys]
    missing = [i for i, f in enumerate(found) if f is MISSING]
    if missing:
        scores = np.asarray(score_from_stats(x[missing].sum(axis=1)), dtype=np.float64)
        drawn = _whole_product(bootstrap, mask[missing].T.astype(np.float64))  # sample, system
        counts = mask[missing].sum(axis=1)
        for j, i in enumerate(missing):
            found[i] = (float(scores[j]), int(counts[j]), np.flatnonzero(drawn[:, j] == 0))
            memo.keep(keys[i], found[i])
    samples = np.array(np.asarray(score_from_stats(own_sums), dtype=np.float64).T)
    for i, (_, _, undrawn) in enumerate(found):
        samples[i, undrawn] = np.nan
    return (
        np.array([f[0] for f in found], dtype=np.float64),
        np.array([f[1] for f in found], dtype=np.int64),
        samples,
    )


#: The largest whole number below which every float32 sum is exact: 2²⁴.
FLOAT32_WHOLE = 2.0**24

#: Each resampling's counts in float32 with their largest, by the counts array (held):
#: a few resamplings per process (:func:`_whole_product`).
_COUNTS32: dict[int, tuple[FloatArray, Any, float]] = {}
_COUNTS32_KEPT = 4
_COUNTS32_LOCK = threading.Lock()


def _whole_product(bootstrap: Bootstrap, right: FloatArray) -> FloatArray:
    """``bootstrap.counts @ right`` for whole numbers ``right`` (statistics in their unit,
    a mask's ones). Where every sum of products is a whole number below
    :data:`FLOAT32_WHOLE` (each column's absolute sum times the largest count bounds
    them), in float32, where each is exact in any order: the same numbers as float64's,
    from half the memory (the counts of 1,000 samples of 1,000 sentences: 8 MB)."""
    counts = bootstrap.counts
    with _COUNTS32_LOCK:
        kept = _COUNTS32.get(id(counts))
    if kept is None or kept[0] is not counts:
        kept = (counts, counts.astype(np.float32), float(counts.max(initial=0.0)))
        with _COUNTS32_LOCK:
            while len(_COUNTS32) >= _COUNTS32_KEPT:
                del _COUNTS32[next(iter(_COUNTS32))]
            _COUNTS32[id(counts)] = kept
    bound = float(np.abs(right).sum(axis=0).max(initial=0.0)) * kept[2]
    if bound >= FLOAT32_WHOLE:
        return counts @ right
    product: FloatArray = (kept[1] @ right.astype(np.float32)).astype(np.float64)
    return product


def _own_sums(
    bootstrap: Bootstrap,
    x: FloatArray,
    systems: Iterable[int],
    own: Sequence[bytes],
    memo: PairMemo,
) -> FloatArray:
    """The sums of ``systems``' rows on every sample (samples × systems × k), each kept
    by its system's inputs (in float32 where that holds them exactly: whole numbers),
    those not kept in one product."""
    systems = list(systems)
    keys = [b"sums" + own[i] for i in systems]
    found = [memo.found(key) for key in keys]
    missing = [r for r, f in enumerate(found) if f is MISSING]
    if missing:
        chosen = x[[systems[r] for r in missing]]
        n, k = chosen.shape[1], chosen.shape[2]
        flat = chosen.transpose(1, 0, 2).reshape(n, -1)
        computed = _whole_product(bootstrap, flat).reshape(bootstrap.n_samples, len(missing), k)
        for c, r in enumerate(missing):
            sums = np.ascontiguousarray(computed[:, c])
            small = sums.astype(np.float32)
            found[r] = small if np.array_equal(small, sums) else sums
            memo.keep(keys[r], found[r])
    return np.stack([np.asarray(f, dtype=np.float64) for f in found], axis=1)


def _pair_tests(
    bootstrap: Bootstrap,
    x: FloatArray,
    mask: Any,
    score_from_stats: ScoreFn,
    own_sums: FloatArray,
    own: Sequence[bytes],
    memo: PairMemo,
) -> tuple[FloatArray, Any]:
    """The p-value of every pair (1 on the diagonal) and their common segment counts
    (each system's own on the diagonal), the pairs not kept computed together."""
    n_sys = len(x)
    judged = mask.astype(np.float64)  # a product of floats: BLAS's, exact counts
    common = (judged @ judged.T).astype(np.int64)
    p = np.ones((n_sys, n_sys))
    pairs = [(i, j) for i in range(n_sys) for j in range(i + 1, n_sys)]
    keys = {(i, j): b"pair" + own[i] + own[j] for i, j in pairs}  # digests of 20 bytes
    missing = []
    for i, j in pairs:
        value = memo.found(keys[i, j])
        if value is MISSING:
            missing.append((i, j))
        else:
            p[i, j] = p[j, i] = value
    if missing:
        found = _pairs_p(bootstrap, x, mask, score_from_stats, missing, common, own_sums)
        for (i, j), value in zip(missing, found.tolist(), strict=True):
            p[i, j] = p[j, i] = value
            memo.keep(keys[i, j], value)
    return p, common


def _pairs_p(
    bootstrap: Bootstrap,
    x: FloatArray,
    mask: Any,
    score_from_stats: ScoreFn,
    pairs: Sequence[tuple[int, int]],
    common: Any,
    own_sums: FloatArray,
) -> FloatArray:
    """The paired bootstrap's p-value of each of ``pairs`` on its common segments, as
    ``compare`` computes it. Each side of a pair is one system's rows on the other's
    segments: on every sample, its own sums (``own_sums``: sample × system × k) less
    those of its segments the other has not (after one judgment, one segment or none),
    in one product for all sides; whole numbers, so every sum is exact in any order."""
    mine = np.array([a for i, j in pairs for a in (i, j)])
    theirs = np.array([b for i, j in pairs for b in (j, i)])
    n_samples, k = bootstrap.n_samples, x.shape[2]
    own_scores = np.asarray(score_from_stats(own_sums), dtype=np.float64)  # sample, system
    samples = own_scores[:, mine]  # sample, side: each side's own, to begin with
    totals = x.sum(axis=1)[mine]  # side, k
    outside = mask[mine] & ~mask[theirs]  # side, segment: its segments the other has not
    cut = np.flatnonzero(outside.any(axis=1))
    if cut.size:
        union = np.flatnonzero(outside[cut].any(axis=0))
        part = x[mine[cut]][:, union] * outside[cut][:, union][:, :, None]  # side, seg, k
        rows = part.transpose(1, 0, 2).reshape(len(union), -1)
        less = (bootstrap.counts[:, union] @ rows).reshape(n_samples, len(cut), k)
        sums = own_sums[:, mine[cut]] - less
        samples[:, cut] = np.asarray(score_from_stats(sums), dtype=np.float64)
        totals[cut] -= part.sum(axis=1)
    paired = samples.T.reshape(len(pairs), 2, n_samples)
    diffs = np.abs(paired[:, 0] - paired[:, 1])
    scores = np.asarray(score_from_stats(totals), dtype=np.float64).reshape(len(pairs), 2)
    real = np.abs(scores[:, 0] - scores[:, 1])
    first = [i for i, _ in pairs]
    second = [j for _, j in pairs]
    real = np.where(common[first, second] > 0, real, np.nan)
    return p_values_from_samples(np.ascontiguousarray(diffs), real)
