"""A campaign judged in Appraise, once imported, feeds the effort, the agreement and the
controls' pass rates as the app's own judgments do: each judge's active time is the
file's end minus start, the judges' agreement is on the file's scores, a ``BAD`` item
passes by its score against the judge's score of the original, and a ``REF`` item (a
reference shown as a candidate) passes when it scores less than the lead's drop below
a perfect candidate; a paper's table prints the clusters WMT published. Every figure is
worked out by hand from the file's rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from django.test import Client
from django.urls import reverse

from annotation.controls.api import corpus_controls
from annotation.dashboard.panels.effort import effort_panel
from annotation.dashboard.panels.judges import judges_agreement
from annotation.tests.boards import view_of
from annotation.tests.corpora.test_appraise import (
    CAMPAIGN,
    SCORES,
    clusters_campaign,
    imported,
    row,
)
from annotation.tests.stored import scored

pytestmark = pytest.mark.django_db


def test_the_effort_is_each_judges_time_in_the_file(tmp_path: Path) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    found = view_of(corpus).get(effort_panel)

    # u1: 9 items judged (its BAD control apart), the first in 40 s, the others in 30 s;
    # u2: 4, the first in 20 s (its REF control apart)
    assert {j.name: (j.judgments, j.seconds) for j in found.judges} == {
        "u1": (9, 40 + 8 * 30),
        "u2": (4, 20 + 3 * 30),
    }


def test_the_judges_agreement_is_on_the_files_scores(tmp_path: Path) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    found = view_of(corpus).get(judges_agreement)

    # u1 and u2 both scored sysA and sysB on lines 0 and 1: (80, 70), (50, 20), (60, 90),
    # (40, 60); each pair enters in both orders
    u1, u2 = [80, 50, 60, 40], [70, 20, 90, 60]
    expected = np.corrcoef(u1 + u2, u2 + u1)[0, 1]
    assert (found.figure, found.candidates, found.pairs) == ("esa", 4, 4)
    assert found.sser_pearson.value == pytest.approx(expected)
    assert found.sser_pearson.n == 4


@pytest.mark.parametrize("ref_score, ref_passed", [(95, 1), (91, 1), (90, 0), (40, 0)])
def test_bad_and_ref_items_count_in_the_judges_pass_rates(
    tmp_path: Path, ref_score: int, ref_passed: int
) -> None:
    # the lead's drop is 10 (the default): a reference passes above 90
    lines = [*CAMPAIGN[:-1], row("u2", "sysB", 3, ref_score, kind="REF", start=840)]
    corpus = imported(tmp_path, lines)
    assert corpus.control_esa_drop == 10

    u1, u2 = corpus_controls(corpus)

    # u1's BAD item: 10 against the 90 they gave the original, 80 below: passed
    assert (u1.name, u1.done, u1.passed, u1.bad_references, u1.bad_references_passed) == (
        "u1",
        1,
        1,
        1,
        1,
    )
    assert (u2.name, u2.done, u2.passed) == ("u2", 1, ref_passed)
    assert u2.pass_rate == 100 * ref_passed


def tex_rows(text: str) -> list[tuple[str, ...]]:
    """A LaTeX table's body: its rows' cells, ``("rule",)`` for a rule between groups."""
    body = text.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    return [
        ("rule",) if line == "\\midrule" else tuple(c.strip() for c in line[:-3].split("&"))
        for line in body.splitlines()
    ]


def test_a_papers_table_prints_the_clusters_wmt_published(
    lead_client: Client, tmp_path: Path
) -> None:
    n = 30
    corpus = scored(clusters_campaign(tmp_path, n))
    url = reverse("dashboard:table_tex", args=[corpus.pk])

    text = lead_client.get(url, {"metric": "esa", "clusters": "wmt"}).content.decode()
    refused = lead_client.get(url, {"metric": "bleu", "clusters": "wmt"})

    mean = {s: f"{sum(score(k) for k in range(n)) / n:.2f}" for s, score in SCORES.items()}
    rows = [r[:3] for r in tex_rows(text)]
    assert rows == [
        ("1", "good", mean["good"]),
        ("rule",),
        ("2", "fair2", mean["fair2"]),  # 64.50: fair2 before fair, within one cluster
        ("2", "fair", mean["fair"]),
        ("rule",),
        ("3", "poor", mean["poor"]),
    ]
    assert float(mean["fair2"]) > float(mean["fair"])
    assert "WMT's clusters by Wilcoxon rank-sum" in text
    assert refused.status_code == 400
    assert "no WMT clusters of &#x27;bleu&#x27;: of esa, esa_z" in refused.content.decode()
