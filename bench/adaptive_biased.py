"""The weighted estimates' coverage under a deliberately biased adaptive policy (issue 43):
``python -m bench.adaptive_biased [--campaigns 250] [--segments 400]``.

Four systems over MQM-like scores (mostly small losses, 8 % of segments much worse),
one metric that sees them with noise. Dealt as the app deals (batches of 5 sentences, a
warm-up of a fifth of them, three rounds as large), but each round favours the batches
whose predicted score of the first system is highest, up to 5 to 1 (the policy's floor
allows as much): the bad segments are left for last, each with a small chance. Printed:
the share of the 95 % intervals of :func:`metrics.adaptive.weighted_estimates` that
cover each system's corpus mean, and which side the misses fall on; with ``--even``,
the same rounds with every batch alike. A figure, never an assertion:
``docs/simulate.md`` says what it shows.
"""

from __future__ import annotations

import argparse

import numpy as np

from metrics.adaptive import DealtRound, drawn_round, weighted_estimates
from metrics.stats import FloatArray
from metrics.weighting import linear_prediction, poisson_draw, scaled_probabilities

SYSTEMS, BATCH, ROUNDS = 4, 5, 3


def scores(rng: np.random.Generator, size: int) -> tuple[FloatArray, FloatArray]:
    """MQM-like human scores (systems × segments) and one metric (× 1)."""
    difficulty = -rng.exponential(2.0, size) - 8.0 * (rng.random(size) < 0.08)
    systems = 0.3 * np.arange(SYSTEMS)[:, None]
    human = difficulty[None, :] - systems - rng.exponential(1.0, (SYSTEMS, size))
    metric = human + rng.normal(0.0, 2.0, human.shape)
    return human, metric[:, :, None]


def biased_campaign(
    seed: int, size: int, even: bool
) -> tuple[FloatArray, FloatArray, FloatArray, list[DealtRound]]:
    """One campaign dealt by the biased policy: the truth, the metric, the judgments
    made and the rounds as recorded."""
    rng = np.random.default_rng(seed)
    truth, metric = scores(rng, size)
    batches = [np.arange(i, i + BATCH) for i in range(0, size, BATCH)]
    per_round = len(batches) // 5
    warm = rng.choice(len(batches), per_round, replace=False)
    known = np.zeros(size, dtype=bool)
    for b in warm:
        known[batches[b]] = True
    rounds = [DealtRound(np.full(size, per_round / len(batches)), known.copy(), warm_up=True)]
    dealt = set(warm.tolist())
    for _ in range(ROUNDS):
        left = [b for b in range(len(batches)) if b not in dealt]
        seen = np.flatnonzero(known)
        guess = linear_prediction(seen, truth[0, seen], metric[0])
        level = np.array([guess[batches[b]].mean() for b in left])
        rank = np.argsort(np.argsort(level)) / max(len(left) - 1, 1)
        p = scaled_probabilities(np.ones(len(left)) if even else 1.0 + 4.0 * rank, per_round)
        rounds.append(drawn_round(left, p, poisson_draw(p, rng), batches, dealt))
        known |= rounds[-1].drawn
    return truth, metric, np.where(known, truth, np.nan), rounds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--campaigns", type=int, default=250)
    parser.add_argument("--segments", type=int, default=400)
    parser.add_argument("--even", action="store_true", help="every batch alike")
    args = parser.parse_args(argv)
    covered = below = above = 0
    per_campaign = []
    batches = np.arange(args.segments) // BATCH  # each sentence's batch: drawn together
    for seed in range(args.campaigns):
        truth, metric, human, rounds = biased_campaign(seed, args.segments, args.even)
        found = weighted_estimates(human, metric, rounds, None, batches)
        hits = 0
        for s, mean in enumerate(truth.mean(axis=1)):
            estimate = found[s]
            assert estimate is not None
            low, high = estimate.bounds(0.95)
            hits += low <= mean <= high
            below += mean < low
            above += mean > high
        covered += hits
        per_campaign.append(hits / SYSTEMS)
    n = args.campaigns * SYSTEMS
    # a campaign's intervals share its draws: the Monte-Carlo error is over campaigns
    error = float(np.std(per_campaign, ddof=1)) / np.sqrt(args.campaigns)
    policy = "even" if args.even else "biased (good batches first, up to 5 to 1)"
    print(f"{policy}, {args.segments} segments, {n} intervals:")
    print(f"  coverage {covered / n:.1%} ± {error:.1%} (Monte-Carlo error, over campaigns)")
    print(f"  truth below the interval {below / n:.1%}, above {above / n:.1%}")


if __name__ == "__main__":
    main()
