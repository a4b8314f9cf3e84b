"""Every JSON the project writes is standard JSON: a number that is not finite is null,
never the bare ``NaN`` or ``Infinity`` Python's ``json`` writes (issue 36, point 6), and
every writer goes through the one helper."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from metrics.json_out import finite_json, json_dumps

ROOT = Path(__file__).resolve().parents[2]


def strict(text: str) -> object:
    """``text`` parsed as standard JSON: ``NaN``, ``Infinity`` and ``-Infinity`` refused."""

    def refuse(word: str) -> None:
        raise ValueError(f"{word} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    "value, expected",
    [
        (math.nan, None),
        (math.inf, None),
        (-math.inf, None),
        (np.float64("nan"), None),
        (np.float32("inf"), None),
        (np.float32(0.5), 0.5),
        (1e308, 1e308),
        (-0.0, -0.0),
        (3, 3),
        ("NaN", "NaN"),
        (None, None),
        (True, True),
        ({"a": [1.0, math.nan, (math.inf, 2)]}, {"a": [1.0, None, [None, 2]]}),
    ],
)
def test_a_number_that_is_not_finite_becomes_null_wherever_it_sits(
    value: object, expected: object
) -> None:
    assert finite_json(value) == expected


def test_the_text_is_standard_json_with_null_for_each_number_that_is_not_one() -> None:
    value = {"score": math.nan, "ci": [-math.inf, np.float64(math.inf)], "n": 3, "w": "é"}

    text = json_dumps(value)

    assert strict(text) == {"score": None, "ci": [None, None], "n": 3, "w": "é"}
    assert "NaN" not in text
    assert "Infinity" not in text
    assert json_dumps([1.5], indent=None) == "[1.5]"


#: The JSON written as a format of its own, read back by the project only: the COMET
#: scorer's messages and its input lines (a child process's protocol), a statistics
#: archive's header, and a JSON column's value on its way into the database.
INTERNAL = {
    "annotation/comet/scorer.py",
    "annotation/comet/scores.py",
    "annotation/rows.py",
    "metrics/archive.py",
}


def test_every_json_a_command_or_a_download_writes_goes_through_the_one_writer() -> None:
    """``json.dumps``/``json.dump`` and Django's ``JsonResponse`` appear nowhere else."""
    writers = re.compile(r"\bjson\.dumps?\(|\bJsonResponse\(")
    found = {
        str(path.relative_to(ROOT))
        for package in ("annotation", "metrics", "evaltool")
        for path in (ROOT / package).rglob("*.py")
        if "tests" not in path.parts and writers.search(path.read_text(encoding="utf-8"))
    }

    assert found == {*INTERNAL, "metrics/json_out.py"}
