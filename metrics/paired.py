"""sacreBLEU's significance options on the command line: paired tests against a baseline
and bootstrap confidence intervals, from the statistics rows the scores were summed from.

``python -m metrics`` with ``--paired-bs`` (paired bootstrap resampling) or
``--paired-ar`` (approximate randomization) compares every ``--hyp`` with the first,
the baseline, as ``sacrebleu REF -i BASELINE SYSTEM … --paired-bs`` does; ``--confidence``
gives each system the 95 % bootstrap interval ``sacrebleu -i SYSTEM --confidence`` gives
it alone. The numbers are sacreBLEU 2.6's, rule for rule:

* the seed is ``$SACREBLEU_SEED`` (default 12345; ``none``: drawn from the operating
  system, and printed so that the run can be repeated; ``0`` is the seed 0, where
  sacreBLEU's paired tests, reading it as false, draw unseeded);
* ``--paired-bs``: ``--paired-bs-n`` (1,000) resampled test sets drawn once, the same for
  every system (:func:`metrics.significance.bootstrap_indices`); each system's p-value
  against the baseline is :func:`metrics.resampling.p_values_from_samples` and its
  interval, the baseline's included, comes from the same samples;
* ``--paired-ar``: ``--paired-ar-n`` (10,000) trials, the swaps drawn afresh from the
  seed for every system as sacreBLEU does (the same swaps, then);
  :func:`metrics.randomization.randomization_p_value`. No interval unless
  ``--confidence`` asks (sacreBLEU's command line gives none);
* ``--confidence``: ``--confidence-n`` (1,000) resamples per system, drawn from the seed
  (with ``--paired-bs``, the test's own samples are the intervals');
* an interval is printed as sacreBLEU prints it, ``μ ± ci``: the mean of the resampled
  scores and half the distance between their 2.5 % and 97.5 % order statistics
  (:func:`metrics.significance.percentile_interval`); the JSON also gives those two
  order statistics (``low``, ``high``), the percentile interval the dashboard draws.

Where sacreBLEU differs, :mod:`metrics.significance`'s documented deviation holds: two
systems whose statistics rows are identical get ``p = 1``, not sacreBLEU's ``1/(B+1)``.
And sacreBLEU's command line refuses ``--confidence`` for several systems; here each
gets its own interval. Every metric takes part (any metric has statistics rows), not
only BLEU, chrF and TER.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from metrics.numerals import whole_number
from metrics.stats import FloatArray, format_signature

if TYPE_CHECKING:  # imported by the tests themselves: a run without one needs neither
    from metrics.ranking import Interval

#: sacreBLEU's defaults: ``--paired-bs-n``, ``--paired-ar-n``, ``--confidence-n``, the seed.
PAIRED_BS_SAMPLES = 1000
PAIRED_AR_TRIALS = 10000
CONFIDENCE_SAMPLES = 1000
SEED_VARIABLE = "SACREBLEU_SEED"
DEFAULT_SEED = 12345
#: The p-value under which a difference is marked ``*`` (sacreBLEU's threshold).
THRESHOLD = 0.05

ScoreFn = Callable[[FloatArray], Any]


@dataclass(frozen=True)
class TestSetup:
    """What the command line asked for: a paired test (``bs``, ``ar`` or none), its
    number of samples or trials, the intervals' number of resamples (0: none), the seed."""

    test: str | None
    n: int
    confidence_n: int
    seed: int

    def __post_init__(self) -> None:
        if self.test not in (None, "bs", "ar"):
            raise ValueError(f"paired test {self.test!r}: choose bs or ar")
        for what, value in (("number of samples", self.n), ("--confidence-n", self.confidence_n)):
            if value < 0 or (value == 0 and what != "--confidence-n"):
                raise ValueError(f"{what} {value}: must be a positive integer")

    @property
    def interval_samples(self) -> int:
        """Resamples behind each interval: the paired bootstrap's own, else ``--confidence-n``."""
        return self.n if self.test == "bs" else self.confidence_n

    def signature(self) -> str:
        """``test:paired-bs|bs:1000|seed:12345|…``, ``test:paired-ar|ar:10000|seed:…[|bs:…]``
        or ``test:confidence|bs:1000|seed:…`` (sacreBLEU adds the same keys to its
        signatures)."""
        parts: dict[str, object] = {"test": f"paired-{self.test}" if self.test else "confidence"}
        if self.test:
            parts[self.test] = self.n
        parts["seed"] = self.seed
        if self.test != "bs" and self.confidence_n:
            parts["bs"] = self.confidence_n
        return format_signature(parts)


def seed_from_environment(environ: Mapping[str, str] | None = None) -> int:
    """``$SACREBLEU_SEED`` as sacreBLEU reads it (default 12345); ``none`` draws one."""
    value = (os.environ if environ is None else environ).get(SEED_VARIABLE, str(DEFAULT_SEED))
    if value.strip().lower() == "none":
        return int(np.random.SeedSequence().entropy % 2**32)  # type: ignore[operator]
    try:
        seed = whole_number(value.strip())
    except ValueError:
        raise ValueError(f"{SEED_VARIABLE}={value!r}: not an integer (nor none)") from None
    if seed < 0:
        raise ValueError(f"{SEED_VARIABLE}={value!r}: must not be negative")
    return seed


@dataclass(frozen=True)
class SystemResult:
    """One system's test figures for one metric: its p-value against the baseline (None
    for the baseline itself, or without a paired test) and its interval (or None)."""

    p_value: float | None
    interval: Interval | None

    def as_json(self) -> dict[str, Any]:
        """``p_value`` and ``mean``, ``ci``, ``low``, ``high`` (those present; NaN: null)."""
        out: dict[str, Any] = {}
        if self.p_value is not None:
            out["p_value"] = _finite(self.p_value)
        if self.interval is not None:
            i = self.interval
            out |= {
                "mean": _finite(i.mean),
                "ci": _finite(i.half_width),
                "low": _finite(i.low),
                "high": _finite(i.high),
            }
        return out

    def cell(self, score: float) -> str:
        """sacreBLEU's cell: ``34.21 (34.30 ± 1.21) (p = 0.0230)*``."""
        text = f"{score:.2f}"
        if self.interval is not None:
            text += f" ({self.interval.mean:.2f} ± {self.interval.half_width:.2f})"
        if self.p_value is not None:
            text += f" (p = {self.p_value:.4f})" + ("*" if self.p_value < THRESHOLD else "")
        return text


def _finite(value: float) -> float | None:
    return value if np.isfinite(value) else None


def _interval(samples: FloatArray) -> Interval:
    from metrics.ranking import Interval
    from metrics.significance import percentile_interval

    low, high, mean = (float(v) for v in percentile_interval(samples))
    return Interval(low, high, mean)


def run_tests(
    stats: Mapping[str, FloatArray], score_from_stats: ScoreFn, setup: TestSetup
) -> dict[str, SystemResult]:
    """Each system's :class:`SystemResult` for one metric; ``stats`` maps the systems,
    baseline first, to their (segments × k) rows."""
    from metrics.randomization import randomization_p_value, randomization_swaps
    from metrics.significance import Bootstrap, p_values_from_samples

    names = list(stats)
    rows = np.stack([np.asarray(stats[name], dtype=np.float64) for name in names])
    n_segments = rows.shape[1]
    p_values: list[float | None] = [None] * len(names)
    intervals: list[Interval | None] = [None] * len(names)
    if n_segments == 0:
        raise ValueError("no segment to resample")
    if setup.test == "bs":
        samples = Bootstrap(n_segments, setup.n, setup.seed).sample_scores(rows, score_from_stats)
        scores = np.asarray(score_from_stats(rows.sum(axis=1)), dtype=np.float64)
        real = np.abs(scores[1:] - scores[0])
        diffs = np.abs(samples[1:] - samples[0][None, :])
        p_values[1:] = [float(p) for p in p_values_from_samples(diffs, real)]
        intervals = [_interval(s) for s in samples]
    elif setup.test == "ar":
        swaps = randomization_swaps(n_segments, setup.n, setup.seed)
        p_values[1:] = [
            randomization_p_value(rows[0], other, score_from_stats, swaps) for other in rows[1:]
        ]
    if setup.test != "bs" and setup.confidence_n:
        boot = Bootstrap(n_segments, setup.confidence_n, setup.seed)
        intervals = [_interval(s) for s in boot.sample_scores(rows, score_from_stats)]
    return {
        name: SystemResult(p, interval)
        for name, p, interval in zip(names, p_values, intervals, strict=True)
    }


def legend(setup: TestSetup, baseline: str) -> list[str]:
    """The lines under the table that say what its brackets mean."""
    lines = []
    if setup.test:
        kind = "bootstrap resampling" if setup.test == "bs" else "approximate randomization"
        unit = "resampled test sets" if setup.test == "bs" else "trials"
        lines += [
            f"Paired {kind} test ({setup.n} {unit}, seed {setup.seed}): each system against "
            f"the baseline {baseline}.",
            "(p = …): the probability of a difference at least as large by chance;",
            f"* marks p < {THRESHOLD}: the systems differ (which says nothing of which is better).",
        ]
    if setup.interval_samples:
        lines.append(
            f"(μ ± ci): the mean of {setup.interval_samples} bootstrap resamples ± half "
            "their 95% percentile interval."
        )
    return lines
