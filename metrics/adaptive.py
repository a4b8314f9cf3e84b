"""Adaptive dealing under way: the simulation's policy and weighting, step by step.

:mod:`metrics.simulate` replays the adaptive policy on a campaign whose every judgment
is known; a campaign in the app takes the same steps one round at a time, with the
judgments made so far (NaN where a system is not judged yet on a segment) and what it
recorded of each round: every segment's chance of being drawn in it, and which were.
Two steps, the same code as the replay's:

* :func:`batch_probabilities`: the next round's chance for each batch still to deal
  (a batch, the app's unit of dealing, is a run of segments judged on every system).
  A pair of systems is *open* while the weighted estimate so far does not separate it
  at ``alpha``; each segment scores the expected size of the open pairs' prediction
  errors (:func:`metrics.simulate.segment_scores`), a batch the mean of its segments',
  mixed with :data:`~metrics.simulate.SEGMENT_FLOOR` of an even share, so every batch
  keeps a chance of at least that share of the average; the chances are scaled to an
  expected cost in candidates (:func:`metrics.weighting.scaled_probabilities`).
* :func:`weighted_estimates`: every system's and pair's estimate of its mean over the
  corpus, the warm-up (a simple random sample of batches) by the dashboard's estimator
  (:func:`metrics.estimate.fit_judged`), each later round by augmented inverse-probability
  weighting with a prediction learnt on the rounds before (:func:`metrics.weighting.aipw`),
  the rounds combined with predictable weights (:func:`metrics.weighting.combine`).
  Given each segment's batch, a batch counts as one draw in the variances
  (:func:`warm_up_estimate`; ``aipw``'s ``clusters``); the replay draws single segments.

**What differs from the replay.** A replay judges a drawn segment at once; in the app a
drawn batch is judged when a judge gets to it, and a campaign can be read (or stopped)
with some drawn batches not judged yet. A round's batches are dealt in a random order,
so those judged so far are a random part of those drawn: each judged segment's chance is
its recorded chance times the share of the round's drawn segments judged so far (a
two-phase sample). A segment drawn in an earlier round and still not judged is predicted
in later rounds' estimates, with no residual to correct it there (its own round counts
it through the share): a small bias, about one batch per judge at work, that vanishes
as the rounds are judged through.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.claims import too_few
from metrics.correlation import BoolArray, IntArray
from metrics.estimate import fit_judged, unstratified_fits
from metrics.regression import Fits
from metrics.simulate import SEGMENT_FLOOR, Campaign, policy_view, segment_scores
from metrics.stats import FloatArray
from metrics.weighting import (
    Weighted,
    aipw,
    anticipated_variance,
    combine,
    design_factor,
    linear_prediction,
    scaled_probabilities,
)

#: The fewest segments a target needs judged in a round for that round to estimate it,
#: and in common for a pair's errors to be modelled.
MIN_JUDGED = 3


@dataclass(frozen=True)
class DealtRound:
    """One round as recorded: each segment's chance of being drawn in it (0 where it
    could not be: dealt in an earlier round) and whether it was drawn. The warm-up
    (``warm_up``) is a simple random sample of batches: the dashboard's estimator reads
    it, not the weighting."""

    probabilities: FloatArray
    drawn: BoolArray
    warm_up: bool = False


def campaign_of(human: FloatArray, covariates: FloatArray) -> Campaign:
    """The judgments so far (systems × segments, NaN: not judged) and the covariates
    (systems × segments × metrics) as :mod:`metrics.simulate` reads a campaign."""
    s, n = human.shape
    return Campaign(
        systems=tuple(str(k) for k in range(s)),
        human=np.asarray(human, dtype=np.float64),
        covariates=np.asarray(covariates, dtype=np.float64),
        metrics=tuple(str(k) for k in range(covariates.shape[2])),
        codes=None,
        costs=np.ones((s, n), dtype=np.int64),
    )


def weighted_estimates(
    human: FloatArray,
    covariates: FloatArray,
    rounds: Sequence[DealtRound],
    codes: IntArray | None = None,
    clusters: IntArray | None = None,
) -> list[Weighted | None]:
    """Every system's (then every pair's, in :attr:`Campaign.pairs` order) estimate of
    its mean over the corpus from the judgments so far and the recorded ``rounds``
    (module doc); None for a target no round judged on :data:`MIN_JUDGED` segments, or
    judged on too few in all (:func:`metrics.claims.too_few`: no claim on a handful).
    ``clusters``: each segment's batch (segments drawn together), whose weighted
    residuals a round's variance sums first (:func:`metrics.weighting.aipw`); None: each
    segment drawn on its own."""
    prep = policy_view(campaign_of(human, covariates))
    size = prep.campaign.size
    known = ~np.isnan(prep.targets)
    warm = _warm_up_fits(prep.targets, prep.covariates, rounds, codes)
    out: list[Weighted | None] = []
    for t, (row, z) in enumerate(zip(prep.targets, prep.covariates, strict=True)):
        found: list[Weighted] = []
        weights: list[float] = []
        before = np.zeros(size, dtype=bool)
        for r, dealt in enumerate(rounds):
            judged = np.flatnonzero(dealt.drawn & known[t])
            if len(judged) >= MIN_JUDGED:
                if dealt.warm_up:
                    found.append(_by_batch(warm[r, t], row, z, judged, clusters))
                    weights.append(1.0 / design_factor(np.full(size, len(judged) / size)))
                else:
                    estimate, weight = _round_estimate(row, z, before, dealt, judged, clusters)
                    found.append(estimate)
                    weights.append(weight)
            before |= dealt.drawn & known[t]
        # the dashboard's one rule on what is too few to claim anything from
        out.append(combine(found, weights) if found and not too_few(int(before.sum())) else None)
    return out


def _warm_up_fits(
    targets: FloatArray,
    covariates: Sequence[FloatArray],
    rounds: Sequence[DealtRound],
    codes: IntArray | None,
) -> dict[tuple[int, int], Weighted]:
    """The dashboard's control-variate estimate (:func:`metrics.estimate.fit_judged`)
    of each target (a row of ``targets``, its ``covariates``) by each warm-up round
    that judged it on :data:`MIN_JUDGED` segments or more, keyed (round, target).
    Without documents (``codes``), the targets a round judged on the same segments
    with as many covariates are fitted at once: a warm-up judges every system on its
    batches, so one fit serves them all, and their pairs."""
    known = ~np.isnan(targets)
    out: dict[tuple[int, int], Weighted] = {}
    for r, dealt in enumerate(rounds):
        if not dealt.warm_up:
            continue
        groups: dict[tuple[bytes, int], list[int]] = {}
        for t in range(len(targets)):
            judged = np.flatnonzero(dealt.drawn & known[t])
            if len(judged) >= MIN_JUDGED:
                groups.setdefault((judged.tobytes(), covariates[t].shape[1]), []).append(t)
        for (key, _), members in groups.items():
            judged = np.frombuffer(key, dtype=np.intp)
            if codes is None:
                z = np.stack([covariates[t] for t in members])
                chosen = unstratified_fits(targets[members][:, judged], z, judged)[2]
                for k, t in enumerate(members):
                    out[r, t] = _weighted(chosen, k)
            else:
                for t in members:
                    fits = fit_judged(targets[t][judged], covariates[t], judged, codes).chosen
                    out[r, t] = _weighted(fits, 0)
    return out


def _weighted(fits: Fits, k: int) -> Weighted:
    """The ``k``-th estimate of a batch of fits, as the weighting reads it."""
    return Weighted(float(fits.mean[k]), float(fits.variance[k]), float(fits.third[k]))


def warm_up_estimate(
    row: FloatArray,
    z: FloatArray,
    judged: IntArray,
    codes: IntArray | None = None,
    clusters: IntArray | None = None,
) -> Weighted:
    """The warm-up's estimate of a target: the dashboard's control-variate estimate
    (:func:`metrics.estimate.fit_judged`) of its ``judged`` segments, its variance
    counting each batch as one draw (:func:`_by_batch`)."""
    estimate = _weighted(fit_judged(row[judged], z, judged, codes).chosen, 0)
    return _by_batch(estimate, row, z, judged, clusters)


def _by_batch(
    estimate: Weighted,
    row: FloatArray,
    z: FloatArray,
    judged: IntArray,
    clusters: IntArray | None,
) -> Weighted:
    """A warm-up's ``estimate`` of a target from its ``judged`` segments, with the
    variance of a draw of whole batches (``clusters``: each segment's), not segments:
    where a batch's sentences miss their prediction together (a document harder than
    its metrics say), the segments' variance is too small, so the variance is the
    larger of it and the batches' (:func:`metrics.weighting.aipw` on the regression's
    residuals, each batch drawn with the warm-up's share of the batches)."""
    if clusters is None:
        return estimate
    drawn = clusters[judged]
    m = len(np.unique(drawn))
    fitted = linear_prediction(judged, row[judged], z)
    share = np.full(len(judged), m / len(np.unique(clusters)))
    # residuals of a fit to the same batches: their spread is short by about one batch in m
    by_batch = aipw(row[judged], judged, share, fitted, drawn).variance * m / max(m - 1, 1)
    return Weighted(estimate.mean, max(estimate.variance, by_batch), estimate.third)


def _round_estimate(
    row: FloatArray,
    z: FloatArray,
    before: BoolArray,
    dealt: DealtRound,
    judged: IntArray,
    clusters: IntArray | None = None,
) -> tuple[Weighted, float]:
    """One adaptive round's estimate of a target and its weight: the segments known
    before it count exactly, the others are predicted from those, and the round's
    judged ones correct their prediction by the residual over their chance (the
    recorded one times the share of the round's drawn segments judged so far)."""
    seen = np.flatnonzero(before)
    predicted = linear_prediction(seen, row[seen], z)
    guess = np.where(before, np.nan_to_num(row), predicted)
    share = len(judged) / max(int(np.count_nonzero(dealt.drawn)), 1)
    chance = dealt.probabilities * share
    pool = (chance > 0.0) & ~before
    possible = chance[pool]
    if clusters is None:
        drawn_with = seen_with = None
        draws = possible
    else:  # one chance per batch the round could draw
        drawn_with, seen_with = clusters[judged], clusters[seen]
        draws = possible[np.unique(clusters[pool], return_index=True)[1]]
    least = anticipated_variance(
        row[seen] - predicted[seen],
        draws,
        len(row),
        parameters=z.shape[1] + 1,
        clusters=seen_with,
    )
    estimate = aipw(row[judged], judged, chance[judged], guess, drawn_with, anticipated=least)
    return estimate, 1.0 / design_factor(possible if len(possible) else np.ones(1))


def open_pairs(estimates: Sequence[Weighted | None], n_systems: int, alpha: float) -> list[int]:
    """The pairs (indices into :attr:`Campaign.pairs`) the estimates so far do not
    separate at ``alpha`` (no estimate: open)."""
    pairs = estimates[n_systems:]
    return [k for k, e in enumerate(pairs) if e is None or e.p_value() >= alpha]


def batch_probabilities(
    human: FloatArray,
    covariates: FloatArray,
    rounds: Sequence[DealtRound],
    batches: Sequence[IntArray],
    *,
    costs: FloatArray,
    expected: float,
    alpha: float,
    codes: IntArray | None = None,
    focus: Sequence[int] | None = None,
    clusters: IntArray | None = None,
) -> tuple[FloatArray, list[int]]:
    """The next round's chance of each of ``batches`` (each: its segments' indices;
    the batches still to deal) and the open pairs it favours (module doc). ``costs``:
    each batch's candidates; ``expected``: the candidates the round should deal on
    average; ``focus``: the pairs the lead cares about (None: every pair), the only
    ones favoured: once they are all resolved every batch left has the same chance."""
    campaign = campaign_of(human, covariates)
    prep = policy_view(campaign)
    n_systems = len(campaign.systems)
    if not batches:
        return np.zeros(0), []
    estimates = weighted_estimates(human, covariates, rounds, codes, clusters)
    still_open = open_pairs(estimates, n_systems, alpha)
    if focus is not None:
        still_open = [k for k in still_open if k in set(focus)]
    known = ~np.isnan(campaign.human)
    modelled = [
        k
        for k in still_open
        if np.count_nonzero(known[campaign.pairs[k][0]] & known[campaign.pairs[k][1]]) >= MIN_JUDGED
    ]
    predictions = {}
    for k in modelled:
        t = n_systems + k
        seen = np.flatnonzero(~np.isnan(prep.targets[t]))
        predictions[t] = linear_prediction(seen, prep.targets[t][seen], prep.covariates[t])
    scores = (
        segment_scores(prep, modelled, known, predictions) if modelled else np.ones(campaign.size)
    )
    per_batch = np.array([float(scores[b].mean()) for b in batches])
    if not per_batch.any() or not np.all(np.isfinite(per_batch)):
        per_batch = np.ones(len(batches))
    per_batch = (1.0 - SEGMENT_FLOOR) * per_batch / per_batch.mean() + SEGMENT_FLOOR
    return scaled_probabilities(per_batch, expected, costs), still_open


def drawn_round(
    left: Sequence[int],
    p: FloatArray,
    take: BoolArray,
    batches: Sequence[IntArray],
    dealt: set[int],
) -> DealtRound:
    """The round that gave the batches ``left`` (indices into ``batches``, each its
    segments) the chances ``p`` and drew ``take`` (those added to ``dealt``), as the app
    records it: each segment its batch's chance. For replays and tests."""
    size = sum(len(b) for b in batches)
    chance, in_round = np.zeros(size), np.zeros(size, dtype=bool)
    for b, pb, t in zip(left, p, take, strict=True):
        chance[batches[b]] = pb
        if t:
            in_round[batches[b]] = True
            dealt.add(b)
    return DealtRound(chance, in_round)
