"""Saving a change (annotation/judging/stack.py): undo and redo, two tabs, the version check."""

from __future__ import annotations

import pytest

from annotation.judging.changes import (
    judgment_edit_ref,
    judgment_finish,
    judgment_redo,
    judgment_set_sser,
    judgment_undo,
)
from annotation.judging.errors import (
    ERR_NOTHING_TO_REDO,
    ERR_NOTHING_TO_UNDO,
    ERR_STALE,
    ChangeRefused,
    NotYours,
    StaleJudgment,
)
from annotation.judging.page import judging_context
from annotation.judging.stack import judgment_for
from annotation.models import Judgment, JudgmentEvent, User
from annotation.tests.factories import FIGURE_1_FIRST_REF, click
from metrics.align import Op

pytestmark = pytest.mark.django_db


def states(judgment: Judgment) -> tuple[str, int | None, str]:
    j = Judgment.objects.get(pk=judgment.pk)
    return (j.new_ref, j.sser, j.state)


def test_undo_and_redo_walk_through_every_change(figure_1: Judgment, judge: User) -> None:
    seen = [states(figure_1)]
    for kind, word in [(Op.MISSING, "This"), (Op.SUBSTITUTION, "Diagram")]:
        click(figure_1, judge, kind, word)
        seen.append(states(figure_1))
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=8)
    seen.append(states(figure_1))
    judgment_finish(judgment=figure_1, user=judge, version=figure_1.version)
    seen.append(states(figure_1))

    back = []
    for _ in range(4):
        judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
        back.append(states(figure_1))
    forward = []
    for _ in range(4):
        judgment_redo(judgment=figure_1, user=judge, version=figure_1.version)
        forward.append(states(figure_1))

    assert back == seen[-2::-1]
    assert forward == seen[1:]
    assert figure_1.edits == 3  # recounted on the way
    assert figure_1.events.filter(kind="undo").count() == 4
    assert set(figure_1.events.filter(kind="accept_op").values_list("status", flat=True)) == {
        "applied"
    }


def test_a_new_change_discards_the_redo_stack(figure_1: Judgment, judge: User) -> None:
    click(figure_1, judge, Op.MISSING, "This")
    click(figure_1, judge, Op.SUBSTITUTION, "Diagram")
    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)

    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=3)

    assert not judging_context(figure_1).can_redo
    with pytest.raises(ChangeRefused, match=ERR_NOTHING_TO_REDO):
        judgment_redo(judgment=figure_1, user=judge, version=figure_1.version)
    statuses = dict(figure_1.events.filter(kind="accept_op").values_list("pk", "status"))
    assert sorted(statuses.values()) == ["discarded", "discarded"]
    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    assert states(figure_1) == (FIGURE_1_FIRST_REF, None, "pending")


def test_nothing_to_undo_on_a_fresh_judgment(figure_1: Judgment, judge: User) -> None:
    with pytest.raises(ChangeRefused, match=ERR_NOTHING_TO_UNDO):
        judgment_undo(judgment=figure_1, user=judge, version=1)


def test_a_change_from_a_stale_page_is_refused_and_saves_nothing(
    figure_1: Judgment, judge: User
) -> None:
    other_tab = Judgment.objects.get(pk=figure_1.pk)
    click(figure_1, judge, Op.MISSING, "This")

    with pytest.raises(StaleJudgment) as refused:
        judgment_set_sser(judgment=other_tab, user=judge, version=1, sser=2)

    assert refused.value.message == ERR_STALE
    assert states(figure_1) == (figure_1.new_ref, None, "pending")
    assert figure_1.events.count() == 1


def test_the_version_check_is_part_of_the_update(figure_1: Judgment, judge: User) -> None:
    """Both tabs loaded version 1; the other one wrote first, between our load and write."""
    Judgment.objects.filter(pk=figure_1.pk).update(version=2, sser=4)

    with pytest.raises(StaleJudgment):
        judgment_set_sser(judgment=figure_1, user=judge, version=1, sser=9)

    assert Judgment.objects.get(pk=figure_1.pk).sser == 4
    assert not figure_1.events.exists()


def test_only_the_owner_changes_a_judgment(figure_1: Judgment, lead: User) -> None:
    with pytest.raises(NotYours):
        judgment_set_sser(judgment=figure_1, user=lead, version=1, sser=9)


def test_a_change_that_changes_nothing_is_not_recorded(figure_1: Judgment, judge: User) -> None:
    judgment_edit_ref(judgment=figure_1, user=judge, version=1, text=FIGURE_1_FIRST_REF)

    assert figure_1.version == 1
    assert not figure_1.events.exists()


def as_read_by_a_request(judgment: Judgment, user: User) -> Judgment:
    """The judgment as a request loads it at its start (before anyone else's write)."""
    return judgment_for(pk=judgment.pk, user=user)


def test_identical_requests_at_the_same_moment_all_get_the_saved_state(
    figure_1: Judgment, judge: User
) -> None:
    """Five "accept" POSTs read the judgment at the same version before any of them
    writes: the first saves, and each later one, overtaken by its own twin, is answered
    with the saved state, never a false "not saved"."""
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=7)
    requests = [as_read_by_a_request(figure_1, judge) for _ in range(5)]
    version = requests[0].version

    answers = [judgment_finish(judgment=r, user=judge, version=version) for r in requests]

    assert {(a.state, a.version) for a in answers} == {(Judgment.State.DONE, version + 1)}
    assert figure_1.events.filter(kind=JudgmentEvent.Kind.FINISH).count() == 1


def test_a_different_request_overtaken_at_the_same_moment_is_stale(
    figure_1: Judgment, judge: User
) -> None:
    first, second = (as_read_by_a_request(figure_1, judge) for _ in range(2))
    version = first.version
    judgment_set_sser(judgment=first, user=judge, version=version, sser=7)

    with pytest.raises(StaleJudgment):
        judgment_set_sser(judgment=second, user=judge, version=version, sser=3)
    assert states(figure_1)[1] == 7
