"""Statistics that never overclaim, as a lead sees them (issue 11): rank groups earned only
on enough judged sentences, intervals inside each metric's range, one line per metric,
and WMT's clusters of SSER by the rank-sum test. Fixed seeds throughout (the bootstrap's
12345)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from django.test import Client
from lxml import etree

from annotation.dashboard.judges import normalized_sser
from annotation.dashboard.panels.table import table_panel
from annotation.dashboard.verdicts import verdict_line
from annotation.models import Corpus, User
from annotation.statistics import judgment_rows
from annotation.tests.boards import view_of
from annotation.tests.factories import (
    DoneJudgment,
    by_id,
    cells,
    done_judgment,
    done_judgments,
    sized_corpus,
)
from metrics.ranksum import mann_whitney_u, segment_means
from metrics.registry import metric_info
from metrics.significance import Interval, MetricSignificance, SystemFigure

pytestmark = pytest.mark.django_db

HUMAN = ("sser", "awer", "aser")
SYSTEMS = ("system 0", "system 1", "system 2", "system 3")


def judge(
    corpus: Corpus, who: User, system: str, sentences: range, *, sser: int, edits: int
) -> None:
    for k in sentences:
        # a little spread, so that intervals are not all one point
        done_judgment(
            corpus, who, system, k, sser=max(0, sser - k % 2), edits=edits + k % 3, length=8
        )


def header(html: str, metric: str) -> etree._Element:
    (th,) = by_id(etree.HTML(html), "metrics-table").xpath(f'.//th[@data-metric="{metric}"]')
    return th


@pytest.fixture
def two_each(tmp_path: Path, user_factory: Callable[..., User]) -> Corpus:
    """The issue's case: four systems, two judged sentences each (the same two), with
    very different figures."""
    corpus = sized_corpus(tmp_path, "two", 30, systems=4)
    ann = user_factory("ann")
    for s, (sser, edits) in zip(SYSTEMS, [(10, 0), (8, 1), (4, 4), (0, 8)], strict=True):
        judge(corpus, ann, s, range(2), sser=sser, edits=edits)
    return corpus


def test_two_judged_sentences_per_system_give_one_group_and_say_so(
    lead_client: Client, two_each: Corpus
) -> None:
    html = lead_client.get(f"/dashboard/{two_each.pk}/").content.decode()
    got = cells(html)

    for metric in HUMAN:
        th = header(html, metric)
        assert th.get("data-ranks") == "too-few"
        assert "too few judged sentences (n = 2)" in "".join(th.itertext())
        column = [c for (_, m), c in got.items() if m == metric]
        assert {c["data-rank"] for c in column} == {"1"}
        assert len({c["data-value"] for c in column}) > 1  # the figures do differ
        assert {c["data-n"] for c in column} == {"2"}
        for c in column:  # and too few for an interval (metrics.claims)
            assert (c["data-ci-low"], c["data-ci-high"]) == ("", "")
            assert "too few" in c["text"]
            assert "±" not in c["text"]
    (verdict,) = by_id(etree.HTML(html), "verdicts").xpath('.//div[@data-metric="aser"]')
    assert verdict.get("data-ranks") == "too-few"
    assert "too few judged sentences (n = 2; 10 in common are needed)" in "".join(
        verdict.itertext()
    )
    assert "all share group 1" in "".join(verdict.itertext())


def test_bounded_intervals_draw_bounded_axes(lead_client: Client, two_each: Corpus) -> None:
    for metric in HUMAN:
        svg = lead_client.get(f"/dashboard/{two_each.pk}/chart/{metric}.svg").content
        root = etree.fromstring(svg)
        ns = {"s": "http://www.w3.org/2000/svg"}
        ticks = [float(t.text) for t in root.iterfind(".//s:text[@class='tick']", ns)]
        lowest, highest = metric_info(metric).bounds
        assert min(ticks) == lowest
        assert max(ticks) <= (highest if highest < math.inf else 200)
        table = cells(lead_client.get(f"/dashboard/{two_each.pk}/").content.decode())
        for g in root.iterfind(".//s:g[@class='bar']", ns):
            cell = table[(g.get("data-label"), metric)]
            # two judged sentences: no whisker, as the table gives no interval
            assert list(g.iterfind("s:g[@class='ci']", ns)) == []
            assert cell["data-ci-low"] == ""


@pytest.mark.usefixtures("full_bootstrap")  # the p-value of 1,000 samples: 1/1001
def test_fifty_judged_sentences_with_a_clear_difference_give_two_groups(
    lead_client: Client, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    corpus = sized_corpus(tmp_path, "fifty", 60, systems=2)
    ann = user_factory("ann")
    judge(corpus, ann, "system 0", range(50), sser=10, edits=0)
    judge(corpus, ann, "system 1", range(50), sser=4, edits=3)

    html = lead_client.get(f"/dashboard/{corpus.pk}/").content.decode()
    got = cells(html)

    for metric in HUMAN:
        assert header(html, metric).get("data-ranks") == "earned"
        assert "too few" not in "".join(header(html, metric).itertext())
        assert got[("system 0", metric)]["data-rank"] == "1"
        assert got[("system 1", metric)]["data-rank"] == "2"
        assert got[("system 1", metric)]["data-n"] == "50"
    lines = {v.metric: v.text for v in view_of(corpus).get(table_panel).verdicts}
    assert lines["aser"] == (
        "best: system 0 (alone in group 1); separated from system 1 at p < 0.05 "
        "(p = 0.001) on n = 50 judged sentences"
    )
    clusters = by_id(etree.HTML(html), "sser-clusters")
    assert clusters.get("data-test") == "mann-whitney"
    assert [(r.get("data-translator"), r.get("data-cluster")) for r in clusters.iter("tr")][1:] == [
        ("system 0", "1"),
        ("system 1", "2"),
    ]
    assert "Mann-Whitney" in html
    assert "paired bootstrap" in html


def test_the_clusters_p_values_are_the_rank_sum_test_on_each_judges_z_scores(
    tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """Two judges, one strict and one lenient, on three systems; the clusters' p-value of
    each pair is the one-sided rank-sum test on the per-sentence means of the judges'
    z-scored SSER errors, over the sentences both systems have."""
    corpus = sized_corpus(tmp_path, "z", 40, systems=3)
    strict, lenient = user_factory("strict"), user_factory("lenient")
    rng = np.random.default_rng(5)
    made: list[DoneJudgment] = []
    for s, base in zip(SYSTEMS[:3], (8, 8, 3), strict=True):
        for k in range(30):
            shift = int(rng.integers(-1, 2))
            made.append((strict, s, k, max(0, base - 2 + shift), 1, 8))
            if k % 2:
                made.append((lenient, s, k, min(10, base + 1 + shift), 1, 8))
    done_judgments(corpus, made)
    view = view_of(corpus).get(table_panel).clusters
    assert view is not None
    clusters = view.clusters

    rows = judgment_rows(corpus)
    z = normalized_sser(rows)
    by_system = {
        s: segment_means(
            [r.segment for r in rows if r.system == s],
            [float(v) for r, v in zip(rows, z, strict=True) if r.system == s],
            40,
        )
        for s in SYSTEMS[:3]
    }
    for i, a in enumerate(SYSTEMS[:3]):
        for j, b in enumerate(SYSTEMS[:3]):
            if i != j:
                both = ~np.isnan(by_system[a]) & ~np.isnan(by_system[b])
                expected = mann_whitney_u(
                    by_system[a][both], by_system[b][both], alternative="less"
                ).pvalue
                assert clusters.p_values[i][j] == pytest.approx(expected, rel=1e-12)
    assert [clusters.figure(s).cluster for s in SYSTEMS[:3]] == [1, 1, 2]


def test_a_single_candidate_reads_as_a_score_and_a_figure_as_an_error(
    lead_client: Client, two_each: Corpus
) -> None:
    html = lead_client.get(f"/dashboard/{two_each.pk}/").content.decode()
    assert 'title="Sort by SSER error (lower is better)">SSER error</a>' in html
    assert '<th scope="col">SSER error %</th>' in html  # the judges panel
    pk = two_each.translators.get(name="system 1").pk
    drill = lead_client.get(f"/dashboard/{two_each.pk}/system/{pk}/?metric=sser&order=position")
    text = drill.content.decode()
    assert re.search(r"SSER [0-9]+ \(score\)", text)
    assert "SSER score" not in text


def significance_of(
    scores: list[float], groups: list[int], *, n: int = 50, p: float = 0.001
) -> MetricSignificance:
    """An aSER test's result as given: systems s0, s1, … with these scores and groups,
    every pair compared on ``n`` sentences at ``p``; no figure where a score is NaN."""
    size = len(scores)
    figures = tuple(
        SystemFigure(
            f"s{i}",
            score,
            0 if math.isnan(score) else n,
            Interval(score, score, score),
            0 if math.isnan(score) else groups[i],
        )
        for i, score in enumerate(scores)
    )
    own = [f.n for f in figures]
    return MetricSignificance(
        metric="aser",
        higher_is_better=False,
        figures=figures,
        p_values=tuple(tuple(1.0 if i == j else p for j in range(size)) for i in range(size)),
        n_common=tuple(tuple(min(own[i], own[j]) for j in range(size)) for i in range(size)),
        n_samples=1000,
        seed=12345,
        alpha=0.05,
        signature="",
    )


LINES = [
    # scores, groups, n, the line
    ([10.0, 20.0, 60.0], [1, 1, 2], 50, "best: s0 (group 1 with s1); separated from s2 at "
     "p < 0.05 (p = 0.001) on n = 50 judged sentences"),
    ([10.0, 60.0], [1, 2], 50, "best: s0 (alone in group 1); separated from s1 at p < 0.05 "
     "(p = 0.001) on n = 50 judged sentences"),
    ([10.0, 11.0, 12.0], [1, 1, 1], 50, "best: s0 (group 1 with every other system); no "
     "system is separated from it at p < 0.05 (n = 50 judged sentences)"),
    ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 90.0], [1, 1, 1, 1, 1, 1, 2], 50, "best: s0 (group 1 "
     "with s1, s2, s3 and 2 more); separated from s6 at p < 0.05 (p = 0.001) on n = 50 "
     "judged sentences"),
    ([10.0, 60.0], [1, 1], 2, "too few judged sentences (n = 2; 10 in common are needed) "
     "to separate any system: all share group 1; best figure so far: s0"),
    ([100.0, 100.0], [1, 1], 50, "no best: every system has the same figure (100.00)"),
    ([10.0, math.nan], [1, 0], 50, "best: s0 (the only system with a figure)"),
    ([math.nan, math.nan], [0, 0], 50, "no figure yet"),
]  # fmt: skip


@pytest.mark.parametrize("scores, groups, n, line", LINES)
def test_the_line_per_metric_says_no_more_than_the_groups(
    scores: list[float], groups: list[int], n: int, line: str
) -> None:
    got = verdict_line(significance_of(scores, groups, n=n))
    assert got.text == line
    assert got.label == "aSER"
    # system names are isolated in the HTML, the rest escaped
    assert "<bdi>s0</bdi>" in got.html or "s0" not in line
    assert "p &lt; 0.05" in got.html or "p < 0.05" not in line
