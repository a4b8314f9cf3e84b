"""The table's charts (:mod:`annotation.dashboard.charts`,
:mod:`annotation.dashboard.rank_chart` draw them): one bar chart per metric, each system's
figure with the table's interval and rank group, and the rank groups of every metric.

Each chart is drawn from a few values per system (:func:`drawn`): a judgment moves the
human figures of one system, and the automatic metrics' charts (most of them) not at
all, so each SVG is kept in the process by what it is drawn from, written out exactly
(``repr``: every float to its last bit), and a view after a judgment draws again only
the charts whose values moved."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from annotation.changes import Stamp
from annotation.dashboard.charts import Bar, bar_chart_svg
from annotation.dashboard.rank_chart import rank_chart_svg
from annotation.dashboard.table import Cell, MetricsTable
from annotation.statistics import CACHE, Shelf
from metrics.stats import MetricInfo

#: Each chart's SVG (about 20 KB) in this process's memory, by what it is drawn from: a
#: few corpora's charts (21 at most a corpus), the least recently drawn first to go.
CHARTS = Shelf("chart-svg", Stamp.NONE, 128)


def metric_bar_chart(
    info: MetricInfo, systems: Sequence[str], cells: Sequence[Cell], note: str
) -> str:
    """The SVG of a metric's bar chart (``info`` its facts): each of ``systems`` with its
    table cell (``cells``, in the same order), and the table's ``note`` on its test."""
    bars = [_bar(s, c) for s, c in zip(systems, cells, strict=True)]
    unit = "percent" if info.unit == "%" else ""
    signatures = [c.signature for c in cells]
    return drawn(
        ("bars", info.label, bars, unit, info.higher_is_better, signatures, info.bounds, note),
        lambda: bar_chart_svg(
            info.label,
            bars,
            unit,
            info.higher_is_better,
            signatures=signatures,
            bounds=info.bounds,
            note=note,
        ),
    )


def rank_groups_chart(
    table: MetricsTable, columns: Mapping[str, MetricInfo], systems: Sequence[str]
) -> str:
    """The SVG of every metric's rank groups (``columns``: the table's metrics)."""
    label = {m: info.label for m, info in columns.items()}
    ranks = {(s, label[m]): rank for (s, m), rank in table.ranks().items()}
    notes = {label[m]: t.note for m, t in table.tests.items() if t.note}
    labels = list(label.values())
    return drawn(
        ("ranks", systems, labels, ranks, notes),
        lambda: rank_chart_svg(systems, labels, ranks, "Rank groups per metric", notes=notes),
    )


def drawn(values: tuple[object, ...], draw: Callable[[], str]) -> str:
    """``draw()``'s SVG, drawn from ``values`` alone: the one kept under their ``repr``
    (strings, numbers, tuples, lists, dicts and dataclasses of them: exact, NaN and −0.0
    told apart), else drawn and kept."""
    found: str = CACHE.get_or_set(CHARTS.key(None, repr(values)), draw)
    return found


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
