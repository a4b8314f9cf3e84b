"""Wilcoxon rank-sum (Mann-Whitney U) test and WMT's clusters of systems by it.

The WMT human evaluations (Bojar et al. 2017, "Findings of the 2017 Conference on
Machine Translation", after direct assessment's pilot in the 2016 findings; Barrault et
al. 2019, "Findings of the 2019 Conference on Machine Translation (WMT19)"; Kocmi et al.
2022/2023, the WMT22 and WMT23 findings, with Appraise) rank systems by the mean of each
annotator's *z-scores* (Graham et al. 2013, 2017) — every score standardised by that
annotator's own mean and standard deviation, so a strict and a lenient judge count
alike — and cluster them with a one-sided Wilcoxon rank-sum test at p < 0.05: systems
in a cluster are tied, and every system of a cluster significantly outperforms every
system of every lower cluster. Appraise's ``ComputeWMT21Results``
command runs exactly that, ``scipy.stats.mannwhitneyu(a, b, alternative="greater")`` on
the two systems' z-scores averaged per segment over the segments both have scores for.

:func:`mann_whitney_u` is scipy's ``mannwhitneyu`` in numpy only (scipy is no runtime
dependency of this project): the same statistic ``U1`` of the first sample, the same
choice of method (``auto``: the exact null distribution when a sample has at most 8
values and nothing is tied, else the normal approximation), the tie-corrected variance
``n1·n2/12 · ((n + 1) − Σ(t³ − t)/(n(n − 1)))`` with the continuity correction of ½
toward the mean, and the same p-value for each ``alternative``, clipped to 1. The
normal tail is ``½·erfc(z/√2)``; the exact distribution is the coefficients of the
Gaussian binomial (Mann & Whitney 1947), counted in Python integers, so it is exact.

:func:`wmt_clusters` applies the WMT rule to per-segment values of each system, with the
same guard as :mod:`metrics.significance`: a pair with fewer than
:data:`~metrics.significance.MIN_COMMON` common segments is never significant.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, cast

import numpy as np
import numpy.typing as npt

from metrics.reuse import PairMemo, content_digest
from metrics.significance import DEFAULT_ALPHA, MIN_COMMON, UNRANKED, most_in_common
from metrics.stats import FloatArray

Alternative = Literal["two-sided", "less", "greater"]
Method = Literal["auto", "exact", "asymptotic"]
ALTERNATIVES: tuple[str, ...] = ("two-sided", "less", "greater")
METHODS: tuple[str, ...] = ("auto", "exact", "asymptotic")
#: scipy's bound for ``method="auto"``: exact only if a sample has at most this many.
EXACT_UP_TO = 8


@dataclass(frozen=True)
class RankSum:
    """``U1`` (the first sample's statistic, as scipy reports it), the p-value of the
    chosen alternative, and the method that computed it."""

    statistic: float
    pvalue: float
    method: str


def average_ranks(values: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(1-based ranks with ties averaged, size of each group of tied values), as scipy's
    ``rankdata(..., "average")`` with its tie counts."""
    x = np.asarray(values, dtype=np.float64)
    order = np.argsort(x, kind="mergesort")
    ordered = x[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    sizes = np.diff(np.r_[starts, len(x)])
    # tied values share the mean of the positions they occupy: first + (size + 1) / 2
    group_rank = starts + (sizes + 1) / 2.0
    ranks = np.empty(len(x), dtype=np.float64)
    ranks[order] = np.repeat(group_rank, sizes)
    return ranks, sizes.astype(np.float64)


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


@cache
def u_frequencies(m: int, n: int) -> tuple[int, ...]:
    """How many of the C(m + n, m) orderings of two samples give U = 0, 1, …, m·n: the
    coefficients of the Gaussian binomial ``∏_{i=1..m} (1 − q^{n+i}) / (1 − q^i)``."""
    m, n = min(m, n), max(m, n)
    size = m * n + 1
    poly = [1] + [0] * (size - 1)
    for i in range(1, m + 1):
        for k in range(size - 1, n + i - 1, -1):  # × (1 − q^{n+i})
            poly[k] -= poly[k - n - i]
        for k in range(i, size):  # ÷ (1 − q^i): a running sum with stride i
            poly[k] += poly[k - i]
    return tuple(poly)


def exact_sf(u: int, m: int, n: int) -> float:
    """P(U ≥ u) under the null hypothesis, exactly (scipy's ``_MWU.sf``)."""
    freqs = u_frequencies(m, n)
    if u <= 0:
        return 1.0
    if u > m * n:
        return 0.0
    return sum(freqs[u:]) / math.comb(m + n, m)


def mann_whitney_u(
    x: Sequence[float] | FloatArray,
    y: Sequence[float] | FloatArray,
    *,
    alternative: Alternative = "two-sided",
    use_continuity: bool = True,
    method: Method = "auto",
) -> RankSum:
    """scipy's ``mannwhitneyu(x, y, use_continuity, alternative, method=…)`` (module doc).

    ``alternative="greater"``: x is stochastically greater than y.
    """
    a = np.asarray(x, dtype=np.float64).ravel()
    b = np.asarray(y, dtype=np.float64).ravel()
    if a.size == 0 or b.size == 0:
        raise ValueError(f"samples of sizes {a.size} and {b.size}: both must be non-empty")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("samples must not contain NaN")
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative={alternative!r}: choose one of {', '.join(ALTERNATIVES)}")
    if method not in METHODS:
        raise ValueError(f"method={method!r}: choose one of {', '.join(METHODS)}")
    n1, n2 = a.size, b.size
    ranks, ties = average_ranks(np.concatenate([a, b]))
    u1 = float((ranks[:n1] - (n1 + 1) / 2.0).sum())
    p, chosen = _p_value(u1, n1, n2, ties, alternative, use_continuity, method)
    return RankSum(u1, p, chosen)


def _p_value(
    u1: float,
    n1: int,
    n2: int,
    ties: FloatArray,
    alternative: str,
    use_continuity: bool = True,
    method: str = "auto",
) -> tuple[float, str]:
    """The p-value of ``U1`` for ``alternative`` and the method used (scipy's choice)."""
    if method == "auto":
        tied = bool((ties > 1).any())
        small = n1 <= EXACT_UP_TO or n2 <= EXACT_UP_TO
        method = "exact" if small and not tied else "asymptotic"
    if method == "exact":
        u2 = n1 * n2 - u1
        u, factor = {"greater": (u1, 1), "less": (u2, 1)}.get(alternative, (max(u1, u2), 2))
        p = factor * exact_sf(int(u), n1, n2)
    else:
        p = _asymptotic_p(u1, n1, n2, ties, alternative, use_continuity)
    return (p if math.isnan(p) else min(max(p, 0.0), 1.0)), method


def _asymptotic_p(
    u1: float, n1: int, n2: int, ties: FloatArray, alternative: str, use_continuity: bool
) -> float:
    """The normal approximation with scipy's tie correction and continuity correction."""
    n = n1 + n2
    tie_term = float((ties**3 - ties).sum())
    variance = n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1)))
    numerator = u1 - n1 * n2 / 2.0
    if use_continuity:
        sign = {"greater": 1.0, "less": -1.0}.get(alternative, float(np.sign(numerator)))
        numerator -= 0.5 * sign
    if variance <= 0:
        # every value tied (so U1 is its mean): no evidence either way. scipy's ½/0
        # gives 1 with the continuity correction (some versions NaN), 0/0 without.
        return 1.0 if use_continuity else math.nan
    z = numerator / math.sqrt(variance)
    if alternative == "greater":
        return normal_sf(z)
    if alternative == "less":
        return normal_sf(-z)
    return 2.0 * min(normal_sf(z), normal_sf(-z))


# ------------------------------------------------------------------ WMT's clusters


@dataclass(frozen=True)
class ClusterFigure:
    """One system in the clusters: its mean value (the mean over its segments of the
    segment's mean), the segments it rests on and its cluster (0: no value)."""

    system: str
    mean: float
    n: int
    cluster: int


@dataclass(frozen=True)
class Clusters:
    """WMT's clusters of one metric: figures in input order; ``wins[i][j]`` whether
    system i significantly outperforms j (one-sided rank-sum, ``p < alpha`` on at
    least ``min_common`` common segments), with its ``p_values`` and ``n_common``."""

    figures: tuple[ClusterFigure, ...]
    p_values: tuple[tuple[float, ...], ...]
    n_common: tuple[tuple[int, ...], ...]
    wins: tuple[tuple[bool, ...], ...]
    higher_is_better: bool
    alpha: float
    min_common: int
    test: str = "Wilcoxon rank-sum (Mann-Whitney U) test, one-sided,"

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(f.system for f in self.figures)

    @property
    def evidence(self) -> int:
        """The most segments any two systems were compared on
        (:func:`~metrics.significance.most_in_common`)."""
        return most_in_common([f.n for f in self.figures], self.n_common)

    @property
    def too_few(self) -> bool:
        """No pair can be separated: every system with a value is in cluster 1."""
        return self.evidence < self.min_common

    def figure(self, system: str) -> ClusterFigure:
        for f in self.figures:
            if f.system == system:
                return f
        raise ValueError(f"unknown system {system!r}")

    def ranked(self) -> tuple[ClusterFigure, ...]:
        """Best first (clustered systems by mean, then those without a value)."""
        sign = -1.0 if self.higher_is_better else 1.0
        return tuple(
            sorted(
                self.figures,
                key=lambda f: (f.cluster == UNRANKED, 0.0 if math.isnan(f.mean) else sign * f.mean),
            )
        )


def segment_means(
    segments: Sequence[int], values: Sequence[float] | FloatArray, n_segments: int
) -> FloatArray:
    """Each segment's mean of ``values`` (NaN where a segment has none): several judges'
    z-scores of one candidate become one value, as Appraise averages them."""
    ids = np.asarray(segments, dtype=np.int64)
    vals = np.asarray(values, dtype=np.float64)
    if ids.shape != vals.shape:
        raise ValueError(f"{ids.size} segments for {vals.size} values: one segment a value")
    if ids.size and (ids.min() < 0 or ids.max() >= n_segments):
        raise ValueError(f"a segment id is outside 0…{n_segments - 1}")
    total = np.bincount(ids, weights=vals, minlength=n_segments)
    count = np.bincount(ids, minlength=n_segments)
    with np.errstate(invalid="ignore", divide="ignore"):
        return cast(FloatArray, np.where(count > 0, total / np.maximum(count, 1), np.nan))


def _both_ways(x: FloatArray, y: FloatArray, better: str) -> tuple[float, float]:
    """p-values of "x is better than y" and "y is better than x" from one ranking
    (``U1`` of y is ``n1·n2 − U1`` of x; the ties are the same)."""
    n1, n2 = x.size, y.size
    ranks, ties = average_ranks(np.concatenate([x, y]))
    u1 = float((ranks[:n1] - (n1 + 1) / 2.0).sum())
    forward, _ = _p_value(u1, n1, n2, ties, better)
    backward, _ = _p_value(n1 * n2 - u1, n2, n1, ties, better)
    return forward, backward


def wmt_clusters(
    per_segment: Mapping[str, FloatArray],
    *,
    higher_is_better: bool,
    alpha: float = DEFAULT_ALPHA,
    min_common: int = MIN_COMMON,
    memo: PairMemo | None = None,
) -> Clusters:
    """WMT's clusters of the systems whose per-segment values (NaN: no value, see
    :func:`segment_means`) are ``per_segment``.

    Systems are ordered by their mean, best first. Every ordered pair is tested one-sided
    on the segments both have values for (is a better than b?). A cluster boundary falls
    after position k when every system above it significantly outperforms every system
    below it; cutting at every such boundary gives the clusters (so every system of a
    cluster outperforms every system of every lower cluster, the WMT findings' rule).
    Systems without a value get cluster 0. ``memo``: each pair's test kept by the two
    systems' values (:mod:`metrics.reuse`), computed only where they changed.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha!r} must lie strictly between 0 and 1")
    names = list(per_segment)
    matrix = np.array([np.asarray(per_segment[s], dtype=np.float64) for s in names])
    has = ~np.isnan(matrix) if matrix.size else np.zeros((len(names), 0), dtype=bool)
    counts = has.sum(axis=1) if len(names) else np.zeros(0, dtype=np.int64)
    means = [
        float(np.nanmean(row)) if c else math.nan for row, c in zip(matrix, counts, strict=True)
    ]
    better: Alternative = "greater" if higher_is_better else "less"
    size = len(names)
    p = np.ones((size, size))
    rows = [content_digest(row.tobytes()) for row in matrix] if memo is not None else []
    side = better.encode()

    def tested(i: int, j: int, both: npt.NDArray[np.bool_]) -> tuple[float, float]:
        def test() -> tuple[float, float]:
            return _both_ways(matrix[i, both], matrix[j, both], better)

        if memo is None:
            return test()
        # the two rows' digests of 20 bytes each, after the test's direction
        found: tuple[float, float] = memo.get(b"rank-sum " + side + rows[i] + rows[j], test)
        return found

    common = np.zeros((size, size), dtype=np.int64)
    for i in range(size):
        for j in range(i + 1, size):
            both = has[i] & has[j]
            common[i, j] = common[j, i] = int(both.sum())
            if not both.any():
                p[i, j] = p[j, i] = math.nan
                continue
            p[i, j], p[j, i] = tested(i, j, both)
        common[i, i] = int(counts[i])
    wins = (common >= min_common) & (p < alpha)
    np.fill_diagonal(wins, False)
    sign = -1.0 if higher_is_better else 1.0
    order = sorted((i for i in range(size) if counts[i]), key=lambda i: (sign * means[i], i))
    clusters = [UNRANKED] * size
    cluster = 1
    for k, i in enumerate(order):
        clusters[i] = cluster
        above, below = order[: k + 1], order[k + 1 :]
        if below and all(wins[a, b] for a in above for b in below):
            cluster += 1
    return Clusters(
        figures=tuple(
            ClusterFigure(names[i], means[i], int(counts[i]), clusters[i]) for i in range(size)
        ),
        p_values=tuple(tuple(float(v) for v in row) for row in p),
        n_common=tuple(tuple(int(v) for v in row) for row in common),
        wins=tuple(tuple(bool(v) for v in row) for row in wins),
        higher_is_better=higher_is_better,
        alpha=alpha,
        min_common=min_common,
    )
