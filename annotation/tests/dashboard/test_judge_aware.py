"""SSER where items have different judges (issue 37, point 4) on the dashboard: raw and
z-normalised per judge with their intervals and rank groups in the table panel, each
judge's offsets in the judges panel, both in ``table.json`` and ``manage.py scores
--json``; on a split campaign judged by three judges, one of them strict."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from lxml import etree

from annotation.dashboard import figures
from annotation.models import Corpus
from annotation.statistics import judgment_rows, sser_ratings
from annotation.tests.boards import view_of
from annotation.tests.factories import HTMX, by_id, scores_json
from annotation.tests.judged_corpora import SPLIT_OVERLAP, SPLIT_SENTENCES
from metrics.ratings import system_means, z_scores

pytestmark = pytest.mark.django_db

SYSTEMS = ("system 0", "system 1", "system 2")


def test_the_table_panel_shows_sser_raw_and_z_per_judge_with_intervals(
    lead_client: Client, split: Corpus
) -> None:
    """Best first by z; each figure the mean over the system's candidates of their
    judges' z (or raw) errors, with its interval around it and its rank group."""
    page = etree.HTML(lead_client.get(f"/dashboard/{split.pk}/panel/table/", **HTMX).content)
    errors = sser_ratings(judgment_rows(split), SYSTEMS, SPLIT_SENTENCES)
    raw, n = system_means(errors)
    z, _ = system_means(errors, z_scores(errors))

    table = by_id(page, "sser-judges")
    rows = table.xpath("./tbody/tr")
    assert [r.get("data-translator") for r in rows] == ["system 2", "system 1", "system 0"]
    for row in rows:
        k = SYSTEMS.index(row.get("data-translator"))
        for kind, expected in (("raw", raw[k]), ("z", z[k])):
            (cell,) = row.xpath(f'./td[@data-col="{kind}"]')
            assert float(cell.get("data-value")) == pytest.approx(expected, abs=1e-12)
            low, high = float(cell.get("data-ci-low")), float(cell.get("data-ci-high"))
            assert low < expected < high
            assert cell.get("data-rank") in {"1", "2", "3"}
        assert row.xpath('./td[@data-col="n"]')[0].text == str(n[k]) == str(SPLIT_SENTENCES)
    design = by_id(page, "sser-judges-design")
    twice = 3 * SPLIT_OVERLAP
    assert (design.get("data-judges"), design.get("data-twice")) == ("3", str(twice))
    assert design.get("data-items") == str(3 * SPLIT_SENTENCES)
    lines = by_id(page, "sser-judges-verdicts").xpath("./div/dd")
    assert "".join(lines[1].itertext()).startswith("best: system 2")
    # WMT's clusters rank by the same z-scores
    clusters = by_id(page, "sser-clusters").xpath("./tbody/tr")
    for row in clusters:
        k = SYSTEMS.index(row.get("data-translator"))
        assert row.xpath('./td[@data-col="mean-z"]')[0].text == f"{z[k]:.3f}"


def test_the_judges_panel_shows_how_far_each_judge_lies_from_the_others(
    lead_client: Client, split: Corpus
) -> None:
    """ "ann" scores highest, "cy" lowest: ann's offset against the others is positive
    with its interval, cy's negative; on the shared candidates each judge has eight
    sentences, too few for an interval."""
    page = etree.HTML(lead_client.get(f"/dashboard/{split.pk}/panel/judges/", **HTMX).content)
    found = view_of(split).get(figures.judge_aware)
    assert found is not None
    effects = {e.annotator: e for e in found.figures.effects}

    def cell(judge: str, col: str) -> etree._Element:
        return page.xpath(f'//tr[@data-judge="{judge}"]/td[@data-col="{col}"]')[0]

    ann, cy = cell("ann", "offset-overall"), cell("cy", "offset-overall")
    assert float(ann.get("data-value")) == effects["ann"].overall.value > 0
    assert float(cy.get("data-value")) == effects["cy"].overall.value < 0
    assert float(ann.get("data-ci-low")) < effects["ann"].overall.value
    assert "".join(ann.itertext()).startswith(f"+{effects['ann'].overall.value:.2f} [")
    shared = cell("bob", "offset-shared")
    assert shared.get("data-sentences") == "8"
    assert shared.get("data-ci-low") is None
    assert shared.xpath("./small")[0].text == "too few sentences (n = 8)"


def test_table_json_and_scores_json_carry_sser_per_judge(
    lead_client: Client, split: Corpus
) -> None:
    """``table.json``'s ``annotators`` has ``manage.py scores --json``'s keys and the
    same figures, with intervals, ranks and the judges' effects besides."""
    table = json.loads(lead_client.get(f"/dashboard/{split.pk}/table.json").content)
    scores = scores_json("split")

    page, command = table["annotators"], scores["annotators"]
    for kind in ("raw", "z"):
        for system, figure in command["sser"][kind]["systems"].items():
            full = page["sser"][kind]["systems"][system]
            assert full["n"] == figure["n"] == SPLIT_SENTENCES
            assert full["score"] == pytest.approx(figure["score"], abs=1e-12)
            assert full["ci"][0] < full["score"] < full["ci"][1]
            assert full["too_few"] == ""
        assert page["sser"][kind]["ranks"] == "earned"
        assert "norm:" in page["sser"][kind]["signature"]
    assert set(page["effects"]) == {"ann", "bob", "cy"}
    assert page["effects"]["ann"]["offset_overall"]["ci"] is not None
    assert page["effects"]["ann"]["offset_shared"]["too_few"] == "too few sentences (n = 8)"
    assert (page["judges"], page["twice"]) == (3, 3 * SPLIT_OVERLAP)
    assert set(scores["translators"]["system 0"]) >= {"sser", "awer", "aser"}
