"""The judge's pace and the time left (annotation/pace.py), and the header that
reads them from the judge's active time in its one query."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.header import judge_header
from annotation.judging.start import judgment_open
from annotation.models import Judgment, User
from annotation.pace import Pace, duration_text
from annotation.tests.factories import fresh, target_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "seconds, text",
    [
        (0, "0 s"),
        (42.4, "42 s"),
        (59.6, "1 min"),
        (200, "3 min 20 s"),
        (204, "3 min 20 s"),
        (599, "10 min"),
        (754, "13 min"),
        (3600, "1 h"),
        (7530, "2 h 6 min"),
    ],
)
def test_durations_read_as_a_judge_reads_them(seconds: float, text: str) -> None:
    assert duration_text(seconds) == text


def test_the_pace_is_the_active_time_per_accepted_candidate_and_the_rest_follows() -> None:
    pace = Pace(done=10, total=40, seconds=600.0)
    assert (pace.percent, pace.seconds_per_candidate, pace.seconds_left) == (25, 60.0, 1800.0)
    assert pace.pace_text == "60 s per candidate"  # one unit, as the lead's pages
    assert pace.left_text == "about 30 min left"


def test_before_the_first_accepted_candidate_there_is_no_estimate() -> None:
    pace = Pace(done=0, total=40, seconds=0.0)
    assert (pace.percent, pace.seconds_per_candidate, pace.seconds_left) == (0, None, None)
    assert "after your first" in pace.pace_text
    assert "not known yet" in pace.left_text


@pytest.mark.parametrize(
    "done, total, text",
    [
        (0, 529, "0.0"),
        (2, 529, "0.3"),
        (4, 1000, "0.4"),
        (99, 1000, "9.9"),
        (999, 10000, "9.9"),
        (100, 1000, "10"),
        (57, 100, "57"),
        (999, 1000, "99"),
        (1000, 1000, "100"),
        (0, 0, "0.0"),
    ],
)
def test_progress_shows_one_decimal_below_ten_percent_and_never_rounds_up(
    done: int, total: int, text: str
) -> None:
    assert Pace(done=done, total=total, seconds=0.0).percent_text == text


def test_a_finished_corpus_has_nothing_left() -> None:
    assert Pace(done=4, total=4, seconds=100.0).left_text == "nothing left"
    assert Pace(done=0, total=0, seconds=0.0).percent == 0


def test_the_header_reads_the_pace_from_the_judges_active_time(
    seed, figure_1: Judgment, judge: User
) -> None:
    start = timezone.now()
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=8, at=start)
    judgment_finish(
        judgment=figure_1, user=judge, version=figure_1.version, at=start + timedelta(seconds=30)
    )
    spent = fresh(figure_1).active_seconds
    second = judgment_open(user=judge, target=target_of(seed, "a translator", 1))

    header = judge_header(second)
    assert (header.pace.done, header.pace.total) == (1, 2)
    assert header.pace.seconds == pytest.approx(spent)
    assert header.pace.seconds_left == pytest.approx(spent)  # one candidate left


def test_the_pace_counts_only_this_judges_accepted_candidates(
    seed, figure_1: Judgment, judge: User, user_factory
) -> None:
    other = user_factory("other")
    seed.judges.add(other)
    theirs = judgment_open(user=other, target=target_of(seed, "a translator"))
    Judgment.objects.filter(pk=theirs.pk).update(state="done", sser=5, active_seconds=999)
    Judgment.objects.filter(pk=figure_1.pk).update(active_seconds=50)  # pending: not counted

    assert judge_header(figure_1).pace.seconds == 0
