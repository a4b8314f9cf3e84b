"""Error spans computed elsewhere (xCOMET, GEMBA-MQM, …), read from a file to be suggested
to the judges of an ESA corpus with pre-filled spans: the layout, and every refusal
with its line and reason.

**The layout**: JSON lines, one object per candidate::

    {"system": "sysA", "segment": 3, "spans": [{"start": 0, "end": 7, "severity": "major"}]}

* ``system``: a system of the corpus (its name, as the corpus file gives it);
* ``segment``: the sentence, as a whole number counted from 1 in the corpus's order
  (as the segment scores' ``tsv`` layout numbers them, :mod:`metrics.segment_scores`),
  or as a string, the sentence's ``id`` in the corpus file;
* ``spans``: a list (empty: no error found) of objects with ``start`` and ``end``,
  characters of the candidate's text (``[start, end)``, Unicode code points, as Python
  and xCOMET count them), ``severity`` (``minor`` or ``major``; ``critical``, which
  xCOMET and MQM also give, is read as ``major``: ESA has two severities), and an
  optional ``category`` (GEMBA-MQM's), read and dropped: ESA spans have none. A span
  with ``start == end`` is an omission, a ``[MISSING]`` marker, placed at the text's
  end where ESA's page shows it. Blanks at a span's ends are trimmed
  (:func:`metrics.error_spans.trimmed`). Other keys (xCOMET's ``text``,
  ``confidence``) are ignored.

Every system named must have one line for each sentence; a line that names an unknown
system or segment, repeats one, or holds spans the ESA rules refuse (outside the text,
overlapping: :func:`metrics.error_spans.span_problems`) makes the whole file refused
(:class:`~metrics.textfiles.SegmentFileError`, ``FILE line N: reason``). Systems the
file does not name are left as they are.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from metrics.error_spans import MarkedSpan, span_problems, trimmed
from metrics.mqm import MAJOR, SEVERITIES
from metrics.textfiles import SegmentFileError, decode_segments

#: Severities other tools give, and the ESA severity each is read as.
SEVERITY_ALIASES: dict[str, str] = {"critical": MAJOR}
KEYS = ("system", "segment", "spans")
SPAN_KEYS = ("start", "end", "severity")


def read_span_file(
    data: bytes,
    *,
    systems: Sequence[str],
    n_segments: int,
    segment_ids: Mapping[str, int],
    candidate: Callable[[str, int], str],
    filename: str = "spans",
) -> dict[str, list[tuple[MarkedSpan, ...]]]:
    """Per system the file names, its spans for each segment in order (module doc).
    ``segment_ids``: the sentences' ids to their 0-based numbers; ``candidate(system,
    k)``: that system's text of segment ``k`` (0-based)."""
    lines = decode_segments(data, filename)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise SegmentFileError(filename, 1, "the file is empty: no spans to import")
    known = set(systems)
    read: dict[str, list[tuple[MarkedSpan, ...] | None]] = {}
    where: dict[tuple[str, int], int] = {}
    for number, text in enumerate(lines, start=1):

        def refuse(reason: str, line: int = number) -> SegmentFileError:
            return SegmentFileError(filename, line, reason)

        try:
            row = json.loads(text)
        except json.JSONDecodeError as exc:
            raise refuse(f"not JSON ({exc.msg}, column {exc.colno})") from None
        except (ValueError, RecursionError):  # a number of 5,000 digits, [[[[…
            raise refuse(
                "not JSON this reader takes (a number too long, or nested too deep)"
            ) from None
        if not isinstance(row, dict):
            raise refuse("not a JSON object {system, segment, spans}")
        absent = [k for k in KEYS if k not in row]
        if absent:
            raise refuse(f"no {', '.join(absent)} (each line has {', '.join(KEYS)})")
        system = row["system"]
        if not isinstance(system, str) or system not in known:
            raise refuse(f"unknown system {system!r} (the corpus's: {', '.join(systems)})")
        k = _segment(row["segment"], n_segments, segment_ids, refuse)
        if (system, k) in where:
            raise refuse(f"system {system!r}, segment {k + 1} has spans already (line "
                         f"{where[system, k]})")  # fmt: skip
        where[system, k] = number
        spans = _spans(row["spans"], candidate(system, k), refuse)
        read.setdefault(system, [None] * n_segments)[k] = spans
    out = {}
    for system, per_segment in read.items():
        lacking = [k + 1 for k, s in enumerate(per_segment) if s is None]
        if lacking:
            named = ", ".join(map(str, lacking[:10])) + (" …" if len(lacking) > 10 else "")
            raise SegmentFileError(
                filename,
                None,
                f"system {system!r} has no line for segment{'s' * (len(lacking) != 1)} "
                f"{named} (a system named needs one line per sentence)",
            )
        out[system] = [s for s in per_segment if s is not None]
    return out


def _segment(
    value: Any, n: int, ids: Mapping[str, int], refuse: Callable[[str], SegmentFileError]
) -> int:
    """The 0-based segment a line names (module doc)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise refuse(f"segment {value!r} is neither a number (1 to {n}) nor a sentence id")
    if isinstance(value, str):
        if value not in ids:
            raise refuse(f"segment {value!r}: the corpus has no sentence of that id")
        return ids[value]
    if not 1 <= value <= n:
        raise refuse(f"segment {value} is out of range: the corpus has {n} sentences (1 to {n})")
    return value - 1


def _spans(
    value: Any, candidate: str, refuse: Callable[[str], SegmentFileError]
) -> tuple[MarkedSpan, ...]:
    if not isinstance(value, list):
        raise refuse("spans is not a list")
    spans = []
    for j, item in enumerate(value, start=1):
        if not isinstance(item, dict) or any(k not in item for k in SPAN_KEYS):
            raise refuse(f"span {j}: not an object with {', '.join(SPAN_KEYS)}")
        start, end, severity = item["start"], item["end"], item["severity"]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (start, end)):
            raise refuse(f"span {j}: start and end must be whole numbers")
        if not isinstance(severity, str):
            raise refuse(f"span {j}: severity {severity!r} is not a word")
        severity = SEVERITY_ALIASES.get(severity.casefold(), severity.casefold())
        if severity not in SEVERITIES:
            known = ", ".join((*SEVERITIES, *SEVERITY_ALIASES))
            raise refuse(f"span {j}: severity {item['severity']!r} (choose from {known})")
        if start == end:  # omissions of one severity make one marker
            marker = MarkedSpan(len(candidate), len(candidate), severity, missing=True)
            if marker not in spans:
                spans.append(marker)
        else:
            spans.append(trimmed(MarkedSpan(start, end, severity), candidate))
    problems = span_problems(spans, candidate)
    if problems:
        raise refuse(problems[0])
    return tuple(spans)
