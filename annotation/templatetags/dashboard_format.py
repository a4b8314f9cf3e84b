"""Number formatting for templates: the filters of :mod:`annotation.formatting`, how a
single SSER score reads, and the cells a table repeats once per judge (an offset's, a
judge's row of judgments per system), written here rather than by a template included
per row: with hundreds of judges the template engine's per-node cost was most of a
page's time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from django import template
from django.utils.html import format_html_join
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
    # the standard library's escape on each text, as a template's would (Django's
    # format_html cost most of the judges table's time with hundreds of judges)
    full, signed = formatting.full_precision, formatting.signed
    iv = offset.shown_interval
    ci = "" if iv is None else f' data-ci-low="{full(iv.low)}" data-ci-high="{full(iv.high)}"'
    if not offset.n:
        shown = "–"
    elif offset.too_few:
        note = f'<small class="too-few" data-note="too-few">{escape(offset.too_few)}</small>'
        shown = f"{escape(signed(offset.value))} {note}"
    elif iv is not None:
        low, high = escape(signed(iv.low)), escape(signed(iv.high))
        shown = f'{escape(signed(offset.value))} <span class="ci">[{low}, {high}]</span>'
    else:
        shown = escape(signed(offset.value))
    n, sentences = offset.n, offset.sentences
    return SafeString(
        f'<td data-col="{escape(col)}" data-value="{escape(full(offset.value))}"{ci} '
        f'data-n="{n}" data-sentences="{sentences}" title="{n} judgments in {sentences} '
        f'sentences">{shown}</td>\n'
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
    # written with the standard library's escape (Django's, on every argument, was most
    # of the table's time); every text below goes through it, as a template's would
    extra = ""
    if c.estimate:
        a = c.estimate.attrs
        extra = (
            f' data-estimate="{escape(a["estimate"])}" data-estimate-low='
            f'"{escape(a["estimate_low"])}" data-estimate-high="{escape(a["estimate_high"])}"'
            f' data-plain="{escape(a["plain"])}"'
        )
    if c.best:
        extra += f' title="{escape(c.title)}" class="best" data-best="true"'
    else:
        extra += f' title="{escape(c.title)}"'
    rank = c.rank_attr
    head = (
        f'<td data-metric="{escape(c.metric)}" data-rank="{rank}" data-value='
        f'"{escape(c.value_attr)}" data-ci-low="{escape(c.ci_low_attr)}" data-ci-high='
        f'"{escape(c.ci_high_attr)}" data-n="{c.n}"{extra}>{escape(c.display)}'
    )
    if not c.has_score:
        return f"{head}</td>"
    shift = ""
    if c.shift:
        t = c.shift
        shift = (
            f'<span class="shift" data-shift="{t.moved}" data-place-original="{t.before}" '
            f'data-place="{t.after}" title="{escape(t.title)}">{escape(t.arrow)}</span>'
        )
    mark = '<span class="best-mark" title="best">★</span>' if c.best else ""
    too_few, ci = c.too_few, c.ci_text
    if too_few:
        sub = '<span class="too-few" data-note="too-few">too few</span>'
    else:
        sub = f'<span class="ci">{escape(ci)}</span>' if ci else ""
    group = f'<sup class="rank">{rank}</sup>'
    if c.facts.system_level:  # nothing to test a published figure by: no group, no n
        group, sub = "", '<span class="published" data-note="published">published</span>'
    elif c.is_human:
        sub += f' <span class="n">n={c.n}</span>'
    return f'{head}{group}{shift}{mark}<small class="sub">{sub}</small></td>'
