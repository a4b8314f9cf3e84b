"""Inline SVG charts: well-formed, accessible, escaped, and drawn to scale."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from annotation.dashboard.charts import (
    COLOURS,
    Bar,
    bar_chart_svg,
    esc,
    value_axis,
)
from annotation.dashboard.rank_chart import rank_chart_svg

ROOT = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = [
    "<script>alert(1)</script>",
    '" onmouseover="alert(1)',
    "a & b <c> 'd'",
    "ctrl\x01\x08char",
    "]]><!-- x -->",
]


def parse(svg: str) -> Any:
    return etree.fromstring(svg.encode())


def bars_of(root: Any) -> list[Any]:
    return root.findall(f"{SVG}g[@class='bar']")


def rect_of(bar: Any) -> Any:
    return bar.find(f"{SVG}rect[@class='bar-fill']")


def whisker_of(bar: Any) -> Any:
    return bar.find(f"{SVG}g[@class='ci']/{SVG}line")


BARS: list[Bar] = [
    Bar("alpha", 10.0, 8.0, 12.0, 2),
    Bar("beta", 20.0, 15.0, 25.0, 1),
    Bar("gamma", 40.0, 35.0, 46.0, 1),
]


# ------------------------------------------------------------------ structure


@pytest.mark.parametrize("name", HOSTILE)
def test_bar_chart_is_well_formed_and_escapes_names(name: str) -> None:
    svg = bar_chart_svg(f"BLEU of {name}", [Bar(name, 30.0, 25.0, 35.0, 1), *BARS], "%", True)
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("aria-label", "").startswith("BLEU of ")
    assert root[0].tag == f"{SVG}title"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox"))
    assert not list(root.iter(f"{SVG}script", "script", f"{SVG}style", "style"))
    assert "<script>" not in svg
    for el in root.iter():
        assert not [a for a in el.attrib if a.startswith("on")]
    first = bars_of(root)[0]
    assert first.get("data-label") == name.replace("\x01", "\ufffd").replace("\x08", "\ufffd")


@pytest.mark.parametrize("name", HOSTILE)
def test_rank_chart_is_well_formed_and_escapes_names(name: str) -> None:
    svg = rank_chart_svg([name, "ok"], ["bleu", name], {(name, "bleu"): 1, ("ok", name): 2})
    root = parse(svg)
    assert root.get("role") == "img"
    assert root[0].tag == f"{SVG}title"
    assert not list(root.iter(f"{SVG}script", "script"))
    assert "<script>" not in svg
    cells = root.findall(f"{SVG}g[@class='cell']")
    clean = name.replace("\x01", "\ufffd").replace("\x08", "\ufffd")
    assert {(c.get("data-system"), c.get("data-metric")) for c in cells} == {
        (clean, "bleu"),
        (clean, clean),
        ("ok", "bleu"),
        ("ok", clean),
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<b>", "&lt;b&gt;"),
        ('a"b', "a&quot;b"),
        ("x'y", "x&#x27;y"),
        ("&", "&amp;"),
        ("\x00", "\ufffd"),
        ("tab\there", "tab\there"),
    ],
)
def test_esc(text: str, expected: str) -> None:
    assert esc(text) == expected


# ------------------------------------------------------------------ geometry


def test_bar_lengths_are_proportional_to_values() -> None:
    root = parse(bar_chart_svg("BLEU", BARS, "%", True))
    rects = [rect_of(b) for b in bars_of(root)]
    widths = [float(r.get("width")) for r in rects]
    assert widths[1] / widths[0] == pytest.approx(2.0, rel=1e-3)
    assert widths[2] / widths[0] == pytest.approx(4.0, rel=1e-3)
    # all bars start at the zero line
    assert len({r.get("x") for r in rects}) == 1


def test_whiskers_sit_at_the_interval_ends() -> None:
    root = parse(bar_chart_svg("BLEU", BARS, "%", True))
    for bar, expected in zip(bars_of(root), BARS, strict=True):
        value, low, high = expected.value, expected.ci_low, expected.ci_high
        rect = rect_of(bar)
        zero = float(rect.get("x"))
        per_unit = float(rect.get("width")) / value
        line = whisker_of(bar)
        assert float(line.get("x1")) == pytest.approx(zero + low * per_unit, abs=0.02)
        assert float(line.get("x2")) == pytest.approx(zero + high * per_unit, abs=0.02)
        # the whisker crosses the bar's middle
        mid = float(rect.get("y")) + float(rect.get("height")) / 2
        assert float(line.get("y1")) == pytest.approx(mid, abs=0.01)
        ci = bar.find(f"{SVG}g[@class='ci']")
        assert (ci.get("data-low"), ci.get("data-high")) == (f"{low:.2f}", f"{high:.2f}")


@pytest.mark.parametrize("higher, best", [(True, "gamma"), (False, "alpha")])
def test_the_best_bar_is_marked(higher: bool, best: str) -> None:
    root = parse(bar_chart_svg("x", BARS, "", higher))
    marked = [b.get("data-label") for b in bars_of(root) if b.get("data-best") == "true"]
    assert marked == [best]
    text = "".join(root.find(f"{SVG}desc").itertext())
    assert ("higher is better" if higher else "lower is better") in text


@pytest.mark.parametrize("higher, best", [(True, ["b", "c"]), (False, ["a"])])
def test_every_bar_with_the_best_value_is_marked(higher: bool, best: list[str]) -> None:
    """As the table marks every tied best cell (SER is often 100 for every system)."""
    bars: list[Bar] = [Bar("a", 1.0, None, None, 1), Bar("b", 2.0, None, None, 1)]
    bars.append(Bar("c", 2.0, None, None, 1))
    root = parse(bar_chart_svg("x", bars, "", higher))

    marked = [b.get("data-label") for b in bars_of(root) if b.get("data-best") == "true"]
    assert marked == best


def test_each_bar_title_ends_with_its_signature() -> None:
    bars: list[Bar] = [Bar("a", 1.0, 0.5, 1.5, 1), Bar("b", 2.0, None, None, 2)]
    root = parse(bar_chart_svg("x", bars, "%", False, signatures=["nrefs:1|tok:13a", ""]))
    a, b = bars_of(root)

    assert a.find(f"{SVG}title").text.endswith(" · nrefs:1|tok:13a")
    assert "·" not in b.find(f"{SVG}title").text
    with pytest.raises(ValueError, match="1 signatures for 2 bars"):
        bar_chart_svg("x", bars, signatures=["one"])


def test_bars_carry_values_ranks_and_colours() -> None:
    root = parse(bar_chart_svg("BLEU", BARS, "%", True))
    found = [(b.get("data-label"), b.get("data-value"), b.get("data-rank")) for b in bars_of(root)]
    assert found == [("alpha", "10.00", "2"), ("beta", "20.00", "1"), ("gamma", "40.00", "1")]
    fills = [rect_of(b).get("fill") for b in bars_of(root)]
    assert fills == [COLOURS["worse"], COLOURS["better"], COLOURS["better"]]
    tip = bars_of(root)[0].find(f"{SVG}title").text
    assert tip == "alpha: 10.00 % (95% interval 8.00–12.00), rank group 2"


def test_negative_values_extend_left_of_zero() -> None:
    root = parse(bar_chart_svg("z", [Bar("a", -1.0, -1.5, -0.5, 1), Bar("b", 2.0, 1.0, 3.0, 1)]))
    a, b = (rect_of(bar) for bar in bars_of(root))
    zero = float(b.get("x"))
    assert float(a.get("x")) + float(a.get("width")) == pytest.approx(zero, abs=0.02)
    assert float(b.get("width")) / float(a.get("width")) == pytest.approx(2.0, rel=1e-3)


@pytest.mark.parametrize(
    "bars, bounds, ends",
    [
        # the aSER 100 ± 50: an axis from -50 to 150, not any more
        ([Bar("a", 100.0, -50.0, 150.0, 1), Bar("b", 50.0, 0.0, 100.0, 1)], (0.0, 100.0), (0, 100)),
        ([Bar("a", 5.0, -20.0, 30.0, 1)], (0.0, math.inf), (0, 30)),
        ([Bar("a", 0.0, 0.0, 0.0, 1)], (0.0, 100.0), (0, 1)),
        ([Bar("a", 100.0, 100.0, 100.0, 1)], (0.0, 100.0), (0, 100)),
    ],
)
def test_the_axis_stays_in_the_metrics_range(
    bars: list[Bar], bounds: tuple[float, float], ends: tuple[float, float]
) -> None:
    axis = value_axis(bars, bounds)
    assert (axis.lo, axis.hi) == ends
    ticks = [
        float(t.text)
        for t in parse(bar_chart_svg("x", bars, "%", False, bounds=bounds)).iter(
            "{http://www.w3.org/2000/svg}text"
        )
        if t.get("class") == "tick"
    ]
    assert min(ticks) == ends[0]
    assert max(ticks) <= ends[1]


def test_missing_value_and_interval_draw_nothing() -> None:
    bars: list[Bar] = [Bar("a", float("nan"), None, None, None), Bar("b", 5.0, None, None, None)]
    root = parse(bar_chart_svg("aWER", bars, "%", False))
    a, b = bars_of(root)
    assert rect_of(a) is None
    assert whisker_of(a) is None
    assert whisker_of(b) is None
    assert "n/a" in "".join(a.itertext())
    assert b.get("data-best") == "true"


def test_empty_chart_says_so() -> None:
    root = parse(bar_chart_svg("BLEU", [], "%", True))
    assert not bars_of(root)
    assert "no data" in "".join(root.itertext())


# ------------------------------------------------------------------ rank chart

SYSTEMS = ["Salt", "Incyta", "Statistical", "Internostrum"]
METRICS = ["wer", "bleu", "awer"]
# seed 001 Figure 2's kind of table; Incyta has no aWER rank
RANKS = {
    ("Salt", "wer"): 1,
    ("Incyta", "wer"): 3,
    ("Statistical", "wer"): 2,
    ("Internostrum", "wer"): 3,
    ("Salt", "bleu"): 1,
    ("Incyta", "bleu"): 2,
    ("Statistical", "bleu"): 1,
    ("Internostrum", "bleu"): 2,
    ("Salt", "awer"): 1,
    ("Statistical", "awer"): 1,
    ("Internostrum", "awer"): 2,
}
COLOUR_OF = {
    # rank, last group of the metric → colour
    ("wer", 1): "better",
    ("wer", 2): "intermediate",
    ("wer", 3): "worse",
    ("bleu", 1): "better",
    ("bleu", 2): "worse",
    ("awer", 1): "better",
    ("awer", 2): "worse",
}


def test_rank_chart_cells() -> None:
    root = parse(rank_chart_svg(SYSTEMS, METRICS, RANKS))
    cells = root.findall(f"{SVG}g[@class='cell']")
    assert len(cells) == len(SYSTEMS) * len(METRICS)
    # row-major: systems down, metrics across
    assert [(c.get("data-system"), c.get("data-metric")) for c in cells] == [
        (s, m) for s in SYSTEMS for m in METRICS
    ]
    xs: dict[str, set[str]] = {}
    for cell in cells:
        key = (cell.get("data-system"), cell.get("data-metric"))
        rank = RANKS.get(key)
        circle = cell.find(f"{SVG}circle")
        if rank is None:
            assert cell.get("data-rank") == ""
            assert circle is None
            assert "not ranked" in cell.find(f"{SVG}title").text
            continue
        assert cell.get("data-rank") == str(rank)
        assert circle.get("fill") == COLOURS[COLOUR_OF[(key[1], rank)]]
        assert cell.find(f"{SVG}text").text == str(rank)
        xs.setdefault(key[1], set()).add(circle.get("cx"))
    assert all(len(v) == 1 for v in xs.values())  # one column per metric
    assert len({next(iter(v)) for v in xs.values()}) == len(METRICS)


def test_rank_chart_legend_uses_figure_2_words() -> None:
    root = parse(rank_chart_svg(SYSTEMS, METRICS, RANKS))
    legend = "".join(root.find(f"{SVG}g[@class='legend']").itertext())
    for word in ("better", "intermediate", "worse"):
        assert word in legend


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_rank_chart_rejects_bad_ranks(bad: Any) -> None:
    with pytest.raises(ValueError, match="must be a non-negative integer"):
        rank_chart_svg(["a"], ["bleu"], {("a", "bleu"): bad})


def test_module_imports_no_django() -> None:
    script = (
        "import sys, annotation.dashboard.charts\n"
        "print(int(any(m.split('.')[0] == 'django' for m in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "0"
