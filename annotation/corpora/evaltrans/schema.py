"""The evalTrans format itself: its names, its elements, its rules, why a file is refused.

Reader and writer share everything here, so the rules the reader enforces are the rules
the writer checks (a written file always reads back). Plain Python: no lxml, no Django —
the models take the SSER scale from here, and the import and export convert the
dataclasses to rows and back.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import PurePath

from annotation.corpora.evaltrans.error_spans import SpanElement
from annotation.corpora.evaltrans.imported_spans import ImportedElement
from annotation.corpora.evaltrans.timing import Timing
from annotation.ier import IER_LABELS

# Seed 001 §2.2's SSER scale is the metric's; the reader and the writer check scores
# against it.
from metrics.human import SSER_MAX as SSER_MAX
from metrics.human import SSER_MIN as SSER_MIN
from metrics.mqm import Taxonomy

#: The translator whose target is the single reference of WER and SER (seed 001 §3.1).
FIRST_REFERENCE = "first reference"
#: Any other translator whose name ends so is a further reference.
REFERENCE_SUFFIX = "reference"

#: A judge's flag on a judgment, the ``judgeFlag`` attribute of its ``<eval>`` (beside
#: ``judgeNote``, the judge's note, one line; named so as not to take a plain ``flag`` or
#: ``note`` a corpus may already carry for its own purposes): the source is garbled, the
#: judge is unsure, or something else the note says. The judgment model's choices.
FLAGS = ("garbled", "unsure", "other")
#: The longest note kept (characters, after whitespace normalisation).
NOTE_MAX_LENGTH = 1000
#: IER's information items of a judgment (:mod:`annotation.ier`, whose labels they are),
#: the ``ierItems`` attribute of its ``<eval>``: one ``start-end:label`` per item,
#: space-separated, word positions of the target's 13a words (``end`` exclusive), e.g.
#: ``0-4:ok 4-7:syntax``.

#: The error spans of a judgment, ``<errors><error …/></errors>`` in its ``<eval>``
#: (:mod:`.errors`): the operations of aWER and the severities of MQM.
ERROR_OPS = ("substitution", "extra", "missing")
ERROR_SEVERITIES = ("minor", "major")

#: Bytes read, and text written, per piece: large enough for lxml to be fast, small
#: enough that memory does not grow with the file.
CHUNK_SIZE = 1 << 16

# --- refusal reasons (module constants the tests reuse) ------------------------------------

ERR_EMPTY_FILE = "empty file"
ERR_NOT_UTF8 = "bytes are not UTF-8 ({byte} at column {column}); save the file as UTF-8"
ERR_NOT_UTF8_WIDE = "the file is UTF-16 or UTF-32, not UTF-8; save the file as UTF-8"
ERR_ENCODING = 'encoding="{encoding}" is declared; evalTrans files must be UTF-8'
ERR_DOCTYPE = "DOCTYPE/entities are not allowed"
ERR_PROLOG_TOO_LONG = "more than {limit} bytes before the root element"
ERR_MALFORMED = "malformed XML: {message}"
ERR_CUT_SHORT = "the file ends inside <{tag}> (opened on line {line}): it is cut short"
ERR_CUT_SHORT_CHARACTER = "the file ends inside a UTF-8 character: it is cut short"
ERR_WRONG_ROOT = "root element is <{tag}>, expected <evalTrans>"
ERR_STRAY_TEXT = "text {text!r} directly inside <{parent}>"
ERR_MARKUP_IN_TEXT = "<{tag}> must hold text only, found <{child}>"
ERR_SENTENCE_WITHOUT_SOURCE = "<sentence> without <source>"
ERR_DUPLICATE_CHILD = "<{parent}> has more than one <{tag}>"
ERR_NO_FIRST_REFERENCE = f'<sentence> without an <eval translator="{FIRST_REFERENCE}">'
ERR_SECOND_FIRST_REFERENCE = f'second <eval translator="{FIRST_REFERENCE}"> in the sentence'
ERR_EVAL_WITHOUT_TRANSLATOR = "<eval> without translator"
ERR_EVAL_WITHOUT_TARGET = "<eval> without <target>"
ERR_SSER_NOT_INTEGER = 'sser="{value}" is not an integer'
ERR_SSER_RANGE = f'sser="{{value}}" is not between {SSER_MIN} and {SSER_MAX}'
ERR_FLAG = 'judgeFlag="{value}" is not one of ' + ", ".join(FLAGS)
ERR_IER_FORMAT = (
    'ierItems="{value}" is not "start-end:label …" runs from 0, in order, labels '
    + ", ".join(IER_LABELS)
)
ERR_AWER_FORMAT = 'awer="{value}" is not "e/n" (two non-negative integers)'
ERR_TARGET_DIFFERS = (
    '<eval translator="{translator}"> has a different <target> than its <eval> on line {first}'
)
ERR_DUPLICATE_JUDGMENT = (
    '<eval translator="{translator}"> judged twice by {evaluator} (first on line {first})'
)


class EvalTransError(ValueError):
    """A refused file: where (file, line) and why, in one line."""

    def __init__(self, filename: str, line: int | None, reason: str) -> None:
        super().__init__(filename, line, reason)
        self.filename = filename
        self.line = line
        self.reason = reason

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.filename}: {self.reason}"
        return f"{self.filename} line {self.line}: {self.reason}"


class Role(StrEnum):
    """What a translator is to the method: the one WER/SER reference, another, or a system."""

    FIRST_REFERENCE = "first_reference"
    REFERENCE = "reference"
    SYSTEM = "system"


def translator_role(name: str, reference_names: Collection[str] = ()) -> Role:
    """The role a translator plays (seed 001 §3.1: references are the translators named so).

    ``first reference`` is the one reference WER and SER use; a name ending in
    ``reference``, or one the caller lists, is a further reference; anything else is an MT
    system whose outputs get judged.
    """
    if name == FIRST_REFERENCE:
        return Role.FIRST_REFERENCE
    if name.endswith(REFERENCE_SUFFIX) or name in reference_names:
        return Role.REFERENCE
    return Role.SYSTEM


#: Unknown attributes, in file order: (name, value) pairs, Clark ``{uri}local`` names.
Attrs = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ErrorElement:
    """One ``<error>`` of a judgment: candidate words ``[start, end)`` (13a words; a
    missing word is the empty span before word ``start``), the aWER operation, the
    severity, and ``ref``, the new reference's word (a substitution or a missing word)."""

    start: int
    end: int
    op: str
    severity: str
    ref: str | None = None


@dataclass(frozen=True)
class EvalElement:
    """One ``<eval>``: a translator's target and, for a system, at most one judgment.

    ``line`` says where it came from and takes no part in equality, so a parsed element
    equals the one parsed again from the written file.
    """

    translator: str
    target: str
    line: int = field(compare=False)
    evaluator: str | None = None
    sser: int | None = None
    awer: tuple[int, int] | None = None
    new_ref: str | None = None
    extra_attrs: Attrs = ()
    extra_xml: tuple[str, ...] = ()
    note: str | None = None
    flag: str | None = None
    errors: tuple[ErrorElement, ...] = ()
    ier: tuple[tuple[int, int, str], ...] | None = None
    timing: Timing | None = None  # the judge's effort (:mod:`.timing`)
    esa_score: int | None = None  # ESA's 0–100 score (``esaScore``, :mod:`.protocol`)
    spans: tuple[SpanElement, ...] = ()  # ESA's and MQM's (:mod:`.error_spans`)
    #: A span file's spans for the candidate's next judges (:mod:`.imported_spans`).
    imported: ImportedElement | None = None

    @cached_property  # asked several times of each of a file's many <eval>
    def judged(self) -> bool:
        return not (
            not self.errors
            and not self.spans
            and self.esa_score is None
            and self.evaluator is None
            and self.sser is None
            and self.awer is None
            and self.new_ref is None
            and self.note is None
            and self.flag is None
            and self.ier is None
            and self.timing is None
        )


@dataclass(frozen=True)
class SentenceElement:
    """One ``<sentence>``; ``evals`` in file order, ``position`` 0-based in the file.

    ``after_xml`` holds unknown elements that follow this sentence directly inside
    ``<evalTrans>`` (written back right after it).
    """

    source: str
    evals: tuple[EvalElement, ...]
    line: int = field(compare=False)
    position: int
    id: str | None = None
    doc: str | None = None
    extra_attrs: Attrs = ()
    extra_xml: tuple[str, ...] = ()
    after_xml: tuple[str, ...] = ()


@dataclass(frozen=True)
class CorpusHeader:
    """The ``<evalTrans>`` element's attributes, and unknown elements before the first
    sentence; ``protocol`` and ``taxonomy``: its ``judgingProtocol`` and ``<mqmTaxonomy>``
    (:mod:`.protocol`; None: not given, aWER and WMT's taxonomy)."""

    name: str | None
    extra_attrs: Attrs = ()
    extra_xml: tuple[str, ...] = ()
    protocol: str | None = None
    taxonomy: Taxonomy | None = None

    def corpus_name(self, filename: str) -> str:
        """The corpus's name when the importer gives none: the header's, else the file's."""
        return self.name or PurePath(filename).stem


def ier_text(items: tuple[tuple[int, int, str], ...]) -> str:
    """The ``ierItems`` attribute of ``items``: see :data:`IER_LABELS`."""
    return " ".join(f"{start}-{end}:{label}" for start, end, label in items)


def awer_text(edits: int, length: int) -> str:
    """The ``awer`` attribute's text, ``"e/n"``: edits over the new reference's length."""
    return f"{edits}/{length}"


def normalize_space(text: str) -> str:
    """Whitespace-normalised text: the layout of the XML file is not part of the sentence."""
    return " ".join(text.split())


def sentence_problem(
    evals: Iterable[EvalElement], reference_names: Collection[str]
) -> tuple[int | None, str] | None:
    """The first break of the sentence-level rules, as (line, reason); None if none.

    Reader and writer both ask, so a file the writer writes is a file the reader reads.

    Exactly one first reference; several ``<eval>`` of one system are judgments of one
    target (same text), at most one per evaluator (a judgment without evaluator counts as
    one more evaluator).
    """
    first_reference: EvalElement | None = None
    systems: dict[str, EvalElement] = {}
    judges: dict[tuple[str, str | None], EvalElement] = {}
    for ev in evals:
        role = translator_role(ev.translator, reference_names)
        if role is Role.FIRST_REFERENCE:
            if first_reference is not None:
                return ev.line, ERR_SECOND_FIRST_REFERENCE
            first_reference = ev
        elif role is Role.SYSTEM:
            seen = systems.setdefault(ev.translator, ev)
            if seen is not ev and seen.target != ev.target:
                return ev.line, ERR_TARGET_DIFFERS.format(translator=ev.translator, first=seen.line)
            if ev.judged:
                key = (ev.translator, ev.evaluator)
                judged_by = judges.setdefault(key, ev)
                if judged_by is not ev:
                    who = repr(ev.evaluator) if ev.evaluator is not None else "no evaluator"
                    return ev.line, ERR_DUPLICATE_JUDGMENT.format(
                        translator=ev.translator, evaluator=who, first=judged_by.line
                    )
    if first_reference is None:
        return None, ERR_NO_FIRST_REFERENCE
    return None


def attrs_to_json(attrs: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Attribute pairs as the models store them: JSON lists (JSON has no tuples), order kept."""
    return [[k, v] for k, v in attrs]


def attrs_from_json(pairs: Iterable[Sequence[str]]) -> Attrs:
    """The stored JSON lists back as :data:`Attrs`, order kept."""
    return tuple((k, v) for k, v in pairs)


#: One item of ``ierItems`` (:data:`IER_LABELS`).
_IER_ITEM = re.compile(
    r"(?P<start>[0-9]{1,9})-(?P<end>[0-9]{1,9}):(?P<label>" + "|".join(IER_LABELS) + ")"
)


def ier_items_of(value: str) -> tuple[tuple[int, int, str], ...] | None:
    """``ierItems``: runs ``start-end:label`` from word 0, in order, each non-empty
    (whether they end at the target's last word is checked by the import, which tokenizes
    the target); empty: no items. A malformed value is a ``ValueError`` saying why."""
    items, at = [], 0
    for token in value.split():
        match = _IER_ITEM.fullmatch(token)
        if match is None or int(match["start"]) != at or int(match["end"]) <= at:
            raise ValueError(ERR_IER_FORMAT.format(value=value))
        at = int(match["end"])
        items.append((int(match["start"]), at, match["label"]))
    return tuple(items) or None
