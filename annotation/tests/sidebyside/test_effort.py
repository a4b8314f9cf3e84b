"""The active time of side-by-side judging (``annotation/sidebyside/actions.py``): a
screen records an ``open`` event per candidate shown, as the single-candidate page does
for its one, and every change on the screen counts the gap since the judge last did
anything on it, so the candidates' active seconds add up to the screen's time, once,
and the effort figures count it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from lxml import html as lxml_html

from annotation.judging.esa import judgment_mark_span
from annotation.models import Comparison, Corpus, Judgment, JudgmentEvent, User
from annotation.sidebyside.actions import comparison_accept, comparison_judgments, comparison_seen
from annotation.sidebyside.queue import next_comparison
from annotation.tests.sidebyside.corpora import side_by_side_corpus
from metrics.error_spans import MarkedSpan

pytestmark = pytest.mark.django_db


@pytest.fixture
def corpus(judge: User) -> Corpus:
    return side_by_side_corpus(judge)


def first(corpus: Corpus, judge: User) -> Comparison:
    comparison = next_comparison(setting=corpus.side_by_side, user=judge)
    assert comparison is not None
    return comparison


def judged_at(comparison: Comparison, judge: User, *, mark: int, accept: int) -> list[Judgment]:
    """The screen shown at 0 s, B's first word marked at ``mark`` s, both candidates
    scored and accepted at ``accept`` s; the judgments as stored after."""
    t0 = timezone.now() - timedelta(hours=1)
    shown = comparison_judgments(comparison=comparison, user=judge)
    comparison_seen(judgments=shown, user=judge, at=t0)
    b = comparison_judgments(comparison=comparison, user=judge)[1]
    judgment_mark_span(
        judgment=b,
        user=judge,
        version=b.version,
        span=MarkedSpan(0, 1, "minor"),
        at=t0 + timedelta(seconds=mark),
    )
    comparison_accept(
        comparison=comparison,
        user=judge,
        scores={j.pk: 50 for j in shown},
        preference="a",
        at=t0 + timedelta(seconds=accept),
    )
    return [Judgment.objects.get(pk=j.pk) for j in shown]


def test_the_screen_records_an_open_event_for_every_candidate_shown(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison = first(corpus, judge)
    judge_client.get(f"/comparisons/{comparison.pk}/")

    opened = JudgmentEvent.objects.filter(kind=JudgmentEvent.Kind.OPEN, actor=judge)
    assert sorted(opened.values_list("judgment__target_id", flat=True)) == sorted(
        comparison.targets
    )
    assert len({e.created_at for e in opened}) == 1


def test_the_candidates_active_seconds_add_up_to_the_screens_time_once(
    judge: User, corpus: Corpus
) -> None:
    a, b = judged_at(first(corpus, judge), judge, mark=60, accept=90)

    # the minute before B's mark (reading the source and both candidates) is B's, the
    # half minute after it is the first candidate accept writes
    assert (a.state, b.state) == ("done", "done")
    assert b.active_seconds == pytest.approx(60.0)
    assert a.active_seconds + b.active_seconds == pytest.approx(90.0)


def test_an_idle_screen_counts_at_most_the_idle_cap_once(judge: User, corpus: Corpus) -> None:
    a, b = judged_at(first(corpus, judge), judge, mark=30, accept=30 + 3600)

    assert a.active_seconds + b.active_seconds == pytest.approx(30.0 + 120.0)


def test_the_effort_panel_counts_the_side_by_side_time(
    client: Client, judge: User, lead: User, corpus: Corpus
) -> None:
    judged_at(first(corpus, judge), judge, mark=60, accept=90)
    client.force_login(lead)

    page = lxml_html.fromstring(client.get(f"/dashboard/{corpus.pk}/panel/effort/").content)

    assert page.xpath('string(//*[@id="effort-total"])') == "1.5"
