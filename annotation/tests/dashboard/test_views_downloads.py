"""The dashboard's downloads (``annotation/dashboard/views.py``'s ``table`` and ``chart``
views): the table as CSV and JSON, every chart as SVG, drawn and linked on the page."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.test import Client
from lxml import etree

from annotation.corpora.imports import corpus_import
from annotation.formatting import spreadsheet_safe
from annotation.models import Corpus
from annotation.tests.factories import (
    HAND_REFS,
    HUMAN,
    METRICS,
    SEED_XML,
    cells,
    scores_json,
    signature_choice,
    write_corpus,
)

pytestmark = pytest.mark.django_db


def test_the_table_downloads_as_csv(lead_client: Client, demo: Corpus) -> None:
    response = lead_client.get(f"/dashboard/{demo.pk}/table.csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'attachment; filename="demo-metrics.csv"' in response["Content-Disposition"]
    expected = scores_json("demo")["translators"]
    assert [r["system"] for r in rows] == list(expected)
    for r in rows:
        for metric in METRICS:
            # rounded as the table shows it (the JSON has every digit)
            assert r[metric] == f"{expected[r['system']][metric]['score']:.2f}"
            assert int(r[f"{metric}_rank"]) >= 1
    # where the full precision is: a link in the response, and beside the CSV's link
    full = f"/dashboard/{demo.pk}/table.json?"
    assert response["Link"].startswith(f"<{full}")
    assert 'title="full precision"' in response["Link"]
    page = etree.HTML(lead_client.get(f"/dashboard/{demo.pk}/").content.decode())
    (link,) = page.xpath('//nav[@class="downloads"]//a[@id="download-full-precision"]')
    assert link.text == "full precision"
    assert link.get("href").startswith(full)


@pytest.mark.usefixtures("full_bootstrap")  # the samples it states: production's
def test_the_table_downloads_as_json_like_manage_py_scores(
    lead_client: Client, demo: Corpus
) -> None:
    response = lead_client.get(f"/dashboard/{demo.pk}/table.json?tok=13a")
    got = json.loads(response.content)
    expected = scores_json("demo")

    assert response["Content-Type"] == "application/json"
    assert got["corpus"] == expected["corpus"]
    for system, figures in expected["translators"].items():
        for metric, figure in figures.items():
            mine = got["translators"][system][metric]
            assert (mine["score"], mine["signature"]) == (figure["score"], figure["signature"])
            if mine["n"] < 10:  # the demo's few judged sentences: no interval (metrics.claims)
                assert mine["ci"] is None
                assert mine["too_few"] == f"too few judged sentences (n = {mine['n']})"
            else:
                low, high = mine["ci"]
                assert low <= high
                assert mine["too_few"] == ""
            assert mine["rank"] >= 1
    assert got["significance"] == {
        "test": "paired-bs",
        "samples": 1000,
        "seed": 12345,
        "alpha": 0.05,
        "ci": "95% percentile bootstrap",
        "min_common": 10,
    }
    assert set(got["metrics"]) == set(METRICS)
    for test in got["metrics"].values():
        assert test["ranks"] in ("earned", "too-few")
        assert test["n"] >= 0
        assert test["verdict"]
    assert set(got["clusters"]["sser"]["systems"]) == set(expected["translators"])
    assert "Mann-Whitney" in got["clusters"]["sser"]["test"]


def test_the_meta_evaluation_downloads_as_json_with_every_figure_of_its_panel(
    lead_client: Client, demo: Corpus
) -> None:
    """Per metric, human figure and level the panel's coefficients at full precision;
    at system level also pairwise and soft pairwise accuracy, each with its interval."""
    response = lead_client.get(f"/dashboard/{demo.pk}/meta.json?tok=intl")
    got = json.loads(response.content)
    panel = etree.HTML(lead_client.get(f"/dashboard/{demo.pk}/panel/meta/?tok=intl").content)

    assert response["Content-Type"] == "application/json"
    assert 'filename="demo-meta-evaluation.json"' in response["Content-Disposition"]
    assert got["corpus"] == "demo"
    assert got["preprocessing"]["tok"] == "intl"
    assert got["coefficients"] == [
        "pearson",
        "kendall",
        "pairwise_accuracy",
        "soft_pairwise_accuracy",
    ]
    assert got["intervals"]["samples"] == 1000
    assert got["intervals"]["seed"] == 12345
    by_place = {(c["metric"], c["human"], c["level"]): c for c in got["correlations"]}
    assert len(by_place) == len(got["correlations"]) == 15 * 4 * 2
    for td in panel.findall('.//table[@id="meta-table"]/tbody/tr/td'):
        metric = td.getparent().get("data-metric")
        place = (metric, td.get("data-human"), td.get("data-level"))
        figure = by_place[place][td.get("data-coef")]
        assert str(figure["n"]) == td.get("data-n")
        low = "" if figure["ci"] is None else str(figure["ci"][0])
        assert low == td.get("data-ci-low")
        assert f"({by_place[place]['signature']})" in td.get("title")
    system = by_place["wer", "sser", "system"]
    # the demo's systems rest on a few judged sentences each: too few for any value, on
    # the page as here (metrics.claims)
    assert system["too_few"].startswith("too few judged sentences (n = ")
    for name in ("pairwise_accuracy", "soft_pairwise_accuracy"):
        assert (system[name]["value"], system[name]["ci"]) == (None, None)
        assert system[name]["n"] == 5
    assert "pairwise_accuracy" not in by_place["wer", "sser", "sentence"]
    link = panel.find('.//a[@id="download-meta-json"]')
    assert link.get("href").startswith(f"/dashboard/{demo.pk}/meta.json?")
    assert "tok=intl" in link.get("href")


@pytest.mark.parametrize("name", ["ranks", *METRICS])
def test_each_chart_downloads_as_svg(lead_client: Client, demo: Corpus, name: str) -> None:
    response = lead_client.get(f"/dashboard/{demo.pk}/chart/{name}.svg?download=1")
    root = etree.fromstring(response.content)

    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    stem = name.replace("+", "p")  # chrf++ → chrfpp
    assert f'filename="demo-{stem}.svg"' in response["Content-Disposition"]
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_the_page_draws_and_links_every_chart(lead_client: Client, demo: Corpus) -> None:
    tree = etree.HTML(lead_client.get(f"/dashboard/{demo.pk}/").content)

    figures = tree.findall('.//section[@id="charts"]//figure')
    assert [f.get("data-chart") for f in figures] == ["ranks", *METRICS]
    for figure in figures:
        assert (
            figure.find("{http://www.w3.org/2000/svg}svg") is not None
            or figure.find("svg") is not None
        )
        link = figure.find(".//a[@data-action='download-svg']")
        assert link.get("href").startswith(
            f"/dashboard/{demo.pk}/chart/{figure.get('data-chart')}.svg?"
        )
        assert "download=1" in link.get("href")


@pytest.mark.parametrize("metric", METRICS)
def test_chart_bars_mark_the_tables_best_and_show_its_signatures(
    lead_client: Client, demo: Corpus, metric: str
) -> None:
    """One rule for "best" (SER is 100 for every demo system: all five are best), and a
    figure's signature on hover in a chart as in the table."""
    table = cells(lead_client.get(f"/dashboard/{demo.pk}/?tok=intl").content.decode())
    svg = lead_client.get(f"/dashboard/{demo.pk}/chart/{metric}.svg?tok=intl").content
    bars = etree.fromstring(svg).findall(".//{http://www.w3.org/2000/svg}g[@class='bar']")

    best = {b.get("data-label") for b in bars if b.get("data-best") == "true"}
    assert best == {s for (s, m), c in table.items() if m == metric and c.get("data-best")}
    for bar in bars:
        title = bar.find("{http://www.w3.org/2000/svg}title").text
        signature = table[(bar.get("data-label"), metric)]["title"].split(" · ")[0]
        assert title.endswith(f" · {signature}")
        if metric not in HUMAN:
            assert signature_choice(metric, "intl", lowercase=False)[0] in signature


def test_an_unknown_chart_is_400(lead_client: Client, demo: Corpus) -> None:
    assert lead_client.get(f"/dashboard/{demo.pk}/chart/pie.svg").status_code == 400


def test_a_system_named_like_a_formula_is_text_in_the_csv(
    lead_client: Client, tmp_path: Path
) -> None:
    """OWASP's CSV-injection rule: a cell that a spreadsheet would take for a formula
    starts with an apostrophe; numbers, negative ones too, stay numbers."""
    systems = {'=HYPERLINK("http://evil")': ["a b c d"] * 4, "@SUM(A1)": ["a b c"] * 4}
    corpus = corpus_import(
        source=write_corpus(tmp_path / "f.xml", HAND_REFS, systems), name="formulas"
    ).corpus

    rows = list(
        csv.reader(
            io.StringIO(lead_client.get(f"/dashboard/{corpus.pk}/table.csv").content.decode())
        )
    )

    assert [r[0] for r in rows[1:]] == ['\'=HYPERLINK("http://evil")', "'@SUM(A1)"]
    assert float(rows[1][1]) >= 0
    assert not rows[1][1].startswith("'")
    assert spreadsheet_safe("-1.5") == "'-1.5"
    assert spreadsheet_safe("plain") == "plain"


def test_download_names_carry_no_path_quote_or_line_break(lead_client: Client) -> None:
    corpus = corpus_import(source=SEED_XML, name='../x "y"').corpus

    csv_name = lead_client.get(f"/dashboard/{corpus.pk}/table.csv")["Content-Disposition"]
    xml_name = lead_client.get(f"/corpora/{corpus.pk}/export.xml")["Content-Disposition"]

    assert csv_name == 'attachment; filename="x_y_-metrics.csv"'
    assert xml_name == 'attachment; filename="x_y.evaltrans.xml"'
