"""Inline SVG charts for the leads' dashboard (issue 5), drawn on the server.

No chart library, no CDN, no Django (:mod:`annotation.formatting` imports none): each
function returns one ``<svg>`` element as a string (the rank chart's are in
:mod:`annotation.dashboard.rank_chart`) that a template can put inline
(``|safe``) or a view can serve for download.
Everything a system or metric name contributes is XML-escaped here, because system
names come from uploaded corpora and are untrusted. Characters XML 1.0 forbids (control
characters) become U+FFFD, so every chart parses as XML.

Geometry — the value axis and its ticks, where each bar, whisker and rank cell sits — is
plain functions and frozen dataclasses (:class:`ValueAxis`, :func:`bar_geometry`,
:class:`~annotation.dashboard.rank_chart.RankGrid`); the ``*_svg`` functions and their
helpers only turn it into markup.

Accessibility: the ``<svg>`` has ``role="img"``, an ``aria-label`` and a ``<title>``
(plus a ``<desc>`` saying which direction is better); each bar and each cell carries
its own ``<title>`` (shown on hover) with the exact figures. Rank groups are written as
numbers as well as colours, so nothing depends on telling colours apart.

The charts follow seed 001 Figure 2, which ranks each translator per metric as
"1 better / 2 intermediate / 3 worse"; here the groups come from
:func:`metrics.significance.rank_groups` and may number more than three, so the colour
says *better* (group 1), *worse* (the metric's last group) or *intermediate*.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from annotation.formatting import MISSING, number
from metrics.claims import UNBOUNDED, too_few

WIDTH = 640
FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif"

# layout of the bar chart (viewBox units)
LABEL_X = 8
PLOT_LEFT = 184
PLOT_RIGHT = 520
TOP = 52
ROW = 28
BAR_HEIGHT = 16
AXIS = 32

#: The rank groups' colours, also the table's (static/css/dashboard.css): white text on
#: each, and "none" as text on white or on the rank chart's rows, is 4.5:1 or more.
COLOURS = {
    "better": "#1a7f37",
    "intermediate": "#9a6700",
    "worse": "#cf222e",
    "none": "#656d76",
}
INK = "#1d1d1f"
MUTED = "#57606a"
GRID = "#d0d7de"

MAX_LABEL = 24

_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass(frozen=True)
class Bar:
    """One bar of :func:`bar_chart_svg`: a system's figure, its 95% interval (None where
    unknown), its rank group (None or 0: not ranked) and ``n``, the sentences it rests on
    (None: not said). A NaN ``value`` draws no bar."""

    label: str
    value: float
    ci_low: float | None = None
    ci_high: float | None = None
    group: int | None = None
    n: int | None = None

    @property
    def interval(self) -> tuple[float, float] | None:
        """(low, high) when both ends are finite numbers, and the figure rests on enough
        sentences for one (:func:`metrics.claims.too_few`)."""
        if self.ci_low is None or self.ci_high is None or self.too_few:
            return None
        if not (_finite(self.ci_low) and _finite(self.ci_high)):
            return None
        return float(self.ci_low), float(self.ci_high)

    @property
    def ranked(self) -> bool:
        return self.group is not None and self.group >= 1

    @property
    def too_few(self) -> bool:
        """Whether the figure rests on too few sentences for an interval (n said)."""
        return self.n is not None and too_few(self.n)

    @property
    def n_text(self) -> str:
        """ "n = 12", or "n = 3, too few for an interval" ("" when n is not said)."""
        if self.n is None:
            return ""
        return f"n = {self.n}, too few for an interval" if self.too_few else f"n = {self.n}"


def category(group: int | None, last_group: int) -> str:
    """Seed 001 Figure 2's three words for a group number: better / intermediate / worse."""
    if group is None or group < 1:
        return "none"
    if group == 1:
        return "better"
    return "worse" if group == last_group else "intermediate"


def _finite(v: float | None) -> bool:
    return v is not None and math.isfinite(v)


# geometry


def nice_step(span: float, ticks: int = 5) -> float:
    """A 1, 2, 2.5 or 5 × 10^k step giving about ``ticks`` intervals over ``span``."""
    raw = span / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    for mult in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= mult * power:
            return mult * power
    return 10.0 * power


@dataclass(frozen=True)
class ValueAxis:
    """The bar chart's horizontal scale: [``lo``, ``hi``] in ``step``s onto the plot."""

    lo: float
    hi: float
    step: float

    def x(self, value: float) -> float:
        return PLOT_LEFT + (value - self.lo) / (self.hi - self.lo) * (PLOT_RIGHT - PLOT_LEFT)

    def ticks(self) -> list[float]:
        """``lo``, ``lo + step``, … up to ``hi`` (summed step by step, as drawn)."""
        out = []
        tick = self.lo
        while tick <= self.hi + self.step / 2:
            out.append(tick)
            tick += self.step
        return out


def value_axis(bars: Sequence[Bar], bounds: tuple[float, float] = UNBOUNDED) -> ValueAxis:
    """An axis over every finite value and interval end, and 0, so bar lengths are
    proportional to the values; its ends are whole steps, never beyond ``bounds`` (the
    metric's range: an error rate's axis does not run below 0 nor a share's above 100)."""
    extents = [float(b.value) for b in bars if math.isfinite(b.value)]
    ends = [v for b in bars for v in (b.ci_low, b.ci_high) if v is not None]
    extents += [float(v) for v in ends if math.isfinite(v)]
    lowest, highest = bounds
    lo = max(min([0.0, *extents]), lowest)
    hi = min(max([0.0, *extents]), highest)
    if hi == lo:  # every value is 0: a unit axis inside the range
        hi, lo = (lo + 1.0, lo) if lo + 1.0 <= highest else (hi, hi - 1.0)
    step = nice_step(hi - lo)
    return ValueAxis(
        max(math.floor(lo / step) * step, lowest), min(math.ceil(hi / step) * step, highest), step
    )


@dataclass(frozen=True)
class BarGeometry:
    """Where bar ``i`` sits: its row's vertical middle, the filled span (None: no value),
    the whisker's ends (None: no interval) and where its value label starts."""

    mid: float
    fill: tuple[float, float] | None
    whisker: tuple[float, float] | None
    label_x: float


def bar_geometry(i: int, bar: Bar, axis: ValueAxis) -> BarGeometry:
    mid = TOP + ROW * i + ROW / 2
    zero = axis.x(0.0)
    end = zero
    fill = None
    if math.isfinite(bar.value):
        x_val = axis.x(float(bar.value))
        fill = (min(zero, x_val), max(zero, x_val))
        end = fill[1]
    whisker = None
    if bar.interval is not None:
        whisker = (axis.x(bar.interval[0]), axis.x(bar.interval[1]))
        end = max(end, whisker[1])
    return BarGeometry(mid, fill, whisker, end + 6)


def best_value(bars: Sequence[Bar], higher_is_better: bool) -> float | None:
    """The best finite value (every bar holding it is marked), None if there is none."""
    finite = [float(b.value) for b in bars if math.isfinite(b.value)]
    if not finite:
        return None
    return max(finite) if higher_is_better else min(finite)


# markup


def esc(text: object) -> str:
    """Text safe for XML content *and* attribute values (quotes escaped too)."""
    return html.escape(_XML_INVALID.sub("\ufffd", str(text)), quote=True)


def short_label(label: str, limit: int = MAX_LABEL) -> str:
    """The label cut to ``limit`` characters with an ellipsis (the full one is in a title)."""
    return label if len(label) <= limit else label[: limit - 1] + "…"


def vnum(v: float) -> str:
    """A coordinate with at most two decimals (short, stable output)."""
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _fmt(v: float | None) -> str:
    """A figure with :func:`annotation.formatting.number`'s two decimals; a chart says
    "n/a" where the pages print "–"."""
    text = number(v)
    return "n/a" if text == MISSING else text


def svg_open(width: float, height: float, label: str, title: str, desc: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {vnum(width)} {vnum(height)}" '
        f'width="{vnum(width)}" height="{vnum(height)}" role="img" aria-label="{esc(label)}" '
        f'font-family="{esc(FONT)}" font-size="12" fill="{INK}">',
        f"<title>{esc(title)}</title>",
        f"<desc>{esc(desc)}</desc>",
    ]


def bar_chart_svg(
    title: str,
    bars: Sequence[Bar],
    unit: str = "",
    higher_is_better: bool = True,
    *,
    signatures: Sequence[str] = (),
    bounds: tuple[float, float] = UNBOUNDED,
    note: str = "",
) -> str:
    """One metric's figures as horizontal bars with 95% interval whiskers; the axis never
    leaves ``bounds``, the metric's range (:attr:`metrics.stats.MetricInfo.bounds`).

    Bars keep the given order. The axis starts at 0 (or below, for negative values) so
    bar lengths are proportional to the values. Each value says the n it rests on ("n =
    3, too few for an interval" below :data:`metrics.claims.MIN_SENTENCES`: no whisker).
    ``note`` is the table's warning that the ranks are not earned ("too few judged
    sentences (n = 2)"): the chart prints it under the title (``text.too-few``,
    ``data-ranks="too-few"`` on the ``<svg>``) and then marks no best. Otherwise the best
    value (highest, or lowest when ``higher_is_better`` is false) is marked "★ best" on
    every bar that has it, as the dashboard's table marks every tied best cell; fills
    are coloured by rank group (:func:`category`). A NaN value draws no bar and reads
    "n/a". ``signatures``, parallel to ``bars`` when given, end each bar's hover title,
    so a figure in a chart says how it was computed as it does in the table. Hooks for
    styling and tests: ``<g class="bar" data-label data-value data-rank>`` holding
    ``rect.bar-fill`` and ``g.ci`` (``data-low``, ``data-high``).
    """
    if signatures and len(signatures) != len(bars):
        raise ValueError(f"{len(signatures)} signatures for {len(bars)} bars: one per bar")
    direction = "higher is better" if higher_is_better else "lower is better"
    height = TOP + ROW * max(len(bars), 1) + AXIS
    summary = f"{title}: {len(bars)} systems, {direction}"
    desc = f"Bar chart with 95% percentile intervals; {direction}."
    if note:
        summary += f"; {note}"
        desc += f" Ranks not earned: {note}; no best is marked."
    out = svg_open(WIDTH, height, summary, title, desc)
    if note:
        out[0] = out[0].replace("<svg ", '<svg data-ranks="too-few" ', 1)
    out.append(f'<text x="{LABEL_X}" y="20" font-size="15" font-weight="600">{esc(title)}</text>')
    out.append(
        f'<text x="{LABEL_X}" y="38" fill="{MUTED}">{esc(direction)}'
        f"{esc(f' · {unit}' if unit else '')} · whiskers: 95% percentile bootstrap interval</text>"
    )
    if note:
        out.append(
            f'<text class="too-few" data-note="too-few" x="{PLOT_RIGHT + 112}" y="20" '
            f'text-anchor="end" fill="{COLOURS["worse"]}">{esc(note)}</text>'
        )
    if not bars:
        out.append(f'<text x="{PLOT_LEFT}" y="{TOP + 18}" fill="{MUTED}">no data</text></svg>')
        return "\n".join(out)
    axis = value_axis(bars, bounds)
    out += _axis_markup(axis, TOP + ROW * len(bars))
    best = None if note else best_value(bars, higher_is_better)
    last_group = max([b.group for b in bars if b.ranked and b.group is not None], default=0)
    for i, bar in enumerate(bars):
        out += _bar_markup(
            bar,
            bar_geometry(i, bar, axis),
            colour=COLOURS[category(bar.group, last_group)],
            is_best=float(bar.value) == best,
            unit=unit,
            signature=signatures[i] if signatures else "",
        )
    out.append("</svg>")
    return "\n".join(out)


def _axis_markup(axis: ValueAxis, plot_bottom: float) -> list[str]:
    """The grid lines with their tick labels, and the zero line."""
    out = []
    for tick in axis.ticks():
        x = axis.x(tick)
        out.append(
            f'<line class="grid" x1="{vnum(x)}" y1="{TOP - 4}" x2="{vnum(x)}" '
            f'y2="{plot_bottom}" stroke="{GRID}" stroke-width="1"/>'
        )
        out.append(
            f'<text class="tick" x="{vnum(x)}" y="{plot_bottom + 16}" text-anchor="middle" '
            f'fill="{MUTED}">{vnum(round(tick, 10))}</text>'
        )
    zero = axis.x(0.0)
    out.append(
        f'<line class="axis" x1="{vnum(zero)}" y1="{TOP - 4}" x2="{vnum(zero)}" '
        f'y2="{plot_bottom}" stroke="{INK}" stroke-width="1"/>'
    )
    return out


def _bar_tip(bar: Bar, *, is_best: bool, unit: str, signature: str) -> str:
    """A bar's hover title: the figure, its interval, rank group, "best", signature."""
    tip = f"{bar.label}: {_fmt(float(bar.value))}{f' {unit}' if unit else ''}"
    if bar.interval is not None:
        tip += f" (95% interval {_fmt(bar.ci_low)}–{_fmt(bar.ci_high)})"
    if bar.ranked:
        tip += f", rank group {bar.group}"
    if bar.n_text:
        tip += f", {bar.n_text}"
    if is_best:
        tip += ", best"
    if signature:
        tip += f" · {signature}"
    return tip


def _bar_markup(
    bar: Bar, geo: BarGeometry, *, colour: str, is_best: bool, unit: str, signature: str
) -> list[str]:
    """One ``<g class="bar">``: title, label, fill, whisker and the value's text."""
    value = float(bar.value)
    mid = geo.mid
    rank = "" if bar.group is None else str(bar.group)
    best_attr = ' data-best="true"' if is_best else ""
    n_attr = "" if bar.n is None else f' data-n="{bar.n}"'
    out = [
        f'<g class="bar" data-label="{esc(bar.label)}" data-value="{_fmt(value)}" '
        f'data-rank="{esc(rank)}"{n_attr}{best_attr}>',
        f"<title>{esc(_bar_tip(bar, is_best=is_best, unit=unit, signature=signature))}</title>",
        f'<text class="label" x="{PLOT_LEFT - 8}" y="{vnum(mid + 4)}" '
        f'text-anchor="end">{esc(short_label(bar.label))}</text>',
    ]
    if geo.fill is not None:
        left, right = geo.fill
        out.append(
            f'<rect class="bar-fill" x="{vnum(left)}" y="{vnum(mid - BAR_HEIGHT / 2)}" '
            f'width="{vnum(right - left)}" height="{BAR_HEIGHT}" fill="{colour}" '
            f'fill-opacity="0.85"/>'
        )
    if geo.whisker is not None:
        x_lo, x_hi = geo.whisker
        out.append(
            f'<g class="ci" data-low="{_fmt(bar.ci_low)}" data-high="{_fmt(bar.ci_high)}" '
            f'stroke="{INK}" stroke-width="1.5">'
            f'<line x1="{vnum(x_lo)}" y1="{vnum(mid)}" x2="{vnum(x_hi)}" y2="{vnum(mid)}"/>'
            f'<line x1="{vnum(x_lo)}" y1="{vnum(mid - 5)}" x2="{vnum(x_lo)}" '
            f'y2="{vnum(mid + 5)}"/>'
            f'<line x1="{vnum(x_hi)}" y1="{vnum(mid - 5)}" x2="{vnum(x_hi)}" '
            f'y2="{vnum(mid + 5)}"/></g>'
        )
    text = _fmt(value) + (f" ({bar.group})" if bar.ranked else "")
    if bar.n_text and math.isfinite(value):
        text += f" · {bar.n_text}"
    if is_best:
        text += " ★ best"
    weight = ' font-weight="600"' if is_best else ""
    out.append(
        f'<text class="value" x="{vnum(geo.label_x)}" y="{vnum(mid + 4)}"{weight}>'
        f"{esc(text)}</text>"
    )
    out.append("</g>")
    return out
