"""Where a judgment starts (annotation/judging/start.py): seed 001 Figure 1's nearest
reference, reuse of an identical candidate."""

from __future__ import annotations

import pytest

from annotation.judging.changes import judgment_finish
from annotation.judging.page import judging_context
from annotation.judging.start import judgment_open
from annotation.models import Judgment, User
from annotation.tests.factories import CATS, FIGURE_1_FIRST_REF, finish, import_xml, target_of

pytestmark = pytest.mark.django_db


def test_figure_1_starts_from_the_nearest_reference_at_five_edits(figure_1: Judgment) -> None:
    assert figure_1.new_ref == FIGURE_1_FIRST_REF
    assert (figure_1.edits, figure_1.ref_length) == (5, 11)
    assert figure_1.state == Judgment.State.PENDING


def test_an_identical_candidate_reuses_the_judges_earlier_judgment(judge: User) -> None:
    corpus = import_xml(CATS.format(b="a cat sat on a mat ."), "twins", judge)
    finish(
        judgment_open(user=judge, target=target_of(corpus, "sys A")),
        judge,
        "a cat sat on a mat .",
        9,
    )

    twin = judgment_open(user=judge, target=target_of(corpus, "sys B"))
    context = judging_context(twin)

    assert (twin.new_ref, twin.sser, twin.edits) == ("a cat sat on a mat.", 9, 0)
    assert context.reuse_note is not None
    assert "identical" in context.reuse_note
    judgment_finish(judgment=twin, user=judge, version=twin.version)
    assert Judgment.objects.get(pk=twin.pk).state == Judgment.State.DONE


def test_no_reuse_note_for_a_different_candidate(judge: User) -> None:
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", judge)
    finish(
        judgment_open(user=judge, target=target_of(corpus, "sys A")),
        judge,
        "a cat sat on a mat .",
        9,
    )

    b = judgment_open(user=judge, target=target_of(corpus, "sys B"))

    assert b.sser is None
    assert judging_context(b).reuse_note is None
