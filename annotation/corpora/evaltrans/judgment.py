"""The judgment a system's ``<eval>`` carries in its attributes, read and checked:
``sser``, ``awer``, ``esaScore`` (ESA's 0–100 score, :mod:`.protocol`), ``judgeFlag``,
``judgeNote``, ``ierItems`` and the effort (:mod:`.timing`). The reader hands them over
(``translator`` and ``evaluator`` name the ``<eval>`` and stay with it); the writer knows
their names from here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from annotation.corpora.evaltrans.schema import (
    ERR_AWER_FORMAT,
    ERR_FLAG,
    ERR_SSER_NOT_INTEGER,
    ERR_SSER_RANGE,
    FLAGS,
    NOTE_MAX_LENGTH,
    SSER_MAX,
    SSER_MIN,
    Attrs,
    ier_items_of,
    normalize_space,
)
from annotation.corpora.evaltrans.timing import TIMING_ATTRS, Timing, timing_of
from annotation.limits import length_problem
from metrics.numerals import WHOLE_NUMBER
from metrics.protocols import ESA_MAX, ESA_MIN

#: ESA's score of the candidate (:mod:`.protocol`).
ESA_SCORE = "esaScore"
#: The attributes of a judgment, in the order the writer writes them.
JUDGMENT_ATTRS = ("sser", "awer", "judgeFlag", "judgeNote", "ierItems", *TIMING_ATTRS, ESA_SCORE)
ERR_ESA_SCORE = f'{ESA_SCORE}="{{value}}" is not a whole number from {ESA_MIN} to {ESA_MAX}'

_AWER_RE = re.compile(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*", re.ASCII)


@dataclass(frozen=True)
class JudgmentAttrs:
    """What an ``<eval>``'s attributes say of its judgment, and the attributes it does
    not know (kept, in file order)."""

    sser: int | None = None
    awer: tuple[int, int] | None = None
    esa_score: int | None = None
    flag: str | None = None
    note: str | None = None
    ier: tuple[tuple[int, int, str], ...] | None = None
    timing: Timing | None = None
    extra_attrs: Attrs = ()


#: The attributes of an ``<eval>`` that carries nothing but its translator and evaluator.
NO_JUDGMENT = JudgmentAttrs()


def judgment_attrs(attributes: Iterable[tuple[str, str]]) -> JudgmentAttrs:
    """The judgment of an ``<eval>``'s ``attributes`` (but ``translator`` and
    ``evaluator``); a bad value is a ``ValueError`` saying which and why."""
    read: dict[str, Any] = {}
    timing: dict[str, str] = {}
    extra: list[tuple[str, str]] = []
    for key, value in attributes:
        if key == "sser":
            read["sser"] = _sser(value)
        elif key == "awer":
            read["awer"] = _awer(value)
        elif key == ESA_SCORE:
            read["esa_score"] = _esa_score(value)
        elif key == "judgeFlag":
            read["flag"] = _flag(value)
        elif key == "judgeNote":
            read["note"] = _note(value)
        elif key == "ierItems":
            read["ier"] = ier_items_of(value)
        elif key in TIMING_ATTRS:
            timing[key] = value
        else:
            extra.append((key, value))
    if not (read or timing or extra):
        return NO_JUDGMENT  # a reference's or a bare system's <eval>: most of a file
    return JudgmentAttrs(**read, timing=timing_of(timing), extra_attrs=tuple(extra))


def _flag(value: str) -> str | None:
    flag = normalize_space(value) or None
    if flag is not None and flag not in FLAGS:
        raise ValueError(ERR_FLAG.format(value=value))
    return flag


def _note(value: str) -> str:
    note = normalize_space(value)
    problem = length_problem('<eval judgeNote="…">', note, NOTE_MAX_LENGTH)
    if problem is not None:
        raise ValueError(problem)
    return note


def _sser(value: str) -> int:
    text = value.strip()
    if not WHOLE_NUMBER.fullmatch(text):
        raise ValueError(ERR_SSER_NOT_INTEGER.format(value=value))
    sser = int(text)
    if not SSER_MIN <= sser <= SSER_MAX:
        raise ValueError(ERR_SSER_RANGE.format(value=value))
    return sser


def _esa_score(value: str) -> int:
    text = value.strip()
    if not (WHOLE_NUMBER.fullmatch(text) and ESA_MIN <= int(text) <= ESA_MAX):
        raise ValueError(ERR_ESA_SCORE.format(value=value))
    return int(text)


def _awer(value: str) -> tuple[int, int]:
    match = _AWER_RE.fullmatch(value)
    if match is None:
        raise ValueError(ERR_AWER_FORMAT.format(value=value))
    return int(match.group(1)), int(match.group(2))
