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
:func:`collapse_strata` merges documents until every merged stratum has
:data:`MIN_JUDGED_PER_STRATUM` (5) judged segments, and a stratum that takes in an unjudged
document also judged segments from two documents (that document's level is then
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
gain lost at ρ = 0.7: ``docs/estimate.md``). So where every document's judged count is within
:data:`PROPORTIONAL_TOLERANCE` (one segment) of its share — what the judge queue's order
keeps at every prefix (``annotation/judging/order.py``, the quota method) — the estimate
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

**Intervals**: ``μ̂ ± t_{df, (1+c)/2} √v̂``, Student's t (n − 1 degrees of freedom for the
plain mean, n − 1 − p for the regression). The tests' simulations check the coverage.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from metrics.correlation import BoolArray, IntArray, Values, pearson
from metrics.distributions import t_quantile, t_sf
from metrics.stats import FloatArray

DEFAULT_CONFIDENCE = 0.95
#: Judged segments a stratum of merged documents needs: two would give its level and its
#: spread, five keep the strata's weights from swinging (the module's docstring).
MIN_JUDGED_PER_STRATUM = 5
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
#: How far a document's judged segments may be from its share ``n·N_d/N`` for the
#: allocation to count as proportional: one segment, what rounding a share costs.
PROPORTIONAL_TOLERANCE = 1.0
#: Eigenvalues of the covariates' cross-products below this share of the largest are
#: taken as zero: a covariate constant on the judged segments, or a copy of another,
#: adds nothing and costs no degree of freedom.
_RANK_TOLERANCE = 1e-10


@dataclass(frozen=True, eq=False)
class Fits:
    """Estimates of one or many corpus means (one per batch element): ``mean``, its
    estimated ``variance``, the degrees of freedom of that variance (0 where none
    could be estimated; the variance is then infinite) and the covariates' slopes
    (batch × p)."""

    mean: FloatArray
    variance: FloatArray
    df: FloatArray
    coefficients: FloatArray

    def bounds(self, confidence: float = DEFAULT_CONFIDENCE) -> tuple[FloatArray, FloatArray]:
        """The two-sided ``confidence`` interval of every mean: ``mean ± t·√variance``."""
        check_confidence(confidence)
        quantile = np.array([_t_quantile(confidence, d) for d in self.df.tolist()])
        with np.errstate(invalid="ignore"):
            half = np.where(self.variance == 0.0, 0.0, quantile * np.sqrt(self.variance))
        return self.mean - half, self.mean + half


def _t_quantile(confidence: float, df: float) -> float:
    """The t quantile of a two-sided interval, its degrees of freedom floored to a tenth
    (an integer from 100 on). Satterthwaite's are fractions: floored, they repeat and
    the cached quantile serves again; the interval can only widen, by less than 0.5 %
    at 5 degrees of freedom and 0.03 % from 30 on."""
    if df <= 0:
        return math.inf
    floored = math.floor(df) if df >= 100 else max(math.floor(df * 10.0) / 10.0, 0.1)
    return t_quantile((1.0 + confidence) / 2.0, floored)


def check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence {confidence!r}: must lie strictly between 0 and 1")


def fit(
    y: FloatArray,
    x: FloatArray,
    strata: IntArray,
    stratum_sizes: IntArray,
    stratum_means: FloatArray,
) -> Fits:
    """The (stratified) regression estimate of the corpus mean, for a batch at once.

    ``y`` (batch × n) are the human scores of the judged segments, ``x`` (batch × n × p)
    their covariates (p may be 0), ``strata`` (n) each judged segment's stratum
    (0 … H−1, every stratum judged at least once), ``stratum_sizes`` (H) the corpus
    segments of each stratum and ``stratum_means`` (batch × H × p) the covariates' mean
    over each stratum's corpus segments. One stratum and no covariate is the plain mean;
    the formulas are the module's. The batch shares the judged segments' strata, so one
    call serves every system of a campaign (``bench/estimate.py`` fits thousands).
    """
    y = np.asarray(y, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    n = y.shape[1]
    sizes = np.asarray(stratum_sizes, dtype=np.float64)
    counts = np.bincount(strata, minlength=len(sizes)).astype(np.float64)
    if np.any(counts == 0):
        raise ValueError(
            f"stratum {int(np.argmin(counts))} has no judged segment: collapse the strata first"
        )
    weights = sizes / sizes.sum()
    member = np.zeros((n, len(sizes)))
    member[np.arange(n), strata] = 1.0
    y_means = (y @ member) / counts
    x_means = np.einsum("bnp,nh->bhp", x, member) / counts[:, None]
    y_dev = y - y_means[:, strata]
    x_dev = x - x_means[:, strata, :]
    inverse, rank = _pseudo_inverse(np.einsum("bnp,bnq->bpq", x_dev, x_dev))
    beta = np.einsum("bpq,bnq,bn->bp", inverse, x_dev, y_dev)
    residuals = y_dev - np.einsum("bnp,bp->bn", x_dev, beta)
    beta = beta * _shrinkage(y_dev, residuals, n - len(sizes), rank)[:, None]
    residuals = y_dev - np.einsum("bnp,bp->bn", x_dev, beta)
    shift = np.einsum("h,bhp->bp", weights, np.asarray(stratum_means) - x_means)
    mean = y_means @ weights + np.einsum("bp,bp->b", beta, shift)
    variance, df = _stratified_variance(residuals, member, sizes, shift, inverse, rank)
    return Fits(mean, variance, df, beta)


def with_stratified_variance(
    found: Fits,
    y: FloatArray,
    x: FloatArray,
    strata: IntArray,
    stratum_sizes: IntArray,
    corpus_means: FloatArray,
) -> Fits:
    """The estimate ``found`` of one stratum (the plain mean or the regression: ``fit``
    with every judged segment in one stratum, its slopes ``found.coefficients``) with the
    variance it has under a proportional stratified draw over ``strata``: the
    within-stratum spread of its residuals (the module's *proportional allocation*).
    ``y``, ``x``, ``strata`` and ``stratum_sizes`` as for :func:`fit`, ``corpus_means``
    (batch × p) the covariates' corpus means."""
    y = np.asarray(y, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    n = y.shape[1]
    sizes = np.asarray(stratum_sizes, dtype=np.float64)
    counts = np.bincount(strata, minlength=len(sizes)).astype(np.float64)
    member = np.zeros((n, len(sizes)))
    member[np.arange(n), strata] = 1.0
    x_dev = x - x.mean(axis=1, keepdims=True)
    inverse, rank = _pseudo_inverse(np.einsum("bnp,bnq->bpq", x_dev, x_dev))
    residuals = y - np.einsum("bnp,bp->bn", x, found.coefficients)
    residuals = residuals - ((residuals @ member) / counts)[:, strata]  # within each stratum
    shift = np.asarray(corpus_means) - x.mean(axis=1)
    variance, df = _stratified_variance(residuals, member, sizes, shift, inverse, rank)
    return Fits(found.mean, variance, df, found.coefficients)


def _stratified_variance(
    residuals: FloatArray,
    member: FloatArray,
    sizes: FloatArray,
    shift: FloatArray,
    inverse: FloatArray,
    rank: IntArray,
) -> tuple[FloatArray, FloatArray]:
    """``Σ_h W_h² (1 − n_h/N_h) s_h²/n_h + s² Dᵀ A⁻¹ D`` and its Satterthwaite degrees of
    freedom, from the ``residuals`` (batch × n, mean 0 within each stratum), the judged
    segments' strata as a ``member`` matrix (n × H), the strata's corpus ``sizes``, the
    covariates' ``shift`` D (batch × p), A's pseudo-``inverse`` and ``rank``."""
    n, n_strata = member.shape
    counts = member.sum(axis=0)
    weights = sizes / sizes.sum()
    # degrees of freedom: n, less a level per stratum, less a slope per covariate
    df = (n - n_strata - rank).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        squares = (residuals**2) @ member
        pooled = np.where(df > 0, squares.sum(axis=1) / df, math.inf)
        # each stratum's own residual variance, its n_h − 1 degrees of freedom shared
        # with the slopes in proportion; a stratum judged once borrows the pooled one
        own_df = (counts - 1.0)[None, :] * (df / (n - n_strata))[:, None]
        own = np.where(counts > 1, squares / own_df, pooled[:, None])
        own_df = np.where(counts > 1, own_df, df[:, None])
        terms = weights**2 * (1.0 - counts / sizes) / counts * own
        slope_term = pooled * np.einsum("bp,bpq,bq->b", shift, inverse, shift)
        variance = terms.sum(axis=1) + np.where(slope_term > 0, slope_term, 0.0)
        # Satterthwaite's degrees of freedom of that sum, at most the residuals'
        pieces = (terms**2 / own_df).sum(axis=1) + np.where(slope_term > 0, slope_term**2 / df, 0.0)
        df = np.where(pieces > 0, np.minimum(variance**2 / pieces, df), df)
        variance = np.where(np.isnan(variance), math.inf, variance)
    return variance, np.maximum(df, 0.0)


def _shrinkage(y_dev: FloatArray, residuals: FloatArray, free: int, rank: IntArray) -> FloatArray:
    """The slopes' factor ``(1 − 1/F)⁺``, F the regression's F statistic on ``free``
    degrees of freedom (n less the strata): the share of R² that chance does not
    explain (adjusted R² over R²), 1 for a perfect covariate, 0 for one that explains
    less than chance would."""
    total = np.einsum("bn,bn->b", y_dev, y_dev)
    left = np.einsum("bn,bn->b", residuals, residuals)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = ((total - left) / rank) / (left / (free - rank))
        factor = np.where(left <= 0.0, 1.0, 1.0 - 1.0 / f)
    return np.where((rank > 0) & (free > rank) & (total > left), np.clip(factor, 0.0, 1.0), 0.0)


def _pseudo_inverse(a: FloatArray) -> tuple[FloatArray, IntArray]:
    """The pseudo-inverse and rank of each symmetric positive semi-definite p × p matrix of
    a batch, from one eigendecomposition, so that rank and inverse agree."""
    batch, p = a.shape[0], a.shape[1]
    if p == 0:
        return np.zeros((batch, 0, 0)), np.zeros(batch, dtype=np.int64)
    values, vectors = np.linalg.eigh(a)
    keep = values > _RANK_TOLERANCE * np.maximum(values.max(axis=1, keepdims=True), 0.0)
    keep &= values > 0
    inverted = np.where(keep, 1.0 / np.where(keep, values, 1.0), 0.0)
    inverse = np.einsum("bpk,bk,bqk->bpq", vectors, inverted, vectors)
    return inverse, keep.sum(axis=1).astype(np.int64)


def guarded(candidate: Fits, plain: Fits) -> tuple[Fits, BoolArray]:
    """Per batch element, the candidate where its estimated variance is below the plain
    mean's, else the plain mean; and where the candidate was taken."""
    taken = candidate.variance < plain.variance
    pick = taken[:, None]
    p = candidate.coefficients.shape[1]
    return (
        Fits(
            np.where(taken, candidate.mean, plain.mean),
            np.where(taken, candidate.variance, plain.variance),
            np.where(taken, candidate.df, plain.df),
            np.where(pick, candidate.coefficients, np.zeros((1, p))),
        ),
        taken,
    )


def document_codes(documents: Sequence[Hashable]) -> IntArray:
    """Each segment's document as 0, 1, 2 … in the order the documents first appear."""
    _, first, inverse = np.unique(np.asarray(documents), return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first)] = np.arange(len(first))
    return rank[inverse.reshape(-1)]


def collapse_strata(
    codes: IntArray,
    judged: IntArray,
    min_judged: int = MIN_JUDGED_PER_STRATUM,
    order: IntArray | None = None,
) -> IntArray:
    """Each corpus segment's stratum: documents (``codes``, from :func:`document_codes`)
    merged in ``order`` (the documents' codes, default their corpus order) until every
    stratum has ``min_judged`` judged segments, and judged segments from two documents
    if it holds an unjudged one; the documents after the last full stratum join it.
    Fewer judged segments than ``min_judged`` in all make one stratum."""
    per_document = np.bincount(codes[judged], minlength=int(codes.max()) + 1)
    walk = np.arange(len(per_document)) if order is None else np.asarray(order)
    group = np.empty(len(per_document), dtype=np.int64)
    current, have, judged_documents, unjudged = 0, 0, 0, False
    for document in walk.tolist():
        group[document] = current
        count = int(per_document[document])
        have += count
        judged_documents += count > 0
        unjudged |= count == 0
        if have >= min_judged and (judged_documents >= 2 or not unjudged):
            current, have, judged_documents, unjudged = current + 1, 0, 0, False
    if current > 0 and (have or unjudged):
        group[group == current] = current - 1  # a tail short of judged segments
    return group[codes]


def by_level(codes: IntArray, covariate: FloatArray) -> IntArray:
    """The documents (``codes``) in the order of their mean ``covariate`` over the corpus,
    so that merged documents are alike (ties in corpus order)."""
    totals = np.bincount(codes, weights=covariate)
    return np.argsort(totals / np.bincount(codes), kind="stable")


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

    def as_json(self) -> dict[str, Any]:
        """``{"plain": {mean, low, high, n}, "estimate": {mean, low, high, n, method,
        variance_ratio, …}}`` (the command line's ``--json``)."""
        return {
            "plain": self.plain.as_json(),
            "estimate": {
                **self.estimate.as_json(),
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
) -> Estimate:
    """The full-corpus mean human score of one system, from the human ``scores`` of the
    ``judged`` segments (0-based corpus indices), with the automatic metrics ``auto``
    (name → one score per corpus segment) as covariates and, given ``documents`` (one id
    per corpus segment), documents as strata. The corpus size is the length of the
    ``auto`` columns or of ``documents`` (or ``corpus_size`` when neither is given).
    A ``ValueError`` names any bad input."""
    check_confidence(confidence)
    auto = dict(auto or {})
    size = _corpus_size(auto, documents, corpus_size)
    index, y = _judged(judged, scores, size)
    columns, notes = _covariates(auto)
    z = np.column_stack(list(columns.values())) if columns else np.zeros((size, 0))
    codes = None if documents is None else document_codes(documents)
    found = fit_judged(y, z, index, codes)
    plain, chosen = found.plain, found.chosen
    candidate_ratio = (
        None
        if found.candidate is None
        else _ratio(float(found.candidate.variance[0]), float(plain.variance[0]))
    )
    slopes = dict(zip(columns, chosen.coefficients[0].tolist(), strict=True))
    return Estimate(
        plain=_interval(plain, len(index), confidence),
        estimate=_interval(chosen, len(index), confidence),
        method=found.method,
        variance_ratio=_ratio(float(chosen.variance[0]), float(plain.variance[0])),
        candidate_ratio=candidate_ratio,
        covariates=tuple(
            Covariate(
                name,
                # back from the standardised covariate to the metric's own unit
                slopes[name] / _spread(values) if name in slopes else 0.0,
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
    size = len(z)
    one = np.zeros(len(index), dtype=np.int64)
    plain = fit(
        y[None, :], np.zeros((1, len(index), 0)), one, np.array([size]), np.zeros((1, 1, 0))
    )
    unstratified = _unstratified(y, z, index, plain)
    if codes is None:
        return unstratified
    order = by_level(codes, z[:, 0]) if z.shape[1] else None
    strata = collapse_strata(codes, index, order=order)
    n_strata = int(strata.max()) + 1
    sizes = np.bincount(strata, minlength=n_strata)
    proportional = proportional_allocation(codes, index)
    if proportional and not always_reweight:
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


def _unstratified(y: FloatArray, z: FloatArray, index: IntArray, plain: Fits) -> Judged:
    """The guarded regression on the covariates ``z`` without strata (the plain mean
    without covariates)."""
    if not z.shape[1]:
        return Judged(plain, None, plain, False, 1, PLAIN)
    one = np.zeros(len(index), dtype=np.int64)
    means = z.mean(axis=0)[None, None, :]
    candidate = fit(y[None, :], z[index][None], one, np.array([len(z)]), means)
    chosen, taken = guarded(candidate, plain)
    return Judged(plain, candidate, chosen, bool(taken[0]), 1, REGRESSION if taken[0] else PLAIN)


def proportional_allocation(codes: IntArray, judged: IntArray) -> bool:
    """Whether every document (``codes``) has its share of the ``judged`` segments,
    ``n·N_d/N``, give or take :data:`PROPORTIONAL_TOLERANCE` (the judge queue's order
    keeps every prefix within one: ``annotation/judging/order.py``)."""
    sizes = np.bincount(codes)
    counts = np.bincount(codes[judged], minlength=len(sizes))
    share = len(judged) * sizes / len(codes)
    return bool(np.abs(counts - share).max() <= PROPORTIONAL_TOLERANCE + 1e-9)


def _ratio(variance: float, plain: float) -> float:
    """``variance / plain``: 1 where both are 0 (every segment judged; the plain mean's
    variance is 0 only then)."""
    if plain == 0.0:
        return 1.0 if variance == 0.0 else math.inf
    return variance / plain


def _interval(fits: Fits, n: int, confidence: float) -> Interval:
    low, high = fits.bounds(confidence)
    return Interval(
        mean=float(fits.mean[0]),
        low=float(low[0]),
        high=float(high[0]),
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


def _covariates(auto: Mapping[str, Values]) -> tuple[dict[str, FloatArray], list[str]]:
    """Each usable covariate standardised (mean 0, sd 1 over the corpus: the estimate does
    not change, the rank test of :func:`_pseudo_inverse` compares like with like), and a
    note on each left out as constant."""
    out: dict[str, FloatArray] = {}
    notes: list[str] = []
    for name, values in auto.items():
        column = np.asarray(values, dtype=np.float64)
        bad = np.flatnonzero(~np.isfinite(column))
        if len(bad):
            raise ValueError(
                f"automatic scores {name!r}: segment {int(bad[0])} is {column[bad[0]]}, "
                "not a number"
            )
        spread = _spread(column)
        if spread == 0.0:
            notes.append(f"{name} is the same on every segment: left out")
            continue
        out[name] = (column - column.mean()) / spread
    return out, notes


def _spread(values: Values) -> float:
    return float(np.std(np.asarray(values, dtype=np.float64)))
