"""Side-by-side figures (issue 42, point 1): win rates with Wilson intervals, the
Bradley–Terry ranking checked against an independent fit, Fleiss' κ on preferences, and
the comparisons a pair needs (the power plan), checked by hand and against scipy's t-test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from scipy.optimize import minimize

from metrics.pairwise import (
    Outcome,
    bradley_terry,
    comparisons_needed,
    outcome_groups,
    preference_agreement,
    wilson,
    win_rates,
)
from metrics.power import NEEDED, NOT_SEPARABLE, SEPARATED


def games(first: int, second: int, wins: int, losses: int, ties: int = 0) -> list[Outcome]:
    return (
        [Outcome(first, second, 1.0)] * wins
        + [Outcome(first, second, 0.0)] * losses
        + [Outcome(first, second, 0.5)] * ties
    )


def test_two_systems_by_hand_three_wins_in_four_make_one_three_times_stronger() -> None:
    fit = bradley_terry(games(0, 1, 3, 1), 2, prior=0, resamples=0)
    assert fit.theta[0] - fit.theta[1] == pytest.approx(math.log(3))
    assert fit.beats(0, 1) == pytest.approx(0.75)


def test_a_balanced_cycle_of_three_gives_equal_strengths() -> None:
    outcomes = games(0, 1, 2, 1) + games(1, 2, 2, 1) + games(2, 0, 2, 1)
    fit = bradley_terry(outcomes, 3, prior=0, resamples=0)
    assert np.allclose(fit.theta, 0, atol=1e-9)


def scipy_fit(outcomes: list[Outcome], systems: int) -> np.ndarray:
    """Maximum likelihood by general-purpose optimisation: ties are half a win each."""

    def negative_log_likelihood(free: np.ndarray) -> float:
        theta = np.concatenate([[0.0], free])
        total = 0.0
        for o in outcomes:
            d = theta[o.first] - theta[o.second]
            total -= o.result * -np.logaddexp(0, -d) + (1 - o.result) * -np.logaddexp(0, d)
        return total

    found = minimize(negative_log_likelihood, np.zeros(systems - 1), method="BFGS", tol=1e-12)
    theta = np.concatenate([[0.0], found.x])
    return theta - theta.mean()


def test_bradley_terry_matches_a_scipy_maximum_likelihood_fit_of_four_systems() -> None:
    outcomes = (
        games(0, 1, 7, 3, 2)
        + games(0, 2, 6, 2)
        + games(0, 3, 9, 1, 1)
        + games(1, 2, 4, 5, 3)
        + games(1, 3, 5, 4)
        + games(2, 3, 6, 3, 1)
    )
    fit = bradley_terry(outcomes, 4, prior=0, resamples=0)
    assert np.allclose(fit.theta, scipy_fit(outcomes, 4), atol=1e-5)
    assert fit.ranking == [0, 2, 1, 3]


def test_the_prior_keeps_a_system_that_always_wins_finite_and_first() -> None:
    fit = bradley_terry(games(0, 1, 5, 0) + games(1, 2, 3, 2), 3, resamples=0)
    assert np.isfinite(fit.theta).all()
    assert fit.ranking == [0, 1, 2]


def test_bootstrap_intervals_hold_the_estimate_and_repeat_with_the_seed() -> None:
    outcomes = games(0, 1, 12, 4, 2) + games(1, 2, 9, 6) + games(0, 2, 14, 2)
    fit = bradley_terry(outcomes, 3, resamples=200, seed=9)
    assert (fit.low <= fit.theta).all()
    assert (fit.theta <= fit.high).all()
    again = bradley_terry(outcomes, 3, resamples=200, seed=9)
    assert np.array_equal(fit.low, again.low)
    assert np.array_equal(fit.high, again.high)
    assert fit.signature == "bt|ties:half|prior:0.5|boot:200|seed:9"


def picks(best: int, others: tuple[int, ...], times: int, start: int = 0) -> list[Outcome]:
    """``times`` picks of ``best`` among it and ``others``, each broken into the wins
    it implies, one group a pick."""
    return [Outcome(best, other, 1.0, group=start + k) for k in range(times) for other in others]


def test_the_pairs_of_one_pick_are_resampled_together() -> None:
    """Each pick of 0 among 0, 1, 2 says 0 beat 1 and 0 beat 2, never one without the
    other: resampled by pick, 0's wins over 1 and over 2 always come in equal numbers, so
    the intervals of 1 and 2 are one; resampled pair by pair, they part."""
    outcomes = picks(0, (1, 2), 8)
    fit = bradley_terry(outcomes, 3, resamples=300, seed=4)
    assert fit.low[1] == pytest.approx(fit.low[2])
    assert fit.high[1] == pytest.approx(fit.high[2])
    apart = [Outcome(o.first, o.second, o.result) for o in outcomes]
    loose = bradley_terry(apart, 3, resamples=300, seed=4)
    assert (loose.low[1], loose.high[1]) != pytest.approx((loose.low[2], loose.high[2]))
    assert np.array_equal(fit.theta, loose.theta)  # the estimate itself is the same


def test_outcomes_without_a_group_are_each_their_own() -> None:
    outcomes = [Outcome(0, 1, 1.0), Outcome(0, 2, 1.0, group="s"), Outcome(1, 2, 0.5)]
    outcomes.append(Outcome(0, 1, 1.0, group="s"))
    assert outcome_groups(outcomes).tolist() == [0, 1, 2, 1]


def test_win_rates_count_ties_half_whichever_side_the_pair_was_shown() -> None:
    outcomes = [*games(0, 1, 3, 1, 2), *games(1, 0, 1, 0)]
    (rate,) = win_rates(outcomes)
    assert (rate.first, rate.second, rate.wins, rate.losses, rate.ties) == (0, 1, 3, 2, 2)
    assert rate.rate == pytest.approx(4 / 7)
    assert (rate.low, rate.high) == pytest.approx(wilson(4, 7))
    assert rate.low < rate.rate < rate.high


def test_wilson_interval_by_hand() -> None:
    low, high = wilson(8, 10)
    # Wilson (1927): p=0.8, n=10, z=1.96 → (0.4902, 0.9433)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_agreement_is_one_when_annotators_agree_and_below_zero_when_they_never_do() -> None:
    same = [
        Outcome(0, 1, 1.0, judge="ana", item=1),
        Outcome(1, 0, 0.0, judge="ben", item=1),  # the same preference, shown swapped
        Outcome(0, 1, 0.0, judge="ana", item=2),
        Outcome(0, 1, 0.0, judge="ben", item=2),
        Outcome(0, 1, 0.5, judge="ana", item=3),
    ]
    agreed = preference_agreement(same)
    assert (agreed.kappa, agreed.observed, agreed.items) == (1.0, 1.0, 2)
    never = [
        Outcome(0, 1, 1.0, judge="ana", item=1),
        Outcome(0, 1, 0.0, judge="ben", item=1),
        Outcome(0, 1, 0.0, judge="ana", item=2),
        Outcome(0, 1, 1.0, judge="ben", item=2),
    ]
    assert preference_agreement(never).kappa == pytest.approx(-1.0)
    assert math.isnan(preference_agreement(same[-1:]).kappa)


def test_no_outcome_gives_level_strengths_and_no_interval() -> None:
    fit = bradley_terry([], 3)
    assert fit.theta.tolist() == [0.0, 0.0, 0.0]
    assert np.isnan(fit.low).all()
    assert win_rates([]) == []
    assert preference_agreement([]).items == 0


def test_systems_in_groups_never_compared_with_each_other_get_finite_strengths() -> None:
    outcomes = games(0, 1, 2, 1) + games(2, 3, 1, 1)
    fit = bradley_terry(outcomes, 5, resamples=20)
    assert np.isfinite(fit.theta).all()
    # within a group, as the two-system fit with the prior's half tie each: 2.25 to 1.25
    assert fit.theta[0] - fit.theta[1] == pytest.approx(math.log(2.25 / 1.25))
    assert fit.theta[2] - fit.theta[3] == pytest.approx(0)
    assert fit.theta[4] == 0.0  # never compared


def test_eight_wins_in_ten_need_eighteen_comparisons_by_hand() -> None:
    """Outcomes 1 ×8, 0 ×2: effect 0.3 over ½, spread √(1.6/9) = 0.4216; t = 2.25 on 9
    degrees of freedom, under t₀.₉₇₅ = 2.262: not separated yet. (z₀.₉₇₅ + z₀.₈ · σ/δ)²
    = 15.5, and the t quantile asks two more: at 17, Φ(2.934 − 2.120) = 0.792; at 18,
    Φ(3.019 − 2.110) = 0.818."""
    (rate,) = win_rates(games(0, 1, 8, 2))

    plan = comparisons_needed(rate, 100)

    assert (plan.verdict, plan.needed, plan.more) == (NEEDED, 18, 8)
    assert plan.effect == pytest.approx(0.3)
    assert plan.spread == pytest.approx(math.sqrt(1.6 / 9))


@pytest.mark.parametrize(
    "wins, losses, ties", [(8, 2, 0), (12, 3, 5), (5, 5, 4), (30, 14, 6), (3, 1, 0)]
)
def test_the_plan_s_test_is_scipy_s_one_sample_t_test_of_the_outcomes_against_a_half(
    wins: int, losses: int, ties: int
) -> None:
    (rate,) = win_rates(games(0, 1, wins, losses, ties))
    outcomes = [1.0] * wins + [0.0] * losses + [0.5] * ties
    reference = stats.ttest_1samp(outcomes, 0.5)

    plan = comparisons_needed(rate, 1000)

    assert plan.p_value == pytest.approx(float(reference.pvalue), rel=1e-9)
    assert (plan.verdict == SEPARATED) == (reference.pvalue <= 0.05)


def test_a_pair_past_what_it_can_have_is_not_separable_and_a_clear_one_is_separated() -> None:
    (close,) = win_rates(games(0, 1, 6, 5, 1))
    (clear,) = win_rates(games(0, 1, 19, 1))

    assert comparisons_needed(close, 40).verdict == NOT_SEPARABLE
    assert comparisons_needed(close, 10_000).verdict == NEEDED
    assert comparisons_needed(clear, 40).verdict == SEPARATED
