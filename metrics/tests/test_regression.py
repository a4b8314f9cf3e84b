"""The batch arithmetic under the estimator (:mod:`metrics.regression`): here, Hall's
skew correction of the interval, the one part whose formula stands on its own."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.regression import Fits, skew_corrected


def test_without_skew_the_quantile_is_students() -> None:
    quantile = np.array([1.96, -1.96, 0.5])
    assert skew_corrected(quantile, np.zeros(3)).tolist() == quantile.tolist()


@pytest.mark.parametrize("skew", [1e-3, -1e-3])
def test_a_small_skew_moves_the_quantile_by_the_edgeworth_term(skew: float) -> None:
    """To first order Hall's inverse is ``w − a(2w² + 1)/6``, the Cornish–Fisher quantile
    of the studentised mean (Hall 1992, "The Bootstrap and Edgeworth Expansion", §2.6)."""
    for w in (1.96, -1.96, 0.0):
        expected = w - skew * (2 * w**2 + 1) / 6
        assert skew_corrected(np.array([w]), np.array([skew]))[0] == pytest.approx(
            expected, abs=1e-5
        )


@pytest.mark.parametrize("skew", [-3.0, -0.5, 0.5, 3.0])
def test_the_corrected_quantiles_keep_their_order_whatever_the_skew(skew: float) -> None:
    """Hall's transformation is monotone: the interval always contains the estimate,
    however skewed the sample (Johnson's quadratic correction is not)."""
    w = np.linspace(-4, 4, 81)
    u = skew_corrected(w, np.full_like(w, skew))
    assert np.all(np.diff(u) > 0)
    assert skew_corrected(np.array([1.96]), np.array([skew]))[0] > 0
    assert skew_corrected(np.array([-1.96]), np.array([skew]))[0] < 0


def test_an_interval_leans_to_the_side_of_its_estimates_skew() -> None:
    """A mean skewed to the left (rare large losses, as MQM's) may lie further below the
    estimate than above it: the interval reaches further down."""
    fits = Fits(
        mean=np.array([0.0, 0.0]),
        variance=np.array([1.0, 1.0]),
        df=np.array([1e6, 1e6]),
        coefficients=np.zeros((2, 0)),
        third=np.array([-0.3, 0.0]),
    )
    low, high = fits.bounds(0.95)
    assert -low[0] > high[0] > 0
    assert (low[1], high[1]) == pytest.approx((-1.96, 1.96), abs=1e-3)
