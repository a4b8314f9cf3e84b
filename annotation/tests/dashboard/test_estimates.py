"""The dashboard's estimates of the whole corpus (issue 28, point 3): per system and human
metric the estimate and its interval beside the plain mean of the judged sentences, the
covariates it used with their correlations, rank groups from the estimates (the panel,
and the table's human columns with ``?rank=estimate``), and ``table.json``'s keys."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from django.test import Client
from lxml import etree

from annotation.changes import imported_scores_changed
from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_set_sser
from annotation.models import Corpus, Judgment, Sentence, User
from annotation.statistics import forget
from annotation.tests.factories import HTMX, cells, done_judgment, write_corpus
from annotation.tests.imported import import_scores
from annotation.tests.stored import scored
from metrics.estimate import PLAIN, estimate_mean
from metrics.registry import build_metric

pytestmark = pytest.mark.django_db

N = 24
#: The sentences no judge has seen yet: a quarter of the corpus.
UNJUDGED = frozenset(range(3, N, 4))
JUDGED = [k for k in range(N) if k not in UNJUDGED]
REFS = [f"the small cat number {k} sat on the red mat today ." for k in range(N)]
SYSTEMS = {
    "good": [r.replace("small", "little") if k % 3 == 0 else r for k, r in enumerate(REFS)],
    "fair": [r.replace("sat on", "is at").replace("red ", "") for r in REFS],
    "poor": [f"a dog {k} runs away {'fast' if k % 2 else 'now'} ." for k in range(N)],
}
#: Each system's SSER score (0–10) of each sentence, judged or not: clearly apart.
SSER = {
    "good": [10 - k % 2 for k in range(N)],
    "fair": [4 + k % 3 - (k in UNJUDGED) for k in range(N)],
    "poor": [k % 2 for k in range(N)],
}
EDITS = {"good": [k % 2 for k in range(N)], "fair": [3 + k % 2 for k in range(N)], "poor": [9] * N}
LENGTH = 11
#: An imported metric that moves with the judges (higher is better, as COMET).
COMET = {s: [0.1 * v + 0.01 * (k % 5) for k, v in enumerate(SSER[s])] for s in SYSTEMS}


def corpus_in(
    tmp_path: Path,
    ann: User,
    bob: User | None = None,
    *,
    systems: Sequence[str] = tuple(SYSTEMS),
    name: str = "est",
) -> Corpus:
    """The corpus of :data:`SYSTEMS`, its statistics stored, judged by ``ann`` on the
    sentences of :data:`JUDGED`, and by ``bob`` (one point lower) on every third of them."""
    source = write_corpus(
        tmp_path / f"{name}.xml", [[r] for r in REFS], {s: SYSTEMS[s] for s in systems}
    )
    corpus = corpus_import(source=source, name=name, score=False).corpus
    for system in systems:
        for k in JUDGED:
            judges = [(ann, 0)] + ([(bob, 1)] if bob is not None and k % 3 == 0 else [])
            for judge, lower in judges:
                done_judgment(
                    corpus,
                    judge,
                    system,
                    k,
                    sser=max(0, SSER[system][k] - lower),
                    edits=EDITS[system][k] + lower,
                    length=LENGTH,
                    new_ref=REFS[k],
                )
    return scored(corpus)


def rows(html: str) -> dict[tuple[str, str], dict[str, str]]:
    """(metric, system) → the estimates panel's row: its attributes and cells' texts."""
    table = etree.HTML(html).xpath('//table[@id="estimates-table"]')[0]
    out = {}
    for tr in table.iterfind(".//tbody/tr"):
        found = dict(tr.attrib)
        for td in tr.iterfind("td"):
            found[td.get("data-col")] = "".join(td.itertext()).strip()
        found["covariates"] = {
            span.get("data-covariate"): span.get("data-correlation")
            for span in tr.iterfind('.//td[@data-col="covariates"]/span')
        }
        out[(tr.get("data-metric"), tr.get("data-translator"))] = found
    return out


def number(attr: str) -> float:
    """A ``data-*`` number; "" (undefined: a correlation with a constant) is NaN."""
    return float(attr) if attr else math.nan


def panel(client: Client, corpus: Corpus, query: str = "") -> str:
    response = client.get(f"/dashboard/{corpus.pk}/panel/estimates/{query}", **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def sentence_covariates(system: str) -> dict[str, np.ndarray]:
    """chrF, sentence BLEU and TER of every sentence, computed here from the texts."""
    refs = [[r] for r in REFS]
    return {
        m: build_metric(m).sentence_scores(SYSTEMS[system], refs) for m in ("chrf", "bleu", "ter")
    }


def expected_sser(system: str, two_judges: bool) -> list[float]:
    """The SSER error of each judged sentence: the mean of its judges' errors."""
    out = []
    for k in JUDGED:
        scores = [SSER[system][k]]
        if two_judges and k % 3 == 0:
            scores.append(max(0, SSER[system][k] - 1))
        out.append(float(np.mean([(10 - s) * 10 for s in scores])))
    return out


def expected_awer(system: str) -> list[float]:
    """The aWER of each judged sentence: its judges' edits over their references' words."""
    out = []
    for k in JUDGED:
        edits = [EDITS[system][k]] + ([EDITS[system][k] + 1] if k % 3 == 0 else [])
        out.append(100 * sum(edits) / (LENGTH * len(edits)))
    return out


def test_each_estimate_is_estimate_mean_on_the_judged_sentences_and_the_covariates(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_in(tmp_path, user_factory("ann"), user_factory("bob"))
    import_scores(corpus, "COMET", COMET)

    shown = rows(panel(lead_client, corpus))

    for system in SYSTEMS:
        auto = {**sentence_covariates(system), "COMET": np.array(COMET[system])}
        for metric, y in (("sser", expected_sser(system, True)), ("awer", expected_awer(system))):
            want = estimate_mean(JUDGED, y, auto, corpus_size=N)
            row = shown[(metric, system)]
            assert float(row["data-estimate"]) == pytest.approx(want.estimate.mean, rel=1e-9)
            assert float(row["data-estimate-low"]) == pytest.approx(want.estimate.low, rel=1e-9)
            assert float(row["data-estimate-high"]) == pytest.approx(want.estimate.high, rel=1e-9)
            assert float(row["data-plain"]) == pytest.approx(np.mean(y), rel=1e-12)
            assert row["data-n"] == str(len(JUDGED)) == str(want.plain.n)
            assert row["data-method"] == want.method
            assert set(row["covariates"]) == {"chrf", "bleu", "ter", "COMET"}
            for c in want.covariates:
                assert number(row["covariates"][c.name]) == pytest.approx(
                    c.correlation, nan_ok=True
                )
    # no judgment has information items: no IER
    assert {metric for metric, _ in shown} == {"sser", "awer", "aser", "hter", "mqm"}


def test_documents_are_strata_when_the_sentences_name_them(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_in(tmp_path, user_factory("ann"), systems=("fair",))
    documents = [f"doc{k // 8}" for k in range(N)]
    for k, doc in enumerate(documents):
        Sentence.objects.filter(corpus=corpus, position=k).update(doc=doc)

    html = panel(lead_client, corpus)

    row = rows(html)[("sser", "fair")]
    want = estimate_mean(
        JUDGED, expected_sser("fair", False), sentence_covariates("fair"), documents=documents
    )
    assert float(row["data-estimate"]) == pytest.approx(want.estimate.mean, rel=1e-9)
    assert float(row["data-estimate-high"]) == pytest.approx(want.estimate.high, rel=1e-9)
    assert etree.HTML(html).xpath('//table[@id="estimates-table"]/@data-documents') == ["3"]


def test_a_covariate_equal_to_the_human_scores_gives_the_full_corpus_mean(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """An imported metric that is the judges' SSER error itself, on every sentence: the
    estimate is the mean over all sentences, judged or not, with no spread."""
    corpus = corpus_in(tmp_path, user_factory("ann"))
    oracle = {s: [(10 - v) * 10.0 for v in SSER[s]] for s in SYSTEMS}
    import_scores(corpus, "oracle", oracle, higher_is_better=False)

    shown = rows(panel(lead_client, corpus))

    for system in SYSTEMS:
        row = shown[("sser", system)]
        full = float(np.mean(oracle[system]))
        assert float(row["data-estimate"]) == pytest.approx(full, abs=1e-9)
        assert float(row["data-estimate-low"]) == pytest.approx(full, abs=1e-9)
        assert float(row["data-estimate-high"]) == pytest.approx(full, abs=1e-9)
        assert float(row["data-plain"]) != pytest.approx(full, abs=0.5)  # the judged differ
        assert row["data-method"] != PLAIN
        assert row["worth"].startswith("100.0 %")
        assert float(row["covariates"]["oracle"]) == pytest.approx(1.0)


def test_the_lowest_error_ranks_first_and_alike_systems_share_a_group(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """Every human metric is an error (lower is better): the best system has the lowest
    estimate and group 1; a system whose judgments equal it shares its group."""
    corpus = corpus_in(tmp_path, user_factory("ann"))
    SYSTEMS_AND_TWIN = {**SYSTEMS, "twin": SYSTEMS["good"]}
    source = write_corpus(tmp_path / "twins.xml", [[r] for r in REFS], SYSTEMS_AND_TWIN)
    corpus = corpus_import(source=source, name="twins", score=False).corpus
    ann = User.objects.get(username="ann")
    for system in SYSTEMS_AND_TWIN:
        like = "good" if system == "twin" else system
        for k in JUDGED:
            done_judgment(
                corpus,
                ann,
                system,
                k,
                sser=SSER[like][k],
                edits=EDITS[like][k],
                length=LENGTH,
                new_ref=REFS[k],
            )
    scored(corpus)

    html = panel(lead_client, corpus)

    shown = rows(html)
    for metric in ("sser", "awer", "mqm"):
        ranks = {s: shown[(metric, s)]["data-rank"] for s in SYSTEMS_AND_TWIN}
        assert ranks == {"good": "1", "twin": "1", "fair": "2", "poor": "3"}, metric
        estimates = {s: float(shown[(metric, s)]["data-estimate"]) for s in SYSTEMS_AND_TWIN}
        assert estimates["good"] < estimates["fair"] < estimates["poor"]
        order = etree.HTML(html).xpath(f'//tbody[@data-metric="{metric}"]/tr/@data-translator')
        assert order[2:] == ["fair", "poor"]  # best first


def test_rank_estimate_shows_the_estimates_in_the_tables_human_columns(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_in(tmp_path, user_factory("ann"), user_factory("bob"))
    shown = rows(panel(lead_client, corpus))

    ranked = lead_client.get(f"/dashboard/{corpus.pk}/?rank=estimate").content.decode()
    plain = lead_client.get(f"/dashboard/{corpus.pk}/").content.decode()

    by_estimate, by_bootstrap = cells(ranked), cells(plain)
    table = etree.HTML(ranked).xpath('//table[@id="metrics-table"]')[0]
    assert table.get("data-rank-by") == "estimate"
    for system in SYSTEMS:
        for metric in ("sser", "awer", "hter", "mqm"):
            cell, row = by_estimate[(system, metric)], shown[(metric, system)]
            assert cell["data-value"] == cell["data-estimate"] == row["data-estimate"]
            assert cell["data-ci-low"] == row["data-estimate-low"]
            assert cell["data-rank"] == row["data-rank"]
            assert "data-estimate" not in by_bootstrap[(system, metric)]
        assert by_estimate[(system, "bleu")] == by_bootstrap[(system, "bleu")]
    assert by_estimate[("good", "awer")].get("data-best") == "true"
    assert 'name="rank" value="estimate"' in ranked  # the preprocessing form keeps it
    assert "rank=estimate" in etree.HTML(ranked).xpath('//a[@id="download-json"]/@href')[0]
    bad = lead_client.get(f"/dashboard/{corpus.pk}/?rank=best")
    assert bad.status_code == 400
    assert b"rank=&#x27;best&#x27;: choose bootstrap or estimate" in bad.content


def test_table_json_adds_each_human_figures_estimate_and_keeps_its_figure(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_in(tmp_path, user_factory("ann"), user_factory("bob"))
    import_scores(corpus, "COMET", COMET)
    shown = rows(panel(lead_client, corpus))

    data = json.loads(lead_client.get(f"/dashboard/{corpus.pk}/table.json").content)
    ranked = json.loads(lead_client.get(f"/dashboard/{corpus.pk}/table.json?rank=estimate").content)

    assert data["rank_by"] == "bootstrap"
    assert ranked["rank_by"] == "estimate"
    assert data["estimates"]["covariates"] == ["chrf", "bleu", "ter", "COMET"]
    assert "paired test" in data["estimates"]["ranks"]
    figure = data["translators"]["fair"]["sser"]
    assert figure["score"] == pytest.approx(
        100
        - 10
        * np.mean(
            [SSER["fair"][k] for k in JUDGED] + [SSER["fair"][k] - 1 for k in JUDGED if k % 3 == 0]
        )
    )
    assert ranked["translators"]["fair"]["sser"]["score"] == figure["score"]
    assert {"score", "signature", "rank", "ci", "n", "bootstrap"} <= set(figure)
    estimate = figure["estimate"]
    row = shown[("sser", "fair")]
    assert estimate["mean"] == float(row["data-estimate"])
    assert [estimate["low"], estimate["high"]] == [
        float(row["data-estimate-low"]),
        float(row["data-estimate-high"]),
    ]
    assert estimate["rank"] == int(row["data-rank"])
    assert estimate["plain"]["n"] == len(JUDGED)
    assert set(estimate["covariates"]) == {"chrf", "bleu", "ter", "COMET"}
    assert "estimate" not in data["translators"]["fair"]["bleu"]
    assert "estimate" not in data["translators"]["fair"]["COMET"]


def test_imported_names_and_descriptions_are_escaped_in_the_panel(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_in(tmp_path, user_factory("ann"), systems=("good", "poor"))
    import_scores(
        corpus,
        "x-COMET+1.0",
        {s: COMET[s] for s in ("good", "poor")},
        description='<script>alert(1)</script>" onmouseover="x()',
    )

    html = panel(lead_client, corpus)

    assert "<script>alert" not in html
    assert 'onmouseover="x()' not in html
    tree = etree.HTML(html)
    (named,) = tree.xpath('//span[@id="estimate-covariates"]/bdi[@data-covariate="x-COMET+1.0"]')
    assert named.get("title") == '<script>alert(1)</script>" onmouseover="x()'  # as text
    assert "x-COMET+1.0" in rows(html)[("sser", "good")]["covariates"]


def test_a_covariate_with_missing_scores_is_left_out_and_said_so(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """An imported score forgotten for a candidate whose text changed is no covariate of
    that system's estimates (it is not known on every sentence any more)."""
    corpus = corpus_in(tmp_path, user_factory("ann"), systems=("good", "poor"))
    scores = {s: COMET[s] for s in ("good", "poor")}
    import_scores(corpus, "COMET", scores)
    from annotation.models import ExternalScores

    row = ExternalScores.objects.get(metric__corpus=corpus, translator__name="poor")
    values = np.frombuffer(bytes(row.values), dtype="<f8").copy()
    values[5] = np.nan
    row.values = values.tobytes()
    row.save()
    imported_scores_changed(corpus)

    html = panel(lead_client, corpus)

    shown = rows(html)
    assert "COMET" in shown[("sser", "good")]["covariates"]
    assert "COMET" not in shown[("sser", "poor")]["covariates"]
    notes = etree.HTML(html).xpath('//ul[@id="estimate-notes"]/li/text()')
    assert any(note.startswith("COMET left out for poor") for note in notes)


def test_after_a_judgment_its_systems_estimates_are_new_and_none_is_stale(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """The estimates and rank tests are remembered by their inputs: a judgment changes its
    system's figures, the others' are those remembered, and all are what a fresh process
    computes."""
    ann = user_factory("ann")
    corpus = corpus_in(tmp_path, ann)
    before = rows(panel(lead_client, corpus))
    judgment = Judgment.objects.get(
        target__sentence__corpus=corpus,
        target__translator__name="fair",
        target__sentence__position=0,
    )
    judgment_set_sser(judgment=judgment, user=ann, version=judgment.version, sser=0)

    after = rows(panel(lead_client, corpus))
    y = [100.0] + expected_sser("fair", False)[1:]  # sentence 0: SSER 4 → 0
    want = estimate_mean(JUDGED, y, sentence_covariates("fair"), corpus_size=N)
    assert float(after[("sser", "fair")]["data-estimate"]) == pytest.approx(
        want.estimate.mean, rel=1e-9
    )
    assert after[("sser", "fair")]["data-estimate"] != before[("sser", "fair")]["data-estimate"]
    for key in before:
        if key[1] != "fair":
            assert after[key]["data-estimate"] == before[key]["data-estimate"]
    forget()  # a fresh process
    assert rows(panel(lead_client, corpus)) == after


def test_nothing_judged_shows_no_estimate(lead_client: Client, tmp_path: Path) -> None:
    source = write_corpus(tmp_path / "bare.xml", [[r] for r in REFS], SYSTEMS)
    corpus = scored(corpus_import(source=source, name="bare", score=False).corpus)

    html = panel(lead_client, corpus)

    assert 'id="no-estimates"' in html
    assert "data-estimate=" not in html
