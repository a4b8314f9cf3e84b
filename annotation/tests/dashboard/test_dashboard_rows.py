"""The dashboard's rows written by :mod:`annotation.templatetags.dashboard_rows` (the
judges table, the pace per judge, the meta-evaluation's cells) rather than cell by cell
by the templates: the same markup, byte for byte, as the template loops they replace."""

from __future__ import annotations

import math

import pytest
from django.template import Context, Template

from annotation.controls.api import JudgeControls
from annotation.dashboard.effort import JudgeEffort
from annotation.dashboard.estimates import MetricEstimates, SystemEstimate
from annotation.dashboard.judges import JudgeFigures, JudgeRow
from annotation.dashboard.verdicts import JudgeAwareView
from annotation.statistics import judge_aware_figures
from annotation.templatetags.dashboard_rows import (
    estimate_head,
    estimate_rows,
    judge_aware_rows,
    judge_rows,
    meta_cells,
    pace_rows,
)
from annotation.tests.factories import judgment_row
from metrics import estimate
from metrics.annotator_effects import NO_OFFSET, AnnotatorEffect, Offset
from metrics.claims import shortfall
from metrics.ranking import Interval
from metrics.registry import metric_info
from metrics.significance import Bootstrap

#: ``dashboard/_judges.html``'s loop before.
JUDGES_LOOP = (
    "{% load dashboard_format %}    {% for row in judges.rows %}{% with j=row.figures c=r"
    'ow.controls %}\n      <tr data-judge="{{ row.name }}"{% if c.flagged %} data-flagged='
    '"true" class="flagged"{% endif %}><th scope="row"><bdi>{{ row.name }}</bdi></th><td '
    'data-col="judgments">{{ j.judgments }}</td><td data-col="mean">{{ j.mean_score|num }'
    '}</td><td data-col="std">{{ j.std|num }}</td><td data-col="sser" title="{{ j.sser_si'
    'gnature }}">{{ j.sser|num }}</td><td data-col="awer" title="{{ j.awer_signature }}">'
    '{{ j.awer|num }}</td>{% if row.effect %}{% offset_cell row.effect.shared "offset-sha'
    'red" %}{% offset_cell row.effect.overall "offset-overall" %}{% else %}<td data-col="'
    'offset-shared">–</td><td data-col="offset-overall">–</td>{% endif %}<td data-col="mi'
    'nutes">{{ j.minutes|num:1 }}</td><td data-col="pace" data-per-hour="{{ j.per_hour|nu'
    'm:1 }}">{{ j.pace|num:1 }}</td>{% if judges.controls_shown %}<td data-col="controls"'
    ' title="{{ c.passed|default:0 }} of {{ c.done|default:0 }} control items passed">{{ '
    'c.done|default:0 }}</td><td data-col="pass-rate" data-value="{{ c.pass_rate|num:1 }}'
    '">{{ c.pass_rate|num:1 }}{% if c.pass_rate is not None %} %{% endif %}{% if c.flagge'
    'd %} <strong class="flag" data-flag="below-threshold">below {{ c.threshold }} %</str'
    'ong>{% endif %}</td><td data-col="consistency" title="{{ c.consistent|default:0 }} o'
    'f {{ c.repeats|default:0 }} repeated candidates judged alike">{{ c.consistency|num:1'
    " }}{% if c.consistency is not None %} %{% endif %}</td>{% endif %}</tr>\n    {% endwi"
    "th %}{% endfor %}\n"
)

#: ``dashboard/_effort.html``'s loop before.
PACE_LOOP = (
    '{% load dashboard_format %}{% for j in e.judges %}<tr data-judge="{{ j.name }}"><th '
    'scope="row"><bdi>{{ j.name }}</bdi></th><td>{{ j.judgments }}</td><td data-col="hour'
    's">{{ j.hours|num:2 }}</td><td data-col="pace" data-per-hour="{{ j.per_hour|num:1 }}'
    '">{{ j.pace|num:1 }}</td></tr>{% endfor %}'
)

#: ``dashboard/_meta.html``'s loop before.
META_LOOP = (
    '{% load dashboard_format %}{% for c in row.cells %}<td data-human="{{ c.human }}" da'
    'ta-level="{{ c.level }}" data-coef="{{ c.coef }}" data-n="{{ c.n }}" data-ci-low="{{'
    ' c.ci_low }}" data-ci-high="{{ c.ci_high }}" title="{{ c.title }}">{% if c.too_few %'
    '}<small class="too-few" data-note="too-few">{{ c.too_few }}</small>{% else %}{{ c.va'
    'lue|num:3 }}{% if c.interval %} <small class="ci">{{ c.interval }}</small>{% endif %'
    "}{% endif %} <small>n={{ c.n }}</small></td>{% endfor %}"
)

#: ``dashboard/_estimates.html``'s loop before, ``_estimates_metric.html`` included.
ESTIMATES_LOOP = (
    "{% load dashboard_format %}{% for x in m.systems %}{% with a=x.attrs %}<tr data-metr"
    'ic="{{ m.metric }}" data-translator="{{ x.system }}" data-n="{{ x.n }}" data-estimat'
    'e="{{ a.estimate }}" data-estimate-low="{{ a.estimate_low }}" data-estimate-high="{{'
    ' a.estimate_high }}" data-plain="{{ a.plain }}" data-plain-low="{{ a.plain_low }}" d'
    'ata-plain-high="{{ a.plain_high }}" data-method="{{ x.method }}" data-variance-ratio'
    '="{{ a.variance_ratio }}" data-rank="{{ x.rank }}">\n        {% if forloop.first %}<t'
    'h scope="rowgroup" rowspan="{{ m.rows }}">{{ m.info.label }} <small class="direction'
    '">{% if m.info.higher_is_better %}↑ higher{% else %}↓ lower{% endif %} is better</sm'
    'all></th>\n{% endif %}\n        <th scope="row"><bdi>{{ x.system }}</bdi></th>\n       '
    ' <td data-col="n">{{ x.n }}</td>\n        <td data-col="plain">{{ x.plain_text }}</td'
    '>\n        <td data-col="estimate" title="{{ x.title }}">{{ x.text }}</td>\n        <t'
    'd data-col="rank">{{ x.rank }}</td>\n        <td data-col="worth">{% if x.used %}{{ x'
    ".saved|percent }} <small>({{ x.method }})</small>{% else %}<small>plain mean kept</s"
    'mall>{% endif %}</td>\n        <td data-col="covariates">{% for c in x.shown_covariat'
    'es %}<span data-covariate="{{ c.name }}" data-correlation="{{ c.correlation }}" data'
    '-coefficient="{{ c.coefficient }}"><bdi>{{ c.label }}</bdi> {{ c.r }}</span>{% if no'
    "t forloop.last %} · {% endif %}{% endfor %}</td>\n      </tr>{% endwith %}{% endfor %"
    "}"
)

#: ``dashboard/_sser_judges.html``'s loop before.
JUDGE_AWARE_LOOP = (
    '{% load dashboard_format %}{% for row in view.rows %}<tr data-translator="{{ row.sys'
    'tem }}">\n      <th scope="row"><bdi>{{ row.system }}</bdi></th>\n      {% for kind, '
    'fig in row.cells %}<td data-col="{{ kind }}" data-value="{{ fig.figure.score|full }}'
    '" data-ci-low="{{ fig.interval.0 }}" data-ci-high="{{ fig.interval.1 }}" data-rank="'
    '{{ fig.rank }}" title="{{ fig.figure.n }} judged sentences">{% if fig.too_few %}<sma'
    'll class="too-few" data-note="too-few">{{ fig.text }}</small>{% else %}{{ fig.text }'
    '}{% endif %}</td><td data-col="{{ kind }}-rank">{% if fig.rank %}{{ fig.rank }}{% el'
    'se %}–{% endif %}</td>{% endfor %}\n      <td data-col="n">{{ row.z.figure.n }}</td>'
    "</tr>{% endfor %}"
)

#: ``dashboard/_estimates_metric.html`` before.
ESTIMATES_HEAD = (
    '<th scope="rowgroup" rowspan="{{ m.rows }}">{{ m.info.label }} <small class="directi'
    'on">{% if m.info.higher_is_better %}↑ higher{% else %}↓ lower{% endif %} is better</'
    "small></th>\n"
)


FIGURES = [
    JudgeFigures("ann", 40, 38, 7.25, 1.5, 27.5, 12.125, 1830.0, "sser-sig", 'awer "sig"'),
    JudgeFigures("<b>&", 0, 0, None, None, None, None, 0.0),
    JudgeFigures("o'neil", 3, 0, math.nan, math.nan, None, 0.0, 45.5, "a<b", ""),
]
CONTROLS = [
    None,
    JudgeControls("c", done=10, passed=9, repeats=4, consistent=3, threshold=80),
    JudgeControls("c", done=5, passed=1, repeats=0, consistent=0, threshold=70),
    JudgeControls("c", done=0, passed=0, repeats=0, consistent=0, threshold=80),
]
EFFECTS = [
    None,
    AnnotatorEffect(
        "e",
        40,
        12,
        7.0,
        Offset(1.25, Interval(0.5, 2.0, 1.3), 40, 12, ""),
        Offset(2.0, Interval(2.0, 2.0, 2.0), 9, 9, shortfall(9, "sentences")),
    ),
    AnnotatorEffect("e", 0, 0, math.nan, NO_OFFSET, NO_OFFSET),
]
ROWS = [JudgeRow(f.name, f, c, e) for f in FIGURES for c in CONTROLS for e in EFFECTS]


@pytest.mark.parametrize("controls_shown", [True, False])
def test_the_judges_rows_are_the_template_loop_s_markup(controls_shown: bool) -> None:
    looped = Template(JUDGES_LOOP).render(
        Context({"judges": {"rows": ROWS, "controls_shown": controls_shown}})
    )

    assert "    " + judge_rows(ROWS, controls_shown) + "\n" == looped
    assert "&lt;b&gt;&amp;" in looped
    assert 'data-flagged="true"' in looped


def test_the_pace_rows_are_the_template_loop_s_markup() -> None:
    judges = [
        JudgeEffort("ann", 40, 5400.0),
        JudgeEffort("<b>&", 0, 0.0),
        JudgeEffort("x'y", 7, 61.25),
    ]

    looped = Template(PACE_LOOP).render(Context({"e": {"judges": judges}}))

    assert pace_rows(judges) == looped


def test_the_meta_cells_are_the_template_loop_s_markup() -> None:
    cells = [
        {
            "human": "sser",
            "level": "system",
            "coef": "pearson",
            "value": -0.91234,
            "n": 20,
            "interval": "[-0.95, -0.80]",
            "ci_low": -0.9512345678901234,
            "ci_high": -0.8,
            "too_few": "",
            "title": 'Pearson r of "BLEU" & <SSER> at system level, 20 points',
        },
        {
            "human": "awer",
            "level": "sentence",
            "coef": "kendall",
            "value": 0.1,
            "n": 18660,
            "interval": "",
            "ci_low": "",
            "ci_high": "",
            "too_few": "",
            "title": "t",
        },
        {
            "human": "sser",
            "level": "system",
            "coef": "soft_pairwise_accuracy",
            "value": math.nan,
            "n": 3,
            "interval": "",
            "ci_low": "",
            "ci_high": "",
            "too_few": shortfall(3, "systems"),
            "title": "too few",
        },
        {
            "human": "sser",
            "level": "system",
            "coef": "pearson",
            "value": 1e-07,
            "n": 12,
            "interval": "[0.00, 0.00]",
            "ci_low": 1e-08,
            "ci_high": 2.5e-05,
            "too_few": "",
            "title": "",
        },
    ]

    looped = Template(META_LOOP).render(Context({"row": {"cells": cells}}))

    assert meta_cells(cells) == looped


def _estimate(
    mean: float, method: str, covariates: tuple[estimate.Covariate, ...]
) -> estimate.Estimate:
    plain = estimate.Interval(mean + 0.5, mean - 3.0, mean + 4.0, 40, 2.0, 39.0)
    found = estimate.Interval(mean, mean - 2.0, mean + 2.0, 1000, 1.0, 38.0)
    ratio = 1.0 if method == estimate.PLAIN else 0.4123456789
    return estimate.Estimate(plain, found, method, ratio, None, covariates, 3, 1000, 0.95)


@pytest.mark.parametrize("metric", ["sser", "awer"])
def test_the_estimate_rows_are_the_template_loop_s_markup(metric: str) -> None:
    covariates = (
        estimate.Covariate("bleu", 0.25, 0.4123456),
        estimate.Covariate("<x>", 0.0, math.nan),
    )
    m = MetricEstimates(
        metric,
        metric_info(metric),
        (
            SystemEstimate(
                "A&B",
                metric,
                _estimate(12.5, estimate.REGRESSION, covariates),
                1,
                {"bleu": "BLEU", "<x>": 'x "y"'},
            ),
            SystemEstimate("c'd", metric, _estimate(30.0, estimate.PLAIN, ()), 2),
        ),
        (("e", 3),),
    )

    looped = Template(ESTIMATES_LOOP).render(Context({"m": m}))

    assert estimate_rows(m) == looped
    assert estimate_head(m) == Template(ESTIMATES_HEAD).render(Context({"m": m}))


@pytest.mark.parametrize("sentences", [40, 4])
def test_judge_aware_rows_are_the_loops_markup(sentences: int) -> None:
    """SSER raw and z per judge, with intervals and rank groups (40 sentences) and with
    too few sentences for either (4), systems named with markup, one not judged yet."""
    systems = ["sys <a>", "o'sys", "sys & co", "none yet"]
    rows = [
        judgment_row(system, k, judge, sser=(3 * k + 5 * s + len(judge)) % 11)
        for s, system in enumerate(systems[:3])
        for k in range(sentences)
        for judge in (("ann", "bob") if k % 3 else ("ann",))
    ]
    view = JudgeAwareView(
        judge_aware_figures(rows, systems, sentences, Bootstrap(sentences, 50, 7))
    )
    want = Template(JUDGE_AWARE_LOOP).render(Context({"view": view}))
    assert judge_aware_rows(view.rows) == want
    assert want.count("<tr ") == 4
