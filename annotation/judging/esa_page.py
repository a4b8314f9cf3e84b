"""What the ESA / MQM page shows about one judgment (:func:`span_page_context`): the
source with its document's sentences before and after (as the aWER page shows them,
:func:`~annotation.judging.page_rows.document_context`), the candidate cut into pieces at
its words and at its spans' ends, the judge's spans, the score (ESA's 0–100 with the
guideline's anchors; MQM's points under the corpus's taxonomy, :mod:`metrics.mqm`),
and the judge's place in the order. The header is the aWER page's.

The candidate's pieces carry their characters (``data-start``, ``data-end``: code
points of the candidate, the span model's offsets) so the page's script turns a
selection, by mouse or by keys, into a span without counting anything itself; a piece
that is a word (or part of one) carries the word's number, the keys' cursor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from annotation.controls.api import RunItem
from annotation.judging.esa import span_token
from annotation.judging.page import order_place, undo_redo
from annotation.judging.page_rows import document_context
from annotation.judging.span_rows import judge_spans_as_suggested
from annotation.models import Judgment
from metrics.error_spans import MarkedSpan
from metrics.mqm import MAJOR, MINOR, SEVERITIES, segment_points

#: ESA's guideline anchors (Kocmi et al. 2024: 0 no meaning kept, 33 some, 66 most,
#: 100 perfect), shown under the score's slider.
ESA_ANCHORS: tuple[tuple[int, str], ...] = (
    (0, "no meaning kept"),
    (33, "some kept"),
    (66, "most kept"),
    (100, "perfect"),
)

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Piece:
    """A stretch of the candidate between two cuts: its text and characters, its word's
    number (None for blanks), and the severest of the spans over it ("" for none)."""

    text: str
    start: int
    end: int
    word: int | None
    severity: str


@dataclass(frozen=True)
class ShownSpan:
    """One of the judge's spans as the page lists it."""

    number: int
    span: MarkedSpan
    text: str
    token: str
    #: A pre-filled span the judge has not changed (ESA with pre-filled spans).
    suggested: bool = False

    @property
    def other_severity(self) -> str:
        return MAJOR if self.span.severity == MINOR else MINOR


@dataclass
class SpanPageContext:
    """Everything the ESA / MQM page shows about one judgment."""

    judgment: Judgment
    candidate: str
    pieces: list[Piece]
    spans: list[ShownSpan]
    #: MQM's categories (the corpus's taxonomy), None in ESA.
    categories: tuple[str, ...] | None
    #: MQM's points of the spans (lower is better), None in ESA.
    mqm_points: float | None
    order_index: int
    order_total: int
    run_item: RunItem | None
    can_undo: bool
    can_redo: bool
    source_before: str | None = None
    source_after: str | None = None
    anchors: tuple[tuple[int, str], ...] = ESA_ANCHORS
    severities: tuple[str, ...] = SEVERITIES
    flags: list[tuple[str, str]] = field(default_factory=lambda: Judgment.Flag.choices)
    #: Tells the shared templates (the header) which page they are drawn on.
    spans_page: bool = True

    @property
    def missing_at(self) -> int:
        """Where a ``[MISSING]`` marker goes: the candidate's end."""
        return len(self.candidate)

    @property
    def missing_marks(self) -> list[ShownSpan]:
        return [s for s in self.spans if s.span.missing]

    @property
    def missing_severity(self) -> str:
        return max((s.span.severity for s in self.missing_marks), key=SEVERITIES.index, default="")


def candidate_pieces(candidate: str, spans: list[MarkedSpan]) -> list[Piece]:
    """``candidate`` cut at its words' ends and its spans' ends (module doc). The pieces
    and the words both run left to right, so one pass finds each piece's word: every
    click draws the candidate again, and a search of every word for every piece was a
    twentieth of a span click's CPU on a long sentence."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(candidate)]
    cuts = {0, len(candidate)}
    for start, end in words:
        cuts.update((start, end))
    marked = [s for s in spans if not s.missing]
    for s in marked:
        cuts.update((s.start, s.end))
    edges = sorted(cuts)
    pieces = []
    k = 0  # the first word that does not end at or before the piece's start
    for start, end in zip(edges, edges[1:], strict=False):
        while k < len(words) and words[k][1] <= start:
            k += 1
        word = k if k < len(words) and words[k][0] <= start else None
        over = [s.severity for s in marked if s.start <= start < s.end]
        severity = max(over, key=SEVERITIES.index, default="")
        pieces.append(Piece(candidate[start:end], start, end, word, severity))
    return pieces


def span_page_context(judgment: Judgment, *, placed: bool = True) -> SpanPageContext:
    """Gather the ESA / MQM page of ``judgment`` (module doc): four queries, whatever
    the corpus size (the spans, the sentence's targets, the document's neighbours, the
    undo stack). Not ``placed``: without the judge's place in the order (only the
    header shows it, and a fragment drawn without the header does not), one query
    fewer; the place reads 0 of 0."""
    corpus = judgment.target.sentence.corpus
    candidate = judgment.candidate_text
    shown = judge_spans_as_suggested(judgment)
    spans = [s for s, _ in shown]
    taxonomy = corpus.span_taxonomy
    index, total, item = order_place(judgment) if placed else (0, 0, None)
    before, after = document_context(judgment.target.sentence)
    can_undo, can_redo = undo_redo(judgment)
    return SpanPageContext(
        judgment=judgment,
        candidate=candidate,
        pieces=candidate_pieces(candidate, spans),
        spans=[
            ShownSpan(
                k + 1,
                s,
                "[MISSING]" if s.missing else candidate[s.start : s.end],
                span_token(s),
                suggested,
            )
            for k, (s, suggested) in enumerate(shown)
        ],
        categories=None if taxonomy is None else taxonomy.names,
        mqm_points=(
            None
            if taxonomy is None
            else segment_points(((s.severity, s.category) for s in spans), taxonomy)
        ),
        order_index=index,
        order_total=total,
        run_item=item,
        can_undo=can_undo,
        can_redo=can_redo,
        source_before=before,
        source_after=after,
    )
