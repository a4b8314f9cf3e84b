"""The dashboard's rows repeated once per judge, per system or per metric (the judges
table, the pace per judge, the estimates, the meta-evaluation's cells, SSER raw and z
per judge), written here
rather than cell by cell in the templates: with two hundred judges the template engine's
per-variable cost (a lookup, a localization and an escape for each of some fifteen cells
a row) was most of the panels' render. The markup is the templates', byte for byte
(``annotation/tests/dashboard/test_dashboard_rows.py`` pins it against them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from django import template
from django.utils.formats import localize
from django.utils.safestring import SafeString

from annotation.formatting import full_precision, number, percent
from annotation.templatetags.dashboard_format import offset_cell

if TYPE_CHECKING:
    from annotation.controls.api import JudgeControls
    from annotation.dashboard.effort import JudgeEffort
    from annotation.dashboard.estimates import MetricEstimates, SystemEstimate
    from annotation.dashboard.judges import JudgeRow
    from annotation.dashboard.verdicts import JudgeAwareFigure, JudgeAwareRow

register = template.Library()


def shown(value: Any) -> str:
    """``value`` as ``{{ value }}`` writes it: localized, escaped."""
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, int):
        return str(value)
    return escape(str(localize(value)))


@register.filter
def judge_rows(rows: Sequence[JudgeRow], controls_shown: bool) -> SafeString:
    """The judges table's body (``_judges.html``): a row per judge, its control items'
    columns where ``controls_shown``."""
    return SafeString("".join(_judge_row(r, controls_shown) for r in rows))


def _judge_row(row: JudgeRow, controls_shown: bool) -> str:
    j, c, name = row.figures, row.controls, escape(row.name)
    flag = ' data-flagged="true" class="flagged"' if c is not None and c.flagged else ""
    offsets: str
    if row.effect:
        offsets = offset_cell(row.effect.shared, "offset-shared") + offset_cell(
            row.effect.overall, "offset-overall"
        )
    else:
        offsets = '<td data-col="offset-shared">–</td><td data-col="offset-overall">–</td>'
    return (
        f'\n      <tr data-judge="{name}"{flag}><th scope="row"><bdi>{name}</bdi></th>'
        f'<td data-col="judgments">{j.judgments}</td><td data-col="mean">'
        f'{number(j.mean_score)}</td><td data-col="std">{number(j.std)}</td>'
        f'<td data-col="sser" title="{escape(j.sser_signature)}">{number(j.sser)}</td>'
        f'<td data-col="awer" title="{escape(j.awer_signature)}">{number(j.awer)}</td>'
        f'{offsets}<td data-col="minutes">{number(j.minutes, 1)}</td><td data-col="pace" '
        f'data-per-hour="{number(j.per_hour, 1)}">{number(j.pace, 1)}</td>'
        f"{_control_cells(c) if controls_shown else ''}</tr>\n    "
    )


def _control_cells(c: JudgeControls | None) -> str:
    """A judge's control items' three cells (none done: zeros and "–")."""
    done, passed = (c.done or 0, c.passed or 0) if c else (0, 0)
    consistent, repeats = (c.consistent or 0, c.repeats or 0) if c else (0, 0)
    rate = None if c is None else c.pass_rate
    consistency = None if c is None else c.consistency
    flag = ""
    if c is not None and c.flagged:
        below = f"below {shown(c.threshold)} %"
        flag = f' <strong class="flag" data-flag="below-threshold">{below}</strong>'
    return (
        f'<td data-col="controls" title="{passed} of {done} control items passed">{done}</td>'
        f'<td data-col="pass-rate" data-value="{number(rate, 1)}">{number(rate, 1)}'
        f'{"" if rate is None else " %"}{flag}</td><td data-col="consistency" '
        f'title="{consistent} of {repeats} repeated candidates judged alike">'
        f"{number(consistency, 1)}{'' if consistency is None else ' %'}</td>"
    )


@register.filter
def pace_rows(judges: Sequence[JudgeEffort]) -> SafeString:
    """The effort panel's pace per judge (``_effort.html``): a row per judge."""
    return SafeString(
        "".join(
            f'<tr data-judge="{escape(j.name)}"><th scope="row"><bdi>{escape(j.name)}</bdi>'
            f'</th><td>{j.judgments}</td><td data-col="hours">{number(j.hours)}</td>'
            f'<td data-col="pace" data-per-hour="{number(j.per_hour, 1)}">'
            f"{number(j.pace, 1)}</td></tr>"
            for j in judges
        )
    )


@register.filter
def meta_cells(cells: Sequence[Mapping[str, Any]]) -> SafeString:
    """A metric's row of the meta-evaluation table (``_meta.html``): one cell per human
    figure, level and coefficient."""
    return SafeString("".join(_meta_cell(c) for c in cells))


def _meta_cell(c: Mapping[str, Any]) -> str:
    if c.get("none"):
        body = f'<small class="none" data-note="none">{shown(c["none"])}</small>'
    elif c["too_few"]:
        body = f'<small class="too-few" data-note="too-few">{shown(c["too_few"])}</small>'
    else:
        body = number(c["value"], 3)
        if c["interval"]:
            body += f' <small class="ci">{shown(c["interval"])}</small>'
    n = shown(c["n"])
    return (
        f'<td data-human="{shown(c["human"])}" data-level="{shown(c["level"])}" '
        f'data-coef="{shown(c["coef"])}" data-n="{n}" data-ci-low="{shown(c["ci_low"])}" '
        f'data-ci-high="{shown(c["ci_high"])}" title="{shown(c["title"])}">{body} '
        f"<small>n={n}</small></td>"
    )


@register.filter
def estimate_head(m: MetricEstimates) -> SafeString:
    """The heading cell of a metric's rows in the estimates table, spanning them all."""
    direction = "↑ higher" if m.info.higher_is_better else "↓ lower"
    return SafeString(
        f'<th scope="rowgroup" rowspan="{m.rows}">{escape(m.info.label)} '
        f'<small class="direction">{direction} is better</small></th>\n'
    )


@register.filter
def estimate_rows(m: MetricEstimates) -> SafeString:
    """A metric's rows of the estimates table (``_estimates.html``), one per system
    with an estimate, the first with the metric's heading cell."""
    return SafeString("".join(_estimate_row(m, x, i == 0) for i, x in enumerate(m.systems)))


def _estimate_row(m: MetricEstimates, x: SystemEstimate, first: bool) -> str:
    a = {k: escape(v) for k, v in x.attrs.items()}
    system = escape(x.system)
    if x.used:
        worth = f"{percent(x.saved)} <small>({escape(x.method)})</small>"
    else:
        worth = "<small>plain mean kept</small>"
    covariates = " · ".join(
        f'<span data-covariate="{escape(c["name"])}" data-correlation="{escape(c["correlation"])}"'
        f' data-coefficient="{escape(c["coefficient"])}"><bdi>{escape(c["label"])}</bdi> '
        f"{escape(c['r'])}</span>"
        for c in x.shown_covariates
    )
    return (
        f'<tr data-metric="{escape(m.metric)}" data-translator="{system}" data-n="{x.n}" '
        f'data-estimate="{a["estimate"]}" data-estimate-low="{a["estimate_low"]}" '
        f'data-estimate-high="{a["estimate_high"]}" data-plain="{a["plain"]}" '
        f'data-plain-low="{a["plain_low"]}" data-plain-high="{a["plain_high"]}" '
        f'data-method="{escape(x.method)}" data-variance-ratio="{a["variance_ratio"]}" '
        f'data-rank="{x.rank}">\n        {estimate_head(m) if first else ""}\n'
        f'        <th scope="row"><bdi>{system}</bdi></th>\n'
        f'        <td data-col="n">{x.n}</td>\n'
        f'        <td data-col="plain">{escape(x.plain_text)}</td>\n'
        f'        <td data-col="estimate" title="{escape(x.title)}">{escape(x.text)}</td>\n'
        f'        <td data-col="rank">{x.rank}</td>\n'
        f'        <td data-col="worth">{worth}</td>\n'
        f'        <td data-col="covariates">{covariates}</td>\n      </tr>'
    )


@register.filter
def judge_aware_rows(rows: Sequence[JudgeAwareRow]) -> SafeString:
    """The rows of SSER raw and z per judge (``dashboard/_sser_judges.html``): per system
    each figure's value, interval, rank group and judged sentences."""
    return SafeString("".join(_judge_aware_row(row) for row in rows))


def _judge_aware_row(row: JudgeAwareRow) -> str:
    system = escape(row.system)
    cells = "".join(_judge_aware_cells(kind, fig) for kind, fig in row.cells)
    return (
        f'<tr data-translator="{system}">\n      <th scope="row"><bdi>{system}</bdi></th>\n'
        f'      {cells}\n      <td data-col="n">{shown(row.z.figure.n)}</td></tr>'
    )


def _judge_aware_cells(kind: str, fig: JudgeAwareFigure) -> str:
    low, high = fig.interval
    rank, note = fig.rank, fig.too_few
    text = escape(fig.text)
    if note:
        text = f'<small class="too-few" data-note="too-few">{text}</small>'
    return (
        f'<td data-col="{escape(kind)}" data-value="{escape(full_precision(fig.figure.score))}" '
        f'data-ci-low="{escape(low)}" data-ci-high="{escape(high)}" data-rank="{shown(rank)}" '
        f'title="{shown(fig.figure.n)} judged sentences">{text}</td><td data-col="'
        f'{escape(kind)}-rank">{shown(rank) if rank else "–"}</td>'
    )
