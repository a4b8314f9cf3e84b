"""Metrics a lead imported (COMET, MetricX, …) on the dashboard: a column of their own after
the app's, with the direction they were imported with; rank groups from the same paired
bootstrap; a row of the meta-evaluation; in every download; sorted, charted, escaped; and
no query more whatever their number."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from lxml import etree

from annotation.corpora.systems import corpus_add_system
from annotation.dashboard import figures, sources
from annotation.dashboard.meta_human import sentence_human
from annotation.dashboard.panels.charts import charts_panel
from annotation.dashboard.panels.meta import meta_panel
from annotation.dashboard.panels.table import table_panel
from annotation.dashboard.table import METRICS as APP_COLUMNS
from annotation.models import Corpus, User
from annotation.statistics import judgment_rows
from annotation.tests.boards import view_of
from annotation.tests.factories import (
    AUTOMATIC,
    HTMX,
    HUMAN,
    add_judgments,
    by_id,
    cells,
    sized_corpus,
)
from annotation.tests.imported import import_scores
from annotation.tests.stored import scored
from metrics.correlation import pearson
from metrics.segment_scores import mean_from_stats, mean_rows
from metrics.significance import Bootstrap

pytestmark = pytest.mark.django_db

SYSTEMS = ("DIDI-NLP", "Facebook-AI", "IIE-MT", "NiuTrans", "Online-W")


def demo_scores(offsets: tuple[float, ...] = (0.1, 0.1, 0.0, -0.1, 0.0)) -> dict[str, list[float]]:
    """Scores of the demo corpus's 40 sentences: one shared difficulty per sentence, each
    system off it by its offset and some noise of its own."""
    rng = np.random.default_rng(7)
    base = rng.normal(0.7, 0.1, 40)
    return {
        s: (base + offset + rng.normal(0.0, 0.03, 40)).tolist()
        for s, offset in zip(SYSTEMS, offsets, strict=True)
    }


@pytest.fixture
def imported(demo: Corpus) -> Corpus:
    """The demo corpus with COMET-22 (higher is better) and MetricX (lower is better)."""
    import_scores(demo, "COMET-22", demo_scores(), description="wmt22-comet-da, refA")
    import_scores(demo, "MetricX", demo_scores((5.0, 4.0, 6.0, 8.0, 6.0)), higher_is_better=False)
    return Corpus.objects.get(pk=demo.pk)


def headers(html: str) -> list[etree._Element]:
    return by_id(etree.HTML(html), "metrics-table").findall(".//thead/tr[2]/th[@data-metric]")


def test_the_table_shows_each_imported_metric_after_the_apps_own_with_its_direction(
    lead_client: Client, imported: Corpus
) -> None:
    html = lead_client.get(f"/dashboard/{imported.pk}/").content.decode()

    heads = headers(html)
    assert [h.get("data-metric") for h in heads] == [
        *APP_COLUMNS,
        "COMET-22",
        "MetricX",
    ]
    comet, metricx = heads[-2:]
    assert (comet.get("data-higher"), comet.get("data-imported")) == ("true", "true")
    assert metricx.get("data-higher") == "false"
    assert "".join(comet.itertext()).strip() == "COMET-22↑ higher is better"
    assert "".join(metricx.itertext()).strip() == "MetricX↓ lower is better"
    assert comet.find("a").get("title") == (
        "Sort by COMET-22 (higher is better): wmt22-comet-da, refA"
    )
    family = by_id(etree.HTML(html), "metrics-table").find('.//th[@data-family="external"]')
    assert (family.text, family.get("colspan")) == ("Imported scores", "2")
    cell = cells(html)[("NiuTrans", "COMET-22")]
    assert float(cell["data-value"]) == pytest.approx(np.mean(demo_scores()["NiuTrans"]))
    assert cell["title"].startswith("ext:COMET-22|agg:mean|higher:yes|imported:")


def test_rank_groups_are_the_paired_bootstrap_of_the_segment_scores(imported: Corpus) -> None:
    dash = view_of(imported)
    scores = demo_scores()
    drawn = dash.get(sources.bootstrap)
    bootstrap = Bootstrap(40, drawn.n_samples, drawn.seed)
    expected = bootstrap.compare(
        {s: mean_rows(np.array(v)) for s, v in scores.items()},
        mean_from_stats,
        higher_is_better=True,
    )

    ranks = {row.system: row.cell("COMET-22").rank for row in dash.get(figures.table).rows}

    assert ranks == {s: expected.figure(s).group for s in SYSTEMS}
    assert max(ranks.values()) > 1  # earned: 40 sentences separate some systems
    assert ranks["NiuTrans"] == max(ranks.values())  # the lowest scores, the last group
    best = {row.system for row in dash.get(figures.table).rows if row.cell("MetricX").best}
    assert best == {"Facebook-AI"}  # lower is better: the lowest offset (4.0)
    line = next(v for v in dash.get(table_panel).verdicts if v.metric == "COMET-22")
    assert line.label == "COMET-22"
    assert line.text.startswith("best: ")
    assert "on n = 40 sentences" in line.text
    assert "COMET-22" in [name for name, _, _ in dash.get(charts_panel).charts]


def test_sorting_by_an_imported_metric_reads_its_direction(
    lead_client: Client, imported: Corpus
) -> None:
    means = {s: np.mean(v) for s, v in demo_scores((5.0, 4.0, 6.0, 8.0, 6.0)).items()}
    best_first = sorted(SYSTEMS, key=lambda s: means[s])  # lower is better

    for sort, order in (("MetricX", best_first), ("-MetricX", best_first[::-1])):
        html = lead_client.get(f"/dashboard/{imported.pk}/?sort={sort}").content.decode()
        rows = by_id(etree.HTML(html), "metrics-table").findall(".//tbody/tr")
        assert [r.get("data-translator") for r in rows] == order

    refused = lead_client.get(f"/dashboard/{imported.pk}/?sort=BLEURT")
    assert refused.status_code == 400
    assert "sort=&#x27;BLEURT&#x27;: a metric (wer, " in refused.content.decode()
    assert "ier, COMET-22, MetricX)" in refused.content.decode()  # the imported ones too


def test_the_downloads_carry_every_imported_figure(lead_client: Client, imported: Corpus) -> None:
    comet = demo_scores()
    table = json.loads(lead_client.get(f"/dashboard/{imported.pk}/table.json").content)
    figure = table["translators"]["IIE-MT"]["COMET-22"]
    assert figure["score"] == pytest.approx(np.mean(comet["IIE-MT"]))
    assert figure["signature"].startswith("ext:COMET-22|agg:mean|higher:yes")
    assert figure["rank"] >= 1
    assert figure["n"] == 40
    assert table["metrics"]["COMET-22"]["higher_is_better"] is True
    assert table["metrics"]["MetricX"]["higher_is_better"] is False
    assert table["metrics"]["COMET-22"]["imported"] is True
    assert table["metrics"]["bleu"]["imported"] is False

    text = lead_client.get(f"/dashboard/{imported.pk}/table.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0])[-12:-6] == [
        "COMET-22",
        "COMET-22_rank",
        "COMET-22_ci_low",
        "COMET-22_ci_high",
        "COMET-22_n",
        "COMET-22_signature",
    ]
    iie = next(r for r in rows if r["system"] == "IIE-MT")
    assert iie["COMET-22"] == f"{np.mean(comet['IIE-MT']):.2f}"

    meta = json.loads(lead_client.get(f"/dashboard/{imported.pk}/meta.json").content)
    mine = [c for c in meta["correlations"] if c["metric"] == "COMET-22"]
    assert {(c["human"], c["level"]) for c in mine} == {
        (h, level) for h in ("sser", "awer", "hter", "ier") for level in ("sentence", "system")
    }
    assert mine[0]["signature"].startswith("ext:COMET-22")

    svg = lead_client.get(f"/dashboard/{imported.pk}/chart/MetricX.svg")
    assert svg.status_code == 200
    assert b"MetricX" in svg.content


def test_the_meta_evaluation_correlates_it_with_the_judges_as_an_automatic_metric(
    imported: Corpus,
) -> None:
    dash = view_of(imported)
    comet = demo_scores()
    judged = sentence_human(judgment_rows(imported), "sser")

    sentence = dash.get(meta_panel).get("COMET-22", "sser", "sentence")
    x = [comet[s][k] for s, k in judged]
    assert sentence.pearson.value == pytest.approx(pearson(x, list(judged.values())).value)
    assert sentence.pearson.n == len(judged)

    system = dash.get(meta_panel).get("COMET-22", "sser", "system")
    humans = {s: f["sser"].score for s, f in dash.get(figures.human).items() if "sser" in f}
    xs = [float(np.mean(comet[s])) for s in SYSTEMS if s in humans]
    assert system.pearson.value == pytest.approx(
        pearson(xs, [humans[s] for s in SYSTEMS if s in humans]).value
    )
    assert system.pearson_interval is not None
    assert system.accuracy is not None
    grid = {row["metric"]: row for row in dash.get(meta_panel).grid}
    assert grid["COMET-22"]["label"] == "COMET-22"
    assert list(grid)[-2:] == ["COMET-22", "MetricX"]


def test_a_system_added_after_the_import_has_no_imported_figure_and_no_group(
    hand_corpus: Corpus,
) -> None:
    import_scores(hand_corpus, "COMET", {s: [0.5, 0.6, 0.7, 0.8] for s in HAND})
    corpus_add_system(
        corpus=hand_corpus,
        name="late",
        lines=["a b c d"] * 4,
        filename="late.txt",
        unsegmented=False,
    )
    corpus = scored(Corpus.objects.get(pk=hand_corpus.pk))

    dash = view_of(corpus)
    late = dash.get(figures.table).row("late").cell("COMET")

    assert (late.figure, late.rank, late.has_score) == (None, 0, False)
    assert late.title == "COMET: no score"
    assert dash.get(figures.table).row("perfect").cell("COMET").score == pytest.approx(0.65)


HAND = ("perfect", "one-off", "bad")


def test_names_and_descriptions_are_escaped_on_the_page(
    lead_client: Client, hand_corpus: Corpus
) -> None:
    import_scores(
        hand_corpus, "COMET", {s: [0.5] * 4 for s in HAND}, description='<script>x()</script>"'
    )

    html = lead_client.get(f"/dashboard/{hand_corpus.pk}/").content.decode()

    assert "<script>x()" not in html
    (head,) = [h for h in headers(html) if h.get("data-metric") == "COMET"]
    assert head.find("a").get("title").endswith(': <script>x()</script>"')  # as text


def _views(client: Client, corpus: Corpus) -> tuple[int, ...]:
    """Queries of a first and a later view of the page and of table.json."""
    out = []
    for url in (f"/dashboard/{corpus.pk}/", f"/dashboard/{corpus.pk}/table.json"):
        for _ in range(2):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url, **HTMX).status_code == 200
            out.append(len(queries))
    return tuple(out)


def test_query_counts_do_not_grow_with_the_imported_metrics(
    lead_client: Client, user_factory: Callable[..., User], tmp_path: Path
) -> None:
    """No imported metric costs no query; any number of them costs one on a view that
    reads them first, none on a later one (remembered)."""
    ann = user_factory("ann")
    counts = {}
    for n in (0, 1, 3):
        corpus = sized_corpus(tmp_path, f"c{n}", 5)
        scored(corpus)  # stored, as once its import's job is done
        add_judgments(corpus, [ann], 5)
        for i in range(n):
            scores = {f"system {s}": [0.1 * s + 0.01 * i] * 5 for s in range(3)}
            import_scores(corpus, f"M{i}", scores)
        counts[n] = _views(lead_client, Corpus.objects.get(pk=corpus.pk))

    page, page_later, table, table_later = counts[0]
    assert counts[1] == counts[3] == (page + 1, page_later, table, table_later)


def test_columns_of_every_kind_stay_where_they_were(imported: Corpus) -> None:
    """Imported metrics come last: the app's columns (and the CSV's) keep their places."""
    dash = view_of(imported)
    assert list(dash.get(figures.table).metrics)[: len(AUTOMATIC) + len(HUMAN)] == list(APP_COLUMNS)
