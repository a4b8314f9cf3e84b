"""The Wilcoxon rank-sum (Mann-Whitney U) test against scipy's ``mannwhitneyu`` and WMT's
clusters.

scipy is a test dependency only (``metrics/`` is numpy alone): the same data go through
both, SSER-like scores with many ties, of the sizes the dashboard sees, every alternative
and method. Beside it, the values scipy's own test suite asserts
(``scipy/stats/tests/test_mannwhitneyu.py``, each checked there against R's
``wilcox.test``), the examples of its documentation, Mann & Whitney's (1947) table of
the exact distribution, every split of the pooled sample enumerated (exact) and the
tie-corrected normal approximation written out by hand.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

from metrics.ranksum import (
    average_ranks,
    exact_sf,
    mann_whitney_u,
    segment_means,
    u_frequencies,
    wmt_clusters,
)
from metrics.significance import UNRANKED

SCIPY_CASES = [
    (n1, n2, alternative, method, continuity, seed)
    for seed, (n1, n2) in enumerate([(2, 2), (5, 7), (9, 9), (12, 30), (50, 50), (300, 280)])
    for alternative in ("two-sided", "less", "greater")
    for method in ("auto", "asymptotic", "exact")
    for continuity in (True, False)
    if not (method == "exact" and n1 * n2 > 400)
]


@pytest.mark.parametrize("n1, n2, alternative, method, continuity, seed", SCIPY_CASES)
def test_the_p_values_are_scipys_on_the_same_data(
    n1: int, n2: int, alternative: str, method: str, continuity: bool, seed: int
) -> None:
    """Scores on SSER's 0-10 scale (many ties) and per-judge z-scores (no ties)."""
    from scipy.stats import mannwhitneyu

    rng = np.random.default_rng(seed)
    for x, y in (
        (rng.integers(0, 11, n1).astype(float), rng.integers(2, 11, n2).astype(float)),
        (rng.normal(0, 1, n1), rng.normal(0.4, 1, n2)),
    ):
        ours = mann_whitney_u(
            x, y, alternative=alternative, use_continuity=continuity, method=method
        )
        theirs = mannwhitneyu(
            x, y, alternative=alternative, use_continuity=continuity, method=method
        )
        assert ours.statistic == pytest.approx(float(theirs.statistic), rel=1e-12)
        assert ours.pvalue == pytest.approx(float(theirs.pvalue), rel=1e-9, abs=1e-15)


# scipy's gh-9184 case: x, y and, per (use_continuity, alternative, method), the p-value
X_9184 = (0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46)
Y_9184 = (1.15, 0.88, 0.90, 0.74, 1.21)
CASES_9184 = [
    (True, "less", "asymptotic", 0.900775348204),
    (True, "greater", "asymptotic", 0.1223118025635),
    (True, "two-sided", "asymptotic", 0.244623605127),
    (False, "less", "asymptotic", 0.8896643190401),
    (False, "greater", "asymptotic", 0.1103356809599),
    (False, "two-sided", "asymptotic", 0.2206713619198),
    (True, "less", "exact", 0.8967698967699),
    (True, "greater", "exact", 0.1272061272061),
    (True, "two-sided", "exact", 0.2544122544123),
]


@pytest.mark.parametrize("continuity, alternative, method, expected", CASES_9184)
def test_scipys_gh_9184_case(
    continuity: bool, alternative: Any, method: Any, expected: float
) -> None:
    got = mann_whitney_u(
        X_9184, Y_9184, use_continuity=continuity, alternative=alternative, method=method
    )
    assert got.statistic == 35.0
    assert got.pvalue == pytest.approx(expected, rel=1e-12)


# scipy's gh-2118 cases: U equal to its mean, where a continuity correction could push p
# past 1 (asymptotic), with ties
CASES_2118 = [
    ([1, 2, 3], [1.5, 2.5], "greater", 3.0, 0.6135850036578),
    ([1, 2, 3], [1.5, 2.5], "less", 3.0, 0.6135850036578),
    ([1, 2, 3], [1.5, 2.5], "two-sided", 3.0, 1.0),
    ([1, 2, 3], [2], "greater", 1.5, 0.681324055883),
    ([1, 2, 3], [2], "less", 1.5, 0.681324055883),
    ([1, 2, 3], [2], "two-sided", 1.5, 1.0),
    ([1, 2], [1, 2], "greater", 2.0, 0.667497228949),
    ([1, 2], [1, 2], "less", 2.0, 0.667497228949),
    ([1, 2], [1, 2], "two-sided", 2.0, 1.0),
]


@pytest.mark.parametrize("x, y, alternative, statistic, expected", CASES_2118)
def test_scipys_gh_2118_cases(
    x: list[float], y: list[float], alternative: Any, statistic: float, expected: float
) -> None:
    got = mann_whitney_u(x, y, alternative=alternative, method="asymptotic")
    assert got.statistic == statistic
    assert got.pvalue == pytest.approx(expected, rel=1e-12)


# scipy's gh-11355 case (with ties), its documentation's diabetes example, and scalars
DEFAULT_CASES = [
    ([1, 2, 3, 4], [3, 6, 7, 8, 9, 3, 2, 1, 4, 4, 5], {}, 10.0, 0.1297704873477, "asymptotic"),
    ([19, 22, 16, 29, 24], [20, 11, 17, 12], {"method": "exact"}, 17.0, 1 / 9, "exact"),
    ([19, 22, 16, 29, 24], [20, 11, 17, 12], {}, 17.0, 1 / 9, "exact"),  # auto: small, no tie
    (
        [19, 22, 16, 29, 24],
        [20, 11, 17, 12],
        {"method": "asymptotic"},
        17.0,
        0.11134688653314041,
        "asymptotic",
    ),
    (
        [19, 22, 16, 29, 24],
        [20, 11, 17, 12],
        {"method": "asymptotic", "use_continuity": False},
        17.0,
        0.0864107329737,
        "asymptotic",
    ),
    ([20, 11, 17, 12], [19, 22, 16, 29, 24], {"alternative": "less"}, 3.0, 1 / 18, "exact"),
    ([1], [2], {"alternative": "less", "method": "asymptotic"}, 0.0, 0.5, "asymptotic"),
    (
        [1],
        [2],
        {"alternative": "greater", "method": "asymptotic"},
        0.0,
        0.977249868052,
        "asymptotic",
    ),  # noqa: E501
    ([1], [2], {"alternative": "greater", "method": "exact"}, 0.0, 1.0, "exact"),
    ([1], [1], {"method": "exact"}, 0.5, 1.0, "exact"),
    ([1], [1], {"method": "asymptotic"}, 0.5, 1.0, "asymptotic"),
]


@pytest.mark.parametrize("x, y, kwargs, statistic, expected, method", DEFAULT_CASES)
def test_scipys_documented_results(
    x: list[float],
    y: list[float],
    kwargs: dict[str, Any],
    statistic: float,
    expected: float,
    method: str,
) -> None:
    got = mann_whitney_u(x, y, **kwargs)
    assert (got.statistic, got.method) == (statistic, method)
    assert got.pvalue == pytest.approx(expected, rel=1e-12)


def test_identical_samples_without_continuity_have_no_p_value_as_in_scipy() -> None:
    assert math.isnan(mann_whitney_u([1], [1], method="asymptotic", use_continuity=False).pvalue)


# Mann & Whitney (1947), p. 52: P(U ≤ u) for sizes (m, n), u = 0, 1, …
MANN_WHITNEY_TABLE = {
    (3, 3): [0.05, 0.1, 0.2, 0.35, 0.5, 0.65],
    (4, 4): [0.014, 0.029, 0.057, 0.1, 0.171, 0.243, 0.343, 0.443, 0.557],
    (3, 5): [0.018, 0.036, 0.071, 0.125, 0.196, 0.286, 0.393, 0.5, 0.607],
    (6, 6): [
        0.001, 0.002, 0.004, 0.008, 0.013, 0.021, 0.032, 0.047, 0.066, 0.09,
        0.12, 0.155, 0.197, 0.242, 0.294, 0.350, 0.409, 0.469, 0.531,
    ],
}  # fmt: skip


@pytest.mark.parametrize("sizes, table", MANN_WHITNEY_TABLE.items())
def test_the_exact_distribution_is_mann_and_whitneys_table(
    sizes: tuple[int, int], table: list[float]
) -> None:
    m, n = sizes
    freqs = u_frequencies(m, n)
    total = math.comb(m + n, m)
    assert sum(freqs) == total
    assert freqs == freqs[::-1] == u_frequencies(n, m)
    cdf = np.cumsum(freqs) / total
    np.testing.assert_allclose(cdf[: len(table)], table, atol=1e-3)


@pytest.mark.parametrize("m, n", [(1, 1), (2, 3), (3, 4), (4, 4)])
def test_the_exact_tail_is_the_share_of_all_splits(m: int, n: int) -> None:
    """The definition: every way of drawing m of the ranks 1…m+n, and its U."""
    us = [
        sum(chosen) - m * (m + 1) // 2 for chosen in itertools.combinations(range(1, m + n + 1), m)
    ]
    for u in range(m * n + 1):
        assert exact_sf(u, m, n) == pytest.approx(sum(v >= u for v in us) / len(us), abs=1e-15)


def test_the_normal_approximation_with_ties_by_hand() -> None:
    """x = 1 2 2 3, y = 2 3 4 5 6: pooled ranks 1, 3, 3, 3, 5.5, 5.5, 7, 8, 9 (the three
    2s share rank 3, the two 3s rank 5.5); R1 = 1 + 3 + 3 + 5.5 = 12.5, U1 = 12.5 − 10 =
    2.5; ties 3 and 2: Σ(t³ − t) = 24 + 6 = 30; σ² = 20/12 · (10 − 30/72) = 15.9722…;
    with ties, auto is asymptotic; "less": z = (2.5 − 10 + ½)/σ."""
    x, y = [1, 2, 2, 3], [2, 3, 4, 5, 6]
    ranks, ties = average_ranks(np.array(x + y, dtype=float))
    assert ranks.tolist() == [1.0, 3.0, 3.0, 5.5, 3.0, 5.5, 7.0, 8.0, 9.0]
    assert sorted(ties.tolist()) == [1.0, 1.0, 1.0, 1.0, 2.0, 3.0]
    sigma = math.sqrt(20 / 12 * (10 - 30 / 72))
    z = (2.5 - 10 + 0.5) / sigma
    expected = {
        "less": 0.5 * math.erfc(-z / math.sqrt(2)),
        "greater": 0.5 * math.erfc(((2.5 - 10 - 0.5) / sigma) / math.sqrt(2)),
        "two-sided": 2 * 0.5 * math.erfc(-z / math.sqrt(2)),
    }
    for alternative, p in expected.items():
        got = mann_whitney_u(x, y, alternative=alternative)  # type: ignore[arg-type]
        assert (got.statistic, got.method) == (2.5, "asymptotic")
        assert got.pvalue == pytest.approx(p, rel=1e-14)


@pytest.mark.parametrize(
    "x, y, kwargs, message",
    [
        ([], [1.0], {}, "sizes 0 and 1"),
        ([math.nan], [1.0], {}, "NaN"),
        ([1.0], [2.0], {"alternative": "bigger"}, "alternative='bigger'"),
        ([1.0], [2.0], {"method": "permutation"}, "method='permutation'"),
    ],
)
def test_bad_arguments_are_value_errors(
    x: list[float], y: list[float], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        mann_whitney_u(x, y, **kwargs)


# ------------------------------------------------------------------ WMT's clusters


def test_segment_means_average_the_judges_of_a_sentence() -> None:
    got = segment_means([0, 0, 2], [1.0, -0.5, 2.0], 4)
    assert got[0] == 0.25
    assert got[2] == 2.0
    assert math.isnan(got[1])
    assert math.isnan(got[3])


def errors(rng: np.random.Generator, centre: float, n: int, judged: int) -> np.ndarray:
    """Per-segment z-scored errors of a system around ``centre``; NaN past ``judged``."""
    out = rng.normal(centre, 1.0, n)
    out[judged:] = math.nan
    return out


def test_clear_differences_on_thirty_sentences_make_clusters() -> None:
    rng = np.random.default_rng(11)
    per_segment = {
        "good": errors(rng, -1.0, 40, 30),
        "also good": errors(rng, -0.9, 40, 30),
        "bad": errors(rng, 1.0, 40, 30),
    }
    clusters = wmt_clusters(per_segment, higher_is_better=False)

    assert [clusters.figure(s).cluster for s in per_segment] == [1, 1, 2]
    assert [f.system for f in clusters.ranked()][2] == "bad"
    assert not clusters.too_few
    assert clusters.evidence == 30
    # each one-sided p-value is the test's on the sentences the pair has in common
    names = list(per_segment)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                continue
            both = ~np.isnan(per_segment[a]) & ~np.isnan(per_segment[b])
            expected = mann_whitney_u(
                per_segment[a][both], per_segment[b][both], alternative="less"
            ).pvalue
            assert clusters.p_values[i][j] == expected
            assert clusters.n_common[i][j] == 30
            assert clusters.wins[i][j] == (expected < 0.05)


def test_too_few_sentences_in_common_make_one_cluster() -> None:
    rng = np.random.default_rng(12)
    per_segment = {"good": errors(rng, -3.0, 40, 9), "bad": errors(rng, 3.0, 40, 9)}
    clusters = wmt_clusters(per_segment, higher_is_better=False)

    assert clusters.p_values[0][1] < 0.05  # the test alone would separate them
    assert [f.cluster for f in clusters.figures] == [1, 1]
    assert clusters.too_few
    assert clusters.evidence == 9


def test_a_boundary_needs_every_system_above_to_beat_every_system_below() -> None:
    """A beats C, but B (between them) beats nobody: neither boundary holds, one cluster
    (a plain A, B | C split would put B above C without a win over it)."""
    a = np.linspace(-2.0, -0.5, 12)
    b = np.linspace(-3.8, 2.2, 12)  # spread over both
    c = np.linspace(-0.5, 0.8, 12)
    clusters = wmt_clusters({"A": a, "B": b, "C": c}, higher_is_better=False)

    assert clusters.wins[0][2]
    assert not clusters.wins[1][2]
    assert not clusters.wins[0][1]
    assert [f.cluster for f in clusters.figures] == [1, 1, 1]


def test_a_system_without_values_is_not_clustered_and_higher_can_be_better() -> None:
    rng = np.random.default_rng(13)
    per_segment = {
        "none": np.full(30, math.nan),
        "high": errors(rng, 2.0, 30, 30),
        "low": errors(rng, -2.0, 30, 30),
    }
    clusters = wmt_clusters(per_segment, higher_is_better=True)

    assert clusters.figure("none").cluster == UNRANKED
    assert clusters.figure("none").n == 0
    assert (clusters.figure("high").cluster, clusters.figure("low").cluster) == (1, 2)
    assert [f.system for f in clusters.ranked()] == ["high", "low", "none"]
    with pytest.raises(ValueError, match="'zz'"):
        clusters.figure("zz")
