"""The human side of the meta-evaluation (:mod:`annotation.dashboard.meta`): what it
reads of the judgments, each human figure per judged candidate and per judged system,
and each system's figure on every bootstrap sample of the sentences. It does not depend
on the preprocessing, so the dashboard computes it once per state of the judgments and
every preprocessing choice reuses it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from annotation.dashboard.judges import normalized_by_system, normalized_sser
from annotation.dashboard.table import human_segment_stats
from annotation.statistics import (
    ExternalFigures,
    HumanRows,
    JudgmentRow,
    human_rows_by_system,
    protocol_figures,
)
from metrics import human
from metrics.registry import metric_info
from metrics.significance import Bootstrap, rows_by_segment
from metrics.stats import FloatArray, MetricInfo, Score

#: The human figures the meta-evaluation correlates the automatic ones with: an aWER
#: corpus's; a corpus judged by error spans has its protocol's instead
#: (:func:`meta_figures`).
META_HUMAN = ("sser", "awer", "hter", "ier")

#: The figures of the span protocols that are a mean per candidate of one value stored
#: on each judgment's row (:class:`~annotation.statistics.JudgmentRow`'s field).
_CANDIDATE_MEANS = {"esa": "esa_score", "esa_z": "esa_z", "mqm": "mqm_points"}


def meta_figures(protocol: str) -> tuple[str, ...]:
    """The human figures the meta-evaluation of a corpus of ``protocol`` correlates the
    metrics with: :data:`META_HUMAN` for aWER, else the protocol's own (``esa`` and
    ``esa_z``, or ``mqm`` from the judge's spans: :func:`~annotation.statistics.
    protocol_figures`)."""
    return META_HUMAN if protocol == "awer" else protocol_figures(protocol)


#: The human figures that are a rate of counts stored on each judgment: their count
#: fields (errors, length), summed per candidate.
_COUNTS = {
    "awer": ("edits", "ref_length"),
    "hter": ("ter_edits", "ter_length"),
    "ier": ("ier_errors", "ier_length"),
}


def sentence_human(
    rows: Sequence[JudgmentRow],
    metric: str,
    *,
    normalize: bool = False,
    numbered: Numbered | None = None,
    columns: Columns | None = None,
) -> dict[tuple[str, int], float]:
    """Human score per judged candidate (system, segment).

    ESA, ESA z and an MQM corpus's MQM: the mean of its judgments' values, as their
    figures average a candidate's judges first. SSER: the mean of its judges' percent
    errors (seed 000 §3.5: "we have only applied the mean"), of their (0,
    1)-normalized values when ``normalize``. aWER, HTER and IER: the
    rate over its judgments (Σ edits / Σ lengths, Σ bad items / Σ items), as sufficient
    statistics add up; IER over the judgments with information items only.

    ``numbered``: the rows' candidates (:func:`numbered_candidates`), and ``columns``
    their fields (:class:`Columns`), if taken already (every human figure reads the
    same rows).
    """
    numbered = numbered_candidates(rows) if numbered is None else numbered
    columns = Columns(rows) if columns is None else columns
    if metric in _CANDIDATE_MEANS:  # ESA raw and z, MQM from spans: their own rule
        return _candidate_means(numbered, columns.floats(_CANDIDATE_MEANS[metric]))
    if metric == "sser":
        if normalize:
            return _candidate_means(numbered, normalized_sser(rows))
        # the row's percent error (JudgmentRow.sser_error): the same IEEE operations
        # on the same whole numbers, so the same floats
        max_score = float(human.SSER_MAX)
        return _candidate_means(numbered, (max_score - columns.floats("sser")) * 100 / max_score)
    if metric in _COUNTS:
        errors, length = (columns.floats(name) for name in _COUNTS[metric])
        kept = np.flatnonzero(~np.isnan(errors) & ~np.isnan(length))
        keys, where = numbered.of(kept)
        edits = np.bincount(where, errors[kept], len(keys))
        lengths = np.bincount(where, length[kept], len(keys))
        counted = lengths > 0  # human.rate's IEEE operations, on every candidate at once
        rates = np.where(counted, 100.0 * edits / np.where(counted, lengths, 1.0), 0.0)
        return dict(zip(keys, rates.tolist(), strict=True))
    raise ValueError(f"unknown human metric {metric!r}")


#: None, compared with every value of an object array at once.
_NONE = np.array(None, dtype=object)


class Columns:
    """Fields of a list of rows, each taken once for every human figure that reads it:
    a field's values as floats, NaN where the row has none (``None``). Taken a field
    at a time (a C loop over the rows), not a row at a time in Python: the figures read
    18,000 rows after every judgment at real size."""

    def __init__(self, rows: Sequence[JudgmentRow]) -> None:
        self._rows = rows
        self._taken: dict[str, FloatArray] = {}

    def floats(self, name: str) -> FloatArray:
        found = self._taken.get(name)
        if found is None:
            at = JudgmentRow._fields.index(name)
            values = np.fromiter(
                map(itemgetter(at), self._rows), dtype=object, count=len(self._rows)
            )
            found = np.full(values.size, math.nan)
            given = ~np.equal(values, _NONE)
            found[given] = values[given].astype(np.float64)
            self._taken[name] = found
        return found


def _candidate_means(numbered: Numbered, values: FloatArray) -> dict[tuple[str, int], float]:
    """Each judged candidate's mean of ``values`` (one per row, NaN: not entering)."""
    kept = np.flatnonzero(~np.isnan(values))
    keys, where = numbered.of(kept)
    # Σ in row order (np.add.at is sequential: the same sums as Python's sum)
    sums = np.zeros(len(keys))
    np.add.at(sums, where, values[kept])
    means = sums / np.bincount(where, minlength=len(keys))
    return dict(zip(keys, means.tolist(), strict=True))


@dataclass(frozen=True, eq=False)
class Numbered:
    """The candidates (system, segment) of a list of rows, in order of first appearance,
    and each row's candidate number."""

    keys: list[tuple[str, int]]
    where: npt.NDArray[np.intp]

    def of(self, kept: npt.NDArray[np.intp]) -> tuple[list[tuple[str, int]], npt.NDArray[np.intp]]:
        """The candidates of the rows ``kept`` (increasing), in order of first
        appearance among them, and each kept row's candidate number."""
        if kept.size == self.where.size:  # every row
            return self.keys, self.where
        ids = self.where[kept]
        found, first = np.unique(ids, return_index=True)
        order = found[np.argsort(first)]
        renumber = np.zeros(len(self.keys), dtype=np.intp)
        renumber[order] = np.arange(order.size)
        return [self.keys[i] for i in order.tolist()], renumber[ids]


def numbered_candidates(rows: Sequence[JudgmentRow]) -> Numbered:
    """:class:`Numbered` of ``rows``."""
    number: dict[tuple[str, int], int] = {}
    where = [number.setdefault((r.system, r.segment), len(number)) for r in rows]
    return Numbered(list(number), np.asarray(where, dtype=np.intp))


@dataclass(frozen=True)
class HumanSide:
    """What the meta-evaluation reads of the judgments, for each human figure of
    :data:`META_HUMAN`: its value per judged candidate (:func:`sentence_human`) and per
    judged system. It does not depend on the preprocessing, so it is computed once per
    state of the judgments and reused by every preprocessing choice."""

    sentence: dict[str, dict[tuple[str, int], float]]
    system: dict[str, dict[str, float]]
    #: Per human figure and judged system: its figure on each bootstrap sample of the
    #: sentences (NaN where the sample drew none of its judged sentences) and how many
    #: judged sentences it rests on.
    samples: dict[str, dict[str, FloatArray]] = field(default_factory=dict)
    judged: dict[str, dict[str, int]] = field(default_factory=dict)
    #: The human figures it holds (:func:`meta_figures`, then the human scores imported:
    #: :func:`with_imported_human`), in the page's order.
    metrics: tuple[str, ...] = META_HUMAN
    #: The facts of the human scores imported, by name (the app's own figures' are
    #: :func:`~metrics.registry.metric_info`'s).
    imported: dict[str, MetricInfo] = field(default_factory=dict)
    #: The human figures with no sentence level: human scores imported as a
    #: ``.sys.score`` alone (their published figure per system, nothing per sentence).
    system_level_only: frozenset[str] = frozenset()

    def info(self, metric: str) -> MetricInfo:
        """The facts of the human figure ``metric``: its label and direction."""
        found = self.imported.get(metric)
        return found if found is not None else metric_info(metric)


def with_imported_human(side: HumanSide, imported: ExternalFigures | None) -> HumanSide:
    """``side`` with the human scores a lead imported (mt-metrics-eval's ``.seg.score``
    of WMT's MQM or ESA: :attr:`~annotation.statistics.ExternalMetricScores.human`)
    after its own figures, each a human figure as the judges' are: per rated candidate
    its score, per system with a rated sentence its figure (the mean of its rated
    sentences, as published), its figure on every sample of the same bootstrap (its
    paired bootstrap's, NaN where a sample drew none of its rated sentences) and how
    many rated sentences it rests on. Human scores imported as a ``.sys.score`` alone
    have their published figure per system and nothing else: no sentence-level point,
    no sample (so no interval). ``side`` itself when none was imported."""
    found = [m for m in (() if imported is None else imported.metrics) if m.human]
    if not found:
        return side
    sentence, system = dict(side.sentence), dict(side.system)
    samples, judged = dict(side.samples), dict(side.judged)
    infos = dict(side.imported)
    for metric in found:
        name, rated = metric.name, metric.judged
        infos[name] = metric.info
        if not metric.segment_level:
            sentence[name] = {}
            system[name] = {s: f.score for s, f in metric.figures.items()}
            continue
        sentence[name] = {
            (s, int(k)): float(values[k])
            for s, values in metric.scores.items()
            for k in np.flatnonzero(~np.isnan(values))
        }
        system[name] = {s: f.score for s, f in metric.figures.items() if rated[s]}
        judged[name] = {s: rated[s] for s in system[name]}
        tested = None if imported is None else imported.significance.get(name)
        if tested is not None and tested.samples is not None:
            by_system = dict(zip(metric.systems, tested.samples, strict=True))
            samples[name] = {s: by_system[s] for s in system[name]}
    names = tuple(m.name for m in found)
    alone = side.system_level_only | {m.name for m in found if not m.segment_level}
    return HumanSide(
        sentence, system, samples, judged, (*side.metrics, *names), infos, frozenset(alone)
    )


def human_side(
    rows: Sequence[JudgmentRow],
    human_figures: Mapping[str, Mapping[str, Score]],
    *,
    normalize: bool,
    bootstrap: Bootstrap | None = None,
    by_system: HumanRows | None = None,
    metrics: Sequence[str] = META_HUMAN,
) -> HumanSide:
    """The human side; with ``bootstrap`` (the table's resampling of the sentences) also
    each judged system's figure on every sample, for the system-level intervals.
    ``by_system``: the rows' statistics, if already grouped
    (:func:`~annotation.statistics.human_rows_by_system`)."""
    system = {h: _system_human(rows, human_figures, h, normalize=normalize) for h in metrics}
    samples: dict[str, dict[str, FloatArray]] = {}
    judged: dict[str, dict[str, int]] = {}
    if bootstrap is not None and rows:
        by_system = human_rows_by_system(rows) if by_system is None else by_system
        for h in metrics:
            systems = list(system[h])
            stats, masks = _segment_stats(
                rows, by_system, systems, h, bootstrap.n_segments, normalize
            )
            per = 1.0 if h == "sser" and normalize else human.HUMAN_METRICS[h].per
            if systems:
                sampled = bootstrap.sample_scores(np.stack([stats[s] for s in systems]), _rate(per))
                samples[h] = dict(zip(systems, sampled, strict=True))
            judged[h] = {s: int(masks[s].sum()) for s in systems}
    numbered, columns = numbered_candidates(rows), Columns(rows)
    return HumanSide(
        sentence={
            h: sentence_human(rows, h, normalize=normalize, numbered=numbered, columns=columns)
            for h in metrics
        },
        system=system,
        samples=samples,
        judged=judged,
        metrics=tuple(metrics),
    )


def _segment_stats(
    rows: Sequence[JudgmentRow],
    by_system: HumanRows,
    systems: Sequence[str],
    metric: str,
    n_segments: int,
    normalize: bool,
) -> tuple[dict[str, FloatArray], dict[str, npt.NDArray[np.bool_]]]:
    """Per system (segments × [numerator, denominator], judged mask) of a human figure:
    the table's statistics, or for normalized SSER the sum of the judgments' z-scores and
    their count (their mean is :func:`_system_human`'s)."""
    if not (metric == "sser" and normalize):
        return human_segment_stats(by_system, systems, metric, n_segments)
    z = normalized_sser(rows)
    scored: dict[str, list[int]] = {}  # each system's scored rows, in row order
    for i in np.flatnonzero(~np.isnan(z)).tolist():
        scored.setdefault(rows[i].system, []).append(i)
    stats: dict[str, FloatArray] = {}
    masks: dict[str, npt.NDArray[np.bool_]] = {}
    for s in systems:
        mine = scored.get(s, [])
        values = [[float(z[i]), 1.0] for i in mine] or np.zeros((0, 2))
        stats[s], masks[s] = rows_by_segment(values, [rows[i].segment for i in mine], n_segments)
    return stats, masks


def _rate(per: float) -> Any:
    """Summed [numerator, denominator] → ``per`` × the rate, NaN where nothing was summed
    (a sample that drew none of a system's judged sentences has no figure for it)."""

    def score(sums: FloatArray) -> FloatArray:
        num, den = sums[..., 0], sums[..., 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den > 0, per * num / np.where(den > 0, den, 1.0), np.nan)

    return score


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
