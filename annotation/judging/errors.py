"""What the judge reads when a change is not made: the refusals of the judging package.

Every message is a module constant, so the tests (and any caller) reuse the wording
rather than copy it. A :class:`StaleJudgment` (another tab changed the judgment) gets its
own status on the page (409, the fresh state and a "stale" message); :class:`NotYours` is
a permission error (403); every other refusal is a :class:`ChangeRefused` (422).
``NOTE_REUSED`` is no refusal but the note on a pre-filled judgment (see
:func:`annotation.judging.start.judgment_open`); it is kept with the other texts the
judge reads.
"""

from __future__ import annotations

ERR_STALE = (
    "This judgment was changed in another tab or window after this page was shown, so "
    "your change was not saved. The page now shows the current state: redo the change if "
    "it still applies."
)
ERR_NOT_YOURS = "Only the judge who owns this judgment can change it."
#: What most refusals come down to for a judge: the page was drawn from an older state
#: than the one the click was checked against (a click queued too long, a page kept open
#: for hours). The refusal redraws the page from what is saved, and says so.
_OUT_OF_DATE = (
    "The page was out of date, so this click was not saved: {what}. The page has been "
    "refreshed and shows what is saved; click again if the change still applies."
)
ERR_BAD_OP = _OUT_OF_DATE.format(what="it named no marked word of the candidate")
ERR_OP_OUT_OF_RANGE = _OUT_OF_DATE.format(what="the word it named is no longer there")
ERR_MATCH_OP = "This word already matches the new reference: there is nothing to accept."
ERR_WORD_POS = _OUT_OF_DATE.format(what="the word it named is no longer in the new reference")
#: A click queued behind others names what it acted on (:class:`~annotation.judging.edits.
#: OpRef`, the word of the word editor, the word moved across a boundary); once the
#: changes before it are saved, that may be gone: nothing is done, and the judge is told.
_GONE = "Your {what} no longer applies to the page as it is now, so it was not done."
ERR_OP_GONE = _GONE.format(what="click on {label}")
ERR_WORD_GONE = _GONE.format(what="change of the word “{word}”")
ERR_MOVE_GONE = _GONE.format(what="move of the word “{word}”")
ERR_WORD_ACTION = (
    "Nothing was changed: {action!r} is not one of the word editor's buttons ({choices})."
)
ERR_SSER_RANGE = "The SSER score must be a whole number from 0 to 10, not {value!r}."
ERR_NO_SSER = "Give an SSER score (0–10) before accepting this candidate."
ERR_NOTHING_TO_UNDO = "Nothing to undo."
ERR_NOT_SPANS = "This corpus is judged by aWER: its candidates have no error spans to mark."
#: A span refused by :func:`metrics.error_spans.span_problems`: its reason follows.
ERR_SPAN = "Nothing was saved: {problem}."
ERR_SPAN_NAME = (
    "Nothing was saved: the page sent span {value!r}, which names no span. "
    "Reload the page and try again."
)
ERR_SPAN_GONE = _GONE.format(what="change of the span {label}")
ERR_NO_SPAN_THERE = "Nothing was removed: no span of yours covers {label}."
ERR_ESA_RANGE = "The ESA score must be a whole number from 0 to 100, not {value!r}."
ERR_NO_ESA = "Give an ESA score (0–100) before accepting this candidate."
ERR_NOTHING_TO_REDO = "Nothing to redo."
ERR_NOT_A_SYSTEM = "{translator!r} is a reference, not a machine translation: it is not judged."
ERR_FLAG = "Nothing was saved: {flag!r} is not one of the flags ({choices}, or none)."
ERR_NOT_A_NUMBER = (
    "Nothing was saved: the page sent {name} {value!r} where a whole number belongs. "
    "Reload the page and try again."
)
ERR_NOT_IN_POOL = _OUT_OF_DATE.format(
    what="the reference it named is no reference of this sentence's pool"
)
ERR_NO_SUCH_ERROR = _OUT_OF_DATE.format(
    what="the word it named is not a marked word of the candidate any more"
)
ERR_IER_OFF = "IER is not enabled for this corpus: its lead can turn it on."
ERR_IER_GAP = _OUT_OF_DATE.format(what="the gap it named is not between two words any more")
ERR_IER_START = _OUT_OF_DATE.format(what="no information item starts at that word any more")
ERR_IER_LABEL = "Nothing was saved: {label!r} is not one of the item marks ({choices})."
NOTE_REUSED = (
    "This candidate is identical to one you already judged for this sentence ({label}): "
    "its new reference and SSER are filled in. Press c (or Confirm) to accept them."
)


class JudgingError(Exception):
    """A change that was not made; ``message`` is for the judge's eyes."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleJudgment(JudgingError):
    """The page showed another version than the stored one (two tabs): nothing saved."""

    def __init__(self) -> None:
        super().__init__(ERR_STALE)


class NotYours(JudgingError):
    """Someone else's judgment (a lead looking at a judge's work) cannot be changed."""

    def __init__(self) -> None:
        super().__init__(ERR_NOT_YOURS)


class ChangeRefused(JudgingError):
    """The change does not make sense for this judgment (bad position, score, …)."""
