"""What a click does to the words of a new reference (annotation/judging/edits.py): seed 001 §3."""

from __future__ import annotations

import pytest

from annotation.judging.edits import OpRef, apply_op, apply_word_edit
from annotation.judging.errors import ERR_MATCH_OP, ERR_WORD_POS, ChangeRefused
from metrics.align import Op

OP_CASES = [
    # candidate, new reference, clicked op, new reference after the click
    ("a b c", "a x c", OpRef(Op.SUBSTITUTION, 1, 1), "a b c"),
    ("a b c", "a c", OpRef(Op.EXTRA, 1, 1), "a b c"),
    ("a b c", "a b", OpRef(Op.EXTRA, 2, 2), "a b c"),
    ("a c", "a b c", OpRef(Op.MISSING, 1, 1), "a c"),
    ("a", "x a", OpRef(Op.MISSING, 0, 0), "a"),
]


@pytest.mark.parametrize("candidate, new_ref, op, expected", OP_CASES)
def test_a_click_accepts_the_candidates_version(
    candidate: str, new_ref: str, op: OpRef, expected: str
) -> None:
    assert " ".join(apply_op(candidate.split(), new_ref.split(), op)) == expected


@pytest.mark.parametrize(
    "op, message",
    [
        (OpRef(Op.MATCH, 0, 0), ERR_MATCH_OP),
        (OpRef(Op.SUBSTITUTION, 5, 0), "is no longer there"),
        (OpRef(Op.MISSING, 0, 3), "is no longer there"),
    ],
)
def test_impossible_clicks_are_refused(op: OpRef, message: str) -> None:
    with pytest.raises(ChangeRefused, match=message):
        apply_op(["a", "b"], ["a", "c"], op)


@pytest.mark.parametrize(
    "token",
    ["bogus", "substitution:1", "swap:1:1", "extra:x:1", "extra:٠:1", "substitution:0:１"],
)
def test_malformed_operation_names_are_refused(token: str) -> None:
    with pytest.raises(ChangeRefused, match="page was out of date.*named no marked word"):
        OpRef.parse(token)


WORD_CASES = [
    ("replace", 1, "dog", "the dog sat"),
    ("replace", 1, "big dog", "the big dog sat"),
    ("replace", 1, "", "the sat"),
    ("delete", 0, "", "cat sat"),
    ("insert_before", 0, "Yes ,", "Yes , the cat sat"),
    ("insert_after", 2, "down .", "the cat sat down ."),
]


@pytest.mark.parametrize("action, pos, text, expected", WORD_CASES)
def test_word_edits(action: str, pos: int, text: str, expected: str) -> None:
    result = apply_word_edit(["the", "cat", "sat"], pos=pos, action=action, text=text)

    assert " ".join(result) == expected


@pytest.mark.parametrize(
    "action, pos, message",
    [
        ("replace", 3, ERR_WORD_POS.format(pos=3, length=3)),
        ("delete", -1, ERR_WORD_POS.format(pos=-1, length=3)),
        ("shout", 0, "'shout' is not one of the word editor's buttons"),
    ],
)
def test_bad_word_edits_are_refused(action: str, pos: int, message: str) -> None:
    with pytest.raises(ChangeRefused, match=message):
        apply_word_edit(["the", "cat", "sat"], pos=pos, action=action, text="x")
