"""Pearson's r per sample from each side's parts (:mod:`metrics.centered`): the same
floats as :func:`~metrics.correlation.pearson_per_sample`, to the bit."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.centered import centered, pearson_of_centered
from metrics.correlation import pearson_per_sample


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("seed", range(8))
def test_parts_give_the_same_floats_as_pearson_per_sample(seed: int) -> None:
    """Random systems × samples, some columns constant on one side, ties, and a few
    points: every column's r the same float (NaN where it is undefined)."""
    rng = np.random.default_rng(seed)
    points, samples = int(rng.integers(1, 25)), int(rng.integers(1, 300))
    x = rng.normal(size=(points, samples)) * 10 ** rng.uniform(-3, 3)
    y = np.round(rng.normal(size=(points, samples)), int(rng.integers(0, 3)))
    x[:, rng.random(samples) < 0.1] = 0.25
    y[:, rng.random(samples) < 0.1] = -3.0
    cx, cy = centered(x), centered(y)
    assert cx is not None
    assert cy is not None
    got, want = pearson_of_centered(cx, cy), pearson_per_sample(x, y)
    assert _same_bits(got, want)
    assert _same_bits(pearson_of_centered(cy, cx), pearson_per_sample(y, x))


def test_a_side_with_a_nan_has_no_parts() -> None:
    """A NaN leaves its point out of that column on both sides: no side's parts alone."""
    x = np.array([[1.0, 2.0], [np.nan, 3.0], [2.0, 1.0]])
    assert centered(x) is None
    assert centered(np.array([[1.0, 2.0], [3.0, 4.0]])) is not None


def test_sides_of_other_shapes_are_refused() -> None:
    a, b = centered(np.ones((3, 4))), centered(np.ones((3, 5)))
    assert a is not None
    assert b is not None
    with pytest.raises(ValueError, match="shapes"):
        pearson_of_centered(a, b)
