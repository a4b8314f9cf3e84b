"""Student's t and the normal in Python only: scipy's values, to 1e-10."""

from __future__ import annotations

import pytest
from scipy import stats

from metrics.distributions import normal_cdf, normal_quantile, t_cdf, t_quantile, t_sf

DEGREES = [0.5, 1, 1.5, 2, 3, 4.37, 7, 10, 29.5, 100, 999, 10_000, 1e6, 5e6]
PROBABILITIES = [1e-6, 0.001, 0.025, 0.1, 0.5, 0.5001, 0.8, 0.95, 0.975, 0.995, 0.9995]


@pytest.mark.parametrize("df", DEGREES)
def test_t_quantiles_are_scipys(df: float) -> None:
    for p in PROBABILITIES:
        expected = stats.t.ppf(p, df)
        assert t_quantile(p, df) == pytest.approx(expected, rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("df", DEGREES)
def test_t_tails_are_scipys(df: float) -> None:
    for t in [-40.0, -3.0, -1.0, 0.0, 0.3, 1.96, 5.0, 40.0]:
        assert t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-9, abs=1e-13)
        assert t_cdf(t, df) == pytest.approx(stats.t.cdf(t, df), rel=1e-9, abs=1e-13)


def test_past_ten_million_degrees_t_is_the_normal() -> None:
    assert t_quantile(0.975, 1e9) == normal_quantile(0.975)
    assert t_quantile(0.975, 1e9) == pytest.approx(stats.t.ppf(0.975, 1e9), rel=1e-8)


def test_normal_quantiles_and_tails_are_scipys() -> None:
    for p in PROBABILITIES:
        assert normal_quantile(p) == pytest.approx(stats.norm.ppf(p), rel=1e-12, abs=1e-12)
    assert normal_cdf(1.96) == pytest.approx(stats.norm.cdf(1.96), rel=1e-14)


@pytest.mark.parametrize(
    "p, df, message",
    [
        (0.0, 5, "probability 0.0"),
        (1.0, 5, "probability 1.0"),
        (0.5, 0, "degrees of freedom 0"),
        (0.5, -1, "degrees of freedom -1"),
    ],
)
def test_impossible_arguments_are_refused(p: float, df: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        t_quantile(p, df)
