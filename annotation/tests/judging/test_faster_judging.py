"""Faster judging (issue 14, point 1), the services: "the candidate is correct as it is"
as one change, the judge's note and flag (undoable like any change), and the document's
sentences around the source (the pace: test_pace.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from annotation.corpora.evaltrans import FLAGS, NOTE_MAX_LENGTH
from annotation.judging.changes import (
    judgment_accept_as_is,
    judgment_edit_ref,
    judgment_finish,
    judgment_redo,
    judgment_set_note,
    judgment_set_sser,
    judgment_undo,
)
from annotation.judging.errors import ChangeRefused
from annotation.judging.page import document_context, judging_context
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, JudgmentEvent, Sentence, User
from annotation.tests.factories import (
    FIGURE_1_AS_IS,
    FIGURE_1_CANDIDATE,
    FIGURE_1_FIRST_REF,
    fresh,
    import_xml,
    target_of,
)

pytestmark = pytest.mark.django_db


# --- the candidate is correct as it is -------------------------------------------------------


def test_correct_as_it_is_makes_the_candidate_the_new_reference_at_zero_edits(
    figure_1: Judgment, judge: User
) -> None:
    judgment_accept_as_is(judgment=figure_1, user=judge, version=figure_1.version)

    stored = fresh(figure_1)
    assert stored.new_ref == FIGURE_1_AS_IS
    assert (stored.edits, stored.ref_length) == (0, 10)
    assert stored.sser is None  # the score stays the judge's to give
    assert list(stored.events.exclude(kind="open").values_list("kind", flat=True)) == ["as_is"]


def test_correct_as_it_is_is_one_change_that_one_undo_takes_back(
    figure_1: Judgment, judge: User
) -> None:
    judgment_accept_as_is(judgment=figure_1, user=judge, version=figure_1.version)
    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    assert (fresh(figure_1).new_ref, fresh(figure_1).edits) == (FIGURE_1_FIRST_REF, 5)

    judgment_redo(judgment=figure_1, user=judge, version=figure_1.version)
    assert (fresh(figure_1).new_ref, fresh(figure_1).edits) == (FIGURE_1_AS_IS, 0)


def test_correct_as_it_is_normalises_the_candidate_as_any_new_reference(
    judge: User,
) -> None:
    corpus = import_xml(
        CATS_SPACED,
        "spaced",
        judge,
    )
    judgment = judgment_open(user=judge, target=target_of(corpus, "sys A"))
    judgment_accept_as_is(judgment=judgment, user=judge, version=judgment.version)
    assert fresh(judgment).new_ref == "a cat, on a mat."


def test_correct_as_it_is_sent_twice_is_saved_once(figure_1: Judgment, judge: User) -> None:
    version = figure_1.version
    judgment_accept_as_is(judgment=figure_1, user=judge, version=version)
    judgment_accept_as_is(judgment=figure_1, user=judge, version=version)  # a retry

    assert fresh(figure_1).version == version + 1
    assert figure_1.events.filter(kind=JudgmentEvent.Kind.AS_IS).count() == 1


def test_correct_as_it_is_on_a_candidate_already_taken_records_nothing(
    figure_1: Judgment, judge: User
) -> None:
    judgment_edit_ref(
        judgment=figure_1, user=judge, version=figure_1.version, text=FIGURE_1_CANDIDATE
    )
    version = fresh(figure_1).version
    judgment_accept_as_is(judgment=figure_1, user=judge, version=version)
    assert fresh(figure_1).version == version


# --- note and flag -------------------------------------------------------------------------


def test_a_note_and_a_flag_are_saved_as_one_change(figure_1: Judgment, judge: User) -> None:
    judgment_set_note(
        judgment=figure_1,
        user=judge,
        version=figure_1.version,
        note="  the source\nlacks a verb ",
        flag="garbled",
    )

    stored = fresh(figure_1)
    assert (stored.note, stored.flag) == ("the source lacks a verb", "garbled")
    assert stored.get_flag_display() == "The source is garbled"
    event = stored.events.get(kind=JudgmentEvent.Kind.SET_NOTE)
    assert (event.before["note"], event.after["note"]) == ("", "the source lacks a verb")
    assert (event.before["flag"], event.after["flag"]) == ("", "garbled")


def test_undo_and_redo_walk_through_notes_as_through_any_change(
    figure_1: Judgment, judge: User
) -> None:
    judgment_set_note(
        judgment=figure_1, user=judge, version=figure_1.version, note="first", flag="unsure"
    )
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=7)
    judgment_set_note(
        judgment=figure_1, user=judge, version=figure_1.version, note="second", flag=""
    )

    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    assert (fresh(figure_1).note, fresh(figure_1).flag, fresh(figure_1).sser) == (
        "first",
        "unsure",
        7,
    )
    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    assert (fresh(figure_1).note, fresh(figure_1).flag, fresh(figure_1).sser) == ("", "", None)
    judgment_redo(judgment=figure_1, user=judge, version=figure_1.version)
    assert (fresh(figure_1).note, fresh(figure_1).flag) == ("first", "unsure")


def test_undoing_a_change_saved_before_notes_existed_keeps_the_note(
    figure_1: Judgment, judge: User
) -> None:
    """Events written before notes and flags hold only new_ref, sser and state: undoing
    one restores those and leaves the note and the flag alone."""
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=7)
    judgment_set_note(
        judgment=figure_1, user=judge, version=figure_1.version, note="keep me", flag="other"
    )
    old = figure_1.events.get(kind=JudgmentEvent.Kind.SET_SSER)
    old.before = {"new_ref": FIGURE_1_FIRST_REF, "sser": None, "state": "pending"}
    old.after = {"new_ref": FIGURE_1_FIRST_REF, "sser": 7, "state": "pending"}
    old.save()
    note_event = figure_1.events.get(kind=JudgmentEvent.Kind.SET_NOTE)
    note_event.status = JudgmentEvent.Status.DISCARDED  # only the old event is left to undo
    note_event.save()
    judgment = fresh(figure_1)

    judgment_undo(judgment=judgment, user=judge, version=judgment.version)
    assert (fresh(figure_1).sser, fresh(figure_1).note, fresh(figure_1).flag) == (
        None,
        "keep me",
        "other",
    )


@pytest.mark.parametrize("flag", ["", *FLAGS])
def test_every_flag_of_the_format_can_be_set(figure_1: Judgment, judge: User, flag: str) -> None:
    judgment_set_note(judgment=figure_1, user=judge, version=figure_1.version, note="", flag=flag)
    assert fresh(figure_1).flag == flag


def test_the_models_flags_are_the_formats() -> None:
    assert [f for f in Judgment.Flag.values if f] == list(FLAGS)


@pytest.mark.parametrize(
    "note, flag, reason",
    [
        ("", "broken", "'broken' is not one of the flags"),
        ("x" * (NOTE_MAX_LENGTH + 1), "", "the note is 1,001 characters long"),
        ("bad \x01 byte", "", "cannot be written in XML"),
    ],
)
def test_a_note_or_flag_that_could_not_be_kept_is_refused(
    figure_1: Judgment, judge: User, note: str, flag: str, reason: str
) -> None:
    with pytest.raises(ChangeRefused, match=reason):
        judgment_set_note(
            judgment=figure_1, user=judge, version=figure_1.version, note=note, flag=flag
        )
    assert (fresh(figure_1).note, fresh(figure_1).flag, fresh(figure_1).version) == ("", "", 1)


def test_a_note_is_kept_when_the_judgment_is_finished(figure_1: Judgment, judge: User) -> None:
    judgment_set_note(
        judgment=figure_1, user=judge, version=figure_1.version, note="check", flag="unsure"
    )
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=6)
    judgment_finish(judgment=figure_1, user=judge, version=figure_1.version)
    assert (fresh(figure_1).state, fresh(figure_1).note) == ("done", "check")


# --- the document around the source --------------------------------------------------------

CATS_SPACED = """<evalTrans>
<sentence>
  <source>el gato</source>
  <eval translator="first reference"><target>the cat sat on the mat .</target></eval>
  <eval translator="sys A"><target>a   cat,  on a mat.</target></eval>
</sentence>
</evalTrans>"""


@pytest.mark.parametrize(
    "position, expected",
    [
        (0, (None, "s1")),  # a document's first sentence
        (1, ("s0", "s2")),
        (2, ("s1", None)),  # its last: the next sentence is another document's
        (3, (None, None)),  # a document of one sentence
        (4, (None, None)),  # no doc: a document of its own
        (5, (None, None)),  # no doc either: never the context of its neighbour
    ],
)
def test_the_sources_around_a_sentence_are_those_of_its_document(
    documents: Callable[[list[str | None]], Corpus],
    position: int,
    expected: tuple[str | None, str | None],
) -> None:
    corpus = documents(["a", "a", "a", "b", None, None])
    sentence = Sentence.objects.get(corpus=corpus, position=position)
    assert document_context(sentence) == expected


def test_the_page_carries_the_document_context(
    documents: Callable[[list[str | None]], Corpus], judge: User
) -> None:
    corpus = documents(["a", "a", "a"])
    judgment = judgment_open(user=judge, target=target_of(corpus, "sys", 1))
    ctx = judging_context(judgment)
    assert (ctx.source_before, ctx.source_after) == ("s0", "s2")


def test_a_sentence_without_a_document_costs_no_query(
    documents: Callable[[list[str | None]], Corpus], django_assert_num_queries
) -> None:
    corpus = documents([None, None])
    sentence = Sentence.objects.get(corpus=corpus, position=1)
    with django_assert_num_queries(0):
        assert document_context(sentence) == (None, None)
