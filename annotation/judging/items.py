"""What an IER click does: split or join information items, and mark one (seed 001
Table 1; the rule is :mod:`annotation.ier`).

Shown only where the corpus's lead enabled IER (``Corpus.ier_enabled``). Each click is one
change of the judgment through the same stack as every other
(:func:`~annotation.judging.stack.change`): the items are part of the snapshot, so undo
and redo walk through them, and the first click starts from the split the page showed
(the default one). Its own module beside :mod:`annotation.judging.changes`, so the page's
other methods and this one grow apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from annotation.ier import LABELS, OK, as_json, mark, shown_items, toggle_gap
from annotation.judging.errors import (
    ERR_IER_GAP,
    ERR_IER_LABEL,
    ERR_IER_OFF,
    ERR_IER_START,
    ChangeRefused,
)
from annotation.judging.stack import Click, change, to_apply
from annotation.models import Judgment, JudgmentEvent, User
from annotation.text import words
from metrics.human import rate


def judgment_ier_split(
    *, judgment: Judgment, user: User, version: int, gap: int, at: datetime | None = None
) -> Judgment:
    """Toggle the item boundary before word ``gap`` of the candidate (1 … words − 1):
    cut the item there, or join the two items it separates."""
    _refuse_without_ier(judgment)
    candidate = words(judgment.candidate_text)
    if isinstance(gap, bool) or not 0 < gap < len(candidate):
        raise ChangeRefused(ERR_IER_GAP.format(gap=gap, length=len(candidate)))
    click = Click(judgment, user, version, JudgmentEvent.Kind.IER_SPLIT, {"gap": gap}, at)
    if not to_apply(click):
        return judgment
    items = shown_items(judgment.ier_items, candidate)
    return change(click, ier_items=as_json(toggle_gap(items, gap)))


def judgment_ier_mark(
    *,
    judgment: Judgment,
    user: User,
    version: int,
    start: int,
    label: str,
    at: datetime | None = None,
) -> Judgment:
    """Mark the item that starts at word ``start`` OK or as an error (one of
    :data:`~annotation.ier.LABELS`)."""
    _refuse_without_ier(judgment)
    if label not in LABELS:
        raise ChangeRefused(ERR_IER_LABEL.format(label=label, choices=", ".join(LABELS)))
    items = shown_items(judgment.ier_items, words(judgment.candidate_text))
    if start not in {s for s, _, _ in items}:
        raise ChangeRefused(ERR_IER_START.format(start=start))
    params = {"start": start, "label": label}
    click = Click(judgment, user, version, JudgmentEvent.Kind.IER_MARK, params, at)
    if not to_apply(click):
        return judgment
    return change(click, ier_items=as_json(mark(items, start, label)))


class FinishItems(TypedDict, total=False):
    """What :func:`items_on_finish` adds to the finishing change."""

    ier_items: list[list[object]]


def items_on_finish(judgment: Judgment) -> FinishItems:
    """What accepting a judgment stores of IER: the items as shown (the default split, all
    OK) when IER is on and the judge changed none, so the judgment counts as it was seen;
    nothing otherwise."""
    if not judgment.target.sentence.corpus.ier_enabled or judgment.ier_items:
        return {}
    return {"ier_items": as_json(shown_items((), words(judgment.candidate_text)))}


def _refuse_without_ier(judgment: Judgment) -> None:
    if not judgment.target.sentence.corpus.ier_enabled:
        raise ChangeRefused(ERR_IER_OFF)


@dataclass(frozen=True)
class ShownItem:
    """One information item as the page draws it: its words with their positions (a gap
    button goes before each but the first), its mark."""

    start: int
    end: int
    label: str
    words: tuple[tuple[int, str], ...]

    @property
    def ok(self) -> bool:
        return self.label == OK


@dataclass(frozen=True)
class ShownIer:
    """The page's IER section: the items, the marks to choose from, the candidate's IER."""

    items: tuple[ShownItem, ...]
    labels: tuple[tuple[str, str], ...] = tuple(LABELS.items())

    @property
    def errors(self) -> int:
        return sum(1 for i in self.items if not i.ok)

    @property
    def rate(self) -> float:
        """The candidate's IER in percent (:func:`metrics.human.rate`)."""
        return rate(self.errors, len(self.items))


def shown_ier(judgment: Judgment, candidate: tuple[str, ...]) -> ShownIer | None:
    """The IER section of ``judgment``'s page, None where the corpus has IER off."""
    if not judgment.target.sentence.corpus.ier_enabled:
        return None
    items = shown_items(judgment.ier_items, candidate)
    return ShownIer(
        tuple(
            ShownItem(s, e, label, tuple((p, candidate[p]) for p in range(s, e)))
            for s, e, label in items
        )
    )
