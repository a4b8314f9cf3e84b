"""Error spans from aWER: every edit operation a judge leaves unaccepted is an error.

A done judgment's new reference is the judge's correct translation, so the operations of
``align(words(candidate), words(new_ref))`` (:func:`metrics.align.align`, the alignment
the judge's page draws) are exactly the errors left in the candidate: no extra click
makes them. A key on the judge's page marks one of them *major*; every other is
*minor*. That turns an aWER judgment into an ESA/MQM-style error annotation
(:func:`error_spans`), exported in evalTrans and in the layout of the public WMT MQM
data (:mod:`annotation.corpora.mqm`), and scored as MQM does (:data:`PENALTY`).

A span is over the candidate's 13a words (:func:`annotation.text.words`): a substitution
or an extra word covers its word, ``[hyp_pos, hyp_pos + 1)``; a missing word covers
none, ``[hyp_pos, hyp_pos)``, the gap before candidate word ``hyp_pos`` (at the end:
``len(candidate)``).

**Which operation a severity belongs to.** A judgment stores only its major operations,
``{key: "major"}`` (:func:`op_key`): a substitution or an extra word is named by its
kind and candidate position, which no change of the new reference moves; a missing word
by its kind, the gap and the reference word. When a change of the new reference makes
an operation go away (the judge accepts it, or the new alignment pairs the words
otherwise), its severity goes with it: the change drops it
(:func:`live_severities`), and undo brings both back (severities are part of the
judgment's undo snapshot). Two identical missing words in the same gap share one key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from metrics.align import EditOp, Op, align
from metrics.mqm import MAJOR as MAJOR  # the severities are MQM's (ESA's too)
from metrics.mqm import MAJOR_POINTS, MINOR_POINTS
from metrics.mqm import MINOR as MINOR
from metrics.mqm import SEVERITIES as SEVERITIES

#: Penalty points per error, the MQM convention (Freitag et al. 2021, after Lommel et
#: al.'s MQM): minor 1, major 5.
PENALTY = {MINOR: MINOR_POINTS, MAJOR: MAJOR_POINTS}

#: The MQM category of each aWER operation: as coarse as aWER itself, which knows only
#: that a word is wrong, superfluous or lacking, not whether it is a terminology, a
#: grammar or a style error.
CATEGORY = {
    Op.SUBSTITUTION: "Accuracy/Mistranslation",
    Op.EXTRA: "Accuracy/Addition",
    Op.MISSING: "Accuracy/Omission",
}


@dataclass(frozen=True)
class ErrorSpan:
    """One error of a candidate: its words ``[start, end)`` (13a words), the operation,
    the severity, and the words involved (``ref_word``: what the new reference has)."""

    start: int
    end: int
    op: Op
    severity: str
    hyp_word: str | None
    ref_word: str | None

    @property
    def category(self) -> str:
        return CATEGORY[self.op]

    @property
    def penalty(self) -> int:
        return PENALTY[self.severity]


def op_key(edit: EditOp) -> str:
    """The name a severity is stored under (module docstring): ``substitution:3``,
    ``extra:3``, ``missing:3:word``."""
    if edit.op is Op.MISSING:
        return f"missing:{edit.hyp_pos}:{edit.ref_word}"
    return f"{edit.op.value}:{edit.hyp_pos}"


def span_of(edit: EditOp) -> tuple[int, int]:
    """The candidate words ``[start, end)`` an operation covers (none for a missing word)."""
    return (edit.hyp_pos, edit.hyp_pos if edit.op is Op.MISSING else edit.hyp_pos + 1)


def severity_of(edit: EditOp, severities: Mapping[str, str]) -> str:
    """An operation's severity: major when the judgment says so, minor otherwise."""
    return MAJOR if severities.get(op_key(edit)) == MAJOR else MINOR


def error_spans(
    candidate: Sequence[str], new_ref: Sequence[str], severities: Mapping[str, str]
) -> list[ErrorSpan]:
    """The candidate's errors against ``new_ref`` (both as 13a words), in sentence order."""
    return [
        ErrorSpan(*span_of(e), e.op, severity_of(e, severities), e.hyp_word, e.ref_word)
        for e in align(candidate, new_ref).ops
        if e.op is not Op.MATCH
    ]


def live_severities(
    candidate: Sequence[str], new_ref: Sequence[str], severities: Mapping[str, str]
) -> dict[str, str]:
    """``severities`` without those whose operation the new reference no longer has."""
    if not severities:
        return {}
    live = {op_key(e) for e in align(candidate, new_ref).ops if e.op is not Op.MATCH}
    return {k: v for k, v in severities.items() if k in live and v == MAJOR}


def major_count(severities: Mapping[str, str] | None) -> int:
    """How many operations a judgment marks major (its stored severities are live)."""
    return sum(1 for v in (severities or {}).values() if v == MAJOR)


def mqm_penalty(edits: int, severities: Mapping[str, str] | None) -> int:
    """A judgment's MQM-style penalty from what it stores: each of its ``edits`` aWER
    operations is an error, minor (1 point) unless marked major (5 points)."""
    majors = min(major_count(severities), edits)
    return (edits - majors) * PENALTY[MINOR] + majors * PENALTY[MAJOR]
