"""How many judged sentences would separate two systems: the planned number separates
them four times in five, a clear difference is separated already, a vanishing one never."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from metrics.power import (
    NEEDED,
    NOT_SEPARABLE,
    SEPARATED,
    sentences_needed,
    separated,
    separation_power,
)


def pilot(effect: float, spread: float, n: int, seed: int = 0) -> np.ndarray:
    """Per-sentence differences with exactly this mean and standard deviation."""
    d = np.random.default_rng(seed).normal(size=n)
    return (d - d.mean()) / d.std(ddof=1) * spread + effect


@pytest.mark.parametrize("effect, spread", [(0.2, 1.0), (0.5, 3.0), (1.0, 2.5)])
def test_the_sentences_needed_separate_the_systems_in_80_percent_of_2000_campaigns(
    effect: float, spread: float
) -> None:
    plan = sentences_needed(pilot(effect, spread, 20), np.zeros(20), corpus_size=100_000)
    assert plan.verdict == NEEDED
    assert plan.needed is not None
    assert plan.needed == pytest.approx(((1.96 + 0.8416) * spread / effect) ** 2, abs=3)
    rng = np.random.default_rng(1)
    campaigns = rng.normal(effect, spread, size=(2000, plan.needed))
    assert separated(campaigns).mean() == pytest.approx(0.80, abs=0.03)


def test_the_planned_number_is_the_smallest_with_the_power_asked() -> None:
    plan = sentences_needed(pilot(0.3, 1.0, 20), np.zeros(20), corpus_size=5000, power=0.9)
    assert plan.needed is not None
    assert (
        separation_power(0.3, 1.0, plan.needed) >= 0.9 > separation_power(0.3, 1.0, plan.needed - 1)
    )
    assert plan.more == plan.needed - 20


def test_a_clear_difference_is_separated_already() -> None:
    a = pilot(1.0, 1.0, 25) + 3.0
    plan = sentences_needed(a, np.full(25, 3.0), corpus_size=1000)
    assert plan.verdict == SEPARATED
    assert plan.needed == 25
    assert plan.more == 0
    assert plan.p_value == pytest.approx(stats.ttest_rel(a, np.full(25, 3.0)).pvalue)
    assert plan.effect == pytest.approx(1.0)
    assert plan.spread == pytest.approx(1.0)


@pytest.mark.parametrize("effect", [0.0, 0.01])
def test_a_difference_too_small_for_the_whole_corpus_is_not_separable(effect: float) -> None:
    plan = sentences_needed(pilot(effect, 1.0, 50), np.zeros(50), corpus_size=2000)
    assert plan.verdict == NOT_SEPARABLE
    assert plan.needed is None
    assert plan.more is None
    assert separation_power(effect, 1.0, 2000) < 0.8


def test_identical_differences_separate_unless_they_are_zero() -> None:
    assert sentences_needed([2.0, 2.0, 2.0], [1.0, 1.0, 1.0], 10).verdict == SEPARATED
    assert sentences_needed([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], 10).verdict == NOT_SEPARABLE


def test_separated_is_the_paired_t_test_at_5_percent() -> None:
    rng = np.random.default_rng(4)
    a, b = rng.normal(0.3, 1, size=(400, 15)), rng.normal(0.0, 1, size=(400, 15))
    expected = stats.ttest_rel(a, b, axis=1).pvalue < 0.05
    assert (separated(a - b) == expected).all()
    assert 0 < expected.sum() < 400


def test_power_is_the_normal_approximation_with_the_t_quantile() -> None:
    shift = 0.25 * math.sqrt(100) / 1.0
    critical = stats.t.ppf(0.975, 99)
    expected = stats.norm.cdf(shift - critical) + stats.norm.cdf(-shift - critical)
    assert separation_power(0.25, 1.0, 100) == pytest.approx(expected)


@pytest.mark.parametrize(
    "first, second, size, kwargs, message",
    [
        ([1.0, 2.0], [1.0], 10, {}, "give both systems' scores on the same sentences"),
        ([1.0], [2.0], 10, {}, "at least two"),
        ([1.0, math.nan], [1.0, 2.0], 10, {}, "not a number"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 4.0], 2, {}, "corpus of 2 sentences but 3 judged"),
        ([1.0, 2.0], [1.0, 3.0], 10, {"alpha": 0.0}, "alpha 0.0"),
        ([1.0, 2.0], [1.0, 3.0], 10, {"power": 1.0}, "power 1.0"),
    ],
)
def test_bad_input_is_refused(
    first: list[float], second: list[float], size: int, kwargs: dict[str, float], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sentences_needed(first, second, size, **kwargs)
