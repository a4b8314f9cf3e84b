"""What evaltool can keep: the characters XML 1.0 can carry, the widths of the columns,
and the work an upload may ask for.

Everything a user stores must survive an export, so every write path (the evalTrans
reader, the plain-text import, the judge's page, the forms) refuses what could not be
written back, with a reason, instead of storing it and failing later. The rules live
here, apart from Django, so the Django-free evalTrans package and the SVG charts use the
same ones as the models.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from metrics.tokenize import Preprocessor

#: Characters outside XML 1.0's ``Char`` production: NUL and the other C0 controls but
#: tab, newline and carriage return; lone surrogates; U+FFFE and U+FFFF.
NOT_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

#: The width of the name columns: corpus, translator, sentence id and document id.
NAME_MAX_LENGTH = 200
#: The width of an evaluator's name: Django's username column.
EVALUATOR_MAX_LENGTH = 150

#: A new reference may be this many times as long as the sentence's longest text (its
#: references and candidates), and at least ``NEW_REF_MIN_LIMIT`` characters: room for
#: any correction, but not for a pasted megabyte that every later click would re-align.
NEW_REF_FACTOR = 5
NEW_REF_MIN_LIMIT = 1_000

#: The work an upload may ask for, unless a lead raises it (``EVALTOOL_MAX_SYSTEMS``,
#: ``EVALTOOL_MAX_WORDS_PER_TEXT``): far above real corpora (WMT's largest have a few
#: dozen systems; a long sentence has about 100 words), far below what stalls a server
#: (every system is scored against every reference, every text aligned word by word:
#: 100,000 systems, or a sentence of 100,000 words, ran until gunicorn killed the worker).
MAX_SYSTEMS = 100
MAX_WORDS_PER_TEXT = 1_000

ERR_NOT_XML_CHAR = "character {char} cannot be written in XML (near {near!r})"
ERR_TOO_LONG = "{what} is {length:,} characters long; at most {limit:,} fit"


def non_xml_char_problem(text: str) -> str | None:
    """Why ``text`` cannot be written as XML (its first bad character and where), or None."""
    bad = NOT_XML_CHAR.search(text)
    if bad is None:
        return None
    start = max(0, bad.start() - 30)
    return ERR_NOT_XML_CHAR.format(char=f"U+{ord(bad.group()):04X}", near=text[start : bad.start()])


def new_ref_limit(longest_text: int) -> int:
    """The longest new reference a sentence whose longest text has ``longest_text``
    characters may get."""
    return max(NEW_REF_MIN_LIMIT, NEW_REF_FACTOR * longest_text)


def length_problem(what: str, text: str, limit: int) -> str | None:
    """Why ``text`` does not fit in ``limit`` characters, or None."""
    if len(text) <= limit:
        return None
    return ERR_TOO_LONG.format(what=what, length=len(text), limit=limit)


ERR_TOO_MANY_SYSTEMS = (
    "system {name!r} is system number {count:,}; a corpus may have at most {limit:,} "
    "(EVALTOOL_MAX_SYSTEMS raises the limit)"
)
ERR_TOO_MANY_WORDS = (
    "{what} has {words:,} words; a text may have at most {limit:,} "
    "(EVALTOOL_MAX_WORDS_PER_TEXT raises the limit)"
)
ERR_DOCUMENT_TOO_LONG = (
    "the document has {words:,} words; cut into the corpus's {sentences:,} sentences it may "
    "have at most {limit:,} ({per_text:,} a text: EVALTOOL_MAX_WORDS_PER_TEXT raises the limit)"
)

#: The words the judge sees and aWER counts (13a), as :func:`annotation.text.words`.
_WORDS = Preprocessor(tokenize="13a")


@dataclass(frozen=True)
class WorkLimits:
    """The most systems a corpus and words a text may have (see :data:`MAX_SYSTEMS`).

    Every upload (an evalTrans file, plain-text files, a system added to a corpus) asks
    these before it stores or scores anything, so a file asking for too much is refused
    at once with its line and reason, never left to time out half-imported."""

    systems: int = MAX_SYSTEMS
    words_per_text: int = MAX_WORDS_PER_TEXT

    def systems_problem(self, count: int, name: str) -> str | None:
        """Why a corpus cannot take ``name`` as its ``count``-th system, or None."""
        if count <= self.systems:
            return None
        return ERR_TOO_MANY_SYSTEMS.format(name=name[:40], count=count, limit=self.systems)

    def words_problem(self, what: str, text: str) -> str | None:
        """Why ``text`` is too long to be aligned, or None."""
        count = _words_over(text, self.words_per_text)
        if count is None:
            return None
        return ERR_TOO_MANY_WORDS.format(what=what, words=count, limit=self.words_per_text)

    def document_problem(self, text: str, sentences: int) -> str | None:
        """Why a document to be cut into ``sentences`` candidates (seed 002) is too long:
        more words than that many texts may have, or None."""
        limit = self.words_per_text * max(sentences, 1)
        count = _words_over(text, limit)
        if count is None:
            return None
        return ERR_DOCUMENT_TOO_LONG.format(
            words=count, sentences=sentences, limit=limit, per_text=self.words_per_text
        )


def unusable_line(lines: Sequence[str], limits: WorkLimits | None) -> tuple[int, str] | None:
    """The first plain-text line (a segment of ``import_text``, a system's candidate),
    numbered from 1, with a character XML cannot hold (stored, it would break every
    export) or too many words to be aligned, and why; None if none. ``limits`` None:
    the lines are not texts (a document's, counted whole)."""
    for k, line in enumerate(lines, start=1):
        problem = non_xml_char_problem(line)
        if problem is None and limits is not None:
            problem = limits.words_problem("the line", line)
        if problem is not None:
            return k, problem
    return None


def _words_over(text: str, limit: int) -> int | None:
    """The number of words of ``text`` if over ``limit``, else None. A word has at least
    one character, so a text no longer than the limit is not tokenized at all."""
    if len(text) <= limit:
        return None
    count = len(_WORDS.tokens_uncached(text))
    return count if count > limit else None
