"""Paired approximate randomization (Riezler & Maxwell 2005), sacreBLEU's ``--paired-ar``.

It compares two systems without resampling: each of T trials (10,000 by default) swaps a
random half of the segments' rows between the two systems (:func:`randomization_swaps`,
drawn as sacreBLEU draws them), and the p-value is the share of trials whose absolute
difference exceeds the real one, by the paired bootstrap's ``(count + 1) / (T + 1)`` rule,
uncentred (:func:`metrics.resampling.p_values_from_samples`). Two systems with identical
statistics get ``p = 1``, the deviation from sacreBLEU that :mod:`metrics.significance`
documents.
"""

from __future__ import annotations

import numpy as np

from metrics.resampling import (
    BoolArray,
    ScoreFn,
    check_samples_and_seed,
    check_segments,
    p_values_from_samples,
    scores_of,
)
from metrics.stats import FloatArray


def randomization_swaps(n_segments: int, n_trials: int, seed: int) -> BoolArray:
    """Which segments trade places in each trial of approximate randomization (T × n),
    drawn as sacreBLEU draws them: ``np.random.default_rng(seed).integers(2,
    size=(n_trials, n_segments), dtype=bool)`` (``sacrebleu.significance._paired_ar_test``).
    """
    check_segments(n_segments)
    check_samples_and_seed(n_trials, seed)
    rng = np.random.default_rng(seed)
    swaps: BoolArray = rng.integers(2, size=(n_trials, n_segments), dtype=bool)
    return swaps


#: Trials scored at a time (what bounds the memory of a randomization test).
_TRIALS_AT_ONCE = 1000


def randomization_p_value(
    baseline: FloatArray,
    system: FloatArray,
    score_from_stats: ScoreFn,
    swaps: BoolArray,
) -> float:
    """Paired approximate randomization, as sacreBLEU's ``--paired-ar``: in each trial,
    the segments marked in ``swaps`` trade the two systems' statistics rows, giving two
    pseudo-systems ``a`` (the baseline's rows where marked, the system's elsewhere) and
    ``b`` (the other way round); the p-value is that of :func:`~metrics.resampling.
    p_values_from_samples` (uncentred) of ``|score(a) − score(b)|`` against the real
    ``|score(baseline) − score(system)|``.

    ``a``'s sums are ``swaps @ (baseline − system) + Σ system``, a chunk of trials at a
    time, rather than sacreBLEU's two products with a trials × segments matrix of
    integers: the same sums (exactly for integer counts), in bounded memory.
    """
    base = np.asarray(baseline, dtype=np.float64)
    other = np.asarray(system, dtype=np.float64)
    if base.shape != other.shape or base.ndim != 2 or swaps.shape[1] != base.shape[0]:
        raise ValueError(
            f"statistics of shapes {base.shape} and {other.shape} for {swaps.shape[1]} "
            "segments: expected two (segments, k) arrays"
        )
    real = abs(
        float(score_from_stats(base.sum(axis=0))) - float(score_from_stats(other.sum(axis=0)))
    )
    delta = base - other
    total_base, total_other = base.sum(axis=0), other.sum(axis=0)
    diffs = np.empty(swaps.shape[0], dtype=np.float64)
    for start in range(0, swaps.shape[0], _TRIALS_AT_ONCE):
        chosen = swaps[start : start + _TRIALS_AT_ONCE].astype(np.float64) @ delta
        a = scores_of(score_from_stats, chosen + total_other)
        b = scores_of(score_from_stats, total_base - chosen)
        diffs[start : start + len(chosen)] = np.abs(a - b)
    return float(p_values_from_samples(diffs, np.asarray(real), centred=False))
