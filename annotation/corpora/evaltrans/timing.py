"""The effort of a judgment: attributes of its ``<eval>`` (an evalTrans extension)::

    <eval translator="Statistical" evaluator="JM" sser="8" awer="1/5"
          activeSeconds="74.25" ierSeconds="12.5" ierClicks="3"
          firstSeen="2026-03-02T09:15:04.120000Z" lastChanged="2026-03-02T09:16:31.905311Z">

``activeSeconds`` is the judge's active time on the judgment (idle gaps capped, time
away not counted: :mod:`annotation.judging.active_time`), ``ierSeconds`` and
``ierClicks`` the part of it spent on IER and the number of IER changes (seed 001
Table 3), ``firstSeen`` and ``lastChanged`` when the judgment was opened first and
changed last, ISO 8601 in UTC. Without them a judgment has no measured effort (0), as
files written before these attributes existed.

Why attributes: the effort panel, the judge's pace and the time to finish are read from
them, so a corpus exported and imported again (to another server, or back after a
restore) shows the same figures as the original. The seconds are written as Python
writes a float (the shortest text that reads back to the same number), the times with
microseconds: export → import → export gives the same bytes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

ACTIVE_SECONDS = "activeSeconds"
IER_SECONDS = "ierSeconds"
IER_CLICKS = "ierClicks"
FIRST_SEEN = "firstSeen"
LAST_CHANGED = "lastChanged"
#: The attribute names, in the order they are written.
TIMING_ATTRS = (ACTIVE_SECONDS, IER_SECONDS, IER_CLICKS, FIRST_SEEN, LAST_CHANGED)

#: The largest count the database's positive integer columns hold on every backend.
MAX_CLICKS = 2**31 - 1

ERR_SECONDS = '{name}="{value}" is not a number of seconds (a non-negative decimal)'
ERR_CLICKS = f'{IER_CLICKS}="{{value}}" is not a whole number from 0 to {MAX_CLICKS}'
ERR_IER_OVER_ACTIVE = (
    f'{IER_SECONDS}="{{ier}}" is more than {ACTIVE_SECONDS}="{{active}}" '
    "(IER's time is part of the active time)"
)
ERR_TIME = '{name}="{value}" is not an ISO 8601 time with a time zone, e.g. 2026-03-02T09:15:04Z'
ERR_TIME_ORDER = f'{LAST_CHANGED}="{{last}}" is before {FIRST_SEEN}="{{first}}"'

_SECONDS_RE = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,3})?", re.ASCII)
_CLICKS_RE = re.compile(r"[0-9]{1,10}", re.ASCII)


@dataclass(frozen=True)
class Timing:
    """A judgment's effort as its ``<eval>`` carries it (see the module's doc)."""

    active_seconds: float = 0.0
    ier_seconds: float = 0.0
    ier_clicks: int = 0
    first_seen: datetime | None = None
    last_changed: datetime | None = None

    @property
    def measured(self) -> bool:
        """Whether any effort was recorded: what makes the times worth writing."""
        return bool(self.active_seconds or self.ier_seconds or self.ier_clicks)


def timing_attrs(timing: Timing) -> list[tuple[str, str]]:
    """The attributes of ``timing`` as the writer writes them: the seconds and clicks
    when not 0, the times when known."""
    out: list[tuple[str, str]] = []
    seconds_attrs = ((ACTIVE_SECONDS, timing.active_seconds), (IER_SECONDS, timing.ier_seconds))
    for name, seconds in seconds_attrs:
        text = seconds_text(name, seconds)
        if text:
            out.append((name, text))
    if timing.ier_clicks:
        out.append((IER_CLICKS, str(timing.ier_clicks)))
    for name, at in ((FIRST_SEEN, timing.first_seen), (LAST_CHANGED, timing.last_changed)):
        if at is not None:
            out.append((name, time_text(at)))
    return out


def seconds_text(name: str, seconds: float) -> str:
    """``seconds`` as attribute ``name`` is written: as Python writes the float (the
    shortest text that reads back to the same number), "" for 0; a negative or infinite
    number is a ``ValueError``."""
    if not (math.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"{name}={seconds!r} is not a number of seconds")
    return repr(float(seconds)) if seconds else ""


def seconds_of(name: str, text: str) -> float:
    """The seconds attribute ``name`` says (``text``), or a ``ValueError`` saying why not."""
    stripped = text.strip()
    seconds = float(stripped) if _SECONDS_RE.fullmatch(stripped) else math.inf
    if not math.isfinite(seconds):
        raise ValueError(ERR_SECONDS.format(name=name, value=text))
    return seconds


def time_text(at: datetime) -> str:
    """``at`` in UTC, ISO 8601 with microseconds and ``Z``: one text for one instant."""
    if at.tzinfo is None:
        raise ValueError(f"{at!r} has no time zone")
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def timing_of(values: Mapping[str, str]) -> Timing | None:
    """The :class:`Timing` the attributes ``values`` (name → text, only
    :data:`TIMING_ATTRS`) give, None if there are none. A bad value is a ``ValueError``
    saying which and why."""
    if not values:
        return None
    active = _seconds(values, ACTIVE_SECONDS)
    ier = _seconds(values, IER_SECONDS)
    if ier > active:
        raise ValueError(
            ERR_IER_OVER_ACTIVE.format(
                ier=values[IER_SECONDS], active=values.get(ACTIVE_SECONDS, "0")
            )
        )
    clicks = values.get(IER_CLICKS, "0").strip()
    if not _CLICKS_RE.fullmatch(clicks) or int(clicks) > MAX_CLICKS:
        raise ValueError(ERR_CLICKS.format(value=values[IER_CLICKS]))
    first, last = _time(values, FIRST_SEEN), _time(values, LAST_CHANGED)
    if first is not None and last is not None and last < first:
        raise ValueError(ERR_TIME_ORDER.format(last=values[LAST_CHANGED], first=values[FIRST_SEEN]))
    return Timing(active, ier, int(clicks), first, last)


def _seconds(values: Mapping[str, str], name: str) -> float:
    return seconds_of(name, values.get(name, "0"))


def _time(values: Mapping[str, str], name: str) -> datetime | None:
    if name not in values:
        return None
    try:
        at = datetime.fromisoformat(values[name].strip())
        if at.tzinfo is None:
            raise ValueError("no time zone")
        return at.astimezone(UTC)
    except (ValueError, OverflowError):
        raise ValueError(ERR_TIME.format(name=name, value=values[name])) from None
