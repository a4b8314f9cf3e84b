"""The figures of a partly judged ESA or MQM corpus (issue 41, point 5), each against a
computation made here from the scores and spans given, not from the app's rows: the
estimates of the whole corpus (``estimate_mean`` on the judged sentences, the covariates
computed from the texts), the power plan's paired t-test (scipy), MQM's rank-sum
clusters (scipy, lower is better), the judges' agreement on MQM points (scipy's r,
Krippendorff's α by its definition), pairwise accuracy against ``mqm`` and soft
pairwise accuracy against ``esa`` (from the bootstrap samples by hand), and ``mqm`` in
``table.csv`` and ``manage.py scores --json`` (WMT's weights by hand)."""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from django.conf import settings
from django.test import Client

from annotation.campaigns.power import campaign_figures
from annotation.corpora.imports import corpus_import
from annotation.dashboard import figures as dashboard_figures
from annotation.dashboard.panels.judges import judges_agreement
from annotation.models import Corpus, User
from annotation.models.corpus import Protocol
from annotation.tests.boards import view_of
from annotation.tests.dashboard.test_estimates import (
    JUDGED,
    REFS,
    SYSTEMS,
    panel,
    rows,
    sentence_covariates,
)
from annotation.tests.dashboard.test_protocols import krippendorff_interval_alpha
from annotation.tests.factories import scores_json, write_corpus
from annotation.tests.span_corpora import SpanJudgment, span_judgments
from annotation.tests.stored import scored
from metrics.estimate import estimate_mean
from metrics.registry import build_metric
from metrics.significance import Bootstrap

pytestmark = pytest.mark.django_db

NAMES = tuple(SYSTEMS)  # good, fair, poor
#: bob judges again the judged sentences of every third position.
TWICE = [k for k in JUDGED if k % 3 == 0]
#: WMT's MQM weights (Freitag et al. 2021, Table 2), written out here.
POINTS = {
    ("minor", "Fluency/Punctuation"): 0.1,
    ("major", "Non-translation"): 25.0,
}
SEVERITY_POINTS = {"minor": 1.0, "major": 5.0}

Span = tuple[int, int, str, str]


def words(system: str, k: int) -> list[tuple[int, int]]:
    """The [start, end) of each word of ``system``'s candidate for sentence ``k``."""
    return [m.span() for m in re.finditer(r"\S+", SYSTEMS[system][k])]


def mqm_spans(system: str, k: int, judge: str) -> list[Span]:
    """good: a minor error every other sentence; fair: a mistranslation and now and
    then a punctuation error (the last word, "."); poor: a non-translation and now and
    then a minor error; bob finds one more minor error wherever he judges."""
    w = words(system, k)
    spans: list[Span] = {
        "good": [(*w[0], "minor", "Fluency/Grammar")] if k % 2 else [],
        "fair": [(*w[0], "major", "Accuracy/Mistranslation")]
        + ([(*w[-1], "minor", "Fluency/Punctuation")] if k % 3 == 0 else []),
        "poor": [(*w[0], "major", "Non-translation")]
        + ([(*w[1], "minor", "Other")] if k % 2 else []),
    }[system]
    if judge == "bob":
        spans.append((*w[2], "minor", "Style/Awkward"))
    return spans


def points(spans: list[Span]) -> float:
    return sum(POINTS.get((s, c), SEVERITY_POINTS[s]) for _, _, s, c in spans)


def esa_given(system: str, k: int, judge: str) -> int:
    """Clearly apart, with spread; bob 6 points more lenient, capped at 100."""
    base = {"good": 84 + (k * 5) % 13, "fair": 55 + (k * 3) % 11, "poor": 15 + (k * 7) % 17}
    return min(100, base[system] + (6 if judge == "bob" else 0))


def esa_close(system: str, k: int, judge: str) -> int:
    """good and fair close (each wins some sentences), poor far below."""
    base = {"good": 70 + (k * 5) % 13, "fair": 67 + (k * 7) % 15, "poor": 20 + (k * 3) % 9}
    return min(100, base[system] + (6 if judge == "bob" else 0))


EsaScores = Callable[[str, int, str], int]


def given(protocol: str, esa: EsaScores = esa_given) -> dict[str, dict[tuple[str, int], float]]:
    """judge → {(system, sentence): the judgment's ESA score or MQM points}."""
    out: dict[str, dict[tuple[str, int], float]] = {"ann": {}, "bob": {}}
    for judge, sentences in (("ann", JUDGED), ("bob", TWICE)):
        for s in NAMES:
            for k in sentences:
                out[judge][(s, k)] = (
                    points(mqm_spans(s, k, judge)) if protocol == Protocol.MQM else esa(s, k, judge)
                )
    return out


def per_sentence(values: dict[str, dict[tuple[str, int], float]]) -> dict[str, list[float]]:
    """Each system's judged sentences, in order: the mean over the sentence's judges."""
    return {
        s: [statistics.fmean(v[(s, k)] for v in values.values() if (s, k) in v) for k in JUDGED]
        for s in NAMES
    }


def z_scored(values: dict[str, dict[tuple[str, int], float]]) -> dict[str, dict]:
    """Each judge's scores standardised by their own mean and population deviation."""
    out = {}
    for judge, scores in values.items():
        mean, sd = statistics.fmean(scores.values()), statistics.pstdev(scores.values())
        out[judge] = {c: (v - mean) / sd for c, v in scores.items()}
    return out


def judged_corpus(
    tmp_path: Path,
    user_factory: Callable[..., User],
    protocol: str,
    name: str,
    esa: EsaScores = esa_given,
) -> Corpus:
    """The estimates tests' corpus (3 systems × 24 sentences, a quarter unjudged) under
    ``protocol``, ann judging :data:`JUDGED` and bob :data:`TWICE` again."""
    judges = {j: user_factory(f"{j}-{name}") for j in ("ann", "bob")}
    source = write_corpus(tmp_path / f"{name}.xml", [[r] for r in REFS], SYSTEMS)
    corpus = corpus_import(source=source, name=name, score=False).corpus
    corpus.protocol = protocol
    corpus.save(update_fields=["protocol"])
    made: list[SpanJudgment] = []
    for judge, sentences in (("ann", JUDGED), ("bob", TWICE)):
        for s in NAMES:
            for k in sentences:
                if protocol == Protocol.MQM:
                    made.append((judges[judge], s, k, None, mqm_spans(s, k, judge)))
                else:
                    made.append((judges[judge], s, k, esa(s, k, judge), ()))
    span_judgments(corpus, made)
    return scored(corpus)


@pytest.fixture
def mqm_corpus(tmp_path: Path, user_factory: Callable[..., User]) -> Corpus:
    return judged_corpus(tmp_path, user_factory, Protocol.MQM, "mqm-part")


@pytest.fixture
def esa_corpus(tmp_path: Path, user_factory: Callable[..., User]) -> Corpus:
    return judged_corpus(tmp_path, user_factory, Protocol.ESA, "esa-part")


def test_mqm_in_table_csv_and_scores_json_is_wmts_weighted_points(
    lead_client: Client, mqm_corpus: Corpus
) -> None:
    expected = {s: statistics.fmean(v) for s, v in per_sentence(given(Protocol.MQM)).items()}
    text = lead_client.get(f"/dashboard/{mqm_corpus.pk}/table.csv").content.decode()
    csv_rows = {r["system"]: r for r in csv.DictReader(io.StringIO(text))}
    table = json.loads(lead_client.get(f"/dashboard/{mqm_corpus.pk}/table.json").content)
    printed = scores_json(mqm_corpus.name)["translators"]
    for s in NAMES:
        assert table["translators"][s]["mqm"]["score"] == pytest.approx(expected[s], abs=1e-12)
        assert printed[s]["mqm"]["score"] == pytest.approx(expected[s], abs=1e-12)
        assert csv_rows[s]["mqm"] == f"{expected[s]:.2f}"
        assert not {"sser", "esa"} & set(printed[s])
    assert table["metrics"]["mqm"]["higher_is_better"] is False


def test_mqm_clusters_are_scipys_one_sided_rank_sum_fewer_points_better(
    lead_client: Client, mqm_corpus: Corpus
) -> None:
    per = per_sentence(given(Protocol.MQM))
    table = json.loads(lead_client.get(f"/dashboard/{mqm_corpus.pk}/table.json").content)
    clusters = table["clusters"]["mqm"]["systems"]
    p = {
        (a, b): scipy.stats.mannwhitneyu(per[a], per[b], alternative="less").pvalue
        for a in NAMES
        for b in NAMES
        if a != b
    }
    assert max(p[("good", "fair")], p[("fair", "poor")]) < 0.05
    assert {s: clusters[s]["cluster"] for s in NAMES} == {"good": 1, "fair": 2, "poor": 3}
    for s in NAMES:
        assert clusters[s]["mean"] == pytest.approx(statistics.fmean(per[s]), abs=1e-12)
        assert clusters[s]["n"] == len(JUDGED)
    (view,) = [
        v
        for v in view_of(mqm_corpus).get(dashboard_figures.judged).protocol_clusters
        if v.metric == "mqm"
    ]
    names = view.clusters.systems
    for (a, b), expected in p.items():
        assert view.clusters.p_values[names.index(a)][names.index(b)] == pytest.approx(expected)


@pytest.mark.parametrize("protocol", [Protocol.ESA, Protocol.MQM])
def test_the_estimates_of_a_partly_judged_corpus_are_estimate_mean_on_its_scores(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User], protocol: str
) -> None:
    """A quarter of the sentences unjudged: each system's estimate of the whole corpus
    is the control-variate estimate from the judged sentences' figure (a sentence's
    judges averaged first; esa_z on each judge's z-scores) and chrF, BLEU and TER."""
    corpus = judged_corpus(tmp_path, user_factory, protocol, f"est-{protocol}")
    values = given(protocol)
    expected = (
        {"esa": per_sentence(values), "esa_z": per_sentence(z_scored(values))}
        if protocol == Protocol.ESA
        else {"mqm": per_sentence(values)}
    )
    shown = rows(panel(lead_client, corpus))
    assert {metric for metric, _ in shown} == set(expected)
    for metric, per in expected.items():
        for s in NAMES:
            want = estimate_mean(JUDGED, per[s], sentence_covariates(s), documents=None)
            row = shown[(metric, s)]
            assert float(row["data-plain"]) == pytest.approx(np.mean(per[s]), abs=1e-9)
            assert float(row["data-estimate"]) == pytest.approx(want.estimate.mean, rel=1e-9)
            assert float(row["data-estimate-low"]) == pytest.approx(want.estimate.low, rel=1e-9)
            assert float(row["data-estimate-high"]) == pytest.approx(want.estimate.high, rel=1e-9)
            assert row["data-n"] == str(len(JUDGED))


@pytest.mark.parametrize("protocol", [Protocol.ESA, Protocol.MQM])
def test_the_power_plan_is_scipys_paired_t_test_on_the_protocols_figure(
    tmp_path: Path, user_factory: Callable[..., User], protocol: str
) -> None:
    corpus = judged_corpus(tmp_path, user_factory, protocol, f"plan-{protocol}")
    per = per_sentence(given(protocol))
    plan = campaign_figures(corpus, NAMES).power
    metric = "mqm" if protocol == Protocol.MQM else "esa"
    (found,) = [m for m in plan.metrics if m.metric == metric]
    pairs = {(p.first, p.second): p for p in found.pairs}
    assert set(pairs) == {("good", "fair"), ("fair", "poor")}
    for (a, b), pair in pairs.items():
        assert pair.common == len(JUDGED)
        assert pair.p_value == pytest.approx(scipy.stats.ttest_rel(per[a], per[b]).pvalue)
        assert abs(pair.gap) == pytest.approx(abs(np.mean(per[a]) - np.mean(per[b])))


def test_the_judges_agreement_is_on_the_mqm_points(mqm_corpus: Corpus) -> None:
    """Pearson's r over every pair of a candidate's judges, both orders, and
    Krippendorff's α, on the points of each judge's spans."""
    values = given(Protocol.MQM)
    twice = [c for c in values["bob"] if c in values["ann"]]
    x = [values["ann"][c] for c in twice] + [values["bob"][c] for c in twice]
    y = [values["bob"][c] for c in twice] + [values["ann"][c] for c in twice]
    found = view_of(mqm_corpus).get(judges_agreement)
    assert (found.figure, found.candidates, found.pairs) == ("mqm", len(twice), len(twice))
    assert found.sser_pearson.value == pytest.approx(scipy.stats.pearsonr(x, y).statistic)
    units = [[values["ann"][c], values["bob"][c]] for c in twice]
    assert found.sser_alpha.value == pytest.approx(krippendorff_interval_alpha(units))


def test_the_meta_evaluation_orders_the_metrics_against_mqm(
    lead_client: Client, mqm_corpus: Corpus
) -> None:
    """Pairwise accuracy by hand: the share of system pairs ordered as the MQM points
    order them (both lower is better for TER, BLEU the other way round)."""
    meta = json.loads(lead_client.get(f"/dashboard/{mqm_corpus.pk}/meta.json").content)
    table = json.loads(lead_client.get(f"/dashboard/{mqm_corpus.pk}/table.json").content)
    figures = table["translators"]
    assert {c["human"] for c in meta["correlations"]} == {"mqm"}
    pairs = [(a, b) for i, a in enumerate(NAMES) for b in NAMES[i + 1 :]]
    for metric, lower in (("ter", True), ("bleu", False)):
        (row,) = [
            c
            for c in meta["correlations"]
            if (c["metric"], c["human"], c["level"]) == (metric, "mqm", "system")
        ]
        agree = sum(
            ((figures[a][metric]["score"] < figures[b][metric]["score"]) == lower)
            == (figures[a]["mqm"]["score"] < figures[b]["mqm"]["score"])
            for a, b in pairs
        )
        assert row["pairwise_accuracy"]["value"] == pytest.approx(agree / len(pairs))


def centred_p(real: float, diffs: np.ndarray) -> float:
    """The one-sided bootstrap p-value of a real difference: the share of the samples'
    differences, centred on their mean, at least as large."""
    return float(np.mean(diffs - diffs.mean() >= real))


def test_soft_pairwise_accuracy_against_esa_from_the_samples_by_hand(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """WMT24's soft pairwise accuracy as the page computes it (one-sided bootstrap
    p-values on the table's resampling of the sentences: seed 12345, the setting's
    number of samples, 1,000 in production): each side's figure on each sample here,
    chrF's from its statistics summed over the sample's sentences, ESA's the mean of the
    sample's judged sentences; then 1 − mean |p_ESA − p_chrF| over the pairs of
    systems. good and fair are close in ESA, not in chrF: their p-values differ."""
    corpus = judged_corpus(tmp_path, user_factory, Protocol.ESA, "esa-close", esa_close)
    per = per_sentence(given(Protocol.ESA, esa_close))
    value = {s: dict(zip(JUDGED, per[s], strict=True)) for s in NAMES}
    indices = Bootstrap(len(REFS), settings.EVALTOOL_BOOTSTRAP_SAMPLES).indices
    chrf = build_metric("chrf")
    refs = chrf.prepare_references([[r] for r in REFS])
    human, metric, human_real, metric_real = {}, {}, {}, {}
    for s in NAMES:
        stats = chrf.segment_stats(SYSTEMS[s], refs)
        metric_real[s] = float(chrf.score_from_stats(stats.sum(axis=0)))
        metric[s] = np.array(
            [float(chrf.score_from_stats(stats[ix].sum(axis=0))) for ix in indices]
        )
        human_real[s] = statistics.fmean(per[s])
        human[s] = np.array(
            [statistics.fmean(value[s][k] for k in ix if k in value[s]) for ix in indices]
        )
    errors = []
    for i, a in enumerate(NAMES):
        for b in NAMES[i + 1 :]:
            p_human = centred_p(human_real[a] - human_real[b], human[a] - human[b])
            p_metric = centred_p(metric_real[a] - metric_real[b], metric[a] - metric[b])
            errors.append(abs(p_human - p_metric))
    meta = json.loads(lead_client.get(f"/dashboard/{corpus.pk}/meta.json").content)
    (row,) = [
        c
        for c in meta["correlations"]
        if (c["metric"], c["human"], c["level"]) == ("chrf", "esa", "system")
    ]
    assert row["soft_pairwise_accuracy"]["value"] == pytest.approx(1 - statistics.fmean(errors))
    assert row["soft_pairwise_accuracy"]["n"] == len(NAMES)
    assert 0 < row["soft_pairwise_accuracy"]["value"] < 1  # good and fair: p strictly between
