"""How long a judge worked on a judgment: the active time (seed 001 Table 3 reports the
evaluation time of each method).

A judgment's ``active_seconds`` grows with each change by the gap since the judgment's
previous event, as :func:`active_gap` counts it; :data:`IDLE_CAP_SECONDS` is the one cap
on idle gaps. Summed over a judgment's events in time order, the same function gives the
same total from the event rows alone. On a side-by-side screen, where several candidates
are judged at once, the previous event is the screen's latest, whichever candidate it
was (:mod:`annotation.sidebyside.actions`): there the same function over the events of
all the screen's candidates in time order gives their total.
"""

from __future__ import annotations

from datetime import datetime

from annotation.models import JudgmentEvent

#: An idle gap between two events counts at most this long: a judge who left the page
#: open over lunch did not work on it for an hour.
IDLE_CAP_SECONDS = 120.0


def active_gap(previous: datetime | None, at: datetime, kind: str) -> float:
    """The seconds an event of ``kind`` at ``at`` adds to the active time, given the time
    of the judgment's previous event (None for the first event).

    The gap is never negative and counts at most :data:`IDLE_CAP_SECONDS`. A gap that
    *ends* with an ``open`` event is not counted: the judge was elsewhere (another
    candidate, a break) before the page was shown. The gap from ``open`` to the first
    change is counted, which is why the page records ``open`` at all.
    """
    if previous is None or kind == JudgmentEvent.Kind.OPEN:
        return 0.0
    return min(max((at - previous).total_seconds(), 0.0), IDLE_CAP_SECONDS)
