"""The campaign page where each candidate has its own judges (issue 37, point 4): how
each judge scores against the others, and SSER's per-judge z in the power plan."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.campaigns.power import judge_effects, power_plan
from annotation.changes import judgments_changed
from annotation.models import Corpus
from annotation.tests.campaigns.test_queries import MAX_QUERIES_CAMPAIGN
from annotation.tests.factories import by_id, judgment_row, page_queries, sized_corpus
from annotation.tests.judged_corpora import SPLIT_SENTENCES

pytestmark = pytest.mark.django_db


def page(client: Client, corpus: Corpus) -> etree._Element:
    return etree.HTML(client.get(reverse("campaigns:corpus", args=[corpus.pk])).content)


def test_the_campaign_page_shows_how_far_each_judge_lies_from_the_others(
    lead_client: Client, split: Corpus
) -> None:
    """ann scores one point above bob and two above cy: against the others ann's offset
    is positive, cy's negative with its interval clear of 0; each judge shares eight
    sentences with another, too few for an interval."""
    shown = page(lead_client, split)

    table = shown.xpath('//table[@id="judge-effects-table"]/tbody/tr')
    rows = {r.get("data-judge"): r for r in table}
    assert list(rows) == ["ann", "bob", "cy"]
    ann = rows["ann"].xpath('td[@data-col="offset-overall"]')[0]
    cy = rows["cy"].xpath('td[@data-col="offset-overall"]')[0]
    assert float(ann.get("data-ci-high")) > float(ann.get("data-value")) > 0
    assert float(cy.get("data-value")) < float(cy.get("data-ci-high")) < 0
    assert rows["ann"].xpath('td[@data-col="sentences"]')[0].text == "12"
    shared = rows["bob"].xpath('td[@data-col="offset-shared"]')[0]
    assert shared.get("data-value") == "0.0"
    assert shared.xpath("small")[0].text == "too few sentences (n = 8)"


def test_a_split_campaign_plans_sser_per_judge_too(lead_client: Client, split: Corpus) -> None:
    shown = page(lead_client, split)

    per_judge = shown.xpath('//table[@id="power-table"]/tbody[@data-metric="sser_z"]/tr')
    assert [(r.get("data-first"), r.get("data-second")) for r in per_judge] == [
        ("system 2", "system 1"),
        ("system 1", "system 0"),
    ]
    assert {r.get("data-n") for r in per_judge} == {str(SPLIT_SENTENCES)}
    assert shown.xpath('//*[@id="power-per-judge"]')


def test_a_campaign_where_every_judge_judges_everything_keeps_its_plan(
    lead_client: Client, split: Corpus
) -> None:
    split.campaign.judges_per_item = None
    split.campaign.save()

    shown = page(lead_client, split)

    assert shown.xpath('//tbody[@data-metric="sser_z"]') == []
    assert shown.xpath('//*[@id="power-per-judge"]') == []
    assert shown.xpath('//table[@id="judge-effects-table"]/tbody/tr')


def test_the_judges_effects_cost_no_query_of_their_own(lead_client: Client, split: Corpus) -> None:
    """The plan and the effects read the judgments once when they changed, and not at all
    once remembered; the small campaign of the queries' budget costs as many."""
    url = reverse("campaigns:corpus", args=[split.pk])
    first = page_queries(lead_client, url)

    later = page_queries(lead_client, url)
    remembered = page(lead_client, split)
    judgments_changed(split.pk)

    assert later == first - 1
    assert len(remembered.xpath('//table[@id="judge-effects-table"]/tbody/tr')) == 3
    assert page_queries(lead_client, url) == first <= MAX_QUERIES_CAMPAIGN


def test_z_scores_separate_a_pair_that_a_strict_judge_hides_in_the_raw_differences() -> None:
    """On every sentence system X is one point better than Y, but the judges take turns:
    on even sentences A judges X and B (three points stricter) Y, on odd ones the other
    way round. The raw differences swing between 4 and −2 points; each judge's z-scores
    give X the same lead everywhere: the per-judge plan separates them already."""
    rows = []
    for t in range(30):
        ease = t % 3 - 1
        first, second = ("A", "B") if t % 2 == 0 else ("B", "A")
        rows.append(judgment_row("X", t, first, sser=6 + ease - 3 * (first == "B")))
        rows.append(judgment_row("Y", t, second, sser=5 + ease - 3 * (second == "B")))

    plan = power_plan(rows, ["X", "Y"], 100, split=True)

    by_metric = {m.metric: m.pairs for m in plan.metrics}
    (raw,), (z,) = by_metric["sser"], by_metric["sser_z"]
    assert (z.first, z.second, z.verdict) == ("X", "Y", "separated")
    assert z.label == "SSER error z (per judge)"
    assert raw.verdict == "needed"
    assert z.p_value is not None
    assert raw.p_value is not None
    assert z.p_value < raw.p_value
    assert "sser_z" not in {m.metric for m in power_plan(rows, ["X", "Y"], 100).metrics}


def test_a_campaign_without_a_score_has_no_effects_to_show(
    lead_client: Client, tmp_path: Path
) -> None:
    corpus = sized_corpus(tmp_path, "unjudged", 3)

    shown = page(lead_client, corpus)

    assert judge_effects([], ["system 0"], corpus.n_sentences) == ()
    assert by_id(shown, "judge-effects-none").text == "No candidate has an SSER score yet."
