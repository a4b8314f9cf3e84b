"""System-level meta-evaluation as WMT does it today: pairwise accuracy and soft pairwise
accuracy, beside Pearson's r and Kendall's τ-b (:mod:`metrics.correlation`).

* **Pairwise accuracy** (Kocmi et al. 2021, "To Ship or Not to Ship"): the share of
  system pairs that the metric orders as the humans do. A pair agrees when the sign of
  the metric's difference equals the sign of the human difference, each read in its
  own figure's "better" direction (BLEU higher, an error rate lower), so a tie agrees
  with a tie only.
* **Soft pairwise accuracy** (Thompson et al. 2024, WMT24's meta-metric): for each pair
  (i, j), i before j in the systems' order, the one-sided p-value that i beats j is
  computed once from the human side and once from the metric's, and the pair counts
  ``1 − |p_human − p_metric|``; the mean over the pairs. A metric is rewarded for being
  as sure (or as unsure) as the humans are, not only for the order.

**Which p-values.** WMT24 (``mt_metrics_eval/pce.py``) runs a paired permutation test of
sums of segment scores. Here the metrics are corpus-level functions of summed
statistics (BLEU is no mean of sentence scores), and the p-value is read from the
paired bootstrap over sentences that the table already runs for them (the same
index matrix for every system, metric and human figure): with ``d_b`` the difference
``i − j`` (better direction) on sample b and ``δ`` the real one,
``p = #{b : d_b − mean(d) ≥ δ} / B`` — the bootstrap's null distribution (the sample
differences centred on 0) in place of the permutations', and WMT24's "≥" and its
``count / B`` (no +1: the p-value is a degree of confidence here, not a test at a level).
Two identical systems get p = 1 both ways, as in WMT24's permutation test. Samples in
which either system has no figure (a human figure whose sample drew none of its judged
sentences) are left out of that pair's count.

Figures that *are* means of segment scores (ESA and MQM scores, imported segment
metrics such as COMET) can take WMT24's own p-values instead: :func:`permutation_side`
runs mt-metrics-eval's paired permutation test, with its draws.

**Intervals.** Pearson, τ-b and pairwise accuracy are recomputed on every bootstrap
sample of the sentences from both sides' figures on that sample. For soft pairwise
accuracy the p-values themselves have to be those of the sample: a bootstrap within each
bootstrap sample would cost a thousand times more, so each pair's null distribution is
kept as the whole corpus's (its centred sample differences) and only the observed
difference moves: on sample b, ``p_b = #{c : d_c − mean(d) ≥ d_b} / B``. The interval is
thus that of the observed differences' variation, each judged against the spread the
full corpus shows.

Nothing here knows about the app: scores and samples come in as arrays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from metrics.correlation import Coefficient, TauCounts, Values, tau_b_of_pair_counts
from metrics.stats import FloatArray

IntArray = npt.NDArray[np.int64]
T = TypeVar("T", bound=np.generic)


def in_better_direction(values: Values, *, higher_is_better: bool) -> FloatArray:
    """``values`` turned so that higher is better (negated, exactly, for an error rate)."""
    a = np.asarray(values, dtype=np.float64)
    return a if higher_is_better else -a


def pair_indices(n: int) -> tuple[IntArray, IntArray]:
    """The pairs (i, j), i < j, of ``n`` systems, in the order every array here uses."""
    i, j = np.triu_indices(n, k=1)
    return i.astype(np.int64), j.astype(np.int64)


@dataclass(frozen=True, eq=False)
class PairwiseSide:
    """One side (an automatic metric or a human figure) of the pairwise meta-evaluation
    over ``n`` systems, every array over the pairs of :func:`pair_indices`:

    * ``present``: per system, whether it has a figure;
    * ``signs``: the sign of each real difference (i − j, better direction), NaN where a
      system has no figure;
    * ``p``: the one-sided p-value that i beats j (module doc), NaN without samples;
    * ``sample_signs`` and :attr:`sample_p` (pairs × samples): the same on every
      bootstrap sample (None without samples); the signs as small integers, 0 where the
      pair has no difference on that sample, which ``sample_defined`` tells apart from a
      tie (None: every pair has one on every sample); the p-values kept as their counts
      (``sample_at_least`` of ``sample_of`` centred differences), a quarter of their
      floats' memory, for a side kept between requests.

    (``eq=False``: it holds arrays, whose ``==`` is elementwise.)
    """

    n: int
    higher_is_better: bool
    present: npt.NDArray[np.bool_]
    signs: FloatArray
    p: FloatArray
    sample_signs: npt.NDArray[np.int8] | None = None
    sample_at_least: npt.NDArray[np.uint16] | None = None
    sample_of: IntArray | None = None
    sample_defined: npt.NDArray[np.bool_] | None = None

    @cached_property
    def sample_p(self) -> FloatArray | None:
        """The one-sided p-value of each pair on each sample (module doc), NaN where the
        pair has no difference on that sample."""
        if self.sample_at_least is None or self.sample_of is None:
            return None
        with np.errstate(invalid="ignore", divide="ignore"):
            p: FloatArray = self.sample_at_least / self.sample_of[:, None]
        return p if self.sample_defined is None else np.where(self.sample_defined, p, np.nan)

    @cached_property
    def sample_ties(self) -> IntArray:
        """How many pairs have no difference on each sample (a tie, or no figure)."""
        if self.sample_signs is None:
            raise ValueError("a side without its samples")
        ties: IntArray = (self.sample_signs == 0).sum(axis=0)
        return ties

    def __getstate__(self) -> dict[str, object]:
        """As pickled (the shared store keeps the automatic side, some 8 MB at real
        size, and every fresh process reads it): the sample arrays with each pair's
        row that holds one value throughout (a clear difference: most pairs of most
        metrics) kept as that value (:class:`_Rows`); the values cached on it left
        out."""
        state = {k: v for k, v in self.__dict__.items() if k not in _CACHED}
        for name in _PER_SAMPLE:
            found = state[name]
            if isinstance(found, np.ndarray):
                state[name] = _Rows.of(found)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name in _PER_SAMPLE:
            found = state[name]
            if isinstance(found, _Rows):
                state[name] = found.array()
        self.__dict__.update(state)

    def among(self, systems: Sequence[int]) -> PairwiseSide:
        """The side restricted to the systems ``systems`` (indices, increasing): their
        pairs, in :func:`pair_indices` order of the smaller set."""
        keep = np.asarray(systems, dtype=np.int64)
        if keep.size > 1 and (np.diff(keep) <= 0).any():
            raise ValueError("systems must be increasing indices")
        a, b = pair_indices(len(keep))
        i, j = keep[a], keep[b]
        # index of (i, j), i < j, among the n(n−1)/2 pairs in row-major order
        where = i * self.n - i * (i + 1) // 2 + (j - i - 1)
        return PairwiseSide(
            len(keep),
            self.higher_is_better,
            self.present[keep],
            self.signs[where],
            self.p[where],
            None if self.sample_signs is None else self.sample_signs[where],
            None if self.sample_at_least is None else self.sample_at_least[where],
            None if self.sample_of is None else self.sample_of[where],
            None if self.sample_defined is None else self.sample_defined[where],
        )


#: The fields of a side that hold a row per pair and a column per sample, and its
#: values computed on demand (:func:`functools.cached_property`).
_PER_SAMPLE = ("sample_signs", "sample_at_least", "sample_defined")
_CACHED = ("sample_p", "sample_ties")


@dataclass(frozen=True, eq=False)
class _Rows:
    """A 2-D array as pickled: the rows that hold one value throughout as that value,
    the others whole; :meth:`array` gives back the same array (values, dtype, shape)."""

    shape: tuple[int, ...]
    constant: npt.NDArray[np.bool_]
    values: npt.NDArray[np.generic]
    others: npt.NDArray[np.generic]

    @classmethod
    def of(cls, a: npt.NDArray[np.generic]) -> _Rows | npt.NDArray[np.generic]:
        if a.ndim != 2 or a.shape[1] == 0:
            return a
        constant = (a == a[:, :1]).all(axis=1)
        return cls(a.shape, constant, a[constant, 0], a[~constant])

    def array(self) -> npt.NDArray[np.generic]:
        out = np.empty(self.shape, dtype=self.values.dtype)
        out[self.constant] = self.values[:, None]
        out[~self.constant] = self.others
        return out


def pairwise_side(
    scores: Values, samples: FloatArray | None = None, *, higher_is_better: bool = True
) -> PairwiseSide:
    """One side of the pairwise meta-evaluation from each system's figure (``scores``)
    and, when given, its figure on every bootstrap sample (``samples``: systems ×
    samples, NaN where a sample has none)."""
    x = in_better_direction(scores, higher_is_better=higher_is_better)
    if x.ndim != 1:
        raise ValueError(f"scores of shape {x.shape}: expected a vector")
    i, j = pair_indices(x.size)
    real = x[i] - x[j]
    if samples is None:
        nothing = np.full(real.shape, np.nan)
        return PairwiseSide(x.size, higher_is_better, ~np.isnan(x), np.sign(real), nothing)
    s = in_better_direction(samples, higher_is_better=higher_is_better)
    if s.ndim != 2 or s.shape[0] != x.size:
        raise ValueError(f"samples of shape {s.shape}: expected ({x.size}, samples)")
    diffs = s[i] - s[j]
    p, at_least, of = _p_values(real, diffs)
    defined = ~np.isnan(diffs)
    signs = np.sign(np.where(defined, diffs, 0.0)).astype(np.int8)
    return PairwiseSide(
        x.size,
        higher_is_better,
        ~np.isnan(x),
        np.sign(real),
        p,
        signs,
        at_least,
        of,
        None if defined.all() else defined,
    )


@dataclass(frozen=True, eq=False)
class KeptSide:
    """A side (:func:`pairwise_side`) with the figures and samples it was computed from,
    as given, to bring it up to date (:func:`pairwise_side_reusing`)."""

    scores: FloatArray
    samples: FloatArray
    side: PairwiseSide


def pairwise_side_reusing(
    scores: Values, samples: FloatArray, kept: KeptSide | None, *, higher_is_better: bool
) -> KeptSide:
    """:func:`pairwise_side` of ``scores`` and ``samples``, the same arrays to the bit,
    computing only the pairs with a system whose figure or samples are not bitwise those
    of ``kept`` (all of them without it, or when it is of another direction or number of
    systems or samples). One more judgment changes one system's figure and samples: 19
    of 190 pairs of 20 systems, whose null distributions' sort is most of a side's cost.
    Each pair's figures come from its own two systems' rows alone (:func:`_p_values`
    works row by row), so a pair kept is the pair computed again."""
    x = np.ascontiguousarray(scores, dtype=np.float64)
    s = np.ascontiguousarray(samples, dtype=np.float64)
    if (
        kept is None
        or kept.side.higher_is_better != higher_is_better
        or kept.side.sample_signs is None
        or kept.side.n != x.size
        or kept.scores.shape != x.shape
        or kept.samples.shape != s.shape
        or x.ndim != 1
    ):
        return KeptSide(x, s, pairwise_side(x, s, higher_is_better=higher_is_better))
    same = _bitwise(kept.scores, x) & _bitwise(kept.samples, s).all(axis=1)
    i, j = pair_indices(x.size)
    redo = ~(same[i] & same[j])
    was = kept.side
    if not redo.any():
        return KeptSide(x, s, was)
    if redo.all():
        return KeptSide(x, s, pairwise_side(x, s, higher_is_better=higher_is_better))
    xb = in_better_direction(x, higher_is_better=higher_is_better)
    sb = in_better_direction(s, higher_is_better=higher_is_better)
    real = xb[i] - xb[j]
    diffs = sb[i[redo]] - sb[j[redo]]
    p_new, at_least_new, of_new = _p_values(real[redo], diffs)
    defined_new = ~np.isnan(diffs)
    p, at_least, of = was.p.copy(), _copy(was.sample_at_least), _copy(was.sample_of)
    signs = _copy(was.sample_signs)
    if was.sample_defined is None:
        defined = np.ones(signs.shape, dtype=np.bool_)
    else:
        defined = was.sample_defined.copy()
    p[redo], at_least[redo], of[redo], defined[redo] = p_new, at_least_new, of_new, defined_new
    signs[redo] = np.sign(np.where(defined_new, diffs, 0.0)).astype(np.int8)
    side = PairwiseSide(
        x.size,
        higher_is_better,
        ~np.isnan(xb),
        np.sign(real),
        p,
        signs,
        at_least,
        of,
        None if defined.all() else defined,
    )
    return KeptSide(x, s, side)


def _bitwise(a: FloatArray, b: FloatArray) -> npt.NDArray[np.bool_]:
    """Which values of two float arrays are the same bits (NaN as NaN, −0 apart from 0)."""
    same: npt.NDArray[np.bool_] = a.view(np.uint64) == b.view(np.uint64)
    return same


def _copy(a: npt.NDArray[T] | None) -> npt.NDArray[T]:
    if a is None:  # (a side with samples has every sample array)
        raise ValueError("a side without its samples")
    return a.copy()


#: mt-metrics-eval's paired permutation test (``pce.compute_pairwise_p_values``, WMT24's
#: soft pairwise accuracy): 1,000 permutations drawn from seed 4.
PERMUTATIONS, PERMUTATION_SEED = 1000, 4


def permutation_signs(permutations: int, n_segments: int, seed: int) -> FloatArray:
    """±1 per permutation and segment (+1: the segment's two scores stay with their
    systems), drawn as mt-metrics-eval draws them: uniform float32 numbers from
    ``np.random.default_rng(seed)``, rounded to 0 or 1; so the same seed swaps the same
    segments there and here."""
    if permutations < 1:
        raise ValueError(f"permutations={permutations}: at least 1")
    draws = np.random.default_rng(seed).random(size=(permutations, n_segments), dtype=np.float32)
    return np.rint(draws).astype(np.float64) * 2.0 - 1.0


def permutation_side(
    segment_scores: FloatArray,
    *,
    higher_is_better: bool = True,
    permutations: int = PERMUTATIONS,
    seed: int = PERMUTATION_SEED,
) -> PairwiseSide:
    """One side of the pairwise meta-evaluation from segment scores (systems ×
    segments, NaN where a system has none), with WMT24's p-values: for each pair (i, j)
    a paired permutation test of the difference of the systems' sums, each segment's two
    scores swapped or not at random, ``p = #{permutations: null ≥ real} / permutations``
    (mt-metrics-eval's ``compute_pairwise_p_values``; the same ``seed`` gives both sides
    of one comparison the same permutations). Only the segments every system has a
    score for are read, as mt-metrics-eval reads only complete segments; the signs of
    the pairwise accuracy are those of the differences of the systems' sums (so of
    their means) over those segments. Without such a segment, no system has a figure.

    The module's other sides read corpus figures and bootstrap samples (BLEU is no mean
    of segment scores); this one suits figures that *are* means of segment scores: the
    human ESA and MQM scores (:mod:`metrics.protocols`) and imported segment metrics."""
    x = in_better_direction(segment_scores, higher_is_better=higher_is_better)
    if x.ndim != 2:
        raise ValueError(f"segment scores of shape {x.shape}: expected systems × segments")
    x = x[:, ~np.isnan(x).any(axis=0)]
    n = x.shape[0]
    i, j = pair_indices(n)
    if x.shape[1] == 0:
        nothing = np.full(i.shape, np.nan)
        return PairwiseSide(n, higher_is_better, np.zeros(n, dtype=np.bool_), nothing, nothing)
    sums = x.sum(axis=1)
    partial = permutation_signs(permutations, x.shape[1], seed) @ x.T  # permutations × systems
    real = sums[i] - sums[j]
    null = partial[:, i] - partial[:, j]
    p: FloatArray = (null >= real).sum(axis=0) / permutations
    return PairwiseSide(n, higher_is_better, np.ones(n, dtype=np.bool_), np.sign(real), p)


def _p_values(
    real: FloatArray, diffs: FloatArray
) -> tuple[FloatArray, npt.NDArray[np.uint16], IntArray]:
    """Per pair: the one-sided p-value of the real difference, and for each sample's own
    difference how many of the pair's centred sample differences are at least as large
    (its p-value's numerator) and of how many (module doc)."""
    if diffs.shape[1] >= 2**16:
        raise ValueError(f"{diffs.shape[1]} samples: at most 65,535 are counted")
    defined = ~np.isnan(diffs)
    m = defined.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(defined, diffs, 0.0).sum(axis=1) / m
        centred = diffs - mean[:, None]  # NaN stays NaN, and NaN ≥ x is False
        p = (centred >= real[:, None]).sum(axis=1) / m
    p = np.where((m > 0) & ~np.isnan(real), p, np.nan)
    at_least = np.zeros(diffs.shape, dtype=np.uint16)
    low = np.where(defined, centred, np.inf).min(axis=1)
    high = np.where(defined, centred, -np.inf).max(axis=1)
    smallest = np.where(defined, diffs, np.inf).min(axis=1)
    largest = np.where(defined, diffs, -np.inf).max(axis=1)
    # a pair whose every sample difference lies beyond every centred one (a clear
    # difference, most pairs) needs no search: p is 0 (or 1) on every sample
    above = smallest > high
    below = largest <= low
    at_least[below] = m[below, None]  # every centred difference: p = 1 (0: above)
    searched = ~above & ~below & (m > 0)
    whole = np.flatnonzero(searched & (m == diffs.shape[1]))
    nulls = np.sort(centred[whole], axis=1)  # every row at once
    width = diffs.shape[1]
    for null, k in zip(nulls, whole.tolist(), strict=True):
        at_least[k] = width - np.searchsorted(null, diffs[k], side="left")
    for k in np.flatnonzero(searched & (m < diffs.shape[1])).tolist():  # some undefined
        null = np.sort(centred[k][defined[k]])
        row = diffs[k][defined[k]]
        at_least[k][defined[k]] = null.size - np.searchsorted(null, row, side="left")
    at_least[~defined] = 0
    return p, at_least, m.astype(np.int64)


def pairwise_accuracy(metric: PairwiseSide, human: PairwiseSide) -> Coefficient:
    """The share of pairs of systems (both figures on both sides) that the metric orders
    as the humans do; ``n`` is the number of systems with both figures (the points of
    the correlations beside it). NaN under 2."""
    _check_sides(metric, human)
    pair = ~(np.isnan(metric.signs) | np.isnan(human.signs))
    n = int((metric.present & human.present).sum())
    if n < 2:
        return Coefficient("pairwise_accuracy", math.nan, n)
    agree = int((metric.signs[pair] == human.signs[pair]).sum())
    return Coefficient("pairwise_accuracy", agree / int(pair.sum()), n)


def soft_pairwise_accuracy(metric: PairwiseSide, human: PairwiseSide) -> Coefficient:
    """``1 − mean |p_human − p_metric|`` over the pairs with both p-values; ``n`` as
    :func:`pairwise_accuracy`'s. NaN under 2 systems or without p-values."""
    _check_sides(metric, human)
    pair = ~(np.isnan(metric.p) | np.isnan(human.p))
    n = int((metric.present & human.present).sum())
    if n < 2 or not pair.any():
        return Coefficient("soft_pairwise_accuracy", math.nan, n)
    error = float(np.abs(human.p[pair] - metric.p[pair]).mean())
    return Coefficient("soft_pairwise_accuracy", 1.0 - error, n)


def pairwise_accuracy_per_sample(metric: PairwiseSide, human: PairwiseSide) -> FloatArray:
    """:func:`pairwise_accuracy` on every bootstrap sample (both sides' sample figures),
    NaN on a sample with no pair of systems having all four."""
    sm, sh, pair = _sample_pairs(metric, human)
    agree = sm == sh
    if pair is not None:
        agree &= pair
    return _share(agree.sum(axis=0), _count(pair, sm.shape))


def kendall_tau_b_per_sample(metric: PairwiseSide, human: PairwiseSide) -> FloatArray:
    """Kendall's τ-b of the two sides' figures as they are (signed: an error rate
    against BLEU is negative) on every bootstrap sample: the same numbers as
    :func:`metrics.correlation.kendall_tau_b_per_sample` of the sample figures, from
    the signs the sides hold (the system-level intervals pair fifteen metrics with
    four human figures, so each side's signs are taken once)."""
    sm, sh, pair = _sample_pairs(metric, human)
    n0 = _count(pair, sm.shape)
    if pair is None:  # each side's own ties (a side serves several figures)
        tied_metric, tied_human = metric.sample_ties, human.sample_ties
    else:
        tied_metric = ((sm == 0) & pair).sum(axis=0)
        tied_human = ((sh == 0) & pair).sum(axis=0)
    # products of −1, 0, 1 in int8, summed as int64: exact, as any order of the sum
    signed = (sm * sh).sum(axis=0, dtype=np.int64)  # 0 where a side has none
    if metric.higher_is_better != human.higher_is_better:  # the signs were turned
        signed = -signed
    return tau_b_of_pair_counts(signed, n0, tied_metric, tied_human)


def kendall_tau_b_of_sides(metric: PairwiseSide, human: PairwiseSide) -> Coefficient | None:
    """Kendall's τ-b of the two sides' figures as they are (signed), from the signs of
    their real differences the sides hold: the same pair counts as
    :func:`metrics.correlation.kendall_tau_b` of the figures, so the same float (a side's
    sign is its figure's, turned exactly for an error rate). None where a system lacks a
    figure on either side or a difference has no sign (an infinite figure): ask
    :func:`~metrics.correlation.kendall_tau_b` then."""
    _check_sides(metric, human)
    sm, sh = metric.signs, human.signs
    if not (metric.present.all() and human.present.all()):
        return None
    if np.isnan(sm).any() or np.isnan(sh).any():
        return None
    tied_x, tied_y = sm == 0, sh == 0
    product = sm * sh if metric.higher_is_better == human.higher_is_better else -(sm * sh)
    counts = TauCounts(
        metric.n,
        int(tied_x.sum()),
        int(tied_y.sum()),
        int((tied_x & tied_y).sum()),
        int((product < 0).sum()),
    )
    return counts.coefficient()


def _sample_pairs(
    metric: PairwiseSide, human: PairwiseSide
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.bool_] | None]:
    """Both sides' sample signs and which pairs have a difference on both (None: all)."""
    _check_sides(metric, human)
    if metric.sample_signs is None or human.sample_signs is None:
        raise ValueError("both sides need their samples")
    defined = [d for d in (metric.sample_defined, human.sample_defined) if d is not None]
    pair = None if not defined else defined[0] if len(defined) == 1 else defined[0] & defined[1]
    return metric.sample_signs, human.sample_signs, pair


def _count(pair: npt.NDArray[np.bool_] | None, shape: tuple[int, ...]) -> IntArray:
    """Pairs with a difference on both sides, per sample."""
    if pair is None:
        return np.full(shape[1], shape[0], dtype=np.int64)
    counts: IntArray = pair.sum(axis=0, dtype=np.int64)
    return counts


def soft_pairwise_accuracy_per_sample(metric: PairwiseSide, human: PairwiseSide) -> FloatArray:
    """:func:`soft_pairwise_accuracy` on every bootstrap sample, from each side's
    p-values on that sample (module doc)."""
    _check_sides(metric, human)
    if metric.sample_at_least is None or human.sample_at_least is None:
        raise ValueError("both sides need their samples")
    if _every_sample_counted(metric, human):
        # p = count / B for every pair on both sides: Σ |p_h − p_m| is Σ |c_h − c_m| / B,
        # summed exactly in integers (the pairs' counts, not their floats)
        width = metric.sample_at_least.shape[1]
        apart = _apart(human.sample_at_least, metric.sample_at_least, width)
        pairs = metric.sample_at_least.shape[0]
        if pairs == 0:
            return np.full(width, np.nan)
        agreement: FloatArray = 1.0 - apart.sum(axis=0, dtype=np.int64) / (width * pairs)
        return agreement
    p_human, p_metric = human.sample_p, metric.sample_p
    if p_human is None or p_metric is None:  # (they are not: both have their counts)
        raise ValueError("both sides need their samples")
    error = np.abs(p_human - p_metric)  # NaN where either is missing
    pair = ~np.isnan(error)
    total = np.where(pair, error, 0.0).sum(axis=0)
    count = pair.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, 1.0 - total / count, np.nan)


def _apart(
    a: npt.NDArray[np.uint16], b: npt.NDArray[np.uint16], width: int
) -> npt.NDArray[np.signedinteger]:
    """``|a − b|`` of two arrays of counts of at most ``width``, exactly: in 16-bit
    integers while the counts stay below 2¹⁵ (half the memory read: the system-level
    soft accuracy takes 60 of these at real size), else in 32-bit ones."""
    if width < 2**15:  # counts and their differences fit a signed 16-bit integer
        small: npt.NDArray[np.signedinteger] = np.abs(a.view(np.int16) - b.view(np.int16))
        return small
    wide: npt.NDArray[np.signedinteger] = np.abs(a.astype(np.int32) - b)
    return wide


def _every_sample_counted(metric: PairwiseSide, human: PairwiseSide) -> bool:
    """Both sides have every pair's difference on every sample (no p-value missing, each
    counted among all the samples)."""
    width = None if metric.sample_at_least is None else metric.sample_at_least.shape[1]
    return all(
        side.sample_defined is None
        and side.sample_of is not None
        and bool((side.sample_of == width).all())
        for side in (metric, human)
    )


def _share(part: IntArray, whole: IntArray) -> FloatArray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(whole > 0, part / whole, np.nan)


def _check_sides(metric: PairwiseSide, human: PairwiseSide) -> None:
    if metric.n != human.n:
        raise ValueError(f"the metric has {metric.n} systems, the humans {human.n}")
