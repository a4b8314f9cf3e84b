"""Meta-evaluation: how well each automatic metric follows the human figures — seed 000
§4 (Pearson's r) and seed 002 (Kendall's τ-b), at sentence and at system level."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from annotation.dashboard.cache import AutomaticStats
from annotation.dashboard.judges import normalized_by_system, normalized_sser
from annotation.scoring import AUTOMATIC_METRICS, JudgmentRow
from metrics import human
from metrics.correlation import Coefficient, kendall_tau_b, pearson
from metrics.registry import metric_info
from metrics.stats import Metric, Score

#: The human figures the meta-evaluation correlates the automatic ones with.
META_HUMAN = ("sser", "awer")


@dataclass(frozen=True)
class Correlation:
    """One automatic metric against one human figure at one level; signed (seed 000 §4
    compares absolute values: error rates and BLEU/NIST point in opposite directions)."""

    metric: str
    human: str
    level: str
    pearson: Coefficient
    kendall: Coefficient


@dataclass(frozen=True)
class MetaEvaluation:
    """Every :class:`Correlation`, and per automatic metric the signature of the scores
    it correlated (they change with the preprocessing, so every cell shows it on hover)."""

    rows: tuple[Correlation, ...]
    normalize: bool
    signatures: dict[str, str] = field(default_factory=dict)

    @property
    def humans(self) -> tuple[dict[str, str], ...]:
        return tuple({"metric": h, "label": metric_info(h).label} for h in META_HUMAN)

    @property
    def grid(self) -> list[dict[str, Any]]:
        """The table as the page draws it: per automatic metric, per human figure and
        level, r then τ (value, n and a hover text)."""
        out = []
        for m in AUTOMATIC_METRICS:
            label = metric_info(m).label
            signature = self.signatures.get(m, "")
            metric = f"{label} ({signature})" if signature else label
            cells = []
            for h in META_HUMAN:
                against = metric_info(h).label
                for level in ("sentence", "system"):
                    c = self.get(m, h, level)
                    for coef, name in ((c.pearson, "pearson"), (c.kendall, "kendall")):
                        word = "Pearson's r" if name == "pearson" else "Kendall's τ-b"
                        cells.append(
                            {
                                "human": h,
                                "level": level,
                                "coef": name,
                                "value": coef.value,
                                "n": coef.n,
                                "title": f"{word} of {metric} and {against} at {level} level, "
                                f"{coef.n} points",
                            }
                        )
            out.append({"metric": m, "label": label, "cells": cells})
        return out

    def get(self, metric: str, human_metric: str, level: str) -> Correlation:
        for r in self.rows:
            if (r.metric, r.human, r.level) == (metric, human_metric, level):
                return r
        raise ValueError(f"no correlation of {metric!r} with {human_metric!r} at {level!r}")


def sentence_human(
    rows: Sequence[JudgmentRow], metric: str, *, normalize: bool = False
) -> dict[tuple[str, int], float]:
    """Human score per judged candidate (system, segment).

    SSER: the mean of its judges' percent errors (seed 000 §3.5: "we have only applied the
    mean"), of their (0, 1)-normalized values when ``normalize``. aWER: the rate over its
    judgments (Σ edits / Σ lengths), as sufficient statistics add up.
    """
    if metric == "sser":
        values = (
            normalized_sser(rows)
            if normalize
            else np.array([math.nan if r.sser_error is None else r.sser_error for r in rows])
        )
        acc: dict[tuple[str, int], list[float]] = defaultdict(list)
        for r, v in zip(rows, values, strict=True):
            if not math.isnan(v):
                acc[(r.system, r.segment)].append(float(v))
        return {k: sum(v) / len(v) for k, v in acc.items()}
    if metric == "awer":
        sums: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
        for r in rows:
            if r.counted:
                s = sums[(r.system, r.segment)]
                s[0] += r.edits or 0
                s[1] += r.ref_length or 0
        return {k: human.rate(e, n) for k, (e, n) in sums.items()}
    raise ValueError(f"unknown human metric {metric!r}")


def meta_evaluation(
    auto: AutomaticStats,
    metrics: Mapping[str, Metric],
    rows: Sequence[JudgmentRow],
    human_figures: Mapping[str, Mapping[str, Score]],
    *,
    normalize: bool,
) -> MetaEvaluation:
    """Pearson's r and Kendall's τ-b of each automatic metric against SSER and aWER.

    Sentence level: one point per judged candidate (the automatic sentence score from its
    own statistics row; BLEU uses its sentence form, effective order). System level: one
    point per system with the human figure (``manage.py scores``'s, or the mean
    normalized SSER when ``normalize``). Unweighted, as seed 000 §4.
    """
    # sentence scores of every system, (systems × segments) per metric
    sentence_scores = {
        m: np.stack(
            [
                np.asarray(metrics[m].sentence_score_from_stats(st), dtype=np.float64)
                for st in auto.stats(m).values()
            ]
        )
        for m in AUTOMATIC_METRICS
    }
    index = {s: i for i, s in enumerate(auto.systems)}
    out: list[Correlation] = []
    for h in META_HUMAN:
        per_sentence = sentence_human(rows, h, normalize=normalize)
        keys = list(per_sentence)
        y_sent = [per_sentence[k] for k in keys]
        which = (
            np.array([index[s] for s, _ in keys], dtype=np.int64),
            np.array([seg for _, seg in keys], dtype=np.int64),
        )
        system_human = _system_human(rows, human_figures, h, normalize=normalize)
        judged_systems = [s for s in auto.systems if s in system_human]
        for m in AUTOMATIC_METRICS:
            x_sent = sentence_scores[m][which] if keys else np.zeros(0)
            out.append(
                Correlation(
                    m, h, "sentence", pearson(x_sent, y_sent), kendall_tau_b(x_sent, y_sent)
                )
            )
            x_sys = [auto.scores[m][s].score for s in judged_systems]
            y_sys = [system_human[s] for s in judged_systems]
            out.append(
                Correlation(m, h, "system", pearson(x_sys, y_sys), kendall_tau_b(x_sys, y_sys))
            )
    signatures = {
        m: next(iter(auto.scores[m].values())).signature
        for m in AUTOMATIC_METRICS
        if auto.scores[m]
    }
    return MetaEvaluation(tuple(out), normalize, signatures)


def _system_human(
    rows: Sequence[JudgmentRow],
    human_figures: Mapping[str, Mapping[str, Score]],
    metric: str,
    *,
    normalize: bool,
) -> dict[str, float]:
    """Each judged system's human figure: ``manage.py scores``'s, or for SSER with
    ``normalize`` the mean (0, 1)-normalized value of its judgments."""
    if metric == "sser" and normalize:
        return {s: float(np.mean(v)) for s, v in normalized_by_system(rows).items() if v}
    return {s: f[metric].score for s, f in human_figures.items() if metric in f}
