"""The rank chart (seed 001 Figure 2): systems down, metrics across, each cell a system's
rank group for the metric, coloured better / intermediate / worse. The markup helpers,
colours and escaping are the bar chart's (:mod:`annotation.dashboard.charts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from annotation.dashboard.charts import (
    COLOURS,
    LABEL_X,
    MUTED,
    category,
    esc,
    short_label,
    svg_open,
    vnum,
)
from annotation.formatting import MISSING

# layout (viewBox units)
CELL = 64
RANK_LABEL_WIDTH = 184
RANK_TOP = 64
RANK_ROW = 30
LEGEND = 56


@dataclass(frozen=True)
class RankGrid:
    """The rank chart's layout: systems down, metrics across, a legend below."""

    n_systems: int
    n_metrics: int

    @property
    def width(self) -> float:
        return RANK_LABEL_WIDTH + CELL * max(self.n_metrics, 1) + 16

    @property
    def height(self) -> float:
        return RANK_TOP + RANK_ROW * max(self.n_systems, 1) + LEGEND

    @property
    def legend_y(self) -> float:
        return RANK_TOP + RANK_ROW * max(self.n_systems, 1) + 24

    def cx(self, j: int) -> float:
        return RANK_LABEL_WIDTH + CELL * j + CELL / 2

    def cy(self, i: int) -> float:
        return RANK_TOP + RANK_ROW * i + RANK_ROW / 2


def rank_chart_svg(
    systems: Sequence[str],
    metrics: Sequence[str],
    ranks: Mapping[tuple[str, str], int],
    title: str = "Rank groups per metric",
    *,
    notes: Mapping[str, str] | None = None,
) -> str:
    """Seed 001 Figure 2 for all systems × metrics: one dot per cell with its group number.

    Rows are systems, columns metrics, in the given orders. A cell's colour says
    better (group 1) / intermediate / worse (the metric's last group); a missing or 0
    rank draws a grey "–". ``notes``: per metric whose ranks are not earned, the table's
    words ("too few judged sentences (n = 2)"): its column is drawn grey (one group is no
    "better"), says "too few" under its name (``data-ranks="too-few"``) and puts the
    words in every cell's title. Cells are ``<g class="cell" data-system data-metric
    data-rank>`` with a ``<title>``.
    """
    noted = notes or {}
    for key, value in ranks.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"rank {value!r} of {key!r} must be a non-negative integer")
    grid = RankGrid(len(systems), len(metrics))
    out = svg_open(
        grid.width,
        grid.height,
        f"{title}: {len(systems)} systems × {len(metrics)} metrics",
        title,
        "Rank group of each system per metric, 1 = better; systems in one group do not "
        "differ significantly (paired bootstrap, p ≥ 0.05, or fewer than 10 sentences in "
        "common).",
    )
    out.append(f'<text x="{LABEL_X}" y="20" font-size="15" font-weight="600">{esc(title)}</text>')
    last = {m: max([ranks.get((s, m), 0) for s in systems], default=0) for m in metrics}
    for j, metric in enumerate(metrics):
        note = noted.get(metric, "")
        tip = f"{metric}: {note}" if note else metric
        out.append(
            f'<text class="metric" x="{vnum(grid.cx(j))}" y="{RANK_TOP - 12}" '
            f'text-anchor="middle" font-weight="600"><title>{esc(tip)}</title>'
            f"{esc(short_label(metric, 10))}</text>"
        )
        if note:
            out.append(
                f'<text class="too-few" data-ranks="too-few" data-metric="{esc(metric)}" '
                f'x="{vnum(grid.cx(j))}" y="{RANK_TOP - 28}" text-anchor="middle" '
                f'font-size="10" fill="{COLOURS["worse"]}"><title>{esc(note)}</title>'
                "too few</text>"
            )
    for i, system in enumerate(systems):
        out += _rank_row(grid, i, system, metrics, ranks, last, noted)
    out += _legend(grid.legend_y)
    out.append("</svg>")
    return "\n".join(out)


def _rank_row(
    grid: RankGrid,
    i: int,
    system: str,
    metrics: Sequence[str],
    ranks: Mapping[tuple[str, str], int],
    last: Mapping[str, int],
    notes: Mapping[str, str],
) -> list[str]:
    """One system's row: a stripe on every other row, its name, one cell per metric."""
    cy = grid.cy(i)
    out = []
    if i % 2 == 0:
        out.append(
            f'<rect x="0" y="{vnum(cy - RANK_ROW / 2)}" width="{vnum(grid.width)}" '
            f'height="{RANK_ROW}" fill="#f6f8fa"/>'
        )
    out.append(
        f'<text class="system" x="{RANK_LABEL_WIDTH - 8}" y="{vnum(cy + 4)}" '
        f'text-anchor="end"><title>{esc(system)}</title>{esc(short_label(system))}</text>'
    )
    for j, metric in enumerate(metrics):
        group = ranks.get((system, metric), 0)
        note = notes.get(metric, "")
        out.append(_rank_cell(system, metric, group, last[metric], grid.cx(j), cy, note))
    return out


def _rank_cell(
    system: str, metric: str, group: int, last: int, cx: float, cy: float, note: str = ""
) -> str:
    word = "none" if note else category(group, last)
    if group >= 1:
        tip = f"{system} · {metric}: group {group} ({note or word})"
        mark = (
            f'<circle cx="{vnum(cx)}" cy="{vnum(cy)}" r="11" fill="{COLOURS[word]}"/>'
            f'<text x="{vnum(cx)}" y="{vnum(cy + 4)}" text-anchor="middle" '
            f'fill="#fff" font-weight="600">{group}</text>'
        )
    else:
        tip = f"{system} · {metric}: not ranked"
        mark = (
            f'<text x="{vnum(cx)}" y="{vnum(cy + 4)}" text-anchor="middle" '
            f'fill="{COLOURS["none"]}">{MISSING}</text>'
        )
    return (
        f'<g class="cell" data-system="{esc(system)}" data-metric="{esc(metric)}" '
        f'data-rank="{group if group >= 1 else ""}"><title>{esc(tip)}</title>{mark}</g>'
    )


def _legend(legend_y: float) -> list[str]:
    """Figure 2's three words with their colours, and how to read a group number."""
    x = LABEL_X
    out = ['<g class="legend">']
    for word, text in (
        ("better", "1 better"),
        ("intermediate", "intermediate"),
        ("worse", "last group: worse"),
    ):
        out.append(
            f'<circle cx="{x + 7}" cy="{legend_y - 4}" r="6" fill="{COLOURS[word]}"/>'
            f'<text x="{x + 18}" y="{legend_y}">{esc(text)}</text>'
        )
        x += 24 + 8 * len(text)
    out.append(
        f'<text x="{LABEL_X}" y="{legend_y + 20}" fill="{MUTED}">'
        f"{esc('A higher number is significantly worse than the group above it.')}</text>"
    )
    out.append("</g>")
    return out
