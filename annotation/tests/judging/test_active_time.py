"""Active time and its idle-gap cap (annotation/judging/active_time.py)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from annotation.judging.active_time import active_gap
from annotation.judging.changes import judgment_set_sser
from annotation.judging.start import judgment_seen
from annotation.models import Judgment, JudgmentEvent, User
from annotation.tests.factories import click
from metrics.align import Op

pytestmark = pytest.mark.django_db


def active_seconds_from(events: Iterable[tuple[datetime, str]]) -> float:
    """Active time from (timestamp, kind) pairs in any order: each event's
    :func:`~annotation.judging.active_time.active_gap` after the one before it in time."""
    total = 0.0
    previous: datetime | None = None
    for at, kind in sorted(events, key=lambda e: e[0]):
        total += active_gap(previous, at, kind)
        previous = at
    return total


def recounted_active_seconds(judgment: Judgment) -> float:
    """A judgment's active time recounted from all its event rows, to compare with the
    ``active_seconds`` its changes stored one gap at a time."""
    return active_seconds_from(judgment.events.values_list("created_at", "kind"))


T0 = timezone.now()


@pytest.mark.parametrize(
    "events, expected",
    [
        ([], 0.0),
        ([(0, "open")], 0.0),
        ([(0, "open"), (30, "accept_op"), (45, "set_sser")], 45.0),
        ([(0, "open"), (600, "accept_op")], 120.0),  # idle gap capped at two minutes
        ([(0, "open"), (10, "finish"), (3600, "open"), (3605, "undo")], 15.0),  # break not counted
        ([(30, "accept_op"), (0, "open")], 30.0),  # order by time, not by arrival
    ],
)
def test_active_seconds_from_event_times(events: list[tuple[int, str]], expected: float) -> None:
    pairs = [(T0 + timedelta(seconds=s), kind) for s, kind in events]

    assert active_seconds_from(pairs) == expected


def test_active_time_is_recorded_with_each_change(figure_1: Judgment, judge: User) -> None:
    t0 = timezone.now()
    judgment_seen(judgment=figure_1, user=judge, at=t0)
    judgment_set_sser(
        judgment=figure_1, user=judge, version=1, sser=3, at=t0 + timedelta(seconds=30)
    )
    judgment_set_sser(
        judgment=figure_1, user=judge, version=2, sser=4, at=t0 + timedelta(minutes=10)
    )
    judgment_seen(judgment=figure_1, user=judge, at=t0 + timedelta(hours=2))
    judgment_set_sser(
        judgment=figure_1, user=judge, version=3, sser=5, at=t0 + timedelta(hours=2, seconds=5)
    )

    assert Judgment.objects.get(pk=figure_1.pk).active_seconds == pytest.approx(155.0)
    assert recounted_active_seconds(figure_1) == pytest.approx(155.0)


def test_active_time_recounted_from_explicit_event_timestamps(
    figure_1: Judgment, judge: User
) -> None:
    judgment_seen(judgment=figure_1, user=judge)
    click(figure_1, judge, Op.MISSING, "This")
    click(figure_1, judge, Op.SUBSTITUTION, "Diagram")
    t0 = timezone.now() - timedelta(hours=1)
    for event, seconds in zip(figure_1.events.order_by("pk"), [0, 20, 500], strict=True):
        JudgmentEvent.objects.filter(pk=event.pk).update(created_at=t0 + timedelta(seconds=seconds))

    assert recounted_active_seconds(figure_1) == pytest.approx(20 + 120)
