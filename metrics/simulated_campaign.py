"""A campaign whose answer is known, for ``python -m metrics simulate --synthetic N`` and
the tests: every policy replayed on it can be checked against the true system means
(:mod:`metrics.simulate` replays the policies; this module only makes the data)."""

from __future__ import annotations

import numpy as np

from metrics.simulate import Campaign


def synthetic_campaign(
    n_systems: int = 20, n_segments: int = 1000, *, seed: int = 0, document_size: int = 10
) -> Campaign:
    """A campaign whose answer is known: system means spread evenly over one unit of
    segment noise (so some pairs are close and some far), a segment difficulty every
    system shares (its own part and its document's), normal noise per score; two
    covariates, one strong (the score plus noise, r ≈ 0.8) and one weak (r ≈ 0.3)."""
    rng = np.random.default_rng(seed)
    means = np.linspace(0.0, 1.0, n_systems)
    codes = np.arange(n_segments, dtype=np.int64) // document_size
    difficulty = rng.normal(0.0, 1.0, n_segments) + rng.normal(0.0, 0.5, codes.max() + 1)[codes]
    human = means[:, None] + difficulty[None, :] + rng.normal(0.0, 1.0, (n_systems, n_segments))
    spread = human.std()
    strong = human + rng.normal(0.0, 0.75 * spread, human.shape)
    weak = human + rng.normal(0.0, 3.2 * spread, human.shape)
    return Campaign(
        systems=tuple(f"system-{k + 1:02d}" for k in range(n_systems)),
        human=human,
        covariates=np.stack([strong, weak], axis=2),
        metrics=("strong", "weak"),
        codes=codes,
        costs=np.ones(human.shape, dtype=np.int64),
    )
