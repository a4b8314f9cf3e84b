"""Meta-evaluation: how well each automatic metric follows the human figures — seed 000
§4 (Pearson's r) and seed 002 (Kendall's τ-b), at sentence and at system level.

A system-level correlation rests on one point per system, and each point on that
system's judged sentences: twenty systems judged on two sentences each give an r that
reads as precise and means little. So each system-level r and τ carries a 95% interval
from a bootstrap over sentences — resample the corpus's sentences (the table's index
matrix: 1,000 samples, seed 12345), recompute every system's human and automatic figure
on the sample, recompute the correlation, take the percentiles — and the cell says
"too few judged sentences (n = 2)" (the table's words) in place of its value when a
system in it rests on fewer than :data:`MIN_JUDGED` judged sentences (the one rule of
:mod:`metrics.claims`: the page, ``meta.json`` and the table alike). Sentence-level
correlations rest on thousands of points and keep no interval; fewer than
:data:`MIN_JUDGED` points are too few for them too.

At system level it also gives WMT's pairwise accuracy and soft pairwise accuracy
(:mod:`metrics.meta`), with intervals from the same samples. The automatic figures on
every sample are the scoring job's (its paired bootstrap kept them with the stored
statistics: :func:`stored_samples`), so a view after a judgment resamples only the
judgments; the automatic side of the pairwise figures (:func:`metric_sides`) depends on
the stored statistics alone, and the dashboard keeps it under the texts stamp.

The metrics a lead imported (COMET, MetricX, …: :mod:`annotation.statistics.external`)
are correlated as the automatic ones are, after them: at sentence level their segment
score, at system level their figure (the mean), with intervals and pairwise figures from
their samples of the same bootstrap.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from annotation.dashboard.meta_human import META_HUMAN, HumanSide
from annotation.dashboard.meta_sentence import SentenceLevel, sentence_level
from annotation.formatting import number
from annotation.statistics import (
    AUTOMATIC_METRICS,
    AutomaticStats,
    ExternalFigures,
    ExternalMetricScores,
)
from metrics.centered import Centered, centered, pearson_of_centered
from metrics.claims import MIN_SENTENCES, shortfall
from metrics.correlation import (
    Coefficient,
    kendall_tau_b,
    pearson,
    pearson_per_sample,
)
from metrics.meta import (
    KeptSide,
    PairwiseSide,
    kendall_tau_b_of_sides,
    kendall_tau_b_per_sample,
    pairwise_accuracy,
    pairwise_accuracy_per_sample,
    pairwise_side,
    pairwise_side_reusing,
    soft_pairwise_accuracy,
    soft_pairwise_accuracy_per_sample,
)
from metrics.registry import metric_info
from metrics.significance import Bootstrap, percentile_interval
from metrics.stats import FloatArray, Metric


@dataclass(frozen=True)
class Correlation:
    """One automatic metric against one human figure at one level; signed (seed 000 §4
    compares absolute values: error rates and BLEU/NIST point in opposite directions)."""

    metric: str
    human: str
    level: str
    pearson: Coefficient
    kendall: Coefficient
    #: System level: the 95% bootstrap intervals (None: not computed, sentence level)
    #: and the fewest judged sentences a system of it rests on.
    pearson_interval: tuple[float, float] | None = None
    kendall_interval: tuple[float, float] | None = None
    fewest: int | None = None
    #: System level: WMT's pairwise accuracy and soft pairwise accuracy
    #: (:mod:`metrics.meta`; None at sentence level) and their 95% intervals.
    accuracy: Coefficient | None = None
    soft_accuracy: Coefficient | None = None
    accuracy_interval: tuple[float, float] | None = None
    soft_accuracy_interval: tuple[float, float] | None = None

    @property
    def too_few(self) -> str:
        """ "too few judged sentences (n = 2)" when the correlation rests on too few
        (:func:`metrics.claims.shortfall`): at system level a system on fewer than
        :data:`MIN_JUDGED` judged sentences, at sentence level fewer points (judged
        candidates) than that; else "". Then no value is shown, nor written."""
        rests_on = self.pearson.n if self.level == "sentence" else self.fewest
        return "" if not rests_on else shortfall(rests_on)


#: Judged sentences every system of a system-level correlation must rest on before the
#: page shows it (the one rule of :mod:`metrics.claims`).
MIN_JUDGED = MIN_SENTENCES


@dataclass(frozen=True)
class MetaEvaluation:
    """Every :class:`Correlation`, per automatic metric the signature of the scores it
    correlated (they change with the preprocessing, so every cell shows it on hover),
    and the metrics' labels in the table's order: the app's automatic metrics, then the
    imported ones."""

    rows: tuple[Correlation, ...]
    normalize: bool
    #: What the page says a correlation needs (:data:`MIN_JUDGED`).
    min_judged: ClassVar[int] = MIN_JUDGED
    signatures: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(
        default_factory=lambda: {m: metric_info(m).label for m in AUTOMATIC_METRICS}
    )
    #: The human figures correlated with (the corpus's protocol's: :func:`~annotation.
    #: dashboard.meta_human.meta_figures`).
    human_metrics: tuple[str, ...] = META_HUMAN
    #: The labels of the human scores imported among them (the app's own figures' are
    #: :func:`~metrics.registry.metric_info`'s).
    human_labels: dict[str, str] = field(default_factory=dict)
    #: The human figures with no sentence level (system-level human scores imported
    #: alone): their sentence-level cells say so (:data:`NO_SENTENCE_LEVEL`).
    system_level_only: frozenset[str] = frozenset()

    def human_label(self, human: str) -> str:
        return self.human_labels.get(human) or metric_info(human).label

    @property
    def humans(self) -> tuple[dict[str, str], ...]:
        return tuple({"metric": h, "label": self.human_label(h)} for h in self.human_metrics)

    @property
    def grid(self) -> list[dict[str, Any]]:
        """The table as the page draws it: per automatic metric, per human figure and
        level, r then τ, and at system level pairwise accuracy then soft pairwise
        accuracy (value, n, interval and a hover text)."""
        out = []
        for m, label in self.labels.items():
            signature = self.signatures.get(m, "")
            metric = f"{label} ({signature})" if signature else label
            cells = []
            for h in self.human_metrics:
                against = self.human_label(h)
                for level in ("sentence", "system"):
                    c = self.get(m, h, level)
                    if level == "sentence" and h in self.system_level_only:
                        cells += _no_sentence_level(c, against)
                        continue
                    for coef, name, interval in _coefficients(c):
                        title = (
                            f"{_WORDS[name]} of {metric} and {against} at {level} level, "
                            f"{coef.n} points"
                        )
                        shown = "" if c.too_few else _interval_text(interval)
                        if shown:
                            title += f"; 95% interval {shown} (bootstrap over sentences)"
                        if c.too_few:
                            title += f"; {c.too_few}: no value"
                        cells.append(
                            {
                                "human": h,
                                "level": level,
                                "coef": name,
                                "value": math.nan if c.too_few else coef.value,
                                "n": coef.n,
                                "interval": shown,
                                "ci_low": "" if not shown or interval is None else interval[0],
                                "ci_high": "" if not shown or interval is None else interval[1],
                                "too_few": c.too_few,
                                "none": "",
                                "title": title,
                            }
                        )
            out.append({"metric": m, "label": label, "cells": cells})
        return out

    def get(self, metric: str, human_metric: str, level: str) -> Correlation:
        for r in self.rows:
            if (r.metric, r.human, r.level) == (metric, human_metric, level):
                return r
        raise ValueError(f"no correlation of {metric!r} with {human_metric!r} at {level!r}")


#: What a sentence-level cell says of a human figure with no sentence level (human
#: scores imported as a ``.sys.score`` alone), in place of a value.
NO_SENTENCE_LEVEL = "none: system-level scores only"


def _no_sentence_level(c: Correlation, against: str) -> list[dict[str, Any]]:
    """The sentence-level cells (r, τ) of a correlation with a human figure that has no
    sentence level: no value, the note :data:`NO_SENTENCE_LEVEL`."""
    title = f"{against} has system-level scores only: there is no sentence-level correlation"
    return [
        {
            "human": c.human,
            "level": "sentence",
            "coef": name,
            "value": math.nan,
            "n": 0,
            "interval": "",
            "ci_low": "",
            "ci_high": "",
            "too_few": "",
            "none": NO_SENTENCE_LEVEL,
            "title": title,
        }
        for name in ("pearson", "kendall")
    ]


#: What a cell's hover text calls each coefficient of :data:`COEFFICIENTS`.
_WORDS = {
    "pearson": "Pearson's r",
    "kendall": "Kendall's τ-b",
    "pairwise_accuracy": "Pairwise accuracy (each figure read in its better direction)",
    "soft_pairwise_accuracy": "Soft pairwise accuracy (one-sided bootstrap p-values)",
}

#: The coefficients of a cell's ``coef`` (``data-coef``), in the page's order; the last
#: two at system level only.
COEFFICIENTS = tuple(_WORDS)


def _coefficients(
    c: Correlation,
) -> list[tuple[Coefficient, str, tuple[float, float] | None]]:
    """(value, name, interval) of each coefficient a correlation shows."""
    out = [(c.pearson, "pearson", c.pearson_interval), (c.kendall, "kendall", c.kendall_interval)]
    if c.accuracy is not None:
        out.append((c.accuracy, "pairwise_accuracy", c.accuracy_interval))
    if c.soft_accuracy is not None:
        out.append((c.soft_accuracy, "soft_pairwise_accuracy", c.soft_accuracy_interval))
    return out


def _interval_text(interval: tuple[float, float] | None) -> str:
    """ "[0.12, 0.88]" at the page's three decimals; "" when there is no defined one."""
    if interval is None or not all(math.isfinite(v) for v in interval):
        return ""
    return f"[{number(interval[0], 3)}, {number(interval[1], 3)}]"


def meta_evaluation(
    auto: AutomaticStats,
    metrics: Mapping[str, Metric],
    human_values: HumanSide,
    *,
    normalize: bool,
    bootstrap: Bootstrap | None = None,
    metric_sides: Mapping[str, PairwiseSide] | None = None,
    imported: ExternalFigures | None = None,
    sentence: SentenceLevel | None = None,
) -> MetaEvaluation:
    """Pearson's r and Kendall's τ-b of each automatic metric against SSER, aWER, HTER
    and IER, and at system level WMT's pairwise and soft pairwise accuracy
    (:mod:`metrics.meta`: each figure read in its own better direction, the p-values
    from the bootstrap samples).

    Sentence level: one point per judged candidate (the automatic sentence score from its
    own statistics row; BLEU uses its sentence form, effective order). System level: one
    point per system with the human figure (``manage.py scores``'s, or the mean
    normalized SSER when ``normalize``). Unweighted, as seed 000 §4. With ``bootstrap``
    (the one ``human_values`` was sampled with) every system-level value gets its
    interval (module doc). ``metric_sides``: :func:`metric_sides` of the same
    statistics and bootstrap, if kept from an earlier state of the judgments (they do
    not depend on them). ``imported``: the corpus's imported metrics with their paired
    bootstrap by the same ``bootstrap``, correlated after the automatic ones
    (:func:`_imported_correlations`). ``sentence``: the sentence-level points of the
    same inputs with their τ-b counts (:func:`~annotation.dashboard.meta_sentence.
    sentence_level`, brought up to date from an earlier state's), else counted here.
    """
    out: list[Correlation] = []
    sampled = _automatic_samples(auto, metrics, bootstrap) if human_values.samples else {}
    if metric_sides is None or not sampled:
        metric_sides = {m: _metric_side(auto, m, sampled.get(m)) for m in AUTOMATIC_METRICS}
    if sentence is None:
        sentence = sentence_level(auto, metrics, human_values, imported)
    among: dict[tuple[str, tuple[int, ...]], PairwiseSide] = {}
    stacks = _Stacks()
    index = {s: i for i, s in enumerate(auto.systems)}
    for h in human_values.metrics:
        points, xs = sentence.points[h], sentence.xs(h)
        system_human = human_values.system[h]
        judged_systems = [s for s in auto.systems if s in system_human]
        judged_index = [index[s] for s in judged_systems]
        human_pairs = _human_side(human_values, h, judged_systems)
        for k, m in enumerate(AUTOMATIC_METRICS):
            r = pearson(xs[k], points.y)
            out.append(Correlation(m, h, "sentence", r, points.counts[k].coefficient()))
            x_sys = [auto.scores[m][s].score for s in judged_systems]
            y_sys = [system_human[s] for s in judged_systems]
            key = (m, tuple(judged_index))  # the same systems for most human figures
            if key not in among:
                among[key] = metric_sides[m].among(judged_index)
            pairs = (among[key], human_pairs)
            r, tau = pearson(x_sys, y_sys), _system_tau(x_sys, y_sys, pairs)
            out.append(
                _system_correlation(
                    m, h, r, tau, judged_systems, sampled, human_values, pairs, stacks
                )
            )
    signatures = {
        m: next(iter(auto.scores[m].values())).signature
        for m in AUTOMATIC_METRICS
        if auto.scores[m]
    }
    labels = {m: metric_info(m).label for m in AUTOMATIC_METRICS}
    for row, metric in enumerate(() if imported is None else imported.metrics):
        if metric.name in human_values.imported:  # a human figure: correlated with
            continue
        tested = imported.significance.get(metric.name) if imported is not None else None
        samples = None if tested is None or not human_values.samples else tested.samples
        at = len(AUTOMATIC_METRICS) + row  # its row of the sentence-level points
        out += _imported_correlations(metric, samples, human_values, sentence, at)
        signatures[metric.name] = metric.signature
        labels[metric.name] = metric.name
    humans = (human_values.metrics, {h: i.label for h, i in human_values.imported.items()})
    return MetaEvaluation(
        tuple(out), normalize, signatures, labels, *humans, human_values.system_level_only
    )


def _imported_correlations(
    metric: ExternalMetricScores,
    samples: FloatArray | None,
    human_values: HumanSide,
    sentence: SentenceLevel,
    at: int,
) -> list[Correlation]:
    """An imported metric against every human figure, as :func:`meta_evaluation`
    correlates an automatic one: at sentence level each judged candidate's segment score
    (none where it has none), at system level each judged system's figure, with the
    intervals and pairwise figures of ``samples`` (its paired bootstrap's, systems ×
    samples in ``metric.systems`` order; None: without intervals); its sentence-level
    points are row ``at`` of each figure's ``sentence`` points."""
    out: list[Correlation] = []
    name = metric.name
    higher = metric.higher_is_better
    figures = {s: f.score for s, f in metric.figures.items()}
    sampled = {} if samples is None else {name: dict(zip(metric.systems, samples, strict=True))}
    for h in human_values.metrics:
        points = sentence.points[h]
        r = pearson(sentence.xs(h)[at], points.y)
        out.append(Correlation(name, h, "sentence", r, points.counts[at].coefficient()))
        system_human = human_values.system[h]
        judged = [s for s in metric.systems if s in system_human]
        x_sys = [figures[s] for s in judged]
        y_sys = [system_human[s] for s in judged]
        side = pairwise_side(
            x_sys,
            np.stack([sampled[name][s] for s in judged]) if sampled and judged else None,
            higher_is_better=higher,
        )
        pairs = (side, _human_side(human_values, h, judged))
        r, tau = pearson(x_sys, y_sys), _system_tau(x_sys, y_sys, pairs)
        out.append(_system_correlation(name, h, r, tau, judged, sampled, human_values, pairs))
    return out


def _system_tau(
    x: Sequence[float], y: Sequence[float], sides: tuple[PairwiseSide, PairwiseSide]
) -> Coefficient:
    """Kendall's τ-b of a system-level correlation: from the signs its pairwise sides
    hold (:func:`~metrics.meta.kendall_tau_b_of_sides`, the same float), else counted."""
    found = kendall_tau_b_of_sides(*sides)
    return kendall_tau_b(x, y) if found is None else found


def _automatic_samples(
    auto: AutomaticStats, metrics: Mapping[str, Metric], bootstrap: Bootstrap | None
) -> dict[str, dict[str, FloatArray]]:
    """Per automatic metric and system: its figure on every bootstrap sample — as the
    scoring job's paired bootstrap kept them (:func:`stored_samples`: the same index
    matrix, so the same numbers), scored here only where they were not kept."""
    if bootstrap is None or not auto.systems:
        return {}
    out = {}
    for m in AUTOMATIC_METRICS:
        scores = stored_samples(auto, m, bootstrap)
        if scores is None:
            stacked = np.stack([auto.segment_stats(m, s) for s in auto.systems])
            scores = bootstrap.sample_scores(stacked, metrics[m].score_from_stats)
        out[m] = dict(zip(auto.systems, scores, strict=True))
    return out


def stored_samples(auto: AutomaticStats, metric: str, bootstrap: Bootstrap) -> FloatArray | None:
    """Each system's figure of ``metric`` on every sample of ``bootstrap`` (systems ×
    samples, ``auto.systems`` order) as its stored paired bootstrap kept them, or None
    when it kept none or resampled otherwise (another seed, number of samples or
    corpus)."""
    found = auto.significance.get(metric)
    if (
        found is None
        or found.samples is None
        or found.systems != auto.systems
        or (found.n_samples, found.seed) != (bootstrap.n_samples, bootstrap.seed)
        or auto.n_segments != bootstrap.n_segments
        or found.samples.shape != (len(auto.systems), bootstrap.n_samples)
    ):
        return None
    return found.samples


def metric_sides(
    auto: AutomaticStats, metrics: Mapping[str, Metric], bootstrap: Bootstrap | None
) -> dict[str, PairwiseSide]:
    """Each automatic metric's side of the pairwise figures over every system, with its
    samples: what :func:`meta_evaluation` computes of the automatic statistics alone,
    and the costly part of it (each pair's p-value on every sample), so the dashboard
    keeps it as long as the statistics hold."""
    sampled = _automatic_samples(auto, metrics, bootstrap)
    return {m: _metric_side(auto, m, sampled.get(m)) for m in AUTOMATIC_METRICS}


def _metric_side(
    auto: AutomaticStats, metric: str, samples: Mapping[str, FloatArray] | None
) -> PairwiseSide:
    """The automatic metric's side of the pairwise figures over every system."""
    scores = [auto.scores[metric][s].score for s in auto.systems]
    stacked = None if samples is None else np.stack([samples[s] for s in auto.systems])
    higher = metric_info(metric).higher_is_better
    return pairwise_side(scores, stacked, higher_is_better=higher)


#: Each process's latest side of each human figure over its judged systems (by the
#: figure's name and the systems: about 1 MB each at 20 systems and 1,000 samples;
#: :data:`_SIDES_KEPT` at most, two corpora's four figures), which
#: the next view brings up to date rather than computing again: one more judgment
#: changes the figure and samples of one system (:func:`~metrics.meta.
#: pairwise_side_reusing` compares them all, so a side of another corpus or state is
#: only less reused, never wrong).
_KEPT_SIDES: dict[tuple[str, tuple[str, ...]], KeptSide] = {}
_SIDES_KEPT = 8
_SIDES_LOCK = threading.Lock()  # a server's threads share them


def _human_side(human_values: HumanSide, metric: str, systems: Sequence[str]) -> PairwiseSide:
    """A human figure's side of the pairwise figures over its judged ``systems``."""
    scores = [human_values.system[metric][s] for s in systems]
    samples = human_values.samples.get(metric)
    higher = human_values.info(metric).higher_is_better
    if samples is None or not systems:
        return pairwise_side(scores, None, higher_is_better=higher)
    stacked = np.stack([samples[s] for s in systems])
    key = (metric, tuple(systems))
    with _SIDES_LOCK:
        before = _KEPT_SIDES.get(key)
    kept = pairwise_side_reusing(scores, stacked, before, higher_is_better=higher)
    with _SIDES_LOCK:
        if key not in _KEPT_SIDES and len(_KEPT_SIDES) >= _SIDES_KEPT:
            del _KEPT_SIDES[next(iter(_KEPT_SIDES))]  # the oldest
        _KEPT_SIDES[key] = kept
    return kept.side


class _Stacks:
    """Each system-level correlation's samples stacked (systems × samples), by whose
    they are and over which systems: a metric's serve every human figure judged on the
    same systems, a human figure's every metric."""

    def __init__(self) -> None:
        self._stacked: dict[tuple[str, str, tuple[str, ...]], FloatArray] = {}
        self._centered: dict[tuple[str, str, tuple[str, ...]], Centered | None] = {}

    def of(
        self, side: str, name: str, samples: Mapping[str, FloatArray], systems: Sequence[str]
    ) -> FloatArray:
        key = (side, name, tuple(systems))
        found = self._stacked.get(key)
        if found is None:
            found = self._stacked[key] = np.stack([samples[s] for s in systems])
        return found

    def centered(
        self, side: str, name: str, samples: Mapping[str, FloatArray], systems: Sequence[str]
    ) -> Centered | None:
        """:func:`~metrics.centered.centered` of the stacked samples, computed once."""
        key = (side, name, tuple(systems))
        if key not in self._centered:
            self._centered[key] = centered(self.of(side, name, samples, systems))
        return self._centered[key]


def _system_correlation(
    metric: str,
    human_metric: str,
    r: Coefficient,
    tau: Coefficient,
    systems: Sequence[str],
    sampled: Mapping[str, Mapping[str, FloatArray]],
    human_values: HumanSide,
    pairs: tuple[PairwiseSide, PairwiseSide],
    stacks: _Stacks | None = None,
) -> Correlation:
    """The system-level correlation with its intervals (module doc), when sampled."""
    accuracy = pairwise_accuracy(*pairs)
    soft = soft_pairwise_accuracy(*pairs)
    human_samples = human_values.samples.get(human_metric)
    if not systems or metric not in sampled or human_samples is None:
        return Correlation(
            metric, human_metric, "system", r, tau, accuracy=accuracy, soft_accuracy=soft
        )
    stacks = _Stacks() if stacks is None else stacks
    cx = stacks.centered("metric", metric, sampled[metric], systems)
    cy = stacks.centered("human", human_metric, human_samples, systems)
    if cx is None or cy is None:  # a NaN: the points each column keeps depend on both
        x = stacks.of("metric", metric, sampled[metric], systems)
        y = stacks.of("human", human_metric, human_samples, systems)
        rs = pearson_per_sample(x, y)
    else:
        rs = pearson_of_centered(cx, cy)  # the same floats, each side's part once
    per_sample = np.stack(
        [
            rs,
            kendall_tau_b_per_sample(*pairs),  # from the sides' signs
            pairwise_accuracy_per_sample(*pairs),
            soft_pairwise_accuracy_per_sample(*pairs),
        ]
    )
    # one sort for the four; r and τ-b lie in [−1, 1], the accuracies in [0, 1] (a
    # second clip of a clipped value is the one clip: the same floats)
    low, high, _ = percentile_interval(per_sample, (-1.0, 1.0))
    low[2:], high[2:] = np.clip(low[2:], 0.0, 1.0), np.clip(high[2:], 0.0, 1.0)
    intervals = [(float(a), float(b)) for a, b in zip(low, high, strict=True)]
    fewest = min(human_values.judged[human_metric][s] for s in systems)
    return Correlation(
        metric,
        human_metric,
        "system",
        r,
        tau,
        intervals[0],
        intervals[1],
        fewest,
        accuracy,
        soft,
        intervals[2],
        intervals[3],
    )
