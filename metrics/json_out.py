"""JSON as every command and download of the project writes it: standard JSON, which
has no ``NaN`` nor ``Infinity``.

Python's ``json`` writes a float that is not a number as the bare words ``NaN`` and
``Infinity``, which no JSON parser but Python's reads, and with ``allow_nan=False`` it
raises instead (a download that answered 500). A figure can be undefined, though: the
mean of no score, a correlation of a constant, an interval a resample could not draw.
Such a number is written ``null``, as the pages show "–" for it, wherever it sits
(:func:`finite_json`), and :func:`json_dumps` is the one writer: ``python -m metrics
--json``, ``python -m metrics estimate --json``, ``manage.py scores --json`` and the
other commands' ``--json``, and the dashboard's ``table.json``, ``meta.json`` and
``mqm.json`` all go through it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np


def finite_json(value: Any) -> Any:
    """``value`` with every number that is not finite replaced by ``None``, through
    dicts, lists and tuples (a tuple becomes a list, as JSON writes it); numpy's floats
    become Python's. Anything else is left as it is."""
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, Mapping):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(item) for item in value]
    return value


def json_dumps(value: Any, *, indent: int | None = 2, ensure_ascii: bool = False) -> str:
    """``value`` as standard JSON text (:func:`finite_json`, then ``json.dumps`` with
    ``allow_nan=False``, which would name a non-finite number left anywhere)."""
    return json.dumps(finite_json(value), indent=indent, ensure_ascii=ensure_ascii, allow_nan=False)
