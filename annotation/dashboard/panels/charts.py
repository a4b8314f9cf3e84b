"""The charts panel: seed 001 Figure 2, earned — the rank groups, then one bar chart per
metric with its 95% intervals; and each chart alone as an SVG file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from annotation.dashboard.figures import table
from annotation.dashboard.parts import Parts, Pending, panel
from annotation.dashboard.sources import columns, systems
from annotation.dashboard.table import MetricsTable
from annotation.dashboard.table_charts import metric_bar_chart, rank_groups_chart


class Chart(NamedTuple):
    name: str
    title: str
    svg: str


@dataclass(frozen=True)
class ChartsPanel:
    charts: tuple[Chart, ...]


@panel("charts", title="Charts")
def charts_panel(parts: Parts) -> ChartsPanel | Pending:
    """The rank chart and one bar chart per metric."""
    found = parts.get(table)
    if isinstance(found, Pending):
        return found
    out = [Chart("ranks", "Rank groups", _rank_chart(parts, found))]
    out += [
        Chart(m, info.label, _bar_chart(parts, found, m)) for m, info in parts.get(columns).items()
    ]
    return ChartsPanel(tuple(out))


def chart_svg(parts: Parts, name: str) -> str | Pending:
    """The SVG of one chart: ``ranks`` or a metric's bar chart (a ``ValueError`` naming
    any other ``name``)."""
    known = parts.get(columns)
    if name != "ranks" and name not in known:
        raise ValueError(f"unknown chart {name!r}: ranks or one of {', '.join(known)}")
    found = parts.get(table)
    if isinstance(found, Pending):
        return found
    return _rank_chart(parts, found) if name == "ranks" else _bar_chart(parts, found, name)


def _rank_chart(parts: Parts, found: MetricsTable) -> str:
    return rank_groups_chart(found, parts.get(columns), parts.get(systems))


def _bar_chart(parts: Parts, found: MetricsTable, metric: str) -> str:
    names = parts.get(systems)
    cells = [found.row(s).cell(metric) for s in names]
    note = found.tests[metric].note
    return metric_bar_chart(parts.get(columns)[metric], names, cells, note)
