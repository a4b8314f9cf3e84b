"""The judge's pace and the time left: one rule wherever a pace is shown (the judge's
header's progress bar, the campaign page and CSV, the dashboard's judges and effort
panels), so a judge and a lead read one number in one unit.

The pace is the judge's *active* time (:mod:`annotation.judging.active_time`: idle gaps
capped, time away from the page not counted) over the candidates the judge has accepted in
this corpus; the time left is that pace times the candidates still to judge. With
control items on, the header counts items, controls included, and the pace reads them
alike (a control must not show by a counter that stands still). Active time
rather than the clock between the first and the last event, so a weekend between two
sessions does not make the judge look slow. Both are read with the header's one query
(:func:`annotation.judging.header.judge_header`), whatever the corpus size.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The pace's one unit, wherever a pace is shown (this header, the campaign page, the
#: dashboard's judges and effort panels, the campaign CSV): active seconds per done
#: candidate — a judge reads "42 s per candidate" and a lead the same figure.
PACE_UNIT = "s per candidate"
PACE_LABEL = f"Pace ({PACE_UNIT})"


def seconds_per_candidate(done: int, seconds: float) -> float | None:
    """The pace: active seconds per done candidate (None before the first)."""
    return seconds / done if done else None


def sentences_per_hour(judgments: int, seconds: float) -> float | None:
    """Done judgments per hour of active time (seed 001 Table 3's speed); None without
    measured time, rather than an infinite speed. The judges and effort panels both
    show it."""
    return judgments * 3600 / seconds if seconds > 0 else None


@dataclass(frozen=True)
class Pace:
    """``done`` of ``total`` candidates, with ``seconds`` of active time spent on them."""

    done: int
    total: int
    seconds: float

    @property
    def percent(self) -> float:
        """Share of the candidates done, in percent (0 for an empty corpus)."""
        return 100 * self.done / self.total if self.total else 0.0

    @property
    def percent_text(self) -> str:
        """The share as the header shows it: one decimal below 10 %, where a whole percent
        would sit at 0 for the first hours of a big corpus ("0.4"), whole percent above
        ("57"). Rounded down, so nothing short of every candidate reads "100"."""
        tenths = 1000 * self.done // self.total if self.total else 0
        if tenths < 100:
            return f"{tenths // 10}.{tenths % 10}"
        return str(tenths // 10)

    @property
    def seconds_per_candidate(self) -> float | None:
        """The judge's mean active time per accepted candidate (None before the first)."""
        return seconds_per_candidate(self.done, self.seconds)

    @property
    def seconds_left(self) -> float | None:
        """The estimate of the active time still needed: pace × candidates left."""
        per = self.seconds_per_candidate
        return None if per is None else per * max(self.total - self.done, 0)

    @property
    def pace_text(self) -> str:
        per = self.seconds_per_candidate
        if per is None:
            return "pace: after your first accepted candidate"
        return f"{round(per)} {PACE_UNIT}"

    @property
    def left_text(self) -> str:
        left = self.seconds_left
        if left is None:
            return "time left: not known yet"
        if left == 0:
            return "nothing left"
        return f"about {duration_text(left)} left"


def duration_text(seconds: float) -> str:
    """A duration as a judge reads it: "40 s", "3 min 20 s", "2 h 5 min" (rounded to the
    second below a minute, to the ten seconds below ten minutes, then to the minute)."""
    s = max(round(seconds), 0)
    if s < 60:
        return f"{s} s"
    if s < 600:
        s = round(s / 10) * 10
        minutes, rest = divmod(s, 60)
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    minutes = round(s / 60)
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return f"{minutes} min"
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"
