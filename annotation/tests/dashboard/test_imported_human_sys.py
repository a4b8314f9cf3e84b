"""Human scores imported as mt-metrics-eval's ``.sys.score`` alone (a WMT release with
system-level human scores only for the pair) on the dashboard: the table's human column
of the published figures, without intervals or rank groups; the meta-evaluation
correlates the app's and the imported metrics with them at system level (every value
computed here by hand) and says there is no sentence level; a paper's table prints them
unranked; the downloads give the file back as imported, and no ``.seg.score``."""

from __future__ import annotations

import json
import math
from itertools import combinations

import numpy as np
import pytest
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.dashboard import figures
from annotation.dashboard.meta import NO_SENTENCE_LEVEL
from annotation.dashboard.panels.meta import meta_panel
from annotation.dashboard.paper import paper_table
from annotation.dashboard.table import PUBLISHED_NOTE
from annotation.models import Corpus
from annotation.statistics import AUTOMATIC_METRICS, external_metric_import
from annotation.tests.boards import view_of
from annotation.tests.dashboard.test_imported import demo_scores
from annotation.tests.factories import by_id, cells
from annotation.tests.imported import import_scores

pytestmark = pytest.mark.django_db

#: The published MQM figure of each of the demo's systems (negated points).
PUBLISHED = {"DIDI-NLP": -1.25, "Facebook-AI": -0.875, "IIE-MT": -2.0625, "NiuTrans": -3.5}
#: The file as WMT writes it: Online-W was not rated.
SYS_SCORE = "".join(f"{s}\t{v!r}\n" for s, v in PUBLISHED.items()) + "Online-W\tNone\n"


@pytest.fixture
def with_published(demo: Corpus) -> Corpus:
    """The demo corpus (judged by two judges) with COMET-22 and MQM-WMT's system-level
    human scores alone."""
    import_scores(demo, "COMET-22", demo_scores())
    external_metric_import(
        corpus=demo,
        data=None,
        layout="mtme",
        name="MQM-WMT",
        higher_is_better=True,
        system_scores=SYS_SCORE.encode(),
        system_filename="en-de.mqm.sys.score",
    )
    return Corpus.objects.get(pk=demo.pk)


def by_hand_pearson(xs: list[float], ys: list[float]) -> float:
    x, y = np.asarray(xs) - np.mean(xs), np.asarray(ys) - np.mean(ys)
    return float((x * y).sum() / math.sqrt((x * x).sum() * (y * y).sum()))


def by_hand_kendall(xs: list[float], ys: list[float]) -> float:
    """τ-b over every pair (no ties among these figures: τ-a = τ-b)."""
    signs = [
        np.sign(xs[i] - xs[j]) * np.sign(ys[i] - ys[j]) for i, j in combinations(range(len(xs)), 2)
    ]
    return float(sum(signs) / len(signs))


def test_the_table_shows_the_published_figures_as_a_human_column(
    lead_client: Client, with_published: Corpus
) -> None:
    html = lead_client.get(f"/dashboard/{with_published.pk}/").content.decode()

    heading = by_id(etree.HTML(html), "metrics-table").find('.//th[@data-metric="MQM-WMT"]')
    assert (heading.get("class"), heading.get("data-imported")) == ("human", "true")
    found = cells(html)
    for system, value in PUBLISHED.items():
        assert float(found[(system, "MQM-WMT")]["data-value"]) == value
    # no figure for the system nobody rated; the others published, with no interval and
    # no rank group (no segment to resample), and not "too few" either
    assert found[("Online-W", "MQM-WMT")]["number"] == "–"
    cell = found[("NiuTrans", "MQM-WMT")]
    assert (cell["data-rank"], cell["data-ci-low"], cell["data-ci-high"]) == ("0", "", "")
    assert cell["text"] == "-3.50published"
    assert cell["title"].startswith("ext:MQM-WMT|agg:published|higher:yes|")
    assert cell["title"].endswith(f" · {PUBLISHED_NOTE}")
    assert "too few" not in cell["title"]


def test_the_meta_evaluation_correlates_the_metrics_with_the_published_figures(
    with_published: Corpus,
) -> None:
    meta = view_of(with_published).get(meta_panel)
    comet = demo_scores()
    rated = list(PUBLISHED)  # Online-W has no figure: not a point

    assert meta.human_metrics[-1] == "MQM-WMT"
    assert [row["metric"] for row in meta.grid] == [*AUTOMATIC_METRICS, "COMET-22"]
    system = meta.get("COMET-22", "MQM-WMT", "system")
    xs = [float(np.mean(comet[s])) for s in rated]
    ys = [PUBLISHED[s] for s in rated]
    assert system.pearson.n == 4
    assert system.pearson.value == pytest.approx(by_hand_pearson(xs, ys))
    assert system.kendall.value == pytest.approx(by_hand_kendall(xs, ys))
    # no sentences behind the figures, so no interval over them
    assert system.pearson_interval is None


def test_the_app_metrics_correlate_with_the_published_figures_too(
    lead_client: Client, with_published: Corpus
) -> None:
    meta = view_of(with_published).get(meta_panel)
    html = lead_client.get(f"/dashboard/{with_published.pk}/").content.decode()
    found = cells(html)
    first = AUTOMATIC_METRICS[0]

    xs = [float(found[(s, first)]["data-value"]) for s in PUBLISHED]
    ys = list(PUBLISHED.values())
    system = meta.get(first, "MQM-WMT", "system")
    assert system.pearson.value == pytest.approx(by_hand_pearson(xs, ys))
    assert system.kendall.value == pytest.approx(by_hand_kendall(xs, ys))


def test_the_sentence_level_says_there_is_none(lead_client: Client, with_published: Corpus) -> None:
    html = lead_client.get(f"/dashboard/{with_published.pk}/").content.decode()
    found = json.loads(lead_client.get(f"/dashboard/{with_published.pk}/meta.json").content)

    table = by_id(etree.HTML(html), "meta-table")
    sentence = table.findall('.//td[@data-human="MQM-WMT"][@data-level="sentence"]')
    assert len(sentence) == 2 * (len(AUTOMATIC_METRICS) + 1)  # r and τ of every metric
    assert {"".join(td.find("small").itertext()) for td in sentence} == {NO_SENTENCE_LEVEL}
    rows = [r for r in found["correlations"] if r["human"] == "MQM-WMT"]
    assert {(r["level"], r["none"]) for r in rows} == {
        ("sentence", NO_SENTENCE_LEVEL),
        ("system", ""),
    }
    assert all(r["pearson"]["value"] is None for r in rows if r["level"] == "sentence")
    # the judges' figures keep their sentence level
    assert any(r["level"] == "sentence" and r["none"] == "" for r in found["correlations"])


def test_the_downloads_give_the_sys_score_back_and_no_seg_score(
    lead_client: Client, with_published: Corpus
) -> None:
    pk = with_published.pk
    sys = lead_client.get(reverse("dashboard:sys_score", args=[pk]), {"metric": "MQM-WMT"})
    seg = lead_client.get(reverse("dashboard:seg_score", args=[pk]), {"metric": "MQM-WMT"})

    assert sys.status_code == 200
    assert sys.content.decode() == SYS_SCORE
    assert (
        sys["Content-Disposition"]
        == f'attachment; filename="{with_published.name}.MQM-WMT.sys.score"'
    )
    assert seg.status_code == 400
    assert "system-level only" in seg.content.decode()
    # the page offers the file there is, and not the one there is not
    page = lead_client.get(reverse("dashboard:page", args=[pk])).content.decode()
    nav = by_id(etree.HTML(page), "dashboard").find('.//nav[@class="downloads"]')
    found = {a.get("id") for a in nav.iterfind(".//a")}
    assert "download-sys-score" in found
    assert "download-seg-score" not in found


def test_a_papers_table_prints_the_published_figures_in_one_group(
    with_published: Corpus,
) -> None:
    paper = paper_table(view_of(with_published).get(figures.table), "MQM-WMT")

    assert paper.test.startswith("published system-level figures, not ranked apart")
    assert [(r.group, r.system, r.score, r.interval) for r in paper.rows] == [
        (1, "Facebook-AI", "-0.88", ""),
        (1, "DIDI-NLP", "-1.25", ""),
        (1, "IIE-MT", "-2.06", ""),
        (1, "NiuTrans", "-3.50", ""),
    ]
