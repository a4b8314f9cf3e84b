"""Figures of side-by-side judging: who wins each pair, a ranking of all systems from
the pairwise outcomes, and how often annotators agree on them.

An outcome is one judge's preference on one screen between two systems: 1 the first
won, 0 the second, ½ the same. Ties count half a win to each side everywhere here (the
win rates, the Bradley–Terry fit), so every figure reads the same numbers.

**Win rates** (:func:`win_rates`): per pair, the first system's share of the outcomes,
with Wilson's 95 % score interval over the number of comparisons (it stays inside
[0, 1] and is sound with few comparisons, where the normal interval is not).

**Ranking: Bradley–Terry, not TrueSkill** (:func:`bradley_terry`). WMT 2014–2015 ranked
systems with TrueSkill, an online Bayesian update: its estimate depends on the order the
judgments are fed in, and it needs tuned constants (β, τ, draw probability). Bradley–
Terry (P(i beats j) = pᵢ / (pᵢ + pⱼ)) is the maximum-likelihood fit of all outcomes at
once: the same judgments in any order give the same strengths, there is nothing to tune
but a weak prior, and a few Newton steps fit it in a few lines of numpy. The
intervals come from a bootstrap over the outcomes (``np.random.default_rng(seed)``, as
every interval of evaltool), so they are reproducible from the seed. Chatbot Arena made
the same choice (Elo's online updates → Bradley–Terry) for the same reasons.

**Picks of the best of 3 or 4** are broken into the pairs they imply: the best beat
each other system shown, nothing said of the others among themselves (the first-choice
probability of Plackett–Luce's model, pᵢ / Σⱼ pⱼ over the systems shown, is
Bradley–Terry's for two). The pairs of one pick are not independent draws, so they
share a ``group`` and the bootstrap resamples groups, not pairs: resampling the pairs
apart would make the intervals too narrow.

The prior: ``prior`` virtual ties between every two systems compared, so that a system
winning (or losing) every comparison keeps a finite strength; with ``prior=0`` the fit
is plain maximum likelihood.

**Comparisons needed** (:func:`comparisons_needed`): the power plan the dashboard gives
for scores (:mod:`metrics.power`), applied to a pair's preferences: how many
comparisons in all would tell the pair's win rate from ½ at p < 0.05 with 80 % power, at
the rate and spread seen so far. The test is the one-sample t-test of the mean outcome
against ½ (the paired test of the two systems' outcomes, halved), not Wilson's
interval, which counts a tie as half a success of a two-valued draw: the two can
disagree at the margin, where a tie-heavy pair's t-test is the sharper.

**Agreement** (:func:`preference_agreement`): items are (sentence, pair of systems)
judged by two or more annotators; Fleiss' κ over their three-way outcome (first better,
same, second better), which allows a different number of annotators per item.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from metrics.power import ALPHA, POWER, Separation, sentences_needed
from metrics.stats import FloatArray

IntArray = npt.NDArray[np.int64]

#: Wilson's z for a 95 % interval.
Z95 = 1.959963984540054
#: Bootstrap resamples of the ranking's intervals, and the default seed.
DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 12345
#: Virtual ties between every two compared systems (the module's docstring).
DEFAULT_PRIOR = 0.5
#: The fit stops when no log-strength moves more than this, or after so many steps; a
#: step moves a log-strength by at most _MAX_STEP.
_TOLERANCE = 1e-10
_MAX_ITERATIONS = 200
_MAX_STEP = 2.0


@dataclass(frozen=True)
class Outcome:
    """One judge's preference between two systems on one item (the module's docstring:
    ``result`` 1 the first won, 0 the second, 0.5 the same)."""

    first: int
    second: int
    result: float
    judge: Hashable = None
    item: Hashable = None
    #: Outcomes of one draw share a group: the pairs broken out of one judge's pick of
    #: the best of several (1 the best beat each other shown), resampled together by
    #: the bootstrap. None: an outcome of its own.
    group: Hashable = None

    def __post_init__(self) -> None:
        if self.result not in (0.0, 0.5, 1.0):
            raise ValueError(f"an outcome is 0, 0.5 or 1, not {self.result!r}")
        if self.first == self.second:
            raise ValueError(f"a system is not compared with itself ({self.first!r})")


@dataclass(frozen=True)
class PairRate:
    """How the pair (``first``, ``second``) came out: the first's wins, the second's,
    the ties, and the first's win rate (ties half) with its Wilson interval."""

    first: int
    second: int
    wins: int
    losses: int
    ties: int
    rate: float
    low: float
    high: float

    @property
    def n(self) -> int:
        return self.wins + self.losses + self.ties


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a proportion ``successes / n`` (NaNs when ``n`` is 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def comparisons_needed(
    rate: PairRate, most: int, *, alpha: float = ALPHA, power: float = POWER
) -> Separation:
    """How many comparisons of the pair in all would tell its win rate from a coin's
    (½) at ``alpha`` with ``power``: the dashboard's plan (:func:`metrics.power.
    sentences_needed`) on the pair's outcomes (1, 0, ½ a tie) against ½ each, which is
    the one-sample t-test of the mean outcome against ½ (ties count half, as in every
    figure here). ``most`` caps it: the comparisons the pair can have at all (a plan past
    it is "not separable"). Needs two comparisons or more."""
    results = np.repeat([1.0, 0.0, 0.5], [rate.wins, rate.losses, rate.ties])
    coin = np.full(rate.n, 0.5)
    return sentences_needed(results, coin, max(most, rate.n), alpha=alpha, power=power)


def win_rates(outcomes: Sequence[Outcome]) -> list[PairRate]:
    """Every pair that met, the lower system number first, in order."""
    tally: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for o in outcomes:
        a, b, result = (
            (o.first, o.second, o.result)
            if o.first < o.second
            else (o.second, o.first, 1 - o.result)
        )
        tally[(a, b)][0 if result == 1 else 1 if result == 0 else 2] += 1
    rates = []
    for (a, b), (wins, losses, ties) in sorted(tally.items()):
        n = wins + losses + ties
        low, high = wilson(wins + ties / 2, n)
        rates.append(PairRate(a, b, wins, losses, ties, (wins + ties / 2) / n, low, high))
    return rates


@dataclass(frozen=True)
class Strengths:
    """A Bradley–Terry fit: each system's log-strength (mean 0; P(i beats j) =
    1 / (1 + exp(θⱼ − θᵢ))) with its bootstrap interval, and the order best first."""

    theta: FloatArray
    low: FloatArray
    high: FloatArray
    resamples: int
    seed: int
    prior: float

    @property
    def ranking(self) -> list[int]:
        return [int(i) for i in np.argsort(-self.theta, kind="stable")]

    def beats(self, i: int, j: int) -> float:
        """The fitted probability that system ``i`` is preferred to system ``j``."""
        return float(1 / (1 + math.exp(self.theta[j] - self.theta[i])))

    @property
    def signature(self) -> str:
        return f"bt|ties:half|prior:{self.prior:g}|boot:{self.resamples}|seed:{self.seed}"


def _matrices(
    first: IntArray, second: IntArray, result: FloatArray, systems: int, weights: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Wins ``W[i, j]`` (i over j, ties half) and comparisons ``N[i, j]`` (symmetric)."""
    cells = systems * systems
    won = np.bincount(first * systems + second, weights * result, cells).astype(float)
    won += np.bincount(second * systems + first, weights * (1 - result), cells)
    wins: FloatArray = won.reshape(systems, systems)
    return wins, wins + wins.T


def _solved(laplacian: FloatArray, gradient: FloatArray, seen: npt.NDArray[np.bool_]) -> FloatArray:
    """The Newton step: ``laplacian @ step = gradient`` over the systems compared, the
    common level fixed by a rank-one term (exact where the comparisons connect them
    all), by least squares where they fall apart in groups."""
    step = np.zeros(len(gradient))
    at = np.flatnonzero(seen)
    if not len(at):
        return step
    square = laplacian[np.ix_(at, at)]
    try:
        step[at] = np.linalg.solve(square + 1 / len(at), gradient[at])
    except np.linalg.LinAlgError:
        step[at] = np.linalg.lstsq(square, gradient[at], rcond=None)[0]
    return step


def fit_log_strengths(wins: FloatArray, compared: FloatArray, prior: float) -> FloatArray:
    """Bradley–Terry's log-strengths from the wins matrix ``wins`` (ties half already)
    and comparisons ``compared``, with ``prior`` virtual ties on every pair compared;
    mean 0 over the systems compared, 0 for a system never compared.

    Newton's method on the log-likelihood, which is concave in the log-strengths: its
    Hessian is minus the Laplacian of the comparisons weighted by p(1−p), singular along
    the common level, which the mean fixes (:func:`_solved`). A few steps
    reach the tolerance where Hunter's MM iteration takes hundreds, which matters for a
    thousand bootstrap fits a page view; a step is capped, so an extreme start cannot
    overshoot."""
    met = compared > 0
    w = wins + prior / 2 * met
    n = compared + prior * met
    total_wins = w.sum(axis=1)
    seen = n.sum(axis=1) > 0
    theta = np.zeros(len(w))
    for _ in range(_MAX_ITERATIONS):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
        gradient = total_wins - (n * p).sum(axis=1)
        weight = n * p * (1 - p)
        laplacian = np.diag(weight.sum(axis=1)) - weight
        step = _solved(laplacian, gradient, seen)
        largest = float(np.abs(step).max()) if len(step) else 0.0
        if largest > _MAX_STEP:
            step *= _MAX_STEP / largest
        theta += step
        if largest < _TOLERANCE:
            break
    theta[~seen] = 0.0
    if seen.any():
        theta[seen] -= theta[seen].mean()
    return theta


def outcome_groups(outcomes: Sequence[Outcome]) -> IntArray:
    """Each outcome's group as a number 0 … g−1 in order of first appearance: outcomes
    of one ``group`` share one, every outcome without a group has its own. With no
    groups at all, the numbers are the outcomes' places, so the bootstrap draws exactly
    as it did before groups existed."""
    numbers: dict[Hashable, int] = {}
    out = np.empty(len(outcomes), dtype=np.int64)
    for k, o in enumerate(outcomes):
        key = ("outcome", k) if o.group is None else ("group", o.group)
        out[k] = numbers.setdefault(key, len(numbers))
    return out


def bradley_terry(
    outcomes: Sequence[Outcome],
    systems: int,
    *,
    prior: float = DEFAULT_PRIOR,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> Strengths:
    """Strengths of systems ``0 … systems-1`` from ``outcomes``, with 95 % percentile
    intervals from ``resamples`` bootstrap resamples of the outcomes' groups (module
    docstring)."""
    if prior < 0:
        raise ValueError(f"prior must be 0 or more, not {prior!r}")
    first = np.array([o.first for o in outcomes], dtype=np.int64)
    second = np.array([o.second for o in outcomes], dtype=np.int64)
    result = np.array([o.result for o in outcomes], dtype=float)
    if len(outcomes) and (
        max(first.max(), second.max()) >= systems or min(first.min(), second.min()) < 0
    ):
        raise ValueError(f"an outcome names a system outside 0…{systems - 1}")
    ones = np.ones(len(outcomes))
    theta = fit_log_strengths(*_matrices(first, second, result, systems, ones), prior)
    if not len(outcomes) or resamples <= 0:
        nan = np.full(systems, math.nan)
        return Strengths(theta, nan, nan.copy(), 0, seed, prior)
    groups = outcome_groups(outcomes)
    n_groups = int(groups.max()) + 1
    rng = np.random.default_rng(seed)
    drawn = np.empty((resamples, systems))
    for b in range(resamples):
        counts = np.bincount(rng.integers(0, n_groups, n_groups), minlength=n_groups)
        weights = counts[groups].astype(float)
        drawn[b] = fit_log_strengths(*_matrices(first, second, result, systems, weights), prior)
    low, high = np.percentile(drawn, [2.5, 97.5], axis=0)
    return Strengths(theta, low, high, resamples, seed, prior)


@dataclass(frozen=True)
class Agreement:
    """Annotators' agreement on preferences: Fleiss' κ, the share of annotator pairs
    that agree, and how many items (two or more annotators) it reads."""

    kappa: float
    observed: float
    items: int


def preference_agreement(outcomes: Sequence[Outcome]) -> Agreement:
    """Fleiss' κ over items judged by two or more annotators (module docstring); one
    outcome an annotator an item (the last given stands)."""
    by_item: dict[tuple[Hashable, int, int], dict[Hashable, float]] = defaultdict(dict)
    for o in outcomes:
        a, b, result = (
            (o.first, o.second, o.result)
            if o.first < o.second
            else (o.second, o.first, 1 - o.result)
        )
        by_item[(o.item, a, b)][o.judge] = result
    items = [list(judges.values()) for judges in by_item.values() if len(judges) >= 2]
    if not items:
        return Agreement(math.nan, math.nan, 0)
    agreeing = 0.0
    labels: dict[float, float] = defaultdict(float)
    for results in items:
        n = len(results)
        counts = [results.count(c) for c in (0.0, 0.5, 1.0)]
        agreeing += sum(c * (c - 1) for c in counts) / (n * (n - 1))
        for c, k in zip((0.0, 0.5, 1.0), counts, strict=True):
            labels[c] += k / n
    observed = agreeing / len(items)
    expected = sum((v / len(items)) ** 2 for v in labels.values())
    kappa = math.nan if expected >= 1 else (observed - expected) / (1 - expected)
    return Agreement(kappa, observed, len(items))
