"""The cells the judges' tables repeat once per judge, written by
:mod:`annotation.templatetags.dashboard_format` rather than by a template included per
row: the same markup, byte for byte, as the template they replace."""

from __future__ import annotations

import math

import pytest
from django.template import Context, Template

from annotation.templatetags.dashboard_format import offset_cell, system_cells
from metrics.annotator_effects import NO_OFFSET, Offset
from metrics.claims import shortfall
from metrics.ranking import NO_INTERVAL, Interval

#: ``dashboard/_offset.html``, the template each row included before.
INCLUDED = (
    '{% load dashboard_format %}<td data-col="{{ col }}" data-value="{{ offset.value|full }}"'
    '{% with iv=offset.shown_interval %}{% if iv %} data-ci-low="{{ iv.low|full }}" '
    'data-ci-high="{{ iv.high|full }}"{% endif %} data-n="{{ offset.n }}" '
    'data-sentences="{{ offset.sentences }}" title="{{ offset.n }} judgments in '
    '{{ offset.sentences }} sentences">{% if offset.n %}{{ offset.value|signed }}'
    '{% if offset.too_few %} <small class="too-few" data-note="too-few">{{ offset.too_few }}'
    '</small>{% elif iv %} <span class="ci">[{{ iv.low|signed }}, {{ iv.high|signed }}]'
    "</span>{% endif %}{% else %}–{% endif %}{% endwith %}</td>\n"
)

OFFSETS = [
    NO_OFFSET,
    Offset(1.25, Interval(0.5, 2.0, 1.3), 40, 12, ""),
    Offset(-0.3333333333333333, Interval(-1.0, 0.25, -0.3), 18, 10, ""),
    Offset(2.0, Interval(2.0, 2.0, 2.0), 9, 9, shortfall(9, "sentences")),
    Offset(0.0, NO_INTERVAL, 12, 11, ""),
    Offset(math.nan, Interval(math.nan, math.nan, math.nan), 3, 0, shortfall(0, "sentences")),
]


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("col", ["offset-shared", "offset-overall"])
def test_an_offset_cell_is_the_included_template_s_markup(offset: Offset, col: str) -> None:
    included = Template(INCLUDED).render(Context({"offset": offset, "col": col}))

    assert offset_cell(offset, col) == included


def test_a_judge_s_cells_per_system_are_the_loop_s_markup() -> None:
    per_system = (("MT-01", 3), ("<b>&", 0), ('sys "q"', 12))
    looped = Template(
        '{% for system, n in per_system %}<td data-system="{{ system }}">{{ n }}</td>{% endfor %}'
    ).render(Context({"per_system": per_system}))

    assert system_cells(per_system) == looped
    assert "&lt;b&gt;&amp;" in looped
