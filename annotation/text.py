"""The text rules of the aWER method, each in one place.

* **Words.** aWER counts edits between a candidate and its new reference over 13a tokens:
  seed 001's own example confirms it, ``awer="1/5"`` for "Chart represent the method."
  against the new reference "Chart represents the method." (five tokens only if the final
  period is one). New references are stored as that token sequence joined by single
  spaces, so stored text, displayed words and counted words are always the same thing.
* **Reference order.** A sentence's references are ordered first reference first, then
  in file order: the order of the metrics' reference lists, of the judge's pool, and the
  tie-break of the nearest reference.
* **The nearest reference** (seed 001 §3: the tool proposes "the most similar"
  reference): the smallest edit distance to the candidate, the earlier reference on ties.
* **A new reference's counts** (:func:`new_ref_counts`): aWER's edits and length, and
  HTER's (TER with shifts against the new reference, :mod:`metrics.human`), computed
  whenever a new reference is stored, so no figure ever searches shifts on a page view.
"""

from __future__ import annotations

from collections.abc import Sequence

from annotation.models import Translator
from metrics.align import distance
from metrics.human import hter_row
from metrics.tokenize import Preprocessor

AWER_PREPROCESSOR = Preprocessor(tokenize="13a")
#: The roles of a sentence's reference translations (every role but ``system``).
REFERENCE_ROLES = (Translator.Role.FIRST_REFERENCE, Translator.Role.REFERENCE)


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


#: The fields :func:`new_ref_counts` fills (a judgment's, beside its ``new_ref``).
NEW_REF_COUNTS = ("edits", "ref_length", "ter_edits", "ter_length")


def new_ref_counts(candidate: str, new_ref: str, *, cache: bool = True) -> dict[str, int]:
    """What a judgment stores with its new reference: aWER's ``edits`` and
    ``ref_length`` (:func:`awer_counts`) and HTER's ``ter_edits`` and ``ter_length``
    (the TER of the candidate with the new reference as its only reference).

    HTER compares the candidate's 13a words with the new reference's (which is stored as
    its 13a words): TER splits at whitespace, and the raw candidate's "word," against the
    new reference's "word ," would be an edit no judge made.
    """
    edits, length = awer_counts(candidate, new_ref, cache=cache)
    ter = hter_row if cache else hter_row.__wrapped__
    ter_edits, ter_length = ter(" ".join(words(candidate, cache=cache)), new_ref)
    return {
        "edits": edits,
        "ref_length": length,
        "ter_edits": int(ter_edits),
        "ter_length": int(ter_length),
    }


def reference_order(role: str, position: int) -> tuple[bool, int]:
    """Sort key of a sentence's references (a target's translator role and its position
    in the sentence): the first reference first, then file order."""
    return role != Translator.Role.FIRST_REFERENCE, position


def nearest(distances: Sequence[int], n: int = 1) -> list[int]:
    """Indices of the ``n`` references nearest a candidate, given their edit distances in
    reference order: the smallest distance first, ties to the earlier reference."""
    return sorted(range(len(distances)), key=lambda i: (distances[i], i))[:n]
