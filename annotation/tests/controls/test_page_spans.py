"""An ESA or MQM control item's page is a candidate's page (issue 41, point 4, by the rule
of the aWER page: ``test_page.py``). A judge walks the whole queue through the pages as
they are dealt; every item is read as the judge reads it, and:

* each control's page, with the texts taken out (the candidate's characters, the
  numbers), is the page of the real candidate right after it, and of every real
  candidate: the same markup, ids, data attributes and labels;
* "sentence k of M" is the same, "candidate k of N" moves by one with the same N, "done
  x / T" moves by one, the labels of a run are "System 1" … "System N";
* the home page counts what the header counts, after every item;
* every item is dealt the same way, when the judge reaches it: the same "continue" URL
  answers with the item's page address, and each item's judgment is made then (its
  number follows the item before's: none is made ahead).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.controls.runs import SPAN_KINDS
from annotation.judging.esa import judgment_mark_span, judgment_set_esa_score
from annotation.models import Corpus, Judgment, User
from annotation.models.corpus import Protocol
from annotation.tests.controls.factories import span_queue_corpus, with_every_kind
from annotation.tests.controls.test_page import header, skeleton
from annotation.tests.factories import HTMX, page_url
from metrics.error_spans import MarkedSpan

pytestmark = pytest.mark.django_db

POSITION = re.compile(r" ?sentence (\d+) of (\d+) · candidate (\d+) of (\d+) · done (\d+)/(\d+) ?")


@dataclass
class Seen:
    """One item as the judge saw it."""

    judgment: Judgment
    location: str
    position: tuple[int, ...]
    label: str
    page: list
    home: str  # the home page's count, read after the item's page
    #: What accept & next answered the item before with (this item's fragment, its htmx
    #: headers' names): None for the first item.
    dealt: tuple[list, tuple[str, ...]] | None


def answer(judgment: Judgment, judge: User) -> None:
    """A judge who marks the first word a minor error (a category in MQM) and scores 60
    (ESA); the page's accept & next comes after."""
    corpus = judgment.target.sentence.corpus
    first = judgment.candidate_text.split()[0]
    category = "Accuracy/Mistranslation" if corpus.protocol == Protocol.MQM else ""
    span = MarkedSpan(0, len(first), "minor", category)
    judgment_mark_span(judgment=judgment, user=judge, version=judgment.version, span=span)
    if corpus.scores_esa:
        judgment_set_esa_score(judgment=judgment, user=judge, version=judgment.version, score=60)


def walk(client: Client, corpus: Corpus, judge: User) -> list[Seen]:
    """The judge's whole queue through the pages: "continue", the item's page; then the
    item answered through the services and accepted by the page's accept & next (htmx),
    whose answer deals the next item: it is kept on that item (``dealt``)."""
    out: list[Seen] = []
    dealt: tuple[list, tuple[str, ...]] | None = None
    while True:
        response = client.get(f"/corpora/{corpus.pk}/judge/")
        if response.status_code != 302:
            assert b'id="all-done"' in response.content
            return out
        location = response["Location"]
        judgment = Judgment.objects.select_related("target__sentence__corpus").get(
            pk=int(location.rstrip("/").rsplit("/", 1)[1])
        )
        assert location == page_url(judgment)
        html = client.get(location).content.decode()
        shown = header(html)
        position = re.sub(r"\s+", " ", shown["position"])
        out.append(
            Seen(
                judgment=judgment,
                location=re.sub(r"\d+", "#", location),
                position=tuple(map(int, POSITION.fullmatch(position).groups())),
                label=shown["label"],
                page=skeleton(html),
                home=etree.HTML(client.get("/").content.decode())
                .find(f'.//*[@data-progress="{corpus.name}"]')
                .text,
                dealt=dealt,
            )
        )
        answer(judgment, judge)
        judgment.refresh_from_db()
        accepted = client.post(
            reverse("annotation:judgment_accept", args=[judgment.pk]),
            {"version": judgment.version},
            **HTMX,
        )
        assert accepted.status_code == 200
        headers = tuple(sorted(k for k in accepted.headers if k.lower().startswith("hx-")))
        dealt = (skeleton(accepted.content.decode()), headers)


def a_control_page_differs_from_a_real_items_only_by_its_texts(walked: list[Seen]) -> None:
    kinds = {s.judgment.control for s in walked if s.judgment.control}
    assert kinds == set(SPAN_KINDS)
    real = [s for s in walked if not s.judgment.control]
    assert real
    for before, after in itertools.pairwise(walked):
        if not before.judgment.control:
            continue
        assert not after.judgment.control  # never two in a row, never a run's last
        assert before.page == after.page, before.judgment.control
        assert before.location == after.location
        s, m, k, n, x, t = before.position
        assert after.position == (s, m, k + 1, n, x + 1, t)
        assert re.fullmatch(r"System \d+", before.label)
        assert before.label != after.label
    pages = {repr(s.page) for s in walked}
    assert len(pages) == 1  # every item, control or real, the same page but for its texts
    fragments = {repr(s.dealt) for s in walked[1:]}
    assert len(fragments) == 1  # accept & next answers alike, whichever item it deals


def every_item_is_dealt_when_the_judge_reaches_it(walked: list[Seen]) -> None:
    """Items numbered in the order they came, each made as it was reached; each run
    counts 1 … N with its labels System 1 … System N, N the same in every run."""
    pks = [s.judgment.pk for s in walked]
    assert pks == sorted(pks)
    assert [s.position[4] for s in walked] == list(range(len(walked)))
    assert [s.home for s in walked] == [f"{s.position[4]}/{s.position[5]}" for s in walked]
    runs = [list(run) for _, run in itertools.groupby(walked, key=lambda s: s.position[0])]
    assert len({len(run) for run in runs}) == 1
    for run in runs:
        assert [s.position[2] for s in run] == list(range(1, len(run) + 1))
        assert sorted(s.label for s in run) == sorted(f"System {k}" for k in range(1, len(run) + 1))
        assert sum(1 for s in run if s.judgment.control) == len(run) - 6


@pytest.mark.parametrize("protocol", [Protocol.ESA, Protocol.MQM])
def test_nothing_a_judge_sees_tells_an_esa_or_mqm_control(
    tmp_path: Path, client: Client, judge: User, protocol: str
) -> None:
    """The queue is walked once (the slow part), then each rule above is checked."""
    corpus = with_every_kind(
        span_queue_corpus(tmp_path, "spans", [judge], protocol, sentences=3, systems=6), judge
    )
    client.force_login(judge)
    walked = walk(client, corpus, judge)

    a_control_page_differs_from_a_real_items_only_by_its_texts(walked)
    every_item_is_dealt_when_the_judge_reaches_it(walked)
