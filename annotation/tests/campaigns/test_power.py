"""The campaign page's power plan (issue 28, point 4): per pair of neighbouring systems in
each human metric, "already separated", the judged sentences needed (``data-needed``) or
"not separable", paired on the sentences both systems have judged."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.campaigns.power import power_plan
from annotation.models import Corpus, User
from annotation.tests.factories import done_judgment, judgment_row, sized_corpus
from metrics.power import NEEDED, sentences_needed

pytestmark = pytest.mark.django_db

N = 200
JUDGED = range(30)
#: SSER scores (0–10) of the judged sentences: A is perfect; B is far from A; C is worse
#: than B on 8 sentences and better on 3 (a difference a larger sample would show); D
#: differs from C on 3 sentences only (no sample of this corpus would); E is judged on
#: 5 sentences.
SSER = {
    "A": dict.fromkeys(JUDGED, 10),
    "B": dict.fromkeys(JUDGED, 5),
    "C": {k: 4 if k < 8 else 6 if k < 11 else 5 for k in JUDGED},
}
SSER["D"] = {k: v - (1 if k in (11, 12) else -1 if k == 13 else 0) for k, v in SSER["C"].items()}
SSER["E"] = dict.fromkeys(range(5), 0)
NAMES = {f"system {k}": name for k, name in enumerate(SSER)}


def errors(system: str) -> np.ndarray:
    """The system's SSER error on the 30 sentences A–D share."""
    return np.array([(10 - SSER[system][k]) * 10.0 for k in JUDGED])


@pytest.fixture
def campaign(tmp_path: Path, user_factory: Callable[..., User]) -> Corpus:
    corpus = sized_corpus(tmp_path, "power", N, systems=len(SSER))
    ann = user_factory("ann")
    for system, name in NAMES.items():
        for k, score in SSER[name].items():
            done_judgment(corpus, ann, system, k, sser=score)
    return corpus


def rows(html: str) -> dict[tuple[str, str], dict[str, str]]:
    """(first, second) → the power table's row attributes and its verdict's text."""
    table = etree.HTML(html).xpath('//table[@id="power-table"]')[0]
    out = {}
    for tr in table.iterfind(".//tbody/tr"):
        found = dict(tr.attrib)
        found["text"] = "".join(tr.xpath('td[@data-col="verdict"]')[0].itertext()).strip()
        found["gap"] = tr.xpath('td[@data-col="gap"]/text()')[0]
        out[(NAMES[tr.get("data-first")], NAMES[tr.get("data-second")])] = found
    return out


def test_neighbours_get_the_three_verdicts_and_the_number_needed(
    lead_client: Client, campaign: Corpus
) -> None:
    html = lead_client.get(reverse("campaigns:corpus", args=[campaign.pk])).content.decode()

    shown = rows(html)
    assert list(shown) == [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E")]  # best first
    assert shown[("A", "B")]["data-verdict"] == "separated"
    assert shown[("A", "B")]["text"] == "already separated"
    planned = sentences_needed(errors("B"), errors("C"), N)
    assert planned.verdict == NEEDED
    assert shown[("B", "C")]["data-verdict"] == "needed"
    assert shown[("B", "C")]["data-needed"] == str(planned.needed)
    assert shown[("B", "C")]["data-more"] == str(planned.needed - 30)
    assert shown[("B", "C")]["text"].startswith(f"{planned.needed} judged sentences in all")
    assert shown[("B", "C")]["gap"] == "1.67"  # C is worse: its error 1.67 points higher
    assert shown[("C", "D")]["data-verdict"] == "not-separable"
    assert shown[("C", "D")]["text"] == (
        "not separable: effect below what n = all sentences can detect"
    )
    assert "data-needed" not in shown[("C", "D")]
    assert shown[("D", "E")]["data-verdict"] == "too-few"
    assert shown[("D", "E")]["data-n"] == "5"
    (closest,) = etree.HTML(html).xpath('//ol[@id="power-closest"]/li')
    assert closest.get("data-more") == str(planned.more)
    assert "a lower bound rather than a promise" in html


def test_the_pairs_are_paired_on_the_sentences_both_systems_judged() -> None:
    """B is judged on sentences 0–29, C on 10–49: their test reads the 20 they share."""
    judgments = [judgment_row("B", k, "ann", sser=5) for k in range(30)]
    judgments += [judgment_row("C", k, "ann", sser=4 + k % 2) for k in range(10, 50)]

    plan = power_plan(judgments, ["B", "C"], N)

    (sser,) = [m for m in plan.metrics if m.pairs]
    (pair,) = sser.pairs
    assert (pair.first, pair.second, pair.common) == ("B", "C", 20)
    b = np.full(20, 50.0)
    c = np.array([(10 - (4 + k % 2)) * 10.0 for k in range(10, 30)])
    assert pair.separation == sentences_needed(b, c, N)


def test_a_sentence_judged_twice_counts_once_and_lower_errors_come_first() -> None:
    judgments = [judgment_row("worse", k, "ann", sser=2) for k in range(12)]
    judgments += [judgment_row("better", k, "ann", sser=9) for k in range(12)]
    judgments += [judgment_row("better", k, "bob", sser=7) for k in range(12)]

    plan = power_plan(judgments, ["worse", "better"], N)

    (pair,) = next(m for m in plan.metrics if m.metric == "sser").pairs
    assert (pair.first, pair.second, pair.common) == ("better", "worse", 12)
    assert pair.effect == pytest.approx(20.0 - 80.0)  # the mean of 10 % and 30 %, minus 80 %
