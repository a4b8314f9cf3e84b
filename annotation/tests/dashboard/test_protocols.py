"""The dashboard of corpora judged by error spans (issue 41, point 5): ``esa``, ``esa_z``
and ``mqm`` as columns of the table (``data-metric``), of ``table.json``, ``table.csv``
and ``manage.py scores --json``, each with the paired bootstrap's rank groups and WMT's
rank-sum clusters (checked against scipy's test); an aWER corpus's table as it was."""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections.abc import Callable

import pytest
import scipy.stats
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.campaigns.power import campaign_figures
from annotation.dashboard import figures as dashboard_figures
from annotation.dashboard.panels.judges import judges_agreement
from annotation.dashboard.table import METRICS
from annotation.models import Corpus, User
from annotation.models.corpus import Protocol
from annotation.statistics import sentence_scores_by_system
from annotation.tests.boards import view_of
from annotation.tests.factories import HTMX, cells, page_queries, scores_json
from annotation.tests.span_corpora import (
    SpanJudgment,
    span_corpus,
    span_judgment,
    span_judgments,
)
from annotation.tests.stored import scored

pytestmark = pytest.mark.django_db

SYSTEMS = ("A", "B", "C")
#: Sentences judged: more than the ten two systems need in common to be separated.
SENTENCES = 12


def esa_score(system: str, k: int) -> int:
    """A's candidates are good, B's each 2 points worse than A's, C's bad, with some
    spread: A and B overlap enough that the rank-sum test, which ignores the pairing,
    cannot separate them on 12 sentences, while the paired bootstrap sees B lose every
    sentence."""
    base = {"A": 80, "B": 78, "C": 30}[system]
    return base + (k * 7) % 15


def esa_judged(user_factory: Callable[..., User], sentences: int = SENTENCES) -> Corpus:
    """Two judges; ann judges every candidate, bob the even sentences' again, 10 points
    more leniently (so a candidate's judges are averaged first)."""
    ann, bob = user_factory(f"ann{sentences}"), user_factory(f"bob{sentences}")
    corpus = scored(
        span_corpus(Protocol.ESA, ann, systems=SYSTEMS, sentences=sentences, name=f"esa{sentences}")
    )
    made: list[SpanJudgment] = []
    for k in range(sentences):
        for s in SYSTEMS:
            made.append((ann, s, k, esa_score(s, k), ()))
            if k % 2 == 0:
                made.append((bob, s, k, min(100, esa_score(s, k) + 10), ()))
    span_judgments(corpus, made)
    return corpus


@pytest.fixture
def esa_corpus(user_factory: Callable[..., User]) -> Corpus:
    return esa_judged(user_factory)


def test_the_table_shows_esa_and_esa_z_instead_of_the_awer_figures(
    lead_client: Client, esa_corpus: Corpus
) -> None:
    html = lead_client.get(f"/dashboard/{esa_corpus.pk}/").content.decode()
    shown = cells(html)
    metrics = {m for _, m in shown}
    assert {"esa", "esa_z"} <= metrics
    assert not {"sser", "awer", "aser", "hter", "ier", "mqm"} & metrics
    assert 'data-metric="esa"' in html
    assert 'data-metric="esa_z"' in html
    # the paired bootstrap's rank groups: B loses (nearly) every sentence to A by 2 points
    ranks = {s: int(shown[(s, "esa")]["data-rank"]) for s in SYSTEMS}
    assert ranks == {"A": 1, "B": 2, "C": 3}
    assert float(shown[("A", "esa")]["data-value"]) > float(shown[("B", "esa")]["data-value"])


def test_an_awer_corpus_keeps_its_columns(lead_client: Client, demo: Corpus) -> None:
    html = lead_client.get(f"/dashboard/{demo.pk}/").content.decode()
    assert {m for _, m in cells(html)} == set(METRICS)
    assert 'data-metric="esa"' not in html
    assert 'id="sser-clusters"' in html


def test_the_downloads_and_manage_py_scores_name_the_figures_alike(
    lead_client: Client, esa_corpus: Corpus
) -> None:
    table = json.loads(lead_client.get(f"/dashboard/{esa_corpus.pk}/table.json").content)
    text = lead_client.get(f"/dashboard/{esa_corpus.pk}/table.csv").content.decode()
    rows = {r["system"]: r for r in csv.DictReader(io.StringIO(text))}
    expected = view_of(esa_corpus).get(dashboard_figures.human)
    printed = scores_json(esa_corpus.name)["translators"]
    for s in SYSTEMS:
        for m in ("esa", "esa_z"):
            assert table["translators"][s][m]["score"] == expected[s][m].score
            assert printed[s][m]["score"] == expected[s][m].score
            assert rows[s][m] == f"{expected[s][m].score:.2f}"
            assert table["translators"][s][m]["rank"] == SYSTEMS.index(s) + 1
        assert "awer" not in table["translators"][s]
        assert "awer" not in printed[s]
    assert set(table["clusters"]) == {"esa", "esa_z"}
    assert table["metrics"]["esa"]["higher_is_better"] is True


def test_the_clusters_are_wmts_one_sided_rank_sum_test_as_scipy_computes_it(
    lead_client: Client, esa_corpus: Corpus
) -> None:
    """Each pair tested on the sentences both have, each sentence's value its
    candidate's mean over its judges; a cluster boundary where every system above beats
    every system below at p < 0.05."""
    rows = view_of(esa_corpus).get(dashboard_figures.human_rows)
    table = json.loads(lead_client.get(f"/dashboard/{esa_corpus.pk}/table.json").content)
    for metric in ("esa", "esa_z"):
        per = sentence_scores_by_system(rows, metric, SENTENCES)
        p = {
            (a, b): scipy.stats.mannwhitneyu(per[a], per[b], alternative="greater").pvalue
            for a in SYSTEMS
            for b in SYSTEMS
            if a != b
        }
        assert p[("A", "B")] >= 0.05  # unpaired, A and B overlap: one cluster
        assert max(p[("A", "C")], p[("B", "C")]) < 0.05
        clusters = table["clusters"][metric]["systems"]
        assert {s: clusters[s]["cluster"] for s in SYSTEMS} == {"A": 1, "B": 1, "C": 2}
        assert clusters["A"]["mean"] == pytest.approx(per["A"].mean())
        assert clusters["A"]["n"] == SENTENCES
        found = view_of(esa_corpus).get(dashboard_figures.judged).protocol_clusters
        (view,) = [v for v in found if v.metric == metric]
        names = view.clusters.systems
        for (a, b), expected in p.items():
            assert view.clusters.p_values[names.index(a)][names.index(b)] == pytest.approx(expected)
    html = lead_client.get(f"/dashboard/{esa_corpus.pk}/").content.decode()
    assert 'id="esa-clusters"' in html
    assert 'id="esa_z-clusters"' in html
    assert 'id="sser-clusters"' not in html


def test_an_mqm_corpus_shows_mqm_from_its_spans_with_its_clusters(
    lead_client: Client, user_factory: Callable[..., User]
) -> None:
    judge = user_factory()
    corpus = scored(span_corpus(Protocol.MQM, judge, systems=SYSTEMS, sentences=SENTENCES))
    for k in range(SENTENCES):
        span_judgment(corpus, judge, "A", k, spans=[(0, 1, "minor", "Other")] if k % 3 else [])
        span_judgment(corpus, judge, "B", k, spans=[(0, 1, "major", "Other")])
        span_judgment(corpus, judge, "C", k, spans=[(0, 5, "major", "Non-translation")])
    table = json.loads(lead_client.get(f"/dashboard/{corpus.pk}/table.json").content)
    assert table["translators"]["A"]["mqm"]["score"] == pytest.approx(8 / 12)
    assert table["translators"]["B"]["mqm"]["score"] == 5
    assert table["translators"]["C"]["mqm"]["score"] == 25
    assert "errors:spans" in table["translators"]["A"]["mqm"]["signature"]
    assert {s: table["translators"][s]["mqm"]["rank"] for s in SYSTEMS} == {"A": 1, "B": 2, "C": 3}
    clusters = table["clusters"]["mqm"]["systems"]
    assert {s: clusters[s]["cluster"] for s in SYSTEMS} == {"A": 1, "B": 2, "C": 3}
    html = lead_client.get(f"/dashboard/{corpus.pk}/").content.decode()
    assert {m for _, m in cells(html) if m in ("mqm", "esa", "awer")} == {"mqm"}
    assert 'data-sort="mqm" title="Sort by MQM (lower is better)">MQM</a>' in html


def test_the_page_costs_the_same_queries_at_any_size(
    lead_client: Client, user_factory: Callable[..., User]
) -> None:
    counts = []
    for sentences in (SENTENCES, 2 * SENTENCES):
        corpus = esa_judged(user_factory, sentences)
        url = f"/dashboard/{corpus.pk}/"
        page_queries(lead_client, url)  # computes and remembers the figures
        counts.append(page_queries(lead_client, url))
    assert counts[0] == counts[1]


def test_the_meta_evaluation_ranks_the_metrics_against_esa_by_pairwise_accuracy(
    lead_client: Client, esa_corpus: Corpus
) -> None:
    """Kocmi et al. 2021's pairwise accuracy, by hand: the share of system pairs a
    metric orders as the ESA figure does (WER lower is better, ESA higher)."""
    meta = json.loads(lead_client.get(f"/dashboard/{esa_corpus.pk}/meta.json").content)
    table = json.loads(lead_client.get(f"/dashboard/{esa_corpus.pk}/table.json").content)
    assert {c["human"] for c in meta["correlations"]} == {"esa", "esa_z"}
    figures = table["translators"]
    for human in ("esa", "esa_z"):
        (row,) = [
            c
            for c in meta["correlations"]
            if (c["metric"], c["human"], c["level"]) == ("wer", human, "system")
        ]
        pairs = [(a, b) for i, a in enumerate(SYSTEMS) for b in SYSTEMS[i + 1 :]]
        agree = sum(
            (figures[a]["wer"]["score"] < figures[b]["wer"]["score"])
            == (figures[a][human]["score"] > figures[b][human]["score"])
            for a, b in pairs
        )
        assert row["pairwise_accuracy"]["value"] == pytest.approx(agree / len(pairs))
        assert 0 <= row["soft_pairwise_accuracy"]["value"] <= 1


def test_the_estimates_and_the_power_plan_read_esa(lead_client: Client, esa_corpus: Corpus) -> None:
    """The estimates of the whole corpus and the campaign's plan take each candidate's
    mean over its judges, the figure's own sentence score."""
    table = json.loads(
        lead_client.get(f"/dashboard/{esa_corpus.pk}/table.json?rank=estimate").content
    )
    for s in SYSTEMS:
        # every sentence judged: the estimate of the whole corpus is the figure itself
        assert table["translators"][s]["esa"]["estimate"]["mean"] == pytest.approx(
            table["translators"][s]["esa"]["score"]
        )
    plan = campaign_figures(esa_corpus, SYSTEMS).power
    (esa,) = [m for m in plan.metrics if m.metric == "esa"]
    assert [(p.first, p.second, p.common) for p in esa.pairs] == [
        ("A", "B", SENTENCES),
        ("B", "C", SENTENCES),
    ]
    assert all(not m.pairs for m in plan.metrics if m.metric not in ("esa", "esa_z"))


def krippendorff_interval_alpha(units: list[list[float]]) -> float:
    """Krippendorff's α for interval data, from its definition: 1 − D_o / D_e, D_o the
    mean squared difference within a unit's values (each pair of a unit weighed by
    1 / (its values − 1)), D_e that between any two values of any units."""
    values = [v for u in units for v in u]
    n = len(values)
    observed = sum(
        sum((a - b) ** 2 for i, a in enumerate(u) for j, b in enumerate(u) if i != j) / (len(u) - 1)
        for u in units
    )
    expected = sum(
        (a - b) ** 2 for i, a in enumerate(values) for j, b in enumerate(values) if i != j
    )
    return 1 - (observed / n) / (expected / (n * (n - 1)))


@pytest.mark.parametrize("normalize", [False, True])
def test_the_judges_agreement_is_on_the_esa_scores(
    lead_client: Client, esa_corpus: Corpus, normalize: bool
) -> None:
    """Pearson's r over every pair of a candidate's judges, both orders, and
    Krippendorff's α: scipy's r and α by its definition, on the raw scores or on each
    judge's z-scores."""
    scores: dict[str, dict[tuple[str, int], float]] = {"ann": {}, "bob": {}}
    for k in range(SENTENCES):
        for s in SYSTEMS:
            scores["ann"][(s, k)] = esa_score(s, k)
            if k % 2 == 0:
                scores["bob"][(s, k)] = min(100, esa_score(s, k) + 10)
    if normalize:
        for judge, given in scores.items():
            mean, sd = statistics.fmean(given.values()), statistics.pstdev(given.values())
            scores[judge] = {c: (v - mean) / sd for c, v in given.items()}
    twice = [c for c in scores["bob"] if c in scores["ann"]]
    x = [scores["ann"][c] for c in twice] + [scores["bob"][c] for c in twice]
    y = [scores["bob"][c] for c in twice] + [scores["ann"][c] for c in twice]
    found = view_of(esa_corpus, normalize=normalize).get(judges_agreement)
    assert (found.figure, found.candidates, found.pairs) == ("esa", len(twice), len(twice))
    assert found.sser_pearson.value == pytest.approx(scipy.stats.pearsonr(x, y).statistic)
    units = [[scores["ann"][c], scores["bob"][c]] for c in twice]
    assert found.sser_alpha.value == pytest.approx(krippendorff_interval_alpha(units))
    html = lead_client.get(f"/dashboard/{esa_corpus.pk}/panel/judges/", **HTMX).content.decode()
    assert 'data-agreement="esa-pearson"' in html
    assert 'data-agreement="identical-new-refs"' not in html


@pytest.mark.parametrize(
    "path",
    [
        "panel/table/",
        "panel/charts/",
        "panel/estimates/",
        "panel/judges/",
        "panel/effort/",
        "panel/meta/",
        "chart/esa.svg",
        "chart/esa_z.svg",
        "chart/ranks.svg",
        "table.tex?metric=esa",
        "table.typ?metric=esa_z",
        "system/{A}/?metric=esa",
        "system/{A}/?metric=esa_z&other={B}",
    ],
)
def test_every_view_of_an_esa_corpus_answers(
    lead_client: Client, esa_corpus: Corpus, path: str
) -> None:
    pks = dict(esa_corpus.translators.values_list("name", "pk"))
    url = f"/dashboard/{esa_corpus.pk}/" + path.format(A=pks["A"], B=pks["B"])
    response = lead_client.get(url, **HTMX)
    assert response.status_code == 200, url
    if path.startswith("system/"):  # the drill-down's sentence figures: the protocol's
        html = response.content.decode()
        assert 'class="score" data-metric="esa"' in html
        assert 'class="score" data-metric="awer"' not in html


def test_the_campaign_page_plans_the_esa_pairs(lead_client: Client, esa_corpus: Corpus) -> None:
    html = lead_client.get(reverse("campaigns:corpus", args=[esa_corpus.pk])).content.decode()
    table = etree.HTML(html).xpath('//table[@id="power-table"]')[0]
    shown = {
        (tr.get("data-metric"), tr.get("data-first"), tr.get("data-second")): tr.get("data-n")
        for tr in table.iterfind(".//tbody/tr")
    }
    n = str(SENTENCES)
    assert shown == {
        ("esa", "A", "B"): n,
        ("esa", "B", "C"): n,
        ("esa_z", "A", "B"): n,
        ("esa_z", "B", "C"): n,
    }


def test_a_taxonomy_reweighed_on_the_campaign_page_moves_the_mqm_figure(
    lead_client: Client, user_factory: Callable[..., User]
) -> None:
    """The figures are remembered under the judgments stamp: a new taxonomy moves it,
    and a taxonomy refused leaves the page's figures as the stored one makes them."""
    judge = user_factory()
    corpus = scored(span_corpus(Protocol.MQM, judge))
    span_judgment(corpus, judge, "A", 0, spans=[(0, 1, "major", "Other")])
    url = f"/dashboard/{corpus.pk}/table.json"
    assert json.loads(lead_client.get(url).content)["translators"]["A"]["mqm"]["score"] == 5
    settings = reverse("campaigns:settings", args=[corpus.pk])
    negative = {"weights": {"minor": 1, "major": -5}, "categories": [{"name": "Other"}]}
    refused = lead_client.post(settings, {"protocol": "mqm", "mqm_taxonomy": json.dumps(negative)})
    assert refused.status_code == 400  # and the page is drawn with the stored taxonomy
    assert json.loads(lead_client.get(url).content)["translators"]["A"]["mqm"]["score"] == 5
    reweighed = {"weights": {"minor": 1, "major": 10}, "categories": [{"name": "Other"}]}
    saved = lead_client.post(settings, {"protocol": "mqm", "mqm_taxonomy": json.dumps(reweighed)})
    assert saved.status_code == 303
    assert json.loads(lead_client.get(url).content)["translators"]["A"]["mqm"]["score"] == 10


def test_the_judges_table_gives_each_judges_mean_esa_score(
    lead_client: Client, esa_corpus: Corpus
) -> None:
    html = lead_client.get(f"/dashboard/{esa_corpus.pk}/panel/judges/", **HTMX).content.decode()
    table = etree.HTML(html).xpath('//table[@id="judges-table"]')[0]
    assert "Mean ESA score (0–100)" in "".join(table.xpath(".//thead//text()"))
    means = {
        tr.get("data-judge"): tr.xpath('td[@data-col="mean"]/text()')[0]
        for tr in table.iterfind(".//tbody/tr")
    }
    judges = sorted(means)  # ann judged every candidate, bob the even sentences'
    ann = [esa_score(s, k) for k in range(SENTENCES) for s in SYSTEMS]
    bob = [min(100, esa_score(s, k) + 10) for k in range(0, SENTENCES, 2) for s in SYSTEMS]
    assert [means[j] for j in judges] == [f"{statistics.fmean(v):.2f}" for v in (ann, bob)]
