"""Human scores imported from mt-metrics-eval (a ``.seg.score`` of WMT's MQM, ``None``
where nobody rated a segment) are a human figure of the dashboard: the meta-evaluation
correlates the app's and the imported automatic metrics with them, as it does with the
judges' figures; the table's column is a human one, resting on the rated sentences; a
paper's table shows it unless asked for another. Every figure is computed here by hand
from the scores."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from django.test import Client
from lxml import etree

from annotation.dashboard import figures
from annotation.dashboard.panels.meta import meta_panel
from annotation.dashboard.paper import paper_table
from annotation.models import Corpus
from annotation.statistics import AUTOMATIC_METRICS, external_metric_import
from annotation.tests.boards import view_of
from annotation.tests.corpora.test_mtme_scores import corpus as three_line_corpus
from annotation.tests.corpora.test_mtme_scores import import_human
from annotation.tests.dashboard.test_imported import SYSTEMS, demo_scores
from annotation.tests.factories import by_id, cells
from annotation.tests.imported import import_scores
from annotation.tests.stored import scored
from metrics.correlation import kendall_tau_b, pearson

pytestmark = pytest.mark.django_db

#: Every fourth segment rated by nobody.
UNRATED = 3


def human_scores() -> dict[str, list[float]]:
    """Negated MQM points of the demo's 40 sentences, NaN where nobody rated one."""
    rng = np.random.default_rng(11)
    out = {}
    for s, offset in zip(SYSTEMS, (-1.0, -0.5, -2.0, -4.0, -1.5), strict=True):
        values = np.round(offset + rng.normal(0.0, 1.0, 40), 2)
        values[UNRATED::4] = math.nan
        out[s] = values.tolist()
    return out


def seg_score(scores: dict[str, list[float]]) -> bytes:
    """mt-metrics-eval's ``.seg.score``: ``SYSTEM<TAB>SCORE``, ``None`` where unrated."""
    return "".join(
        f"{s}\t{'None' if math.isnan(v) else repr(v)}\n" for s, vs in scores.items() for v in vs
    ).encode()


@pytest.fixture
def with_human(demo: Corpus) -> Corpus:
    """The demo corpus (judged by two judges) with COMET-22 and MQM-WMT's human scores."""
    import_scores(demo, "COMET-22", demo_scores())
    external_metric_import(
        corpus=demo,
        data=seg_score(human_scores()),
        layout="mtme",
        name="MQM-WMT",
        higher_is_better=True,
        filename="en-de.mqm.seg.score",
    )
    return Corpus.objects.get(pk=demo.pk)


def rated_mean(values: list[float]) -> float:
    return float(np.nanmean(values))


def test_the_meta_evaluation_correlates_the_metrics_with_the_imported_human_scores(
    with_human: Corpus,
) -> None:
    meta = view_of(with_human).get(meta_panel)
    human, comet = human_scores(), demo_scores()

    assert meta.human_metrics[-1] == "MQM-WMT"
    assert meta.humans[-1] == {"metric": "MQM-WMT", "label": "MQM-WMT"}
    # a human figure, not one more metric to correlate
    assert [row["metric"] for row in meta.grid] == [*AUTOMATIC_METRICS, "COMET-22"]
    system = meta.get("COMET-22", "MQM-WMT", "system")
    xs = [rated_mean(comet[s]) for s in SYSTEMS]
    ys = [rated_mean(human[s]) for s in SYSTEMS]
    assert system.pearson.value == pytest.approx(pearson(xs, ys).value)
    assert system.kendall.value == pytest.approx(kendall_tau_b(xs, ys).value)
    assert system.fewest == 30  # 40 sentences, every fourth unrated
    assert system.pearson_interval is not None
    assert system.accuracy is not None
    sentence = meta.get("COMET-22", "MQM-WMT", "sentence")
    rated = [(s, k) for s in SYSTEMS for k in range(40) if not math.isnan(human[s][k])]
    assert sentence.pearson.n == len(rated) == 150
    assert sentence.pearson.value == pytest.approx(
        pearson([comet[s][k] for s, k in rated], [human[s][k] for s, k in rated]).value
    )
    # the app's own metrics too, at both levels
    assert meta.get(AUTOMATIC_METRICS[0], "MQM-WMT", "sentence").pearson.n == 150
    assert meta.get(AUTOMATIC_METRICS[0], "MQM-WMT", "system").pearson.n == len(SYSTEMS)


def test_the_page_and_meta_json_name_the_imported_human_figure(
    lead_client: Client, with_human: Corpus
) -> None:
    html = lead_client.get(f"/dashboard/{with_human.pk}/").content.decode()
    found = json.loads(lead_client.get(f"/dashboard/{with_human.pk}/meta.json").content)

    heading = by_id(etree.HTML(html), "metrics-table").find('.//th[@data-metric="MQM-WMT"]')
    assert (heading.get("class"), heading.get("data-imported")) == ("human", "true")
    cell = cells(html)[("NiuTrans", "MQM-WMT")]
    assert float(cell["data-value"]) == pytest.approx(rated_mean(human_scores()["NiuTrans"]))
    assert "30 judged sentences ·" in cell["title"]
    assert "judgments" not in cell["title"]
    assert "vs MQM-WMT" in html
    against = {(r["metric"], r["level"]) for r in found["correlations"] if r["human"] == "MQM-WMT"}
    assert ("COMET-22", "system") in against
    assert not any(r["metric"] == "MQM-WMT" for r in found["correlations"])


def test_a_papers_table_shows_the_imported_human_scores_of_a_corpus_without_judges(
    tmp_path: Path,
) -> None:
    corpus = scored(three_line_corpus(tmp_path))
    import_human(tmp_path)

    paper = paper_table(view_of(Corpus.objects.get(pk=corpus.pk)).get(figures.table))

    assert paper.metric == "MQM-WMT"
    # the published system scores: the mean of each system's rated segments
    assert [(r.system, r.score) for r in paper.rows] == [("sysA", "-3.25"), ("sysB", "-12.50")]
