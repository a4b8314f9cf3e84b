"""The reference pool (annotation/judging/pool.py): seed 001 §3's nearest references,
shared new references."""

from __future__ import annotations

from collections.abc import Callable
from html import unescape
from pathlib import Path

import pytest
from django.test import Client

from annotation.controls.runs import drawn_reference
from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_use_ref
from annotation.judging.errors import ERR_NOT_IN_POOL, ChangeRefused
from annotation.judging.page import judging_context, judgment_pool
from annotation.judging.pool import build_pool, nearest_in_pool
from annotation.judging.start import judgment_open
from annotation.models import Judgment, JudgmentEvent, User
from annotation.tests.factories import (
    CATS,
    HTMX,
    change_url,
    finish,
    fresh,
    import_xml,
    target_of,
    write_corpus,
)
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


# --- a click on the pool takes an entry of the pool, nothing else (issue 36, point 8d) ---


def use_ref(judgment: Judgment, user: User, text: str) -> Judgment:
    return judgment_use_ref(judgment=judgment, user=user, version=judgment.version, text=text)


def refused_use_ref(judgment: Judgment, user: User, text: str) -> None:
    """``text`` taken from the pool is refused, and nothing is stored or logged."""
    before = (fresh(judgment).new_ref, fresh(judgment).version, judgment.events.count())
    with pytest.raises(ChangeRefused) as refused:
        use_ref(judgment, user, text)
    assert refused.value.message == ERR_NOT_IN_POOL
    after = fresh(judgment)
    assert (after.new_ref, after.version, judgment.events.count()) == before
    assert not judgment.events.filter(kind=JudgmentEvent.Kind.USE_REF).exists()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_page_refuses_a_pool_click_on_a_text_of_no_pool_with_422(
    judge_client: Client, figure_1: Judgment, htmx: bool
) -> None:
    response = judge_client.post(
        change_url(figure_1, "use-ref"),
        {"version": "1", "text": "Anything at all, typed into the request ."},
        **(HTMX if htmx else {}),
    )

    assert response.status_code == 422
    assert ERR_NOT_IN_POOL in unescape(response.content.decode())
    assert fresh(figure_1).version == 1
    assert not figure_1.events.exclude(kind=JudgmentEvent.Kind.OPEN).exists()


def test_a_pool_click_takes_a_reference_of_the_sentence_in_any_spelling_of_its_words(
    figure_1: Judgment, judge: User
) -> None:
    reference = judgment_pool(figure_1)[-1].text  # seed 001's second reference
    refused_use_ref(figure_1, judge, "Diagram shows the scan, to locate it.")

    use_ref(figure_1, judge, "  " + reference.replace(" .", "."))

    assert words(fresh(figure_1).new_ref) == words(reference)


def test_a_pool_click_takes_the_judges_own_new_references_and_not_anothers_unshared(
    user_factory: Callable[..., User],
) -> None:
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", ana, bob)
    finish(judgment_open(user=ana, target=target_of(corpus, "sys A")), ana, "ana's words .", 9)
    finish(judgment_open(user=bob, target=target_of(corpus, "sys A")), bob, "bob's words .", 9)
    b = judgment_open(user=ana, target=target_of(corpus, "sys B"))

    refused_use_ref(b, ana, "bob's words .")
    use_ref(b, ana, "ana's words .")

    assert fresh(b).new_ref == "ana's words."


def test_a_pool_click_takes_no_reference_the_judges_runs_hide(tmp_path: Path, judge: User) -> None:
    """With controls on, one reference of each sentence is out of every pool of the
    judge (a run may show it as a control): not shown, it cannot be taken either."""
    refs = [["first reference of 0 .", "second reference of 0 ."]]
    source = write_corpus(tmp_path / "two.xml", refs, {"sys": ["a system says 0 ."]})
    corpus = corpus_import(source=source, name="two", score=False).corpus
    corpus.judges.add(judge)
    corpus.controls_enabled, corpus.blind = True, True
    corpus.save()
    judgment = judgment_open(user=judge, target=target_of(corpus, "sys"))
    sentence = judgment.target.sentence_id
    hidden = refs[0][drawn_reference(judge.pk, sentence, [0, 1])]
    shown = refs[0][1 - drawn_reference(judge.pk, sentence, [0, 1])]
    assert [p.text for p in judging_context(judgment).pool] == [shown]

    refused_use_ref(judgment, judge, hidden)
    use_ref(judgment, judge, shown)

    assert words(fresh(judgment).new_ref) == words(shown)
