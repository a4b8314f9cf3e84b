"""Replaying judging policies (metrics/simulate.py) and weighting by known probabilities
(metrics/weighting.py).

The coverage tests count intervals over fixed seeds; each tolerance is about three
binomial standard deviations of the count at 95 % (and the replays' intervals of one
repetition share its draw, which the margin also absorbs)."""

from __future__ import annotations

import gzip
import json
import math

import numpy as np
import pytest

from metrics.__main__ import main
from metrics.savings import judgments_saved
from metrics.simulate import (
    ADAPTIVE,
    RANDOM,
    simulate,
    stratified_segments,
)
from metrics.simulated_campaign import synthetic_campaign
from metrics.weighting import (
    Weighted,
    aipw,
    anticipated_variance,
    combine,
    linear_prediction,
    poisson_draw,
    scaled_probabilities,
)


def test_poisson_draws_take_each_item_with_its_recorded_probability() -> None:
    scores = np.linspace(1.0, 20.0, 40)
    p = scaled_probabilities(scores, 12.0)
    assert p.sum() == pytest.approx(12.0)
    rng = np.random.default_rng(7)
    draws = 4000
    counts = sum(poisson_draw(p, rng).astype(int) for _ in range(draws))
    sd = np.sqrt(p * (1 - p) / draws)
    assert np.all(np.abs(counts / draws - p) <= 4 * sd + 1e-12)


def test_probabilities_follow_the_scores_up_to_the_cap_and_the_cost() -> None:
    p = scaled_probabilities(np.array([1.0, 1.0, 2.0, 100.0]), 2.0)
    assert p[3] == 1.0  # capped; the rest share what is left in proportion
    assert p[:3] == pytest.approx([0.25, 0.25, 0.5])
    costed = scaled_probabilities(np.ones(4), 3.0, np.array([1.0, 1.0, 2.0, 2.0]))
    assert float(costed @ np.array([1.0, 1.0, 2.0, 2.0])) == pytest.approx(3.0)


def test_the_stratified_draw_gives_every_segment_the_same_chance() -> None:
    codes = np.repeat(np.arange(12), [3, 5, 7, 9, 11, 4, 6, 8, 10, 12, 2, 13])
    size, n, draws = len(codes), 20, 3000
    rng = np.random.default_rng(3)
    counts = np.zeros(size)
    for _ in range(draws):
        index = stratified_segments(codes, n, size, rng)
        assert len(index) == n
        counts[index] += 1
    f = n / size
    assert np.all(np.abs(counts / draws - f) <= 4 * math.sqrt(f * (1 - f) / draws))


def _skewed_corpus(size: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    """MQM-like scores (mostly near 0, a tail of bad segments) and a covariate that
    follows them."""
    rng = np.random.default_rng(11)
    y = -rng.exponential(2.0, size) - 10.0 * (rng.random(size) < 0.08)
    x = y + rng.normal(0.0, 2.0, size)
    return y, x


def test_weighting_recovers_the_mean_under_known_unequal_probabilities() -> None:
    y, x = _skewed_corpus()
    rank = np.argsort(np.argsort(x)).astype(float)
    p = scaled_probabilities(1.0 + rank, 200.0)  # favours the good segments
    rng = np.random.default_rng(5)
    estimates = []
    for _ in range(400):
        judged = np.flatnonzero(poisson_draw(p, rng))
        estimates.append(aipw(y[judged], judged, p[judged], np.zeros(len(y))).mean)
    e = np.array(estimates)
    assert abs(e.mean() - y.mean()) < 4 * e.std() / math.sqrt(len(e))


def test_a_biased_draw_undercovers_unweighted_and_covers_weighted() -> None:
    y, x = _skewed_corpus()
    rank = np.argsort(np.argsort(x)).astype(float)
    # favours the good segments six to one, as the adaptive policy's floor allows at most
    p = scaled_probabilities(0.2 + rank / len(y), 400.0)
    pilot = np.random.default_rng(1).choice(len(y), 100, replace=False)
    guess = linear_prediction(pilot, y[pilot], x[:, None])  # learnt before the draws
    rng = np.random.default_rng(9)
    plain_hits = weighted_hits = 0
    repetitions = 1000
    for _ in range(repetitions):
        judged = np.flatnonzero(poisson_draw(p, rng))
        mean, sd = y[judged].mean(), y[judged].std(ddof=1) / math.sqrt(len(judged))
        plain_hits += abs(mean - y.mean()) <= 1.96 * sd
        low, high = aipw(y[judged], judged, p[judged], guess).bounds(0.95)
        weighted_hits += low <= y.mean() <= high
    assert plain_hits / repetitions < 0.5  # the favoured good segments pull it up
    assert 0.93 <= weighted_hits / repetitions <= 0.97  # 95 % ± 3 sd of 1000


ANTICIPATED = [
    # residuals known, their batches, the round's chances, parameters: the variance
    ([1.0, -1.0, 2.0, -2.0], None, [0.5, 0.5], 1, 2 * 1.0 * (10.0 / 4 * 4 / 3) / 10**2),
    ([1.0, 1.0, -2.0, 0.0], [0, 0, 1, 1], [0.25], 1, 3.0 * (8.0 / 2 * 4 / 3) / 10**2),
    ([], None, [0.5], 1, 0.0),
]


@pytest.mark.parametrize("residuals, batches, chances, parameters, expected", ANTICIPATED)
def test_the_anticipated_variance_is_the_designs_for_the_residuals_seen(  # type: ignore[no-untyped-def]
    residuals, batches, chances, parameters, expected
):
    """Σ(1 − π)/π over the round's draws times the known residuals' mean square (per
    batch, given batches), times n/(n − parameters) for a prediction fitted to them, over
    N² (N = 10 here)."""
    clusters = None if batches is None else np.array(batches)
    found = anticipated_variance(
        np.array(residuals), np.array(chances), 10, parameters=parameters, clusters=clusters
    )
    assert found == pytest.approx(expected)


def test_combined_rounds_are_never_surer_than_anticipated() -> None:
    """A round whose draw missed the large residuals has a small design variance; the
    combination keeps the larger of the rounds' variances and their anticipated ones,
    each combined with the rounds' weights squared, and leaves the mean alone."""
    lucky = Weighted(mean=1.0, variance=0.01, anticipated=0.09)
    plain = Weighted(mean=3.0, variance=0.04)  # nothing anticipated: its own variance
    both = combine([lucky, plain], [1.0, 1.0])
    assert both.mean == pytest.approx(2.0)
    assert both.variance == pytest.approx((0.09 + 0.04) / 4)
    surer = Weighted(mean=1.0, variance=0.2, anticipated=0.09)
    assert combine([surer, plain], [1.0, 1.0]).variance == pytest.approx((0.2 + 0.04) / 4)


@pytest.fixture(scope="module")
def synthetic_replay():  # type: ignore[no-untyped-def]
    campaign = synthetic_campaign(6, 400, seed=2)
    return simulate(campaign, budgets=(0.2,), repetitions=40, seed=4)


@pytest.mark.parametrize("policy", [RANDOM, ADAPTIVE])
def test_intervals_cover_the_full_data_means_of_a_known_campaign(synthetic_replay, policy):  # type: ignore[no-untyped-def]
    (row,) = [r for r in synthetic_replay.rows if r.policy == policy]
    # 240 intervals (6 systems × 40 repetitions): 95 % ± about 3 standard deviations
    assert 0.90 <= row.coverage <= 0.99
    assert row.wrong < 0.02
    assert row.least_probability > 0.0


def test_the_adaptive_policy_spends_its_budget_and_keeps_pairs_in_order(synthetic_replay):  # type: ignore[no-untyped-def]
    random_row, adaptive_row = synthetic_replay.rows
    assert adaptive_row.share == pytest.approx(0.2, abs=0.02)
    assert adaptive_row.agreement > 0.5
    assert random_row.agreement > 0.5
    assert adaptive_row.saved is not None


def test_a_replay_is_the_same_for_the_same_seed() -> None:
    campaign = synthetic_campaign(3, 120, seed=1)
    first = simulate(campaign, budgets=(0.3,), repetitions=3, seed=8)
    again = simulate(campaign, budgets=(0.3,), repetitions=3, seed=8)
    assert first.as_json() == again.as_json()


@pytest.mark.parametrize(
    "share, agreement, expected, bound",
    [
        (0.2, 0.7, 1 - 0.2 / 0.35, False),  # random needs 0.35 for 0.7 (past its dip)
        (0.4, 0.6, 1 - 0.4 / 0.2, False),  # worse than random: a negative saving
        (0.2, 0.9, 1 - 0.2 / 0.4, True),  # random never gets there: at least this
    ],
)
def test_judgments_saved_read_off_randoms_curve(share, agreement, expected, bound):  # type: ignore[no-untyped-def]
    curve = [(0.0, 0.2), (0.2, 0.6), (0.4, 0.8), (0.3, 0.55)]  # a dip: read as 0.6
    saved, is_bound = judgments_saved(curve, share, agreement)
    assert saved == pytest.approx(expected)
    assert is_bound is bound


def _write(path, text: str, *, zipped: bool = False) -> str:  # type: ignore[no-untyped-def]
    data = text.encode()
    path.write_bytes(gzip.compress(data) if zipped else data)
    return str(path)


def test_the_command_replays_a_file_with_annotators_and_covariates(tmp_path, capsys):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(0)
    human = ["segment\tdocument\tsystem\tannotator\tscore"]
    auto = ["segment\tsystem\tm1"]
    for g in range(60):
        for s, level in (("A", 0.0), ("B", -1.0), ("C", -3.0)):
            y = level + rng.normal()
            human.append(f"{g}\td{g // 6}\t{s}\tr1\t{y:.4f}")
            if g % 2:
                human.append(f"{g}\td{g // 6}\t{s}\tr2\t{y + 0.1:.4f}")
            auto.append(f"{g}\t{s}\t{y + rng.normal():.4f}")
    status = main(
        [
            "simulate",
            "--human",
            _write(tmp_path / "h.tsv.gz", "\n".join(human) + "\n", zipped=True),
            "--auto",
            _write(tmp_path / "a.tsv", "\n".join(auto) + "\n"),
            "--budgets",
            "30,60",
            "--repetitions",
            "2",
            "--json",
        ]
    )
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["systems"], out["segments"], out["judgments"]) == (3, 60, 270)
    assert [b["policy"] for b in out["budgets"]] == ["random"] * 2 + ["adaptive"] * 2
    assert out["covariates"] == ["m1"]


def test_the_command_reads_mqm_averages_and_prints_a_table(tmp_path, capsys):  # type: ignore[no-untyped-def]
    lines = ["system mqm_avg_score seg_id"]
    for g in range(1, 41):
        lines += [f"X {-(g % 3):d} {g}", f"Y {-(g % 5):d} {g}"]
    lines.append("X None 41")  # a segment without every system's score
    path = _write(tmp_path / "mqm.avg_seg_scores.tsv", "\n".join(lines) + "\n")
    assert main(["simulate", "--human", path, "--repetitions", "2", "--policy", "random"]) == 0
    text = capsys.readouterr().out
    assert "2 systems × 40 segments" in text
    assert "1 segment(s) without every system's score left out" in text


def test_the_command_names_a_missing_column(tmp_path, capsys):  # type: ignore[no-untyped-def]
    path = _write(tmp_path / "h.tsv", "segment\tscore\n1\t0.5\n")
    assert main(["simulate", "--human", path]) == 2
    assert "no 'system' column" in capsys.readouterr().err
