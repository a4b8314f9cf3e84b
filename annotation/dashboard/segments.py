"""The drill-down of a system imported as one document (seed 002): where its boundaries
fell, with the words around each, and what the segmentation cost.

The boundaries are read from the candidates as they are now, never from the import: the
candidates are the segments, and a judge who moves a word across a boundary moves it
(:mod:`annotation.resegmenting`). The cost and each segment's chosen reference come from
the record the import kept (``Translator.segmentation``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from annotation.models import Target, Translator
from annotation.resegmenting import CONTEXT_WORDS, Boundary, Cost, boundary, cost


@dataclass(frozen=True)
class SegmentCut:
    """One shown sentence's segment: the boundary at its start (None for the first
    sentence) and at its end (None for the last), and the reference the segmentation
    scored it against with its edits and that reference's length."""

    start: Boundary | None
    end: Boundary | None
    reference_label: str
    reference: str
    edits: int
    length: int

    @property
    def boundaries(self) -> tuple[Boundary, ...]:
        """The segment's boundaries, start first (the first and last sentence have one)."""
        return tuple(b for b in (self.start, self.end) if b is not None)


@dataclass(frozen=True)
class Segmentation:
    """What the drill-down page shows of a re-segmented system: the cost (AS-WER's
    ``d_L`` over ``N̂``), the number of boundaries between its sentences and the cut of
    each shown sentence (by position)."""

    cost: Cost
    boundaries: int
    cuts: dict[int, SegmentCut]


def page_segmentation(
    translator: int,
    shown: Sequence[int],
    n_sentences: int,
    references: Mapping[int, Sequence[tuple[str, str]]],
) -> Segmentation | None:
    """The segmentation of system ``translator`` as the drill-down page of the sentence
    positions ``shown`` draws it; None when the system was not re-segmented.

    ``references``: each shown sentence's references (name, text) in the corpus's
    reference order, which the record's reference indices count in. Two queries whatever
    the size of the corpus: the record, and the candidates on either side of the shown
    ones (:func:`neighbour_words`)."""
    record = Translator.objects.filter(pk=translator).values_list("segmentation", flat=True)
    segmentation: dict[str, Any] | None = record.first()
    if segmentation is None:
        return None
    entries = segmentation["segments"]
    known = neighbour_words(translator, shown, n_sentences)
    cuts = {}
    for k in shown:
        ref, edits, length = entries[k] if k < len(entries) else (0, 0, 0)
        refs = references.get(k, ())
        label, text = refs[ref] if ref < len(refs) else ("", "")
        cuts[k] = SegmentCut(
            start=_boundary(known, k - 1) if k > 0 else None,
            end=_boundary(known, k) if k < n_sentences - 1 else None,
            reference_label=label,
            reference=text,
            edits=edits,
            length=length,
        )
    return Segmentation(cost(segmentation), max(0, n_sentences - 1), cuts)


def neighbour_words(
    translator: int, shown: Sequence[int], n_sentences: int
) -> dict[int, list[str]]:
    """The words of the candidates of ``translator`` that the boundaries of the ``shown``
    positions need: one query for the shown positions and their neighbours, and another
    only where a neighbour is too short (an empty segment, a segment of one word) to give
    :data:`CONTEXT_WORDS` words on its side, until every boundary has its words or reaches
    the document's start or end."""
    known: dict[int, list[str]] = {}
    wanted = {p for k in shown for p in (k - 1, k, k + 1) if 0 <= p < n_sentences}
    while wanted:
        known.update(_candidate_words(translator, wanted))
        missing = set()
        for k in shown:
            for after in (k - 1, k):
                if 0 <= after < n_sentences - 1:
                    missing |= _missing(known, after, n_sentences)
        wanted = {
            p
            for m in missing
            for p in range(m - CONTEXT_WORDS, m + CONTEXT_WORDS + 1)
            if 0 <= p < n_sentences and p not in known
        }
    return known


def _candidate_words(translator: int, positions: Iterable[int]) -> dict[int, list[str]]:
    rows = Target.objects.filter(translator_id=translator, sentence__position__in=positions)
    words = {
        p: text.split() for p, text in rows.order_by().values_list("sentence__position", "text")
    }
    return {p: words.get(p, []) for p in positions}


def _missing(known: Mapping[int, list[str]], after: int, n_sentences: int) -> set[int]:
    """The positions not read yet that the boundary after sentence ``after`` needs words
    from: the first unread one on each side before :data:`CONTEXT_WORDS` words."""
    need = set()
    for positions in (range(after, -1, -1), range(after + 1, n_sentences)):
        got = 0
        for p in positions:
            if got >= CONTEXT_WORDS:
                break
            if p not in known:
                need.add(p)
                break
            got += len(known[p])
    return need


def _boundary(known: Mapping[int, list[str]], after: int) -> Boundary:
    """:func:`annotation.resegmenting.boundary` over the run of read candidates around
    the boundary after sentence ``after`` (which :func:`neighbour_words` made long enough)."""
    first = after
    while first - 1 in known:
        first -= 1
    last = after + 1
    while last + 1 in known:
        last += 1
    run = [known[p] for p in range(first, last + 1)]
    found = boundary(run, after - first)
    return Boundary(after, found.before, found.after)
