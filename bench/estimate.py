"""Fewer judgments for the same certainty, on real MQM data (issue 28, point 5).

    python bench/estimate.py DATA [--wmt20-metrics DIR] [--subsets 1000] [--seed 28]
                             [--pairs en-de,zh-en] [--no-ted] [--markdown FILE]

``DATA`` is a copy of github.com/google/wmt-mqm-human-evaluation (Freitag et al. 2021's
MQM annotations; not shipped with evaltool, fetched once by whoever runs this). Its
``newstest2020/{ende,zhen}/mqm_newstest2020_*.avg_seg_scores.tsv`` give every system's
per-segment MQM score (the mean over its raters; higher is better, 0 = no error). The
human reference "Human-A.0" is the reference of the automatic metrics and is left out;
the other human translations are systems like the rest.

Automatic scores on the same segments come from what is there:

* the full annotation files ``mqm_newstest2020_*.tsv`` (source and target texts; too large
  for some mirrors), from which ``metrics/`` computes chrF and BLEU sentence scores
  against Human-A (:func:`metric_scores`, as ``python -m metrics --sentence`` does);
* ``--wmt20-metrics DIR``, a copy of github.com/WMT-Metrics-task/wmt20-metrics: the WMT20
  metrics task's segment scores of these very system outputs against the same reference
  ("newstest2020", i.e. Human-A): sacreBLEU's chrF and TER (the lexical metrics, the same
  definitions as ``metrics/``'s) and the task's submissions that cover every system
  (learned metrics such as BLEURT or YiSi combinations), and each segment's document;
* the TED talks of the same repository (``ted/``, WMT21, whose annotation files hold the
  texts): chrF and BLEU computed by ``metrics/`` against ref-A (``--no-ted`` skips them).

And synthetic covariates, human score plus noise at ρ = 0.3, 0.5, 0.7, 0.9 (expected
variance ratio ≈ 1 − ρ²), show the gain as a function of the covariate's strength.

For judged fractions of 5, 10, 20 and 50 %, ``--subsets`` random subsets (1,000) of the
segments are drawn with the judge queue's guarantee — stratified by document, every
document giving its share rounded down or up, its segments at random
(:func:`stratified_subsets`) — and every system is estimated on every subset: the plain
mean, the guarded regression estimate (:func:`metrics.regression.fit` /
:func:`~metrics.regression.guarded`, vectorised over subsets and systems) and, with
documents, the estimate with documents (:func:`metrics.estimate.fit_judged`, system by
system: on a proportional allocation the regression's point with the stratified
variance) beside the strata always reweighted (the estimator before it told the two
apart).
Against each system's full-data mean: the mean absolute error, the gain over the plain
mean, the coverage of the 95 % intervals, and whether the estimate did worse than the
plain mean beyond noise (paired difference of absolute errors > 2 standard errors over
the subsets). A plain mean on simple random subsets shows what the stratified draw adds.

Power: for neighbouring systems (by full-data mean), the closed-form power of
:mod:`metrics.power` at the full data's effect and spread against the rate at which the
paired t-test separates them on the subsets; and the plan it makes from a 10 % pilot
(judged sentences needed) against the rate at which fresh subsets of that size separate.

Targets (issue 28): never worse than the plain mean beyond noise; coverage 93–97 %; at
ρ = 0.7, ≥ 30 % lower error at 10–20 % judged. ``--markdown FILE`` writes the tables.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import math
import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from estimate_tables import (  # noqa: E402
    PlanRow,
    PowerRow,
    Row,
    design_table,
    documents_table,
    estimate_table,
    plan_table,
    power_table,
    verdicts,
)

from metrics.distributions import normal_cdf  # noqa: E402
from metrics.estimate import fit_judged  # noqa: E402
from metrics.power import (  # noqa: E402
    NEEDED,
    NOT_SEPARABLE,
    SEPARATED,
    critical_t,
    sentences_needed,
    separated,
    separation_power,
)
from metrics.regression import fit, guarded  # noqa: E402
from metrics.strata import proportional_allocation  # noqa: E402

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

FRACTIONS = (0.05, 0.10, 0.20, 0.50)
RHOS = (0.3, 0.5, 0.7, 0.9)
CONFIDENCE = 0.95
#: The human translation the automatic metrics compare with, per test set.
REFERENCE = {"newstest2020": "Human-A.0", "ted": "ref-A"}
#: The TED annotation files' names of the human translations, as the score files spell them.
TED_NAMES = {"ref": "ref-A", "refB": "ref-B"}
#: The WMT20 metrics task's names of the test set and of that reference.
WMT20_TESTSET = "newstest2020"
WMT20_REFERENCE = "newstest2020"
#: The lexical metrics of the WMT20 metrics task's baselines (sacreBLEU's).
LEXICAL = ("chrF", "TER")
#: Covariate sets whose stratified estimate is computed too (system by system, slower).
STRATIFIED_SETS = ("none", "lexical", "ρ = 0.7")
#: Documents a campaign needs for its stratified estimates (TED's five talks are not
#: strata worth the time).
MIN_DOCUMENTS = 20
#: The pilot's judged fraction in the planning check.
PILOT = 0.10
#: Memory of one vectorised batch of subsets × systems (covariates, float64).
BATCH_BYTES = 64e6


@dataclass
class Campaign:
    """One test set: every system's per-segment human score, the automatic scores of the
    same segments, each segment's document (codes), and the covariate sets to try."""

    name: str
    systems: list[str]
    human: FloatArray  # systems × segments
    codes: IntArray | None
    metrics: dict[str, FloatArray] = field(default_factory=dict)  # name → systems × segments
    sets: dict[str, tuple[str, ...]] = field(default_factory=dict)  # label → metric names
    notes: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return int(self.human.shape[1])


# ------------------------------------------------------------------ reading the data


def read_mqm_averages(path: Path) -> dict[str, dict[int, float]]:
    """``system → segment id → mean MQM score`` ("None": not annotated, NaN)."""
    out: dict[str, dict[int, float]] = {}
    with path.open(encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            system, score, segment = line.split()
            out.setdefault(system, {})[int(segment)] = math.nan if score == "None" else float(score)
    return out


def read_mqm_texts(path: Path) -> tuple[dict[str, dict[int, str]], dict[int, str]]:
    """From a full MQM annotation file: ``system → segment id → target text`` (the error
    marks ``<v>…</v>`` removed) and ``segment id → document``."""
    texts: dict[str, dict[int, str]] = {}
    documents: dict[int, str] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        rows = csv.reader(fh, delimiter="\t")
        head = next(rows)
        system, doc, segment, target = (
            head.index(c) for c in ("system", "doc", "seg_id", "target")
        )
        for row in rows:
            k = int(row[segment])
            texts.setdefault(row[system], {})[k] = re.sub(r"</?v>", "", row[target]).strip()
            documents[k] = row[doc]
    return texts, documents


def metric_scores(
    references: Sequence[str], outputs: dict[str, list[str]]
) -> dict[str, FloatArray]:
    """chrF and BLEU sentence scores of every system's outputs by ``metrics/``: one
    ``systems × segments`` array per metric."""
    from metrics.corpus import score_corpus
    from metrics.registry import build_metric

    metrics = [build_metric("chrf"), build_metric("bleu")]
    scored = score_corpus([(r,) for r in references], outputs, metrics)
    out = {}
    for metric in metrics:
        rows = [
            np.asarray(metric.sentence_score_from_stats(scored[s][metric.name].stats), dtype=float)
            for s in outputs
        ]
        out[f"{metric.name} (metrics/)"] = np.vstack(rows)
    return out


def read_wmt20_documents(directory: Path, lp: str) -> dict[tuple[str, int], int]:
    """``(document, segment within it) → segment id`` from the task's input details."""
    out = {}
    for line in (directory / "input" / "details" / f"{lp}.txt").read_text().splitlines():
        segment, _, _, document, within = line.split()
        out[(document, int(within))] = int(segment)
    return out


def read_wmt20_scores(
    directory: Path, lp: str, positions: dict[tuple[str, int], int]
) -> Iterator[tuple[str, dict[str, dict[int, float]]]]:
    """Every segment-level score file of the task, as ``(metric, system → segment id →
    score)`` for ``lp`` against the reference newstest2020."""
    for path in sorted((directory / "final-metric-scores").glob("*/*.seg.score.gz")):
        found: dict[str, dict[int, float]] = {}
        name = path.name.removesuffix(".seg.score.gz")
        wanted = f"\t{lp}\t{WMT20_TESTSET}\t{WMT20_REFERENCE}\t"
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if wanted not in line:
                    continue
                name, _, _, _, system, document, within, score = line.split("\t")
                found.setdefault(system, {})[positions[(document, int(within))]] = float(score)
        if found:
            yield name, found


def newstest2020(data: Path, lp: str, wmt20: Path | None) -> Campaign:
    """The newstest2020 MQM campaign of ``lp`` with whatever automatic scores are there."""
    code = lp.replace("-", "")
    folder = data / "newstest2020" / code
    averages = read_mqm_averages(folder / f"mqm_newstest2020_{code}.avg_seg_scores.tsv")
    reference = REFERENCE["newstest2020"]
    systems = sorted(s for s in averages if s != reference)
    segments = sorted(set.intersection(*(set(averages[s]) for s in systems)))
    human = np.array([[averages[s][k] for k in segments] for s in systems])
    keep = ~np.isnan(human).any(axis=0)
    segments = [k for k, kept in zip(segments, keep, strict=True) if kept]
    campaign = Campaign(f"newstest2020 {lp}", systems, human[:, keep], None)
    full = folder / f"mqm_newstest2020_{code}.tsv"
    if full.exists():
        texts, documents = read_mqm_texts(full)
        campaign.codes = _codes([documents[k] for k in segments])
        outputs = {s: [texts[s][k] for k in segments] for s in systems}
        campaign.metrics.update(metric_scores([texts[reference][k] for k in segments], outputs))
        campaign.sets["lexical"] = tuple(campaign.metrics)
    else:
        campaign.notes.append(f"{full.name} is not in {folder}: no texts for metrics/ to score")
    if wmt20 is not None:
        positions = read_wmt20_documents(wmt20, lp)
        by_segment = {k: d for (d, _), k in positions.items()}
        if campaign.codes is None:
            campaign.codes = _codes([by_segment[k] for k in segments])
        for name, scores in read_wmt20_scores(wmt20, lp, positions):
            if all(s in scores and all(k in scores[s] for k in segments) for s in systems):
                campaign.metrics[name] = np.array(
                    [[scores[s][k] for k in segments] for s in systems]
                )
            else:
                campaign.notes.append(f"WMT20 {name}: not every system and segment, left out")
        if all(m in campaign.metrics for m in LEXICAL):
            campaign.sets.setdefault("lexical", LEXICAL)
        wmt = tuple(m for m in campaign.metrics if "metrics/" not in m)
        if len(wmt) > len(LEXICAL):
            campaign.sets["all WMT20 metrics"] = wmt
    return campaign


def ted(data: Path, lp: str) -> Campaign:
    """The WMT21 TED MQM campaign of ``lp``: its annotation files hold the texts, so chrF
    and BLEU come from ``metrics/``."""
    code = lp.replace("-", "")
    folder = data / "ted" / code
    averages = read_mqm_averages(folder / f"mqm_ted_{code}.avg_seg_scores.tsv")
    texts, documents = read_mqm_texts(folder / f"mqm_ted_{code}.tsv")
    texts = {TED_NAMES.get(s, s): t for s, t in texts.items()}
    reference = REFERENCE["ted"]
    systems = sorted(s for s in averages if s != reference and s in texts)
    segments = sorted(
        k
        for k in texts[reference]
        if all(k in texts[s] and not math.isnan(averages[s].get(k, math.nan)) for s in systems)
    )
    human = np.array([[averages[s][k] for k in segments] for s in systems])
    campaign = Campaign(f"TED {lp}", systems, human, _codes([documents[k] for k in segments]))
    outputs = {s: [texts[s][k] for k in segments] for s in systems}
    campaign.metrics.update(metric_scores([texts[reference][k] for k in segments], outputs))
    campaign.sets["lexical"] = tuple(campaign.metrics)
    return campaign


def _codes(documents: Sequence[str]) -> IntArray:
    from metrics.strata import document_codes

    return document_codes(documents)


def add_synthetic(campaign: Campaign, rng: np.random.Generator) -> None:
    """Covariates at correlation ρ with each system's human scores: ρ·z(h) + √(1 − ρ²)·ε."""
    h = campaign.human
    z = (h - h.mean(axis=1, keepdims=True)) / h.std(axis=1, keepdims=True)
    noise = rng.normal(size=h.shape)
    for rho in RHOS:
        name = f"ρ = {rho}"
        campaign.metrics[name] = rho * z + math.sqrt(1 - rho**2) * noise
        campaign.sets[name] = (name,)


# ------------------------------------------------------------------ subsets


def stratified_subsets(
    codes: IntArray | None, n: int, count: int, rng: np.random.Generator, size: int
) -> IntArray:
    """``count`` subsets of ``n`` segments with the judge queue's guarantee: every document
    gives its share ``n·N_d/N`` rounded down or up (the queue's quota method,
    ``annotation/queue_order.py``), here by systematic rounding of the shares laid end
    to end in a random order of the documents from a random start; each document's
    segments are a random subset of it."""
    if codes is None:
        return simple_subsets(size, n, count, rng)
    lengths = np.bincount(codes)
    first = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    out = np.empty((count, n), dtype=np.int64)
    for start in range(0, count, 100):
        c = min(100, count - start)
        rows = np.arange(c)[:, None]
        # each segment's rank within its document, in a random order
        order = np.lexsort((rng.random((c, size)), np.broadcast_to(codes, (c, size))))
        rank = np.empty((c, size), dtype=np.int64)
        rank[rows, order] = np.arange(size) - first[codes[order]]
        # each document's share, rounded: floor(C_d + u) − floor(C_{d−1} + u) along the
        # cumulative shares C of the documents in a random order
        shuffled = np.argsort(rng.random((c, len(lengths))), axis=1)
        ends = np.floor(n * np.cumsum(lengths[shuffled], axis=1) / size + rng.random((c, 1)))
        taken = np.diff(ends, axis=1, prepend=0.0).astype(np.int64)
        allocation = np.empty_like(taken)
        allocation[rows, shuffled] = taken
        chosen = rank < allocation[rows, codes]
        out[start : start + c] = np.nonzero(chosen)[1].reshape(c, n)
    return out


def simple_subsets(size: int, n: int, count: int, rng: np.random.Generator) -> IntArray:
    return np.argpartition(rng.random((count, size)), n - 1, axis=1)[:, :n].astype(np.int64)


# ------------------------------------------------------------------ estimates


def standardised(values: FloatArray) -> FloatArray:
    """Each system's covariates over the corpus at mean 0, sd 1 (as estimate_mean does);
    systems × segments × p."""
    sd = values.std(axis=1, keepdims=True)
    return (values - values.mean(axis=1, keepdims=True)) / np.where(sd > 0, sd, 1.0)


def regression_errors(
    campaign: Campaign, z: FloatArray, subsets: IntArray
) -> tuple[FloatArray, ...]:
    """Vectorised over subsets × systems: the plain and the guarded regression estimates'
    absolute errors, their intervals' hits, the variance ratio and whether the regression
    was taken (each subsets × systems)."""
    systems, size, p = z.shape
    truth = campaign.human.mean(axis=1)
    count, n = subsets.shape
    chunk = max(1, int(BATCH_BYTES // (systems * n * max(p, 1) * 8)))
    parts: list[list[FloatArray]] = [[] for _ in range(6)]
    for start in range(0, count, chunk):
        idx = subsets[start : start + chunk]
        c = len(idx)
        y = campaign.human[:, idx].transpose(1, 0, 2).reshape(c * systems, n)
        x = z[:, idx].transpose(1, 0, 2, 3).reshape(c * systems, n, p)
        one = np.zeros(n, dtype=np.int64)
        plain = fit(
            y, np.zeros((c * systems, n, 0)), one, np.array([size]), np.zeros((c * systems, 1, 0))
        )
        means = np.broadcast_to(z.mean(axis=1)[None], (c, systems, p)).reshape(c * systems, 1, p)
        chosen, taken = guarded(fit(y, x, one, np.array([size]), means), plain)
        target = np.tile(truth, c)
        for k, found in enumerate(
            _errors_and_hits(plain, target) + _errors_and_hits(chosen, target)
        ):
            parts[k].append(found.reshape(c, systems))
        ratio = np.divide(
            chosen.variance,
            plain.variance,
            out=np.ones_like(plain.variance),
            where=plain.variance > 0,
        )
        parts[4].append(ratio.reshape(c, systems))
        parts[5].append(taken.reshape(c, systems).astype(float))
    return tuple(np.concatenate(p) for p in parts)


def _errors_and_hits(fits: object, truth: FloatArray) -> tuple[FloatArray, FloatArray]:
    low, high = fits.bounds(CONFIDENCE)  # type: ignore[attr-defined]
    mean = fits.mean  # type: ignore[attr-defined]
    return np.abs(mean - truth), ((low <= truth) & (truth <= high)).astype(float)


def stratified_errors(
    campaign: Campaign, z: FloatArray, subsets: IntArray, *, always_reweight: bool = False
) -> tuple[FloatArray, FloatArray]:
    """System by system (each merges documents by its own first covariate, as
    estimate_mean does): the absolute errors and hits of the estimate with documents
    (``always_reweight``: with the strata reweighted even where the allocation is
    proportional, the estimator before it told the two apart)."""
    assert campaign.codes is not None
    truth = campaign.human.mean(axis=1)
    errors = np.empty((len(subsets), len(campaign.systems)))
    hits = np.empty_like(errors)
    for d, idx in enumerate(subsets):
        for s in range(len(campaign.systems)):
            chosen = fit_judged(
                campaign.human[s, idx], z[s], idx, campaign.codes, always_reweight=always_reweight
            ).chosen
            low, high = chosen.bounds(CONFIDENCE)
            errors[d, s] = abs(chosen.mean[0] - truth[s])
            hits[d, s] = low[0] <= truth[s] <= high[0]
    return errors, hits


def _share_proportional(codes: IntArray, subsets: IntArray) -> float:
    """The share of subsets whose allocation over the documents is proportional."""
    return float(np.mean([proportional_allocation(codes, idx) for idx in subsets]))


def worse_beyond_noise(estimate: FloatArray, plain: FloatArray) -> bool:
    """The estimate's absolute error above the plain mean's by more than two standard
    errors (per subset, averaged over systems) and more than rounding (an estimate that
    is the plain mean differs from it in the last bits only, computed apart)."""
    d = (estimate - plain).mean(axis=1)
    beyond_rounding = d.mean() > 1e-9 * plain.mean()
    return bool(beyond_rounding and d.mean() > 2.0 * d.std(ddof=1) / math.sqrt(len(d)))


def coverage_noise(hits: FloatArray) -> float:
    """The standard error of a coverage from its hits (subsets × systems): the spread of
    the per-subset coverage over √subsets."""
    per_subset = hits.mean(axis=1)
    return float(per_subset.std(ddof=1) / math.sqrt(len(per_subset)))


def estimate_rows(
    campaign: Campaign, count: int, rng: np.random.Generator, fractions: Sequence[float]
) -> list[Row]:
    rows = []
    truth = campaign.human.mean(axis=1)
    sets = {"none": (), **campaign.sets}
    correlations = {label: _correlation(campaign, names) for label, names in sets.items()}
    stratify = campaign.codes is not None and int(campaign.codes.max()) + 1 >= MIN_DOCUMENTS
    for fraction in fractions:
        n = round(fraction * campaign.size)
        subsets = stratified_subsets(campaign.codes, n, count, rng, campaign.size)
        simple = simple_subsets(campaign.size, n, count, rng)
        mae_simple = float(np.abs(campaign.human[:, simple].mean(axis=2) - truth[:, None]).mean())
        for label, names in sets.items():
            raw = (
                np.stack([campaign.metrics[m] for m in names], axis=-1)
                if names
                else np.zeros((len(campaign.systems), campaign.size, 0))
            )
            z = standardised(raw)
            err_p, hit_p, err_e, hit_e, ratio, taken = regression_errors(campaign, z, subsets)
            row = Row(
                campaign=campaign.name,
                covariates=label,
                correlation=correlations[label],
                fraction=fraction,
                n=n,
                mae_simple=mae_simple,
                mae_plain=float(err_p.mean()),
                mae_estimate=float(err_e.mean()),
                mse_plain=float((err_p**2).mean()),
                mse_estimate=float((err_e**2).mean()),
                cover_plain=float(hit_p.mean()),
                cover_estimate=float(hit_e.mean()),
                variance_ratio=float(ratio.mean()),
                taken=float(taken.mean()),
                worse=worse_beyond_noise(err_e, err_p),
                cover_noise={"estimate": coverage_noise(hit_e)},
            )
            if stratify and label in STRATIFIED_SETS:
                err_s, hit_s = stratified_errors(campaign, z, subsets)
                row.mae_stratified = float(err_s.mean())
                row.cover_stratified = float(hit_s.mean())
                row.cover_noise["stratified"] = coverage_noise(hit_s)
                row.worse_stratified = worse_beyond_noise(err_s, err_p)
                err_r, hit_r = stratified_errors(campaign, z, subsets, always_reweight=True)
                row.mae_reweighted = float(err_r.mean())
                row.cover_reweighted = float(hit_r.mean())
                row.cover_noise["reweighted"] = coverage_noise(hit_r)
                row.worse_reweighted = worse_beyond_noise(err_r, err_p)
                assert campaign.codes is not None
                row.proportional = _share_proportional(campaign.codes, subsets)
                row.proportional_simple = _share_proportional(campaign.codes, simple)
            rows.append(row)
    return rows


def _correlation(campaign: Campaign, names: Sequence[str]) -> float:
    """The mean over systems of the multiple correlation of the human score with the
    covariates on the full data (one covariate: its Pearson r, signed)."""
    if not names:
        return math.nan
    out = []
    for s in range(len(campaign.systems)):
        y = campaign.human[s]
        x = np.column_stack([campaign.metrics[m][s] for m in names])
        if len(names) == 1:
            out.append(float(np.corrcoef(x[:, 0], y)[0, 1]))
            continue
        design = np.column_stack([np.ones(len(y)), x])
        fitted = design @ np.linalg.lstsq(design, y, rcond=None)[0]
        out.append(float(np.corrcoef(fitted, y)[0, 1]))
    return float(np.mean(out))


# ------------------------------------------------------------------ power


def neighbours(campaign: Campaign) -> list[tuple[int, int]]:
    """Pairs of systems next to each other in the full data's order (best first)."""
    order = np.argsort(-campaign.human.mean(axis=1), kind="stable")
    return [(int(a), int(b)) for a, b in zip(order[:-1], order[1:], strict=True)]


def power_rows(
    campaign: Campaign, count: int, rng: np.random.Generator, fractions: Sequence[float]
) -> list[PowerRow]:
    rows = []
    pairs = neighbours(campaign)
    for fraction in fractions:
        n = round(fraction * campaign.size)
        subsets = stratified_subsets(campaign.codes, n, count, rng, campaign.size)
        predicted, finite, observed = [], [], []
        for a, b in pairs:
            d = campaign.human[a] - campaign.human[b]
            effect, spread = float(d.mean()), float(d.std(ddof=1))
            predicted.append(separation_power(effect, spread, n))
            finite.append(_finite_power(effect, spread, n, campaign.size))
            observed.append(float(separated(d[subsets]).mean()))
        rows.append(
            PowerRow(
                campaign.name,
                fraction,
                n,
                len(pairs),
                float(np.mean(predicted)),
                float(np.mean(finite)),
                float(np.mean(observed)),
                float(np.max(np.abs(np.subtract(finite, observed)))),
            )
        )
    return rows


def _finite_power(effect: float, spread: float, n: int, size: int) -> float:
    """The t-test's power when the n sentences are drawn from a corpus of ``size`` (the
    simulation's case): the mean difference varies (1 − n/N) times as much as in the
    closed form's infinite population, while the test's spread estimate does not."""
    if spread == 0:
        return float(effect != 0)
    shift = abs(effect) * math.sqrt(n) / spread
    scale = math.sqrt(max(1.0 - n / size, 1e-12))
    critical = critical_t(n)
    return normal_cdf((shift - critical) / scale) + normal_cdf((-shift - critical) / scale)


def plan_row(campaign: Campaign, count: int, rng: np.random.Generator) -> PlanRow:
    """From each 10 % pilot, :func:`sentences_needed` for every neighbouring pair; where
    it plans a number, a fresh subset of that size is drawn and tested."""
    n = round(PILOT * campaign.size)
    pilots = stratified_subsets(campaign.codes, n, count, rng, campaign.size)
    verdicts, planned, hits = [], [], []
    for a, b in neighbours(campaign):
        for idx in pilots:
            plan = sentences_needed(campaign.human[a, idx], campaign.human[b, idx], campaign.size)
            verdicts.append(plan.verdict)
            if plan.verdict == NEEDED and plan.needed is not None:
                planned.append(plan.needed)
                fresh = stratified_subsets(campaign.codes, plan.needed, 1, rng, campaign.size)[0]
                hits.append(bool(separated(campaign.human[a, fresh] - campaign.human[b, fresh])))
    share = {v: verdicts.count(v) / len(verdicts) for v in (SEPARATED, NOT_SEPARABLE, NEEDED)}
    return PlanRow(
        campaign.name,
        len(neighbours(campaign)),
        count,
        share[SEPARATED],
        share[NOT_SEPARABLE],
        share[NEEDED],
        float(np.median(planned)) if planned else math.nan,
        float(np.mean(hits)) if hits else math.nan,
    )


def data_arguments(description: str) -> argparse.ArgumentParser:
    """The command line of a simulation on these data: where they are, how many subsets,
    which seed (``bench/estimate_guards.py`` takes the same)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("data", type=Path, help="a copy of google/wmt-mqm-human-evaluation")
    p.add_argument("--wmt20-metrics", type=Path, help="a copy of WMT-Metrics-task/wmt20-metrics")
    p.add_argument("--subsets", type=int, default=1000, help="random subsets per fraction")
    p.add_argument("--seed", type=int, default=28)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = data_arguments(__doc__.split("\n\n")[0])
    p.add_argument("--pairs", default="en-de,zh-en")
    p.add_argument("--no-ted", action="store_true", help="skip the TED campaigns")
    p.add_argument("--markdown", type=Path, help="write the tables to this file")
    args = p.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    campaigns = [newstest2020(args.data, lp, args.wmt20_metrics) for lp in args.pairs.split(",")]
    if not args.no_ted:
        campaigns += [ted(args.data, lp) for lp in args.pairs.split(",")]
    out = [
        f"Run {date.today().isoformat()}: `python bench/estimate.py {' '.join(sys.argv[1:])}`, "
        f"{args.subsets} stratified subsets per judged fraction, seed {args.seed}.",
        "",
    ]
    all_rows: list[Row] = []
    plans = []
    for campaign in campaigns:
        if campaign.name.startswith("newstest2020"):
            add_synthetic(campaign, rng)
        documents = (
            "no documents" if campaign.codes is None else f"{campaign.codes.max() + 1} documents"
        )
        shape = f"{len(campaign.systems)} systems × {campaign.size} segments, {documents}"
        out += [
            f"### {campaign.name}: {shape}",
            "",
            *(f"- {note}" for note in campaign.notes),
            "",
        ]
        rows = estimate_rows(campaign, args.subsets, rng, FRACTIONS)
        all_rows += rows
        out += estimate_table(rows) + [""]
        out += ["What the stratified draw adds:", ""]
        out += design_table(rows) + [""]
        if any(r.mae_reweighted is not None for r in rows):
            out += ["Documents in the estimator:", ""]
            out += documents_table(rows) + [""]
        out += ["Power (neighbouring systems, paired t-test at p < 0.05):", ""]
        out += power_table(power_rows(campaign, args.subsets, rng, FRACTIONS)) + [""]
        plans.append(plan_row(campaign, args.subsets, rng))
        print(
            f"{campaign.name}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True
        )
    out += ["### Planning from a 10 % pilot", ""] + plan_table(plans) + [""]
    out += ["### Targets", ""] + verdicts(all_rows) + [""]
    out.append(f"({time.perf_counter() - started:.0f} s)")
    text = "\n".join(out)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
