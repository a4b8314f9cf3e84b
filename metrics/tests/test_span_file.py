"""The file of error spans computed elsewhere (:mod:`metrics.span_file`): the layout read,
segments by number or id, and every refusal with its line and reason."""

from __future__ import annotations

import json
from typing import Any

import pytest

from metrics.error_spans import MarkedSpan
from metrics.span_file import read_span_file
from metrics.textfiles import SegmentFileError

TEXTS = {
    ("sysA", 0): "The cat sleeps.",
    ("sysA", 1): "A dog barks loud.",
    ("sysB", 0): "Cat sleeping.",
    ("sysB", 1): "The dog barks.",
}


def lines(*rows: Any) -> bytes:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows).encode()


def read(data: bytes) -> dict[str, list[tuple[MarkedSpan, ...]]]:
    return read_span_file(
        data,
        systems=["sysA", "sysB"],
        n_segments=2,
        segment_ids={"s-1": 0, "s-2": 1},
        candidate=lambda system, k: TEXTS[system, k],
        filename="spans.jsonl",
    )


def test_a_file_gives_each_named_system_its_spans_per_segment() -> None:
    data = lines(
        {"system": "sysA", "segment": 2, "spans": [
            {"start": 12, "end": 17, "severity": "minor", "category": "style", "text": "loud."},
            {"start": 17, "end": 17, "severity": "critical"},
        ]},
        {"system": "sysA", "segment": "s-1", "spans": []},
    )  # fmt: skip
    assert read(data) == {
        "sysA": [
            (),
            (MarkedSpan(12, 17, "minor"), MarkedSpan(17, 17, "major", missing=True)),
        ]
    }


def test_blanks_at_a_spans_ends_are_trimmed() -> None:
    data = lines(
        {"system": "sysB", "segment": 1, "spans": [{"start": 3, "end": 13, "severity": "major"}]},
        {"system": "sysB", "segment": 2, "spans": [{"start": 3, "end": 8, "severity": "Minor"}]},
    )
    assert read(data)["sysB"] == [(MarkedSpan(4, 13, "major"),), (MarkedSpan(4, 7, "minor"),)]


GOOD = {"system": "sysA", "segment": 1, "spans": []}
REFUSED = [
    (lines(GOOD, "{not json"), 2, "not JSON"),
    (lines(GOOD, [1, 2]), 2, "not a JSON object"),
    (lines({"system": "sysA", "spans": []}), 1, "no segment"),
    (lines({"system": "sysX", "segment": 1, "spans": []}), 1, "unknown system 'sysX'"),
    (lines({"system": "sysA", "segment": 3, "spans": []}), 1, "segment 3 is out of range"),
    (lines({"system": "sysA", "segment": "s-9", "spans": []}), 1, "no sentence of that id"),
    (lines({"system": "sysA", "segment": 1.5, "spans": []}), 1, "neither a number"),
    (lines(GOOD, GOOD), 2, "has spans already (line 1)"),
    (lines({**GOOD, "spans": {}}), 1, "spans is not a list"),
    (lines({**GOOD, "spans": [{"start": 0, "end": 3}]}), 1, "span 1: not an object with"),
    (lines({**GOOD, "spans": [{"start": "0", "end": 3, "severity": "minor"}]}), 1, "whole"),
    (lines({**GOOD, "spans": [{"start": 0, "end": 3, "severity": "bad"}]}), 1, "severity 'bad'"),
    (lines({**GOOD, "spans": [{"start": 0, "end": 99, "severity": "minor"}]}), 1, "0…15"),
    (
        lines(
            {
                **GOOD,
                "spans": [
                    {"start": 0, "end": 7, "severity": "minor"},
                    {"start": 4, "end": 8, "severity": "major"},
                ],
            }
        ),
        1,
        "span 2: overlaps span 1",
    ),  # fmt: skip
    (b"", 1, "the file is empty"),
    (b"[" * 100_000, 1, "nested too deep"),
    (b'{"system": "sysA", "segment": 1, "spans": [{"start": ' + b"9" * 5000, 1, "too long"),
    (b"\xff\n", 1, "invalid UTF-8"),
]


@pytest.mark.parametrize("data, line, reason", REFUSED)
def test_a_bad_line_refuses_the_file_with_its_line_and_reason(
    data: bytes, line: int, reason: str
) -> None:
    with pytest.raises(SegmentFileError) as refused:
        read(data)
    assert refused.value.line == line
    assert reason in refused.value.reason
    assert str(refused.value).startswith(f"spans.jsonl line {line}: ")


def test_a_system_named_needs_every_segment() -> None:
    with pytest.raises(SegmentFileError, match="'sysA' has no line for segment 2") as refused:
        read(lines(GOOD))
    assert refused.value.line is None
