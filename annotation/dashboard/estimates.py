"""Estimates of every system's full-corpus human score from the judged sentences (issue
28): the dashboard's "Estimates" panel, the table's ``?rank=estimate`` and the estimates
of ``table.json``.

A campaign judges part of the corpus; the human figures of the table are those of the
judged sentences. Every sentence, judged or not, has automatic scores, and where they
move with the judges' scores the part of the judged sentences' error they predict can be
taken out: :func:`metrics.estimate.estimate_mean`, the control-variate (regression)
estimator with its guard (it reports the plain mean where the regression would not do
better) and, when the corpus's sentences carry document ids, documents as strata. Its
formulas and sources are in ``docs/metrics.md``.

**What is estimated.** Per system and human metric, the mean of the *sentence* scores
over all N sentences of the corpus; a sentence judged twice counts once, with the rate
over its judgments (:func:`~annotation.statistics.sentence_scores`, the drill-down's
sentence figures). For SSER, aSER and MQM-style that is the table's figure; for aWER,
HTER and IER the table pools edits over words (a long sentence weighs more), so its
figure and the plain mean of the sentences differ a little, and the panel shows the
latter beside the estimate: like with like.

**The covariates** (:func:`covariate_scores`): the sentence scores of
:data:`AUTOMATIC_COVARIATES` (chrF, sentence BLEU, TER: one of each family, from the
stored statistics against the corpus's own references; never those against the grown
pool, whose new references are the judges' own and would be known on the judged
sentences only) and every imported metric (COMET and the like, the strong ones). A
covariate a system lacks on some sentence (an imported score forgotten when its
candidate's text changed) is left out of that system's estimate, and the panel says so.

**Rank groups from the estimates** (:func:`estimate_ranks`): the table's leader rule
(:func:`metrics.ranking.leader_groups`) on the estimates, each next system against its
group's leader by a *paired* test: the regression estimate of the full-corpus mean of
their difference, from the sentences both have judged, with the differences of their
covariates (:func:`paired_p_value`), significant at p < 0.05 on at least
:data:`~metrics.significance.MIN_COMMON` common sentences. Paired, because two systems
judged on the same sentences share those sentences' difficulty, which a comparison of
two separate intervals would count twice and so separate fewer pairs than the data
allow. An approximation all the same, and the page says so: the intervals (Student's t,
corrected for skew) assume the judged sentences are a random (or document-stratified)
sample of the corpus, the order of the judge queue; the leader rule makes as many tests
as there are systems, with no correction for that.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import numpy as np

from annotation.formatting import full_precision, number, percent
from annotation.statistics import (
    HUMAN_METRICS,
    AutomaticStats,
    ExternalMetricScores,
    HumanRows,
    content_digest,
    remembered_by_content,
    sentence_scores_by_system,
)
from metrics import claims
from metrics.claims import MIN_SENTENCES, too_few_note
from metrics.estimate import DEFAULT_CONFIDENCE, PLAIN, Covariate, Estimate, estimate_mean, p_value
from metrics.ranking import DEFAULT_ALPHA, MIN_COMMON, UNRANKED, leader_groups
from metrics.registry import metric_info
from metrics.reuse import PairMemo
from metrics.stats import FloatArray, Metric, MetricInfo

T = TypeVar("T")

#: The app's automatic metrics the estimates read as covariates: one of each family that
#: has a sentence score (character n-grams, word n-grams, edits with shifts). More of the
#: same kind add little (they correlate with each other far more than with the judges)
#: and each costs a degree of freedom.
AUTOMATIC_COVARIATES = ("chrf", "bleu", "ter")

#: What the page and ``table.json`` say of the rank groups from the estimates.
RANK_TEST = (
    "leader rule on the estimates; each system against its group's leader by a paired test: "
    "the regression estimate of their mean difference over the corpus, from the sentences "
    f"both have judged, p < {DEFAULT_ALPHA}, at least {MIN_COMMON} sentences in common"
)

ERR_INCOMPLETE = "{name} left out for {system}: scores missing where a candidate changed"


@dataclass(frozen=True)
class Covariates:
    """The covariates of a corpus: per system, each one's score of every sentence
    (``scores[system][name]``), their labels in the page's order, and the imported
    metrics' descriptions (their hover text)."""

    scores: dict[str, dict[str, FloatArray]]
    labels: dict[str, str]
    descriptions: dict[str, str] = field(default_factory=dict)


def covariate_scores(
    auto: AutomaticStats,
    metrics: Mapping[str, Metric],
    imported: Sequence[ExternalMetricScores] = (),
) -> Covariates:
    """The sentence scores of :data:`AUTOMATIC_COVARIATES` from the stored statistics
    ``auto`` (``metrics``: the metric objects of their choice), then every ``imported``
    metric's that has segment scores, per system of ``auto``."""
    imported = [x for x in imported if x.segment_level]
    scores: dict[str, dict[str, FloatArray]] = {}
    for system in auto.systems:
        mine = {
            m: np.asarray(
                metrics[m].sentence_score_from_stats(auto.segment_stats(m, system)),
                dtype=np.float64,
            )
            for m in AUTOMATIC_COVARIATES
        }
        for x in imported:
            if system in x.scores:
                mine[x.name] = np.asarray(x.scores[system], dtype=np.float64)
        scores[system] = mine
    labels = {m: metric_info(m).label for m in AUTOMATIC_COVARIATES}
    labels.update({x.name: x.name for x in imported})
    return Covariates(scores, labels, {x.name: x.description for x in imported})


@dataclass(frozen=True)
class SystemEstimate:
    """One system's estimate of one human metric (:class:`metrics.estimate.Estimate`:
    the plain mean of its judged sentences and the estimate, each with its interval) and
    its rank group among the estimates (0: not ranked); ``labels`` name the covariates."""

    system: str
    metric: str
    found: Estimate
    rank: int
    labels: Mapping[str, str] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return self.found.estimate.mean

    @property
    def low(self) -> float:
        return self.found.estimate.low

    @property
    def high(self) -> float:
        return self.found.estimate.high

    @property
    def n(self) -> int:
        return self.found.plain.n

    @property
    def method(self) -> str:
        return self.found.method

    @property
    def used(self) -> bool:
        """Whether the estimate is more than the plain mean (the guard took it)."""
        return self.found.method != PLAIN

    @property
    def saved(self) -> float:
        """The share of judgments the estimate is worth: ``1 − variance ratio`` (0 where
        the plain mean is kept)."""
        return max(0.0, 1.0 - self.found.variance_ratio)

    @property
    def covariates(self) -> tuple[Covariate, ...]:
        return self.found.covariates

    def label(self, name: str) -> str:
        return self.labels.get(name, name)

    @property
    def attrs(self) -> dict[str, str]:
        """The row's ``data-*`` values at full precision (the page's markup)."""
        plain = self.found.plain
        return {
            "estimate": _full(self.mean),
            "estimate_low": _full(self.low),
            "estimate_high": _full(self.high),
            "plain": _full(plain.mean),
            "plain_low": _full(plain.low),
            "plain_high": _full(plain.high),
            "variance_ratio": _full(self.found.variance_ratio),
        }

    @property
    def text(self) -> str:
        """The estimate as the page prints it: "12.34 [10.20, 14.48]"."""
        return interval_text(self.mean, self.low, self.high)

    @property
    def plain_text(self) -> str:
        plain = self.found.plain
        return interval_text(plain.mean, plain.low, plain.high)

    @property
    def shown_covariates(self) -> tuple[dict[str, str], ...]:
        """Each covariate as the panel lists it: ``name``, ``label``, its ``correlation``
        with the human scores on the judged sentences at full precision ("" when
        undefined) and as printed (``r``), and its ``coefficient`` (0: not used)."""
        return tuple(
            {
                "name": c.name,
                "label": self.label(c.name),
                "correlation": _full(c.correlation),
                "r": number(c.correlation),
                "coefficient": _full(c.coefficient),
            }
            for c in self.covariates
        )

    @property
    def covariates_text(self) -> str:
        """Each covariate with its correlation on the judged sentences: "chrF r = 0.41"."""
        return ", ".join(
            f"{self.label(c.name)} r = {number(c.correlation)}" for c in self.covariates
        )

    @property
    def how(self) -> str:
        """How the estimate was made, in words."""
        if not self.used:
            return "the plain mean kept: no covariate would narrow it"
        return f"{self.method} estimator, worth {percent(self.saved)} of the judgments"

    @property
    def title(self) -> str:
        """The hover text of the table's cell when it ranks by the estimates."""
        label = metric_info(self.metric).label
        covariates = f"; covariates: {self.covariates_text}" if self.covariates else ""
        return (
            f"{label}: estimate over the whole corpus {self.text} "
            "(95% interval, skew-corrected t; "
            f"{self.how}); the plain mean of the {self.n} judged sentences "
            f"{self.plain_text}; rank group {self.rank} by the estimates{covariates}"
        )

    def as_json(self) -> dict[str, Any]:
        """``{"mean", "low", "high", "n", "method", "variance_ratio", "rank", "plain":
        {"mean", "low", "high", "n"}, "covariates": {name: {"coefficient",
        "correlation"}}, …}`` (:meth:`metrics.estimate.Estimate.as_json`'s estimate; a
        number that is not finite is null)."""
        found = self.found.as_json()
        out: dict[str, Any] = _finite(
            {**found["estimate"], "rank": self.rank, "plain": found["plain"]}
        )
        return out


def _full(value: float) -> str:
    """A number at full precision for a ``data-*`` attribute; "" when not finite."""
    return full_precision(value)


def _finite(value: Any) -> Any:
    """``value`` with every number that is not finite made None (JSON has no NaN)."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def interval_text(mean: float, low: float, high: float) -> str:
    """ "12.34 [10.20, 14.48]"; the figure alone when the interval has no spread at two
    decimals (every sentence judged)."""
    if number(low) == number(high):
        return number(mean)
    return f"{number(mean)} [{number(low)}, {number(high)}]"


@dataclass(frozen=True)
class MetricEstimates:
    """One human metric's estimates, best first (then the systems without one), and the
    systems judged on too few sentences for one (:mod:`metrics.claims`): each with its
    judged sentences, in the corpus's order."""

    metric: str
    info: MetricInfo
    systems: tuple[SystemEstimate, ...]
    too_few: tuple[tuple[str, int], ...] = ()

    @property
    def rows(self) -> int:
        """The panel's rows of this metric: its estimates and its systems judged on too few."""
        return len(self.systems) + len(self.too_few)

    @property
    def too_few_rows(self) -> tuple[dict[str, Any], ...]:
        """The panel's rows of the systems judged on too few sentences: ``system``, ``n``
        and the ``note`` ("too few judged sentences (n = 3)") it shows in place of every
        figure."""
        return tuple({"system": s, "n": n, "note": too_few_note(n)} for s, n in self.too_few)


@dataclass(frozen=True)
class Estimates:
    """Every human metric's estimates of a corpus, with what they rest on: the
    covariates' labels (and the imported ones' descriptions), the number of documents
    used as strata (0: none), the corpus's sentences and the notes on what was left
    out."""

    metrics: tuple[MetricEstimates, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    documents: int = 0
    corpus_size: int = 0
    notes: tuple[str, ...] = ()
    confidence: float = DEFAULT_CONFIDENCE
    #: The rank groups' test: its level and the fewest sentences in common it needs.
    alpha: float = DEFAULT_ALPHA
    min_common: int = MIN_COMMON

    #: The judged sentences a system needs for an estimate (:mod:`metrics.claims`).
    min_judged: int = MIN_SENTENCES
    #: Every estimate and rank test above by the digest of its inputs (:class:`_Inputs`):
    #: what the next computation reuses where its inputs are unchanged (not shown).
    by_inputs: dict[bytes, Any] = field(default_factory=dict, compare=False, repr=False)

    def get(self, metric: str, system: str) -> SystemEstimate | None:
        for m in self.metrics:
            if m.metric == metric:
                return next((e for e in m.systems if e.system == system), None)
        return None

    @property
    def any(self) -> bool:
        """Whether the panel has a row: an estimate, or a system judged on too few."""
        return any(m.systems or m.too_few for m in self.metrics)

    def as_json(self) -> dict[str, Any]:
        """``table.json``'s ``estimates``: how they were made."""
        return {
            "estimator": "control variates (regression), guarded; metrics.estimate",
            "target": "the mean sentence score over every sentence of the corpus",
            "covariates": list(self.labels),
            "documents": self.documents,
            "confidence": self.confidence,
            "ranks": RANK_TEST,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class JudgedScores:
    """What the estimates read of the judgments and the sentences: per human metric, each
    system's sentence scores (NaN: not judged), and each sentence's document (None: the
    corpus names fewer than two). The same for every preprocessing choice, so the
    dashboard remembers it under the judgments stamp alone."""

    scores: dict[str, dict[str, FloatArray]]
    documents: tuple[str, ...] | None = None


def judged_scores(
    by_system: HumanRows, n_segments: int, documents: tuple[str, ...] | None = None
) -> JudgedScores:
    """:class:`JudgedScores` of the judgments' statistics (``by_system``)."""
    return JudgedScores(
        {m: sentence_scores_by_system(by_system, m, n_segments) for m in HUMAN_METRICS},
        documents,
    )


def corpus_estimates(
    judged: JudgedScores,
    systems: Sequence[str],
    n_segments: int,
    covariates: Covariates,
    kept: Mapping[bytes, Any] | None = None,
) -> Estimates:
    """Every system's estimate of every human metric (:data:`HUMAN_METRICS`) from its
    sentence scores (``judged``), with ``covariates`` and, where the sentences name
    documents, documents as strata; and their rank groups (:func:`estimate_ranks`). A
    system needs :data:`~metrics.claims.MIN_SENTENCES` judged sentences for an estimate
    (the one rule of :mod:`metrics.claims`: on fewer, t on a handful of degrees of
    freedom gives intervals wider than the metric's range and a covariate's r is ±1 from
    two points); one judged on fewer is listed as too few. Each interval is cut to the
    metric's range (:attr:`~metrics.stats.MetricInfo.bounds`). ``kept``: the estimates
    and tests of an earlier computation by their inputs' digests (:attr:`Estimates.
    by_inputs`), taken where the inputs are unchanged, the others remembered by content
    (:func:`~annotation.statistics.remembered_by_content`): the same values."""
    documents = judged.documents
    notes: list[str] = []
    usable = {
        s: _usable(s, covariates.scores.get(s, {}), covariates.labels, notes) for s in systems
    }
    inputs = _Inputs(usable, documents, n_segments, kept)
    out = []
    for m in HUMAN_METRICS:
        scores = judged.scores.get(m, {})
        info = metric_info(m)
        found: dict[str, Estimate] = {}
        too_few: list[tuple[str, int]] = []
        for s in systems:
            y = scores.get(s)
            count = 0 if y is None else int(np.count_nonzero(~np.isnan(y)))
            if y is None or not count:
                continue
            if claims.too_few(count):
                too_few.append((s, count))
                continue
            found[s] = inputs.remembered(
                inputs.of(f"estimate in {info.bounds}", (s, y)),
                partial(
                    _estimate,
                    y,
                    inputs.covariates[s],
                    inputs.documents,
                    inputs.n_segments,
                    info.bounds,
                ),
            )
            notes += [n for n in found[s].notes if n not in notes]
        ranks = estimate_ranks(found, scores, info.higher_is_better, inputs)
        ests = [
            SystemEstimate(s, m, found[s], ranks.get(s, UNRANKED), covariates.labels)
            for s in systems
            if s in found
        ]
        ests.sort(key=lambda e: (e.rank == UNRANKED, e.rank, _best_first(e.mean, info)))
        out.append(MetricEstimates(m, info, tuple(ests), tuple(too_few)))
    n_documents = 0 if documents is None else len(set(documents))
    return Estimates(
        tuple(out),
        dict(covariates.labels),
        dict(covariates.descriptions),
        n_documents,
        n_segments,
        tuple(notes),
        by_inputs=inputs.memo.used,
    )


def _estimate(
    y: FloatArray,
    auto: Mapping[str, FloatArray],
    documents: Sequence[str] | None,
    n_segments: int,
    bounds: tuple[float, float],
) -> Estimate:
    """The estimate from one system's sentence scores ``y`` (NaN: not judged), its
    intervals inside ``bounds`` (the metric's range)."""
    index = np.flatnonzero(~np.isnan(y))
    return estimate_mean(
        index, y[index], auto, documents=documents, corpus_size=n_segments, bounds=bounds
    )


def _best_first(mean: float, info: MetricInfo) -> float:
    return -mean if info.higher_is_better else mean


def _usable(
    system: str, mine: Mapping[str, FloatArray], labels: Mapping[str, str], notes: list[str]
) -> dict[str, FloatArray]:
    """The covariates known on every sentence for ``system``; a note for each left out."""
    out = {}
    for name, values in mine.items():
        if np.all(np.isfinite(values)):
            out[name] = values
        else:
            notes.append(ERR_INCOMPLETE.format(name=labels.get(name, name), system=system))
    return out


class _Inputs:
    """Digests of what an estimate or a paired test is computed from (a system's sentence
    scores, its covariates, the documents and the corpus size), their keys in the memo
    of :func:`~annotation.statistics.remembered_by_content`: after a judgment only its
    system's figures are computed again."""

    def __init__(
        self,
        covariates: Mapping[str, Mapping[str, FloatArray]],
        documents: Sequence[str] | None,
        n_segments: int,
        kept: Mapping[bytes, Any] | None = None,
    ) -> None:
        self.covariates = covariates
        self.documents = documents
        self.n_segments = n_segments
        #: The values of an earlier computation by their keys, and those used here.
        self.memo = PairMemo(kept)
        self._corpus = content_digest(n_segments, repr(documents))
        self._systems: dict[str, bytes] = {}

    def _system(self, system: str) -> bytes:
        if system not in self._systems:
            columns = sorted(self.covariates[system].items())
            self._systems[system] = content_digest(
                *(part for name, v in columns for part in (name, _raw(v)))
            )
        return self._systems[system]

    def remembered(self, key: bytes, compute: Callable[[], T]) -> T:
        """The value of the inputs ``key`` digests: the earlier computation's (no look-up
        in the cache), else remembered by content; kept for the next computation."""
        value: T = self.memo.get(key, lambda: remembered_by_content(key, compute))
        return value

    def of(self, what: str, *scored: tuple[str, FloatArray]) -> bytes:
        """The key of ``what`` computed from each (system, sentence scores) of ``scored``."""
        parts = [p for s, y in scored for p in (self._system(s), _raw(y))]
        return content_digest(what, self._corpus, *parts)


def _raw(values: FloatArray) -> bytes:
    return np.ascontiguousarray(values, dtype=np.float64).tobytes()


def estimate_ranks(
    found: Mapping[str, Estimate],
    scores: Mapping[str, FloatArray],
    higher_is_better: bool,
    inputs: _Inputs,
) -> dict[str, int]:
    """The rank group of each system that has an estimate (``found``), by the leader
    rule on the estimates and the paired test of :func:`paired_p_value` (the module's
    docstring): at most one test per system, each remembered by its inputs (the
    covariates, documents and corpus size are read from ``inputs``, the object the keys
    digest, so a key cannot name other inputs than its test's)."""
    names = list(found)
    means = [found[s].estimate.mean for s in names]

    def differs(leader: int, i: int) -> bool:
        a, b = names[leader], names[i]
        p = inputs.remembered(
            inputs.of("paired", (a, scores[a]), (b, scores[b])),
            lambda: paired_p_value(
                scores[a],
                scores[b],
                inputs.covariates[a],
                inputs.covariates[b],
                inputs.documents,
                inputs.n_segments,
            ),
        )
        return p < DEFAULT_ALPHA

    groups = leader_groups(means, differs, higher_is_better=higher_is_better)
    return dict(zip(names, groups, strict=True))


def paired_p_value(
    first: FloatArray,
    second: FloatArray,
    first_covariates: Mapping[str, FloatArray],
    second_covariates: Mapping[str, FloatArray],
    documents: Sequence[str] | None,
    n_segments: int,
) -> float:
    """The p-value of "two systems have the same mean over the corpus": the estimate
    (:func:`~metrics.estimate.estimate_mean`) of the mean of their per-sentence
    differences from the sentences both have judged (``first`` and ``second``: each
    system's sentence scores, NaN where not judged), with the differences of the
    covariates both have as covariates, tested against 0 by its own t
    (:func:`~metrics.estimate.p_value`). 1 (no difference can be claimed) on fewer than
    :data:`~metrics.significance.MIN_COMMON` common sentences."""
    common = np.flatnonzero(~np.isnan(first) & ~np.isnan(second))
    if len(common) < MIN_COMMON:
        return 1.0
    auto = {
        name: first_covariates[name] - second_covariates[name]
        for name in first_covariates
        if name in second_covariates
    }
    difference = first[common] - second[common]
    found = estimate_mean(common, difference, auto, documents=documents, corpus_size=n_segments)
    value = p_value(found.estimate)
    return value if math.isfinite(value) else 1.0
