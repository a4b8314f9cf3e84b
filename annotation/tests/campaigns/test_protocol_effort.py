"""Effort per protocol on the campaign page (issue 41, point 6): seconds per segment and
per span of each protocol the campaign's corpora use, from the judges' recorded active
time (the judgments' and the spans'), read in the same queries whatever the campaign's
size."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from lxml import html as lxml_html

from annotation.campaigns.effort import campaign_protocol_effort
from annotation.campaigns.membership import campaign_create
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.esa import judgment_change_span, judgment_mark_span
from annotation.judging.start import judgment_open, judgment_seen, next_judgment_for
from annotation.models import Campaign, Corpus, Judgment, Span, Target, User
from annotation.models.corpus import Protocol
from annotation.tests.factories import page_queries, sized_corpus
from metrics.error_spans import MarkedSpan

pytestmark = pytest.mark.django_db


def corpus_in(
    campaign: Campaign, tmp_path: Path, name: str, protocol: str, sentences: int = 4
) -> Corpus:
    corpus = sized_corpus(tmp_path, name, sentences, systems=2)
    Corpus.objects.filter(pk=corpus.pk).update(campaign=campaign, protocol=protocol)
    return Corpus.objects.get(pk=corpus.pk)


def judged(
    corpus: Corpus,
    judge: User,
    seconds: list[float],
    spans: list[list[float]] | None = None,
    *,
    edits: int | None = None,
    state: str = Judgment.State.DONE,
    control: str = Judgment.Control.NONE,
    skip: int = 0,
) -> None:
    """A judgment by ``judge`` per entry of ``seconds`` (its active time) on the corpus's
    candidates from the ``skip``-th on, with ``edits`` (aWER) and, in a span protocol,
    judge spans whose seconds are ``spans[k]`` for judgment k."""
    candidates = Target.objects.filter(sentence__corpus=corpus, translator__role="system")
    for k, (target, s) in enumerate(zip(candidates.order_by("pk")[skip:], seconds, strict=False)):
        j = Judgment.objects.create(
            target=target,
            evaluator=judge,
            state=state,
            control=control,
            active_seconds=s,
            edits=edits,
            ref_length=None if edits is None else 8,
        )
        for n, span_seconds in enumerate(spans[k] if spans else []):
            Span.objects.create(
                judgment=j, start=2 * n, end=2 * n + 1, severity="minor", seconds=span_seconds
            )


@pytest.fixture
def wmt(tmp_path: Path, user_factory: Callable[..., User]) -> Campaign:
    """A campaign of an aWER, an ESA and an MQM corpus (and no ESA with pre-fill),
    judged by two judges with known seconds; pending judgments, control items, and
    suggestions nobody kept, which count in no figure."""
    wmt = campaign_create(name="WMT25")
    ann, bob = user_factory("ann"), user_factory("bob")
    awer = corpus_in(wmt, tmp_path, "awer", Protocol.AWER)
    judged(awer, ann, [30.0, 50.0], edits=2)  # 80 s, 4 edit operations
    judged(awer, bob, [40.0], edits=0)  # 120 s over 3 segments, 4 spans
    esa = corpus_in(wmt, tmp_path, "esa", Protocol.ESA)
    judged(esa, ann, [20.0, 40.0], [[5.0, 7.0], [3.0]])
    judged(esa, bob, [30.0], [[]])  # 90 s over 3 segments, 3 spans marked in 15 s
    judged(esa, bob, [999.0], [[999.0]], state=Judgment.State.PENDING, skip=1)
    judged(esa, ann, [999.0], [[999.0]], control=Judgment.Control.REPEAT)
    kept = Span.objects.filter(judgment__target__sentence__corpus=esa).first()
    assert kept is not None
    Span.objects.create(
        judgment=kept.judgment,
        start=6,
        end=7,
        severity="major",
        origin=Span.Origin.SUGGESTED,
        source=Span.Source.AWER,
    )
    mqm = corpus_in(wmt, tmp_path, "mqm", Protocol.MQM)
    judged(mqm, ann, [45.0, 55.0], [[10.0], [20.0, 30.0, 40.0]])
    other = campaign_create(name="other")
    judged(corpus_in(other, tmp_path, "elsewhere", Protocol.ESA), ann, [999.0], [[999.0]])
    return wmt


def test_each_protocol_has_its_seconds_per_segment_and_per_span(wmt: Campaign) -> None:
    effort = {e.protocol: e for e in campaign_protocol_effort(wmt)}

    assert list(effort) == ["awer", "esa", "mqm"]
    awer, esa, mqm = effort["awer"], effort["esa"], effort["mqm"]
    assert (awer.judgments, awer.spans, awer.seconds_per_segment) == (3, 4, 40.0)
    assert awer.seconds_per_span == 30.0
    assert awer.marking_seconds_per_span is None  # aWER's spans are its operations
    assert (esa.judgments, esa.spans, esa.seconds_per_segment) == (3, 3, 30.0)
    assert (esa.seconds_per_span, esa.marking_seconds_per_span) == (30.0, 5.0)
    assert (mqm.judgments, mqm.spans, mqm.seconds_per_segment) == (2, 4, 50.0)
    assert (mqm.seconds_per_span, mqm.marking_seconds_per_span) == (25.0, 25.0)


def test_a_protocol_nobody_judged_yet_shows_no_figure(
    tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    campaign = campaign_create(name="fresh")
    corpus_in(campaign, tmp_path, "prefill", Protocol.ESA_PREFILL)

    (e,) = campaign_protocol_effort(campaign)

    assert (e.protocol, e.judgments, e.spans) == ("esa_prefill", 0, 0)
    assert e.seconds_per_segment is e.seconds_per_span is e.marking_seconds_per_span is None


def test_a_span_keeps_the_time_of_the_changes_that_marked_and_changed_it(judge: User) -> None:
    """Span.seconds: the gap before the mark that made the span, and before each change
    of it; a span another change left alone gains nothing."""
    from annotation.tests.judging.test_esa import corpus_of

    corpus = corpus_of(judge, Protocol.ESA)
    target = Target.objects.get(
        sentence__corpus=corpus, sentence__position=0, translator__name="sys"
    )
    j = judgment_open(user=judge, target=target)
    opened_at = timezone.now() - timedelta(minutes=5)
    judgment_seen(judgment=j, user=judge, at=opened_at)
    cat, sat = MarkedSpan(4, 7, "minor"), MarkedSpan(10, 13, "minor")
    at = opened_at + timedelta(seconds=8)
    judgment_mark_span(judgment=j, user=judge, version=1, span=cat, at=at)
    at += timedelta(seconds=5)
    judgment_mark_span(judgment=j, user=judge, version=2, span=sat, at=at)
    at += timedelta(seconds=3)
    wider = MarkedSpan(4, 9, "major")
    judgment_change_span(judgment=j, user=judge, version=3, span=cat, to=wider, at=at)

    seconds = dict(Span.objects.filter(judgment=j).values_list("start", "seconds"))
    assert seconds == {4: pytest.approx(8.0 + 3.0), 10: pytest.approx(5.0)}
    assert Judgment.objects.get(pk=j.pk).active_seconds == pytest.approx(16.0)


def test_the_campaign_page_shows_the_effort_of_each_protocol(
    lead_client: Client, wmt: Campaign
) -> None:
    page = lxml_html.fromstring(
        lead_client.get(reverse("campaigns:campaign", args=[wmt.pk])).content
    )

    rows = page.xpath('//*[@id="effort-protocols"]//tr[@data-protocol]')
    shown = {
        r.get("data-protocol"): (
            r.xpath("string(th)"),
            r.xpath('string(td[@data-col="per-segment"])'),
            r.xpath('string(td[@data-col="per-span"])'),
            r.xpath('string(td[@data-col="marking"])'),
        )
        for r in rows
    }
    assert shown == {
        "awer": ("aWER + SSER", "40.0", "30.0", "–"),
        "esa": ("ESA", "30.0", "30.0", "5.0"),
        "mqm": ("MQM", "50.0", "25.0", "25.0"),
    }
    assert rows[1].get("data-seconds-per-segment") == "30.0"


def test_the_effort_costs_the_same_queries_on_a_campaign_many_times_larger(
    tmp_path: Path, lead_client: Client, user_factory: Callable[..., User]
) -> None:
    campaign = campaign_create(name="growing")
    esa = corpus_in(campaign, tmp_path, "esa", Protocol.ESA, sentences=3)
    ann = user_factory("ann")
    judged(esa, ann, [10.0], [[1.0]])
    url = reverse("campaigns:campaign", args=[campaign.pk])
    few = page_queries(lead_client, url)
    mqm = corpus_in(campaign, tmp_path, "mqm", Protocol.MQM, sentences=30)
    judged(mqm, ann, [5.0] * 50, [[1.0, 2.0]] * 50)
    judged(esa, user_factory("bob"), [7.0] * 6, [[1.0]] * 6)

    many = page_queries(lead_client, url)

    assert many == few
    assert len(campaign_protocol_effort(campaign)) == 2


def test_a_later_view_reads_the_effort_remembered_until_a_judgment_is_done(
    lead_client: Client, wmt: Campaign
) -> None:
    """Both queries read every done judgment of the campaign: a later view reads them
    from what the first computed, and a judgment a judge finishes in any of its corpora
    has the next view count it."""
    url = reverse("campaigns:campaign", args=[wmt.pk])
    first = page_queries(lead_client, url)

    assert page_queries(lead_client, url) == first - 2

    awer = Corpus.objects.get(campaign=wmt, protocol=Protocol.AWER)
    judge = User.objects.get(username="ann")
    awer.judges.add(judge)
    j = next_judgment_for(user=judge, corpus=awer)
    assert j is not None
    j = judgment_set_sser(judgment=j, user=judge, version=j.version, sser=8)
    judgment_finish(judgment=j, user=judge, version=j.version)
    page = lxml_html.fromstring(lead_client.get(url).content)

    (row,) = page.xpath('//*[@id="effort-protocols"]//tr[@data-protocol="awer"]')
    assert row.get("data-judgments") == "4"
