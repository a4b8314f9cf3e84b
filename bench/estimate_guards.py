"""The estimator's guard against its alternatives, on the MQM data of ``bench/estimate.py``.

    python bench/estimate_guards.py DATA [--wmt20-metrics DIR] [--subsets 1000] [--seed 28]

With weak covariates on a few dozen skewed MQM scores (WMT21 TED, chrF + BLEU at
r = 0.14–0.18 on 26–106 judged segments) the guarded regression of
:mod:`metrics.estimate` costs a fraction of a percent of error against the plain mean.
This script measures whether another rule would avoid that without giving up the gains
where the covariates are worth something (newstest2020 with the WMT20 metrics, and a
synthetic covariate at ρ = 0.3). Every rule is the single-stratum regression on the
standardised covariates, taken only where its variance estimate is below the plain
mean's; they differ in how the slopes are shrunk and which variance the guard compares:

* ``shipped``: :func:`metrics.regression.fit` and :func:`~metrics.regression.guarded`,
  the slopes shrunk by ``(1 − 1/F)⁺`` (the mean-squared-error optimal factor for a known
  F), the model's prediction variance;
* ``(1 − 3/F)⁺``: a harder shrinkage;
* ``F test``: the regression only where its F test rejects at 5 %, then as shipped;
* ``jackknife``: the guard compares the estimator's delete-one jackknife variance
  (which sees a slope that rests on one segment) with the plain mean's.

Printed per test set, covariate set and judged fraction: the mean absolute error's gain
over the plain mean of the same stratified subsets (%), its paired z (positive: worse
than the plain mean; beyond 2 it is worse beyond noise) and how often the regression
was taken. ``docs/estimate.md`` quotes a run.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent))

from estimate import (  # noqa: E402
    Campaign,
    FloatArray,
    add_synthetic,
    data_arguments,
    newstest2020,
    standardised,
    stratified_subsets,
    ted,
)

from metrics.regression import fit, guarded  # noqa: E402

FRACTIONS = (0.05, 0.10, 0.20)
#: Subsets of newstest2020 are fewer: the jackknife refits every judged segment.
NEWSTEST_SHARE = 0.3
Rule = Callable[[FloatArray, FloatArray, FloatArray, int], tuple[FloatArray, FloatArray]]


def _regression(
    y: FloatArray, x: FloatArray, corpus_means: FloatArray, size: int, harder: float = 1.0
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The regression estimate (slopes shrunk by ``(1 − harder/F)⁺``), its prediction
    variance and its F statistic, for a batch (y: b × n, x: b × n × p)."""
    b, n = y.shape
    p = x.shape[2]
    y_dev = y - y.mean(axis=1, keepdims=True)
    x_mean = x.mean(axis=1)
    x_dev = x - x_mean[:, None, :]
    inverse = np.linalg.pinv(np.einsum("bnp,bnq->bpq", x_dev, x_dev))
    beta = np.einsum("bpq,bnq,bn->bp", inverse, x_dev, y_dev)
    total = (y_dev**2).sum(axis=1)
    left = ((y_dev - np.einsum("bnp,bp->bn", x_dev, beta)) ** 2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = ((total - left) / p) / (left / (n - 1 - p))
        beta = beta * np.nan_to_num(np.clip(1.0 - harder / f, 0.0, 1.0))[:, None]
    residuals = y_dev - np.einsum("bnp,bp->bn", x_dev, beta)
    s2 = (residuals**2).sum(axis=1) / (n - 1 - p)
    shift = corpus_means - x_mean
    variance = s2 * ((1 - n / size) / n + np.einsum("bp,bpq,bq->b", shift, inverse, shift))
    return y.mean(axis=1) + np.einsum("bp,bp->b", beta, shift), variance, f


def shipped(y: FloatArray, x: FloatArray, means: FloatArray, size: int) -> tuple[FloatArray, ...]:
    b, n = y.shape
    one = np.zeros(n, dtype=np.int64)
    plain = fit(y, np.zeros((b, n, 0)), one, np.array([size]), np.zeros((b, 1, 0)))
    chosen, taken = guarded(fit(y, x, one, np.array([size]), means[:, None, :]), plain)
    return chosen.mean, taken


def harder(y: FloatArray, x: FloatArray, means: FloatArray, size: int) -> tuple[FloatArray, ...]:
    mean, variance, _ = _regression(y, x, means, size, harder=3.0)
    return _guard(y, size, mean, variance)


def f_test(y: FloatArray, x: FloatArray, means: FloatArray, size: int) -> tuple[FloatArray, ...]:
    mean, variance, f = _regression(y, x, means, size)
    p, n = x.shape[2], y.shape[1]
    rejects = np.nan_to_num(stats.f.sf(f, p, n - 1 - p), nan=1.0) < 0.05
    return _guard(y, size, mean, np.where(rejects, variance, np.inf))


def jackknife(y: FloatArray, x: FloatArray, means: FloatArray, size: int) -> tuple[FloatArray, ...]:
    mean, _, _ = _regression(y, x, means, size)
    n = y.shape[1]
    leave_one_out = np.empty_like(y)
    for i in range(n):
        keep = np.r_[0:i, i + 1 : n]
        leave_one_out[:, i] = _regression(y[:, keep], x[:, keep], means, size)[0]
    spread = ((leave_one_out - leave_one_out.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    return _guard(y, size, mean, (n - 1) / n * spread * (1 - n / size))


def _guard(
    y: FloatArray, size: int, mean: FloatArray, variance: FloatArray
) -> tuple[FloatArray, FloatArray]:
    n = y.shape[1]
    plain_variance = y.var(axis=1, ddof=1) * (1 - n / size) / n
    taken = variance < plain_variance
    return np.where(taken, mean, y.mean(axis=1)), taken


RULES: dict[str, Rule] = {
    "shipped": shipped,
    "(1 − 3/F)⁺": harder,
    "F test": f_test,
    "jackknife": jackknife,
}


def compare(campaign: Campaign, label: str, count: int, rng: np.random.Generator) -> list[str]:
    z = standardised(np.stack([campaign.metrics[m] for m in campaign.sets[label]], axis=-1))
    systems, size, p = z.shape
    truth = campaign.human.mean(axis=1)
    lines = []
    for fraction in FRACTIONS:
        n = round(fraction * size)
        subsets = stratified_subsets(campaign.codes, n, count, rng, size)
        c = len(subsets)
        y = campaign.human[:, subsets].transpose(1, 0, 2).reshape(c * systems, n)
        x = z[:, subsets].transpose(1, 0, 2, 3).reshape(c * systems, n, p)
        means = np.tile(z.mean(axis=1), (c, 1))
        target = np.tile(truth, c)
        plain_error = np.abs(y.mean(axis=1) - target)
        cells = []
        for rule in RULES.values():
            mean, taken = rule(y, x, means, size)
            error = np.abs(mean - target)
            d = (error - plain_error).reshape(c, systems).mean(axis=1)
            z_score = d.mean() / (d.std(ddof=1) / math.sqrt(c)) if d.std() > 0 else 0.0
            gain = 100 * (1 - error.mean() / plain_error.mean())
            cells.append(f"{gain:+.2f} ({z_score:+.1f}, {100 * np.mean(taken):.0f} %)")
        lines.append(f"| {campaign.name} | {label} | {fraction:.0%} | {n} | " + " | ".join(cells))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = data_arguments(__doc__.split("\n\n")[0]).parse_args(argv)
    started = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    print(
        "| test set | covariates | judged | n | "
        + " | ".join(f"{name}: gain % (z, taken)" for name in RULES)
        + " |\n|"
        + "---|" * (4 + len(RULES))
    )
    for lp in ("en-de", "zh-en"):
        for line in compare(ted(args.data, lp), "lexical", args.subsets, rng):
            print(line + " |", flush=True)
    if args.wmt20_metrics is not None:
        for lp in ("en-de", "zh-en"):
            campaign = newstest2020(args.data, lp, args.wmt20_metrics)
            add_synthetic(campaign, rng)
            count = max(1, round(args.subsets * NEWSTEST_SHARE))
            for label in ("lexical", "all WMT20 metrics", "ρ = 0.3"):
                if label in campaign.sets:
                    for line in compare(campaign, label, count, rng):
                        print(line + " |", flush=True)
    print(f"\n({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
