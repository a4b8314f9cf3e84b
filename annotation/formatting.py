"""How figures print, everywhere: fixed decimals, and one mark for "no value".

``None`` and NaN (a figure with nothing judged yet, a correlation on fewer than two
points, a judge without measured time) and infinities read "–" in every page, table and
command, never "None", "nan" or an empty cell. A text cell of any downloaded CSV is
written so that a spreadsheet shows it as text (:func:`spreadsheet_safe`).
"""

from __future__ import annotations

import math
from typing import Any

MISSING = "–"


def number(value: Any, decimals: int = 2) -> str:
    """``value`` with ``decimals`` decimals (default two), or "–"."""
    if value is None or isinstance(value, str):
        return MISSING
    v = float(value)
    return MISSING if not math.isfinite(v) else f"{v:.{int(decimals)}f}"


def signed(value: Any, decimals: int = 2) -> str:
    """``value`` with its sign always written ("+0.80", "-1.25"), or "–": an offset,
    whose sign is the point."""
    text = number(value, decimals)
    return text if text == MISSING or text.startswith("-") else f"+{text}"


def full_precision(value: Any) -> str:
    """``value`` at full precision for a ``data-*`` attribute (what a page's script or a
    test reads), or "" where there is none (None, NaN, an infinity)."""
    if value is None or isinstance(value, str):
        return ""
    v = float(value)
    return repr(v) if math.isfinite(v) else ""


def percent(share: Any) -> str:
    """A share (0–1) as a percentage with one decimal, or "–"."""
    text = number(None if share is None else 100 * float(share), 1)
    return text if text == MISSING else f"{text} %"


def duration(seconds: Any) -> str:
    """A span of work time, to the minute: "2 h 05 min", "12 min", "< 1 min", or "–"."""
    if seconds is None or isinstance(seconds, str) or not math.isfinite(float(seconds)):
        return MISSING
    minutes = round(float(seconds) / 60)
    if minutes == 0:
        return "0 min" if float(seconds) == 0 else "< 1 min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def counted(n: int, noun: str) -> str:
    """``n`` things in words: "1 sentence", "40 sentences" (a plural in "s")."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


#: What a spreadsheet reads as the start of a formula (OWASP's list for CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A text cell a spreadsheet shows as text: one starting like a formula (a system named
    ``=HYPERLINK(…)``) gets a leading apostrophe, OWASP's rule. Only text cells go
    through here, so numbers (``-1.5``) stay numbers."""
    return "'" + text if text.startswith(_FORMULA_START) else text
