"""The dashboard's read logic: plain functions over one corpus, and :class:`Dashboard`,
which computes each part of the page on first use (see the package docstring for what
the page shows and why it is fast)."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from annotation.dashboard.cache import (
    AutomaticStats,
    automatic_stats,
    cache_key,
    cached_significance,
    human_cache_key,
)
from annotation.dashboard.charts import bar_chart_svg, rank_chart_svg
from annotation.dashboard.effort import Effort, effort
from annotation.dashboard.judges import Agreement, JudgesPanel, agreement, judges_panel
from annotation.dashboard.meta import MetaEvaluation, meta_evaluation
from annotation.dashboard.preprocessing import Preprocessing, metric_objects
from annotation.formatting import number
from annotation.models import Corpus, Translator
from annotation.scoring import (
    AUTOMATIC_METRICS,
    HUMAN_METRICS,
    JudgmentRow,
    human_figures,
    human_metric_rows,
    judgment_rows,
)
from metrics import human
from metrics.registry import metric_info
from metrics.significance import (
    DEFAULT_ALPHA,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    UNRANKED,
    Bootstrap,
    Interval,
    MetricSignificance,
    rows_by_segment,
)
from metrics.stats import FloatArray, Score

#: The table's columns, in seed 001 Table 1's order of families: automatic, then human.
METRICS: tuple[str, ...] = (*AUTOMATIC_METRICS, *HUMAN_METRICS)

# --------------------------------------------------------------------------- judgments


def human_segment_stats(
    rows: Sequence[JudgmentRow], systems: Sequence[str], metric: str, n_segments: int
) -> tuple[dict[str, FloatArray], dict[str, Any]]:
    """Per system: (segments × 2 statistics, judged-segment mask) of one human metric.

    Two judgments of the same candidate are summed into its segment's row
    (:func:`metrics.significance.rows_by_segment`): the rate over both.
    """
    by_system: dict[str, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        by_system[r.system].append(r)
    stats: dict[str, FloatArray] = {}
    masks: dict[str, Any] = {}
    for s in systems:
        segments, rows_of_s = human_metric_rows(by_system.get(s, []), metric)
        if segments:
            stats[s], masks[s] = rows_by_segment(rows_of_s, segments, n_segments)
        else:
            stats[s] = np.zeros((n_segments, 2), dtype=np.float64)
            masks[s] = np.zeros(n_segments, dtype=np.bool_)
    return stats, masks


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Cell:
    """One figure of the table: ``score`` is ``manage.py scores``'s, ``rank`` the earned
    group (0 = not ranked), ``interval`` the 95% bootstrap interval, ``n`` the sentences
    it rests on (human figures: judged sentences; automatic: all) and ``judgments``."""

    metric: str
    score: float | None
    signature: str
    rank: int
    interval: Interval | None
    n: int
    judgments: int | None
    best: bool
    bootstrap: str

    @property
    def is_human(self) -> bool:
        return metric_info(self.metric).human

    @property
    def has_score(self) -> bool:
        return self.score is not None and math.isfinite(self.score)

    @property
    def display(self) -> str:
        """The figure as the table prints it: two decimals."""
        return number(self.score)

    @property
    def value_attr(self) -> str:
        """Full precision for ``data-value`` (what the page's sorting reads)."""
        return repr(float(self.score)) if self.has_score and self.score is not None else ""

    @property
    def half_width(self) -> str:
        iv = self.interval
        ok = iv is not None and math.isfinite(iv.half_width)
        return f"{iv.half_width:.2f}" if ok and iv is not None else ""

    @property
    def title(self) -> str:
        """What hovering shows: the signature, the interval and the test."""
        if not self.has_score:
            return f"{metric_info(self.metric).label}: no judgments yet"
        parts = [self.signature]
        if self.interval is not None and math.isfinite(self.interval.mean):
            parts.append(
                f"95% interval {self.interval.low:.2f}–{self.interval.high:.2f} "
                f"(mean {self.interval.mean:.2f} ± {self.interval.half_width:.2f})"
            )
        if self.rank:
            parts.append(f"rank group {self.rank}")
        if self.is_human:
            parts.append(f"{self.n} judged sentences, {self.judgments} judgments")
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
class MetricsTable:
    """What the table, its CSV and its JSON show: rows in the requested order, and the
    test's recorded settings."""

    corpus: str
    preprocessing: Preprocessing
    metrics: tuple[str, ...]
    rows: tuple[Row, ...]
    n_samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED
    alpha: float = DEFAULT_ALPHA

    def ranks(self) -> dict[tuple[str, str], int]:
        return {(r.system, c.metric): c.rank for r in self.rows for c in r.cells}


SORT_KEYS = frozenset(METRICS) | {f"-{m}" for m in METRICS}


def sort_rows(rows: Sequence[Row], sort: str) -> tuple[Row, ...]:
    """``metric`` sorts best first, ``-metric`` worst first; no score last; ties and ""
    keep the corpus order. (``static/js/dashboard.js`` sorts the same way in the page.)"""
    if not sort:
        return tuple(rows)
    if sort not in SORT_KEYS:
        raise ValueError(f"sort={sort!r}: a metric ({', '.join(METRICS)}), '-' for worst first")
    metric = sort.lstrip("-")
    flip = metric_info(metric).higher_is_better != sort.startswith("-")

    def key(row: Row) -> tuple[bool, float]:
        c = row.cell(metric)
        if not c.has_score or c.score is None:
            return (True, 0.0)
        return (False, -c.score if flip else c.score)

    return tuple(sorted(rows, key=key))


# --------------------------------------------------------------------------- the whole page


def _finite_or_none(v: float) -> float | None:
    return v if math.isfinite(v) else None


class Dashboard:
    """Everything the dashboard shows about one corpus, each part computed on first use.

    Panels read the same few things — the cached automatic statistics, one query of
    judgments, one bootstrap index matrix — so a panel request (htmx) costs only what
    that panel needs, and the full page computes each thing once.
    """

    def __init__(
        self,
        corpus: Corpus,
        preprocessing: Preprocessing | None = None,
        *,
        normalize: bool = False,
        sort: str = "",
    ) -> None:
        if sort and sort not in SORT_KEYS:
            raise ValueError(f"sort={sort!r}: a metric ({', '.join(METRICS)}), '-' for worst")
        self.corpus = corpus
        self.preprocessing = preprocessing or Preprocessing()
        self.normalize = normalize
        self.sort = sort

    # ---- inputs

    @cached_property
    def auto(self) -> AutomaticStats:
        return automatic_stats(self.corpus, self.preprocessing)

    @cached_property
    def systems(self) -> tuple[str, ...]:
        return self.auto.systems

    @cached_property
    def translator_pks(self) -> dict[str, int]:
        return dict(
            self.corpus.translators.filter(role=Translator.Role.SYSTEM).values_list("name", "pk")
        )

    @cached_property
    def rows(self) -> list[JudgmentRow]:
        return judgment_rows(self.corpus)

    @cached_property
    def human(self) -> dict[str, dict[str, Score]]:
        """``manage.py scores``'s human figures, from the judgments already read
        (:func:`human_figures`; not a second query of the same rows)."""
        return human_figures(self.rows)

    @cached_property
    def bootstrap(self) -> Bootstrap | None:
        """One index matrix for every metric (the test is paired across metrics too)."""
        n = self.auto.n_segments
        return Bootstrap(n, DEFAULT_SAMPLES, DEFAULT_SEED) if n and self.systems else None

    @cached_property
    def metrics(self) -> dict[str, Any]:
        return metric_objects(self.preprocessing)

    # ---- significance and the table

    @cached_property
    def significance(self) -> dict[str, MetricSignificance]:
        """Paired bootstrap of every metric; human metrics on common judged sentences.

        Both halves are kept in the file cache: the automatic one under the statistics'
        key, the human one under a fingerprint of the judgments' statistics (a changed
        judgment changes the fingerprint, so a stale result is never found).
        """
        if not self.auto.n_segments or not self.systems:
            return {}
        out = cached_significance(
            cache_key(self.corpus, self.preprocessing) + ":significance",
            self._automatic_significance,
        )
        if self.rows:
            key = human_cache_key(self.corpus, self.systems, self.auto.n_segments, self.rows)
            out.update(cached_significance(key, self._human_significance))
        return out

    def _automatic_significance(self) -> dict[str, MetricSignificance]:
        bootstrap = self.bootstrap
        if bootstrap is None:  # no segment or no system: ``significance`` returns first
            return {}
        return {
            m: bootstrap.compare(
                self.auto.stats(m),
                self.metrics[m].score_from_stats,
                higher_is_better=metric_info(m).higher_is_better,
                metric=m,
            )
            for m in AUTOMATIC_METRICS
        }

    def _human_significance(self) -> dict[str, MetricSignificance]:
        bootstrap = self.bootstrap
        if bootstrap is None:
            return {}
        out = {}
        for m in HUMAN_METRICS:
            stats, masks = human_segment_stats(self.rows, self.systems, m, self.auto.n_segments)
            out[m] = bootstrap.compare(
                stats,
                human.HUMAN_METRICS[m].score_from_stats,
                higher_is_better=metric_info(m).higher_is_better,
                masks=masks,
                metric=m,
            )
        return out

    @cached_property
    def table(self) -> MetricsTable:
        judgments: dict[tuple[str, str], int] = defaultdict(int)
        for r in self.rows:
            if r.sser is not None:
                judgments[(r.system, "sser")] += 1
            if r.counted:
                judgments[(r.system, "awer")] += 1
                judgments[(r.system, "aser")] += 1
        scores: dict[str, dict[str, Score]] = {m: self.auto.scores[m] for m in AUTOMATIC_METRICS}
        for m in HUMAN_METRICS:
            scores[m] = {s: f[m] for s, f in self.human.items() if m in f}
        best: dict[str, float] = {}
        for m in METRICS:
            finite = [sc.score for sc in scores[m].values() if math.isfinite(sc.score)]
            if finite:
                best[m] = max(finite) if metric_info(m).higher_is_better else min(finite)
        rows = []
        for s in self.systems:
            cells = []
            for m in METRICS:
                score = scores[m].get(s)
                sig = self.significance.get(m)
                fig = sig.figure(s) if sig is not None else None
                value = score.score if score is not None else None
                cells.append(
                    Cell(
                        metric=m,
                        score=value,
                        signature=score.signature if score is not None else "",
                        rank=fig.group if fig is not None and value is not None else UNRANKED,
                        interval=fig.interval if fig is not None and value is not None else None,
                        n=fig.n if fig is not None else 0,
                        judgments=judgments.get((s, m), 0) if m in HUMAN_METRICS else None,
                        best=value is not None and m in best and value == best[m],
                        bootstrap=sig.signature if sig is not None else "",
                    )
                )
            rows.append(Row(s, self.translator_pks.get(s), tuple(cells)))
        return MetricsTable(
            corpus=self.corpus.name,
            preprocessing=self.preprocessing,
            metrics=METRICS,
            rows=sort_rows(rows, self.sort),
        )

    # ---- charts

    def bar_chart(self, metric: str) -> str:
        if metric not in METRICS:
            raise ValueError(f"unknown metric {metric!r}")
        bars = []
        signatures = []
        for s in self.systems:
            c = self.table_by_system[s].cell(metric)
            signatures.append(c.signature)
            iv = c.interval
            ok = iv is not None and math.isfinite(iv.mean)
            bars.append(
                (
                    s,
                    c.score if c.score is not None else math.nan,
                    iv.low if ok and iv is not None else None,
                    iv.high if ok and iv is not None else None,
                    c.rank if c.rank else None,
                )
            )
        info = metric_info(metric)
        unit = "percent" if info.unit == "%" else ""
        return bar_chart_svg(info.label, bars, unit, info.higher_is_better, signatures=signatures)

    def rank_chart(self) -> str:
        ranks = {(s, metric_info(m).label): rank for (s, m), rank in self.table.ranks().items()}
        return rank_chart_svg(
            self.systems, [metric_info(m).label for m in METRICS], ranks, "Rank groups per metric"
        )

    @cached_property
    def table_by_system(self) -> dict[str, Row]:
        return {r.system: r for r in self.table.rows}

    @cached_property
    def charts(self) -> list[tuple[str, str, str]]:
        """(name, title, svg) of the rank chart and one bar chart per metric."""
        out = [("ranks", "Rank groups", self.rank_chart())]
        out += [(m, metric_info(m).label, self.bar_chart(m)) for m in METRICS]
        return out

    # ---- judges, agreement, effort, meta-evaluation

    @cached_property
    def judges(self) -> JudgesPanel:
        return judges_panel(self.rows, self.systems, normalize=self.normalize)

    @cached_property
    def agreement(self) -> Agreement:
        return agreement(self.rows, normalize=self.normalize)

    @cached_property
    def effort(self) -> Effort:
        return effort(self.rows, self.systems)

    @cached_property
    def meta(self) -> MetaEvaluation:
        return meta_evaluation(
            self.auto, self.metrics, self.rows, self.human, normalize=self.normalize
        )

    # ---- for the views

    PANEL_PARTS: ClassVar[dict[str, tuple[str, ...]]] = {
        "table": ("table",),
        "charts": ("table", "charts"),
        "judges": ("judges", "agreement"),
        "effort": ("effort",),
        "meta": ("meta",),
    }

    def prepare(self, *panels: str) -> Dashboard:
        """Compute what ``panels`` show now, so templates only read (no query runs while
        a template renders). No argument: every panel."""
        for name in panels or tuple(self.PANEL_PARTS):
            if name not in self.PANEL_PARTS:
                raise ValueError(
                    f"unknown panel {name!r}: choose one of {', '.join(self.PANEL_PARTS)}"
                )
            for part in self.PANEL_PARTS[name]:
                getattr(self, part)
        self.rows  # noqa: B018 (the page header counts them)
        return self


# --------------------------------------------------------------------------- downloads


def table_json(table: MetricsTable) -> dict[str, Any]:
    """``manage.py scores --json``'s shape — ``{"corpus", "translators": {system: {metric:
    {"score", "signature"}}}}``, the same numbers — plus per figure its ``rank``, 95%
    ``ci`` [low, high], the sentences ``n`` it rests on and the ``bootstrap`` signature,
    and at the top the preprocessing and the test. Missing figures are left out, as
    ``manage.py scores`` does; undefined numbers are ``null``."""
    translators: dict[str, dict[str, Any]] = {}
    for row in table.rows:
        figures: dict[str, Any] = {}
        for c in row.cells:
            if c.score is None:
                continue
            iv = c.interval
            figures[c.metric] = {
                "score": c.score,
                "signature": c.signature,
                "rank": c.rank,
                "ci": [
                    _finite_or_none(iv.low) if iv else None,
                    _finite_or_none(iv.high) if iv else None,
                ],
                "n": c.n,
                "bootstrap": c.bootstrap,
            }
        translators[row.system] = figures
    return {
        "corpus": table.corpus,
        "preprocessing": table.preprocessing.params(),
        "significance": {
            "test": "paired-bs",
            "samples": table.n_samples,
            "seed": table.seed,
            "alpha": table.alpha,
        },
        "translators": translators,
    }


def json_text(table: MetricsTable) -> str:
    return json.dumps(table_json(table), indent=2, ensure_ascii=False, allow_nan=False)


def table_csv(table: MetricsTable) -> str:
    """One row per system; per metric its score (full precision), rank, interval, the
    sentences it rests on and its signature. Empty where there is no figure."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["system"]
    for m in table.metrics:
        header += [m, f"{m}_rank", f"{m}_ci_low", f"{m}_ci_high", f"{m}_n", f"{m}_signature"]
    writer.writerow(header)

    def num(v: float | None) -> str:
        return "" if v is None or not math.isfinite(v) else repr(float(v))

    for row in table.rows:
        line = [row.system]
        for c in row.cells:
            iv = c.interval
            if c.score is None:
                line += ["", "", "", "", "", ""]
                continue
            line += [
                num(c.score),
                str(c.rank),
                num(iv.low if iv else None),
                num(iv.high if iv else None),
                str(c.n),
                c.signature,
            ]
        writer.writerow(line)
    return out.getvalue()
