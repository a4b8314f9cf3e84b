"""What evaltool can keep: the characters XML 1.0 can carry and the widths of the columns.

Everything a user stores must survive an export, so every write path (the evalTrans
reader, the plain-text import, the judge's page, the forms) refuses what could not be
written back, with a reason, instead of storing it and failing later. The rules live
here, apart from Django, so the Django-free evalTrans package and the SVG charts use the
same ones as the models.
"""

from __future__ import annotations

import re

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
