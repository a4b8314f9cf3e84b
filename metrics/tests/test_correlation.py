"""Pearson's r, Kendall's tau-b, Krippendorff's alpha (interval), (0, 1) normalization:
hand-checked values, brute-force references, NaN-safe edge cases."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

from metrics.correlation import (
    Coefficient,
    agreement_sums,
    agreement_sums_of_cells,
    alpha_coefficient,
    alpha_of_sums,
    count_inversions,
    kendall_tau_b,
    kendall_tau_b_against,
    kendall_tau_b_per_sample,
    krippendorff_alpha_interval,
    pearson,
    pearson_of_sums,
    pearson_per_sample,
    z_normalize,
)

nan = math.nan


def assert_value(got: float, expected: float) -> None:
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(expected, abs=1e-12)


# ------------------------------------------------------------------ Pearson

PEARSON_CASES = [
    # x, y, r, n
    ([1, 2, 3], [2, 4, 6], 1.0, 3),
    ([1, 2, 3], [3, 2, 1], -1.0, 3),
    # dx = (−1.5, −.5, .5, 1.5), dy = (−1.5, .5, −.5, 1.5): Σdxdy = 4, Σdx² = Σdy² = 5
    ([1, 2, 3, 4], [1, 3, 2, 4], 0.8, 4),
    # the NaN pair is dropped, n counts the rest
    ([1, 2, nan, 3, 4], [1, 3, 7, 2, 4], 0.8, 4),
    ([1], [2], nan, 1),  # n < 2
    ([], [], nan, 0),
    ([1, 2, 3], [5, 5, 5], nan, 3),  # constant side: undefined
    ([0.1, 0.1, 0.1], [1, 2, 3], nan, 3),  # constant, although the mean is inexact
]


@pytest.mark.parametrize("x, y, r, n", PEARSON_CASES)
def test_pearson(x: list[float], y: list[float], r: float, n: int) -> None:
    result = pearson(x, y)
    assert_value(result.value, r)
    assert (result.name, result.n) == ("pearson", n)


def test_pearson_case_with_missing_value_by_hand() -> None:
    # pairs (1,1) (2,3) (4,4): dx = (−4, −1, 5)/3, dy = (−5, 1, 4)/3,
    # Σdxdy = 39/9, Σdx² = Σdy² = 42/9 → r = 39/42 = 13/14
    result = pearson([1, 2, 3, 4], [1, 3, nan, 4])
    assert result.value == pytest.approx(13 / 14, abs=1e-15)
    assert result.n == 3


# ------------------------------------------------------------------ Kendall tau-b


def brute_force_tau_b(x: np.ndarray, y: np.ndarray) -> float:
    """The O(n²) definition: sign products over all pairs, ties counted per side."""
    conc = disc = tie_x = tie_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        sx, sy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        tie_x += sx == 0
        tie_y += sy == 0
        conc += sx * sy > 0
        disc += sx * sy < 0
    n0 = len(x) * (len(x) - 1) // 2
    if n0 in (tie_x, tie_y):
        return nan
    return float((conc - disc) / math.sqrt((n0 - tie_x) * (n0 - tie_y)))


KENDALL_CASES = [
    # x, y, tau_b, n
    ([1, 2, 3, 4, 5], [2, 1, 4, 3, 5], 0.6, 5),  # D = 2, C = 8: (8 − 2)/10
    ([1, 2, 3, 4, 5], [5, 4, 3, 2, 1], -1.0, 5),
    # ties: n0 = 6, n1 = n2 = 1, C = 4, D = 0 → 4/√(5·5)
    ([1, 1, 2, 3], [1, 2, 2, 3], 0.8, 4),
    # scipy.stats.kendalltau's docstring example (scipy 1.17.1: −0.47140452079103173)
    ([12, 2, 1, 12, 2], [1, 4, 7, 1, 0], -0.47140452079103173, 5),
    ([1, 2, nan, 3], [3, 2, 9, 1], -1.0, 3),
    ([1, 1, 1], [1, 2, 3], nan, 3),  # every pair tied in x
    ([4], [2], nan, 1),
    ([], [], nan, 0),
]


@pytest.mark.parametrize("x, y, tau, n", KENDALL_CASES)
def test_kendall_tau_b(x: list[float], y: list[float], tau: float, n: int) -> None:
    result = kendall_tau_b(x, y)
    assert_value(result.value, tau)
    assert (result.name, result.n) == ("kendall_tau_b", n)


@pytest.mark.parametrize(
    "seed, n, levels",
    [(0, 2, 2), (1, 7, 3), (2, 40, 5), (3, 101, 11), (4, 150, 1000), (5, 64, 2)],
)
def test_kendall_equals_brute_force(seed: int, n: int, levels: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, levels, n).astype(float)
    y = (x + rng.integers(0, levels, n)).astype(float)  # correlated, with many ties
    assert_value(kendall_tau_b(x, y).value, brute_force_tau_b(x, y))
    assert_value(kendall_tau_b(y, x).value, brute_force_tau_b(y, x))


def test_kendall_against_one_y_equals_each_pair_alone() -> None:
    """The meta-evaluation's shared ranking of y gives each x the same τ-b, also where x
    or y has a NaN (the pair is dropped) and where x is constant (undefined)."""
    rng = np.random.default_rng(7)
    y = rng.integers(0, 11, 300).astype(float)
    y[[3, 50]] = nan
    xs = [y + rng.integers(0, 5, 300) for _ in range(4)]
    xs[1][[7, 9]] = nan
    xs.append(np.ones(300))
    found = kendall_tau_b_against(xs, y)
    for x, tau in zip(xs, found, strict=True):
        alone = kendall_tau_b(x, y)
        assert (tau.n, tau.name) == (alone.n, alone.name)
        assert_value(tau.value, alone.value)


@pytest.mark.parametrize("distinct", [6, 40, 1000])  # counted value by value, merged
@pytest.mark.parametrize(
    "seed, n", [(0, 1), (1, 2), (2, 9), (3, 31), (4, 32), (5, 33), (6, 100), (7, 257)]
)
def test_count_inversions_equals_brute_force(seed: int, n: int, distinct: int) -> None:
    values = np.random.default_rng(seed).integers(0, distinct, n)
    expected = sum(int(values[i] > values[j]) for i, j in itertools.combinations(range(n), 2))
    assert count_inversions(values) == expected


# ------------------------------------------------------------------ Krippendorff's alpha

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", §C: 4 observers,
# 12 units, missing values; interval alpha = 0.849 on n = 40 pairable values.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
]


def test_krippendorff_textbook_example() -> None:
    result = krippendorff_alpha_interval(KRIPPENDORFF_2011)
    assert round(result.value, 3) == 0.849
    assert result.n == 40


ALPHA_CASES = [
    # coders × units, alpha, n
    ([[1, 2], [1, 2]], 1.0, 4),  # perfect agreement
    # D_o = (2 + 2)/4 = 1; D_e = 2(4·10 − 36)/(4·3) = 2/3 → 1 − 1.5
    ([[1, 2], [2, 1]], -0.5, 4),
    # one unit, two values: D_o = 8/2 = 4, D_e = 8/2 = 4 → 0
    ([[1], [3]], 0.0, 2),
    ([[1, 2, 3]], nan, 0),  # one coder: nothing pairable
    ([[1, nan], [nan, 2]], nan, 0),  # no unit coded twice
    ([[4, 4], [4, 4]], nan, 4),  # no variation: D_e = 0
    # the unpaired value (unit 3) is left out
    ([[1, 2, 9], [2, 1, nan]], -0.5, 4),
]


@pytest.mark.parametrize("data, alpha, n", ALPHA_CASES)
def test_krippendorff_by_hand(data: list[list[float]], alpha: float, n: int) -> None:
    result = krippendorff_alpha_interval(data)
    assert_value(result.value, alpha)
    assert (result.name, result.n) == ("krippendorff_alpha_interval", n)


def brute_force_alpha(data: np.ndarray) -> float:
    """Krippendorff's pairwise definition with explicit loops over value pairs."""
    units = [[v for v in data[:, u] if not math.isnan(v)] for u in range(data.shape[1])]
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    d_o = (
        sum(
            sum((a - b) ** 2 for i, a in enumerate(u) for j, b in enumerate(u) if i != j)
            / (len(u) - 1)
            for u in units
        )
        / n
    )
    d_e = sum(
        (a - b) ** 2 for i, a in enumerate(values) for j, b in enumerate(values) if i != j
    ) / (n * (n - 1))
    return 1 - d_o / d_e


@pytest.mark.parametrize("seed, coders, units", [(0, 2, 10), (1, 3, 20), (2, 5, 15)])
def test_krippendorff_equals_brute_force(seed: int, coders: int, units: int) -> None:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 11, units)
    data = (truth + rng.integers(-2, 3, (coders, units))).astype(float)
    data[rng.uniform(size=data.shape) < 0.3] = nan
    assert krippendorff_alpha_interval(data).value == pytest.approx(brute_force_alpha(data))


@pytest.mark.parametrize("seed", range(3))
def test_the_sums_of_units_give_alpha_and_the_both_orders_r_of_any_units_drawn(seed: int) -> None:
    """Units drawn with repetition (a bootstrap sample) weigh their sums: α and the r over
    every ordered pair within a unit equal the brute-force ones of the units as drawn."""
    rng = np.random.default_rng(seed)
    data = (rng.integers(0, 11, 12) + rng.integers(-3, 4, (4, 12))).astype(float)
    data[rng.uniform(size=data.shape) < 0.35] = nan
    drawn = rng.integers(0, 12, 12)
    counts = np.bincount(drawn, minlength=12).astype(float)
    again = data[:, drawn]
    x, y = [], []
    for u in range(again.shape[1]):
        values = [v for v in again[:, u] if not math.isnan(v)]
        for i, j in itertools.permutations(range(len(values)), 2):
            x.append(values[i])
            y.append(values[j])

    totals = counts @ agreement_sums(data)

    assert float(alpha_of_sums(totals)) == pytest.approx(brute_force_alpha(again), abs=1e-12)
    assert float(pearson_of_sums(totals)) == pytest.approx(pearson(x, y).value, abs=1e-12)


def plain_agreement_sums(data: np.ndarray) -> np.ndarray:
    """:data:`AGREEMENT_SUMS` per unit by loops over the dense matrix: the centre is the
    mean of the pairable values read coder by coder, each unit's sums add its values
    coder by coder."""
    present = ~np.isnan(data)
    pairable = present.sum(axis=0) >= 2
    coder_by_coder = [
        data[c, u]
        for c in range(data.shape[0])
        for u in range(data.shape[1])
        if present[c, u] and pairable[u]
    ]
    centre = float(np.mean(coder_by_coder))
    out = np.zeros((data.shape[1], 8))
    for u in np.flatnonzero(pairable):
        m = float(present[:, u].sum())
        s1 = s2 = 0.0
        for c in np.flatnonzero(present[:, u]):
            v = data[c, u] - centre
            s1 += v
            s2 += v * v
        within = (m * s2 - s1 * s1) / (m - 1)
        out[u] = [m, s1, s2, within, (m - 1) * s1, (m - 1) * s2, s1 * s1 - s2, m * (m - 1)]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_two_hundred_judges_sums_from_their_cells_are_the_matrix_s_to_the_last_bit(
    seed: int,
) -> None:
    """200 coders × 300 units, each unit coded by one to four of them: the sums taken
    from the present cells alone (what the agreement of many judges computes, never the
    matrix) equal the per-unit loops over the matrix bit for bit, and give the
    brute-force α."""
    rng = np.random.default_rng(seed)
    data = np.full((200, 300), nan)
    for u in range(300):
        coders = rng.choice(200, size=int(rng.integers(1, 5)), replace=False)
        data[coders, u] = rng.integers(0, 11) + rng.normal(0, 1.5, coders.size)
    coders, units = np.nonzero(~np.isnan(data))

    sums = agreement_sums_of_cells(units, data[coders, units], 300)

    assert np.array_equal(sums, plain_agreement_sums(data))
    assert np.array_equal(agreement_sums(data), sums)
    pairable = data[:, sums[:, 0] >= 2]
    alpha = alpha_coefficient(sums, pairable[~np.isnan(pairable)])
    assert alpha.value == pytest.approx(brute_force_alpha(data), abs=1e-12)
    assert alpha == krippendorff_alpha_interval(data)


def test_the_sums_of_units_without_a_pair_or_a_spread_give_no_coefficient() -> None:
    one_each = agreement_sums([[1.0, nan], [nan, 2.0]])
    alike = agreement_sums([[3.0, 3.0], [3.0, 3.0]])

    assert (one_each == 0).all()
    assert math.isnan(float(alpha_of_sums(one_each.sum(axis=0))))
    assert math.isnan(float(pearson_of_sums(alike.sum(axis=0))))


# ------------------------------------------------------------------ z-normalization

S6 = math.sqrt(1.5)  # (2, 4, 6): mean 4, population std √(8/3); 2/√(8/3) = √1.5

Z_CASES = [
    # scores, evaluators, z, means, stds
    ([2, 4, 6], ["a", "a", "a"], [-S6, 0, S6], {"a": 4.0}, {"a": math.sqrt(8 / 3)}),
    # b has one score, c a constant one: z = 0; the NaN stays NaN and is not counted
    (
        [2, 5, 6, 3, 3, nan],
        ["a", "b", "a", "c", "c", "a"],
        [-1, 0, 1, 0, 0, nan],
        {"a": 4.0, "b": 5.0, "c": 3.0},
        {"a": 2.0, "b": 0.0, "c": 0.0},
    ),
    ([0.1, 0.1, 0.1], [1, 1, 1], [0, 0, 0], {1: pytest.approx(0.1)}, {1: 0.0}),
    ([], [], [], {}, {}),
]


@pytest.mark.parametrize("scores, evaluators, z, means, stds", Z_CASES)
def test_z_normalize(
    scores: list[float], evaluators: list[Any], z: list[float], means: dict, stds: dict
) -> None:
    result = z_normalize(scores, evaluators)
    np.testing.assert_allclose(result.values, z, atol=1e-12)
    assert result.mean == means
    assert result.std == pytest.approx(stds)
    assert result.n == sum(not math.isnan(s) for s in scores)


def test_z_scores_have_mean_0_and_std_1_per_evaluator() -> None:
    rng = np.random.default_rng(8)
    scores = rng.integers(0, 11, 300).astype(float)
    judges = rng.choice(["ann", "bob", "cy"], 300)
    scores[judges == "bob"] += 3  # a lenient judge
    z = z_normalize(scores, list(judges)).values
    for judge in ("ann", "bob", "cy"):
        assert z[judges == judge].mean() == pytest.approx(0, abs=1e-12)
        assert z[judges == judge].std() == pytest.approx(1)


# ------------------------------------------------------------------ bad arguments


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: pearson([1, 2], [1, 2, 3]), "x has 2 values but y has 3"),
        (lambda: kendall_tau_b([[1, 2]], [[1, 2]]), "vectors"),
        (lambda: krippendorff_alpha_interval([1, 2, 3]), r"\(coders, units\)"),
        (lambda: z_normalize([1, 2], ["a"]), "2 scores but 1 evaluators"),
    ],
)
def test_bad_arguments_raise_value_error(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_coefficient_prints_value_and_n() -> None:
    assert str(Coefficient("pearson", 0.81234, 12)) == "pearson = 0.812 (n = 12)"


def test_per_sample_correlations_equal_the_one_column_ones() -> None:
    """The system-level bootstrap's vectorised r and τ-b equal :func:`pearson` and
    :func:`kendall_tau_b` on each column, NaNs (a system a sample has no figure for),
    ties and constant columns included."""
    rng = np.random.default_rng(7)
    x = rng.integers(0, 5, size=(12, 40)).astype(float)
    y = x + rng.integers(-2, 3, size=(12, 40))
    x[3, :10] = np.nan
    y[5, 5:15] = np.nan
    x[:, 20] = 2.0  # a constant column
    y[:11, 21] = np.nan  # one point left
    r, tau = pearson_per_sample(x, y), kendall_tau_b_per_sample(x, y)
    for b in range(x.shape[1]):
        want_r = pearson(x[:, b], y[:, b]).value
        want_tau = kendall_tau_b(x[:, b], y[:, b]).value
        assert (math.isnan(r[b]) and math.isnan(want_r)) or r[b] == pytest.approx(want_r)
        assert (math.isnan(tau[b]) and math.isnan(want_tau)) or tau[b] == pytest.approx(want_tau)
    assert math.isnan(r[20])
    assert math.isnan(tau[21])
