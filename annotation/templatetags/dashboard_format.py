"""Number formatting for the dashboard's templates: one rule for "no value".

``None`` and NaN (a correlation on fewer than two points, a judge without measured
time) read "–" everywhere instead of "None", "nan" or an empty cell.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django import template

register = template.Library()

MISSING = "–"


@register.filter
def num(value: Any, decimals: int = 2) -> str:
    """``value`` with ``decimals`` decimals (default two), or "–"."""
    if value is None or isinstance(value, str):
        return MISSING
    v = float(value)
    return MISSING if math.isnan(v) or math.isinf(v) else f"{v:.{int(decimals)}f}"


@register.filter
def percent(value: Any) -> str:
    """A share (0–1) as a percentage with one decimal, or "–"."""
    if value is None or math.isnan(float(value)):
        return MISSING
    return f"{100 * float(value):.1f} %"


@register.filter
def get(mapping: Mapping[str, Any], key: str) -> Any:
    """``mapping[key]`` (None when absent): templates cannot index by a variable."""
    return mapping.get(key)
