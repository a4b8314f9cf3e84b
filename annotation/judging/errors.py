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
ERR_BAD_OP = "{token!r} is not an edit operation (expected kind:candidate_pos:reference_pos)"
ERR_OP_OUT_OF_RANGE = "{token!r} points outside the candidate or the new reference"
ERR_MATCH_OP = "a matching word needs no change"
ERR_WORD_POS = "word {pos} is not in the new reference, which has {length} words"
ERR_WORD_ACTION = "unknown word action {action!r} (choose from {choices})"
ERR_SSER_RANGE = "SSER {value!r} is not a whole number from 0 to 10"
ERR_NO_SSER = "Give an SSER score (0–10) before accepting this candidate."
ERR_NOTHING_TO_UNDO = "Nothing to undo."
ERR_NOTHING_TO_REDO = "Nothing to redo."
ERR_NOT_A_SYSTEM = "{translator!r} is a reference, not an MT system: it is not judged"
ERR_FLAG = "unknown flag {flag!r} (choose from {choices}, or none)"
ERR_NOT_A_NUMBER = "{name} {value!r} is not a whole number"
ERR_NO_SUCH_ERROR = (
    "op {token!r} is not an error of the candidate as the page shows it: focus a marked "
    "word (→ and ←) and press m"
)
ERR_IER_OFF = "IER is not enabled for this corpus: its lead can turn it on."
ERR_IER_GAP = "gap {gap} is not between two words of the candidate, which has {length} words"
ERR_IER_START = "no information item starts at word {start}"
ERR_IER_LABEL = "unknown IER mark {label!r} (choose from {choices})"
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
