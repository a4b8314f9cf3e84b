"""The judge's page's SSER scale, flag menu and pool, drawn in Python
(:mod:`annotation.templatetags.judging_words`): the markup the template's loops drew,
every text escaped, the pressed, selected and current entries marked."""

from __future__ import annotations

import pytest

from annotation.judging.page import SSER_LABELS
from annotation.judging.pool import PoolRef
from annotation.models import Judgment
from annotation.templatetags.judging_words import flag_options, pool_entries, sser_buttons
from annotation.text import TextLanguage

SCALE = [
    {"value": v, "label": SSER_LABELS.get(v, ""), "pressed": v == 9} for v in range(10, -1, -1)
]


@pytest.mark.parametrize(
    "readonly, expected",
    [
        (
            False,
            '\n        <button type="submit" name="sser" value="9" data-sser="9" '
            'data-action="sser" class="sser pressed" aria-pressed="true" '
            'title="9: OK, only slight style errors">9<small>OK, only slight style errors'
            "</small></button>",
        ),
        (
            True,
            '\n        <button type="submit" name="sser" value="8" data-sser="8" '
            'data-action="sser" class="sser" aria-pressed="false" disabled>8</button>',
        ),
    ],
)
def test_the_sser_scale_marks_the_pressed_score(readonly: bool, expected: str) -> None:
    drawn = sser_buttons(SCALE, readonly)
    assert expected in drawn
    assert drawn.count("<button") == 11
    assert drawn.count("disabled") == (11 if readonly else 0)


def test_the_flag_menu_selects_the_judgments_flag() -> None:
    flags = [("", "no flag"), ("garbled", 'source "garbled" <here>')]
    assert flag_options(flags, "garbled") == (
        '<option value="">no flag</option><option value="garbled" selected>'
        "source &quot;garbled&quot; &lt;here&gt;</option>"
    )
    none = flag_options(Judgment.Flag.choices, "")
    assert none.count(" selected") == 1
    assert none.startswith('<option value="" selected>No flag</option>')


def test_the_pool_marks_the_current_reference_and_escapes_its_text() -> None:
    rtl = TextLanguage("ar")
    pool = [
        PoolRef('a "b" <c>', ("a", '"b"', "<c>"), "first reference", 1, 0),
        PoolRef("x y", ("x", "y"), "new reference", 0, 1),
    ]
    drawn = pool_entries(pool, ("x", "y"), rtl, False)
    assert drawn == (
        '\n        <li><button type="submit" name="text" value="a &quot;b&quot; &lt;c&gt;" '
        'class="pool-ref" dir="rtl" lang="ar" data-action="use-ref" data-pool="1">'
        "a &quot;b&quot; &lt;c&gt;</button>\n"
        '          <span class="pool-meta">first reference · 1 edit</span></li>'
        '\n        <li><button type="submit" name="text" value="x y" class="pool-ref current" '
        'dir="rtl" lang="ar" data-action="use-ref" data-pool="2">x y</button>\n'
        '          <span class="pool-meta">new reference · 0 edits · current</span></li>'
    )
    assert pool_entries(pool, (), rtl, True).count(" disabled>") == 2
    assert pool_entries([], (), rtl, False) == (
        '\n        <li class="pool-empty">This sentence has no reference.</li>'
    )
