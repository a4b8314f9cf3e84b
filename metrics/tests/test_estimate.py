"""The full-corpus mean of a human score from its judged segments, helped by automatic
metrics known on every segment: exact with a perfect covariate, the plain mean with a
useless one, intervals that cover, documents as strata, refusals of bad input."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from scipy import stats

from metrics.estimate import (
    NO_SPREAD,
    PLAIN,
    PLAIN_STRATIFIED_VARIANCE,
    REGRESSION,
    REGRESSION_STRATIFIED_VARIANCE,
    STRATIFIED,
    STRATIFIED_REGRESSION,
    Estimate,
    estimate_mean,
    p_value,
)
from metrics.strata import (
    MIN_JUDGED_PER_STRATUM,
    by_level,
    collapse_strata,
    document_codes,
    proportional_allocation,
)

N = 400
DOCUMENT_LENGTH = 10
DOCUMENTS = [f"doc{k // DOCUMENT_LENGTH}" for k in range(N)]


def corpus(rho: float, seed: int = 0, document_effect: float = 0.0) -> tuple[np.ndarray, ...]:
    """A corpus of N human scores and an automatic score that correlates with them at about
    ``rho``; documents of ten segments shift the human scores by their own level."""
    rng = np.random.default_rng(seed)
    auto = rng.normal(size=N)
    level = np.repeat(rng.normal(size=N // DOCUMENT_LENGTH), DOCUMENT_LENGTH)
    human = rho * auto + math.sqrt(1 - rho**2) * rng.normal(size=N) + document_effect * level
    return human, auto


def simple_random(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.choice(N, size=n, replace=False)


def per_document(k: int) -> Callable[[np.random.Generator, int], np.ndarray]:
    """A stratified sample as the judge queue draws it: ``k`` segments of every document."""

    def sample(rng: np.random.Generator, n: int) -> np.ndarray:
        del n
        within = rng.permuted(
            np.tile(np.arange(DOCUMENT_LENGTH), (N // DOCUMENT_LENGTH, 1)), axis=1
        )
        return (np.arange(0, N, DOCUMENT_LENGTH)[:, None] + within[:, :k]).ravel()

    return sample


def draws(
    human: np.ndarray,
    auto: dict[str, np.ndarray],
    *,
    n: int = 40,
    times: int = 2000,
    sample: Callable[[np.random.Generator, int], np.ndarray] = simple_random,
    documents: list[str] | None = None,
    seed: int = 1,
) -> list[Estimate]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(times):
        judged = sample(rng, n)
        out.append(estimate_mean(judged, human[judged], auto, documents=documents))
    return out


def coverage(results: list[Estimate], truth: float, which: str = "estimate") -> float:
    return float(
        np.mean([getattr(r, which).low <= truth <= getattr(r, which).high for r in results])
    )


def mean_error(results: list[Estimate], truth: float, which: str = "estimate") -> float:
    return float(np.mean([abs(getattr(r, which).mean - truth) for r in results]))


# ------------------------------------------------------------------ known answers


def test_a_perfect_covariate_gives_the_full_corpus_mean_exactly() -> None:
    _, auto = corpus(0.0)
    human = 3.0 - 2.0 * auto
    judged = np.arange(7, N, 13)
    result = estimate_mean(judged, human[judged], {"chrf": auto})
    assert result.method == REGRESSION
    assert result.estimate.mean == pytest.approx(human.mean(), abs=1e-12)
    assert result.estimate.high - result.estimate.low == pytest.approx(0.0, abs=1e-12)
    assert result.variance_ratio < 1e-20
    assert result.covariates[0].coefficient == pytest.approx(-2.0)
    assert result.covariates[0].correlation == pytest.approx(-1.0)
    assert abs(result.plain.mean - human.mean()) > 0.01  # the plain mean is not exact


def test_two_covariates_that_together_make_the_score_give_it_exactly() -> None:
    rng = np.random.default_rng(5)
    chrf, bleu = rng.normal(size=N), rng.uniform(0, 100, size=N)
    human = 1.0 + 0.5 * chrf - 0.02 * bleu
    judged = rng.choice(N, size=30, replace=False)
    for documents in (None, DOCUMENTS):
        result = estimate_mean(
            judged, human[judged], {"chrf": chrf, "bleu": bleu}, documents=documents
        )
        assert result.estimate.mean == pytest.approx(human.mean(), abs=1e-12)
        assert [c.coefficient for c in result.covariates] == pytest.approx([0.5, -0.02])


def hall_interval(y: np.ndarray, size: int, confidence: float) -> tuple[float, float]:
    """Hall's (1992) skew-corrected t interval of the mean of ``y``, drawn from ``size``
    values without replacement, written out from the paper: g(u) = u + au²/3 + a²u³/27
    + a/6 with a the mean's skewness, κ₃/v^{3/2}, κ₃ = m₃(1 − f)(1 − 2f)/n²."""
    n, f = len(y), len(y) / size
    v = (1 - f) * y.var(ddof=1) / n
    a = np.mean((y - y.mean()) ** 3) * (1 - f) * (1 - 2 * f) / n**2 / v**1.5
    q = stats.t.ppf((1 + confidence) / 2, n - 1)

    def inverse(w: float) -> float:
        return float(3 / a * (np.cbrt(1 + a * (w - a / 6)) - 1))

    return y.mean() - math.sqrt(v) * inverse(q), y.mean() - math.sqrt(v) * inverse(-q)


def test_without_covariates_it_is_the_plain_mean_with_the_t_interval_of_a_finite_corpus() -> None:
    """Symmetric scores: Student's t interval, its spread shrunk for the finite corpus."""
    rng = np.random.default_rng(3)
    half_corpus = rng.normal(size=N // 2)
    human = np.concatenate([half_corpus, -half_corpus])  # no skew at all
    judged = np.concatenate([np.arange(0, N // 2, 8), np.arange(N // 2, N, 8)])
    n = len(judged)
    result = estimate_mean(judged, human[judged], {}, corpus_size=N, confidence=0.9)
    y = human[judged]
    half = stats.t.ppf(0.95, n - 1) * math.sqrt((1 - n / N) * y.var(ddof=1) / n)
    assert result.method == PLAIN
    assert result.estimate == result.plain
    assert result.plain.mean == pytest.approx(y.mean())
    assert (result.plain.low, result.plain.high) == pytest.approx(
        (y.mean() - half, y.mean() + half)
    )
    assert result.plain.n == n
    assert result.candidate_ratio is None


def test_skewed_scores_get_halls_interval_wider_on_the_side_of_the_tail() -> None:
    human = mqm_like(seed=4)
    judged = np.arange(0, N, 10)
    result = estimate_mean(judged, human[judged], {}, corpus_size=N, confidence=0.9)
    y = human[judged]
    assert (result.plain.low, result.plain.high) == pytest.approx(hall_interval(y, N, 0.9))
    mean = result.plain.mean
    assert mean - result.plain.low > 1.1 * (result.plain.high - mean)  # the tail is below


def test_judged_scores_without_spread_say_their_interval_is_no_certainty() -> None:
    result = estimate_mean([0, 3, 7], [10.0, 10.0, 10.0], {}, corpus_size=N)
    assert result.plain.low == result.plain.high == 10.0
    assert result.notes == (NO_SPREAD.format(n=3, score=10.0),)
    assert "not because the mean over the corpus is known" in result.notes[0]
    everything = estimate_mean([0, 1], [4.0, 4.0], {}, corpus_size=2)
    assert everything.notes == ()  # every segment judged: the mean is known


def mqm_like(seed: int, size: int = N) -> np.ndarray:
    """Scores like WMT21 TED's MQM scores (skewness about −2.5): most segments without
    error (0), some with minor ones (−1, −2), fewer with one major error (−5) or two
    (−10), a few worse (−20)."""
    rng = np.random.default_rng(seed)
    return rng.choice(
        [0.0, -1.0, -2.0, -5.0, -10.0, -20.0], size=size, p=[0.55, 0.14, 0.03, 0.18, 0.07, 0.03]
    )


def test_on_skewed_scores_halls_interval_covers_where_students_falls_short() -> None:
    """26 judged segments of MQM-like scores (WMT21 TED at 5 % judged): Student's t
    interval misses the corpus mean too often, nearly always on the side of the tail;
    Hall's covers."""
    human = mqm_like(seed=5, size=529)
    truth = human.mean()
    rng = np.random.default_rng(6)
    hall = student = 0
    for _ in range(2000):
        judged = rng.choice(529, size=26, replace=False)
        y = human[judged]
        result = estimate_mean(judged, y, {}, corpus_size=529)
        hall += result.plain.low <= truth <= result.plain.high
        half = stats.t.ppf(0.975, 25) * math.sqrt((1 - 26 / 529) * y.var(ddof=1) / 26)
        student += y.mean() - half <= truth <= y.mean() + half
    assert student / 2000 < 0.91
    assert 0.93 <= hall / 2000 <= 0.97


def test_one_covariate_is_the_regression_estimator_with_its_prediction_variance() -> None:
    """μ̂ = ȳ + κb(X̄ − x̄), κ = 1 − 1/F; v̂ = s²[(1 − n/N)/n + (X̄ − x̄)²/Sxx], s² of the
    residuals of the shrunk slope on n − 2 degrees of freedom."""
    human, auto = corpus(0.6, seed=3)
    judged = np.random.default_rng(3).choice(N, size=50, replace=False)
    x, y, n = auto[judged], human[judged], 50
    slope, intercept = np.polyfit(x, y, 1)
    r2 = np.corrcoef(x, y)[0, 1] ** 2
    kappa = 1 - 1 / (r2 / ((1 - r2) / (n - 2)))
    residuals = (y - y.mean()) - kappa * slope * (x - x.mean())
    shift = auto.mean() - x.mean()
    sxx = ((x - x.mean()) ** 2).sum()
    variance = residuals @ residuals / (n - 2) * ((1 - n / N) / n + shift**2 / sxx)
    result = estimate_mean(judged, y, {"chrf": auto})
    assert 0.9 < kappa < 1
    assert result.estimate.mean == pytest.approx(y.mean() + kappa * slope * shift)
    assert result.estimate.variance == pytest.approx(variance)
    assert result.estimate.df == n - 2
    assert result.variance_ratio == pytest.approx(variance / result.plain.variance)
    assert result.covariates[0].coefficient == pytest.approx(kappa * slope)
    assert result.covariates[0].correlation == pytest.approx(np.corrcoef(x, y)[0, 1])


def test_a_covariate_that_explains_less_than_chance_gets_no_weight() -> None:
    """F ≤ 1: the slope shrinks to 0 and the estimate is the plain mean's."""
    human, _ = corpus(0.0, seed=21)
    noise = np.random.default_rng(22).normal(size=N)
    judged = np.arange(0, N, 10)
    x, y = noise[judged], human[judged]
    r2 = np.corrcoef(x, y)[0, 1] ** 2
    assert r2 / ((1 - r2) / (len(judged) - 2)) < 1  # this draw: F below 1
    result = estimate_mean(judged, y, {"noise": noise})
    assert result.estimate.mean == result.plain.mean
    assert result.covariates[0].coefficient == 0.0


def test_the_estimate_does_not_depend_on_the_covariates_scale() -> None:
    human, auto = corpus(0.6, seed=4)
    judged = np.arange(3, N, 9)
    a = estimate_mean(judged, human[judged], {"chrf": auto})
    b = estimate_mean(judged, human[judged], {"chrf": 100.0 * auto - 7.0})
    assert b.estimate.mean == pytest.approx(a.estimate.mean)
    assert b.estimate.variance == pytest.approx(a.estimate.variance)
    assert b.covariates[0].coefficient == pytest.approx(a.covariates[0].coefficient / 100.0)


def test_a_copied_or_constant_covariate_costs_nothing() -> None:
    human, auto = corpus(0.6, seed=6)
    judged = np.arange(1, N, 7)
    one = estimate_mean(judged, human[judged], {"chrf": auto})
    copied = estimate_mean(judged, human[judged], {"chrf": auto, "twice": 2.0 * auto})
    assert copied.estimate.mean == pytest.approx(one.estimate.mean)
    assert copied.estimate.df == one.estimate.df
    constant = estimate_mean(judged, human[judged], {"chrf": auto, "flat": np.ones(N)})
    assert constant.estimate.mean == pytest.approx(one.estimate.mean)
    assert constant.notes == ("flat is the same on every segment: left out",)


def test_every_segment_judged_gives_the_mean_with_no_spread() -> None:
    human, auto = corpus(0.5)
    result = estimate_mean(np.arange(N), human, {"chrf": auto}, documents=DOCUMENTS)
    assert result.estimate.mean == pytest.approx(human.mean())
    assert result.estimate.low == result.estimate.high == result.estimate.mean
    assert result.variance_ratio == 1.0


# ------------------------------------------------------------------ the guard


def test_an_independent_covariate_gives_about_the_plain_mean() -> None:
    human, _ = corpus(0.0, seed=7)
    noise = np.random.default_rng(8).normal(size=N)
    results = draws(human, {"noise": noise}, times=400)
    truth = human.mean()
    kept = [r for r in results if r.method == PLAIN]
    assert len(kept) > 0.8 * len(results)  # the guard sees it is useless most of the time
    assert all(r.estimate.mean == r.plain.mean for r in kept)
    # where the covariate is taken, it moves the estimate by a fraction of its error
    moved = [abs(r.estimate.mean - r.plain.mean) / math.sqrt(r.plain.variance) for r in results]
    assert np.mean(moved) < 0.05
    assert mean_error(results, truth) < 1.02 * mean_error(results, truth, "plain")
    assert all(r.variance_ratio <= 1.0 for r in results)
    assert all(r.candidate_ratio is not None for r in results)
    assert all((r.candidate_ratio or 0) >= 1.0 for r in kept)


def test_a_useful_covariate_is_used_and_cuts_the_error_by_its_share_of_the_variance() -> None:
    human, auto = corpus(0.9, seed=9)
    results = draws(human, {"chrf": auto}, times=300)
    truth = human.mean()
    assert all(r.method == REGRESSION for r in results)
    ratio = (mean_error(results, truth) / mean_error(results, truth, "plain")) ** 2
    assert ratio == pytest.approx(1 - 0.9**2, abs=0.07)
    assert np.mean([r.variance_ratio for r in results]) == pytest.approx(1 - 0.9**2, abs=0.07)


# ------------------------------------------------------------------ coverage


@pytest.mark.parametrize("rho", [0.0, 0.7])
def test_95_percent_intervals_cover_the_corpus_mean_in_95_percent_of_2000_draws(rho: float) -> None:
    human, auto = corpus(rho, seed=11)
    results = draws(human, {"chrf": auto})
    assert 0.93 <= coverage(results, human.mean()) <= 0.97
    assert 0.93 <= coverage(results, human.mean(), "plain") <= 0.97


@pytest.mark.parametrize("rho", [0.0, 0.5])
def test_stratified_intervals_cover_on_2000_draws_of_half_of_every_document(rho: float) -> None:
    """A proportional draw: the estimate without strata, the interval from its spread
    within the strata."""
    human, auto = corpus(rho, seed=12, document_effect=1.0)
    results = draws(human, {"chrf": auto}, sample=per_document(5), documents=DOCUMENTS)
    assert all(r.proportional for r in results)
    if rho:
        assert np.mean([r.method == REGRESSION_STRATIFIED_VARIANCE for r in results]) > 0.9
    assert 0.93 <= coverage(results, human.mean()) <= 0.97
    assert coverage(results, human.mean(), "plain") > 0.99  # blind to the draw's strata


def test_with_one_segment_per_document_merged_documents_make_the_interval_conservative() -> None:
    """Merged strata still hold the spread between their documents (collapsed strata)."""
    human, auto = corpus(0.5, seed=12, document_effect=1.0)
    results = draws(human, {"chrf": auto}, times=300, sample=per_document(1), documents=DOCUMENTS)
    assert coverage(results, human.mean()) >= 0.95
    judged = N // DOCUMENT_LENGTH
    assert all(r.strata <= judged // MIN_JUDGED_PER_STRATUM for r in results)


def test_with_two_segments_per_document_every_document_is_a_stratum_and_the_interval_covers() -> (
    None
):
    """A proportional draw averaging two judged segments per document: the strata carry
    the variance alone, so documents judged twice need no merging and the interval counts
    none of the spread between documents that the draw took out."""
    human, auto = corpus(0.5, seed=12, document_effect=1.0)
    results = draws(human, {"chrf": auto}, times=600, sample=per_document(2), documents=DOCUMENTS)
    assert all(r.strata == N // DOCUMENT_LENGTH for r in results)
    assert 0.93 <= coverage(results, human.mean()) <= 0.97


# ------------------------------------------------------------------ documents as strata


def test_documents_as_strata_cut_the_error_of_a_simple_random_sample() -> None:
    human, _ = corpus(0.0, seed=13, document_effect=1.5)
    results = draws(human, {}, times=500, documents=DOCUMENTS, n=200)
    truth = human.mean()
    assert np.mean([r.method == STRATIFIED for r in results]) > 0.95
    assert mean_error(results, truth) < 0.9 * mean_error(results, truth, "plain")
    assert 0.93 <= coverage(results, truth) <= 0.97


def test_documents_as_strata_narrow_the_interval_of_a_stratified_sample() -> None:
    """Half of every document: the plain mean is already balanced, but its interval
    counts the spread between documents that the sample design took out."""
    human, auto = corpus(0.0, seed=14, document_effect=1.5)
    results = draws(human, {"chrf": auto}, times=300, sample=per_document(5), documents=DOCUMENTS)
    widths = [(r.estimate.high - r.estimate.low) / (r.plain.high - r.plain.low) for r in results]
    assert np.mean(widths) < 0.7
    assert all(r.strata == N // DOCUMENT_LENGTH for r in results)  # one per document


# documents of 5 to 15 segments, 400 in all
UNEVEN = [f"doc{d}" for d, size in enumerate([5, 15, 8, 12, 10] * 8) for _ in range(size)]


def share_of_every_document(rng: np.random.Generator, fraction: float) -> np.ndarray:
    """Each document's share of the judged segments, rounded up or down at random (as
    the judge queue's order keeps it), its segments drawn at random."""
    codes = document_codes(UNEVEN)
    out = []
    for d, size in enumerate(np.bincount(codes)):
        share = fraction * size
        take = math.floor(share) + (rng.random() < share - math.floor(share))
        out += list(rng.choice(np.flatnonzero(codes == d), size=take, replace=False))
    return np.array(out)


def test_a_proportional_allocation_keeps_the_estimate_without_strata() -> None:
    """Every document within one segment of its share: the estimate is the one without
    documents, its variance Σ W_h² (1 − n_h/N_h) s_h²/n_h + s² D²/A of the regression's
    residuals within the merged strata (s_h² on n_h − 1 of the n − H − 1 degrees of
    freedom, s² pooled on n − H − 1, D = X̄ − x̄, A = Σ (x_i − x̄)²)."""
    human, auto = corpus(0.6, seed=16, document_effect=1.0)
    judged = share_of_every_document(np.random.default_rng(16), 0.3)
    y, x, n = human[judged], auto[judged], len(judged)
    codes = document_codes(UNEVEN)
    assert proportional_allocation(codes, judged)

    result = estimate_mean(judged, y, {"chrf": auto}, documents=UNEVEN)
    alone = estimate_mean(judged, y, {"chrf": auto})

    assert result.method == REGRESSION_STRATIFIED_VARIANCE
    assert alone.method == REGRESSION
    assert result.estimate.mean == alone.estimate.mean
    assert result.covariates == alone.covariates
    # about three judged per document: strata of two (MIN_JUDGED_FOR_VARIANCE) suffice
    labels = collapse_strata(codes, judged, min_judged=2, order=by_level(codes, auto))
    strata, sizes = labels[judged], np.bincount(labels)
    H = len(sizes)
    e = y - result.covariates[0].coefficient * x
    e -= (np.bincount(strata, weights=e) / np.bincount(strata))[strata]
    counts, squares = np.bincount(strata), np.bincount(strata, weights=e**2)
    df = n - H - 1
    own = squares / ((counts - 1) * df / (n - H))
    weights = sizes / N
    shift = auto.mean() - x.mean()
    slope = squares.sum() / df * shift**2 / ((x - x.mean()) ** 2).sum()
    variance = (weights**2 * (1 - counts / sizes) / counts * own).sum() + slope
    assert result.strata == H > 10
    assert result.estimate.variance == pytest.approx(variance, rel=1e-12)
    assert result.estimate.variance < alone.estimate.variance  # documents explain a part
    assert result.as_json()["estimate"]["method"] == "regression, stratified variance"
    assert result.as_json()["estimate"]["proportional"] is True


def test_without_covariates_a_proportional_allocation_keeps_the_plain_mean() -> None:
    human, _ = corpus(0.0, seed=17, document_effect=1.0)
    judged = share_of_every_document(np.random.default_rng(17), 0.2)
    result = estimate_mean(judged, human[judged], documents=UNEVEN)
    assert result.method == PLAIN_STRATIFIED_VARIANCE
    assert result.estimate.mean == result.plain.mean
    assert result.estimate.variance < result.plain.variance
    assert result.strata > 1


def test_an_allocation_off_the_shares_reweights_the_strata() -> None:
    """The first documents judged more than the last (a file judged in order): each
    merged stratum weighs N_h/N, not n_h/n."""
    documents = [f"doc{k // 10}" for k in range(40)]
    human = np.arange(40.0)
    judged = np.array([*range(0, 7), *range(10, 17), *range(20, 23), *range(30, 33)])
    result = estimate_mean(judged, human[judged], documents=documents)
    assert result.proportional is False
    assert result.method == STRATIFIED
    assert result.strata == 3  # doc0, doc1, doc2 + doc3
    want = (
        0.25 * human[0:7].mean()
        + 0.25 * human[10:17].mean()
        + 0.5 * human[20:33][[0, 1, 2, 10, 11, 12]].mean()
    )
    assert result.estimate.mean == pytest.approx(want)
    assert result.plain.mean != pytest.approx(want)


def test_with_covariates_an_allocation_off_the_shares_is_the_combined_estimator() -> None:
    human, auto = corpus(0.6, seed=18, document_effect=1.0)
    judged = np.arange(0, N // 2, 2)  # every other segment of the first half
    result = estimate_mean(judged, human[judged], {"chrf": auto}, documents=DOCUMENTS)
    assert result.proportional is False
    assert result.method == STRATIFIED_REGRESSION
    assert result.as_json()["estimate"]["proportional"] is False


def test_useless_documents_leave_the_plain_mean() -> None:
    human, _ = corpus(0.0, seed=15)
    shuffled = list(np.random.default_rng(15).permutation(DOCUMENTS))
    results = draws(human, {}, times=200, documents=shuffled)
    assert np.mean([r.method == PLAIN for r in results]) > 0.5


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    "judged, scores, kwargs, message",
    [
        ([0, 1], [1.0], {}, "2 judged segments but 1 scores"),
        ([0, 10], [1.0, 2.0], {}, "judged segment 10 is outside the corpus"),
        ([0, -1], [1.0, 2.0], {}, "judged segment -1 is outside the corpus"),
        ([3, 3], [1.0, 2.0], {}, "segment 3 is judged twice"),
        ([0, 1], [1.0, math.nan], {}, "the score of segment 1 is nan"),
        ([0], [1.0], {}, "an interval needs at least two"),
        ([0.5, 1], [1.0, 2.0], {}, "integer indices"),
        ([0, 1], [1.0, 2.0], {"documents": ["a"] * 9}, "disagree on the corpus size"),
        ([0, 1], [1.0, 2.0], {"confidence": 1.0}, "confidence 1.0"),
        ([0, 1], [1.0, 2.0], {"auto": {"bad": [0.0] * 9 + [math.inf]}}, "'bad': segment 9 is inf"),
        ([0, 1], [1.0, 2.0], {"auto": {}, "corpus_size": None}, "no corpus size"),
    ],
)
def test_bad_input_is_refused_with_what_is_wrong(
    judged: list[float], scores: list[float], kwargs: dict[str, object], message: str
) -> None:
    arguments: dict[str, object] = {"auto": {"chrf": np.arange(10.0)}, **kwargs}
    auto = arguments.pop("auto")
    with pytest.raises(ValueError, match=message):
        estimate_mean(judged, scores, auto, **arguments)  # type: ignore[arg-type]


def test_the_p_value_of_an_estimated_difference_is_the_paired_t_tests_without_covariates() -> None:
    """The estimate of a mean difference on judged segments, tested against 0 by its own
    t: with no covariate and the whole corpus taken as infinite, scipy's one-sample t-test
    (a finite corpus narrows the interval by its finite-population correction only)."""
    rng = np.random.default_rng(3)
    d = rng.normal(0.3, 1.0, size=40)
    big = 10**9
    found = estimate_mean(np.arange(40), d, corpus_size=big)

    assert p_value(found.estimate) == pytest.approx(stats.ttest_1samp(d, 0.0).pvalue, rel=1e-6)


@pytest.mark.parametrize(
    "mean, variance, df, expected",
    [(0.0, 0.0, 5.0, 1.0), (0.2, 0.0, 5.0, 0.0), (0.2, 1.0, 0.0, 1.0), (0.2, math.inf, 3.0, 1.0)],
)
def test_the_p_value_without_spread_or_degrees_of_freedom(
    mean: float, variance: float, df: float, expected: float
) -> None:
    from metrics.estimate import Interval

    assert p_value(Interval(mean, mean, mean, 10, variance, df)) == expected
