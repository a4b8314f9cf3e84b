"""What the tests let a lead say: one line per metric, in words, and WMT's clusters of
SSER (or of a span protocol's figures: :func:`protocol_clusters`) as a second view.

The rank groups (:mod:`metrics.significance`) become one sentence per metric
(:func:`verdict_line`), worded so that it never claims more than the test found:

* groups earned: "best: X (group 1 with Y); separated from Z at p < 0.05 (p = 0.003)
  on n = 120 judged sentences" — Z is the best system of group 2, the one the paired
  bootstrap found X to differ from, on the sentences the two have in common;
  "alone in group 1" when X is;
* nothing separated: "best: X (group 1 with every other system); no system is separated
  from it at p < 0.05 (n = 120 judged sentences)";
* too few sentences for any pair (:attr:`~metrics.significance.MetricSignificance.
  too_few`): "too few judged sentences (n = 2; 10 in common are needed) to separate any
  system: all share group 1; best figure so far: X";
* every system with the same figure: "no best: every system has the same figure
  (100.00)";
* no figure: "no figure yet".

The SSER clusters follow the WMT findings and Appraise (:mod:`metrics.ranksum`): each
judge's SSER errors standardised by that judge's mean and standard deviation (the
(0, 1) normalization of :func:`annotation.dashboard.judges.normalized_sser`), averaged
per sentence, and a one-sided Wilcoxon rank-sum (Mann-Whitney U) test per pair.

SSER raw and per judge (:class:`JudgeAwareView`): the same z-scores with intervals and
rank groups from the table's bootstrap, each judge's normalisation re-estimated on every
resample (:mod:`annotation.statistics.annotators`), beside the raw figure computed alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import numpy as np
from django.utils.safestring import SafeString, mark_safe

from annotation.dashboard.judges import KeptZ, normalized_sser
from annotation.dashboard.table import too_few_note
from annotation.formatting import full_precision, number
from annotation.statistics import (
    SSER_RAW,
    HumanRows,
    JudgeAware,
    JudgmentRow,
    sentence_scores_by_system,
)
from metrics.annotators import SSER_Z
from metrics.claims import too_few
from metrics.ranksum import ClusterFigure, Clusters, wmt_clusters
from metrics.registry import metric_info
from metrics.reuse import PairMemo
from metrics.significance import (
    DEFAULT_ALPHA,
    MIN_COMMON,
    UNRANKED,
    MetricSignificance,
    SystemFigure,
)
from metrics.stats import FloatArray, MetricInfo

#: Group 1's other members named in a line before "and N more".
NAMED = 3

#: A piece of a line: text, and whether it is a system's name (isolated for bidi).
Piece = tuple[str, bool]


@dataclass(frozen=True)
class Line:
    """One sentence for a lead, as plain text (JSON, titles) and as HTML whose system
    names are ``<bdi>``-isolated (names come from uploaded corpora: any script, any
    direction)."""

    metric: str
    label: str
    pieces: tuple[Piece, ...]
    too_few: bool

    @property
    def text(self) -> str:
        return "".join(text for text, _ in self.pieces)

    @property
    def html(self) -> SafeString:
        return mark_safe(  # noqa: S308 (every piece escaped)
            "".join(f"<bdi>{escape(t)}</bdi>" if name else escape(t) for t, name in self.pieces)
        )


def _names(names: Sequence[str]) -> list[Piece]:
    """ "Y", "Y, W", "Y, W, V and 4 more" (names isolated, the commas not)."""
    out: list[Piece] = []
    for k, name in enumerate(names[:NAMED]):
        if k:
            out.append((", ", False))
        out.append((name, True))
    if len(names) > NAMED:
        out.append((f" and {len(names) - NAMED} more", False))
    return out


def verdict_line(significance: MetricSignificance, info: MetricInfo | None = None) -> Line:
    """The metric's one line (module doc); ``info``: its facts (default: the app's metric
    of its name)."""
    metric = significance.metric
    info = metric_info(metric) if info is None else info
    verdict = significance.verdict()
    what = "judged sentences" if info.human else "sentences"
    alpha = f"{significance.alpha:g}"
    scored = sum(1 for f in significance.figures if f.n > 0)
    values = {f.score for f in significance.figures if f.n > 0}
    pieces: list[Piece]
    if verdict.best is None:
        pieces = [("no figure yet", False)]
    elif verdict.too_few:
        pieces = [
            (
                f"too few {what} (n = {verdict.n}; {significance.min_common} in common are "
                "needed) to separate any system: all share group 1; best figure so far: ",
                False,
            ),
            (verdict.best, True),
        ]
    elif scored > 1 and len(values) == 1:
        (value,) = values
        pieces = [(f"no best: every system has the same figure ({number(value)})", False)]
    else:
        pieces = [("best: ", False), (verdict.best, True)]
        if scored == 1:
            pieces.append((" (the only system with a figure)", False))
        elif not verdict.others:
            pieces.append((" (alone in group 1)", False))
        elif verdict.separated is None and len(verdict.others) == scored - 1 > 1:
            pieces.append((" (group 1 with every other system)", False))
        else:
            pieces += [(" (group 1 with ", False), *_names(verdict.others), (")", False)]
        if verdict.separated is not None:
            pieces += [
                ("; separated from ", False),
                (verdict.separated, True),
                (f" at p < {alpha} (p = {verdict.p:.3f}) on n = {verdict.n} {what}", False),
            ]
        elif scored > 1:
            pieces.append(
                (f"; no system is separated from it at p < {alpha} (n = {verdict.n} {what})", False)
            )
    return Line(metric, info.label, tuple(pieces), verdict.too_few)


# ------------------------------------------------------------------ SSER clusters


@dataclass(frozen=True)
class ClusterView:
    """WMT's clusters of one human figure as the page shows them: SSER's (of per-judge
    z-scores, by default) or a span protocol's (:func:`protocol_clusters`), ``values``
    saying what is ranked."""

    clusters: Clusters
    metric: str = "sser"
    values: str = "per-judge z-scores"

    @property
    def label(self) -> str:
        return metric_info(self.metric).label

    @property
    def ranked(self) -> tuple[ClusterFigure, ...]:
        return self.clusters.ranked()

    @property
    def too_few(self) -> bool:
        return self.clusters.too_few

    @property
    def note(self) -> str:
        """ "too few judged sentences (n = 2)" when no pair can be separated, else ""."""
        c = self.clusters
        return too_few_note(c.evidence) if c.too_few else ""

    @property
    def test(self) -> str:
        """The test in words, as the page names it."""
        c = self.clusters
        return (
            f"{c.test} on {self.values}, p < {c.alpha:g}, pairs with at least "
            f"{c.min_common} judged sentences in common"
        )


def sser_clusters(
    rows: Sequence[JudgmentRow],
    systems: Sequence[str],
    n_segments: int,
    *,
    alpha: float = DEFAULT_ALPHA,
    min_common: int = MIN_COMMON,
    memo: PairMemo | None = None,
    kept_z: KeptZ | None = None,
) -> Clusters:
    """WMT's clusters of the systems by their judges' z-scored SSER errors (module doc;
    lower is better, so "outperforms" is the one-sided test that a system's errors are
    stochastically less); ``memo``: each pair's test kept by its inputs
    (:func:`~metrics.ranksum.wmt_clusters`); ``kept_z``: each judge's z-scores as kept
    (:func:`~annotation.dashboard.judges.normalized_sser`)."""
    z = normalized_sser(rows, kept_z)
    per_segment = _segment_means(rows, z, systems, n_segments)
    return wmt_clusters(
        per_segment, higher_is_better=False, alpha=alpha, min_common=min_common, memo=memo
    )


def _segment_means(
    rows: Sequence[JudgmentRow], z: FloatArray, systems: Sequence[str], n_segments: int
) -> dict[str, FloatArray]:
    """Each of ``systems``' :func:`~metrics.ranksum.segment_means` of its rows' ``z``
    (NaN left out), in one count for them all: each segment's values summed in the rows'
    order, as each system's count alone sums them (the same bits)."""
    code = {s: i for i, s in enumerate(systems)}
    codes = np.array([code.get(r.system, -1) for r in rows], dtype=np.int64)
    segments = np.array([r.segment for r in rows], dtype=np.int64)
    counted = (codes >= 0) & ~np.isnan(z)
    if segments.size and (segments.min() < 0 or segments.max() >= n_segments):
        raise ValueError(f"a segment id is outside 0…{n_segments - 1}")
    ids = codes[counted] * n_segments + segments[counted]
    size = len(systems) * n_segments
    total = np.bincount(ids, weights=z[counted], minlength=size).reshape(-1, n_segments)
    count = np.bincount(ids, minlength=size).reshape(-1, n_segments)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return {s: means[i] for i, s in enumerate(systems)}


#: What a span protocol's clusters rank: each candidate's mean over its judges.
PROTOCOL_VALUES = {
    "esa": "each candidate's mean ESA score",
    "esa_z": "each candidate's mean ESA z-score (per judge)",
    "mqm": "each candidate's mean MQM penalty points",
}


def protocol_clusters(
    by_system: HumanRows,
    systems: Sequence[str],
    n_segments: int,
    metrics: Sequence[str],
    *,
    alpha: float = DEFAULT_ALPHA,
    min_common: int = MIN_COMMON,
    memo: PairMemo | None = None,
) -> tuple[ClusterView, ...]:
    """WMT's clusters of each of ``metrics`` (a span protocol's figures: ``esa``,
    ``esa_z``, ``mqm``), as the WMT findings cluster ESA and MQM (:mod:`metrics.
    protocols`): the one-sided rank-sum test between two systems on the sentences both
    have, each sentence's value its candidate's mean over its judges (the figure's own
    sentence score, :func:`~annotation.statistics.sentence_scores`); ``memo`` as
    :func:`sser_clusters`'s."""
    out = []
    for m in metrics:
        scores = sentence_scores_by_system(by_system, m, n_segments)
        none = np.full(n_segments, math.nan)
        per_segment = {s: scores.get(s, none) for s in systems}
        higher = metric_info(m).higher_is_better
        found = wmt_clusters(
            per_segment, higher_is_better=higher, alpha=alpha, min_common=min_common, memo=memo
        )
        out.append(ClusterView(found, m, PROTOCOL_VALUES.get(m, "each candidate's mean")))
    return tuple(out)


# ------------------------------------------------------------------ SSER per judge


@dataclass(frozen=True)
class JudgeAwareFigure:
    """One system's SSER figure, raw or z, as the page shows it: ``text`` "30.00 [25.10,
    35.20]" (the figure alone without an interval, "too few judged sentences (n = 3)"
    on too few), ``rank`` its group (1 for every figure of a column with too few
    sentences to separate any pair, 0 without a figure) and the ``data-*`` values."""

    figure: SystemFigure
    one_group: bool

    @property
    def too_few(self) -> str:
        n = self.figure.n
        return too_few_note(n) if n and too_few(n) else ""

    @property
    def rank(self) -> int:
        if not self.figure.n:
            return UNRANKED
        return 1 if self.one_group else self.figure.group

    @property
    def interval(self) -> tuple[str, str]:
        """The interval's ends at full precision ("" where none is claimed)."""
        iv = self.figure.interval
        if self.too_few or not iv.defined:
            return "", ""
        return full_precision(iv.low), full_precision(iv.high)

    @property
    def text(self) -> str:
        if self.too_few:
            return self.too_few
        iv = self.figure.interval
        low, high = number(iv.low), number(iv.high)
        shown = number(self.figure.score)
        return shown if not iv.defined or low == high else f"{shown} [{low}, {high}]"


@dataclass(frozen=True)
class JudgeAwareRow:
    """One system's row: its raw and its z figure."""

    system: str
    raw: JudgeAwareFigure
    z: JudgeAwareFigure

    @property
    def cells(self) -> tuple[tuple[str, JudgeAwareFigure], ...]:
        """(``data-col``, figure) in the table's order."""
        return (("raw", self.raw), ("z", self.z))


@dataclass(frozen=True)
class JudgeAwareView:
    """SSER raw and z-normalised per judge (:class:`~annotation.statistics.JudgeAware`)
    as the page shows them: rows best first by z, one line per figure in the words of
    :func:`verdict_line`."""

    figures: JudgeAware

    @property
    def rows(self) -> tuple[JudgeAwareRow, ...]:
        raw, z = self.figures.raw, self.figures.z
        return tuple(
            JudgeAwareRow(
                f.system,
                JudgeAwareFigure(raw.figure(f.system), raw.too_few),
                JudgeAwareFigure(f, z.too_few),
            )
            for f in z.ranked()
        )

    @property
    def lines(self) -> tuple[Line, Line]:
        return verdict_line(self.figures.raw, SSER_RAW), verdict_line(self.figures.z, SSER_Z)

    @property
    def ranks(self) -> dict[str, str]:
        """Each column's ``data-ranks``: "too-few" or "earned"."""
        return {
            kind: "too-few" if sig.too_few else "earned"
            for kind, sig in (("raw", self.figures.raw), ("z", self.figures.z))
        }
