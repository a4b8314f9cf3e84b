"""The words mweralign re-segments Chinese and Japanese over (its ``--tokenizer cj``,
"Han-character segmentation"), for ``--unsegmented --resegment-cj``.

Chinese and Japanese put no spaces between words, so whitespace words make a whole
sentence (often a whole document) one word, and no split can fall inside it. mweralign's
``cj`` words are instead: each character above Latin-1 (U+00FF) a word of its own, and
each run of Latin-1 characters one word, with the spaces around it included (``1/20``,
`` world `` and a lone space between two Han characters are each one word). A word
holding spaces matches only a word with the same spaces, so a space the candidate adds
or drops costs an edit, as in mweralign.

The same words, exactly, in the details mweralign's own code decides: the text is
stripped first; U+2581 (the SentencePiece space, which mweralign writes spaces as) counts
as Latin-1; tab, line feed, vertical tab, form feed and carriage return end a word and
are dropped, as mwerSegmenter's reader splits there. A segment is written as its words
put back together, stripped: the candidate's own text, spaces and all, where mweralign's
output has it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: A run of Latin-1 characters (U+2581 with them), or any one other character.
_WORD = re.compile(r"[\x00-\xff\u2581]+|.", re.DOTALL)
#: The white space mwerSegmenter splits words at, other than the space (C's isspace).
_SPLIT = re.compile(r"[\t\n\v\f\r]+")


def cj_words(text: str) -> tuple[str, ...]:
    """``text``'s words as mweralign's ``cj`` tokenizer makes them (module doc)."""
    words: list[str] = []
    for word in _WORD.findall(text.strip()):
        words += [w for w in _SPLIT.split(word) if w]
    return tuple(words)


def cj_text(words: Sequence[str]) -> str:
    """A segment's words written as mweralign writes them: joined as they were in the
    text, stripped."""
    return "".join(words).strip()
