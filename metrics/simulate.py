"""Replaying a judging policy on a campaign whose every judgment is known.

A complete human-score file (every system judged on every segment) is the answer a
campaign would reach with all its judgments. Drawing parts of it the way a policy
would, again and again, shows what each budget buys: how many pairs of systems a
campaign of that size decides the way all the data decide them, whether its intervals
cover the full data's system means at their level, and how many judgments one policy
saves against another for the same share of decisions (issue: spend each judgment
where it changes the answer).

**Policies.**

* :data:`RANDOM`: what the judge queue does today. Whole segments (every system on
  them) in a document-stratified random sample (every document gives its share of the
  segments, rounded down or up: :func:`stratified_segments`), estimated as the dashboard
  does: each system by the guarded control-variate estimate with documents as strata
  (:func:`metrics.estimate.fit_judged`), each pair by the same estimate of their
  per-segment differences, with the differences of their automatic scores
  (``annotation/dashboard/estimates.py``'s paired test).
* :data:`ADAPTIVE`: a warm-up of :data:`WARM_UP` of the budget drawn as :data:`RANDOM`
  draws, then :data:`ROUNDS` rounds that favour what is still open. A pair is open while
  its estimate so far does not separate it at the test's level; a system in an open pair
  is judged on every drawn segment, any other with probability :data:`SYSTEM_FLOOR`.
  Segments are drawn (Poisson) with probabilities in proportion to the expected size of
  the open pairs' prediction errors, mixed with :data:`SEGMENT_FLOOR` of an even share:
  the squared residuals of each pair's prediction from automatic scores, regressed on
  the predicted difference's size and on how much the automatic metrics disagree on the
  segment (:func:`segment_scores`). A cell judged once is not judged again. Every
  segment and every system thus keeps a known, non-zero probability in every round,
  and each round's estimate weights by it (:func:`metrics.weighting.aipw`: the cells
  known before the round count exactly, the others are predicted from a regression on
  the automatic scores learnt on the rounds before); the rounds combine with weights
  known before each round (:func:`metrics.weighting.combine`,
  :func:`metrics.weighting.design_factor`).

**What a replay reports** (:func:`simulate`), per policy and budget (a share of all
judgments): the judgments used, the share of system pairs decided as all the data
decide them (:func:`full_outcomes`: the order of their means over the corpus; a
sample decides a pair when its test has p below ``alpha``),
the share decided the wrong way round, the coverage of the full-data system means by
the sample's ``confidence`` intervals, the smallest inclusion probability any segment
and pair had, and for the adaptive policy the judgments it saves against random for
the same share of pairs decided (:func:`judgments_saved`: random's budget that reaches
that share, read off its curve between the budgets replayed: :mod:`metrics.savings`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import combinations
from typing import Any

import numpy as np

from metrics.correlation import BoolArray, IntArray
from metrics.estimate import Interval, fit_judged, p_value
from metrics.regression import DEFAULT_CONFIDENCE
from metrics.savings import judgments_saved
from metrics.stats import FloatArray
from metrics.weighting import (
    Weighted,
    aipw,
    anticipated_variance,
    combine,
    design_factor,
    linear_prediction,
    poisson_draw,
    scaled_probabilities,
)

RANDOM = "random"
ADAPTIVE = "adaptive"
POLICIES = (RANDOM, ADAPTIVE)
#: The share of all judgments each budget stands for, by default.
DEFAULT_BUDGETS = (0.1, 0.2, 0.4, 0.6, 0.8)
DEFAULT_REPETITIONS = 20
DEFAULT_ALPHA = 0.05
#: The adaptive policy's warm-up, as a share of its budget (document-stratified).
WARM_UP = 0.25
#: The adaptive rounds after the warm-up, sharing the rest of the budget evenly.
ROUNDS = 3
#: The chance that a system in no open pair is judged on a drawn segment: small, so the
#: rounds spend their judgments on the open pairs (0.2 before; 0.05 ordered 0.1–1.6 points
#: more pairs on newstest2020 at every budget, ``docs/simulate.md``), and not zero, so
#: every system keeps a known chance and its weighted estimate stays honest.
SYSTEM_FLOOR = 0.05
#: The even share mixed into the segments' probabilities: no segment falls below
#: this share of the average probability.
SEGMENT_FLOOR = 0.2


@dataclass(frozen=True, eq=False)
class Campaign:
    """Every system's human score on every segment (``human``: systems × segments), the
    automatic scores as covariates (``covariates``: systems × segments × metrics, named
    by ``metrics``), each segment's document (``codes``, 0 … D−1, or None) and what each
    score cost in judgments (``costs``: its ratings; 1 each without annotators)."""

    systems: tuple[str, ...]
    human: FloatArray
    covariates: FloatArray
    metrics: tuple[str, ...]
    codes: IntArray | None
    costs: IntArray
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        s, n = self.human.shape
        if len(self.systems) < 2 or n < 4:
            raise ValueError(f"{len(self.systems)} systems on {n} segments: too few to replay")
        if self.covariates.shape[:2] != (s, n) or self.costs.shape != (s, n):
            raise ValueError("the covariates and costs must cover every system and segment")
        if self.codes is not None and len(self.codes) != n:
            raise ValueError(f"{len(self.codes)} document codes for {n} segments")

    @property
    def size(self) -> int:
        return int(self.human.shape[1])

    @property
    def pairs(self) -> list[tuple[int, int]]:
        return list(combinations(range(len(self.systems)), 2))

    @property
    def judgments(self) -> int:
        return int(self.costs.sum())


def standardised(columns: FloatArray) -> FloatArray:
    """Covariate columns (segments × p) scaled to mean 0 and standard deviation 1 over
    the corpus, constant columns left out (:mod:`metrics.estimate` compares like with
    like the same way)."""
    z = np.asarray(columns, dtype=np.float64)
    spread = z.std(axis=0)
    keep = spread > 0.0
    return np.asarray((z[:, keep] - z[:, keep].mean(axis=0)) / spread[keep], dtype=np.float64)


@dataclass(frozen=True, eq=False)
class _Prepared:
    """What every replay of one campaign shares: each system's and each pair's scores
    (pairs: per-segment differences) and standardised covariates, and the full data's
    answers."""

    campaign: Campaign
    targets: FloatArray  # (systems + pairs) × segments
    covariates: list[FloatArray]  # one segments × p per target
    full_means: FloatArray
    full: IntArray  # per pair: +1 first better, −1 second better, 0 undecided


def _prepare(campaign: Campaign, *, answers: bool = True) -> _Prepared:
    """What every replay of ``campaign`` shares; without ``answers`` (a campaign under
    way, NaN where a score is not known: the app's adaptive dealing) no full-data
    answer is computed."""
    human = campaign.human
    rows = [human[s] for s in range(len(campaign.systems))]
    covariates = [standardised(campaign.covariates[s]) for s in range(len(campaign.systems))]
    for a, b in campaign.pairs:
        rows.append(human[a] - human[b])
        covariates.append(standardised(campaign.covariates[a] - campaign.covariates[b]))
    if not answers:
        return _Prepared(campaign, np.vstack(rows), covariates, np.zeros(0), np.zeros(0, np.int64))
    return _Prepared(
        campaign,
        np.vstack(rows),
        covariates,
        human.mean(axis=1),
        full_outcomes(human, campaign.pairs),
    )


def policy_view(campaign: Campaign) -> _Prepared:
    """``campaign`` as the policy's steps read it while it is under way (its ``human``
    NaN where not judged yet): every system's and pair's scores and covariates, no
    full-data answer (:mod:`metrics.adaptive`)."""
    return _prepare(campaign, answers=False)


def full_outcomes(human: FloatArray, pairs: Sequence[tuple[int, int]]) -> IntArray:
    """Each pair's answer from all the data: +1 when the first system's mean over the
    corpus is above the second's, −1 below, 0 tied. What the dashboard's estimates
    say with every segment judged: their intervals have no width then (the target is
    this corpus's mean), so every pair but a tie is decided."""
    return np.array([int(np.sign((human[a] - human[b]).mean())) for a, b in pairs], dtype=np.int64)


def stratified_segments(
    codes: IntArray | None, n: int, size: int, rng: np.random.Generator
) -> IntArray:
    """``n`` of ``size`` segments with the judge queue's guarantee: every document gives
    its share ``n·N_d/N`` rounded down or up (systematic rounding of the shares laid end
    to end in a random order of the documents, from a random start), its segments at
    random; without documents a simple random sample. Every segment has the inclusion
    probability n/N."""
    if codes is None:
        return np.sort(rng.choice(size, n, replace=False)).astype(np.int64)
    lengths = np.bincount(codes)
    first = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    order = np.lexsort((rng.random(size), codes))
    rank = np.empty(size, dtype=np.int64)
    rank[order] = np.arange(size) - first[codes[order]]
    shuffled = rng.permutation(len(lengths))
    ends = np.floor(n * np.cumsum(lengths[shuffled]) / size + rng.random())
    allocation = np.empty(len(lengths), dtype=np.int64)
    allocation[shuffled] = np.diff(ends, prepend=0.0).astype(np.int64)
    return np.flatnonzero(rank < allocation[codes]).astype(np.int64)


@dataclass(frozen=True)
class Replay:
    """One replay of a policy at one budget: the judgments it used, whether each
    system's interval covered its full-data mean, each pair's decision (+1, −1, 0) and
    the smallest inclusion probability any segment of a system or a pair had."""

    cost: int
    covered: BoolArray
    outcomes: IntArray
    least_probability: float


@dataclass(frozen=True)
class _Found:
    """Every target's (systems, then pairs) estimate, interval and p-value."""

    means: list[float]
    bounds: list[tuple[float, float]]
    p_values: list[float]


def _replay(prep: _Prepared, found: _Found, cost: int, least: float, alpha: float) -> Replay:
    n_systems = len(prep.campaign.systems)
    low = np.array([b[0] for b in found.bounds[:n_systems]])
    high = np.array([b[1] for b in found.bounds[:n_systems]])
    covered = (low <= prep.full_means) & (prep.full_means <= high)
    means = np.array(found.means[n_systems:])
    decided = np.array(found.p_values[n_systems:]) < alpha
    outcomes = np.where(decided, np.sign(means), 0.0).astype(np.int64)
    return Replay(cost, covered, outcomes, least)


def _stratified(
    prep: _Prepared, index: IntArray, confidence: float
) -> tuple[_Found, list[Weighted]]:
    """Every target estimated from the judged segments ``index`` (all systems judged on
    them) by the dashboard's estimator (:func:`metrics.estimate.fit_judged`): its
    ``confidence`` interval and p-value, and the estimate with its variance."""
    codes = prep.campaign.codes
    found = _Found([], [], [])
    estimates: list[Weighted] = []
    for row, z in zip(prep.targets, prep.covariates, strict=True):
        chosen = fit_judged(row[index], z, index, codes).chosen
        lows, highs = chosen.bounds(confidence)
        low, high = float(lows[0]), float(highs[0])
        mean, variance, df = float(chosen.mean[0]), float(chosen.variance[0]), float(chosen.df[0])
        found.means.append(mean)
        found.bounds.append((low, high))
        found.p_values.append(p_value(Interval(mean, low, high, len(index), variance, df)))
        estimates.append(Weighted(mean, variance, float(chosen.third[0])))
    return found, estimates


def _segments_for(prep: _Prepared, judgments: float) -> int:
    """How many whole segments (every system judged) cost ``judgments``, at least two."""
    per_segment = prep.campaign.judgments / prep.campaign.size
    return int(min(prep.campaign.size, max(2, round(judgments / per_segment))))


def replay_random(
    prep: _Prepared, budget: float, rng: np.random.Generator, confidence: float, alpha: float
) -> Replay:
    """:data:`RANDOM` at ``budget`` (a share of all judgments)."""
    campaign = prep.campaign
    n = _segments_for(prep, budget * campaign.judgments)
    index = stratified_segments(campaign.codes, n, campaign.size, rng)
    found, _ = _stratified(prep, index, confidence)
    cost = int(campaign.costs[:, index].sum())
    return _replay(prep, found, cost, n / campaign.size, alpha)


def segment_scores(
    prep: _Prepared, open_pairs: Sequence[int], known: BoolArray, predictions: dict[int, FloatArray]
) -> FloatArray:
    """How much judging each segment is expected to tell about the ``open_pairs``
    (indices into the campaign's pairs): for each, the square root of its squared
    prediction residuals on the segments both systems were judged on (``known``:
    systems × segments), regressed on the predicted difference's size and on the spread
    of the automatic metrics' standardised differences (where they disagree), predicted
    on every segment where the pair's difference is not known yet (at least a tenth of
    its mean; 0 where it is known), summed over the open pairs. Neyman's allocation for
    the weighted estimate: its variance falls fastest where the errors are large."""
    campaign = prep.campaign
    n_systems = len(campaign.systems)
    total = np.zeros(campaign.size)
    for k in open_pairs:
        a, b = campaign.pairs[k]
        target = n_systems + k
        predicted = predictions[target]
        z = prep.covariates[target]
        disagree = z.std(axis=1) if z.shape[1] > 1 else np.zeros(campaign.size)
        features = np.column_stack([np.ones(campaign.size), np.abs(predicted), disagree])
        both = np.flatnonzero(known[a] & known[b])
        squared = (prep.targets[target][both] - predicted[both]) ** 2
        coefficients = np.linalg.lstsq(features[both], squared, rcond=None)[0]
        expected = features @ coefficients
        floor = 0.1 * max(float(squared.mean()), 1e-12)
        unknown = ~(known[a] & known[b])  # where the pair's difference is still to learn
        total += np.where(unknown, np.sqrt(np.maximum(expected, floor)), 0.0)
    return total


def replay_adaptive(
    prep: _Prepared, budget: float, rng: np.random.Generator, confidence: float, alpha: float
) -> Replay:
    """:data:`ADAPTIVE` at ``budget`` (a share of all judgments): the module's steps."""
    campaign = prep.campaign
    n_systems, size = len(campaign.systems), campaign.size
    judgments = budget * campaign.judgments
    warm = _segments_for(prep, WARM_UP * judgments)
    index = stratified_segments(campaign.codes, warm, size, rng)
    _, first = _stratified(prep, index, confidence)
    rounds = [[e] for e in first]
    # each round's weight, per target: the inverse of its design's variance factor
    # (metrics.weighting.design_factor), known before the round is drawn
    fraction = warm / size
    plans = [[1.0 / design_factor(np.full(size, fraction))] for _ in first]
    cost = int(campaign.costs[:, index].sum())
    least = fraction
    known = np.zeros((n_systems, size), dtype=bool)
    known[:, index] = True
    for _ in range(ROUNDS):
        so_far = [combine(e, w) for e, w in zip(rounds, plans, strict=True)]
        open_pairs = [
            k for k in range(len(campaign.pairs)) if so_far[n_systems + k].p_value() >= alpha
        ]
        in_open = {s for k in open_pairs for s in campaign.pairs[k]}
        q = np.array(
            [1.0 if s in in_open or not open_pairs else SYSTEM_FLOOR for s in range(n_systems)]
        )
        predictions = {}
        for t, (row, z) in enumerate(zip(prep.targets, prep.covariates, strict=True)):
            seen = np.flatnonzero(_cells_of(campaign, known, t))
            predictions[t] = linear_prediction(seen, row[seen], z)
        open_cells = ~known
        eligible = open_cells.any(axis=0)
        if not eligible.any():
            break
        scores = (
            segment_scores(prep, open_pairs, known, predictions) if open_pairs else np.ones(size)
        )
        if not scores[eligible].any():  # every open pair known wherever a cell is left
            scores = np.ones(size)
        scores = (1.0 - SEGMENT_FLOOR) * scores / scores[eligible].mean() + SEGMENT_FLOOR
        item_costs = (q[:, None] * campaign.costs * open_cells).sum(axis=0)
        p = np.zeros(size)
        p[eligible] = scaled_probabilities(
            scores[eligible], (1.0 - WARM_UP) / ROUNDS * judgments, item_costs[eligible]
        )
        drawn = poisson_draw(p, rng)[None, :] & (rng.random((n_systems, size)) < q[:, None])
        cells = drawn & open_cells
        cost += int(campaign.costs[cells].sum())
        least = min(least, float(p[eligible].min() * np.sort(q)[:2].prod()))
        after = known | cells
        for t, row in enumerate(prep.targets):
            systems = list(_systems_of(campaign, t))
            before = np.flatnonzero(_cells_of(campaign, known, t))
            remaining = np.flatnonzero(~_cells_of(campaign, known, t))
            # the chance, given the round before, that the target's row becomes known
            missing = np.where(open_cells[systems][:, remaining], q[systems][:, None], 1.0)
            chance = p[remaining] * missing.prod(axis=0)
            complete = _cells_of(campaign, after, t)[remaining]
            guess = np.zeros(size)
            guess[before] = row[before]  # known exactly: no error, no weight
            guess[remaining] = predictions[t][remaining]
            judged = remaining[complete]
            # the variance the round should give, from the residuals known before it
            floor = anticipated_variance(
                row[before] - predictions[t][before],
                chance,
                size,
                parameters=prep.covariates[t].shape[1] + 1,
            )
            rounds[t].append(aipw(row[judged], judged, chance[complete], guess, anticipated=floor))
            plans[t].append(1.0 / design_factor(chance))
        known = after
    final = [combine(e, w) for e, w in zip(rounds, plans, strict=True)]
    found = _Found(
        [e.mean for e in final], [e.bounds(confidence) for e in final], [e.p_value() for e in final]
    )
    return _replay(prep, found, cost, least, alpha)


def _systems_of(campaign: Campaign, target: int) -> tuple[int, ...]:
    """The systems a target (a system, then the pairs) rests on."""
    n_systems = len(campaign.systems)
    return (target,) if target < n_systems else campaign.pairs[target - n_systems]


def _cells_of(campaign: Campaign, cells: BoolArray, target: int) -> BoolArray:
    """The segments on which every system of ``target`` has a cell in ``cells``."""
    return np.asarray(np.logical_and.reduce(cells[list(_systems_of(campaign, target))]))


def _system_probability(campaign: Campaign, q: FloatArray, target: int) -> float:
    """The chance that every system of ``target`` is judged on a drawn segment (the
    systems are drawn independently)."""
    return float(np.prod(q[list(_systems_of(campaign, target))]))


REPLAYS = {RANDOM: replay_random, ADAPTIVE: replay_adaptive}


@dataclass(frozen=True)
class BudgetResult:
    """A policy's replays at one budget, summarised: ``judgments`` their mean cost and
    ``share`` its share of all judgments; ``agreement`` the mean share of pairs decided
    as all the data decide them (``agreement_se`` its standard error over the
    repetitions), ``wrong`` the share decided the other way round, ``coverage`` the
    share of system intervals covering the full-data mean (``coverage_se`` its standard
    error over the repetitions: a repetition's intervals share its draw, so they miss
    together), ``least_probability`` the
    smallest inclusion probability of any replay; ``saved`` the share of judgments saved
    against :data:`RANDOM` for the same agreement (None for random itself, or where
    random's curve does not say), ``saved_is_bound`` when random never reached that
    agreement within its budgets (then ``saved`` is a lower bound)."""

    policy: str
    budget: float
    judgments: float
    share: float
    agreement: float
    agreement_se: float
    wrong: float
    coverage: float
    coverage_se: float
    least_probability: float
    saved: float | None = None
    saved_is_bound: bool = False

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Simulation:
    """A replay's results: the campaign's size, the full data's decisions, and one
    :class:`BudgetResult` per policy and budget."""

    systems: int
    segments: int
    judgments: int
    pairs: int
    decided: int
    repetitions: int
    seed: int
    confidence: float
    alpha: float
    rows: tuple[BudgetResult, ...]
    notes: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "systems": self.systems,
            "segments": self.segments,
            "judgments": self.judgments,
            "pairs": self.pairs,
            "decided_with_all_data": self.decided,
            "repetitions": self.repetitions,
            "seed": self.seed,
            "confidence": self.confidence,
            "alpha": self.alpha,
            "policies": {
                "warm_up": WARM_UP,
                "rounds": ROUNDS,
                "system_floor": SYSTEM_FLOOR,
                "segment_floor": SEGMENT_FLOOR,
            },
            "budgets": [row.as_json() for row in self.rows],
            "notes": list(self.notes),
        }


def simulate(
    campaign: Campaign,
    *,
    policies: Sequence[str] = POLICIES,
    budgets: Sequence[float] = DEFAULT_BUDGETS,
    repetitions: int = DEFAULT_REPETITIONS,
    seed: int = 0,
    confidence: float = DEFAULT_CONFIDENCE,
    alpha: float = DEFAULT_ALPHA,
) -> Simulation:
    """Replay each policy ``repetitions`` times at each budget (shares of all judgments,
    in (0, 1]); repetition k of a budget draws from ``np.random.default_rng([seed, policy,
    budget, k])``, so a run is the same for the same seed."""
    unknown = [p for p in policies if p not in REPLAYS]
    if unknown:
        raise ValueError(f"policy {unknown[0]!r}: expected one of {', '.join(POLICIES)}")
    bad = [b for b in budgets if not 0.0 < b <= 1.0]
    if bad:
        raise ValueError(f"budget {bad[0]!r}: a share of all judgments, in (0, 1]")
    if repetitions < 1:
        raise ValueError(f"repetitions {repetitions}: at least one")
    prep = _prepare(campaign)
    rows: list[BudgetResult] = []
    for policy in policies:
        for b_index, budget in enumerate(budgets):
            replays = [
                REPLAYS[policy](
                    prep,
                    budget,
                    np.random.default_rng([seed, POLICIES.index(policy), b_index, k]),
                    confidence,
                    alpha,
                )
                for k in range(repetitions)
            ]
            rows.append(_summary(policy, budget, replays, prep))
    if RANDOM in policies:
        rows = _with_savings(rows, prep)
    return Simulation(
        systems=len(campaign.systems),
        segments=campaign.size,
        judgments=campaign.judgments,
        pairs=len(campaign.pairs),
        decided=int(np.count_nonzero(prep.full)),
        repetitions=repetitions,
        seed=seed,
        confidence=confidence,
        alpha=alpha,
        rows=tuple(rows),
        notes=campaign.notes,
    )


def _summary(
    policy: str, budget: float, replays: Sequence[Replay], prep: _Prepared
) -> BudgetResult:
    agree = np.array([np.mean(r.outcomes == prep.full) for r in replays])
    covered = np.array([r.covered.mean() for r in replays])
    wrong = np.array([np.mean(r.outcomes * prep.full < 0) for r in replays])
    cost = float(np.mean([r.cost for r in replays]))
    return BudgetResult(
        policy=policy,
        budget=budget,
        judgments=cost,
        share=cost / prep.campaign.judgments,
        agreement=float(agree.mean()),
        agreement_se=_standard_error(agree),
        wrong=float(wrong.mean()),
        coverage=float(covered.mean()),
        coverage_se=_standard_error(covered),
        least_probability=min(r.least_probability for r in replays),
    )


def _standard_error(values: FloatArray) -> float:
    """The standard error of the mean of ``values`` (NaN for one)."""
    if len(values) < 2:
        return math.nan
    return float(values.std(ddof=1) / math.sqrt(len(values)))


def _with_savings(rows: list[BudgetResult], prep: _Prepared) -> list[BudgetResult]:
    """Each non-random row with its saving against random's curve, which starts at no
    judgment at all (every pair undecided: the pairs all the data leave undecided
    agree)."""
    start = (0.0, float(np.mean(prep.full == 0)))
    curve = [start] + [(r.share, r.agreement) for r in rows if r.policy == RANDOM]
    out = []
    for row in rows:
        if row.policy == RANDOM:
            out.append(row)
            continue
        saved, bound = judgments_saved(curve, row.share, row.agreement)
        out.append(replace(row, saved=saved, saved_is_bound=bound))
    return out
