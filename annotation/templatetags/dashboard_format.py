"""Number formatting for templates: the filters of :mod:`annotation.formatting`, and how a
single SSER score reads."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from annotation import formatting
from annotation.pace import PACE_LABEL
from metrics import human

register = template.Library()

register.filter("num", formatting.number)
#: An offset with its sign always written ("+0.80").
register.filter("signed", formatting.signed)
#: A number at full precision for a ``data-*`` attribute ("" without one).
register.filter("full", formatting.full_precision)
register.filter("percent", formatting.percent)
#: One candidate's score as a judge gave it, "SSER 7 (score)" (never "SSER error", the
#: figure of many judgments).
register.filter("sser_score", human.score_label)
register.filter("duration", formatting.duration)


@register.simple_tag
def pace_label() -> str:
    """The pace's one heading (:data:`annotation.pace.PACE_LABEL`)."""
    return PACE_LABEL


@register.filter
def get(mapping: Mapping[str, Any], key: str) -> Any:
    """``mapping[key]`` (None when absent): templates cannot index by a variable."""
    return mapping.get(key)
