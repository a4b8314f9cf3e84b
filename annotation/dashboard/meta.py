"""Meta-evaluation: how well each automatic metric follows the human figures — seed 000
§4 (Pearson's r) and seed 002 (Kendall's τ-b), at sentence and at system level."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from annotation.dashboard.judges import normalized_by_system, normalized_sser
from annotation.scoring import AUTOMATIC_METRICS, AutomaticStats, JudgmentRow
from metrics import human
from metrics.correlation import Coefficient, kendall_tau_b, kendall_tau_b_against, pearson
from metrics.registry import metric_info
from metrics.stats import FloatArray, Metric, Score

#: The human figures the meta-evaluation correlates the automatic ones with.
META_HUMAN = ("sser", "awer", "hter", "ier")

#: The human figures that are a rate of counts stored on each judgment: their count
#: fields (errors, length), summed per candidate.
_COUNTS = {
    "awer": ("edits", "ref_length"),
    "hter": ("ter_edits", "ter_length"),
    "ier": ("ier_errors", "ier_length"),
}


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
    mean"), of their (0, 1)-normalized values when ``normalize``. aWER, HTER and IER: the
    rate over its judgments (Σ edits / Σ lengths, Σ bad items / Σ items), as sufficient
    statistics add up; IER over the judgments with information items only.
    """
    if metric == "sser":
        values = (
            normalized_sser(rows)
            if normalize
            else np.array([math.nan if r.sser_error is None else r.sser_error for r in rows])
        )
        kept = np.flatnonzero(~np.isnan(values))
        keys, where = _candidates(rows, kept)
        # Σ in row order (np.add.at is sequential: the same sums as Python's sum)
        sums = np.zeros(len(keys))
        np.add.at(sums, where, values[kept])
        means = sums / np.bincount(where, minlength=len(keys))
        return dict(zip(keys, means.tolist(), strict=True))
    if metric in _COUNTS:
        errors, length = _COUNTS[metric]
        counts = [(getattr(r, errors), getattr(r, length)) for r in rows]
        kept = np.flatnonzero([e is not None and n is not None for e, n in counts])
        keys, where = _candidates(rows, kept)
        edits = np.bincount(where, [counts[i][0] or 0 for i in kept], len(keys))
        lengths = np.bincount(where, [counts[i][1] or 0 for i in kept], len(keys))
        return {
            k: human.rate(e, n)
            for k, e, n in zip(keys, edits.tolist(), lengths.tolist(), strict=True)
        }
    raise ValueError(f"unknown human metric {metric!r}")


def _candidates(
    rows: Sequence[JudgmentRow], kept: npt.NDArray[np.intp]
) -> tuple[list[tuple[str, int]], npt.NDArray[np.intp]]:
    """The candidates (system, segment) of the rows ``kept``, in order of first
    appearance, and each kept row's candidate number."""
    number: dict[tuple[str, int], int] = {}
    where = [
        number.setdefault((r.system, r.segment), len(number))
        for r in map(rows.__getitem__, kept.tolist())
    ]
    return list(number), np.asarray(where, dtype=np.intp)


@dataclass(frozen=True)
class HumanSide:
    """What the meta-evaluation reads of the judgments, for each human figure of
    :data:`META_HUMAN`: its value per judged candidate (:func:`sentence_human`) and per
    judged system. It does not depend on the preprocessing, so it is computed once per
    state of the judgments and reused by every preprocessing choice."""

    sentence: dict[str, dict[tuple[str, int], float]]
    system: dict[str, dict[str, float]]


def human_side(
    rows: Sequence[JudgmentRow],
    human_figures: Mapping[str, Mapping[str, Score]],
    *,
    normalize: bool,
) -> HumanSide:
    return HumanSide(
        sentence={h: sentence_human(rows, h, normalize=normalize) for h in META_HUMAN},
        system={h: _system_human(rows, human_figures, h, normalize=normalize) for h in META_HUMAN},
    )


def meta_evaluation(
    auto: AutomaticStats,
    metrics: Mapping[str, Metric],
    human_values: HumanSide,
    *,
    normalize: bool,
) -> MetaEvaluation:
    """Pearson's r and Kendall's τ-b of each automatic metric against SSER, aWER, HTER
    and IER.

    Sentence level: one point per judged candidate (the automatic sentence score from its
    own statistics row; BLEU uses its sentence form, effective order). System level: one
    point per system with the human figure (``manage.py scores``'s, or the mean
    normalized SSER when ``normalize``). Unweighted, as seed 000 §4.
    """
    out: list[Correlation] = []
    for h in META_HUMAN:
        per_sentence = human_values.sentence[h]
        keys = list(per_sentence)
        y_sent = [per_sentence[k] for k in keys]
        system_human = human_values.system[h]
        judged_systems = [s for s in auto.systems if s in system_human]
        index = {s: i for i, s in enumerate(auto.systems)}
        cells = (
            np.fromiter((index[s] for s, _ in keys), dtype=np.int64, count=len(keys)),
            np.fromiter((k for _, k in keys), dtype=np.int64, count=len(keys)),
        )
        x_sents = [_sentence_scores(auto, metrics[m], m, cells) for m in AUTOMATIC_METRICS]
        taus = kendall_tau_b_against(x_sents, y_sent)  # y ranked once for all metrics
        for m, x_sent, tau in zip(AUTOMATIC_METRICS, x_sents, taus, strict=True):
            out.append(Correlation(m, h, "sentence", pearson(x_sent, y_sent), tau))
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


def _sentence_scores(
    auto: AutomaticStats,
    metric: Metric,
    name: str,
    cells: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
) -> FloatArray:
    """The automatic sentence score of each judged candidate (``cells``: its system's
    index and its segment): its own statistics row scored alone, all rows in one call (a
    row's score depends on that row only, so scoring just the judged ones gives the same
    figures)."""
    if len(cells[0]) == 0:
        return np.zeros(0)
    every = np.stack([auto.segment_stats(name, s) for s in auto.systems])
    scores: FloatArray = np.asarray(
        metric.sentence_score_from_stats(every[cells]), dtype=np.float64
    )
    return scores


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
