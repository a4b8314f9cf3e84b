"""The ESA / MQM page's every action costs the same queries on any corpus, in each
protocol that marks spans (ESA, ESA with pre-filled spans, MQM): the page, mark a span,
change its severity, remove it, undo, the ESA score and accept & next, counted on a small
corpus with a judge at its start and on a larger one with a judge who has finished most
of it, and shown equal and within their budgets. A click that cannot change the judge's
header (a pending judgment's) does not read or draw it: the span figures come instead."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

import pytest
from django.test import Client
from django.urls import reverse

from annotation.judging.changes import judgment_accept_next
from annotation.judging.esa import judgment_set_esa_score
from annotation.models import Corpus, Judgment, User
from annotation.models.corpus import Protocol
from annotation.tests.factories import HTMX
from annotation.tests.judging.test_esa import VERSION, corpus_of, opened
from annotation.tests.judging.test_queries import counted

pytestmark = pytest.mark.django_db

#: A click on a pending judgment's spans: the session, the user and the judgment with its
#: stack (3); the judge's spans read to check the click (1); the transaction: its start,
#: the judgment's UPDATE, the spans read under its row lock, the span written, the event,
#: its end (6); the page drawn after: the document's neighbours (1; its spans are those
#: just written). No header, no place in the order: the click cannot change them.
MAX_QUERIES_SPAN_CLICK = 11
#: A span removed: Django's delete looks for spans naming it first (2 more).
MAX_QUERIES_SPAN_REMOVED = MAX_QUERIES_SPAN_CLICK + 2
#: The ESA score: no span read or written before the page, which reads them (2 fewer);
#: after an undo, as here, the undone changes discarded (1 more).
MAX_QUERIES_ESA_SCORE = MAX_QUERIES_SPAN_CLICK - 1

CATEGORY = {Protocol.MQM: "Accuracy/Mistranslation"}


def span_counts(client: Client, corpus: Corpus) -> dict[str, int]:
    """Queries of the page and of each of its actions on the judge's next candidate, as
    the page sends them (htmx), each from the version the page before it showed."""
    category = CATEGORY.get(corpus.protocol, "")
    page = client.get(reverse("annotation:judge_continue", args=[corpus.pk]))["Location"]
    counts: dict[str, int] = {}
    counts["page"], html = counted(partial(client.get, page, **HTMX))
    token = f"0:3:major:0:{category}"
    steps = [
        ("mark", "mark-span/", {"start": "0", "end": "3", "severity": "minor"}),
        (
            "severity",
            "change-span/",
            {"span": f"0:3:minor:0:{category}", "start": "0", "end": "3", "severity": "major"},
        ),
        ("remove", "remove-span/", {"span": token}),
        ("undo", "undo/", {}),
    ]
    if corpus.scores_esa:
        steps.append(("score", "esa-score/", {"score": "70"}))
    steps.append(("accept & next", "accept/", {}))
    for name, action, data in steps:
        sent = {"version": VERSION.search(html).group(1), "category": category, **data}
        counts[name], html = counted(partial(client.post, page + action, sent, **HTMX))
    assert f'data-judgment="{page.split("/")[-2]}"' not in html  # the next candidate's page
    return counts


@pytest.mark.parametrize("protocol", [Protocol.ESA, Protocol.ESA_PREFILL, Protocol.MQM])
def test_every_span_action_costs_the_same_queries_on_a_small_and_a_large_corpus(
    client: Client, user_factory: Callable[..., User], protocol: str
) -> None:
    new, seasoned = user_factory("new"), user_factory("seasoned")
    small = corpus_of(new, protocol, sentences=3, name="small")
    large = corpus_of(seasoned, protocol, sentences=60, name="large")
    for k in range(50):
        j = opened(seasoned, large, k)
        Judgment.objects.filter(pk=j.pk).update(esa_score=50, state=Judgment.State.DONE)
    client.force_login(new)
    at_start = span_counts(client, small)
    client.force_login(seasoned)
    far_in = span_counts(client, large)
    assert far_in == at_start
    for action in ("mark", "severity", "undo"):
        assert at_start[action] <= MAX_QUERIES_SPAN_CLICK, action
    assert at_start["remove"] <= MAX_QUERIES_SPAN_REMOVED
    if protocol != Protocol.MQM:
        assert at_start["score"] <= MAX_QUERIES_ESA_SCORE


HEADER = re.compile(r'<header id="judge-header"[^>]*hx-swap-oob="true"')
FIGURES = re.compile(r'<dl id="figures"[^>]*hx-swap-oob="true"')


def mark(client: Client, judgment: Judgment, version: int) -> str:
    url = reverse("annotation:judgment_change", args=[judgment.pk, "mark-span"])
    sent = {"version": version, "start": 0, "end": 3, "severity": "minor"}
    response = client.post(url, sent, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_a_click_on_a_pending_judgment_sends_the_span_figures_not_the_header(
    judge_client: Client, judge: User
) -> None:
    j = opened(judge, corpus_of(judge, Protocol.ESA))
    html = mark(judge_client, j, j.version)
    assert not HEADER.search(html)
    assert FIGURES.search(html)
    assert '<span id="span-count">1</span>' in html
    assert 'data-protocol="esa"' in html


def test_a_click_on_a_done_judgment_draws_the_header_again(
    judge_client: Client, judge: User
) -> None:
    """Its active time is in the judge's pace, which the header shows."""
    corpus = corpus_of(judge, Protocol.ESA)
    j = opened(judge, corpus)
    judgment_set_esa_score(judgment=j, user=judge, version=j.version, score=80)
    judgment_accept_next(judgment=j, user=judge, version=j.version, shown=False)
    html = mark(judge_client, j, Judgment.objects.get(pk=j.pk).version)
    assert HEADER.search(html)
    assert 'id="pace"' in html
