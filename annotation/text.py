"""The one place where the app turns text into words for the human metrics.

aWER counts edits between a candidate and its new reference over 13a tokens: seed 001's
own example confirms it, ``awer="1/5"`` for "Chart represent the method." against the new
reference "Chart represents the method." (five tokens only if the final period is one).
New references are stored as that token sequence joined by single spaces, so stored text,
displayed words and counted words are always the same thing.
"""

from __future__ import annotations

from metrics.align import distance
from metrics.tokenize import Preprocessor

AWER_PREPROCESSOR = Preprocessor(tokenize="13a")


def words(text: str, *, cache: bool = True) -> tuple[str, ...]:
    """The words the judge sees and aWER counts.

    ``cache=False`` for imports: a file's texts do not come back, and caching them would
    make memory grow with the file.
    """
    return AWER_PREPROCESSOR.tokens(text) if cache else AWER_PREPROCESSOR.tokens_uncached(text)


def normalize_new_ref(text: str, *, cache: bool = True) -> str:
    """A new reference as stored: its tokens joined by single spaces."""
    return " ".join(words(text, cache=cache))


def awer_counts(candidate: str, new_ref: str, *, cache: bool = True) -> tuple[int, int]:
    """(edits, new-reference length) of a candidate against its new reference (seed 001 §2.3)."""
    ref = words(new_ref, cache=cache)
    return distance(words(candidate, cache=cache), ref), len(ref)
