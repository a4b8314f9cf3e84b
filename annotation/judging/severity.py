"""The severity of an error span: one key on the focused operation, minor ⇄ major.

Every operation the judge leaves unaccepted is an error of the candidate
(:mod:`annotation.spans`); it is minor unless the judge marks it major. The mark is a
change like any other (:func:`~annotation.judging.stack.change`): versioned, recorded
as a ``set_severity`` event, undone and redone with the rest, since the severities are
part of the judgment's snapshot.
"""

from __future__ import annotations

from datetime import datetime

from annotation.judging.edits import OpRef, find_op
from annotation.judging.errors import ERR_NO_SUCH_ERROR, ChangeRefused
from annotation.judging.stack import Click, change, to_apply
from annotation.models import Judgment, JudgmentEvent, User
from annotation.spans import MAJOR, MINOR, op_key
from annotation.text import words
from metrics.align import EditOp, align


def judgment_toggle_severity(
    *, judgment: Judgment, user: User, version: int, op: str, at: datetime | None = None
) -> Judgment:
    """Mark the operation ``op`` (the token its button carries, :class:`OpRef`) major, or
    minor again if it was major. Refused when ``op`` names no error of the judgment's
    alignment as it is now."""
    ref = OpRef.parse(op)
    click = Click(judgment, user, version, JudgmentEvent.Kind.SET_SEVERITY, {"op": ref.token}, at)
    if not to_apply(click):
        return judgment
    edit = _error_at(judgment, ref)
    key = op_key(edit)
    severities = dict(judgment.severities or {})
    severity = MINOR if severities.get(key) == MAJOR else MAJOR
    if severity == MAJOR:
        severities[key] = MAJOR
    else:
        del severities[key]
    detail = {**click.params, "severity": severity}
    return change(click, detail=detail, severities=severities)


def _error_at(judgment: Judgment, ref: OpRef) -> EditOp:
    """The operation of the judgment's alignment that ``ref`` names (no match): by its
    words where the token has them, so a mark queued behind a change lands on its word."""
    alignment = align(words(judgment.candidate_text), words(judgment.new_ref))
    edit = find_op(alignment.ops, ref)
    if edit is None:
        raise ChangeRefused(ERR_NO_SUCH_ERROR.format(token=ref.token))
    return edit
