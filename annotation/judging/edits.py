"""What a click does to the words of a new reference: pure rules, no database.

Seed 001 §3: the candidate is aligned against the judgment's new reference, and each
edit operation of that alignment is a button. Clicking it accepts the candidate's
version there (:func:`apply_op`):

* a **substitution** puts the candidate's word into the new reference in place of the
  reference word;
* an **extra** candidate word is inserted into the new reference at that place;
* a **missing** reference word ("–" in the candidate) is removed from the new reference.

The judge can also change, delete or insert words of the new reference directly
(:func:`apply_word_edit`, one of :data:`WORD_ACTIONS`). Both work on word lists (13a
words, :func:`annotation.text.words`) and refuse what makes no sense with
:class:`~annotation.judging.errors.ChangeRefused`; saving the result is
:mod:`annotation.judging.stack`'s job.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote

from annotation.judging.errors import (
    ERR_BAD_OP,
    ERR_MATCH_OP,
    ERR_OP_OUT_OF_RANGE,
    ERR_WORD_ACTION,
    ERR_WORD_GONE,
    ERR_WORD_POS,
    ChangeRefused,
)
from annotation.text import words
from metrics.align import EditOp, Op
from metrics.numerals import whole_number

#: What a click on a word of the new reference can do with it.
WORD_ACTIONS = ("replace", "delete", "insert_before", "insert_after")


@dataclass(frozen=True)
class OpRef:
    """An edit operation as a button names it: ``kind:hyp_pos:ref_pos:word:ref_word``.

    The positions are those of :class:`metrics.align.EditOp` in the alignment the page
    showed; ``seen`` holds the words the button showed, the candidate's and the
    reference's ("" for the side an operation has none of), percent-encoded in the token
    so that no word can be mistaken for the separator. The words make a click mean the
    same on a page redrawn since: a click queued behind another one is sent once that
    one is saved, when the positions may have moved but the operation, if it still
    exists, has the same kind, candidate position and words (:func:`find_op`). A token
    of three parts (``seen`` None) names the operation by its positions only.
    """

    op: Op
    hyp_pos: int
    ref_pos: int
    seen: tuple[str, str] | None = None

    @property
    def token(self) -> str:
        positions = f"{self.op.value}:{self.hyp_pos}:{self.ref_pos}"
        if self.seen is None:
            return positions
        return ":".join([positions, *(quote(word, safe="") for word in self.seen)])

    @property
    def label(self) -> str:
        """The operation as the judge reads it: its word, its kind, its reference word."""
        word, ref_word = self.seen or ("", "")
        ref = f", reference “{ref_word}”" if ref_word else ""
        return f"“{word or '–'}” ({self.op.value}{ref})"

    @classmethod
    def of(cls, edit: EditOp) -> OpRef:
        return cls(edit.op, edit.hyp_pos, edit.ref_pos, (edit.hyp_word or "", edit.ref_word or ""))

    @classmethod
    def parse(cls, token: str) -> OpRef:
        parts = token.split(":")
        try:
            if len(parts) not in (3, 5):
                raise ValueError(token)
            kind, hyp_pos, ref_pos = parts[:3]
            seen = (unquote(parts[3]), unquote(parts[4])) if len(parts) == 5 else None
            return cls(Op(kind), whole_number(hyp_pos), whole_number(ref_pos), seen)
        except ValueError:
            raise ChangeRefused(ERR_BAD_OP.format(token=token)) from None


def find_op(ops: Sequence[EditOp], ref: OpRef) -> EditOp | None:
    """The operation among ``ops`` (an alignment's) that ``ref`` names, None when there
    is none: by its words when ``ref`` has them (the same kind, candidate position and
    words; of two such, the one nearest the reference position shown: two identical
    missing words in one gap, either of which gives the same new reference), else by its
    positions."""
    errors = [e for e in ops if e.op is not Op.MATCH and e.op is ref.op]
    if ref.seen is None:
        at = [e for e in errors if (e.hyp_pos, e.ref_pos) == (ref.hyp_pos, ref.ref_pos)]
        return at[0] if at else None
    same = [e for e in errors if e.hyp_pos == ref.hyp_pos and OpRef.of(e).seen == ref.seen]
    return min(same, key=lambda e: abs(e.ref_pos - ref.ref_pos), default=None)


def apply_op(candidate: Sequence[str], new_ref: Sequence[str], op: OpRef) -> list[str]:
    """The new reference after accepting the candidate's version at ``op`` (seed 001 §3)."""
    ref = list(new_ref)
    if op.op is Op.MATCH:
        raise ChangeRefused(ERR_MATCH_OP)
    hyp_ok = 0 <= op.hyp_pos < len(candidate) or (
        op.op is Op.MISSING and 0 <= op.hyp_pos <= len(candidate)
    )
    ref_ok = 0 <= op.ref_pos < len(ref) or (op.op is Op.EXTRA and 0 <= op.ref_pos <= len(ref))
    if not (hyp_ok and ref_ok):
        raise ChangeRefused(ERR_OP_OUT_OF_RANGE.format(token=op.token))
    if op.op is Op.SUBSTITUTION:
        ref[op.ref_pos] = candidate[op.hyp_pos]
    elif op.op is Op.EXTRA:
        ref.insert(op.ref_pos, candidate[op.hyp_pos])
    else:  # MISSING: the reference word the candidate lacks goes
        del ref[op.ref_pos]
    return ref


def apply_word_edit(
    new_ref: Sequence[str], *, pos: int, action: str, text: str, word: str | None = None
) -> list[str]:
    """The new reference after changing, deleting or inserting beside its word ``pos``.

    ``word`` is that word as the editor showed it (None: not said): a change queued
    behind another one that has moved the words is refused rather than made elsewhere.
    """
    if action not in WORD_ACTIONS:
        raise ChangeRefused(ERR_WORD_ACTION.format(action=action, choices=", ".join(WORD_ACTIONS)))
    ref = list(new_ref)
    inserting = action in {"insert_before", "insert_after"}
    # Inserting into an empty new reference is the one edit without a word to stand by.
    if not (0 <= pos < len(ref) or (inserting and pos == 0 and not ref)):
        raise ChangeRefused(ERR_WORD_POS.format(pos=pos, length=len(ref)))
    if word is not None and ref[pos : pos + 1] != [word]:
        raise ChangeRefused(ERR_WORD_GONE.format(word=word))
    new_words = list(words(text))
    if action == "replace":
        ref[pos : pos + 1] = new_words
    elif action == "delete":
        del ref[pos]
    elif action == "insert_before":
        ref[pos:pos] = new_words
    else:
        at = min(pos + 1, len(ref))
        ref[at:at] = new_words
    return ref
