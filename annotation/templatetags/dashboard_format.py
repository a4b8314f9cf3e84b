"""Number formatting for templates: the filters of :mod:`annotation.formatting`, how a
single SSER score reads, and the cells a table repeats once per judge (an offset's, a
judge's row of judgments per system), written here rather than by a template included
per row: with hundreds of judges the template engine's per-node cost was most of a
page's time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from annotation import formatting
from annotation.pace import PACE_LABEL
from metrics import human
from metrics.annotator_effects import Offset

if TYPE_CHECKING:
    from annotation.dashboard.table import Cell

register = template.Library()

register.filter("num", formatting.number)
#: An offset with its sign always written ("+0.80").
register.filter("signed", formatting.signed)
#: A number at full precision for a ``data-*`` attribute ("" without one).
register.filter("full", formatting.full_precision)
register.filter("percent", formatting.percent)
#: One candidate's score as a judge gave it, "SSER 7 (score)" (never "SSER error", the
#: figure of many judgments).
register.filter("sser_score", human.score_label)
register.filter("duration", formatting.duration)


@register.simple_tag
def pace_label() -> str:
    """The pace's one heading (:data:`annotation.pace.PACE_LABEL`)."""
    return PACE_LABEL


@register.filter
def get(mapping: Mapping[str, Any], key: str) -> Any:
    """``mapping[key]`` (None when absent): templates cannot index by a variable."""
    return mapping.get(key)


@register.simple_tag
def offset_cell(offset: Offset, col: str) -> SafeString:
    """An offset's cell (:class:`~metrics.annotators.Offset`, column ``col``): its value
    with its interval where one is claimed, else the note that says why none is, and
    what it rests on; "–" where it rests on nothing. Full precision in ``data-*``."""
    full, signed = formatting.full_precision, formatting.signed
    iv = offset.shown_interval
    ci = (
        ""
        if iv is None
        else format_html(' data-ci-low="{}" data-ci-high="{}"', full(iv.low), full(iv.high))
    )
    if not offset.n:
        shown = "–"
    elif offset.too_few:
        note = '{} <small class="too-few" data-note="too-few">{}</small>'
        shown = format_html(note, signed(offset.value), offset.too_few)
    elif iv is not None:
        interval = '{} <span class="ci">[{}, {}]</span>'
        shown = format_html(interval, signed(offset.value), signed(iv.low), signed(iv.high))
    else:
        shown = signed(offset.value)
    return format_html(
        '<td data-col="{}" data-value="{}"{} data-n="{}" data-sentences="{}" '
        'title="{} judgments in {} sentences">{}</td>\n',
        col,
        full(offset.value),
        ci,
        offset.n,
        offset.sentences,
        offset.n,
        offset.sentences,
        shown,
    )


@register.filter
def system_cells(per_system: Sequence[tuple[str, int]]) -> SafeString:
    """A judge's row of the campaign page's "who judged what": one cell per (system,
    done judgments)."""
    return format_html_join("", '<td data-system="{}">{}</td>', per_system)


@register.filter
def table_cells(cells: Sequence[Cell]) -> SafeString:
    """A system's row of the metrics table: one cell per metric (``_table.html``), its
    figure, rank group, interval, n and the estimate's, grown pool's and best marks,
    with their ``data-*`` at full precision and the signature in ``title``."""
    return SafeString("".join(_table_cell(c) for c in cells))


def _table_cell(c: Cell) -> str:
    estimate = ""
    if c.estimate:
        a = c.estimate.attrs
        estimate = format_html(
            ' data-estimate="{}" data-estimate-low="{}" data-estimate-high="{}" data-plain="{}"',
            a["estimate"],
            a["estimate_low"],
            a["estimate_high"],
            a["plain"],
        )
    best = ' class="best" data-best="true"' if c.best else ""
    head = format_html(
        '<td data-metric="{}" data-rank="{}" data-value="{}" data-ci-low="{}" '
        'data-ci-high="{}" data-n="{}"{} title="{}"{}>',
        c.metric,
        c.rank_attr,
        c.value_attr,
        c.ci_low_attr,
        c.ci_high_attr,
        c.n,
        estimate,
        c.title,
        SafeString(best),
    )
    if not c.has_score:
        return format_html("{}{}</td>", head, c.display)
    shift = ""
    if c.shift:
        s = c.shift
        shift = format_html(
            '<span class="shift" data-shift="{}" data-place-original="{}" data-place="{}" '
            'title="{}">{}</span>',
            s.moved,
            s.before,
            s.after,
            s.title,
            s.arrow,
        )
    mark = '<span class="best-mark" title="best">★</span>' if c.best else ""
    if c.too_few:
        sub = '<span class="too-few" data-note="too-few">too few</span>'
    elif c.ci_text:
        sub = format_html('<span class="ci">{}</span>', c.ci_text)
    else:
        sub = ""
    if c.is_human:
        sub += format_html(' <span class="n">n={}</span>', c.n)
    return format_html(
        '{}{}<sup class="rank">{}</sup>{}{}<small class="sub">{}</small></td>',
        head,
        c.display,
        c.rank_attr,
        shift,
        SafeString(mark),
        SafeString(sub),
    )
