"""What a click does to the words of a new reference (annotation/judging/edits.py): seed 001 §3."""

from __future__ import annotations

import pytest

from annotation.judging.edits import OpRef, apply_op, apply_word_edit, find_op
from annotation.judging.errors import ERR_MATCH_OP, ERR_WORD_POS, ChangeRefused
from metrics.align import EditOp, Op, align

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


@pytest.mark.parametrize(
    "op",
    [
        OpRef(Op.SUBSTITUTION, 1, 1, ("Diagram", "figure")),
        OpRef(Op.MISSING, 0, 0, ("", "This")),
        OpRef(Op.EXTRA, 3, 2, ("big", "")),
        OpRef(Op.SUBSTITUTION, 0, 0, (":", "50%")),  # the separator and the escape as words
        OpRef(Op.SUBSTITUTION, 2, 4),  # positions only
    ],
)
def test_an_operation_named_by_its_words_reads_back_the_same(op: OpRef) -> None:
    assert OpRef.parse(op.token) == op


def ops(candidate: str, new_ref: str) -> tuple[EditOp, ...]:
    return align(candidate.split(), new_ref.split()).ops


def test_an_operation_is_found_by_its_words_once_the_new_reference_moved_it() -> None:
    shown = OpRef.of(next(e for e in ops("a b c", "x a y c") if e.op is Op.SUBSTITUTION))
    assert shown == OpRef(Op.SUBSTITUTION, 1, 2, ("b", "y"))

    found = find_op(ops("a b c", "a y c"), shown)  # "x" accepted away: "y" is at 1 now

    assert found == EditOp(Op.SUBSTITUTION, 1, 1, "b", "y")
    assert find_op(ops("a b c", "a b c"), shown) is None  # accepted: gone
    assert find_op(ops("a b c", "a z c"), shown) is None  # another reference word
    assert find_op(ops("a b c", "a y c"), OpRef(Op.SUBSTITUTION, 1, 2)) is None  # positions


def test_of_two_identical_missing_words_the_nearest_is_found() -> None:
    shown = OpRef(Op.MISSING, 1, 2, ("", "x"))

    assert find_op(ops("a b", "a x x b"), shown) == EditOp(Op.MISSING, 1, 2, None, "x")


def test_a_word_edit_naming_another_word_than_the_one_there_is_refused() -> None:
    assert apply_word_edit(["the", "cat"], pos=1, action="delete", text="", word="cat") == ["the"]
    with pytest.raises(ChangeRefused, match="“dog” no longer applies"):
        apply_word_edit(["the", "cat"], pos=1, action="delete", text="", word="dog")
