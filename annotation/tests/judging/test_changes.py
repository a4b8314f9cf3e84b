"""What a judge's click does (annotation/judging/changes.py), read like the spec:
seed 001 §2.3 and §3."""

from __future__ import annotations

import re

import pytest

from annotation.corpora.imports import corpus_import
from annotation.judging.changes import (
    judgment_accept_op,
    judgment_edit_ref,
    judgment_edit_word,
    judgment_finish,
    judgment_set_sser,
    judgment_use_ref,
)
from annotation.judging.errors import ERR_NO_SSER, ChangeRefused
from annotation.judging.page import judging_context
from annotation.judging.start import judgment_open
from annotation.models import Judgment, JudgmentEvent, Target, User
from annotation.tests.factories import (
    CATS,
    DEMO_XML,
    FIGURE_1_FIRST_REF,
    FIGURE_1_RESULT,
    click,
    import_xml,
    target_of,
)
from annotation.text import awer_counts, new_ref_counts, readable_text, words
from metrics.align import Op

pytestmark = pytest.mark.django_db


def test_figure_1_clicks_give_the_papers_new_reference_at_two_edits(
    figure_1: Judgment, judge: User
) -> None:
    edits = []
    for kind, word in [
        (Op.MISSING, "This"),
        (Op.SUBSTITUTION, "Diagram"),
        (Op.SUBSTITUTION, "locate"),
    ]:
        click(figure_1, judge, kind, word)
        edits.append(figure_1.edits)
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=8)
    judgment_finish(judgment=figure_1, user=judge, version=figure_1.version)

    stored = Judgment.objects.get(pk=figure_1.pk)
    assert edits == [4, 3, 2]
    assert stored.new_ref == FIGURE_1_RESULT
    assert stored.awer_fraction == "2/10"
    assert (stored.sser, stored.state) == (8, Judgment.State.DONE)
    assert list(stored.events.values_list("kind", flat=True)) == [
        "accept_op",
        "accept_op",
        "accept_op",
        "set_sser",
        "finish",
    ]


@pytest.mark.parametrize(
    "kind, word", [(Op.SUBSTITUTION, "show"), (Op.MISSING, "This"), (Op.SUBSTITUTION, "for")]
)
def test_each_click_removes_one_edit_and_is_one_event(
    figure_1: Judgment, judge: User, kind: Op, word: str
) -> None:
    click(figure_1, judge, kind, word)

    assert figure_1.edits == 4
    assert figure_1.version == 2
    event = JudgmentEvent.objects.get(judgment=figure_1)
    assert (event.kind, event.status, event.actor) == ("accept_op", "applied", judge)
    assert event.before["new_ref"] == FIGURE_1_FIRST_REF
    assert event.after["new_ref"] == figure_1.new_ref


def test_an_extra_word_is_inserted_into_the_new_reference(judge: User) -> None:
    corpus = import_xml(CATS.format(b="the big cat sat on the mat ."), "cats", judge)
    judgment = judgment_open(user=judge, target=target_of(corpus, "sys B"))

    click(judgment, judge, Op.EXTRA, "big")

    assert judgment.new_ref == "the big cat sat on the mat."
    assert judgment.edits == 0


def test_a_word_edit_is_saved_and_recounted(figure_1: Judgment, judge: User) -> None:
    judgment_edit_word(
        judgment=figure_1, user=judge, version=1, pos=0, action="replace", text="Diagram"
    )

    assert figure_1.new_ref == "Diagram figure shows the scan procedure to find the archives."
    assert Judgment.objects.get(pk=figure_1.pk).edits == figure_1.edits == 4


def test_the_whole_text_edit_is_stored_as_its_words_read_as_text(
    figure_1: Judgment, judge: User
) -> None:
    judgment_edit_ref(
        judgment=figure_1, user=judge, version=1, text="  Diagram shows the scan, to locate it."
    )

    assert figure_1.new_ref == "Diagram shows the scan, to locate it."
    assert figure_1.ref_length == 9


def test_clicking_a_pool_reference_makes_it_the_new_reference(
    figure_1: Judgment, judge: User
) -> None:
    other = "Chart represents the search method to locate the files ."
    judgment_use_ref(judgment=figure_1, user=judge, version=1, text=other)

    assert figure_1.new_ref == "Chart represents the search method to locate the files."
    assert figure_1.edits == 6
    assert figure_1.events.get().kind == "use_ref"


@pytest.mark.parametrize("sser", [-1, 11, True, "8"])
def test_sser_outside_the_scale_is_refused(figure_1: Judgment, judge: User, sser: object) -> None:
    with pytest.raises(ChangeRefused, match="must be a whole number from 0 to 10"):
        judgment_set_sser(judgment=figure_1, user=judge, version=1, sser=sser)


def test_accepting_needs_an_sser_score(figure_1: Judgment, judge: User) -> None:
    with pytest.raises(ChangeRefused, match=re.escape(ERR_NO_SSER)):
        judgment_finish(judgment=figure_1, user=judge, version=1)


def test_a_new_reference_stores_its_awer_counts_and_leaves_hter_to_the_workers(
    judge: User,
) -> None:
    """A click stores aWER's counts of the new reference at once; HTER's (TER's shift
    search, far costlier than the rest of the click) are left empty, to be filled once
    the judgment is done (annotation/tests/statistics/test_hter.py)."""
    corpus = import_xml(CATS.format(b="on the mat the cat sat ."), "hter", judge)
    judgment = judgment_open(user=judge, target=target_of(corpus, "sys B"))
    judgment_edit_ref(
        judgment=judgment, user=judge, version=judgment.version, text="the cat sat on the mat ."
    )

    stored = Judgment.objects.get(pk=judgment.pk)
    assert (stored.edits, stored.ref_length) == (6, 7)
    assert (stored.ter_edits, stored.ter_length) == (None, None)
    assert (judgment.ter_edits, judgment.ter_length) == (None, None)  # the page's object too


def test_clicks_on_a_ted_candidate_give_readable_text_and_the_same_counts(judge: User) -> None:
    """Issue 23, point 6: every operation of a TED zh-en candidate with commas accepted
    one click at a time; the new reference reads as text, and its counts are those of
    its 13a words spaced, as they were stored before."""
    corpus = corpus_import(source=DEMO_XML, name="ted").corpus
    corpus.judges.add(judge)
    systems = Target.objects.filter(sentence__corpus=corpus, translator__role="system")
    target = next(t for t in systems.order_by("pk") if ", " in t.text and t.text.endswith("."))
    judgment = judgment_open(user=judge, target=target)

    while ops := [o for o in judging_context(judgment).ops if o.op != "match"]:
        judgment_accept_op(judgment=judgment, user=judge, version=judgment.version, op=ops[0].token)

    spaced = " ".join(words(target.text))
    assert judgment.new_ref == readable_text(target.text) != spaced
    assert " ," not in judgment.new_ref
    assert not judgment.new_ref.endswith(" .")
    assert words(judgment.new_ref) == words(target.text)
    counts = awer_counts(target.text, spaced)
    assert (judgment.edits, judgment.ref_length) == counts == (0, len(words(target.text)))
    assert new_ref_counts(target.text, judgment.new_ref) == new_ref_counts(target.text, spaced)
