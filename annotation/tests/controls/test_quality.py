"""How each judge does on the control items (``annotation/controls/quality.py``): the
known answers by hand, the pass rate, the consistency and the flag; then the same read
from the database after judges walked their queues."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from django.urls import reverse
from lxml import html

from annotation.controls.quality import (
    ControlRow,
    JudgeControls,
    batch_controls,
    control_passed,
    control_rows,
    corpus_controls,
    judge_controls,
)
from annotation.models import Judgment, Task, User
from annotation.tests.controls.factories import (
    queue_corpus,
    right_answer,
    stored_repeat,
    walk_queue,
    with_every_kind,
)

REF = Judgment.Control.REFERENCE
REPEAT = Judgment.Control.REPEAT
DEGRADED = Judgment.Control.DEGRADED


def reference(judge: str, *, sser: int, edits: int) -> ControlRow:
    return ControlRow(judge, REF, sser, edits, "the shown reference")


def repeat(judge: str, *, sser: int, new_ref: str, first_sser: int, first_ref: str) -> ControlRow:
    return ControlRow(judge, REPEAT, sser, 1, new_ref, first_sser, first_ref)


def degraded(new_ref: str, *, sser: int, first_sser: int | None) -> ControlRow:
    """A bad reference of "the cat sat on the mat ." with "sat" duplicated and "mat"
    replaced by "dog" (a word of another sentence)."""
    original, shown = "the cat sat on the mat .", "the cat sat sat on the dog ."
    return ControlRow("A", DEGRADED, sser, 2, new_ref, first_sser, None, original, shown)


@pytest.mark.parametrize(
    "row, passed",
    [
        (reference("A", sser=10, edits=0), True),
        (reference("A", sser=9, edits=0), True),
        (reference("A", sser=8, edits=0), False),  # a correct translation scored low
        (reference("A", sser=10, edits=1), False),  # an edit left on a correct translation
        (repeat("A", sser=7, new_ref="a b c", first_sser=7, first_ref="a b c"), True),
        (repeat("A", sser=6, new_ref="a b c", first_sser=7, first_ref="a b c"), True),
        (repeat("A", sser=8, new_ref="a  b c", first_sser=7, first_ref="a b c"), True),
        (repeat("A", sser=5, new_ref="a b c", first_sser=7, first_ref="a b c"), False),
        (repeat("A", sser=7, new_ref="a b d", first_sser=7, first_ref="a b c"), False),
        (ControlRow("A", REPEAT, 7, 0, "a", None, None), False),  # its original is gone
        (degraded("the cat sat on the mat .", sser=4, first_sser=8), True),
        (degraded("a cat sat on a mat .", sser=4, first_sser=8), True),  # other edits: fine
        (degraded("the cat sat on the mat .", sser=8, first_sser=8), False),  # not lower
        (degraded("the cat sat sat on the mat .", sser=4, first_sser=8), False),  # "sat" x2
        (degraded("the cat sat on the dog .", sser=4, first_sser=8), False),  # took "dog"
        (degraded("the cat sat on the mat .", sser=0, first_sser=0), True),  # nothing below 0
        (degraded("the cat sat on the mat .", sser=5, first_sser=None), True),  # not judged yet
        (degraded("the cat sat on the mat .", sser=6, first_sser=None), False),
    ],
)
def test_the_known_answers(row: ControlRow, passed: bool) -> None:
    assert control_passed(row) is passed


def test_a_real_judgment_is_no_control() -> None:
    with pytest.raises(ValueError, match="not a kind of control"):
        control_passed(ControlRow("A", "", 7, 0, "a"))


def test_a_careful_judge_passes_a_careless_one_is_flagged() -> None:
    """Threshold 70 %. "careful": 3 references right, 2 of 3 repeats alike (the third
    scored 2 away) → 5/6 = 83.3 %, consistency 66.7 %: not flagged. "careless": 1 of 2
    references right, 1 of 2 repeats alike → 50 %: flagged. "new": no control yet,
    nothing to flag."""
    rows = [
        *(reference("careful", sser=10, edits=0) for _ in range(3)),
        repeat("careful", sser=7, new_ref="x", first_sser=7, first_ref="x"),
        repeat("careful", sser=8, new_ref="x", first_sser=7, first_ref="x"),
        repeat("careful", sser=9, new_ref="x", first_sser=7, first_ref="x"),
        reference("careless", sser=3, edits=0),
        reference("careless", sser=10, edits=0),
        repeat("careless", sser=2, new_ref="y", first_sser=2, first_ref="y"),
        repeat("careless", sser=2, new_ref="z", first_sser=2, first_ref="y"),
    ]

    careful, careless = judge_controls(rows, threshold=70)

    assert careful == JudgeControls("careful", 6, 5, 3, 2, 70)
    assert careful.pass_rate == pytest.approx(500 / 6)
    assert careful.consistency == pytest.approx(200 / 3)
    assert not careful.flagged
    assert careless == JudgeControls("careless", 4, 2, 2, 1, 70)
    assert (careless.pass_rate, careless.consistency, careless.flagged) == (50.0, 50.0, True)
    new = JudgeControls("new", 0, 0, 0, 0, 70)
    assert (new.pass_rate, new.consistency, new.flagged) == (None, None, False)


def test_the_flag_is_strictly_below_the_threshold() -> None:
    rows = [reference("A", sser=10, edits=0), reference("A", sser=0, edits=0)]

    assert not judge_controls(rows, threshold=50)[0].flagged
    assert judge_controls(rows, threshold=51)[0].flagged
    assert not judge_controls(rows, threshold=0)[0].flagged


def careless(judgment: Judgment) -> tuple[str, int]:
    """Clicks through: accepts whatever the page starts from, always 3."""
    return judgment.new_ref, 3


@pytest.mark.django_db
def test_judges_walking_their_queues_careful_and_careless(
    tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    good, bad = user_factory("good"), user_factory("bad")
    corpus = with_every_kind(
        queue_corpus(tmp_path, "quality", [good, bad], sentences=4, systems=14), good
    )
    corpus.control_pass_threshold = 80
    corpus.save()
    for judge, answer in ((good, right_answer), (bad, careless)):
        items = walk_queue(corpus, judge, answer)
        for original in [j for j in items if not j.control][:3]:  # as stored before
            original.refresh_from_db()
            stored_repeat(original, *answer(original))

    results = {c.name: c for c in corpus_controls(corpus)}

    assert results["good"].done == Judgment.objects.controls().filter(evaluator=good).count()
    assert results["good"].passed == results["good"].done > 5
    assert results["good"].consistency == 100.0
    assert not results["good"].flagged
    # a careless judge scores the references 3 and scores a bad reference as its original
    assert {r.kind for r in control_rows(corpus)} == {REF, REPEAT, DEGRADED}
    assert results["bad"].done > 5
    assert results["bad"].pass_rate is not None
    assert results["bad"].pass_rate < 80
    assert results["bad"].flagged
    assert {r.evaluator for r in control_rows(corpus)} == {"good", "bad"}


@pytest.mark.django_db
def test_pending_controls_are_not_counted(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "pending", [judge], sentences=6, rate=3)
    walk_queue(corpus, judge)
    Judgment.objects.controls().filter(evaluator=judge).update(state="pending")

    assert corpus_controls(corpus) == ()


def in_batch(row: ControlRow, task: int, batch: int | None, copy: int = 0) -> ControlRow:
    return replace(row, task=task, batch=batch, copy=copy)


def test_each_dealt_batch_has_its_own_pass_rate_in_batch_order() -> None:
    """Where a campaign splits the work, each batch holds controls at the corpus's
    rate: its pass rate is what a lead reads before accepting the batch."""
    good, bad = reference("A", sser=10, edits=0), reference("B", sser=3, edits=0)
    rows = [
        in_batch(good, task=7, batch=10),
        in_batch(good, task=7, batch=10),
        in_batch(bad, task=3, batch=2),
        in_batch(good, task=3, batch=2),
        in_batch(good, task=9, batch=2, copy=1),
        in_batch(bad, task=11, batch=None),
        good,  # made outside any batch: no batch's
    ]

    results = batch_controls(rows, threshold=80)

    assert [(c.name, c.done, c.passed, c.flagged) for c in results] == [
        ("batch 2", 2, 1, True),
        ("batch 2 (2. annotator)", 1, 1, False),
        ("batch 10", 2, 2, False),
        ("overlap", 1, 0, True),
    ]


@pytest.mark.django_db
def test_the_quality_page_lists_each_dealt_batchs_pass_rate(
    tmp_path: Path, user_factory: Callable[..., User], client
) -> None:
    judge = user_factory("ana")
    corpus = queue_corpus(tmp_path, "batches", [judge], sentences=4, systems=14)
    walk_queue(corpus, judge)
    task = Task.objects.create(corpus=corpus, batch=4, start=0, end=4, order=0, assignee=judge)
    Judgment.objects.controls().filter(evaluator=judge).update(task=task)
    lead = user_factory("lead", role=User.Role.LEAD)
    client.force_login(lead)

    page = html.fromstring(client.get(reverse("controls:settings", args=[corpus.pk])).content)

    (row,) = page.xpath("//table[@id='control-batches']//tr[@data-batch]")
    done = Judgment.objects.controls().done().filter(evaluator=judge).count()
    assert row.get("data-batch") == "batch 4"
    assert row.xpath("string(td[@data-col='controls'])") == str(done)
    assert done > 0
