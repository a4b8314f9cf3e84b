"""The severity key of the judge's page (annotation/judging/severity.py): an error left
unaccepted is minor unless the judge marks it major; the mark is a versioned change on
the undo stack, and goes with its operation when the new reference changes."""

from __future__ import annotations

import pytest

from annotation.judging.changes import judgment_edit_ref, judgment_redo, judgment_undo
from annotation.judging.errors import ChangeRefused, StaleJudgment
from annotation.judging.severity import judgment_toggle_severity
from annotation.judging.start import judgment_open
from annotation.models import Judgment, JudgmentEvent, User
from annotation.tests.factories import (
    CATS,
    FIGURE_1_RESULT,
    click,
    finish,
    fresh,
    import_xml,
    target_of,
)
from metrics.align import Op

pytestmark = pytest.mark.django_db

#: Figure 1's operations against the first reference, as the page's buttons name them.
MISSING_THIS, DIAGRAM, SHOW = "missing:0:0", "substitution:0:1", "substitution:1:2"


def toggle(judgment: Judgment, user: User, op: str) -> Judgment:
    return judgment_toggle_severity(judgment=judgment, user=user, version=judgment.version, op=op)


def test_a_toggle_marks_major_then_minor_again_each_a_change(
    figure_1: Judgment, judge: User
) -> None:
    toggle(figure_1, judge, DIAGRAM)
    toggle(figure_1, judge, MISSING_THIS)
    assert fresh(figure_1).severities == {"substitution:0": "major", "missing:0:This": "major"}
    toggle(figure_1, judge, DIAGRAM)
    assert fresh(figure_1).severities == {"missing:0:This": "major"}
    events = figure_1.events.filter(kind=JudgmentEvent.Kind.SET_SEVERITY)
    assert [e.detail["severity"] for e in events] == ["major", "major", "minor"]
    assert fresh(figure_1).version == 4


def test_undo_and_redo_restore_the_severities(figure_1: Judgment, judge: User) -> None:
    toggle(figure_1, judge, SHOW)
    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    assert fresh(figure_1).severities == {}
    judgment_redo(judgment=figure_1, user=judge, version=figure_1.version)
    assert fresh(figure_1).severities == {"substitution:1": "major"}


def test_an_accepted_operation_takes_its_severity_and_undo_brings_it_back(
    figure_1: Judgment, judge: User
) -> None:
    toggle(figure_1, judge, DIAGRAM)
    toggle(figure_1, judge, SHOW)
    click(figure_1, judge, Op.SUBSTITUTION, "Diagram")
    assert fresh(figure_1).severities == {"substitution:1": "major"}
    judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    assert fresh(figure_1).severities == {"substitution:0": "major", "substitution:1": "major"}


def test_a_rewritten_new_reference_keeps_only_the_operations_it_still_has(
    figure_1: Judgment, judge: User
) -> None:
    toggle(figure_1, judge, DIAGRAM)
    toggle(figure_1, judge, SHOW)
    # "Diagram shows the scan procedure to locate the archives .": only "show" and
    # "for" are left wrong; "Diagram" is right now.
    judgment_edit_ref(judgment=figure_1, user=judge, version=figure_1.version, text=FIGURE_1_RESULT)
    assert fresh(figure_1).severities == {"substitution:1": "major"}


@pytest.mark.parametrize("op", ["match:2:3", "substitution:2:3", "nonsense", "extra:0:0"])
def test_an_operation_the_page_does_not_show_is_refused(
    figure_1: Judgment, judge: User, op: str
) -> None:
    with pytest.raises(ChangeRefused):
        toggle(figure_1, judge, op)
    assert fresh(figure_1).severities == {}


def test_a_stale_page_is_refused(figure_1: Judgment, judge: User) -> None:
    toggle(figure_1, judge, DIAGRAM)
    with pytest.raises(StaleJudgment):
        judgment_toggle_severity(judgment=figure_1, user=judge, version=1, op=SHOW)


def test_an_identical_candidate_takes_the_severities_of_the_one_judged(judge: User) -> None:
    """The same words have the same errors: the pre-filled judgment (new reference and
    SSER of the judge's earlier one) has its severities too."""
    corpus = import_xml(CATS.format(b="a cat sat on a mat ."), "twins", judge)
    first = judgment_open(user=judge, target=target_of(corpus, "sys A"))
    finish(first, judge, "the cat sat on the mat .", 5)  # both "a" wrong
    toggle(first, judge, "substitution:0:0")
    twin = judgment_open(user=judge, target=target_of(corpus, "sys B"))
    assert twin.severities == {"substitution:0": "major"}
