"""Number formatting for templates: the filters of :mod:`annotation.formatting`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from annotation import formatting

register = template.Library()

register.filter("num", formatting.number)
register.filter("percent", formatting.percent)
register.filter("duration", formatting.duration)


@register.filter
def get(mapping: Mapping[str, Any], key: str) -> Any:
    """``mapping[key]`` (None when absent): templates cannot index by a variable."""
    return mapping.get(key)
