"""No figure claims more than the data (issue 35, points 7 and 8): one rule
(:mod:`metrics.claims`: ten sentences) decides, for every download and every panel,
whether an interval, a correlation or an estimate is a number or "too few", and no
interval leaves its metric's range.

Table-driven: three systems × 60 sentences, each system judged on n of them, n = 0, 1,
2, 3 and 50, and one check per download and panel. At 0 there is no figure (and no
rank); at 1–3, every human figure says "too few judged sentences (n = 2)" and gives no
interval, correlation or estimate; at 50, numbers, each inside its metric's range."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client
from lxml import etree

from annotation.models import Corpus, User
from annotation.tests.factories import HTMX, cells, done_judgment, done_judgments
from annotation.tests.judged_corpora import APART, apart_corpus_in
from annotation.tests.stored import scored
from metrics.claims import MIN_SENTENCES, too_few
from metrics.registry import metric_info

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
SENTENCES = 60
JUDGED = (0, 1, 2, 3, 50)
#: The human figures these judgments give (an SSER score and edits on each).
HUMAN = ("sser", "awer", "aser")
#: The figures the meta-evaluation correlates with them.
META = ("sser", "awer")


@pytest.fixture
def judged(tmp_path: Path, user_factory: Callable[..., User]) -> Callable[[int], Corpus]:
    """Three systems × 60 sentences, their statistics stored, ``n`` sentences judged per
    system (:func:`~annotation.tests.judged_corpora.apart_corpus_in`)."""

    def make(n: int) -> Corpus:
        return scored(
            apart_corpus_in(tmp_path, f"few{n}", user_factory("ann"), n, sentences=SENTENCES)
        )

    return make


def note(n: int) -> str:
    return f"too few judged sentences (n = {n})"


def inside(metric: str, *values: float) -> bool:
    """Whether ``values`` ascend inside the metric's range (correlations: −1 … 1)."""
    lowest, highest = (-1.0, 1.0) if metric == "r" else metric_info(metric).bounds
    return lowest <= values[0] and list(values) == sorted(values) and values[-1] <= highest


def get(client: Client, corpus: Corpus, path: str, **extra: str) -> str:
    response = client.get(f"/dashboard/{corpus.pk}/{path}", **extra)
    assert response.status_code == 200, path
    return response.content.decode()


def check_table_csv(client: Client, corpus: Corpus, n: int) -> None:
    rows = {r["system"]: r for r in csv.DictReader(io.StringIO(get(client, corpus, "table.csv")))}
    for system in APART:
        for m in HUMAN:
            row = rows[system]
            ci = (row[f"{m}_ci_low"], row[f"{m}_ci_high"])
            if n == 0:
                assert (row[m], row[f"{m}_rank"], *ci) == ("", "", "", "")
            elif too_few(n):
                assert ci == ("too few", "too few"), (system, m)
                assert row[f"{m}_n"] == str(n)
            else:
                assert inside(m, float(ci[0]), float(row[m]), float(ci[1])), (system, m)


def check_table_json(client: Client, corpus: Corpus, n: int) -> None:
    table = json.loads(get(client, corpus, "table.json"))
    for system in APART:
        figures = table["translators"][system]
        for m in HUMAN:
            if n == 0:
                assert m not in figures
                continue
            figure = figures[m]
            if too_few(n):
                assert (figure["ci"], figure["too_few"], figure["n"]) == (None, note(n), n)
                assert figure["estimate"] is None
            else:
                assert figure["too_few"] == ""
                assert inside(m, figure["ci"][0], figure["score"], figure["ci"][1])
                est = figure["estimate"]
                assert inside(m, est["low"], est["mean"], est["high"]), (system, m)
                assert inside(m, est["plain"]["low"], est["plain"]["mean"], est["plain"]["high"])


def check_page_table(client: Client, corpus: Corpus, n: int) -> None:
    got = cells(get(client, corpus, ""))
    for system in APART:
        for m in HUMAN:
            cell = got[(system, m)]
            ci = (cell["data-ci-low"], cell["data-ci-high"])
            if n == 0:  # nobody judged it: no figure, and no rank group
                assert (cell["data-rank"], cell["text"], *ci) == ("0", "–", "", "")
            elif too_few(n):
                assert ci == ("", "")
                assert "too few" in cell["text"]
                assert "±" not in cell["text"]
                assert "[" not in cell["text"]
                assert note(n) in cell["title"]
            else:
                low, value, high = float(ci[0]), float(cell["data-value"]), float(ci[1])
                assert inside(m, low, value, high), (system, m)
                assert int(cell["data-rank"]) >= 1
                assert "too few" not in cell["text"]


def check_charts(client: Client, corpus: Corpus, n: int) -> None:
    for m in HUMAN:
        root = etree.fromstring(get(client, corpus, f"chart/{m}.svg").encode())
        for bar in root.iterfind(f"{SVG}g[@class='bar']"):
            whiskers = bar.findall(f"{SVG}g[@class='ci']")
            text = bar.find(f"{SVG}text[@class='value']").text
            if n == 0:
                assert (whiskers, bar.get("data-rank")) == ([], "")
            elif too_few(n):
                assert whiskers == [], (bar.get("data-label"), m)
                assert text.endswith(f"n = {n}, too few for an interval")
            else:
                (ci,) = whiskers
                assert inside(m, float(ci.get("data-low")), float(ci.get("data-high")))
    ranks = etree.fromstring(get(client, corpus, "chart/ranks.svg").encode())
    label = metric_info("sser").label
    ranked = [
        c.get("data-rank")
        for c in ranks.iterfind(f"{SVG}g[@class='cell']")
        if c.get("data-metric") == label
    ]
    assert ranked == ([""] * 3 if n == 0 else ["1", "2", "3"] if not too_few(n) else ["1"] * 3)


def check_estimates_panel(client: Client, corpus: Corpus, n: int) -> None:
    html = etree.HTML(get(client, corpus, "panel/estimates/", **HTMX))
    if n == 0:
        assert html.xpath('//*[@id="no-estimates"]')
        return
    for m in HUMAN:
        rows = html.xpath(f'//table[@id="estimates-table"]//tr[@data-metric="{m}"]')
        assert sorted(r.get("data-translator") for r in rows) == sorted(APART), m
        for row in rows:
            if too_few(n):
                assert row.get("data-too-few") == note(n)
                assert row.get("data-estimate") is None
                assert row.get("data-rank") is None
                assert note(n) in "".join(row.itertext())
                assert not row.xpath('.//td[@data-col="covariates"]')
                continue
            attrs = [float(row.get(f"data-{a}")) for a in ("estimate-low", "estimate")]
            attrs.append(float(row.get("data-estimate-high")))
            assert inside(m, *attrs), (row.get("data-translator"), m)
            plain = [float(row.get(f"data-{a}")) for a in ("plain-low", "plain", "plain-high")]
            assert inside(m, *plain)
            for span in row.xpath('.//td[@data-col="covariates"]/span'):
                r = span.get("data-correlation")
                assert r == "" or inside("r", float(r))


def check_meta_json(client: Client, corpus: Corpus, n: int) -> None:
    meta = json.loads(get(client, corpus, "meta.json"))
    for row in meta["correlations"]:
        if row["human"] not in META:
            continue
        coefficients = [row[c] for c in meta["coefficients"] if c in row]
        points = 3 * n if row["level"] == "sentence" else n  # judged candidates, systems'
        if n == 0 or too_few(points):
            assert [(c["value"], c["ci"]) for c in coefficients] == [(None, None)] * len(
                coefficients
            )
            assert row["too_few"] == ("" if n == 0 else note(points))
            continue
        assert row["too_few"] == ""
        for c in coefficients:
            assert inside("r", c["value"])
            if c["ci"] is not None:
                assert inside("r", c["ci"][0], c["ci"][1])
        if row["level"] == "system":
            assert all(c["ci"] is not None for c in coefficients)


def check_meta_panel(client: Client, corpus: Corpus, n: int) -> None:
    html = etree.HTML(get(client, corpus, "panel/meta/", **HTMX))
    tds = [
        td
        for td in html.xpath('//table[@id="meta-table"]/tbody/tr/td')
        if td.get("data-human") in META
    ]
    assert tds
    for td in tds:
        points = 3 * n if td.get("data-level") == "sentence" else n
        words = td.xpath('.//small[@class="too-few"]')
        if n and too_few(points):
            assert [w.text for w in words] == [note(points)]
            assert (td.text or "").strip() == ""  # no value before the note
            assert td.get("data-ci-low") == ""
        elif n:
            assert words == []
            assert inside("r", float(td.text))
            if td.get("data-level") == "system":
                assert inside("r", float(td.get("data-ci-low")), float(td.get("data-ci-high")))


CHECKS = {
    "table.csv": check_table_csv,
    "table.json": check_table_json,
    "page table": check_page_table,
    "charts": check_charts,
    "estimates panel": check_estimates_panel,
    "meta.json": check_meta_json,
    "meta panel": check_meta_panel,
}


@pytest.mark.parametrize("where", CHECKS)
@pytest.mark.parametrize("n", JUDGED)
def test_every_download_and_panel_claims_only_what_n_judged_sentences_allow(
    lead_client: Client, judged: Callable[[int], Corpus], n: int, where: str
) -> None:
    CHECKS[where](lead_client, judged(n), n)


def test_the_rule_is_ten_sentences() -> None:
    """The threshold the cases above straddle (2 and 3 below it, 50 above)."""
    assert MIN_SENTENCES == 10
    assert [too_few(n) for n in JUDGED] == [True, True, True, True, False]


def test_an_estimate_near_the_bottom_of_its_range_keeps_its_interval_inside_it(
    lead_client: Client, judged: Callable[[int], Corpus], user_factory: Callable[..., User]
) -> None:
    """Ten judged sentences, nine without error and one all wrong: Student's t reaches
    below 0 % (the mean 10 % less 2.3 standard errors of 10), where an error rate cannot
    lie; the panel's and table.json's intervals stop at 0."""
    corpus = judged(0)
    ann = user_factory("bob")
    for k in range(MIN_SENTENCES):
        done_judgment(corpus, ann, "good", k, sser=0 if k == 4 else 10, edits=0, length=6)
    html = etree.HTML(get(lead_client, corpus, "panel/estimates/", **HTMX))
    (row,) = html.xpath('//tr[@data-metric="sser"][@data-translator="good"]')
    figure = json.loads(get(lead_client, corpus, "table.json"))["translators"]["good"]["sser"]

    assert float(row.get("data-plain")) == pytest.approx(10.0)
    assert float(row.get("data-plain-low")) == 0.0
    assert float(row.get("data-estimate-low")) == 0.0
    assert figure["estimate"]["plain"]["low"] == figure["estimate"]["low"] == 0.0
    assert "[0.00, " in "".join(row.itertext())
    assert not math.isnan(float(row.get("data-estimate-high")))


@pytest.mark.parametrize("n", [3, 50])
def test_the_judges_agreement_says_too_few_on_too_few_pairs(
    lead_client: Client,
    judged: Callable[[int], Corpus],
    user_factory: Callable[..., User],
    n: int,
) -> None:
    """A second judge on the same candidates (one point lower, one edit more): 3n pairs
    of judgments. Nine pairs give no r and no α, only the words; 150 give numbers."""
    corpus = judged(n)
    bob = user_factory("bob")
    done_judgments(
        corpus,
        (
            (bob, system, k, (high if k % 2 else low) - 1, wrong + k % 2 + 1, 6)
            for system, ((high, low), wrong) in APART.items()
            for k in range(n)
        ),
    )
    html = etree.HTML(get(lead_client, corpus, "panel/judges/", **HTMX))
    shown = {dd.get("data-agreement"): dd for dd in html.xpath('//dl[@id="agreement"]//dd')}
    pairs = 3 * n
    expected = {
        "sser-pearson": f"too few pairs (n = {pairs})",
        "sser-alpha": f"too few candidates judged twice (n = {pairs})",
        "awer-pearson": f"too few pairs (n = {pairs})",
    }

    for name, words in expected.items():
        notes = [w.text for w in shown[name].xpath('.//small[@class="too-few"]')]
        if too_few(pairs):
            assert notes == [words]
            assert (shown[name].text or "").strip() == ""  # no value before the words
        else:
            assert notes == []
            assert inside("r", float(shown[name].text))
