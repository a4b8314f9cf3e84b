"""What a side-by-side screen shows (:func:`screen_context`): the source with its
document's neighbours, then one panel per candidate (A, B, …, left to right, as drawn),
each as the ESA / MQM page shows its one candidate
(:func:`~annotation.judging.esa_page.span_page_context`: pieces, spans, MQM points)
with the judge's score, or on an aWER corpus as the aWER page does
(:func:`~annotation.judging.page.judging_context`: the candidate's operations, the new
reference, the SSER scale; ``templates/sidebyside/_awer_panel.html``); then the
preference (A against B, or the best of 3 or 4), and the judge's place in the queue.

A panel's ids are its letter's (``sbs-panel-a``, ``candidate-a``, …), so one page holds
several; the pieces carry the same ``data-start``/``data-end`` code points as the
single-candidate page's, which the page's script turns a selection into.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from annotation.judging.esa_page import ESA_ANCHORS, Piece, ShownSpan, span_page_context
from annotation.judging.page import JudgingContext, judging_context
from annotation.judging.page_rows import document_context
from annotation.models import Comparison, Judgment
from annotation.sidebyside.keys import key_label
from metrics.mqm import SEVERITIES

LETTERS = "abcd"
#: The preference's buttons: value, label, key (:mod:`annotation.sidebyside.keys`).
PREFERENCES: tuple[tuple[str, str, str], ...] = (
    (Comparison.Preference.A, "A better", key_label("prefer-a")),
    (Comparison.Preference.SAME, "Same", key_label("prefer-same")),
    (Comparison.Preference.B, "B better", key_label("prefer-b")),
)


@dataclass(frozen=True)
class Panel:
    """One candidate of the screen as its panel shows it."""

    letter: str
    judgment: Judgment
    pieces: list[Piece]
    spans: list[ShownSpan]
    missing_at: int
    mqm_points: float | None
    categories: tuple[str, ...] | None
    can_undo: bool
    can_redo: bool
    #: On an aWER corpus, what the single aWER page shows of the candidate (its
    #: operations, new reference, SSER scale); None on an ESA / MQM corpus.
    awer: JudgingContext | None = None

    @property
    def label(self) -> str:
        return self.letter.upper()

    @property
    def severity_form(self) -> str:
        """The id of the form an aWER panel's severity toggles submit."""
        return f"severity-form-{self.letter}"


@dataclass(frozen=True)
class ScreenContext:
    comparison: Comparison
    panels: list[Panel]
    source: str
    source_before: str | None
    source_after: str | None
    asks_preference: bool
    done: int
    total: int
    anchors: tuple[tuple[int, str], ...] = ESA_ANCHORS
    severities: tuple[str, ...] = SEVERITIES
    preferences: tuple[tuple[str, str, str], ...] = PREFERENCES
    picks_best: bool = False
    #: The corpus is judged by aWER: every panel holds the aWER editor.
    awer: bool = False


def panel_of(judgment: Judgment, letter: str) -> Panel:
    """The panel of one candidate: what the ESA / MQM page shows of it
    (:func:`~annotation.judging.esa_page.span_page_context`), or on an aWER corpus what
    the aWER page does (:func:`~annotation.judging.page.judging_context`), under its
    letter."""
    if not judgment.target.sentence.corpus.marks_spans:
        awer = judging_context(judgment)
        return Panel(
            letter=letter,
            judgment=judgment,
            pieces=[],
            spans=[],
            missing_at=0,
            mqm_points=None,
            categories=None,
            can_undo=awer.can_undo,
            can_redo=awer.can_redo,
            awer=awer,
        )
    page = span_page_context(judgment)
    return Panel(
        letter=letter,
        judgment=judgment,
        pieces=page.pieces,
        spans=page.spans,
        missing_at=page.missing_at,
        mqm_points=page.mqm_points,
        categories=page.categories,
        can_undo=page.can_undo,
        can_redo=page.can_redo,
    )


def screen_context(comparison: Comparison, judgments: list[Judgment]) -> ScreenContext:
    """Everything the screen of ``comparison`` shows; ``judgments`` in the order shown.
    Two queries, and three a candidate (:func:`panel_of`)."""
    sentence = judgments[0].target.sentence
    before, after = document_context(sentence)
    queue = Comparison.objects.filter(
        setting_id=comparison.setting_id, judge_id=comparison.judge_id
    ).aggregate(total=Count("pk"), done=Count("pk", filter=Q(state=Comparison.State.DONE)))
    return ScreenContext(
        comparison=comparison,
        panels=[panel_of(j, letter) for j, letter in zip(judgments, LETTERS, strict=False)],
        source=sentence.source,
        source_before=before,
        source_after=after,
        asks_preference=comparison.setting.asks_preference,
        done=queue["done"],
        total=queue["total"],
        preferences=preferences_of(comparison),
        picks_best=comparison.picks_best,
        awer=not comparison.setting.corpus.marks_spans,
    )


def preferences_of(comparison: Comparison) -> tuple[tuple[str, str, str], ...]:
    """The preference's buttons on ``comparison``'s screen: A against B on a screen of
    two; on a screen of 3 or 4 (``picks_best``), the best of them or none."""
    if not comparison.picks_best:
        return PREFERENCES
    letters = LETTERS[: len(comparison.targets)]
    best = tuple((x, f"{x.upper()} best", key_label(f"prefer-{x}")) for x in letters)
    return (*best, (Comparison.Preference.SAME, "None stands out", key_label("prefer-same")))
