"""The ESA / MQM page's services and views (issue 41, point 2): spans saved, refused
with their reason, the ESA score saved, accept & next; the page chosen by the corpus's
protocol; and the same queries whatever the corpus size."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

import pytest
from django.test import Client
from django.urls import reverse

from annotation.judging.changes import judgment_accept_next, judgment_undo
from annotation.judging.errors import ERR_NO_ESA, ERR_SPAN_GONE, ChangeRefused, StaleJudgment
from annotation.judging.esa import (
    judgment_change_span,
    judgment_mark_span,
    judgment_remove_span,
    judgment_set_esa_score,
)
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, Span, User
from annotation.models.corpus import Protocol
from annotation.tests.factories import HTMX, MAX_QUERIES_PER_CLICK, import_xml, target_of
from annotation.tests.judging.test_queries import counted
from metrics.error_spans import MarkedSpan

pytestmark = pytest.mark.django_db

VERSION = re.compile(r'data-version="(\d+)"')
#: A span click's budget: an aWER click's, and the judge's spans read to check them, read
#: again under the row lock to write them, and read for the page drawn after; a span
#: removed costs Django's delete two more (it looks for spans naming it, to unlink them).
MAX_QUERIES_PER_SPAN_CLICK = MAX_QUERIES_PER_CLICK + 5


def corpus_of(judge: User, protocol: str, sentences: int = 3, name: str = "esa") -> Corpus:
    """``sentences`` sentences of one document, system "sys" ("the cat k sat here"),
    judged by ``judge`` under ``protocol``."""
    body = "".join(
        f'<sentence doc="d"><source>s{k}</source>'
        f'<eval translator="first reference"><target>r{k}</target></eval>'
        f'<eval translator="sys"><target>the cat {k} sat here</target></eval></sentence>'
        for k in range(sentences)
    )
    corpus = import_xml(f"<evalTrans>{body}</evalTrans>", name, judge)
    corpus.protocol = protocol
    corpus.save(update_fields=["protocol"])
    return corpus


def opened(judge: User, corpus: Corpus, sentence: int = 0) -> Judgment:
    return judgment_open(user=judge, target=target_of(corpus, "sys", sentence))


def spans_of(judgment: Judgment) -> list[tuple[int, int, str, str, bool]]:
    return list(
        Span.objects.filter(judgment=judgment)
        .order_by("start", "end")
        .values_list("start", "end", "severity", "category", "missing")
    )


def test_a_span_marked_is_saved_trimmed_and_moves_the_version(judge: User) -> None:
    j = opened(judge, corpus_of(judge, Protocol.ESA))
    # "the cat 0 sat here": "cat " selected with its blank
    judgment_mark_span(judgment=j, user=judge, version=j.version, span=MarkedSpan(4, 8, "minor"))
    assert spans_of(j) == [(4, 7, "minor", "", False)]
    assert Judgment.objects.get(pk=j.pk).version == 2


def test_a_span_of_blanks_or_with_a_category_is_refused_with_its_reason(judge: User) -> None:
    j = opened(judge, corpus_of(judge, Protocol.ESA))
    judgment_mark_span(judgment=j, user=judge, version=1, span=MarkedSpan(4, 7, "minor"))
    with pytest.raises(ChangeRefused, match="the new span: characters 3…4 are blanks only"):
        judgment_mark_span(judgment=j, user=judge, version=2, span=MarkedSpan(3, 4, "major"))
    with pytest.raises(ChangeRefused, match="ESA spans have none"):
        judgment_mark_span(
            judgment=j, user=judge, version=2, span=MarkedSpan(0, 3, "major", "Other")
        )
    assert spans_of(j) == [(4, 7, "minor", "", False)]


def test_a_span_is_resized_removed_and_undo_brings_it_back(judge: User) -> None:
    j = opened(judge, corpus_of(judge, Protocol.ESA))
    cat = MarkedSpan(4, 7, "minor")
    judgment_mark_span(judgment=j, user=judge, version=1, span=cat)
    wider = MarkedSpan(4, 13, "major")
    judgment_change_span(judgment=j, user=judge, version=2, span=cat, to=wider)
    assert spans_of(j) == [(4, 13, "major", "", False)]
    with pytest.raises(ChangeRefused) as refused:
        judgment_remove_span(judgment=j, user=judge, version=3, span=cat)
    assert refused.value.message == ERR_SPAN_GONE.format(label="“cat”")
    judgment_remove_span(judgment=j, user=judge, version=3, span=wider)
    assert spans_of(j) == []
    judgment_undo(judgment=j, user=judge, version=4)
    assert spans_of(j) == [(4, 13, "major", "", False)]


def test_a_span_marked_over_exactly_one_span_takes_its_place(judge: User) -> None:
    """How a judge resizes a span by selecting it anew; over two it is refused."""
    j = opened(judge, corpus_of(judge, Protocol.ESA))
    judgment_mark_span(judgment=j, user=judge, version=1, span=MarkedSpan(4, 7, "minor"))
    judgment_mark_span(judgment=j, user=judge, version=2, span=MarkedSpan(4, 11, "major"))
    assert spans_of(j) == [(4, 11, "major", "", False)]
    judgment_mark_span(judgment=j, user=judge, version=3, span=MarkedSpan(14, 18, "minor"))
    with pytest.raises(ChangeRefused, match="the new span: overlaps span 1"):
        judgment_mark_span(judgment=j, user=judge, version=4, span=MarkedSpan(0, 18, "minor"))


def test_the_span_at_a_place_is_removed_whatever_its_severity(judge: User) -> None:
    j = opened(judge, corpus_of(judge, Protocol.ESA))
    judgment_mark_span(judgment=j, user=judge, version=1, span=MarkedSpan(4, 11, "major"))
    with pytest.raises(ChangeRefused, match="no span of yours covers “the”"):
        judgment_remove_span(
            judgment=j, user=judge, version=2, span=MarkedSpan(0, 3, ""), exact=False
        )
    judgment_remove_span(judgment=j, user=judge, version=2, span=MarkedSpan(8, 11, ""), exact=False)
    assert spans_of(j) == []


def test_a_missing_marker_is_saved_at_the_end(judge: User) -> None:
    j = opened(judge, corpus_of(judge, Protocol.ESA))
    end = len(j.candidate_text)
    judgment_mark_span(
        judgment=j, user=judge, version=1, span=MarkedSpan(end, end, "major", missing=True)
    )
    assert spans_of(j) == [(end, end, "major", "", True)]


def test_a_click_sent_twice_is_saved_once_and_an_old_page_is_stale(judge: User) -> None:
    j = opened(judge, corpus_of(judge, Protocol.ESA))
    span = MarkedSpan(0, 3, "minor")
    judgment_mark_span(judgment=j, user=judge, version=1, span=span)
    judgment_mark_span(judgment=j, user=judge, version=1, span=span)  # a retry
    assert spans_of(j) == [(0, 3, "minor", "", False)]
    with pytest.raises(StaleJudgment):
        judgment_mark_span(judgment=j, user=judge, version=1, span=MarkedSpan(8, 9, "minor"))


def test_the_esa_score_is_saved_and_required_to_accept(judge: User) -> None:
    corpus = corpus_of(judge, Protocol.ESA)
    j = opened(judge, corpus)
    with pytest.raises(ChangeRefused) as refused:
        judgment_accept_next(judgment=j, user=judge, version=1, shown=False)
    assert refused.value.message == ERR_NO_ESA
    with pytest.raises(ChangeRefused, match="from 0 to 100"):
        judgment_set_esa_score(judgment=j, user=judge, version=1, score=101)
    judgment_set_esa_score(judgment=j, user=judge, version=1, score=66)
    following = judgment_accept_next(judgment=j, user=judge, version=2, shown=False)
    saved = Judgment.objects.get(pk=j.pk)
    assert (saved.esa_score, saved.state) == (66, Judgment.State.DONE)
    assert following is not None
    assert following.pk != j.pk
    assert following.state == Judgment.State.PENDING


def test_mqm_spans_take_a_category_of_the_taxonomy_and_overlap_across_categories(
    judge: User,
) -> None:
    j = opened(judge, corpus_of(judge, Protocol.MQM))
    judgment_mark_span(
        judgment=j, user=judge, version=1, span=MarkedSpan(4, 7, "major", "Fluency/Spelling")
    )
    judgment_mark_span(
        judgment=j,
        user=judge,
        version=2,
        span=MarkedSpan(4, 7, "minor", "Accuracy/Mistranslation"),
    )
    with pytest.raises(ChangeRefused, match="not in the corpus's taxonomy"):
        judgment_mark_span(judgment=j, user=judge, version=3, span=MarkedSpan(0, 3, "minor"))
    assert judgment_accept_next(judgment=j, user=judge, version=3, shown=False) is not None
    assert Judgment.objects.get(pk=j.pk).state == Judgment.State.DONE


def test_an_awer_corpus_refuses_spans(judge: User) -> None:
    j = opened(judge, corpus_of(judge, Protocol.AWER))
    with pytest.raises(ChangeRefused, match="judged by aWER"):
        judgment_mark_span(judgment=j, user=judge, version=1, span=MarkedSpan(0, 3, "minor"))


@pytest.mark.parametrize("protocol", [Protocol.ESA, Protocol.ESA_PREFILL, Protocol.MQM])
def test_a_span_corpus_gets_the_span_page_at_the_same_url(
    judge_client: Client, judge: User, protocol: str
) -> None:
    corpus = corpus_of(judge, protocol)
    page = judge_client.get(reverse("annotation:judge_continue", args=[corpus.pk]))["Location"]
    html = judge_client.get(page).content.decode()
    assert 'id="mark-form"' in html
    assert 'id="new-ref"' not in html
    assert 'id="source-after"' in html or 'id="source-before"' in html  # its document
    assert ('id="esa-score-range"' in html) == (protocol != Protocol.MQM)
    assert ('id="mqm-category"' in html) == (protocol == Protocol.MQM)


def test_the_view_refuses_a_span_with_422_and_its_reason(judge_client: Client, judge: User) -> None:
    corpus = corpus_of(judge, Protocol.ESA)
    j = opened(judge, corpus)
    url = reverse("annotation:judgment_change", args=[j.pk, "mark-span"])
    sent = {"version": 1, "start": 2, "end": 99, "severity": "minor"}
    response = judge_client.post(url, sent, **HTMX)
    assert response.status_code == 422
    assert "no stretch of the text" in response.content.decode()
    sent = {"version": 1, "start": 0, "end": 3, "severity": "major"}
    response = judge_client.post(url, sent, **HTMX)
    assert response.status_code == 200
    assert 'data-span="0:3:major:0:"' in response.content.decode()


def test_mqm_points_shown_are_the_taxonomys(judge_client: Client, judge: User) -> None:
    j = opened(judge, corpus_of(judge, Protocol.MQM))
    judgment_mark_span(
        judgment=j, user=judge, version=1, span=MarkedSpan(4, 7, "minor", "Fluency/Punctuation")
    )
    judgment_mark_span(judgment=j, user=judge, version=2, span=MarkedSpan(0, 3, "major", "Other"))
    html = judge_client.get(reverse("annotation:judgment", args=[j.pk])).content.decode()
    assert 'id="mqm-score" class="mqm-score" data-points="5.1"' in html


def span_counts(client: Client, corpus: Corpus) -> dict[str, int]:
    """Queries of the ESA page and of each of its actions, as the page sends them."""
    page = client.get(reverse("annotation:judge_continue", args=[corpus.pk]))["Location"]
    counts: dict[str, int] = {}
    counts["page"], html = counted(partial(client.get, page, **HTMX))
    steps = [
        ("mark", "mark-span/", {"start": "0", "end": "3", "severity": "minor"}),
        (
            "change",
            "change-span/",
            {"span": "0:3:minor:0:", "start": "0", "end": "7", "severity": "major"},
        ),
        ("score", "esa-score/", {"score": "70"}),
        ("remove", "remove-span/", {"span": "0:7:major:0:"}),
        ("accept & next", "accept/", {}),
    ]
    for name, action, data in steps:
        sent = {"version": VERSION.search(html).group(1), **data}
        counts[name], html = counted(partial(client.post, page + action, sent, **HTMX))
    return counts


def test_the_esa_page_costs_the_same_queries_on_a_small_and_a_large_corpus(
    client: Client, user_factory: Callable[..., User]
) -> None:
    new, seasoned = user_factory("new"), user_factory("seasoned")
    small = corpus_of(new, Protocol.ESA, sentences=3, name="small")
    large = corpus_of(seasoned, Protocol.ESA, sentences=60, name="large")
    for k in range(50):
        j = opened(seasoned, large, k)
        Judgment.objects.filter(pk=j.pk).update(esa_score=50, state=Judgment.State.DONE)
    client.force_login(new)
    at_start = span_counts(client, small)
    client.force_login(seasoned)
    far_in = span_counts(client, large)
    assert far_in == at_start
    for action in ("mark", "change", "score", "remove"):
        assert at_start[action] <= MAX_QUERIES_PER_SPAN_CLICK, action


SPAN_ACTIONS = [
    ("mark-span", {"start": "0", "end": "3", "severity": "minor"}),
    ("change-span", {"span": "0:3:minor:0:", "start": "0", "end": "3", "severity": "major"}),
    ("esa-score", {"score": "50"}),
    ("remove-span", {"span": "0:3:major:0:"}),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_span_actions_are_the_judges_alone_and_a_plain_post_redirects(
    client: Client, judge: User, lead: User, user_factory: Callable[..., User], htmx: bool
) -> None:
    corpus = corpus_of(judge, Protocol.ESA)
    j = opened(judge, corpus)
    intruder = user_factory("intruder")
    corpus.judges.add(intruder)
    headers = HTMX if htmx else {}
    page = reverse("annotation:judgment", args=[j.pk])
    for action, data in SPAN_ACTIONS:
        url = reverse("annotation:judgment_change", args=[j.pk, action])
        client.logout()
        assert client.post(url, {"version": 1, **data}, **headers).status_code in (302, 401)
        client.force_login(intruder)
        assert client.post(url, {"version": 1, **data}, **headers).status_code == 404
        client.force_login(lead)
        assert client.post(url, {"version": 1, **data}, **headers).status_code == 403
    assert Judgment.objects.get(pk=j.pk).version == 1
    assert 'data-readonly="true"' in client.get(page).content.decode()  # the lead's view
    client.force_login(judge)
    for version, (action, data) in enumerate(SPAN_ACTIONS, start=1):
        url = reverse("annotation:judgment_change", args=[j.pk, action])
        response = client.post(url, {"version": version, **data}, **headers)
        assert response.status_code == (200 if htmx else 303), action
        if not htmx:
            assert response["Location"] == page
    saved = Judgment.objects.get(pk=j.pk)
    assert (saved.version, saved.esa_score, spans_of(saved)) == (5, 50, [])
