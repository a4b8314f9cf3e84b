"""A system's full-corpus human score, estimated from the judged segments with the help of
automatic metrics known on every segment.

A campaign judges n of a corpus's N segments; the figure wanted is the mean human score
``μ = (1/N) Σ_i y_i`` over *all* N. The plain mean of the judged segments estimates it
without bias, but every segment also has automatic scores ``x_i`` (chrF, BLEU, COMET …),
known on all N: where they move with the human score, the part of the judged mean's
error they predict can be taken out. That is a *control variate* (Chaganty, Mussmann,
Liang 2018, "The price of debiasing automatic metrics in natural language evaluation":
the optimal unbiased combination saves a share ρ² of the judgments), the *regression
estimator* of survey sampling (Cochran 1977, *Sampling Techniques*, ch. 7), and, with a
weight tuned on the data, prediction-powered inference (PPI++: Angelopoulos, Duchi,
Zrnic 2023, "PPI++: Efficient prediction-powered inference"). Saldías, Foster, Freitag,
Tan (2022) measured up to 20 % lower error on WMT MQM data this way.

**The estimator** (:func:`fit`). With the judged set S (n segments), ``ȳ`` and ``x̄`` its
means and ``X̄`` the corpus mean of the covariates (p of them at once, by regression):

    μ̂ = ȳ + κ β̂ᵀ (X̄ − x̄),   β̂ = A⁻¹ Σ_S (x_i − x̄)(y_i − ȳ),   A = Σ_S (x_i − x̄)(x_i − x̄)ᵀ

β̂ is the least-squares slope on the judged segments (PPI++'s tuned weight λ̂; their
factor 1/(1 + n/N) is absent because the covariates' mean here is the corpus's own,
which contains the judged segments, rather than an independent unlabelled sample),
shrunk by ``κ = (1 − 1/F)⁺`` with F the regression's F statistic: the share of the
explained variance R² that chance would not explain (adjusted R² over R²; a
positive-part Stein-type rule). A strong covariate keeps its slope (κ → 1), one that
explains no more than chance gets none; on WMT's MQM data this halves what a weak
covariate costs on small samples and leaves the gains of strong ones. The variance,
conditional on the covariates, is that of a regression prediction at X̄ for the
unjudged segments (a finite population: the target is this corpus's mean):

    v̂ = s² [ (1 − n/N)/n + (X̄ − x̄)ᵀ A⁻¹ (X̄ − x̄) ],   s² = Σ_S e_i² / (n − 1 − p)

with ``e_i`` the residuals of the shrunk slopes. The second term and the degrees of
freedom n − 1 − p are the small-sample correction: they charge the estimator for
learning β̂ from n segments, so a useless covariate makes v̂ larger than the plain
mean's ``s_y²(1 − n/N)/n``. Without covariates the formula *is* the plain mean's. A
perfect covariate (y exactly linear in x) leaves no residual: κ = 1, μ̂ is the corpus
mean exactly, with v̂ = 0.

**The guard.** The regression is used only where its estimated variance is below the
plain mean's (:func:`guarded`); otherwise the plain mean is reported (method
:data:`PLAIN`). With the shrinkage and v̂'s small-sample correction, a covariate with no
relation to the human score loses against the plain mean most of the time (nine times
in ten at n = 40), and when it wins it moves the estimate by a small fraction of its
standard error (1.5 % of it on average): the guarded estimate is never worse than the
plain mean in expectation beyond that noise. On WMT's MQM data it was never measurably
worse with n ≥ 71 judged segments of newstest2020, and 0.2–0.6 % worse with weak lexical
covariates on 26–106 of TED's skewed scores (``bench/estimate.py``, ``docs/estimate.md``).

**Documents as strata.** Segments of one document share a topic, a style and a
difficulty. With ``documents``, documents make strata h (``N_h`` segments,
``W_h = N_h/N``, ``n_h`` judged). Where the judged segments are not spread over the
documents in proportion to their sizes (below), the estimator is the *combined*
regression estimator (Cochran §7.10) with a level per stratum and one slope β̂ from the
within-stratum deviations (A_w their cross-products):

    μ̂ = Σ_h W_h [ȳ_h + κ β̂ᵀ (X̄_h − x̄_h)]
    v̂ = Σ_h W_h² (1 − n_h/N_h) s_h²/n_h + s² Dᵀ A_w⁻¹ D,   D = Σ_h W_h (X̄_h − x̄_h)

with ``s_h²`` the residual variance within stratum h (its n_h − 1 degrees of freedom
shared with the slopes in proportion) and ``s²`` the pooled one on n − H − p. Each
stratum keeps its own spread because strata differ in it (a merged stratum holding an
unjudged document carries the spread between documents, a single long document only
its own); the interval's degrees of freedom are Satterthwaite's for that sum (at most
n − H − p). Without documents this is the formula above.

A stratum needs a judged segment for its level and a second one for its spread, and a
news document has about ten segments, so at 10 % judged most documents have none or
one. Strata of two judged segments are not enough either: each stands for its own share
of the corpus, and weights that swing from stratum to stratum cost more than documents
bring (on WMT20 MQM, documents explain little of the score: −4 % error at 5 % judged
with two per stratum, ±1.5 % with five; ``bench/estimate.py``). So
:func:`collapse_strata` (:mod:`metrics.strata`) merges documents until every merged
stratum has ``MIN_JUDGED_PER_STRATUM`` (5) judged segments, and a stratum that takes in
an unjudged document also judged segments from two documents (that document's level is then
estimated from more than one other's, and the spread between them is in s_h²). Merged
documents should be alike, so they merge in the order of their mean first covariate over
the corpus (:func:`by_level`: known on every segment, so the order owes nothing to the
judged scores), or in corpus order without covariates; a short tail joins the stratum
before it. Every stratum costs a degree of freedom. With one judged segment per
document the merged strata still hold the spread between their documents, so the
interval is conservative there ("collapsed strata", Cochran ch. 5A): documents pay once
most have five judged segments. The guard compares the stratified estimate with the
plain mean, as above (methods :data:`STRATIFIED_REGRESSION`, :data:`STRATIFIED`).

**Proportional allocation** (:func:`proportional_allocation`). Weighing the strata by
``W_h`` corrects a judged set whose documents are off their shares (a file judged in
order: its first documents only), and costs noise where they are not: when every
document has its share ``n·N_d/N`` of the judged segments up to rounding, ``W_h`` and
``n_h/n`` differ by that rounding alone, ``Σ_h W_h ȳ_h`` and ``ȳ`` coincide up to it
(the sample is self-weighting, Cochran ch. 5, proportional allocation), and weighing a
merged stratum's few judged segments by ``W_h`` only moves the estimate at random (on
WMT20 MQM up to 1.2 % more error than the plain mean without covariates, 3.4 points of
gain lost at ρ = 0.7: ``docs/estimate.md``). So where every document's judged count is
within ``PROPORTIONAL_TOLERANCE`` (one segment) of its share — what the judge queue's order
keeps at every prefix (``annotation/queue_order.py``, the quota method) — the estimate
is the one without documents (the guarded regression above, or the plain mean: exactly
what :func:`estimate_mean` gives without ``documents``), and its variance is the
stratified one over the same merged strata (:func:`with_stratified_variance`), from that
estimate's residuals ``e_i = y_i − κβ̂ᵀx_i`` taken within each stratum:

    v̂ = Σ_h W_h² (1 − n_h/N_h) s_{e,h}²/n_h + s_w² Dᵀ A⁻¹ D,   D = X̄ − x̄

(``s_{e,h}²`` and the pooled ``s_w²`` on n − H − p degrees of freedom as above, A the
regression's own cross-products, Satterthwaite's degrees of freedom). That is the
variance of the combined regression estimate under stratified random sampling (Cochran
§7.10; any fixed slope will do there, here the one learnt without strata, whose learning
the second term charges; Särndal, Swensson & Wretman 1992, *Model Assisted Survey
Sampling*, on the regression estimator under stratified designs): the stratified draw has
taken out the spread between strata, which the unstratified v̂ counts, so intervals
without strata over-cover on such a draw (up to 97.8 % on WMT20 zh-en). The methods are
:data:`REGRESSION_STRATIFIED_VARIANCE` and :data:`PLAIN_STRATIFIED_VARIANCE`; the guard
weighs the regression against the plain mean by their variances without strata, so the
point estimate is the same whatever the documents. Why one segment: that is what rounding
a share costs, the queue never goes further, and a simple random sample of a news corpus
(documents of about ten segments) is 1.5 segments off or more in nearly every draw. The
test reads the allocation, not how the segments were chosen: with fewer judged segments
than documents, one segment from each of the *first* documents passes it too; that the
queue draws the documents in a random order is what makes such a prefix fair.

**Intervals**: Student's ``μ̂ ± t_{df, (1+c)/2} √v̂`` (n − 1 degrees of freedom for the
plain mean, n − 1 − p for the regression, Satterthwaite's over strata), corrected for the
estimate's skew by Hall's (1992) transformation (:func:`metrics.regression.skew_corrected`):
with ``a = κ̂₃/v̂^{3/2}`` the estimate's skewness, the bounds are ``μ̂ − √v̂ g⁻¹(±t)``,
``g⁻¹(w) = (3/a)[(1 + a(w − a/6))^{1/3} − 1]``. The third cumulant is that of a
stratified mean of the residuals, ``κ̂₃ = m₃ Σ_h W_h³ (1 − f_h)(1 − 2f_h)/n_h²`` with
``m₃ = Σ e³/n`` (one stratum: ``m₃ (1 − f)(1 − 2f)/n²``; the residuals of the plain mean
are the scores' deviations); under a proportional allocation the estimate's own, as its
point is. Why: MQM's scores are skewed (most segments 0, a few −5, −10 or −25), and on a
few dozen judged segments Student's interval misses on the tail's side far more often
than on the other (91.3–93.5 % coverage on WMT21 TED at 26–53 segments, nearly every
miss an interval lying above the truth); Hall's brings it to 94.8–97.5 %, the two tails
even. The correction fades as 1/√n and vanishes at half the corpus judged. The tests'
simulations check the coverage. Given the human metric's range (``bounds``), both
intervals are cut to it: a t interval is symmetric about its mean before the skew
correction and can reach below 0 % or above 100 %, where the mean over the corpus cannot
lie, so the cut loses no coverage (:func:`metrics.claims.within`). On fewer judged
segments than :data:`metrics.claims.MIN_SENTENCES` nothing beyond the plain mean is
claimed (:attr:`Estimate.too_few`): at n = 2, t on one degree of freedom is 12.7.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from metrics.claims import UNBOUNDED, shortfall, within
from metrics.correlation import BoolArray, IntArray, Values, pearson
from metrics.distributions import t_sf
from metrics.regression import DEFAULT_CONFIDENCE as DEFAULT_CONFIDENCE  # the estimate's too
from metrics.regression import (
    Fits,
    check_confidence,
    fit,
    guarded,
    with_stratified_variance,
)
from metrics.stats import FloatArray
from metrics.strata import (
    by_level,
    collapse_strata,
    document_codes,
    min_judged_per_stratum,
    proportional_allocation,
)

#: The plain mean of the judged segments (no covariate, or the guard kept it).
PLAIN = "plain"
#: The regression (control-variate) estimator on the covariates.
REGRESSION = "regression"
#: The combined regression estimator with documents as strata.
STRATIFIED_REGRESSION = "stratified regression"
#: Documents as strata, no covariate.
STRATIFIED = "stratified"
#: The regression without strata, its variance over the strata (proportional allocation).
REGRESSION_STRATIFIED_VARIANCE = "regression, stratified variance"
#: The plain mean, its variance over the strata (proportional allocation).
PLAIN_STRATIFIED_VARIANCE = "plain, stratified variance"


#: A judged set without spread: its interval has no width, which is no certainty.
NO_SPREAD = (
    "all {n} judged scores are {score:g}: the interval has no width because there is no "
    "spread to estimate it from, not because the mean over the corpus is known"
)


@dataclass(frozen=True)
class Interval:
    """A mean with its ``confidence`` interval, the ``n`` judged segments it rests on,
    its estimated variance and that variance's degrees of freedom."""

    mean: float
    low: float
    high: float
    n: int
    variance: float
    df: float

    def as_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def p_value(interval: Interval) -> float:
    """The two-sided p-value of "the mean ``interval`` estimates is 0", by the t statistic
    its interval rests on (``mean / √variance`` on its degrees of freedom): for the
    estimate of a difference between two systems, a paired test of that difference (the
    dashboard's rank groups from the estimates). No spread: 0 for a mean other than 0,
    else 1; no degrees of freedom: 1 (nothing can be claimed)."""
    if interval.variance == 0.0:
        return 1.0 if interval.mean == 0.0 else 0.0
    if not (interval.df > 0 and math.isfinite(interval.variance)):
        return 1.0
    t = abs(interval.mean) / math.sqrt(interval.variance)
    return min(1.0, 2.0 * t_sf(t, interval.df))


@dataclass(frozen=True)
class Covariate:
    """An automatic metric as a covariate: its slope in the estimate (0 when the guard
    kept the plain mean or it was constant) and its Pearson r with the human score on the
    judged segments (NaN when either side is constant there)."""

    name: str
    coefficient: float
    correlation: float


@dataclass(frozen=True)
class Estimate:
    """The plain mean of the judged segments and the estimate of the full-corpus mean.

    ``method`` is :data:`PLAIN`, :data:`REGRESSION`, :data:`STRATIFIED_REGRESSION`,
    :data:`STRATIFIED`, :data:`REGRESSION_STRATIFIED_VARIANCE` or
    :data:`PLAIN_STRATIFIED_VARIANCE`; ``variance_ratio`` is the estimate's variance over the plain
    mean's (1 where the plain mean is kept: the share of judgments the estimate saves is
    ``1 − variance_ratio``), ``candidate_ratio`` the same for the regression the guard
    weighed (≥ 1 where it kept the plain mean; None when there was none to weigh or it
    could not be fitted). ``strata`` counts the strata of merged documents (1 without
    documents); ``proportional`` says whether the judged segments' allocation over the
    documents was proportional (None without documents), which chose between the last
    two methods and the stratified ones.
    """

    plain: Interval
    estimate: Interval
    method: str
    variance_ratio: float
    candidate_ratio: float | None
    covariates: tuple[Covariate, ...]
    strata: int
    corpus_size: int
    confidence: float
    notes: tuple[str, ...] = field(default=())
    proportional: bool | None = None

    @property
    def too_few(self) -> str:
        """ "too few judged segments (n = 3)" when the estimate rests on fewer judged
        segments than :data:`metrics.claims.MIN_SENTENCES`, else "": then neither interval
        nor the estimate is claimed (:meth:`as_json`), only the plain mean of what was
        judged."""
        return shortfall(self.plain.n, "judged segments")

    def as_json(self) -> dict[str, Any]:
        """``{"plain": {mean, low, high, n}, "estimate": {mean, low, high, n, method,
        variance_ratio, …}, "too_few"}`` (the command line's ``--json``); where
        :attr:`too_few` says so, the intervals and the estimate's mean are ``null``."""
        plain, estimate = self.plain.as_json(), self.estimate.as_json()
        if self.too_few:
            plain.update(low=None, high=None)
            estimate.update(mean=None, low=None, high=None)
        return {
            "plain": plain,
            "estimate": {
                **estimate,
                "method": self.method,
                "variance_ratio": self.variance_ratio,
                "candidate_variance_ratio": _finite_or_none(self.candidate_ratio),
                "df": self.estimate.df,
                "strata": self.strata,
                "proportional": self.proportional,
                "covariates": {
                    c.name: {
                        "coefficient": c.coefficient,
                        "correlation": _finite_or_none(c.correlation),
                    }
                    for c in self.covariates
                },
            },
            "corpus_size": self.corpus_size,
            "confidence": self.confidence,
            "too_few": self.too_few,
        }


def _finite_or_none(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def estimate_mean(
    judged: Sequence[int] | IntArray,
    scores: Values,
    auto: Mapping[str, Values] | None = None,
    *,
    documents: Sequence[Hashable] | None = None,
    corpus_size: int | None = None,
    confidence: float = DEFAULT_CONFIDENCE,
    bounds: tuple[float, float] = UNBOUNDED,
) -> Estimate:
    """The full-corpus mean human score of one system, from the human ``scores`` of the
    ``judged`` segments (0-based corpus indices), with the automatic metrics ``auto``
    (name → one score per corpus segment) as covariates and, given ``documents`` (one id
    per corpus segment), documents as strata. The corpus size is the length of the
    ``auto`` columns or of ``documents`` (or ``corpus_size`` when neither is given).
    ``bounds``: the range the human scores lie in (:attr:`~metrics.stats.MetricInfo.
    bounds`), which both intervals are cut to (:func:`metrics.claims.within`: the mean
    lies in it too, so the cut interval covers it as often). A ``ValueError`` names any
    bad input."""
    check_confidence(confidence)
    auto = dict(auto or {})
    size = _corpus_size(auto, documents, corpus_size)
    index, y = _judged(judged, scores, size)
    columns, spreads, notes = _covariates(auto)
    z = np.column_stack(list(columns.values())) if columns else np.zeros((size, 0))
    codes = None if documents is None else document_codes(documents)
    found = fit_judged(y, z, index, codes)
    plain, chosen = found.plain, found.chosen
    if len(index) < size and np.all(y == y[0]):
        notes.append(NO_SPREAD.format(n=len(index), score=float(y[0])))
    candidate_ratio = (
        None
        if found.candidate is None
        else _ratio(float(found.candidate.variance[0]), float(plain.variance[0]))
    )
    slopes = dict(zip(columns, chosen.coefficients[0].tolist(), strict=True))
    return Estimate(
        plain=_interval(plain, len(index), confidence, bounds),
        estimate=_interval(chosen, len(index), confidence, bounds),
        method=found.method,
        variance_ratio=_ratio(float(chosen.variance[0]), float(plain.variance[0])),
        candidate_ratio=candidate_ratio,
        covariates=tuple(
            Covariate(
                name,
                # back from the standardised covariate to the metric's own unit
                slopes[name] / spreads[name] if name in slopes else 0.0,
                pearson(np.asarray(values, dtype=np.float64)[index], y).value,
            )
            for name, values in auto.items()
        ),
        strata=found.strata if found.method != PLAIN else 1,
        corpus_size=size,
        confidence=confidence,
        notes=tuple(notes),
        proportional=found.proportional,
    )


@dataclass(frozen=True, eq=False)
class Judged:
    """One system's fits: the plain mean, the candidate the guard weighed (None when
    there was none: no covariate and one stratum), the fit chosen, whether that is the
    candidate, the number of strata, the ``method`` that made the chosen fit and, given
    documents, whether their allocation was proportional (None without documents)."""

    plain: Fits
    candidate: Fits | None
    chosen: Fits
    taken: bool
    strata: int
    method: str
    proportional: bool | None = None


def fit_judged(
    y: FloatArray,
    z: FloatArray,
    index: IntArray,
    codes: IntArray | None = None,
    *,
    always_reweight: bool = False,
) -> Judged:
    """The plain mean and the guarded estimate of one system from the human scores ``y``
    of the judged segments ``index``, with the covariates ``z`` (corpus segments × p,
    p ≥ 0) and, given ``codes`` (:func:`document_codes`), documents as strata merged in
    the order of the first covariate (:func:`by_level`): where the judged segments'
    allocation over the documents is proportional (:func:`proportional_allocation`), the
    estimate without strata with its stratified variance, else the strata reweighted
    (the combined estimator; ``always_reweight`` takes it in either case, which
    ``bench/estimate.py`` compares). What :func:`estimate_mean` computes once its input
    is checked; ``bench/estimate.py`` calls it thousands of times."""
    plain, candidate, chosen, taken = unstratified_fits(y[None], z[None], index)
    method = REGRESSION if taken[0] else PLAIN
    unstratified = Judged(plain, candidate, chosen, bool(taken[0]), 1, method)
    if codes is None:
        return unstratified
    order = by_level(codes, z[:, 0]) if z.shape[1] else None
    proportional = proportional_allocation(codes, index)
    variance_only = proportional and not always_reweight
    least = min_judged_per_stratum(codes, index, variance_only=variance_only)
    strata = collapse_strata(codes, index, min_judged=least, order=order)
    n_strata = int(strata.max()) + 1
    sizes = np.bincount(strata, minlength=n_strata)
    if variance_only:
        if n_strata == 1:
            return replace(unstratified, proportional=True)
        chosen = with_stratified_variance(
            unstratified.chosen, y[None], z[index][None], strata[index], sizes, z.mean(axis=0)[None]
        )
        method = REGRESSION_STRATIFIED_VARIANCE if unstratified.taken else PLAIN_STRATIFIED_VARIANCE
        return replace(
            unstratified, chosen=chosen, strata=n_strata, method=method, proportional=True
        )
    if not z.shape[1] and n_strata == 1:
        return replace(unstratified, proportional=proportional)
    totals = np.zeros((n_strata, z.shape[1]))
    np.add.at(totals, strata, z)
    means = (totals / sizes[:, None])[None]
    candidate = fit(y[None, :], z[index][None], strata[index], sizes, means)
    chosen, taken = guarded(candidate, plain)
    method = (STRATIFIED_REGRESSION if z.shape[1] else STRATIFIED) if taken[0] else PLAIN
    return Judged(plain, candidate, chosen, bool(taken[0]), n_strata, method, proportional)


def unstratified_fits(
    y: FloatArray, z: FloatArray, index: IntArray
) -> tuple[Fits, Fits | None, Fits, BoolArray]:
    """Targets judged on the same segments ``index`` at once (``y``: targets × n, their
    scores there; ``z``: targets × corpus segments × p, p ≥ 0, their covariates): the
    plain means, the regressions on ``z`` without strata (None without covariates), the
    guarded choice of each (:func:`guarded`) and where the regression was taken;
    :func:`fit_judged` without documents, for a batch (:mod:`metrics.adaptive` reads
    every system and pair of a warm-up so)."""
    batch, n, size = y.shape[0], len(index), z.shape[1]
    one = np.zeros(n, dtype=np.int64)
    plain = fit(y, np.zeros((batch, n, 0)), one, np.array([size]), np.zeros((batch, 1, 0)))
    if not z.shape[2]:
        return plain, None, plain, np.zeros(batch, dtype=bool)
    means = z.mean(axis=1)[:, None, :]
    candidate = fit(y, z[:, index], one, np.array([size]), means)
    chosen, taken = guarded(candidate, plain)
    return plain, candidate, chosen, taken


def _ratio(variance: float, plain: float) -> float:
    """``variance / plain``: 1 where both are 0 (every segment judged; the plain mean's
    variance is 0 only then)."""
    if plain == 0.0:
        return 1.0 if variance == 0.0 else math.inf
    return variance / plain


def _interval(fits: Fits, n: int, confidence: float, bounds: tuple[float, float]) -> Interval:
    lows, highs = fits.bounds(confidence)
    low, high = within(float(lows[0]), float(highs[0]), bounds)
    return Interval(
        mean=float(fits.mean[0]),
        low=low,
        high=high,
        n=n,
        variance=float(fits.variance[0]),
        df=float(fits.df[0]),
    )


def _corpus_size(
    auto: Mapping[str, Values], documents: Sequence[Hashable] | None, corpus_size: int | None
) -> int:
    """The corpus size every per-segment input agrees on."""
    lengths = {f"automatic scores {name!r}": len(values) for name, values in auto.items()}
    if documents is not None:
        lengths["documents"] = len(documents)
    if corpus_size is not None:
        lengths["corpus_size"] = corpus_size
    if not lengths:
        raise ValueError("no corpus size: give automatic scores, documents or corpus_size")
    if len(set(lengths.values())) > 1:
        found = ", ".join(f"{what} {length}" for what, length in lengths.items())
        raise ValueError(f"the per-segment inputs disagree on the corpus size: {found}")
    size = next(iter(lengths.values()))
    if size < 1:
        raise ValueError("the corpus has no segment")
    return size


def _judged(
    judged: Sequence[int] | IntArray, scores: Values, size: int
) -> tuple[IntArray, FloatArray]:
    """The judged indices and scores, checked: in range, distinct, finite, at least two."""
    index = np.asarray(judged)
    y = np.asarray(scores, dtype=np.float64)
    if index.ndim != 1 or y.ndim != 1 or len(index) != len(y):
        raise ValueError(
            f"{len(index)} judged segments but {len(y)} scores: give one score per judged segment"
        )
    if len(index) and not np.issubdtype(index.dtype, np.integer):
        raise ValueError(f"judged segments must be integer indices, got {index.dtype}")
    index = index.astype(np.int64)
    outside = np.flatnonzero((index < 0) | (index >= size))
    if len(outside):
        raise ValueError(
            f"judged segment {int(index[outside[0]])} is outside the corpus (0 … {size - 1})"
        )
    values, counts = np.unique(index, return_counts=True)
    if np.any(counts > 1):
        raise ValueError(f"segment {int(values[counts > 1][0])} is judged twice")
    bad = np.flatnonzero(~np.isfinite(y))
    if len(bad):
        raise ValueError(f"the score of segment {int(index[bad[0]])} is {y[bad[0]]}: not a number")
    if len(index) < 2:
        raise ValueError(f"{len(index)} judged segment(s): an interval needs at least two")
    return index, y


def _covariates(
    auto: Mapping[str, Values],
) -> tuple[dict[str, FloatArray], dict[str, float], list[str]]:
    """Each usable covariate standardised (mean 0, sd 1 over the corpus: the estimate does
    not change, the rank test of :func:`_pseudo_inverse` compares like with like), its
    standard deviation (to give its slope back in its own unit), and a note on each left
    out as constant."""
    out: dict[str, FloatArray] = {}
    spreads: dict[str, float] = {}
    notes: list[str] = []
    for name, values in auto.items():
        column = np.asarray(values, dtype=np.float64)
        bad = np.flatnonzero(~np.isfinite(column))
        if len(bad):
            raise ValueError(
                f"automatic scores {name!r}: segment {int(bad[0])} is {column[bad[0]]}, "
                "not a number"
            )
        spread = float(np.std(column))
        if spread == 0.0:
            notes.append(f"{name} is the same on every segment: left out")
            continue
        out[name] = (column - column.mean()) / spread
        spreads[name] = spread
    return out, spreads, notes
