"""The table's downloads (``annotation/dashboard/export.py``): the JSON has ``manage.py
scores --json``'s shape and figures, the CSV one row per system at full precision."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable

import pytest

from annotation.corpora.imports import corpus_import
from annotation.dashboard import figures as dashboard_figures
from annotation.dashboard.export import table_csv, table_json
from annotation.dashboard.table import METRICS
from annotation.models import Corpus, Judgment, Target, User
from annotation.tests.boards import view_of
from annotation.tests.factories import DEMO_XML, HAND_SYSTEMS, scores_json

pytestmark = pytest.mark.django_db


def test_figures_are_exactly_those_of_manage_py_scores(
    user_factory: Callable[..., User],
) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    a, b = user_factory("a"), user_factory("b")
    targets = Target.objects.filter(sentence__corpus=corpus, translator__role="system")
    for i, target in enumerate(targets.order_by("pk")[:60]):
        Judgment.objects.create(
            target=target,
            evaluator=a if i % 3 else b,
            sser=i % 11,
            new_ref=target.text,
            edits=i % 5,
            ref_length=7 + i % 4,
            ter_edits=i % 4,
            ter_length=7 + i % 4,
            ier_errors=i % 3,
            ier_length=2 + i % 2,
            state="done",
        )

    expected = scores_json("demo")
    got = table_json(view_of(corpus).get(dashboard_figures.table))

    assert got["corpus"] == expected["corpus"]
    assert set(got["translators"]) == set(expected["translators"])
    for system, figures in expected["translators"].items():
        assert set(got["translators"][system]) == set(figures) == set(METRICS)
        for metric, figure in figures.items():
            # the same floats, bit for bit, and the same signatures
            assert got["translators"][system][metric]["score"] == figure["score"]
            assert got["translators"][system][metric]["signature"] == figure["signature"]


def test_csv_has_one_row_per_system_rounded_as_shown(judged_hand: Corpus) -> None:
    """Two decimals, as the table prints them; four sentences are too few for any rank
    group to be earned, so every system is in group 1, and too few for an interval."""
    text = table_csv(view_of(judged_hand).get(dashboard_figures.table))
    lines = [line.split(",") for line in text.splitlines()]
    header = lines[0]

    assert header[:7] == [
        "system",
        "wer",
        "wer_rank",
        "wer_ci_low",
        "wer_ci_high",
        "wer_n",
        "wer_signature",
    ]
    assert [line[0] for line in lines[1:]] == list(HAND_SYSTEMS)
    one_off = dict(zip(header, lines[2], strict=True))
    assert one_off["wer"] == "25.00"
    assert (one_off["wer_ci_low"], one_off["wer_ci_high"]) == ("too few", "too few")
    assert one_off["wer_rank"] == "1"
    assert one_off["sser"] == "25.00"
    assert one_off["sser_n"] == "4"


def test_csv_numbers_are_the_tables_and_the_json_keeps_full_precision(demo: Corpus) -> None:
    table = view_of(demo).get(dashboard_figures.table)
    rows = {r["system"]: r for r in csv.DictReader(io.StringIO(table_csv(table)))}
    full = table_json(table)["translators"]

    for row in table.rows:
        for c in row.cells:
            got = rows[row.system]
            assert got[c.metric] == c.display  # the figure as the page prints it
            # the JSON has the same figure to the last bit, and its interval
            assert full[row.system][c.metric]["score"] == c.score
            if c.too_few:  # the demo's judged sentences: too few for an interval
                assert got[f"{c.metric}_ci_low"] == "too few"
                assert full[row.system][c.metric]["ci"] is None
                continue
            assert re.fullmatch(r"-?\d+\.\d\d", got[f"{c.metric}_ci_low"])
            assert float(got[f"{c.metric}_ci_low"]) == round(c.interval.low, 2)
            assert full[row.system][c.metric]["ci"] == [c.interval.low, c.interval.high]
    assert any(len(repr(c.score)) > 6 for r in table.rows for c in r.cells)
