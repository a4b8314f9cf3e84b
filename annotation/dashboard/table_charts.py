"""The table's charts (:mod:`annotation.dashboard.charts`,
:mod:`annotation.dashboard.rank_chart` draw them): one bar chart per metric, each system's
figure with the table's interval and rank group, and the rank groups of every metric."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from annotation.dashboard.charts import Bar, bar_chart_svg
from annotation.dashboard.rank_chart import rank_chart_svg
from annotation.dashboard.table import Cell, MetricsTable
from metrics.stats import MetricInfo


def metric_bar_chart(
    info: MetricInfo, systems: Sequence[str], cells: Sequence[Cell], note: str
) -> str:
    """The SVG of a metric's bar chart (``info`` its facts): each of ``systems`` with its
    table cell (``cells``, in the same order), and the table's ``note`` on its test."""
    return bar_chart_svg(
        info.label,
        [_bar(s, c) for s, c in zip(systems, cells, strict=True)],
        "percent" if info.unit == "%" else "",
        info.higher_is_better,
        signatures=[c.signature for c in cells],
        bounds=info.bounds,
        note=note,
    )


def rank_groups_chart(
    table: MetricsTable, columns: Mapping[str, MetricInfo], systems: Sequence[str]
) -> str:
    """The SVG of every metric's rank groups (``columns``: the table's metrics)."""
    label = {m: info.label for m, info in columns.items()}
    ranks = {(s, label[m]): rank for (s, m), rank in table.ranks().items()}
    notes = {label[m]: t.note for m, t in table.tests.items() if t.note}
    return rank_chart_svg(
        systems, list(label.values()), ranks, "Rank groups per metric", notes=notes
    )


def _bar(system: str, cell: Cell) -> Bar:
    """A table cell as a bar: no figure is NaN (no bar), an undefined interval none; the
    whisker is the table's interval, inside the metric's range."""
    iv = cell.shown_interval
    return Bar(
        system,
        cell.score if cell.score is not None else math.nan,
        iv.low if iv is not None else None,
        iv.high if iv is not None else None,
        cell.shown_rank or None,
        cell.n if cell.has_score else None,
    )
