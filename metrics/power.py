"""How many judged sentences would separate two systems: the power of a paired test.

Human evaluations are mostly too small to tell their systems apart (Card, Henderson,
Khandelwal, Jia, Mahowald, Jurafsky 2020, "With little power comes great
responsibility": about 75 % power to detect one BLEU point on 2,000 sentences, far less
in typical human evaluations). A campaign lead wants the next hour spent where it
decides something: for a pair of systems judged on the same sentences, how many judged
sentences *in all* would give a test at p < α (0.05) a chance ``power`` (80 %) of
separating them, at the effect and the spread seen so far?

**The test** (:func:`separated`): the paired t-test on the per-sentence differences
``d_i = a_i − b_i`` of the n sentences both systems have judged: separated when
``|d̄| / (s_d/√n) ≥ t_{n−1, 1−α/2}``. The sentences are a sample of the sentences such
systems translate (no finite-population correction: "not separable" must be possible,
and a test set is itself a sample of the language).

**The power** (:func:`separation_power`), in the usual normal approximation with the t
quantile (Cohen 1988, ch. 2): at n sentences, effect δ and spread σ,

    power(n) ≈ Φ(|δ|√n/σ − t_{n−1, 1−α/2}) + Φ(−|δ|√n/σ − t_{n−1, 1−α/2})

**Sentences needed** (:func:`sentences_needed`): the smallest n with power(n) ≥ ``power``,
from the closed form ``n₀ = ((z_{1−α/2} + z_{power}) σ/δ)²`` upwards (the t quantile
adds a sentence or two below thirty), at δ = d̄ and σ = s_d of the judged sentences.
Three verdicts: :data:`SEPARATED` when the test separates them already;
:data:`NOT_SEPARABLE` when even every sentence of the corpus would give less than
``power`` (or the effect is 0); else :data:`NEEDED`, with the number. The figure is a
plan, not a promise: δ is estimated from the same judged sentences, and a pair that
looks close now may be closer or farther later (``bench/estimate.py`` measures how
often the planned number separates on WMT data).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from metrics.correlation import BoolArray, Values
from metrics.distributions import normal_cdf, normal_quantile, t_quantile, t_sf
from metrics.stats import FloatArray

ALPHA = 0.05
POWER = 0.8
#: The pair differs significantly already.
SEPARATED = "already separated"
#: The pair needs this many judged sentences in all.
NEEDED = "needed"
#: Even every sentence of the corpus would not give the power wanted.
NOT_SEPARABLE = "not separable"


def _check_level(alpha: float, power: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha {alpha!r}: must lie strictly between 0 and 1")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power {power!r}: must lie strictly between 0 and 1")


def critical_t(n: int, alpha: float = ALPHA) -> float:
    """The two-sided critical value of the paired t-test on ``n`` sentences."""
    return t_quantile(1.0 - alpha / 2.0, n - 1)


def separated(differences: FloatArray, alpha: float = ALPHA) -> BoolArray:
    """Whether the paired t-test separates the two systems at ``alpha``, for each row of
    per-sentence differences (… × n; n ≥ 2). A spread of 0 separates any effect but 0."""
    d = np.asarray(differences, dtype=np.float64)
    n = d.shape[-1]
    if n < 2:
        raise ValueError(f"{n} judged sentence(s): a paired test needs at least two")
    mean = d.mean(axis=-1)
    spread = d.std(axis=-1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.abs(mean) * math.sqrt(n) / spread
    t = np.where(spread == 0.0, np.where(mean == 0.0, 0.0, math.inf), t)
    return np.asarray(t >= critical_t(n, alpha))


def separation_power(effect: float, spread: float, n: int, alpha: float = ALPHA) -> float:
    """The chance that the paired t-test on ``n`` sentences separates two systems whose
    per-sentence differences have mean ``effect`` and standard deviation ``spread``."""
    if n < 2:
        raise ValueError(f"{n} sentence(s): a paired test needs at least two")
    if spread == 0.0:
        return 0.0 if effect == 0.0 else 1.0
    shift = abs(effect) * math.sqrt(n) / spread
    critical = critical_t(n, alpha)
    return normal_cdf(shift - critical) + normal_cdf(-shift - critical)


@dataclass(frozen=True)
class Separation:
    """What it takes to separate two systems. ``verdict`` is :data:`SEPARATED`,
    :data:`NEEDED` or :data:`NOT_SEPARABLE`; ``needed`` the judged sentences in all
    (n for a separated pair, None for an inseparable one) and ``more`` those still to
    judge; ``effect`` and ``spread`` the mean and standard deviation of the per-sentence
    differences (first system minus second) on the ``n`` judged sentences, ``p_value``
    the paired t-test's, ``power_now`` the power at n."""

    verdict: str
    needed: int | None
    n: int
    corpus_size: int
    effect: float
    spread: float
    p_value: float
    power_now: float

    @property
    def more(self) -> int | None:
        return None if self.needed is None else self.needed - self.n


def sentences_needed(
    first: Values,
    second: Values,
    corpus_size: int,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
) -> Separation:
    """How many judged sentences in all would separate two systems at ``alpha`` with
    ``power``, from their scores on the same judged sentences (``first[i]`` and
    ``second[i]`` of one sentence) in a corpus of ``corpus_size`` sentences."""
    _check_level(alpha, power)
    a = np.asarray(first, dtype=np.float64)
    b = np.asarray(second, dtype=np.float64)
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError(
            f"{a.size} and {b.size} scores: give both systems' scores on the same sentences"
        )
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError("a score is not a number")
    n = len(a)
    if n < 2:
        raise ValueError(f"{n} judged sentence(s): a paired test needs at least two")
    if corpus_size < n:
        raise ValueError(f"corpus of {corpus_size} sentences but {n} judged")
    d = a - b
    effect = float(d.mean())
    spread = float(d.std(ddof=1))
    p_value = _p_value(effect, spread, n)
    power_now = separation_power(effect, spread, n, alpha)

    def result(verdict: str, needed: int | None) -> Separation:
        return Separation(verdict, needed, n, corpus_size, effect, spread, p_value, power_now)

    if bool(separated(d, alpha)):
        return result(SEPARATED, n)
    if effect == 0.0 or separation_power(effect, spread, max(corpus_size, 2), alpha) < power:
        return result(NOT_SEPARABLE, None)
    z = normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power)
    needed = max(n + 1, math.ceil((z * spread / effect) ** 2))
    while separation_power(effect, spread, needed, alpha) < power:
        needed += 1
    return result(NEEDED, min(needed, corpus_size))


def _p_value(effect: float, spread: float, n: int) -> float:
    """The paired t-test's two-sided p-value."""
    if spread == 0.0:
        return 1.0 if effect == 0.0 else 0.0
    return min(1.0, 2.0 * t_sf(abs(effect) * math.sqrt(n) / spread, n - 1))
