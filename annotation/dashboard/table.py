"""The metrics table: every metric per system with its bootstrap interval and earned rank
group, the best of each column marked, rows sorted best or worst first.

The figures are ``manage.py scores``'s (:class:`~metrics.stats.Score`, each cell holds its
own); the intervals and rank groups come from :mod:`metrics.significance`'s paired
bootstrap (1,000 samples, seed 12345, p < 0.05), human metrics compared on the sentences
both systems have judgments for.

The columns are the app's metrics (:data:`METRICS`) and, after them, the metrics a lead
imported for the corpus (:mod:`annotation.statistics.external`): a table's columns are
its own (:attr:`MetricsTable.infos`), and each cell and column test carries its
metric's facts, so no part of the table looks a metric up by name.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from annotation.dashboard.estimates import Estimates, SystemEstimate
from annotation.dashboard.pool import Shift, Shifts
from annotation.dashboard.preprocessing import Preprocessing
from annotation.formatting import number
from annotation.statistics import (
    AUTOMATIC_METRICS,
    HUMAN_METRICS,
    PROTOCOL_FIGURES,
    AutomaticStats,
    ExternalFigures,
    HumanRows,
    JudgmentRow,
    human_rows_by_system,
    segment_rows,
)
from metrics import claims, human
from metrics.registry import metric_info
from metrics.reuse import PairMemo, compare_reusing
from metrics.significance import (
    DEFAULT_ALPHA,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    MIN_COMMON,
    UNRANKED,
    Bootstrap,
    Interval,
    MetricSignificance,
)
from metrics.stats import FloatArray, MetricInfo, Score, family_rank

#: Every column the app's table may have, grouped by family (:data:`metrics.stats.
#: FAMILIES`: edit distance, n-gram matches, other, human), each family in its own
#: list's order: the automatic metrics and every protocol's human figures.
ALL_METRICS: tuple[str, ...] = tuple(
    sorted((*AUTOMATIC_METRICS, *HUMAN_METRICS), key=lambda m: family_rank(metric_info(m).family))
)
#: What a published system-level figure's cell says of it (human scores imported as a
#: ``.sys.score`` alone: :attr:`~metrics.stats.MetricInfo.system_level`).
PUBLISHED_NOTE = "published system-level figure: no segment scores, no interval, no rank group"
#: The app's columns with their facts.
BUILT_IN_COLUMNS: dict[str, MetricInfo] = {m: metric_info(m) for m in ALL_METRICS}
#: An aWER corpus's columns (the table's default): the automatic metrics and the human
#: figures of the aWER protocol. A corpus judged by error spans has its protocol's human
#: figures instead (:func:`table_columns`).
METRICS: tuple[str, ...] = tuple(
    m for m in ALL_METRICS if not BUILT_IN_COLUMNS[m].human or m in PROTOCOL_FIGURES["awer"]
)


def table_columns(
    imported: Mapping[str, MetricInfo] | None = None, human: Collection[str] | None = None
) -> dict[str, MetricInfo]:
    """The table's columns with their facts: the app's automatic metrics and the human
    figures of ``human`` (the corpus's protocol's, :func:`~annotation.statistics.
    protocol_figures`; default the aWER protocol's, :data:`METRICS`), then the corpus's
    imported ones (``imported``), in family order."""
    shown = PROTOCOL_FIGURES["awer"] if human is None else human
    app = {m: info for m, info in BUILT_IN_COLUMNS.items() if not info.human or m in shown}
    columns = {**app, **(imported or {})}
    ordered = sorted(columns, key=lambda m: family_rank(columns[m].family))
    return {m: columns[m] for m in ordered}


@dataclass(frozen=True)
class Cell:
    """One figure of the table: ``figure`` is ``manage.py scores``'s
    :class:`~metrics.stats.Score` (None: no figure, e.g. nothing judged yet), ``rank``
    the earned group (0 = not ranked), ``interval`` the 95% percentile bootstrap
    interval, ``n`` the sentences it rests on (human figures: judged sentences;
    automatic: all), ``judgments`` how many judgments enter a human figure,
    ``bootstrap`` the test's signature, ``one_group`` whether its column has too few
    sentences for any rank group to be earned (:class:`ColumnTest`), ``shift`` the
    system's place against the original references and the grown pool (pool choice,
    automatic metrics only); ``info`` the metric's facts."""

    metric: str
    figure: Score | None
    rank: int
    interval: Interval | None
    n: int
    judgments: int | None
    best: bool
    bootstrap: str
    one_group: bool = False
    shift: Shift | None = None
    info: MetricInfo | None = None
    estimate: SystemEstimate | None = None

    @property
    def facts(self) -> MetricInfo:
        """The metric's facts: the cell's own, or the app's metric of its name."""
        return self.info if self.info is not None else metric_info(self.metric)

    @property
    def score(self) -> float | None:
        """The figure the cell shows: the estimate when it ranks by them, else the figure."""
        if self.estimate is not None:
            return self.estimate.mean
        return None if self.figure is None else self.figure.score

    @property
    def shown_rank(self) -> int:
        """The rank group the cell shows: the estimate's, else the bootstrap's."""
        return self.estimate.rank if self.estimate is not None else self.rank

    @property
    def signature(self) -> str:
        return "" if self.figure is None else self.figure.signature

    @property
    def is_human(self) -> bool:
        return self.facts.human

    @property
    def has_score(self) -> bool:
        return self.score is not None and math.isfinite(self.score)

    @property
    def display(self) -> str:
        """The figure as the table prints it: two decimals, or "–"."""
        return number(self.score)

    @property
    def value_attr(self) -> str:
        """Full precision for ``data-value`` (what the page's sorting reads)."""
        return repr(float(self.score)) if self.has_score and self.score is not None else ""

    @property
    def rank_attr(self) -> int:
        """``data-rank``: the earned group, 1 for every figure of a column where no group
        can be earned (the whole column is one group), and 0 (not ranked) without a
        figure: a system nobody judged is in no group, nor one of a column of published
        system-level figures alone (nothing to test them by)."""
        if not self.has_score or self.facts.system_level:
            return UNRANKED
        return 1 if self.one_group else self.shown_rank

    @property
    def too_few(self) -> str:
        """ "too few judged sentences (n = 2)" when the figure rests on too few sentences
        for an interval (:func:`metrics.claims.shortfall`), else "" (also without a
        figure: nothing is claimed, and for a published system-level figure: it rests on
        no sentence here)."""
        if not self.has_score or self.facts.system_level or not claims.too_few(self.n):
            return ""
        return too_few_note(self.n, judged=self.is_human)

    @property
    def shown_interval(self) -> Interval | None:
        """The interval, if the cell has a figure on enough sentences
        (:mod:`metrics.claims`) and the interval is defined (the estimate's t interval
        when the cell shows the estimate)."""
        est = self.estimate
        iv = self.interval if est is None else Interval(est.low, est.high, est.mean)
        if self.too_few or not self.has_score or iv is None:
            return None
        return iv if iv.defined else None

    @property
    def ci_low_attr(self) -> str:
        """``data-ci-low``: the interval's lower end at full precision ("" if none)."""
        iv = self.shown_interval
        return "" if iv is None else repr(float(iv.low))

    @property
    def ci_high_attr(self) -> str:
        iv = self.shown_interval
        return "" if iv is None else repr(float(iv.high))

    @property
    def ci_text(self) -> str:
        """The interval as the table prints it beside the figure: "±1.25" when its two
        arms print alike at the figure's two decimals, "[12.00, 15.50]" when they do
        not, and nothing when it has no spread worth showing (both ends print as one
        number: every resample gave that figure, and "±0.00" would look like a
        certainty the data cannot give)."""
        iv = self.shown_interval
        if iv is None or self.score is None:
            return ""
        low, high = number(iv.low), number(iv.high)
        if low == high:
            return ""
        below, above = number(self.score - iv.low), number(iv.high - self.score)
        if below == above and not below.startswith("-"):
            return f"±{below}"
        return f"[{low}, {high}]"

    @property
    def title(self) -> str:
        """What hovering shows: the signature, the interval and the test."""
        if not self.has_score:
            what = "no judgments yet" if self.is_human else "no score"
            return f"{self.facts.label}: {what}"
        if self.estimate is not None:
            figure = number(None if self.figure is None else self.figure.score)
            return f"{self.estimate.title} · the table's figure {figure}: {self.signature}"
        parts = [self.signature]
        if self.facts.system_level:
            parts.append(PUBLISHED_NOTE)
            return " · ".join(parts)
        iv = self.shown_interval
        if self.too_few:
            parts.append(f"{self.too_few}: no interval")
        elif iv is not None:
            if number(iv.low) == number(iv.high):
                parts.append(f"95% interval: no spread, every resample gives {number(iv.low)}")
            else:
                parts.append(
                    f"95% interval [{number(iv.low)}, {number(iv.high)}] (percentile bootstrap)"
                )
        if self.one_group:
            parts.append("too few sentences to separate systems: one group")
        elif self.rank:
            parts.append(f"rank group {self.rank}")
        if self.is_human:
            judgments = "" if self.judgments is None else f", {self.judgments} judgments"
            parts.append(f"{self.n} judged sentences{judgments}")
        if self.shift is not None:
            parts.append(self.shift.title)
        parts.append(self.bootstrap)
        return " · ".join(parts)


@dataclass(frozen=True)
class Row:
    system: str
    translator_pk: int | None
    cells: tuple[Cell, ...]

    def cell(self, metric: str) -> Cell:
        for c in self.cells:
            if c.metric == metric:
                return c
        raise ValueError(f"unknown metric {metric!r}")


@dataclass(frozen=True)
class ColumnTest:
    """What a column's test can claim: ``too_few`` when no pair of systems has
    :data:`~metrics.significance.MIN_COMMON` sentences in common (then the column is one
    group), ``n`` the most sentences any pair was compared on
    (:attr:`~metrics.significance.MetricSignificance.evidence`)."""

    metric: str
    too_few: bool
    n: int
    info: MetricInfo | None = None

    @property
    def ranks(self) -> str:
        """The header's ``data-ranks``: "too-few" or "earned"."""
        return "too-few" if self.too_few else "earned"

    @property
    def note(self) -> str:
        """The header's warning: "too few judged sentences (n = 2)" ("sentences" for an
        automatic metric, whose pairs are compared on every sentence)."""
        if not self.too_few:
            return ""
        info = self.info if self.info is not None else metric_info(self.metric)
        return too_few_note(self.n, judged=info.human)


def too_few_note(n: int, *, judged: bool = True) -> str:
    """The one wording of "too few to claim anything" (:func:`metrics.claims.
    too_few_note`): "too few judged sentences (n = 2)" ("sentences" for an automatic
    metric). The table's headings and cells, the SSER clusters, the charts (and their
    downloads), the estimates and the meta-evaluation say it alike, so a download never
    reads more confident than the page."""
    return claims.too_few_note(n, "judged sentences" if judged else "sentences")


def column_test(
    metric: str, significance: MetricSignificance | None, info: MetricInfo | None = None
) -> ColumnTest:
    if significance is None:  # nothing to compare yet (no judgment, no system)
        return ColumnTest(metric, True, 0, info)
    return ColumnTest(metric, significance.too_few, significance.evidence, info)


@dataclass(frozen=True)
class MetricsTable:
    """What the table, its CSV and its JSON show: rows in the requested order, what each
    column's test can claim, each column's facts (``infos``, the app's and the imported
    metrics'), and the test's recorded settings."""

    corpus: str
    preprocessing: Preprocessing
    metrics: tuple[str, ...]
    rows: tuple[Row, ...]
    tests: dict[str, ColumnTest] = field(default_factory=dict)
    infos: dict[str, MetricInfo] = field(default_factory=table_columns)
    n_samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED
    alpha: float = DEFAULT_ALPHA
    min_common: int = MIN_COMMON
    #: The human columns show the estimates of the whole corpus (``?rank=estimate``).
    by_estimate: bool = False

    def ranks(self) -> dict[tuple[str, str], int]:
        """Each cell's rank group as shown (the estimates' in their human columns)."""
        return {(r.system, c.metric): c.shown_rank for r in self.rows for c in r.cells}

    def row(self, system: str) -> Row:
        """The row of ``system``, wherever the sort put it (a ``KeyError`` naming a system
        the table has not)."""
        for r in self.rows:
            if r.system == system:
                return r
        raise KeyError(system)


def check_sort(sort: str, columns: Collection[str] = METRICS) -> None:
    """A ``ValueError`` naming ``sort`` unless it is "", a column of ``columns`` (best
    first) or one with "-" before it (worst first)."""
    if sort and sort.removeprefix("-") not in columns:
        raise ValueError(f"sort={sort!r}: a metric ({', '.join(columns)}), '-' for worst first")


def sort_rows(
    rows: Sequence[Row], sort: str, columns: Collection[str] = METRICS
) -> tuple[Row, ...]:
    """``metric`` sorts best first, ``-metric`` worst first; no score last; ties and ""
    keep the corpus order. The page's column headings link to each sort: the table is
    sorted here only."""
    check_sort(sort, columns)
    if not sort or not rows:
        return tuple(rows)
    metric = sort.removeprefix("-")
    flip = rows[0].cell(metric).facts.higher_is_better != sort.startswith("-")

    def key(row: Row) -> tuple[bool, float]:
        c = row.cell(metric)
        if not c.has_score or c.score is None:
            return (True, 0.0)
        return (False, -c.score if flip else c.score)

    return tuple(sorted(rows, key=key))


# the table's construction


def table_figures(
    auto: AutomaticStats,
    human_figures: Mapping[str, Mapping[str, Score]],
    imported: ExternalFigures | None = None,
) -> dict[str, dict[str, Score]]:
    """Per metric (the table's columns) each system's figure: the automatic ones from the
    cached statistics, the human ones (``human_figures``: per system) where judged, and
    the ``imported`` metrics' where the system has scores."""
    figures: dict[str, dict[str, Score]] = {m: dict(auto.scores[m]) for m in AUTOMATIC_METRICS}
    for m in HUMAN_METRICS:
        figures[m] = {s: f[m] for s, f in human_figures.items() if m in f}
    if imported is not None:
        figures.update(imported.figures())
    return figures


def best_values(
    figures: Mapping[str, Mapping[str, Score]], infos: Mapping[str, MetricInfo] | None = None
) -> dict[str, float]:
    """Each column's best finite figure (the highest or the lowest, as the metric points):
    every cell holding it is marked, ties included — where the column's rank groups are
    earned; a column with too few sentences to separate any pair marks no best (its
    verdict says "best figure so far"), and its chart does the same."""
    known = BUILT_IN_COLUMNS if infos is None else infos
    best: dict[str, float] = {}
    for m, by_system in figures.items():
        finite = [sc.score for sc in by_system.values() if math.isfinite(sc.score)]
        if finite:
            higher = (known[m] if m in known else metric_info(m)).higher_is_better
            best[m] = max(finite) if higher else min(finite)
    return best


def metrics_table(
    corpus: str,
    preprocessing: Preprocessing,
    systems: Sequence[str],
    figures: Mapping[str, Mapping[str, Score]],
    significance: Mapping[str, MetricSignificance],
    translator_pks: Mapping[str, int],
    *,
    sort: str = "",
    shifts: Shifts | None = None,
    n_samples: int | None = None,
    columns: Mapping[str, MetricInfo] | None = None,
    estimates: Estimates | None = None,
) -> MetricsTable:
    """The table of ``figures`` (:func:`table_figures`) with the bootstrap's intervals
    and rank groups, one row per system, sorted as ``sort`` asks (:func:`sort_rows`);
    ``shifts``: each automatic figure's move in the ranking (the pool choice);
    ``n_samples``: the bootstrap's samples, as the table states them (default 1,000);
    ``columns``: the columns with their facts (default: the app's metrics,
    :func:`table_columns`); ``estimates``: the human columns show these estimates of the
    whole corpus instead, with their intervals and rank groups (``?rank=estimate``)."""
    infos = dict(table_columns() if columns is None else columns)
    metrics = tuple(infos)
    moved = shifts or {}
    best = best_values(figures, infos)
    if estimates is not None:
        best.update(_best_estimates(estimates))

    def estimate(m: str, s: str) -> SystemEstimate | None:
        return None if estimates is None else estimates.get(m, s)

    tests = {m: column_test(m, significance.get(m), infos[m]) for m in metrics}
    rows = [
        Row(
            s,
            translator_pks.get(s),
            tuple(
                _cell(
                    m,
                    s,
                    figures.get(m, {}).get(s),
                    significance.get(m),
                    best,
                    tests[m].too_few,
                    moved.get(m, {}).get(s),
                    infos[m],
                    estimate(m, s),
                )
                for m in metrics
            ),
        )
        for s in systems
    ]
    return MetricsTable(
        corpus=corpus,
        preprocessing=preprocessing,
        metrics=metrics,
        rows=sort_rows(rows, sort, metrics),
        tests=tests,
        n_samples=DEFAULT_SAMPLES if n_samples is None else n_samples,
        infos=infos,
        by_estimate=estimates is not None,
    )


def _best_estimates(estimates: Estimates) -> dict[str, float]:
    """Each human column's best estimate (the lowest or the highest, as it points)."""
    out = {}
    for m in estimates.metrics:
        means = [e.mean for e in m.systems]
        if means:
            out[m.metric] = max(means) if m.info.higher_is_better else min(means)
    return out


def _cell(
    metric: str,
    system: str,
    figure: Score | None,
    significance: MetricSignificance | None,
    best: Mapping[str, float],
    one_group: bool,
    shift: Shift | None = None,
    info: MetricInfo | None = None,
    estimate: SystemEstimate | None = None,
) -> Cell:
    facts = info if info is not None else metric_info(metric)
    shown = estimate.mean if estimate is not None else None if figure is None else figure.score
    # a system added after an import has no imported score, nor a place in its test
    tested = None
    if significance is not None and system in significance.systems:
        tested = significance.figure(system)
    ranked = tested is not None and figure is not None
    judgments = None
    if facts.human and facts.family == "human":
        # a human figure's statistics have one row per judgment that enters it (human
        # scores imported have no judgments: one row per sentence)
        judgments = 0 if figure is None or figure.stats is None else len(figure.stats)
    return Cell(
        metric=metric,
        figure=figure,
        rank=tested.group if ranked and tested is not None else UNRANKED,
        interval=tested.interval if ranked and tested is not None else None,
        n=tested.n if tested is not None else 0,
        judgments=judgments,
        best=not one_group and shown is not None and metric in best and shown == best[metric],
        bootstrap=significance.signature if significance is not None else "",
        one_group=one_group,
        shift=shift,
        info=facts,
        estimate=estimate,
    )


# the paired bootstrap behind the intervals and rank groups


def human_significance(
    rows: Sequence[JudgmentRow],
    systems: Sequence[str],
    n_segments: int,
    bootstrap: Bootstrap,
    by_system: HumanRows | None = None,
    memo: PairMemo | None = None,
) -> dict[str, MetricSignificance]:
    """Paired bootstrap of every human metric, two systems compared on the sentences both
    have judgments for (the masks). ``by_system``: the rows' statistics, if already
    grouped (:func:`~annotation.statistics.human.human_rows_by_system`). ``memo``: each
    system's figure and each pair's test kept by their inputs, computed only where a
    judgment changed them, the same figures to the bit (:mod:`metrics.reuse`)."""
    grouped = human_rows_by_system(rows) if by_system is None else by_system
    out = {}
    for m in HUMAN_METRICS:
        stats, masks = human_segment_stats(grouped, systems, m, n_segments)
        score, info = human.HUMAN_METRICS[m].score_from_stats, metric_info(m)
        better, bounds = info.higher_is_better, info.bounds
        found = None
        if memo is not None:  # the same figures, the unchanged pairs kept
            found = compare_reusing(
                bootstrap,
                stats,
                score,
                higher_is_better=better,
                masks=masks,
                metric=m,
                memo=memo,
                bounds=bounds,
            )
        if found is None:
            found = bootstrap.compare(
                stats, score, higher_is_better=better, masks=masks, metric=m, bounds=bounds
            )
        out[m] = found
    return out


def human_segment_stats(
    by_system: HumanRows, systems: Sequence[str], metric: str, n_segments: int
) -> tuple[dict[str, FloatArray], dict[str, npt.NDArray[np.bool_]]]:
    """Per system: (segments × 2 statistics, judged-segment mask) of one human metric.

    Two judgments of the same candidate are summed into its segment's row
    (:func:`metrics.significance.rows_by_segment`): the rate over both.
    """
    stats: dict[str, FloatArray] = {}
    masks: dict[str, npt.NDArray[np.bool_]] = {}
    for s in systems:
        found = by_system.get(s, {}).get(metric)
        if found is not None:
            stats[s], masks[s] = segment_rows(found, n_segments)
        else:
            stats[s] = np.zeros((n_segments, 2), dtype=np.float64)
            masks[s] = np.zeros(n_segments, dtype=np.bool_)
    return stats, masks
