"""A system imported as one document (seed 002): how its candidates were cut, in one place.

Speech translation and long-document output come without the references' sentence
boundaries. The import (:mod:`annotation.corpora.systems`) re-segments such a document
against the corpus's references (:func:`metrics.aswer.resegment_text`, the command line's
``--unsegmented``) and stores one candidate per sentence, which judges then judge like any
other; a judge who finds a boundary wrong moves a word across it
(:mod:`annotation.judging.boundaries`).

The translator keeps the record of the cut (``Translator.segmentation``)::

    {"tokenize": "13a", "lowercase": false, "segments": [[reference, edits, length], …]}

one entry per sentence position: the reference the segment is scored against (its index in
the corpus's reference order, first reference first), the segment's edits against it and
that reference's length; their sums are AS-WER's ``d_L`` and ``N̂``. The boundaries are
not kept: the candidates are the segments, so their word counts are the boundaries, and a
moved word moves them. Words are the dashboard's default preprocessing (13a, mixed case),
the command line's default too, so the system's mWER on the dashboard is its AS-WER.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from annotation.models import Translator
from metrics.align import distance
from metrics.aswer import matching_words, resegment_text
from metrics.numerals import digits
from metrics.tokenize import Preprocessor

#: evalTrans attributes of a re-segmented system's bare ``<eval>``, one per sentence: the
#: segment's edits over its reference's length (as ``awer``) and the reference's index.
#: The export writes them from the record, the import rebuilds the record from them when
#: every sentence of a system carries both, so a corpus exported and imported again keeps
#: its segmentation (and its boundaries stay movable).
ASWER_ATTR, ASWER_REF_ATTR = "aswer", "aswerRef"

#: The words a document is cut into and a moved segment is scored with.
PREPROCESSOR = Preprocessor()

#: Words shown on each side of a boundary (the drill-down, the judge's page).
CONTEXT_WORDS = 3


def resegment_document(
    document: str, refs: Sequence[Sequence[str]]
) -> tuple[list[str], dict[str, Any]]:
    """``document`` cut into one candidate per sentence (``refs[k]``: sentence ``k``'s
    references in the corpus's order) and the record the translator keeps. Candidates are
    the document's 13a tokens joined by single spaces, as ``--segmented-out`` writes them."""
    segmentation, segments = resegment_text(document, refs, PREPROCESSOR)
    entries = [
        [ref, edits, length]
        for ref, edits, length in zip(
            segmentation.reference_per_segment,
            segmentation.segment_edits,
            segmentation.segment_ref_lengths,
            strict=True,
        )
    ]
    return segments, record(entries)


def record(entries: list[list[int]]) -> dict[str, Any]:
    """The ``Translator.segmentation`` value for per-sentence ``[reference, edits, length]``."""
    return {
        "tokenize": PREPROCESSOR.tokenize,
        "lowercase": PREPROCESSOR.lowercase,
        "segments": entries,
    }


def entry_attrs(entry: Sequence[int], attrs: Sequence[Sequence[str]]) -> list[list[str]]:
    """A target's attributes (JSON pairs) with its segment's record in place of any
    attributes of the same names (a file imported earlier may carry older ones)."""
    ref, edits, length = entry
    kept = [list(a) for a in attrs if a[0] not in (ASWER_ATTR, ASWER_REF_ATTR)]
    return [*kept, [ASWER_ATTR, f"{edits}/{length}"], [ASWER_REF_ATTR, str(ref)]]


def entry_from_attrs(attrs: Sequence[Sequence[str]]) -> list[int] | None:
    """The segment's ``[reference, edits, length]`` from a target's attributes, None
    unless both attributes are there and well formed."""
    found = {a[0]: a[1] for a in attrs if a[0] in (ASWER_ATTR, ASWER_REF_ATTR)}
    edits, slash, length = found.get(ASWER_ATTR, "").partition("/")
    ref = found.get(ASWER_REF_ATTR, "")
    if not (slash and digits(edits) and digits(length) and digits(ref)):
        return None
    return [int(ref), int(edits), int(length)]


def restore_segmentations(
    systems: Mapping[str, Translator], found: Mapping[str, Mapping[int, list[int]]], sentences: int
) -> None:
    """Give back its segmentation to each system of an import whose every sentence carried
    its segment's record (:func:`entry_from_attrs`: the export of a system imported as one
    document). The attributes stay on the targets as any unknown attribute does, and the
    export writes them from the record again."""
    for name, entries in found.items():
        if len(entries) == sentences:
            ordered = [entries[k] for k in range(sentences)]
            Translator.objects.filter(pk=systems[name].pk).update(segmentation=record(ordered))


def segment_entry(candidate: str, refs: Sequence[str]) -> list[int]:
    """``[reference, edits, length]`` of one candidate against its sentence's references:
    the first reference with the fewest edits (mWER's choice), as the segmentation scores a
    segment once its boundaries are fixed."""
    keys = matching_words(PREPROCESSOR, candidate)[1]
    ref_keys = [matching_words(PREPROCESSOR, ref)[1] for ref in refs]
    if not ref_keys:
        return [0, len(keys), 0]
    dists = [distance(keys, ref) for ref in ref_keys]
    best = dists.index(min(dists))
    return [best, dists[best], len(ref_keys[best])]


@dataclass(frozen=True)
class Cost:
    """AS-WER of a segmented system: ``edits`` (``d_L``) over ``length`` (``N̂``)."""

    edits: int
    length: int

    @property
    def percent(self) -> float | None:
        return None if self.length == 0 else 100 * self.edits / self.length


def cost(segmentation: dict[str, Any]) -> Cost:
    """The segmentation's cost from its record."""
    entries = segmentation["segments"]
    return Cost(sum(e[1] for e in entries), sum(e[2] for e in entries))


@dataclass(frozen=True)
class Boundary:
    """Where one segment ends and the next begins: the last words before it and the first
    after it (up to :data:`CONTEXT_WORDS` each; empty segments are skipped over, so the
    words are those a reader of the document sees on either side)."""

    after_sentence: int  # 0-based position of the sentence the boundary ends
    before: tuple[str, ...]
    after: tuple[str, ...]


def boundary(candidates: Sequence[Sequence[str]], k: int) -> Boundary:
    """The boundary between candidate ``k`` and ``k + 1`` (each a list of words)."""
    before: list[str] = []
    for seg in reversed(candidates[: k + 1]):
        before[:0] = seg[len(seg) - (CONTEXT_WORDS - len(before)) :]
        if len(before) == CONTEXT_WORDS:
            break
    after: list[str] = []
    for seg in candidates[k + 1 :]:
        after += seg[: CONTEXT_WORDS - len(after)]
        if len(after) == CONTEXT_WORDS:
            break
    return Boundary(k, tuple(before), tuple(after))
