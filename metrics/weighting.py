"""A corpus mean estimated from segments judged with unequal, known probabilities.

A queue that favours some segments (those whose judgments are expected to change an
answer) judges them more often than their share of the corpus: the plain mean of what
was judged, or the regression estimate of :mod:`metrics.estimate`, then leans towards
the favoured segments, and its interval no longer covers the corpus mean at its level.
Where every segment i had a known probability ``π_i > 0`` of being judged, independently
of the others (Poisson sampling; each draw may depend on everything judged before it,
not on the draw itself), weighting each judged segment by ``1/π_i`` gives the estimate
back its honesty (Horvitz & Thompson 1952). With a prediction ``ŷ_i`` of every segment's
score made *before* the draw (from automatic metrics, learnt on earlier judgments), the
weighting applies to the prediction's residuals only: the augmented inverse-probability
estimate (Robins, Rotnitzky & Zhao 1994; Särndal, Swensson & Wretman 1992, the
difference estimator; Zrnic & Candès 2024, "Active statistical inference"):

    μ̂ = (1/N) [ Σ_i ŷ_i + Σ_{judged} (y_i − ŷ_i)/π_i ]
    v̂ = (1/N²) Σ_{judged} (1 − π_i)/π_i² (y_i − ŷ_i)²
    κ̂₃ = (1/N³) Σ_{judged} (1 − π_i)(1 − 2π_i)/π_i³ (y_i − ŷ_i)³

μ̂ is unbiased for the corpus mean whatever the prediction; a good prediction makes v̂
small, and a probability that follows the residuals' size (Neyman's allocation) makes
it smaller still. v̂ is the unbiased estimate of the design variance under Poisson
sampling, and κ̂₃ that of its third cumulant (each term is a Bernoulli(π_i) variable
times (y_i − ŷ_i)/π_i, whose third central moment is π_i(1 − π_i)(1 − 2π_i) times the
cube), which the interval's skew correction reads. A segment judged with certainty
(π_i = 1) adds its residual and no variance. Segments drawn together (a batch: one
draw, one probability) are one term of each sum, their weighted residuals added first.

Several such draws in turn (rounds, each one's probabilities and prediction chosen from
the rounds before) each give an estimate unbiased given the rounds before: their errors
are martingale differences, uncorrelated. They combine as ``μ̂ = Σ_r w_r μ̂_r / Σ_r w_r``
with variance ``Σ_r w_r² v̂_r / (Σ_r w_r)²`` (:func:`combine`). Weights fixed in advance
make μ̂ exactly unbiased; here each round's weight is the inverse of its design's
variance factor ``Σ_i (1 − π_i)/π_i`` (:func:`design_factor`), known before the round
is drawn (predictable): a round that gave a target little chance (a pair whose systems
the queue no longer favours) then counts little for it. With predictable weights the
self-normalised combination is the adaptively weighted estimator of Hadad, Hirshberg,
Zhan, Wager & Athey (2021, "Confidence intervals for policy evaluation in adaptive
experiments"): consistent, its studentised error asymptotically normal by the
martingale central limit theorem; the simulations check its coverage
(``metrics/tests/test_simulate.py``).

That asymptotic holds for a round's draw that sees its residuals' tail. A policy that
gives MQM's rare very bad segments small chances makes v̂ track the draw's luck: a round
that misses them estimates too high *and* too precisely, so the intervals miss on one
side (``bench/adaptive_biased.py``: 91.2 % of 95 % intervals covered). Each round
therefore also carries the variance its design should give, worked out before the draw
from the residuals of the segments already known (:func:`anticipated_variance`, the
"anticipated variance" of Isaki & Fuller 1982), and :func:`combine` takes the larger of
the rounds' estimated and anticipated variances: 93.7 % there, 95.2 % with every batch
alike (``docs/simulate.md``). The means are untouched, so the estimate stays unbiased.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.correlation import BoolArray, IntArray
from metrics.distributions import normal_cdf, normal_quantile
from metrics.regression import skew_corrected
from metrics.stats import FloatArray

#: The design factor of a census (every segment certain): small, and positive so that its
#: inverse is a finite weight that outweighs any sample's.
CENSUS_FACTOR = 1e-9


@dataclass(frozen=True)
class Weighted:
    """An estimate of a corpus mean, its estimated variance and third cumulant, and
    ``anticipated``: the variance worked out before the draw (:func:`anticipated_variance`;
    None: the same as ``variance``), which :func:`combine` reads."""

    mean: float
    variance: float
    third: float = 0.0
    anticipated: float | None = None

    @property
    def least_variance(self) -> float:
        """The variance worked out before the draw, or the estimated one if none was."""
        return self.variance if self.anticipated is None else self.anticipated

    def bounds(self, confidence: float) -> tuple[float, float]:
        """The normal ``confidence`` interval ``mean ± z √variance``, corrected for the
        estimate's skew by Hall's transformation as :mod:`metrics.estimate`'s intervals
        are (:func:`metrics.regression.skew_corrected`): a weighted mean of MQM's skewed
        scores is skewed itself, the more so where a few rare bad segments carry large
        weights."""
        if self.variance <= 0.0:
            return self.mean, self.mean
        sd = math.sqrt(self.variance)
        z = normal_quantile(0.5 + confidence / 2.0)
        skew = np.array([self.third / self.variance**1.5])
        high = float(skew_corrected(np.array([z]), skew)[0])
        low = float(skew_corrected(np.array([-z]), skew)[0])
        return self.mean - sd * high, self.mean - sd * low

    def p_value(self) -> float:
        """The two-sided p-value of "the mean is 0" by the normal statistic (no spread:
        0 for a mean other than 0, else 1)."""
        if self.variance <= 0.0:
            return 1.0 if self.mean == 0.0 else 0.0
        return min(1.0, 2.0 * normal_cdf(-abs(self.mean) / math.sqrt(self.variance)))


def poisson_draw(probabilities: FloatArray, rng: np.random.Generator) -> BoolArray:
    """Which items a Poisson sample with inclusion ``probabilities`` takes: each one
    independently with its own probability."""
    p = np.asarray(probabilities, dtype=np.float64)
    if np.any((p < 0.0) | (p > 1.0)) or not np.all(np.isfinite(p)):
        raise ValueError("inclusion probabilities must lie in [0, 1]")
    return np.asarray(rng.random(p.shape) < p)


def scaled_probabilities(
    scores: FloatArray, expected: float, costs: FloatArray | None = None
) -> FloatArray:
    """Inclusion probabilities proportional to the positive ``scores``, capped at 1,
    whose expected cost ``Σ_i π_i c_i`` is ``expected`` (``costs`` c: 1 each by default;
    the items that reach the cap take 1, the rest share what is left in proportion: the
    usual πps rule). All ones when ``expected`` reaches the total cost."""
    s = np.asarray(scores, dtype=np.float64)
    c = np.ones_like(s) if costs is None else np.asarray(costs, dtype=np.float64)
    if np.any(s <= 0.0) or not np.all(np.isfinite(s)):
        raise ValueError("every item needs a positive finite score")
    if expected >= c.sum():
        return np.ones_like(s)
    capped = c <= 0.0  # an item that costs nothing is taken for certain
    while True:
        rest = expected - c[capped].sum()
        p = np.where(capped, 1.0, rest * s / np.sum(s[~capped] * c[~capped]))
        over = (p > 1.0) & ~capped
        if not over.any():
            return np.asarray(np.clip(p, 0.0, 1.0), dtype=np.float64)
        capped |= over


def aipw(
    scores: FloatArray,
    judged: IntArray,
    probabilities: FloatArray,
    predicted: FloatArray,
    clusters: IntArray | None = None,
    *,
    anticipated: float | None = None,
) -> Weighted:
    """The augmented inverse-probability estimate of the mean over the corpus (the
    module's formula): ``scores`` and ``probabilities`` of the ``judged`` segments,
    ``predicted`` for every corpus segment (made before the draw; zeros give the
    Horvitz–Thompson estimate). ``clusters``: each judged segment's draw (segments drawn
    together, as a batch's are, share one and its probability): the variance and third
    cumulant then sum over the draws, each its weighted residuals' total, since a batch's
    residuals come or stay together (a prediction off on average, or a document harder
    than its metrics say, moves all of them at once); each segment its own draw by
    default. ``anticipated``: the variance worked out before the draw
    (:func:`anticipated_variance`), kept for :func:`combine` (None: none was)."""
    y = np.asarray(scores, dtype=np.float64)
    pi = np.asarray(probabilities, dtype=np.float64)
    guess = np.asarray(predicted, dtype=np.float64)
    if np.any(pi <= 0.0):
        raise ValueError("a judged segment had no chance of being judged: no weight for it")
    size = len(guess)
    weighted = (y - guess[judged]) / pi
    mean = (guess.sum() + float(np.sum(weighted))) / size
    if clusters is not None:
        labels, first, inverse = np.unique(clusters, return_index=True, return_inverse=True)
        totals = np.bincount(inverse, weights=weighted, minlength=len(labels))
        weighted = np.asarray(totals, dtype=np.float64)
        pi = pi[first]
    variance = float(np.sum((1.0 - pi) * weighted**2)) / size**2
    third = float(np.sum((1.0 - pi) * (1.0 - 2.0 * pi) * weighted**3)) / size**3
    return Weighted(mean, variance, third, anticipated)


def anticipated_variance(
    residuals: FloatArray,
    probabilities: FloatArray,
    size: int,
    *,
    parameters: int = 1,
    clusters: IntArray | None = None,
) -> float:
    """The variance a round's estimate should have, worked out before its draw:
    ``(1/N²) Σ (1 − π)/π σ̂²`` over the draws it could make (``probabilities``, one per
    segment, or per batch), with σ̂² the mean square of the ``residuals`` of the segments
    already known under the round's prediction (summed per batch first, given their
    ``clusters``; times n/(n − ``parameters``), since the prediction was fitted to them).

    Why: the design's own estimate (:func:`aipw`'s) reads the residuals of the segments
    the round drew. Where a policy left the rare large residuals (MQM's few very bad
    segments) with small chances, a draw that misses them has both an estimate too high
    and a variance too small, so the interval misses on that side far more often than
    its level says (``bench/adaptive_biased.py``: 91 % of 95 % intervals covered). This
    variance knows the bad segments seen so far, whatever the round drew, and
    :func:`combine` takes the larger of the two, so rounds that drew badly are not also
    believed precise. 0 with no residuals."""
    r = np.asarray(residuals, dtype=np.float64)
    pi = np.asarray(probabilities, dtype=np.float64)
    if not len(r) or not len(pi):
        return 0.0
    if np.any(pi <= 0.0):
        raise ValueError("a segment has no chance of being judged: no design variance")
    fitted = len(r)
    if clusters is not None:
        batch = np.unique(clusters, return_inverse=True)[1]
        r = np.asarray(np.bincount(batch, weights=r), dtype=np.float64)
    square = float(np.mean(r**2)) * fitted / max(fitted - parameters, 1)
    return float(np.sum((1.0 - pi) / pi)) * square / size**2


def design_factor(probabilities: FloatArray) -> float:
    """``Σ_i (1 − π_i)/π_i`` over the corpus: the estimate's variance under inclusion
    ``probabilities``, in units of the residuals' common variance over N² (a census:
    a small positive number, :data:`CENSUS_FACTOR`, so that its inverse stays a finite
    weight). Known
    before the draw, so its inverse can weight a round (:func:`combine`)."""
    pi = np.asarray(probabilities, dtype=np.float64)
    if np.any(pi <= 0.0):
        raise ValueError("a segment has no chance of being judged: no design variance")
    return max(float(np.sum((1.0 - pi) / pi)), CENSUS_FACTOR)


def combine(estimates: Sequence[Weighted], weights: Sequence[float]) -> Weighted:
    """Rounds' estimates of one mean combined with predictable ``weights`` (scaled to
    sum to 1): the module's last paragraph. The variance is the larger of the rounds'
    estimated variances combined and their anticipated ones
    (:attr:`Weighted.least_variance`) combined: the sums, over several rounds, are
    steadier than any one round's, so the larger is seldom much above the truth where
    both are right, and it is the anticipated one where the draws missed what the
    rounds before had seen."""
    w = np.asarray(weights, dtype=np.float64)
    if len(w) != len(estimates) or not len(w) or np.any(w < 0.0) or w.sum() <= 0.0:
        raise ValueError(f"weights {list(weights)}: one non-negative weight per estimate")
    w = w / w.sum()
    mean = float(sum(wi * e.mean for wi, e in zip(w, estimates, strict=True)))
    variance = float(sum(wi**2 * e.variance for wi, e in zip(w, estimates, strict=True)))
    least = float(sum(wi**2 * e.least_variance for wi, e in zip(w, estimates, strict=True)))
    variance = max(variance, least)
    third = float(sum(wi**3 * e.third for wi, e in zip(w, estimates, strict=True)))
    return Weighted(mean, variance, third)


def linear_prediction(
    known: IntArray, scores: FloatArray, covariates: FloatArray, *, ridge: float = 1e-6
) -> FloatArray:
    """Every corpus segment's score predicted by least squares on ``covariates``
    (segments × p) from the ``known`` segments' ``scores`` (with an intercept; a tiny
    ridge keeps collinear metrics stable). With fewer known segments than p + 3, their
    mean; with none, zeros."""
    x = np.asarray(covariates, dtype=np.float64)
    y = np.asarray(scores, dtype=np.float64)
    if len(known) == 0:
        return np.zeros(len(x))
    if len(known) < x.shape[1] + 3:
        return np.full(len(x), float(y.mean()))
    design = np.column_stack([np.ones(len(x)), x])
    a = design[known]
    penalty = ridge * len(known) * np.eye(design.shape[1])
    penalty[0, 0] = 0.0
    beta = np.linalg.solve(a.T @ a + penalty, a.T @ y)
    return np.asarray(design @ beta, dtype=np.float64)
