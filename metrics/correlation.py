"""Meta-evaluation and agreement: Pearson's r, Kendall's tau-b, Krippendorff's alpha
(interval), and (0, 1) evaluator normalization.

* Seed 000 §4 correlates automatic with human scores by **Pearson's r**, at sentence
  level (one point per judged candidate) and at system level (one point per system).
* Seed 002 ("Evaluation Methodology") adds **Kendall's τ** for rankings. We compute
  τ-b, which corrects for ties (``(C − D) / √((n₀ − n₁)(n₀ − n₂))``), since sentence
  scores tie often (two candidates with WER 0, SSER 10).
* Agreement of judges on the candidates judged by two or more of them is
  **Krippendorff's alpha** for interval data (Krippendorff 2011, "Computing
  Krippendorff's Alpha-Reliability"), which allows any number of coders and missing
  values.
* Seed 000 §3.5: **(0, 1) evaluator normalization** — "for each human evaluator the
  average sentence score … and its variance are calculated. These assignments are then
  normalized to (0, 1) expectation and standard deviation", ``z = (x − mean) / std``.

NaN-safe definitions, common to all: a NaN value means "missing" and is left out (for
r and τ the whole pair is dropped); ``n`` is the number of points the value rests on
after that. With fewer than 2 points, or when a statistic is undefined because a side
has no variation (zero variance for r, all pairs tied for τ-b, no disagreement
possible for α), the value is NaN: an honest "cannot tell", never a made-up 0 or 1.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import astuple, dataclass, field
from typing import cast

import numpy as np
import numpy.typing as npt

from metrics.stats import FloatArray

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Values = Sequence[float] | FloatArray


@dataclass(frozen=True)
class Coefficient:
    """A correlation or agreement coefficient and the number of points it rests on.

    ``n`` is the number of complete (x, y) pairs for r and τ, and Krippendorff's ``n``
    (pairable values: values in units coded by at least two coders) for α.
    """

    name: str
    value: float
    n: int

    def __str__(self) -> str:
        return f"{self.name} = {self.value:.3f} (n = {self.n})"


def _pairs(x: Values, y: Values) -> tuple[FloatArray, FloatArray]:
    """The two vectors as float arrays, pairs with a NaN on either side dropped."""
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"x and y must be vectors, got shapes {a.shape} and {b.shape}")
    if a.shape != b.shape:
        raise ValueError(f"x has {a.size} values but y has {b.size}: they must be paired")
    keep = ~(np.isnan(a) | np.isnan(b))
    return a[keep], b[keep]


def pearson(x: Values, y: Values) -> Coefficient:
    """Pearson's r (seed 000 §4): ``Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²)``.

    Unweighted, as seed 000 computes its sentence-level correlation ("we did not do any
    weighting"). NaN when n < 2 or either side is constant. The result is clipped to
    [−1, 1] against rounding.
    """
    a, b = _pairs(x, y)
    n = int(a.size)
    if n < 2:
        return Coefficient("pearson", math.nan, n)
    if np.ptp(a) == 0.0 or np.ptp(b) == 0.0:  # constant (tested exactly, not via a sum)
        return Coefficient("pearson", math.nan, n)
    da = a - a.mean()
    db = b - b.mean()
    sxx = float(da @ da)
    syy = float(db @ db)
    r = float(da @ db) / math.sqrt(sxx * syy)
    return Coefficient("pearson", max(-1.0, min(1.0, r)), n)


def _pairs_in_runs(same_as_previous: npt.NDArray[np.bool_]) -> int:
    """Σ t(t−1)/2 over the runs of equal neighbours of a sorted vector, given for each
    element after the first whether it equals the one before."""
    starts = np.flatnonzero(np.concatenate(([True], ~same_as_previous, [True])))
    runs = np.diff(starts).astype(np.int64)
    return int((runs * (runs - 1) // 2).sum())


#: Runs that :func:`count_inversions` sorts and counts by brute force before merging.
_FIRST_RUN = 32


#: Up to this many distinct values (a figure of a 0–10 score: SSER's y ranks),
#: :func:`count_inversions` counts value by value, O(n) each, rather than merging: the
#: same integer, a fraction of the time (18,000 values of 11 ranks: 9.4 → 1 ms or so).
_FEW_VALUES = 32


def _inversions_of_few_values(a: IntArray, span: int) -> int:
    """#{i < j : a_i > a_j} for ``a`` of the values 0 … ``span`` − 1: for each value k,
    how many greater values come before each k (a running count of them)."""
    total = 0
    for k in range(span - 1):
        here = a == k
        if here.any():
            total += int(np.cumsum(a > k)[here].sum())
    return total


def count_inversions(values: IntArray) -> int:
    """#{i < j : v_i > v_j}, by a bottom-up merge sort vectorised over all runs at once.

    Runs of :data:`_FIRST_RUN` values are counted by comparing every pair at once and
    sorted; from there, at each level the array consists of sorted runs of width w, the
    inversions between a left run and its right neighbour are counted with one
    ``searchsorted`` over block-offset keys, and each pair of runs is merged by one
    ``sort``. O(n log² n) in numpy, no Python loop over elements.
    """
    a = np.asarray(values, dtype=np.int64)
    n = int(a.size)
    if n < 2:
        return 0
    a = a - a.min()
    span = int(a.max()) + 1
    if span <= _FEW_VALUES:
        return _inversions_of_few_values(a, span)
    width = min(_FIRST_RUN, n)
    padded = np.full(-(-n // width) * width, span, dtype=np.int64)  # pads sort last
    padded[:n] = a
    blocks = padded.reshape(-1, width)
    earlier = np.triu(np.ones((width, width), dtype=np.bool_), 1)  # i < j in a run
    total = int(((blocks[:, :, None] > blocks[:, None, :]) & earlier).sum())
    a = np.sort(blocks, axis=1).reshape(-1)[:n]
    positions = np.arange(n, dtype=np.int64)
    while width < n:
        block = positions // (2 * width)
        right = (positions % (2 * width)) >= width
        keys = block * span + a
        left_keys = keys[~right]  # sorted: runs are sorted and blocks increase
        right_keys = keys[right]
        right_block = block[right]
        end_of_left = np.searchsorted(left_keys, (right_block + 1) * span, side="left")
        not_greater = np.searchsorted(left_keys, right_keys, side="right")
        total += int((end_of_left - not_greater).sum())
        # each block holds two sorted runs: a stable sort (timsort) merges them in linear time
        a = np.sort(keys, kind="stable") - block * span
        width *= 2
    return total


@dataclass(frozen=True)
class _RankedY:
    """The y side of Kendall's τ-b, shared by every x it is paired with: its values,
    their dense ranks and its tied pairs."""

    values: FloatArray
    ranks: IntArray
    tied: int

    @classmethod
    def of(cls, b: FloatArray) -> _RankedY:
        _, ranks, counts = np.unique(b, return_inverse=True, return_counts=True)
        counts = counts.astype(np.int64)
        return cls(b, ranks.astype(np.int64), int((counts * (counts - 1) // 2).sum()))


def kendall_tau_b(x: Values, y: Values) -> Coefficient:
    """Kendall's τ-b (seed 002), ties handled; O(n log n)-ish, for sentence level too.

    With n₀ = n(n−1)/2 pairs, n₁ pairs tied in x, n₂ tied in y, n₃ tied in both, and D
    discordant pairs (counted as inversions of y after sorting by x then y), the
    concordant pairs are ``C = n₀ − n₁ − n₂ + n₃ − D`` and
    ``τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂))``. Equal to ``scipy.stats.kendalltau``
    (variant "b"). NaN when n < 2 or every pair is tied on one side.
    """
    a, b = _pairs(x, y)
    return _tau_b(a, _RankedY.of(b))


def kendall_tau_b_against(xs: Sequence[Values], y: Values) -> list[Coefficient]:
    """``[kendall_tau_b(x, y) for x in xs]``, the y side ranked once (the meta-evaluation
    pairs fifteen metrics with one human figure); an x with a NaN where y has none is
    paired on its own."""
    return [counts.coefficient() for counts in tau_counts_against(xs, y)]


def _tau_b(a: FloatArray, y: _RankedY) -> Coefficient:
    """τ-b of paired vectors without NaN (:func:`_tau_counts`)."""
    return _tau_counts(a, y).coefficient()


@dataclass(frozen=True)
class TauCounts:
    """What Kendall's τ-b is a function of: ``n`` points, and among their pairs those
    tied in x (n₁), tied in y (n₂), tied in both (n₃) and discordant (D). Every pair
    count is a sum over pairs, so the counts of a set of points are those of its parts
    plus those of the pairs across them (:mod:`metrics.tau_update`); the coefficient is
    the same function of the same integers, so equal counts give the same τ bit for bit."""

    n: int
    tied_x: int
    tied_y: int
    tied_both: int
    discordant: int

    @property
    def pairs(self) -> int:
        return self.n * (self.n - 1) // 2

    def __add__(self, other: TauCounts) -> TauCounts:
        return TauCounts(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))

    def __sub__(self, other: TauCounts) -> TauCounts:
        return TauCounts(*(a - b for a, b in zip(astuple(self), astuple(other), strict=True)))

    def coefficient(self) -> Coefficient:
        """τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), ``C = n₀ − n₁ − n₂ + n₃ − D``; NaN when
        n < 2 or every pair is tied on one side."""
        n, n0, n1, n2 = self.n, self.pairs, self.tied_x, self.tied_y
        if n < 2 or n0 in (n1, n2):
            return Coefficient("kendall_tau_b", math.nan, n)
        concordant = n0 - n1 - n2 + self.tied_both - self.discordant
        tau = (concordant - self.discordant) / math.sqrt(float(n0 - n1) * float(n0 - n2))
        return Coefficient("kendall_tau_b", max(-1.0, min(1.0, tau)), n)


def tau_counts(x: Values, y: Values) -> TauCounts:
    """The :class:`TauCounts` of the pairs (x, y) without a NaN on either side:
    ``tau_counts(x, y).coefficient()`` is :func:`kendall_tau_b`."""
    a, b = _pairs(x, y)
    return _tau_counts(a, _RankedY.of(b))


def tau_counts_against(xs: Sequence[Values] | FloatArray, y: Values) -> list[TauCounts]:
    """``[tau_counts(x, y) for x in xs]``, the y side ranked once, as
    :func:`kendall_tau_b_against` (``xs`` may be one metrics × points array)."""
    b = np.asarray(y, dtype=np.float64)
    keep = ~np.isnan(b)
    ranked = _RankedY.of(b[keep])
    out = []
    for x in xs:
        a = np.asarray(x, dtype=np.float64)
        if a.shape != b.shape or np.isnan(a[keep]).any():
            out.append(tau_counts(a, b))
        else:
            out.append(_tau_counts(a[keep], ranked))
    return out


#: Up to this many points, :func:`_tau_counts` compares every pair at once rather than
#: sorting (the same integers: the τ-b of a system-level correlation, a few times faster).
_FEW_POINTS = 64


def _tau_counts(a: FloatArray, y: _RankedY) -> TauCounts:
    """The counts of paired vectors without NaN: one sort by x then y gives the ties in
    x, the ties in both and, as inversions of the y ranks, the discordant pairs."""
    n = int(a.size)
    if n < 2:
        return TauCounts(n, 0, 0, 0, 0)
    if n <= _FEW_POINTS:  # a system-level correlation: every pair at once costs less
        i, j = np.triu_indices(n, k=1)
        sx, sy = np.sign(a[i] - a[j]), np.sign(y.values[i] - y.values[j])
        tied_x, tied_y = sx == 0, sy == 0
        return TauCounts(
            n,
            int(tied_x.sum()),
            y.tied,
            int((tied_x & tied_y).sum()),
            int((sx * sy < 0).sum()),
        )
    order = np.lexsort((y.values, a))
    sorted_a, sorted_b = a[order], y.values[order]
    same_a = sorted_a[1:] == sorted_a[:-1]
    n1 = _pairs_in_runs(same_a)
    n3 = _pairs_in_runs(same_a & (sorted_b[1:] == sorted_b[:-1]))
    return TauCounts(n, n1, y.tied, n3, count_inversions(y.ranks[order]))


def pearson_per_sample(x: FloatArray, y: FloatArray) -> FloatArray:
    """Pearson's r of each column of two (points × samples) arrays: what
    :func:`pearson` gives for ``(x[:, b], y[:, b])``, for every bootstrap sample ``b`` at
    once (the system-level interval resamples sentences and recomputes every system's
    figures, so each sample is one column). A point with a NaN on either side is left
    out of that column only; NaN where :func:`pearson` gives NaN."""
    a, b, keep = _columns(x, y)
    n = keep.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        da = np.where(keep, a - np.where(keep, a, 0.0).sum(axis=0) / n, 0.0)
        db = np.where(keep, b - np.where(keep, b, 0.0).sum(axis=0) / n, 0.0)
        r = (da * db).sum(axis=0) / np.sqrt((da * da).sum(axis=0) * (db * db).sum(axis=0))
    undefined = (n < 2) | _constant(a, keep) | _constant(b, keep)
    return np.where(undefined, np.nan, np.clip(r, -1.0, 1.0))


def kendall_tau_b_per_sample(x: FloatArray, y: FloatArray) -> FloatArray:
    """Kendall's τ-b of each column of two (points × samples) arrays, as
    :func:`kendall_tau_b` per column: every pair of points compared at once, which is
    fast for the few points of a system-level correlation (20 systems: 190 pairs), not
    for sentence level. ``C − D`` is the sum of the pairs' sign products; ties count in
    n₁ and n₂ as in :func:`kendall_tau_b`."""
    a, b, keep = _columns(x, y)
    i, j = np.triu_indices(a.shape[0], k=1)
    pair = keep[i] & keep[j]
    sa = np.where(pair, np.sign(a[i] - a[j]), 0.0)
    sb = np.where(pair, np.sign(b[i] - b[j]), 0.0)
    n0 = pair.sum(axis=0)
    n1 = (pair & (sa == 0)).sum(axis=0)
    n2 = (pair & (sb == 0)).sum(axis=0)
    return tau_b_of_pair_counts((sa * sb).sum(axis=0), n0, n1, n2)


def tau_b_of_pair_counts(
    signed: FloatArray | IntArray, n0: IntArray, n1: IntArray, n2: IntArray
) -> FloatArray:
    """τ-b from its pair counts, elementwise: ``signed`` = C − D (the sum of the pairs'
    sign products), ``n0`` the comparable pairs, ``n1`` those tied in x, ``n2`` those
    tied in y; NaN where every comparable pair is tied on a side (or there is none).
    What :func:`kendall_tau_b_per_sample` computes once it has counted, for callers
    that hold the pairs' signs already (:mod:`metrics.meta`)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = signed / np.sqrt((n0 - n1).astype(float) * (n0 - n2))
    undefined = (n0 == n1) | (n0 == n2)
    return np.where(undefined, np.nan, np.clip(tau, -1.0, 1.0))


def _columns(x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray, BoolArray]:
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    if a.ndim != 2 or a.shape != b.shape:
        raise ValueError(
            f"x and y of shapes {a.shape} and {b.shape}: expected the same (points, samples)"
        )
    return a, b, ~(np.isnan(a) | np.isnan(b))


def _constant(values: FloatArray, keep: BoolArray) -> BoolArray:
    """Per column: every kept value equal (tested exactly, as :func:`pearson` does)."""
    high = np.where(keep, values, -np.inf).max(axis=0)
    low = np.where(keep, values, np.inf).min(axis=0)
    return cast(BoolArray, high == low)


def krippendorff_alpha_interval(data: Sequence[Sequence[float]] | FloatArray) -> Coefficient:
    """Krippendorff's α for interval data, any number of coders, missing values as NaN.

    ``data[c][u]`` is coder c's value for unit u (a coders × units reliability matrix).
    Following Krippendorff (2011), only *pairable* values count: units with at least two
    values; ``n`` is their number. With ``δ² = (v − v')²`` (interval metric):

        D_o = (1/n) Σ_u 1/(m_u − 1) Σ_{i≠j in u} δ²(v_i, v_j)
        D_e = 1/(n(n−1)) Σ_{i≠j over all pairable values} δ²(v_i, v_j)
        α   = 1 − D_o / D_e

    using ``Σ_{i≠j} (v_i − v_j)² = 2(m Σv² − (Σv)²)`` so nothing is quadratic: α is a
    function of sums over the units (:func:`agreement_sums`, :func:`alpha_of_sums`),
    which is what lets a bootstrap over units recompute it per sample in one product.
    The values are centred first, which leaves every difference unchanged and keeps the
    sums of squares accurate. NaN when n < 2 or D_e = 0 (all pairable values equal).
    """
    units, values, n_units = _cells(data)
    sums = agreement_sums_of_cells(units, values, n_units)
    return alpha_coefficient(sums, values[sums[units, 0] >= 2])


def alpha_coefficient(sums: FloatArray, pairable: FloatArray) -> Coefficient:
    """Krippendorff's α (interval) as a :class:`Coefficient` from the units' sums of
    :func:`agreement_sums` and the ``pairable`` values themselves (those in units of two
    or more values: α is undefined where they are all equal, which is tested on them
    exactly, not via a sum)."""
    n = int(sums[:, 0].sum())
    if n < 2 or np.ptp(pairable) == 0.0:
        return Coefficient("krippendorff_alpha_interval", math.nan, n)
    return Coefficient("krippendorff_alpha_interval", float(alpha_of_sums(sums.sum(axis=0))), n)


def _cells(data: Sequence[Sequence[float]] | FloatArray) -> tuple[IntArray, FloatArray, int]:
    """The present (not NaN) cells of a coders × units matrix, coder by coder and units
    ascending within a coder (the matrix's own order): each cell's unit and value, and
    the number of units."""
    arr = np.asarray(data, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"data of shape {arr.shape}: expected (coders, units)")
    coders, units = np.nonzero(~np.isnan(arr))
    return units.astype(np.int64), arr[coders, units], arr.shape[1]


#: What :func:`agreement_sums` gives per unit, in its columns' order: the unit's
#: pairable values m, their sum and sum of squares, the α's within-unit disagreement
#: (m Σv² − (Σv)²)/(m − 1), and over the unit's ordered pairs of values (the
#: both-orders Pearson r of :func:`pearson_of_sums`) Σx = (m − 1)Σv, Σx² = (m − 1)Σv²,
#: Σxy = (Σv)² − Σv² and their number m(m − 1). 0 for a unit of fewer than two values.
AGREEMENT_SUMS = (
    "values",
    "sum",
    "squares",
    "within",
    "pair_sum",
    "pair_squares",
    "cross",
    "pairs",
)


def agreement_sums(data: Sequence[Sequence[float]] | FloatArray) -> FloatArray:
    """Per unit of a coders × units matrix (NaN: missing) the sums of
    :data:`AGREEMENT_SUMS` (units × 8), the values centred on the mean of the pairable
    ones: Krippendorff's α and the both-orders Pearson r are functions of their totals,
    so a bootstrap that draws units recomputes both from ``counts @ sums``."""
    return agreement_sums_of_cells(*_cells(data))


def agreement_sums_of_cells(units: IntArray, values: FloatArray, n_units: int) -> FloatArray:
    """:func:`agreement_sums` of a matrix given by its present cells: each value's unit
    (0 … ``n_units`` − 1), listed coder by coder as the matrix holds them (the order each
    unit's sums add its values in, and the centre's mean reads them in).

    What the agreement of many judges needs: its judges × candidates matrix is almost
    all missing (a candidate has two or three judges of hundreds), and its cells are as
    many as the judgments, whatever the number of judges."""
    m = np.bincount(units, minlength=n_units).astype(np.float64)
    pairable = m >= 2
    kept = pairable[units]
    centre = float(values[kept].mean()) if kept.any() else 0.0
    centred = values[kept] - centre
    s1 = np.bincount(units[kept], weights=centred, minlength=n_units)
    s2 = np.bincount(units[kept], weights=centred * centred, minlength=n_units)
    m = np.where(pairable, m, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        within = np.where(pairable, (m * s2 - s1 * s1) / np.maximum(m - 1.0, 1.0), 0.0)
    out: FloatArray = np.column_stack(
        [m, s1, s2, within, (m - 1) * s1, (m - 1) * s2, s1 * s1 - s2, m * (m - 1)]
    )
    return np.where(pairable[:, None], out, 0.0)


def alpha_of_sums(totals: FloatArray) -> FloatArray:
    """Krippendorff's α (interval) from totals of :func:`agreement_sums` (…, 8),
    elementwise over the leading axes: ``1 − (n − 1) · within / (n Σv² − (Σv)²)``; NaN
    where n < 2 or the expected disagreement is 0."""
    t = np.asarray(totals, dtype=np.float64)
    n, s1, s2, within = t[..., 0], t[..., 1], t[..., 2], t[..., 3]
    expected = n * s2 - s1 * s1
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - (n - 1) * within / expected
    return np.where((n >= 2) & (expected > 0.0), alpha, np.nan)


def pearson_of_sums(totals: FloatArray) -> FloatArray:
    """Pearson's r over every ordered pair of values within a unit (each pair in both
    orders, so x and y share their sums) from totals of :func:`agreement_sums`,
    elementwise over the leading axes; NaN with fewer than two pairs or no spread."""
    t = np.asarray(totals, dtype=np.float64)
    x, x2, xy, pairs = t[..., 4], t[..., 5], t[..., 6], t[..., 7]
    spread = pairs * x2 - x * x
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (pairs * xy - x * x) / spread
    return np.where((pairs >= 2) & (spread > 0.0), np.clip(r, -1.0, 1.0), np.nan)


@dataclass(frozen=True, eq=False)
class Normalized:
    """(0, 1)-normalized scores and the per-evaluator moments they came from.

    (``eq=False``: it holds an array, whose ``==`` is elementwise.)

    ``values`` is parallel to the input (NaN stays NaN); ``mean``, ``std`` and ``count``
    are keyed by evaluator; ``n`` is the number of scores normalized.
    """

    values: FloatArray = field(repr=False)
    mean: dict[Hashable, float]
    std: dict[Hashable, float]
    count: dict[Hashable, int]
    n: int


def z_normalize(scores: Values, evaluators: Sequence[Hashable]) -> Normalized:
    """Seed 000 §3.5 (0, 1) evaluator normalization: per evaluator e,
    ``z = (x − mean_e) / std_e``.

    ``std_e`` is the *population* standard deviation (divide by the number of the
    evaluator's scores): the normalization is a description of that evaluator's scores,
    not an estimate, and it makes each evaluator's z-scores have exactly mean 0 and
    standard deviation 1. An evaluator with a single score, or whose scores are all
    equal (std 0), carries no information about *relative* quality: their scores map to
    z = 0 (the centring still removes their bias). NaN scores are ignored for the
    moments and stay NaN.
    """
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"scores of shape {x.shape}: expected a vector")
    if len(evaluators) != x.size:
        raise ValueError(f"{x.size} scores but {len(evaluators)} evaluators: one per score")
    out = np.full(x.size, np.nan, dtype=np.float64)
    groups: dict[Hashable, list[int]] = {}
    for i, evaluator in enumerate(evaluators):
        if not math.isnan(x[i]):
            groups.setdefault(evaluator, []).append(i)
    means: dict[Hashable, float] = {}
    stds: dict[Hashable, float] = {}
    counts: dict[Hashable, int] = {}
    for evaluator, members in groups.items():
        idx = np.asarray(members, dtype=np.int64)
        values = x[idx]
        mean = float(values.mean())
        constant = bool(np.ptp(values) == 0.0)  # exactly, not via a rounded variance
        std = 0.0 if constant else float(np.sqrt(((values - mean) ** 2).mean()))
        means[evaluator], stds[evaluator], counts[evaluator] = mean, std, int(idx.size)
        out[idx] = 0.0 if constant else (values - mean) / std
    return Normalized(
        values=cast(FloatArray, out), mean=means, std=stds, count=counts, n=sum(counts.values())
    )
