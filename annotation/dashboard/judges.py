"""The judges panel: each judge's figures, the (0, 1) evaluator normalization of SSER
(seed 000 §3.5), and the agreement between judges on candidates judged more than once."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from annotation.dashboard.effort import sentences_per_hour
from annotation.scoring import JudgmentRow, human_metric_rows
from annotation.text import words
from metrics import human
from metrics.correlation import Coefficient, krippendorff_alpha_interval, pearson, z_normalize
from metrics.stats import FloatArray


@dataclass(frozen=True)
class JudgeFigures:
    """One judge's done work: ``mean_score`` on the 0–10 scale (and its population
    ``std``, what the (0, 1) normalization divides by), SSER and aWER in percent
    (``metrics.human``), active time from ``Judgment.active_seconds``."""

    name: str
    judgments: int
    scored: int
    mean_score: float | None
    std: float | None
    sser: float | None
    awer: float | None
    active_seconds: float
    sser_signature: str = ""
    awer_signature: str = ""

    @property
    def minutes(self) -> float:
        return self.active_seconds / 60

    @property
    def per_hour(self) -> float | None:
        return sentences_per_hour(self.judgments, self.active_seconds)


@dataclass(frozen=True)
class NormalizedSystem:
    """A system's mean (0, 1)-normalized SSER (seed 000 §3.5): relative, lower is better."""

    system: str
    value: float | None
    n: int


@dataclass(frozen=True)
class JudgesPanel:
    judges: tuple[JudgeFigures, ...]
    normalize: bool
    normalized: tuple[NormalizedSystem, ...]


def normalized_sser(rows: Sequence[JudgmentRow]) -> FloatArray:
    """Each scored judgment's SSER (percent error) (0, 1)-normalized per evaluator (seed
    000 §3.5, :func:`metrics.correlation.z_normalize`); NaN where it has no score."""
    values = [math.nan if r.sser_error is None else r.sser_error for r in rows]
    return z_normalize(values, [r.evaluator for r in rows]).values


def normalized_by_system(rows: Sequence[JudgmentRow]) -> dict[str, list[float]]:
    """The (0, 1)-normalized SSER values of each system's scored judgments."""
    out: dict[str, list[float]] = defaultdict(list)
    for r, z in zip(rows, normalized_sser(rows), strict=True):
        if not math.isnan(z):
            out[r.system].append(float(z))
    return out


def judges_panel(
    rows: Sequence[JudgmentRow], systems: Sequence[str], *, normalize: bool
) -> JudgesPanel:
    """Every judge's figures (by name) and, when ``normalize``, each system's mean
    normalized SSER."""
    by_judge: dict[str, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        by_judge[r.evaluator].append(r)
    judges = tuple(judge_figures(name, by_judge[name]) for name in sorted(by_judge))
    normalized: list[NormalizedSystem] = []
    if normalize and rows:
        per_system = normalized_by_system(rows)
        for s in systems:
            vals = per_system.get(s, [])
            normalized.append(
                NormalizedSystem(s, float(np.mean(vals)) if vals else None, len(vals))
            )
    return JudgesPanel(judges, normalize, tuple(normalized))


def judge_figures(name: str, rows: Sequence[JudgmentRow]) -> JudgeFigures:
    """One judge's figures from the judge's own done judgments."""
    scores = [r.sser for r in rows if r.sser is not None]
    sser, sser_signature = _human_figure(rows, "sser")
    awer, awer_signature = _human_figure(rows, "awer")
    return JudgeFigures(
        name=name,
        judgments=len(rows),
        scored=len(scores),
        mean_score=float(np.mean(scores)) if scores else None,
        std=float(np.std(scores)) if scores else None,
        sser=sser,
        awer=awer,
        active_seconds=float(sum(r.active_seconds for r in rows)),
        sser_signature=sser_signature,
        awer_signature=awer_signature,
    )


def _human_figure(rows: Sequence[JudgmentRow], metric: str) -> tuple[float | None, str]:
    """``manage.py scores``'s figure of one human metric over ``rows`` (None where no
    judgment enters it) and its signature."""
    segments, stats = human_metric_rows(rows, metric)
    figure = human.HUMAN_METRICS[metric]
    if not segments:
        return None, figure.signature(0)
    score = figure.corpus_score(stats)
    return score.score, score.signature


@dataclass(frozen=True)
class Agreement:
    """Agreement on the candidates judged by two or more judges.

    SSER: Pearson's r over every pair of judges of a candidate, each pair entered in both
    orders (so r does not depend on which judge is "first"); Krippendorff's α for
    interval data over the judges × candidates matrix. aWER: Pearson's r of the pairs'
    sentence aWERs, and the share of pairs whose new references are identical. ``pairs``
    counts unordered pairs; each coefficient's ``n`` is what it rests on (pairs for r,
    pairable values for α).
    """

    candidates: int
    pairs: int
    normalize: bool
    sser_pearson: Coefficient
    sser_alpha: Coefficient
    awer_pearson: Coefficient
    identical_new_refs: float | None
    awer_pairs: int


def _sentence_awer(r: JudgmentRow) -> float:
    if r.edits is None or r.ref_length is None:
        return math.nan
    return human.rate(r.edits, r.ref_length)


def agreement(rows: Sequence[JudgmentRow], *, normalize: bool) -> Agreement:
    by_target: dict[int, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_target[r.target_id].append(i)
    multi = {t: idx for t, idx in by_target.items() if len(idx) >= 2}
    sser = (
        normalized_sser(rows)
        if normalize
        else np.array([math.nan if r.sser is None else float(r.sser) for r in rows])
    )
    awer = np.array([_sentence_awer(r) for r in rows])
    sx: list[float] = []
    sy: list[float] = []
    ax: list[float] = []
    ay: list[float] = []
    same = 0
    ref_pairs = 0
    pairs = 0
    for idx in multi.values():
        for a_pos, a in enumerate(idx):
            for b in idx[a_pos + 1 :]:
                pairs += 1
                sx += [sser[a], sser[b]]
                sy += [sser[b], sser[a]]
                ax += [awer[a], awer[b]]
                ay += [awer[b], awer[a]]
                if rows[a].counted and rows[b].counted:
                    ref_pairs += 1
                    same += words(rows[a].new_ref) == words(rows[b].new_ref)
    judges = sorted({rows[i].evaluator for idx in multi.values() for i in idx})
    matrix = np.full((len(judges), len(multi)), math.nan)
    where = {name: k for k, name in enumerate(judges)}
    for u, idx in enumerate(multi.values()):
        for i in idx:
            matrix[where[rows[i].evaluator], u] = sser[i]

    def halved(c: Coefficient) -> Coefficient:
        # each unordered pair was entered twice
        return Coefficient(c.name, c.value, c.n // 2)

    return Agreement(
        candidates=len(multi),
        pairs=pairs,
        normalize=normalize,
        sser_pearson=halved(pearson(sx, sy)),
        sser_alpha=krippendorff_alpha_interval(matrix),
        awer_pearson=halved(pearson(ax, ay)),
        identical_new_refs=same / ref_pairs if ref_pairs else None,
        awer_pairs=ref_pairs,
    )
