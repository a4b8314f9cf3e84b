"""Where the next hour of judging decides something (issue 28, point 4): per human metric,
per pair of neighbouring systems in the order of the metric's current figure, the judged
sentences still needed to separate them.

The test is the paired t-test on the sentences both systems have judged, at p < 0.05,
and the plan asks for 80 % power at the effect and the spread seen so far
(:func:`metrics.power.sentences_needed`, its closed form in ``docs/metrics.md``). Each
pair gets one verdict:

* **already separated** — the test separates them now;
* **N judged sentences in all** (``data-needed``), so many more than now — at the
  observed effect; a *lower bound* rather than a promise: the effect is estimated from
  the same sentences, and a pair that looks apart in a small pilot is often closer (on
  WMT's MQM data, the number planned from a 10 % pilot separated the pair 20–40 % of the
  time, not 80 %: ``docs/estimate.md``);
* **not separable** — even every sentence of the corpus would give less than 80 %
  power at this effect (or the two are level);
* **too few** — fewer than :data:`~metrics.significance.MIN_COMMON` sentences judged by
  both: no verdict is claimed on so few (the table's rule for rank groups).

A pair's sentence scores are :func:`~annotation.statistics.sentence_scores`' (a
sentence judged twice counts once), the order is the table's figure's. Computed from
the judgments in one query and remembered under the judgments stamp
(:func:`campaign_figures`), as the dashboard's panels are.

**Where each item has its own judge** (a campaign that splits the work), a pair's
sentence differences also hold the difference between the judges of its two candidates
where they differ, and a strict judge's sentences look harder than they are. The plan
then has one more row, SSER's per-judge z (:data:`metrics.annotators.SSER_Z`): the same
paired t-test on each sentence's z-scores, every judge's scores standardised by that
judge's mean and spread, which take both out (the simulation of
``metrics/tests/test_annotators.py`` checks that the formula's power is then the test's).
The raw rows stay, as in every campaign.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from annotation.models import Corpus
from annotation.statistics import (
    HUMAN_METRICS,
    OFFSET_BOUNDS,
    JudgmentRow,
    human_figures,
    human_rows_by_system,
    judgment_rows,
    paired_bootstrap,
    remembered,
    sentence_scores_by_system,
    sser_ratings,
)
from metrics.annotator_effects import AnnotatorEffect, annotator_effects
from metrics.judge_aware import SSER_Z
from metrics.power import (
    ALPHA,
    NEEDED,
    NOT_SEPARABLE,
    POWER,
    SEPARATED,
    Separation,
    sentences_needed,
)
from metrics.ranking import MIN_COMMON, order_systems
from metrics.ratings import item_means, system_means, z_scores
from metrics.registry import metric_info
from metrics.stats import MetricInfo

#: A pair's verdict as the page's ``data-verdict`` names it.
VERDICTS = {SEPARATED: "separated", NEEDED: "needed", NOT_SEPARABLE: "not-separable"}
TOO_FEW = "too-few"


@dataclass(frozen=True)
class PairPlan:
    """Two neighbouring systems of one human metric, ``first`` the better by its current
    figure: the sentences both have judged (``common``) and what it takes to separate
    them (None: fewer than :data:`MIN_COMMON` in common)."""

    metric: str
    first: str
    second: str
    common: int
    separation: Separation | None
    #: The metric's facts, where it is none of the registry's (SSER's per-judge z).
    info: MetricInfo | None = None

    @property
    def label(self) -> str:
        return (self.info or metric_info(self.metric)).label

    @property
    def verdict(self) -> str:
        """``data-verdict``: "separated", "needed", "not-separable" or "too-few"."""
        return TOO_FEW if self.separation is None else VERDICTS[self.separation.verdict]

    @property
    def needed(self) -> int | None:
        """The judged sentences in all that would separate the pair (a "needed" verdict)."""
        found = self.separation
        return found.needed if found is not None and found.verdict == NEEDED else None

    @property
    def more(self) -> int | None:
        found = self.separation
        return found.more if found is not None and found.verdict == NEEDED else None

    @property
    def effect(self) -> float | None:
        """The mean per-sentence difference, first minus second (None: too few)."""
        return None if self.separation is None else self.separation.effect

    @property
    def gap(self) -> float | None:
        """How far apart the two are per sentence, whichever way the metric points."""
        return None if self.effect is None else abs(self.effect)

    @property
    def p_value(self) -> float | None:
        return None if self.separation is None else self.separation.p_value


@dataclass(frozen=True)
class MetricPlan:
    """One human metric's pairs of neighbours, best first by its current figure."""

    metric: str
    info: MetricInfo
    pairs: tuple[PairPlan, ...]


@dataclass(frozen=True)
class PowerPlan:
    """Every human metric's plan for a corpus of ``corpus_size`` sentences, at ``alpha``
    and ``power``."""

    metrics: tuple[MetricPlan, ...]
    corpus_size: int
    alpha: float = ALPHA
    power: float = POWER
    min_common: int = MIN_COMMON

    @property
    def any(self) -> bool:
        return any(m.pairs for m in self.metrics)

    @property
    def power_percent(self) -> int:
        return round(100 * self.power)

    def closest(self, pace: float | None, count: int = 3) -> tuple[NextStep, ...]:
        """The pairs fewest more judged sentences away from a verdict, with what judging
        them costs at ``pace`` (active seconds per candidate; None: not measured yet):
        where the next hour decides the most (ties: the table's metric order)."""
        waiting = [p for m in self.metrics for p in m.pairs if p.more is not None]
        return tuple(NextStep(p, pace) for p in sorted(waiting, key=lambda p: p.more or 0)[:count])


@dataclass(frozen=True)
class NextStep:
    """A pair waiting for more judged sentences, and what they cost: both systems'
    candidates of each more sentence (``candidates``), at ``pace`` active seconds each."""

    pair: PairPlan
    pace: float | None

    @property
    def candidates(self) -> int:
        return 2 * (self.pair.more or 0)

    @property
    def seconds(self) -> float | None:
        return self.candidates * self.pace if self.pace else None


def power_plan(
    rows: Sequence[JudgmentRow],
    systems: Sequence[str],
    corpus_size: int,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
    split: bool = False,
) -> PowerPlan:
    """The plan of every human metric (:data:`HUMAN_METRICS`) from the done judgments
    ``rows``, the systems in corpus order (ties of the figures keep it); ``split``: the
    campaign deals each item to its own judges, and SSER's per-judge z gets a plan too
    (module doc)."""
    by_system = human_rows_by_system(rows)
    figures = human_figures(rows, by_system)
    plans = []
    for m in HUMAN_METRICS:
        scored = [s for s in systems if m in figures.get(s, {})]
        scores = sentence_scores_by_system(by_system, m, corpus_size)
        plans.append(
            _metric_plan(
                metric_info(m),
                {s: figures[s][m].score for s in scored},
                scores,
                corpus_size,
                alpha=alpha,
                power=power,
            )
        )
    if split:
        errors = sser_ratings(rows, systems, corpus_size)
        z = z_scores(errors)
        means, n = system_means(errors, z)
        per_sentence = item_means(errors, z)
        judged = [k for k in range(len(errors.systems)) if n[k]]
        plans.append(
            _metric_plan(
                SSER_Z,
                {errors.systems[k]: float(means[k]) for k in judged},
                {errors.systems[k]: per_sentence[k] for k in judged},
                corpus_size,
                alpha=alpha,
                power=power,
            )
        )
    return PowerPlan(tuple(plans), corpus_size, alpha, power)


def _metric_plan(
    info: MetricInfo,
    figures: dict[str, float],
    scores: Mapping[str, np.ndarray],
    corpus_size: int,
    *,
    alpha: float,
    power: float,
) -> MetricPlan:
    """One metric's plan: its systems (``figures``, in corpus order) ranked by their
    figure, each neighbouring pair paired on its sentence ``scores``."""
    scored = list(figures)
    order = order_systems([figures[s] for s in scored], higher_is_better=info.higher_is_better)
    ranked = [scored[i] for i in order]
    extra = None if info.name in HUMAN_METRICS else info
    pairs = tuple(
        pair_plan(
            info.name, a, b, scores[a], scores[b], corpus_size, alpha=alpha, power=power, info=extra
        )
        for a, b in zip(ranked, ranked[1:], strict=False)
    )
    return MetricPlan(info.name, info, pairs)


def pair_plan(
    metric: str,
    first: str,
    second: str,
    first_scores: np.ndarray,
    second_scores: np.ndarray,
    corpus_size: int,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
    info: MetricInfo | None = None,
) -> PairPlan:
    """What separating ``first`` from ``second`` takes, paired on the sentences both have
    judged (their sentence scores: NaN where not judged); ``info``: the metric's facts
    where it is none of the registry's."""
    common = np.flatnonzero(~np.isnan(first_scores) & ~np.isnan(second_scores))
    separation = None
    if len(common) >= MIN_COMMON:
        separation = sentences_needed(
            first_scores[common], second_scores[common], corpus_size, alpha=alpha, power=power
        )
    return PairPlan(metric, first, second, len(common), separation, info)


@dataclass(frozen=True)
class CampaignFigures:
    """What the campaign page shows of the judgments: the plan of where to judge next,
    and each judge's effect on SSER (:func:`metrics.annotators.annotator_effects`)."""

    power: PowerPlan
    effects: tuple[AnnotatorEffect, ...]


def campaign_figures(corpus: Corpus, systems: Sequence[str]) -> CampaignFigures:
    """The figures of ``corpus`` (its ``systems`` in corpus order), each remembered under
    its judgments stamp: one query of the judgments when they changed, none otherwise.
    The plan has SSER's per-judge z where the corpus's campaign splits the work (the
    campaign is read with the corpus)."""
    read: list[list[JudgmentRow]] = []

    def rows() -> list[JudgmentRow]:
        if not read:
            read.append(judgment_rows(corpus))
        return read[0]

    split = corpus.campaign.splits_work
    n = corpus.n_sentences
    return CampaignFigures(
        remembered(
            corpus,
            ("power", tuple(systems), split),
            lambda: power_plan(rows(), systems, n, split=split),
        ),
        remembered(corpus, ("judge-effects",), lambda: judge_effects(rows(), systems, n)),
    )


def judge_effects(
    rows: Sequence[JudgmentRow], systems: Sequence[str], corpus_size: int
) -> tuple[AnnotatorEffect, ...]:
    """Each judge's effect on SSER (points of the 0–10 score) from the done judgments
    ``rows``, with intervals from the corpus's resampled sentences; none before a score."""
    scores = sser_ratings(rows, systems, corpus_size, scores=True)
    if not len(scores):
        return ()
    return annotator_effects(scores, paired_bootstrap(corpus_size), bounds=OFFSET_BOUNDS)
