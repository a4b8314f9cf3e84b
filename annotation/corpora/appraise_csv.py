"""Appraise's ESA/DA export: a CSV without a header, one judgment a row, read and written.

Twelve columns, as Appraise's ``ExportSystemScoresToCSV`` writes them for WMT's ESA and
DA campaigns (:data:`COLUMNS`): the annotator, the system, the item id (the 0-based line
of WMT's plain-text files), the item type (:data:`ITEM_TYPES`: ``TGT`` a real item,
``BAD`` a quality-control item whose document id ends in ``#bad``, ``REF`` a reference
shown as a candidate), the source and target languages (ISO 639-3, ``eng``, ``jpn``),
the score (a whole number 0–100), the document id, whether the row scores the whole
document (``True``/``False``), the error spans as JSON (``[{"start_i": 54, "end_i": 57,
"severity": "minor", "error_type": null}]``: characters ``[start_i, end_i)`` of the
target) and the start and end times (Unix seconds).

WMT's conventions (:func:`standing_rows`): rows of a system named ``…tutorial…``, and of
documents marked ``#incomplete`` or ``#dup``, filled an annotator's account but are no
judgments; where an annotator rated the same item twice, the later row (end time)
stands. What a file's rows mean for a corpus (its systems, lines and documents) is
:mod:`annotation.corpora.appraise`'s; here is the file alone, and every refusal names
its line and the reason (:class:`~metrics.textfiles.SegmentFileError`).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from metrics.json_out import json_dumps
from metrics.mqm import SEVERITIES
from metrics.protocols import ESA_MAX, ESA_MIN
from metrics.textfiles import SegmentFileError, decode_segments

COLUMNS = (
    "user",
    "system",
    "item id",
    "item type",
    "source language",
    "target language",
    "score",
    "document id",
    "is document",
    "error spans",
    "start time",
    "end time",
)
TGT, BAD, REF = "TGT", "BAD", "REF"
ITEM_TYPES = (TGT, BAD, REF)
#: A quality-control item's document id ends so.
BAD_SUFFIX = "#bad"
#: WMT's marks of rows that filled an account but are no judgments.
TUTORIAL = "tutorial"
NOT_JUDGMENTS = ("#incomplete", "#dup")
_BOOLEANS = {"True": True, "False": False}

#: ISO 639-1 → ISO 639-3 codes of the languages of WMT's campaigns: ``--pair en-ja``
#: (WMT's file names) checks rows that say ``eng`` and ``jpn``. A pair given in
#: three-letter codes needs no table.
ISO_639_3: dict[str, str] = {
    "ar": "arb",
    "bn": "ben",
    "cs": "ces",
    "de": "deu",
    "en": "eng",
    "es": "spa",
    "et": "est",
    "fi": "fin",
    "fr": "fra",
    "gu": "guj",
    "ha": "hau",
    "he": "heb",
    "hi": "hin",
    "hr": "hrv",
    "is": "isl",
    "it": "ita",
    "ja": "jpn",
    "kk": "kaz",
    "km": "khm",
    "ko": "kor",
    "lt": "lit",
    "lv": "lav",
    "mr": "mar",
    "ne": "npi",
    "pl": "pol",
    "ps": "pus",
    "pt": "por",
    "ro": "ron",
    "ru": "rus",
    "sr": "srp",
    "sw": "swh",
    "ta": "tam",
    "tr": "tur",
    "uk": "ukr",
    "xh": "xho",
    "zh": "zho",
    "zu": "zul",
}


@dataclass(frozen=True)
class AppraiseSpan:
    """One error span of a row: characters ``[start, end)`` of the target, its severity
    and its ``error_type`` (None in ESA, a category in MQM)."""

    start: int
    end: int
    severity: str
    error_type: str | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "start_i": self.start,
            "end_i": self.end,
            "severity": self.severity,
            "error_type": self.error_type,
        }


@dataclass(frozen=True)
class AppraiseRow:
    """One row of the file (module doc); ``line``: where it is, in no comparison."""

    user: str
    system: str
    item_id: int
    item_type: str
    source_language: str
    target_language: str
    score: int
    document_id: str
    is_document: bool
    spans: tuple[AppraiseSpan, ...]
    start_time: float
    end_time: float
    line: int = 0

    @property
    def key(self) -> tuple[str, str, int, str, bool]:
        """What one rating is of: the annotator, system, item, its type, and whether it
        is the document's."""
        return (self.user, self.system, self.item_id, self.item_type, self.is_document)

    @property
    def document(self) -> str:
        """The document id without a quality-control item's ``#bad``."""
        return self.document_id.removesuffix(BAD_SUFFIX)

    @property
    def is_judgment(self) -> bool:
        """False for a tutorial system's row and a ``#incomplete``/``#dup`` document's."""
        return TUTORIAL not in self.system.lower() and not any(
            mark in self.document_id for mark in NOT_JUDGMENTS
        )


def iso_639_3(code: str) -> str:
    """The ISO 639-3 code of ``code`` (two letters: :data:`ISO_639_3`'s; three: itself),
    or a ``ValueError`` naming it."""
    code = code.strip().lower()
    if len(code) == 3 and code.isalpha():
        return code
    if code in ISO_639_3:
        return ISO_639_3[code]
    raise ValueError(
        f"language {code!r} has no ISO 639-3 code known here: give the pair in ISO 639-3 "
        "(e.g. eng-jpn)"
    )


def read_appraise_rows(data: bytes, filename: str = "appraise.csv") -> list[AppraiseRow]:
    """Every row of an Appraise CSV's bytes, or the refusal naming the first bad line."""
    text = "\n".join(decode_segments(data, filename))
    rows: list[AppraiseRow] = []
    reader = csv.reader(io.StringIO(text))
    while True:
        line = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise SegmentFileError(filename, line, f"not CSV ({exc})") from None
        if not fields:
            continue
        try:
            rows.append(_row(fields, line))
        except ValueError as exc:
            raise SegmentFileError(filename, line, str(exc)) from None
    if not rows:
        raise SegmentFileError(filename, 1, "the file is empty: no row to import")
    return rows


def _row(fields: Sequence[str], line: int) -> AppraiseRow:
    if len(fields) != len(COLUMNS):
        raise ValueError(
            f"expected {len(COLUMNS)} fields ({', '.join(COLUMNS)}), found {len(fields)}"
        )
    user, system, item, kind, src, tgt, score, doc, is_doc, spans, start, end = fields
    if not user.strip():
        raise ValueError("the user is empty")
    if not system.strip():
        raise ValueError("the system is empty")
    if kind not in ITEM_TYPES:
        raise ValueError(f"item type {kind!r} is none of {', '.join(ITEM_TYPES)}")
    if is_doc not in _BOOLEANS:
        raise ValueError(f"is-document {is_doc!r} is neither True nor False")
    if kind == BAD and not doc.endswith(BAD_SUFFIX):
        raise ValueError(f"a BAD item's document id ends in {BAD_SUFFIX!r}, not {doc!r}")
    started, ended = _time(start, "start"), _time(end, "end")
    if ended < started:
        raise ValueError(f"end time {end} is before start time {start}")
    return AppraiseRow(
        user=user,
        system=system,
        item_id=_whole(item, "item id", 0, None),
        item_type=kind,
        source_language=src,
        target_language=tgt,
        score=_whole(score, "score", ESA_MIN, ESA_MAX),
        document_id=doc,
        is_document=_BOOLEANS[is_doc],
        spans=read_spans(spans),
        start_time=started,
        end_time=ended,
        line=line,
    )


def _whole(text: str, what: str, low: int, high: int | None) -> int:
    """A whole number ``low``–``high`` (no upper bound: None), or why ``text`` is none."""
    if not text.strip().isascii() or not text.strip().isdigit():
        raise ValueError(f"{what} {text!r} is not a whole number")
    value = int(text)
    if value < low or (high is not None and value > high):
        raise ValueError(f"{what} {value} is outside {low}–{high if high is not None else ''}")
    return value


def _time(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what} time {text!r} is not a number of Unix seconds") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{what} time {text!r} is not a number of Unix seconds")
    return value


def read_spans(text: str) -> tuple[AppraiseSpan, ...]:
    """The error spans of a row's JSON (empty text: none), or a ``ValueError`` saying
    what is wrong with it."""
    if not text.strip():
        return ()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"error spans are not JSON ({exc.msg} at character {exc.pos})") from None
    if not isinstance(data, list):
        raise ValueError("error spans are not a JSON list")
    spans = []
    for k, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise ValueError(f"error span {k} is not a JSON object")
        start, end = item.get("start_i"), item.get("end_i")
        if not (_natural(start) and _natural(end)):
            raise ValueError(f"error span {k}: start_i and end_i must be whole numbers ≥ 0")
        if end < start:
            raise ValueError(f"error span {k}: end_i {end} is before start_i {start}")
        severity = item.get("severity")
        if severity not in SEVERITIES:
            raise ValueError(
                f"error span {k}: severity {severity!r} is none of {', '.join(SEVERITIES)}"
            )
        category = item.get("error_type")
        if category is not None and not isinstance(category, str):
            raise ValueError(f"error span {k}: error_type {category!r} is not text or null")
        spans.append(AppraiseSpan(start, end, str(severity), category))
    return tuple(spans)


def _natural(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def standing_rows(rows: Iterable[AppraiseRow]) -> list[AppraiseRow]:
    """The rows that are judgments under WMT's conventions (module doc), in file order:
    no tutorial or ``#incomplete``/``#dup`` row, and of an item an annotator rated
    twice the later (end time; the later line on a tie)."""
    latest: dict[tuple[str, str, int, str, bool], AppraiseRow] = {}
    for row in rows:
        if not row.is_judgment:
            continue
        seen = latest.get(row.key)
        if seen is None or row.end_time >= seen.end_time:
            latest[row.key] = row
    return sorted(latest.values(), key=lambda r: r.line)


def _seconds(value: float) -> str:
    """Unix seconds as Appraise writes them: a whole number without a decimal point."""
    return str(int(value)) if value == int(value) else repr(value)


def spans_json(spans: Iterable[AppraiseSpan]) -> str:
    """The spans' JSON as Appraise writes it (Python's ``json.dumps`` with its defaults:
    ASCII only, ``", "`` and ``": "`` between items)."""
    return json_dumps([s.as_json() for s in spans], indent=None, ensure_ascii=True)


def appraise_csv(rows: Iterable[AppraiseRow]) -> str:
    """The rows as Appraise's CSV (no header), the file :func:`read_appraise_rows` reads
    back equal."""
    return "".join(appraise_csv_lines(rows))


def appraise_csv_lines(rows: Iterable[AppraiseRow]) -> Iterator[str]:
    """:func:`appraise_csv`'s lines one by one, to stream (a download)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for r in rows:
        out.seek(0)
        out.truncate()
        writer.writerow(
            [
                r.user,
                r.system,
                r.item_id,
                r.item_type,
                r.source_language,
                r.target_language,
                r.score,
                r.document_id,
                str(r.is_document),
                spans_json(r.spans),
                _seconds(r.start_time),
                _seconds(r.end_time),
            ]
        )
        yield out.getvalue()
