"""The MQM TSV of the public WMT MQM releases (Freitag et al. 2021,
github.com/google/wmt-mqm-human-evaluation), read: one error a row.

A header names the columns (:data:`COLUMNS`: ``system``, ``doc``,
``doc_id``, ``seg_id``, ``rater``, ``source``, ``target``, ``category``, ``severity``;
in any order, others ignored), then one row per error: the target with the error's
characters inside ``<v>…</v>`` (an empty ``<v></v>``: something missing there; no mark:
an error of the whole segment, a non-translation or a source error), its category and
its severity (``Minor``, ``Major``; ``Neutral``, no error's points; ``No-error``, the
one row of a segment rated without error). ``seg_id`` counts the texts' lines from 1,
``doc_id`` a line's place in its document from 1. WMT's ``Non-translation!`` is the
taxonomy's ``Non-translation``.

Rows of one rater on one system's segment make one judgment (:func:`judgments_of`).
What they mean for a corpus is :mod:`annotation.corpora.mqm_import`'s; here is the file
alone, and every refusal names its line and the reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from metrics.mqm import MAJOR, MINOR, WMT_SPELLINGS
from metrics.textfiles import SegmentFileError, decode_segments

#: The columns, in the order the WMT files (and ``export_mqm``) write them.
COLUMNS = ("system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity")
#: The category and severity of a segment rated without error.
NO_ERROR = "No-error"
OPEN, CLOSE = "<v>", "</v>"
NEUTRAL = "neutral"
_SEVERITIES = {"minor": MINOR, "major": MAJOR, NEUTRAL: NEUTRAL, "no-error": NO_ERROR}


@dataclass(frozen=True)
class MqmRow:
    """One row: an error (``start``/``end``: its characters in ``target``, None for an
    error of the whole segment), a neutral mark, or a segment's ``No-error``."""

    line: int
    system: str
    doc: str
    doc_id: int
    seg_id: int
    rater: str
    source: str
    #: The target without its marks.
    target: str
    category: str
    #: ``minor``, ``major``, ``neutral`` or :data:`NO_ERROR`.
    severity: str
    start: int | None = None
    end: int | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        """The judgment it belongs to: the rater's of the system's segment."""
        return (self.rater, self.system, self.seg_id)


def marked_span(target: str) -> tuple[str, int | None, int | None]:
    """``target`` without its ``<v>…</v>``, and the marked characters' start and end
    (None, None: no mark); a ``ValueError`` for marks that are not one pair."""
    opens, closes = target.count(OPEN), target.count(CLOSE)
    if opens == closes == 0:
        return target, None, None
    if opens != 1 or closes != 1 or target.index(OPEN) > target.index(CLOSE):
        raise ValueError(f"the target's marks are not one {OPEN}…{CLOSE} ({opens} and {closes})")
    start = target.index(OPEN)
    end = target.index(CLOSE) - len(OPEN)
    return target.replace(OPEN, "", 1).replace(CLOSE, "", 1), start, end


def read_mqm_tsv(data: bytes, filename: str = "mqm.tsv") -> list[MqmRow]:
    """Every row of the file's bytes, or the refusal naming the first bad line."""
    lines = decode_segments(data, filename)
    if not lines:
        raise SegmentFileError(filename, 1, "the file is empty: no header")
    header = lines[0].split("\t")
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise SegmentFileError(
            filename, 1, f"the header has no column {missing[0]!r} ({', '.join(COLUMNS)})"
        )
    where = {c: header.index(c) for c in COLUMNS}
    rows = []
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        fields = text.split("\t")
        if len(fields) != len(header):
            raise SegmentFileError(
                filename, number, f"{len(fields)} columns, the header names {len(header)}"
            )
        try:
            rows.append(_row(number, {c: fields[k] for c, k in where.items()}))
        except ValueError as exc:
            raise SegmentFileError(filename, number, str(exc)) from None
    if not rows:
        raise SegmentFileError(filename, 2, "no row under the header")
    return rows


def _row(line: int, f: dict[str, str]) -> MqmRow:
    for column in ("system", "rater"):
        if not f[column].strip():
            raise ValueError(f"the {column} is empty")
    severity = _SEVERITIES.get(f["severity"].strip().lower())
    if severity is None:
        raise ValueError(f"severity {f['severity']!r} is none of Minor, Major, Neutral, {NO_ERROR}")
    target, start, end = marked_span(f["target"])
    category = WMT_SPELLINGS.get(f["category"], f["category"])
    if (severity == NO_ERROR) != (category == NO_ERROR):
        raise ValueError(f"{NO_ERROR} is both the category and the severity, or neither")
    return MqmRow(
        line=line,
        system=f["system"],
        doc=f["doc"],
        doc_id=_counted(f["doc_id"], "doc_id"),
        seg_id=_counted(f["seg_id"], "seg_id"),
        rater=f["rater"],
        source=f["source"],
        target=target,
        category=category,
        severity=severity,
        start=start,
        end=end,
    )


def _counted(text: str, column: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError(f"{column} {text!r} is not a whole number from 1")
    return int(text)


def judgments_of(rows: Iterable[MqmRow]) -> dict[tuple[str, str, int], list[MqmRow]]:
    """The rows of each judgment (:attr:`MqmRow.key`), judgments in the order the file
    first names them, rows in file order."""
    out: dict[tuple[str, str, int], list[MqmRow]] = {}
    for row in rows:
        out.setdefault(row.key, []).append(row)
    return out
