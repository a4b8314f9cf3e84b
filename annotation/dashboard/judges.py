"""The judges panel: each judge's figures, the (0, 1) evaluator normalization of SSER
(seed 000 §3.5), the agreement between judges on candidates judged more than once, and
each judge's control items (pass rate, consistency, flag: :mod:`annotation.controls.
quality`). The figures read counted judgments only, never a control item."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial

import numpy as np
import numpy.typing as npt

from annotation.controls.api import JudgeControls
from annotation.pace import seconds_per_candidate, sentences_per_hour
from annotation.statistics import JudgmentRow, human_metric_rows
from annotation.text import words
from metrics import human
from metrics.annotators import AnnotatorEffect
from metrics.claims import shortfall
from metrics.correlation import (
    Coefficient,
    agreement_sums_of_cells,
    alpha_coefficient,
    alpha_of_sums,
    pearson,
    pearson_of_sums,
    z_normalize,
)
from metrics.ranking import Interval
from metrics.significance import Bootstrap, percentile_interval
from metrics.stats import FloatArray

IntArray = npt.NDArray[np.int64]


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

    @property
    def pace(self) -> float | None:
        """Active seconds per judgment (:data:`annotation.pace.PACE_LABEL`)."""
        return seconds_per_candidate(self.judgments, self.active_seconds)


@dataclass(frozen=True)
class NormalizedSystem:
    """A system's mean (0, 1)-normalized SSER (seed 000 §3.5): relative, lower is better."""

    system: str
    value: float | None
    n: int


@dataclass(frozen=True)
class JudgeRow:
    """One row of the judges table: the judge's figures, control items (None: none
    done) and effect on SSER (:func:`metrics.annotators.annotator_effects`; None: no
    score given)."""

    name: str
    figures: JudgeFigures
    controls: JudgeControls | None
    effect: AnnotatorEffect | None = None


@dataclass(frozen=True)
class JudgesPanel:
    """The panel: ``judges`` (figures of counted judgments only), the normalized SSER,
    and the control items' results per judge (``controls``; their columns show while
    the corpus has controls on or any judge has done one: ``controls_shown``)."""

    judges: tuple[JudgeFigures, ...]
    normalize: bool
    normalized: tuple[NormalizedSystem, ...]
    controls: tuple[JudgeControls, ...] = ()
    controls_on: bool = False
    effects: tuple[AnnotatorEffect, ...] = ()
    #: The score each judge's mean and std are of (:func:`judge_scores`).
    figure: str = "sser"

    @property
    def score_label(self) -> str:
        """The mean score's heading: its scale."""
        return SCORE_HEADINGS[self.figure]

    def with_controls(self, controls: tuple[JudgeControls, ...], *, on: bool) -> JudgesPanel:
        """This panel with the corpus's control results (computed apart: they do not
        depend on the normalization)."""
        return replace(self, controls=controls, controls_on=on)

    def with_effects(self, effects: tuple[AnnotatorEffect, ...]) -> JudgesPanel:
        """This panel with each judge's effect on SSER (computed with the table's
        bootstrap, apart from the normalization)."""
        return replace(self, effects=effects)

    @property
    def controls_shown(self) -> bool:
        return self.controls_on or bool(self.controls)

    @property
    def flagged(self) -> tuple[JudgeControls, ...]:
        return tuple(c for c in self.controls if c.flagged)

    @property
    def rows(self) -> list[JudgeRow]:
        """Every judge with counted judgments or done control items, by name."""
        figures = {j.name: j for j in self.judges}
        controls = {c.name: c for c in self.controls}
        effects = {e.annotator: e for e in self.effects}
        return [
            JudgeRow(
                name,
                figures.get(name) or judge_figures(name, [], self.figure),
                controls.get(name),
                effects.get(name),
            )
            for name in sorted(figures.keys() | controls.keys())
        ]


#: One judge's normalized SSER as kept by the judge's name, else computed (the callable
#: given) and kept (:func:`normalized_sser`).
KeptZ = Callable[[str, Callable[[], FloatArray]], FloatArray]


def normalized_sser(rows: Sequence[JudgmentRow], kept: KeptZ | None = None) -> FloatArray:
    """Each scored judgment's SSER (percent error) (0, 1)-normalized per evaluator (seed
    000 §3.5, :func:`metrics.correlation.z_normalize`); NaN where it has no score.
    ``kept``: each judge's values as kept, else computed from the judge's rows alone
    (each judge's are normalized apart: the same values, to the bit) and kept."""
    x = sser_errors(rows)
    if kept is None:
        return z_normalize(x, [r.evaluator for r in rows]).values
    out = np.empty(len(rows), dtype=np.float64)
    for name, at in _judges_rows(rows).items():
        out[at] = kept(name, partial(_judge_z, x[at]))
    return out


def sser_errors(rows: Sequence[JudgmentRow]) -> FloatArray:
    """Each row's :attr:`~annotation.statistics.JudgmentRow.sser_error` (NaN: no score),
    computed at once: the same operations on the same whole numbers, the same bits."""
    sser = np.array([r.sser for r in rows], dtype=np.float64)  # None is NaN
    out: FloatArray = (human.SSER_MAX - sser) * 100 / human.SSER_MAX
    return out


def _judges_rows(rows: Sequence[JudgmentRow]) -> dict[str, npt.NDArray[np.int64]]:
    """Each judge's rows' indices, in the rows' order."""
    codes: dict[str, int] = {}
    code = np.array([codes.setdefault(r.evaluator, len(codes)) for r in rows], dtype=np.int64)
    order = np.argsort(code, kind="stable")
    ends = np.cumsum(np.bincount(code, minlength=len(codes)))
    return dict(zip(codes, np.split(order, ends[:-1]), strict=True))


def _judge_z(x: FloatArray) -> FloatArray:
    """One judge's values normalized as :func:`~metrics.correlation.z_normalize`
    normalizes one evaluator's (the same operations on the same values; read-only: kept
    for later views)."""
    z = np.full(x.size, np.nan, dtype=np.float64)
    scored = np.flatnonzero(~np.isnan(x))
    if scored.size:
        values = x[scored]
        mean = float(values.mean())
        if np.ptp(values) == 0.0:
            z[scored] = 0.0
        else:
            z[scored] = (values - mean) / float(np.sqrt(((values - mean) ** 2).mean()))
    z.flags.writeable = False
    return z


def normalized_by_system(rows: Sequence[JudgmentRow]) -> dict[str, list[float]]:
    """The (0, 1)-normalized SSER values of each system's scored judgments."""
    out: dict[str, list[float]] = defaultdict(list)
    for r, z in zip(rows, normalized_sser(rows), strict=True):
        if not math.isnan(z):
            out[r.system].append(float(z))
    return out


#: The judges table's heading of each judge's mean score, by the score (:data:`AGREED_ON`).
SCORE_HEADINGS = {
    "sser": "Mean score (0–10)",
    "esa": "Mean ESA score (0–100)",
    "mqm": "Mean MQM points",
}


def judges_panel(
    rows: Sequence[JudgmentRow],
    systems: Sequence[str],
    *,
    normalize: bool,
    figure: str = "sser",
    kept: Callable[[str, Callable[[], JudgeFigures]], JudgeFigures] | None = None,
) -> JudgesPanel:
    """Every judge's figures (by name; their mean and std of the score ``figure`` names:
    SSER's, or a span protocol's, :func:`judge_scores`) and, when ``normalize``, each
    system's mean normalized SSER. ``kept``: a judge's figures as kept by the judge's
    name, else computed (the callable given) and kept."""
    by_judge: dict[str, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        by_judge[r.evaluator].append(r)

    def figures_of(name: str) -> JudgeFigures:
        mine = by_judge[name]
        if kept is None:
            return judge_figures(name, mine, figure)
        return kept(name, lambda: judge_figures(name, mine, figure))

    judges = tuple(figures_of(name) for name in sorted(by_judge))
    normalized: list[NormalizedSystem] = []
    if normalize and rows:
        per_system = normalized_by_system(rows)
        for s in systems:
            vals = per_system.get(s, [])
            normalized.append(
                NormalizedSystem(s, float(np.mean(vals)) if vals else None, len(vals))
            )
    return JudgesPanel(judges, normalize, tuple(normalized), figure=figure)


def judge_figures(name: str, rows: Sequence[JudgmentRow], figure: str = "sser") -> JudgeFigures:
    """One judge's figures from the judge's own done judgments (``mean_score`` and
    ``std`` of the score ``figure`` names, :func:`judge_scores`)."""
    given = judge_scores(rows, figure, normalize=False)
    scores = given[~np.isnan(given)].tolist()
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

    The SSER coefficients carry a 95 % percentile interval (``sser_alpha_interval``,
    ``sser_pearson_interval``; None when not computed) from the dashboard's bootstrap:
    the corpus's sentences drawn with replacement (the same index matrix as every
    figure), each sample's α and r recomputed over the candidates of the sentences it
    drew (:func:`metrics.correlation.agreement_sums`). The sentence, not the candidate,
    is the unit drawn: an overlap share deals whole sentences to a second judge, and
    their candidates share that pair of judges. ``sentences`` counts the sentences with
    a candidate judged twice, what an interval rests on (:meth:`interval_too_few`).
    """

    candidates: int
    pairs: int
    normalize: bool
    #: The score the judges agree on (the ``sser_*`` coefficients'): SSER's, or in a
    #: corpus judged by error spans its protocol's (``esa``, ``mqm``: :func:`judge_scores`).
    sser_pearson: Coefficient
    sser_alpha: Coefficient
    awer_pearson: Coefficient
    identical_new_refs: float | None
    awer_pairs: int
    sser_alpha_interval: Interval | None = None
    sser_pearson_interval: Interval | None = None
    sentences: int = 0
    figure: str = "sser"

    @property
    def label(self) -> str:
        """The score's name as the page says it: "SSER", "ESA", "MQM"."""
        return AGREED_ON[self.figure]

    @property
    def interval_too_few(self) -> str:
        """ "too few sentences judged twice (n = 3)" where the intervals would rest on fewer
        than :data:`~metrics.claims.MIN_SENTENCES` sentences (:mod:`metrics.claims`), else
        ""."""
        return shortfall(self.sentences, "sentences judged twice")

    @property
    def intervals(self) -> dict[str, Interval | None]:
        """Per SSER coefficient its interval where one is claimed (enough sentences, the
        coefficient itself not too few, both ends defined), else None."""
        few = self.too_few
        out: dict[str, Interval | None] = {}
        for name, iv in (
            ("sser_alpha", self.sser_alpha_interval),
            ("sser_pearson", self.sser_pearson_interval),
        ):
            claimed = iv is not None and iv.defined and not few[name]
            out[name] = iv if claimed and not self.interval_too_few else None
        return out

    @property
    def too_few(self) -> dict[str, str]:
        """Per coefficient the page's "too few pairs (n = 3)" in place of its value where it
        rests on too few (:mod:`metrics.claims`: r on pairs of judgments, α on the
        candidates judged twice), "" where it does not."""
        return {
            "sser_pearson": shortfall(self.sser_pearson.n, "pairs"),
            "sser_alpha": shortfall(self.candidates, "candidates judged twice"),
            "awer_pearson": shortfall(self.awer_pearson.n, "pairs"),
        }


def sentence_awer(rows: Sequence[JudgmentRow]) -> FloatArray:
    """Each judgment's sentence aWER in percent (:func:`metrics.human.rate`, the same
    IEEE operations on arrays); NaN where it has no edit count."""
    edits = np.array([math.nan if r.edits is None else r.edits for r in rows], dtype=float)
    length = np.array(
        [math.nan if r.ref_length is None else r.ref_length for r in rows], dtype=float
    )
    counted = ~(np.isnan(edits) | np.isnan(length))
    safe = np.where(counted & (length > 0), length, 1.0)
    out: FloatArray = np.where(length > 0, 100.0 * edits / safe, 0.0)
    return np.where(counted, out, math.nan)


#: The pairs of new references :func:`_same_words` keeps its answer for, in each
#: process: every pair of judgments of a candidate judged twice is compared again after
#: each judgment (2,600 pairs at real size, 4.8 ms), and one judgment adds a pair or
#: two; kept, the comparison costs a lookup (0.5 ms). The answer depends on the two
#: texts alone, which key it (a few MB at most).
SAME_WORDS_KEPT = 16_384


@lru_cache(maxsize=SAME_WORDS_KEPT)
def _same_words(a: str, b: str) -> bool:
    """Whether two new references have the same words (:func:`annotation.text.words`),
    tokenizing only when it can matter. 13a only puts spaces between characters, except
    for its HTML entities, ``<skipped>`` and line ends: texts without those whose
    non-space characters differ cannot have the same words, and most differing new
    references are told apart that way."""
    if a == b:
        return True
    if "".join(a.split()) != "".join(b.split()) and _plain(a) and _plain(b):
        return False
    return words(a, cache=False) == words(b, cache=False)


def _plain(text: str) -> bool:
    """Whether 13a can only put spaces into ``text`` (see :func:`_same_words`)."""
    return "&" not in text and "<skipped>" not in text and "\n" not in text


def _candidate_pairs(targets: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The candidates judged more than once and every pair of their judgments.

    Candidates in order of first appearance, their judgments in row order, pairs as two
    nested loops would list them (``(0, 1), (0, 2), (1, 2)`` …). Returns the rows of the
    multiply-judged candidates (grouped), each such row's candidate number, and the two
    rows of each pair.
    """
    distinct, first, inverse = np.unique(targets, return_index=True, return_inverse=True)
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(distinct), dtype=np.int64)
    group = rank[inverse.reshape(-1)]
    order = np.argsort(group, kind="stable")
    sizes = np.bincount(group, minlength=len(distinct))
    starts = np.zeros(len(sizes), dtype=np.int64)
    np.cumsum(sizes[:-1], out=starts[1:])
    multi = np.flatnonzero(sizes >= 2)
    kept = sizes[group[order]] >= 2
    grouped = order[kept]
    number = np.cumsum(sizes >= 2) - 1  # a multiply-judged candidate's number
    candidate = number[group[grouped]]
    us, ts, firsts, seconds = [], [], [], []
    for k in np.unique(sizes[multi]).tolist():
        u = np.flatnonzero(sizes[multi] == k)
        a_pos, b_pos = np.triu_indices(k, 1)
        base = starts[multi[u]][:, None]
        firsts.append(order[base + a_pos].reshape(-1))
        seconds.append(order[base + b_pos].reshape(-1))
        us.append(np.repeat(u, len(a_pos)))
        ts.append(np.tile(np.arange(len(a_pos), dtype=np.int64), len(u)))
    if not firsts:
        empty = np.zeros(0, dtype=np.int64)
        return grouped, candidate, empty, empty
    # candidate by candidate; a candidate's pairs in the nested loops' order
    sort = np.lexsort((np.concatenate(ts), np.concatenate(us)))
    return grouped, candidate, np.concatenate(firsts)[sort], np.concatenate(seconds)[sort]


#: The scores the judges' agreement is measured on, by name: SSER's (aWER corpora), and
#: the span protocols' (:func:`judge_scores`).
AGREED_ON = {"sser": "SSER", "esa": "ESA", "mqm": "MQM"}
#: Each span protocol's score, a field of the judgment's row.
_PROTOCOL_SCORES = {"esa": "esa_score", "mqm": "mqm_points"}


def judge_scores(rows: Sequence[JudgmentRow], figure: str, *, normalize: bool) -> FloatArray:
    """Each judgment's score the judges' agreement is measured on (NaN: none): SSER's
    0–10 score, or its (0, 1) normalization per judge (:func:`normalized_sser`); an ESA
    corpus's 0–100 score or an MQM corpus's penalty points, normalized per judge alike
    (:func:`metrics.correlation.z_normalize`) with ``normalize``."""
    if figure == "sser":
        if normalize:
            return normalized_sser(rows)
        return np.array([math.nan if r.sser is None else float(r.sser) for r in rows])
    found = [getattr(r, _PROTOCOL_SCORES[figure]) for r in rows]
    values = np.array([math.nan if v is None else float(v) for v in found])
    if normalize:
        return z_normalize(values, [r.evaluator for r in rows]).values
    return values


def agreement(
    rows: Sequence[JudgmentRow],
    *,
    normalize: bool,
    bootstrap: Bootstrap | None = None,
    figure: str = "sser",
) -> Agreement:
    """Agreement on the candidates judged more than once (:class:`Agreement`) on the
    score ``figure`` names (:func:`judge_scores`), with its coefficients' intervals from
    ``bootstrap`` (the corpus's resampled sentences)."""
    targets = np.fromiter((r.target_id for r in rows), dtype=np.int64, count=len(rows))
    grouped, candidate, first, second = _candidate_pairs(targets)
    sser = judge_scores(rows, figure, normalize=normalize)
    awer = sentence_awer(rows)

    def both_orders(values: FloatArray) -> tuple[FloatArray, FloatArray]:
        # each unordered pair enters in both orders, interleaved (a, b), (b, a), …
        x = np.empty(2 * len(first))
        y = np.empty(2 * len(first))
        x[0::2], x[1::2] = values[first], values[second]
        y[0::2], y[1::2] = values[second], values[first]
        return x, y

    sx, sy = both_orders(sser)
    ax, ay = both_orders(awer)
    counted = ~np.isnan(awer)
    with_refs = np.flatnonzero(counted[first] & counted[second])
    same = sum(
        _same_words(rows[a].new_ref, rows[b].new_ref)
        for a, b in zip(first[with_refs].tolist(), second[with_refs].tolist(), strict=True)
    )
    units, alpha = _candidate_sums(rows, grouped, candidate, sser)

    def halved(c: Coefficient) -> Coefficient:
        # each unordered pair was entered twice
        return Coefficient(c.name, c.value, c.n // 2)

    segments = np.zeros(len(units), dtype=np.int64)
    segments[candidate] = [rows[i].segment for i in grouped.tolist()]
    alpha_iv, pearson_iv = _agreement_intervals(units, segments, bootstrap)
    return Agreement(
        candidates=len(units),
        pairs=len(first),
        normalize=normalize,
        sser_pearson=halved(pearson(sx, sy)),
        sser_alpha=alpha,
        awer_pearson=halved(pearson(ax, ay)),
        identical_new_refs=same / len(with_refs) if len(with_refs) else None,
        awer_pairs=len(with_refs),
        sser_alpha_interval=alpha_iv,
        sser_pearson_interval=pearson_iv,
        sentences=len(np.unique(segments[units[:, 0] >= 2])),
        figure=figure,
    )


def _candidate_sums(
    rows: Sequence[JudgmentRow], grouped: IntArray, candidate: IntArray, sser: FloatArray
) -> tuple[FloatArray, Coefficient]:
    """Per multiply-judged candidate the sums of :func:`metrics.correlation.
    agreement_sums` of the judges × candidates matrix of SSER values (the ``grouped``
    rows, each of its ``candidate``), and Krippendorff's α of that matrix.

    The matrix is never built: with hundreds of judges it is almost all missing, and
    building it (or summing it) would cost judges × candidates. Its present cells are
    listed in its own order, judge by judge (judges by name), candidates ascending, which
    is the order its sums add them in, so the figures are the matrix's to the last bit.
    Where rows break the database's rule (one judgment per judge and candidate) the later
    one counts, as a loop filling the matrix would have it."""
    evaluators = [rows[i].evaluator for i in grouped.tolist()]
    where = {name: k for k, name in enumerate(sorted(set(evaluators)))}
    judge = np.fromiter(map(where.__getitem__, evaluators), dtype=np.int64, count=len(grouped))
    n_candidates = int(candidate[-1]) + 1 if len(candidate) else 0
    cells = judge * n_candidates + candidate
    order = np.argsort(cells, kind="stable")
    last = np.ones(len(order), dtype=np.bool_)  # of its cell's rows, the later one
    last[:-1] = cells[order][1:] != cells[order][:-1]
    kept = order[last]
    values = sser[grouped[kept]]
    present = ~np.isnan(values)
    units, values = candidate[kept][present], values[present]
    sums = agreement_sums_of_cells(units, values, n_candidates)
    return sums, alpha_coefficient(sums, values[sums[units, 0] >= 2])


def _agreement_intervals(
    units: FloatArray, segments: IntArray, bootstrap: Bootstrap | None
) -> tuple[Interval | None, Interval | None]:
    """The 95 % percentile intervals of SSER's α and both-orders r (each candidate's
    ``units`` sums of :func:`metrics.correlation.agreement_sums`, its sentence in
    ``segments``) over ``bootstrap``'s samples of sentences (:class:`Agreement`); None
    without a bootstrap."""
    if bootstrap is None:
        return None, None
    per_sentence = np.zeros((bootstrap.n_segments, units.shape[1]))
    np.add.at(per_sentence, segments, units)
    totals = bootstrap.counts @ per_sentence
    found = []
    for samples, bounds in (
        (alpha_of_sums(totals), (-math.inf, 1.0)),
        (pearson_of_sums(totals), (-1.0, 1.0)),
    ):
        low, high, mean = percentile_interval(samples, bounds)
        found.append(Interval(float(low), float(high), float(mean)))
    return found[0], found[1]
