"""No download claims more than the page (issue 24): the SSER chart, the table and the
meta-evaluation on 1, 2 and 50 judged sentences per system (the bootstrap's fixed seed,
12345, so every figure here is the same on every run)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from annotation.changes import judgments_changed
from annotation.dashboard import figures
from annotation.dashboard.charts import COLOURS
from annotation.dashboard.meta import MIN_JUDGED
from annotation.dashboard.panels.charts import chart_svg
from annotation.dashboard.panels.meta import meta_panel
from annotation.models import Corpus, User
from annotation.tests.boards import view_of
from annotation.tests.judged_corpora import apart_corpus_in
from annotation.tests.stored import scored

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
SENTENCES = 50


@pytest.fixture
def judged(tmp_path: Path, user_factory: Callable[..., User]) -> Callable[[int], Corpus]:
    """A corpus of 50 sentences × 3 systems, ``n`` of its sentences judged per system
    (:func:`~annotation.tests.judged_corpora.apart_corpus_in`)."""

    def make(n: int) -> Corpus:
        return scored(
            apart_corpus_in(tmp_path, f"claims{n}", user_factory("ann"), n, sentences=SENTENCES)
        )

    return make


def bars(svg: str) -> list[Any]:
    return etree.fromstring(svg.encode()).findall(f"{SVG}g[@class='bar']")


def value_text(bar: Any) -> str:
    return bar.find(f"{SVG}text[@class='value']").text


@pytest.mark.parametrize("n", [1, 2])
def test_a_chart_on_too_few_sentences_says_so_as_the_table_does_and_marks_no_best(
    judged: Callable[[int], Corpus], n: int
) -> None:
    dash = view_of(judged(n))
    note = dash.get(figures.table).tests["sser"].note
    svg = chart_svg(dash, "sser")
    root = etree.fromstring(svg.encode())

    assert note == f"too few judged sentences (n = {n})"
    assert root.get("data-ranks") == "too-few"
    assert root.find(f"{SVG}text[@class='too-few']").text == note
    assert note in root.get("aria-label")
    assert [b.get("data-best") for b in bars(svg)] == [None, None, None]
    assert "★" not in svg
    assert "best" not in "".join(value_text(b) for b in bars(svg))
    assert [b.get("data-n") for b in bars(svg)] == [str(n)] * 3
    assert not any(
        c.best for r in dash.get(figures.table).rows for c in r.cells if c.metric == "sser"
    )


@pytest.mark.parametrize("n", [1, 2])
def test_a_figure_from_too_few_sentences_says_so_and_draws_no_interval(
    judged: Callable[[int], Corpus], n: int
) -> None:
    """One rule for every interval (:mod:`metrics.claims`): fewer than ten sentences."""
    svg = chart_svg(view_of(judged(n)), "sser")

    for bar in bars(svg):
        assert value_text(bar).endswith(f"· n = {n}, too few for an interval")
        assert bar.find(f"{SVG}g[@class='ci']") is None
        assert f"n = {n}, too few for an interval" in bar.find(f"{SVG}title").text


def test_fifty_sentences_earn_the_best_mark_in_the_chart_as_in_the_table(
    judged: Callable[[int], Corpus],
) -> None:
    dash = view_of(judged(SENTENCES))
    svg = chart_svg(dash, "sser")
    root = etree.fromstring(svg.encode())

    assert dash.get(figures.table).tests["sser"].note == ""
    assert root.get("data-ranks") is None
    assert root.find(f"{SVG}text[@class='too-few']") is None
    marked = [b.get("data-label") for b in bars(svg) if b.get("data-best") == "true"]
    assert marked == ["good"]
    assert [r.system for r in dash.get(figures.table).rows if r.cell("sser").best] == ["good"]
    good = next(b for b in bars(svg) if b.get("data-label") == "good")
    assert value_text(good) == "5.00 (1) · n = 50 ★ best"  # (10 + 9)/2 points: 5 % error


@pytest.mark.parametrize("n", [1, 2])
def test_the_meta_evaluation_says_too_few_where_systems_rest_on_few_sentences(
    judged: Callable[[int], Corpus], n: int
) -> None:
    meta = view_of(judged(n)).get(meta_panel)
    system = meta.get("wer", "sser", "system")

    assert n < MIN_JUDGED
    assert system.fewest == n
    assert system.too_few == f"too few judged sentences (n = {n})"
    # three systems' n judged candidates: too few points for a sentence-level value
    assert meta.get("wer", "sser", "sentence").too_few == f"too few judged sentences (n = {3 * n})"
    cells = [c for row in meta.grid for c in row["cells"] if c["level"] == "system"]
    assert all(c["too_few"] == system.too_few for c in cells if c["human"] == "sser")


def test_one_sentence_leaves_the_correlation_no_interval(judged: Callable[[int], Corpus]) -> None:
    """Every sample draws the same one judged sentence (or none): r is the same or
    undefined on every sample, so the interval is a single point or none at all."""
    system = view_of(judged(1)).get(meta_panel).get("wer", "sser", "system")

    assert system.pearson.value == pytest.approx(1.0)
    assert system.pearson_interval is not None
    low, high = system.pearson_interval
    assert low == high == pytest.approx(1.0)


def test_fifty_sentences_give_each_system_correlation_an_interval_and_no_warning(
    judged: Callable[[int], Corpus],
) -> None:
    meta = view_of(judged(SENTENCES)).get(meta_panel)
    wer = meta.get("wer", "sser", "system")

    assert wer.too_few == ""
    assert wer.fewest == SENTENCES
    for coef, interval in (
        (wer.pearson, wer.pearson_interval),
        (wer.kendall, wer.kendall_interval),
    ):
        assert interval is not None
        assert -1.0 <= interval[0] <= coef.value <= interval[1] <= 1.0
    assert wer.kendall.value == pytest.approx(1.0)  # more WER, more SSER error: same order
    cell = next(
        c
        for row in meta.grid
        if row["metric"] == "wer"
        for c in row["cells"]
        if (c["human"], c["level"], c["coef"]) == ("sser", "system", "pearson")
    )
    assert cell["interval"].startswith("[")
    assert cell["too_few"] == ""


def test_the_same_seed_gives_the_same_intervals(judged: Callable[[int], Corpus]) -> None:
    corpus = judged(SENTENCES)
    first = view_of(corpus).get(meta_panel).get("bleu", "sser", "system")
    judgments_changed(corpus.pk)  # forget the remembered one
    again = view_of(Corpus.objects.get(pk=corpus.pk)).get(meta_panel).get("bleu", "sser", "system")

    assert first.pearson_interval is not None
    assert again.pearson_interval == first.pearson_interval
    assert again.kendall_interval == first.kendall_interval


@pytest.mark.parametrize("n, too_few", [(2, True), (SENTENCES, False)])
def test_the_rank_chart_greys_a_column_whose_ranks_are_not_earned(
    judged: Callable[[int], Corpus], n: int, too_few: bool
) -> None:
    dash = view_of(judged(n))
    root = etree.fromstring(chart_svg(dash, "ranks").encode())
    label = "SSER error"
    marks = root.findall(f"{SVG}text[@class='too-few']")
    cells = [c for c in root.findall(f"{SVG}g[@class='cell']") if c.get("data-metric") == label]
    fills = {c.find(f"{SVG}circle").get("fill") for c in cells}

    assert dash.get(figures.table).tests["sser"].too_few is too_few
    assert [m.get("data-metric") for m in marks if m.get("data-metric") == label] == (
        [label] if too_few else []
    )
    if too_few:
        assert fills == {COLOURS["none"]}
        assert all(
            f"too few judged sentences (n = {n})" in c.find(f"{SVG}title").text for c in cells
        )
    else:
        assert COLOURS["better"] in fills
        assert COLOURS["none"] not in fills
