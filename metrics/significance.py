"""Paired bootstrap resampling, 95% confidence intervals and earned rank groups.

Seed 001 (Figure 2) ranks each translator per metric as "1 better / 2 intermediate /
3 worse" by eye. Here the groups are *earned*: two systems share a group unless their
difference is significant under paired bootstrap resampling (Koehn 2004), the test that
sacreBLEU 2.6 runs as ``--paired-bs`` (``sacrebleu.significance._paired_bs_test``).

The method, rule for rule as sacreBLEU's, on our per-segment sufficient statistics
(``segments × k`` rows, see :mod:`metrics.stats`):

* **One index matrix.** ``np.random.default_rng(seed).choice(n, size=(B, n),
  replace=True)`` is drawn once and applied to every system and every metric, so all
  systems are scored on the same B resampled test sets (the test is *paired*).
  sacreBLEU draws the same matrix afresh for every comparison from the same seed
  (``SACREBLEU_SEED``, default 12345), which is the same matrix. Sample b of system s is
  ``score_from_stats(Σ_t C[b, t] · stats_s[t])`` where ``C[b, t]`` counts how often
  segment t was drawn in sample b — the same sums as ``stats[idx].sum(axis=1)``, computed
  as one matrix product for all systems at once.
* **p-value** of systems a and b: with ``δ = |score_a − score_b|`` on the real data and
  ``d_b = |a_b − b_b|`` per sample, ``p = (#{b : d_b − mean(d) > δ} + 1) / (B + 1)``
  (sacreBLEU's ``_compute_p_value`` applied to the centred sample differences; the +1
  keeps the test's false-rejection rate at or below its level). It is symmetric in a, b.
* **95% confidence interval**: the *percentile* bootstrap interval ``[s_(lo), s_(hi)]``
  of the sorted sample scores, ``lo = ⌊B/40⌋`` and ``hi = B − ⌊B/40⌋ − 1`` (the 2.5 %
  and 97.5 % order statistics), clipped to the metric's range
  (:attr:`~metrics.stats.MetricInfo.bounds`).

**Approximate randomization** (sacreBLEU's ``--paired-ar``) is
:mod:`metrics.randomization`'s; it shares the p-value rule and its deviations
(:func:`p_values_from_samples`, :mod:`metrics.resampling`).

With the same segments, statistics and seed, BLEU's p-values equal ``paired_bs``'s (the
tests run sacreBLEU on the demo corpus). sacreBLEU sums the statistics in float32;
we keep float64, so interval means and half-widths agree to about 1e-7 relative
(integer counts sum exactly in both).

**Deviations from sacreBLEU**, each so that a figure never claims more than it has:

* *Identical systems.* When every sample difference is 0 (two systems with identical
  statistics on the segments compared), sacreBLEU's centred test reports the smallest
  possible p, ``1/(B+1)``, i.e. "significant" (approximate randomization likewise); we
  report ``p = 1`` so that identical systems share a rank group. A system compared with
  itself also has ``p = 1``.
* *Intervals.* sacreBLEU's ``estimate_ci`` prints ``μ ± ci``: the mean of the samples
  plus or minus half the distance between the same two order statistics. That interval
  has the percentile interval's width but is moved to be symmetric around μ, so for a
  rate near a bound it leaves the possible range (aSER 100 ± 50). We keep the order
  statistics themselves (:func:`percentile_interval`), which always lie in the range a
  score of the metric can take, and clip to :attr:`~metrics.stats.MetricInfo.bounds`
  against rounding. ``Interval.mean`` and ``Interval.half_width`` are still sacreBLEU's
  ``μ`` and ``ci`` (tested), for anyone comparing.
* *Enough data.* A pair of systems compared on fewer than :data:`MIN_COMMON` (10)
  segments claims no difference, whatever its p-value (:func:`rank_groups`,
  :meth:`MetricSignificance.significant`): with two judged sentences each, the
  bootstrap's p-values are an artefact of resampling two numbers.

**Human metrics** (seed 001 §2.2–2.3) are compared on the segments both systems have
judgments for: :meth:`Bootstrap.compare` takes a mask per system, and for a pair
``(a, b)`` both the real difference and each sample's difference use only the rows in
``mask_a & mask_b``. The resampling unit stays the corpus segment (the same index
matrix), and each sample's statistic is the difference on the resampled segments both
systems judged. A system's own figure and interval use all its judged segments; a
sample that drew none of them has no score and is left out of the interval's order
statistics (a rate of nothing is not 0 %).

**Rank groups** (:func:`rank_groups`): order the systems best first (score descending if
higher is better, else ascending; ties keep the input order; no score last). The best
system opens group 1 and is its *leader*. Each next system joins the current group
unless it is significantly different (``p < alpha``) from that group's leader, in which
case it opens the next group and becomes its leader. Comparing with the leader only
makes the rule well defined when significance is not transitive (A ≈ B, B ≈ C, A ≠ C
gives A, B in group 1 and C in group 2, even though B ≈ C). A p-value of NaN (no
common segment) is not significant, nor is any pair compared on fewer than
:data:`MIN_COMMON` segments. A system without a score (no segment to score it on) gets
group 0: not ranked. When no pair of scored systems has :data:`MIN_COMMON` segments in
common, every scored system is in group 1 (:attr:`MetricSignificance.too_few`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from metrics.claims import UNBOUNDED
from metrics.randomization import randomization_p_value, randomization_swaps
from metrics.ranking import (
    DEFAULT_ALPHA,
    MIN_COMMON,
    NO_INTERVAL,
    UNRANKED,
    IntArray,
    Interval,
    MetricSignificance,
    SystemFigure,
    Verdict,
    _check_alpha,
    most_in_common,
    order_systems,
    rank_groups,
)
from metrics.resampling import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    BoolArray,
    ScoreFn,
    check_samples_and_seed,
    check_segments,
    p_values_from_samples,
    scores_of,
)
from metrics.stats import FloatArray, format_signature

#: The rank rules and result types live in :mod:`metrics.ranking`, approximate
#: randomization in :mod:`metrics.randomization` and what the tests share in
#: :mod:`metrics.resampling`; they are imported from here as well, beside the bootstrap.
__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "MIN_COMMON",
    "NO_INTERVAL",
    "UNRANKED",
    "Bootstrap",
    "Interval",
    "MetricSignificance",
    "ScoreFn",
    "SystemFigure",
    "Verdict",
    "bootstrap_indices",
    "most_in_common",
    "order_systems",
    "p_values_from_samples",
    "paired_bootstrap",
    "percentile_interval",
    "randomization_p_value",
    "randomization_swaps",
    "rank_groups",
    "resample_counts",
    "rows_by_segment",
]

# ----------------------------------------------------------------------------- helpers


def _check_min_common(min_common: int) -> None:
    if isinstance(min_common, bool) or not isinstance(min_common, int) or min_common < 1:
        raise ValueError(f"min_common={min_common!r} must be a positive integer")


def bootstrap_indices(
    n_segments: int, n_samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED
) -> IntArray:
    """The (B × n) resampling index matrix, drawn exactly as sacreBLEU draws it.

    ``np.random.default_rng(seed).choice(n_segments, size=(n_samples, n_segments),
    replace=True)`` (``sacrebleu.significance._paired_bs_test``), so the same seed gives
    the same resampled test sets here and there.
    """
    check_segments(n_segments)
    check_samples_and_seed(n_samples, seed)
    rng = np.random.default_rng(seed)
    idx = rng.choice(n_segments, size=(n_samples, n_segments), replace=True)
    return cast(IntArray, np.asarray(idx, dtype=np.int64))


def resample_counts(indices: IntArray, n_segments: int) -> FloatArray:
    """``C[b, t]``: how often segment t is drawn in sample b (B × n, float64).

    ``C @ stats`` equals ``stats[indices].sum(axis=1)`` (exactly for integer counts) but
    is one matrix product instead of a (B × n × k) gather.
    """
    idx = np.asarray(indices, dtype=np.int64)
    if idx.ndim != 2:
        raise ValueError(f"indices of shape {idx.shape}: expected (samples, segments)")
    if idx.size and (idx.min() < 0 or idx.max() >= n_segments):
        raise ValueError(f"indices outside 0…{n_segments - 1}")
    n_samples = idx.shape[0]
    flat = (idx + (np.arange(n_samples, dtype=np.int64) * n_segments)[:, None]).ravel()
    counts = np.bincount(flat, minlength=n_samples * n_segments)
    return counts.reshape(n_samples, n_segments).astype(np.float64)


def percentile_interval(
    samples: FloatArray, bounds: tuple[float, float] = UNBOUNDED
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(low, high, mean) of the 95% percentile interval over the last axis.

    ``low`` and ``high`` are the order statistics ``⌊m/40⌋`` and ``m − ⌊m/40⌋ − 1`` of
    the ``m`` defined (non-NaN) samples — with every sample defined, the two that
    sacreBLEU's ``estimate_ci`` reads — clipped to ``bounds``; ``mean`` is the mean of
    the defined samples (sacreBLEU's μ, summed in the same sorted order). No defined
    sample: NaN, NaN, NaN.
    """
    # sorted in a C-ordered copy: the mean's sum then runs in one order whatever the
    # samples' memory layout (a sum over a strided axis adds in another order)
    ordered = np.sort(np.ascontiguousarray(samples, dtype=np.float64), axis=-1)  # NaN last
    defined = (~np.isnan(ordered)).sum(axis=-1)
    lower = defined // 40
    upper = np.maximum(defined - lower - 1, 0)
    low = np.take_along_axis(ordered, lower[..., None], axis=-1)[..., 0]
    high = np.take_along_axis(ordered, upper[..., None], axis=-1)[..., 0]
    with np.errstate(invalid="ignore"):
        total = np.where(np.isnan(ordered), 0.0, ordered).sum(axis=-1)
        mean = np.where(defined > 0, total / np.maximum(defined, 1), np.nan)
    lowest, highest = bounds
    none = defined == 0
    low = np.where(none, np.nan, np.clip(low, lowest, highest))
    high = np.where(none, np.nan, np.clip(high, lowest, highest))
    return low, high, mean


def rows_by_segment(
    rows: FloatArray | Sequence[Sequence[float]],
    segment_ids: Sequence[int] | IntArray,
    n_segments: int,
) -> tuple[FloatArray, BoolArray]:
    """Judgment rows (one per judgment) → (segments × k statistics, judged-segment mask).

    Several judgments of the same candidate (two judges) are summed into its segment's
    row, which is what summing sufficient statistics means (a rate over both). Segments
    without a judgment get a zero row and ``False`` in the mask.
    """
    arr = np.asarray(rows, dtype=np.float64)
    ids = np.asarray(segment_ids, dtype=np.int64)
    if arr.ndim != 2:
        raise ValueError(f"rows of shape {arr.shape}: expected (judgments, k)")
    if ids.shape != (arr.shape[0],):
        raise ValueError(f"{ids.size} segment ids for {arr.shape[0]} rows: one id per row")
    if ids.size and (ids.min() < 0 or ids.max() >= n_segments):
        bad = ids[(ids < 0) | (ids >= n_segments)][0]
        raise ValueError(f"segment id {bad} is outside 0…{n_segments - 1}")
    # per column, each segment's rows added in their order, as ``np.add.at`` adds them
    # (the same sums to the bit), in a fifth of its time
    columns = [
        np.bincount(ids, weights=arr[:, j], minlength=n_segments) for j in range(arr.shape[1])
    ]
    stats = np.zeros((n_segments, arr.shape[1]), dtype=np.float64)
    for j, column in enumerate(columns):
        stats[:, j] = column
    mask = np.zeros(n_segments, dtype=np.bool_)
    mask[ids] = True
    return stats, mask


class Bootstrap:
    """One resampling of a corpus of ``n_segments`` segments, reused for every metric.

    Drawing the index matrix once (and turning it into counts once) is what makes the
    dashboard's "all systems × all metrics" cheap: each metric then costs one matrix
    product and one vectorised ``score_from_stats`` call.
    """

    def __init__(
        self, n_segments: int, n_samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED
    ) -> None:
        self.indices = bootstrap_indices(n_segments, n_samples, seed)
        self.counts = resample_counts(self.indices, n_segments)
        self.n_segments = n_segments
        self.n_samples = n_samples
        self.seed = seed

    def signature(
        self, *, alpha: float = DEFAULT_ALPHA, common: bool = False, min_common: int = MIN_COMMON
    ) -> str:
        """``test:paired-bs|bs:1000|seed:12345|alpha:0.05|ci:95%-pct|min-n:10|…|version:…``
        (``ci:95%-pct``: the percentile interval; ``min-n``: the fewest common segments for
        a claimed difference)."""
        parts: dict[str, object] = {
            "test": "paired-bs",
            "bs": self.n_samples,
            "seed": self.seed,
            "alpha": f"{alpha:g}",
            "ci": "95%-pct",
            "min-n": min_common,
        }
        if common:
            parts["pairs"] = "common-segments"
        return format_signature(parts)

    def _stack(
        self, stats: Mapping[str, FloatArray | Sequence[Sequence[float]]]
    ) -> tuple[list[str], FloatArray]:
        if len(stats) == 0:
            raise ValueError("no system to compare: stats is empty")
        names = [str(name) for name in stats]
        arrays = [np.asarray(v, dtype=np.float64) for v in stats.values()]
        for name, arr in zip(names, arrays, strict=True):
            if arr.ndim != 2 or arr.shape[0] != self.n_segments:
                raise ValueError(
                    f"stats of {name!r} have shape {arr.shape}: expected "
                    f"({self.n_segments}, k), one row per segment"
                )
        widths = {arr.shape[1] for arr in arrays}
        if len(widths) != 1:
            raise ValueError(f"systems' statistics have different widths {sorted(widths)}")
        return names, np.stack(arrays)

    def _masks(self, names: list[str], masks: Mapping[str, Any]) -> BoolArray:
        missing = [n for n in names if n not in masks]
        if missing:
            raise ValueError(f"no mask for system {missing[0]!r}")
        out = np.empty((len(names), self.n_segments), dtype=np.bool_)
        for i, name in enumerate(names):
            m = np.asarray(masks[name])
            if m.shape != (self.n_segments,) or m.dtype != np.bool_:
                raise ValueError(
                    f"mask of {name!r} has shape {m.shape} and dtype {m.dtype}: expected "
                    f"({self.n_segments},) booleans"
                )
            out[i] = m
        return out

    def sample_scores(self, stats: FloatArray, score_from_stats: ScoreFn) -> FloatArray:
        """Scores of (S, n, k) statistics on every sample: (S, B)."""
        n_sys, n, k = stats.shape
        flat = stats.transpose(1, 0, 2).reshape(n, n_sys * k)
        sums = (self.counts @ flat).reshape(self.n_samples, n_sys, k).transpose(1, 0, 2)
        return scores_of(score_from_stats, sums)

    def _on_the_same_segments(
        self, x: FloatArray, score_from_stats: ScoreFn, mask: Any
    ) -> tuple[FloatArray, Any, FloatArray, FloatArray, Any, FloatArray]:
        """Every pair is compared on the same segments (all of them, or one mask shared
        by every system): one score per system and sample. Returns the scores, each
        system's segment count, the real and sampled absolute differences of every pair,
        the pairs' common segment counts and each system's own samples."""
        n_sys, n, _ = x.shape
        own_n = np.full(n_sys, n if mask is None else int(mask[0].sum()), dtype=np.int64)
        scores = scores_of(score_from_stats, x.sum(axis=1))
        samples = self.sample_scores(x, score_from_stats)
        real = np.abs(scores[:, None] - scores[None, :])
        if own_n[0] == 0:
            real = np.full_like(real, np.nan)
        diffs = np.abs(samples[:, None, :] - samples[None, :, :])
        common = np.broadcast_to(own_n[0], (n_sys, n_sys)).copy()
        return scores, own_n, real, diffs, common, samples

    def _on_common_segments(
        self, x: FloatArray, score_from_stats: ScoreFn, mask: Any
    ) -> tuple[FloatArray, Any, FloatArray, FloatArray, Any, FloatArray]:
        """Each pair is compared on the segments both systems have (human metrics):
        per pair its own totals and samples (the module doc). Same returns as
        :meth:`_on_the_same_segments`."""
        n_sys, n, k = x.shape
        own_n = mask.sum(axis=1).astype(np.int64)
        scores = scores_of(score_from_stats, x.sum(axis=1))
        pair_mask = (mask[:, None, :] & mask[None, :, :]).astype(np.float64)  # a, b, t
        # pair_totals[a, b] = Σ_t over common(a, b) of stats_a[t]
        pair_totals = np.einsum("abt,atk->abk", pair_mask, x)
        pair_scores = scores_of(score_from_stats, pair_totals)
        real = np.abs(pair_scores - pair_scores.T)
        # sums[a, b, sample] = Σ_t C[sample, t] · stats_a[t] · mask_b[t], one product.
        y = x.transpose(1, 0, 2)[:, :, :, None] * mask.T[:, None, None, :].astype(np.float64)
        counts, rows = self.counts, y.reshape(n, -1)
        judged = mask.any(axis=0)
        if not judged.all() and bool(np.all(np.floor(x) == x)):
            # a segment nobody judged adds nothing: left out (early in a campaign, most
            # of them), for whole-number statistics only (counts, SSER's percents),
            # whose sums are exact in any order, so that no figure moves by a bit
            kept = np.flatnonzero(judged)
            counts, rows = counts[:, kept], rows[kept]
        sums = (counts @ rows).reshape(self.n_samples, n_sys, k, n_sys)
        pair_samples = scores_of(score_from_stats, sums.transpose(1, 3, 0, 2))
        diffs = np.abs(pair_samples - pair_samples.transpose(1, 0, 2))
        common = pair_mask.sum(axis=2).astype(np.int64)
        own_samples = pair_samples[np.arange(n_sys), np.arange(n_sys)]
        real = np.where(common > 0, real, np.nan)
        return scores, own_n, real, diffs, common, own_samples

    def compare(
        self,
        stats: Mapping[str, FloatArray | Sequence[Sequence[float]]],
        score_from_stats: ScoreFn,
        *,
        higher_is_better: bool,
        masks: Mapping[str, Any] | None = None,
        metric: str = "",
        alpha: float = DEFAULT_ALPHA,
        bounds: tuple[float, float] = UNBOUNDED,
        min_common: int = MIN_COMMON,
    ) -> MetricSignificance:
        """Scores, intervals, pairwise p-values and rank groups of one metric, and each
        system's score on every sample (:attr:`MetricSignificance.samples`).

        ``stats`` maps each system to its (segments × k) statistics; ``masks`` (optional)
        to the boolean vector of segments it has a row for (human metrics): pairs are
        then compared on their common segments (module doc). ``bounds`` is the range of
        the metric's scores (:attr:`metrics.stats.MetricInfo.bounds`), which intervals
        never leave; pairs with fewer than ``min_common`` common segments claim no
        difference.
        """
        _check_alpha(alpha)
        _check_min_common(min_common)
        names, x = self._stack(stats)
        mask = None if masks is None else self._masks(names, masks)
        if mask is not None:
            x = np.where(mask[:, :, None], x, 0.0)
        if mask is None or bool((mask == mask[0]).all()):
            paired = self._on_the_same_segments(x, score_from_stats, mask)
        else:
            paired = self._on_common_segments(x, score_from_stats, mask)
        scores, own_n, real, diffs, common, own_samples = paired
        p = p_values_from_samples(diffs, real)
        np.fill_diagonal(p, 1.0)
        scores = np.where(own_n > 0, scores, np.nan)
        if mask is not None:
            # a sample that drew none of a system's judged segments has no score
            drawn = self.counts @ mask.T.astype(np.float64)  # samples × systems
            own_samples = np.where(drawn.T > 0, own_samples, np.nan)
        return metric_significance(
            names,
            scores,
            own_n,
            own_samples,
            p,
            common,
            self,
            metric=metric,
            higher_is_better=higher_is_better,
            bounds=bounds,
            alpha=alpha,
            min_common=min_common,
            signature=self.signature(alpha=alpha, common=mask is not None, min_common=min_common),
        )


def metric_significance(
    names: Sequence[str],
    scores: FloatArray,
    own_n: IntArray,
    own_samples: FloatArray,
    p: FloatArray,
    common: IntArray,
    bootstrap: Bootstrap,
    *,
    metric: str,
    higher_is_better: bool,
    bounds: tuple[float, float],
    alpha: float,
    min_common: int,
    signature: str,
) -> MetricSignificance:
    """What a paired bootstrap concludes from its samples, one rule for every test that
    resamples the corpus's sentences (:meth:`Bootstrap.compare`, and
    :func:`metrics.annotators.judge_aware` with each judge's normalisation refitted):
    each system's ``scores`` on its ``own_n`` segments with the percentile interval of
    its ``own_samples`` (systems × samples, NaN: none of its segments drawn) inside
    ``bounds``, the pairs' p-values ``p`` on their ``common`` segments, the rank groups
    of the leader rule."""
    lows, highs, means = percentile_interval(own_samples, bounds)
    groups = rank_groups(
        [float(s) for s in scores],
        p,
        higher_is_better=higher_is_better,
        alpha=alpha,
        n_common=common,
        min_common=min_common,
    )
    figures = tuple(
        SystemFigure(
            system=names[i],
            score=float(scores[i]),
            n=int(own_n[i]),
            interval=(
                Interval(float(lows[i]), float(highs[i]), float(means[i]))
                if own_n[i] > 0
                else NO_INTERVAL
            ),
            group=groups[i],
        )
        for i in range(len(names))
    )
    return MetricSignificance(
        metric=metric,
        higher_is_better=higher_is_better,
        figures=figures,
        p_values=tuple(tuple(float(v) for v in row) for row in p),
        n_common=tuple(tuple(int(v) for v in row) for row in common),
        n_samples=bootstrap.n_samples,
        seed=bootstrap.seed,
        alpha=alpha,
        signature=signature,
        min_common=min_common,
        samples=own_samples,
    )


def paired_bootstrap(
    stats: Mapping[str, FloatArray | Sequence[Sequence[float]]],
    score_from_stats: ScoreFn,
    *,
    higher_is_better: bool,
    masks: Mapping[str, Any] | None = None,
    metric: str = "",
    n_samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    bounds: tuple[float, float] = UNBOUNDED,
    min_common: int = MIN_COMMON,
) -> MetricSignificance:
    """One metric's paired bootstrap with a fresh :class:`Bootstrap` (see its ``compare``).

    For several metrics on the same corpus build one :class:`Bootstrap` and call
    ``compare`` per metric: the index matrix is then drawn once.
    """
    if len(stats) == 0:
        raise ValueError("no system to compare: stats is empty")
    first = np.asarray(next(iter(stats.values())))
    if first.ndim != 2:
        raise ValueError(f"stats of shape {first.shape}: expected (segments, k)")
    return Bootstrap(first.shape[0], n_samples, seed).compare(
        stats,
        score_from_stats,
        higher_is_better=higher_is_better,
        masks=masks,
        metric=metric,
        alpha=alpha,
        bounds=bounds,
        min_common=min_common,
    )
