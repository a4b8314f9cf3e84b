"""The reference pool (annotation/judging/pool.py): seed 001 §3's nearest references,
shared new references."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from annotation.judging.page import judging_context
from annotation.judging.pool import build_pool, nearest_in_pool
from annotation.judging.start import judgment_open
from annotation.models import User
from annotation.tests.factories import CATS, finish, import_xml, target_of
from annotation.text import words

pytestmark = pytest.mark.django_db


def test_an_accepted_new_reference_makes_the_next_system_cheaper(judge: User) -> None:
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", judge)
    before = build_pool(words("a cat sat on a mat !"), ["the cat sat on the mat."], [])
    a = judgment_open(user=judge, target=target_of(corpus, "sys A"))
    finish(a, judge, "a cat sat on a mat.", 9)

    b = judgment_open(user=judge, target=target_of(corpus, "sys B"))
    pool = judging_context(b).pool

    assert before[0].distance == 3
    assert b.new_ref == "a cat sat on a mat."
    assert b.edits == 1
    assert [(p.kind, p.distance) for p in pool] == [("first reference", 3), ("new reference", 1)]


@pytest.mark.parametrize("share, expected_edits", [(False, 3), (True, 1)])
def test_sharing_new_references_among_judges(
    user_factory: Callable[..., User], share: bool, expected_edits: int
) -> None:
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", ana, bob, share=share)
    finish(
        judgment_open(user=ana, target=target_of(corpus, "sys A")),
        ana,
        "a cat sat on a mat.",
        9,
    )

    b = judgment_open(user=bob, target=target_of(corpus, "sys B"))

    assert b.edits == expected_edits


def test_a_shared_pool_holds_other_candidates_new_references_not_this_ones(
    user_factory: Callable[..., User],
) -> None:
    """Sharing pools the new references of a sentence's *other* candidates: another judge's
    new reference for this very candidate would hand over that judge's verdict (and make
    their agreement meaningless). The starting new reference comes from the pool shown."""
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", ana, bob, share=True)
    finish(
        judgment_open(user=ana, target=target_of(corpus, "sys A")),
        ana,
        "a cat sat on a mat.",
        9,
    )

    same = judgment_open(user=bob, target=target_of(corpus, "sys A"))
    other = judgment_open(user=bob, target=target_of(corpus, "sys B"))

    assert (same.new_ref, same.edits) == ("the cat sat on the mat.", 2)
    assert [p.kind for p in judging_context(same).pool] == ["first reference"]
    assert (other.new_ref, other.edits) == ("a cat sat on a mat.", 1)
    assert [p.kind for p in judging_context(other).pool] == ["first reference", "new reference"]


def test_the_pool_shows_the_four_nearest_without_duplicates() -> None:
    candidate = words("a b c d")
    refs = ["a b c d e f", "a b c x", "a b c x", "z z z z", "a b c d e", "a b"]
    pool = build_pool(candidate, refs, ["a b c d"])

    shown = nearest_in_pool(pool)

    assert len(pool) == 6
    assert [p.text for p in shown] == ["a b c d", "a b c x", "a b c d e", "a b c d e f"]


def test_ties_go_to_the_first_reference_then_file_order() -> None:
    pool = build_pool(words("a b"), ["a x", "a y"], ["a z"])

    assert [p.text for p in nearest_in_pool(pool, 3)] == ["a x", "a y", "a z"]
