"""The queue as runs (``annotation/controls/runs.py``): where each candidate stands is
arithmetic that agrees with walking the control places one by one; a sentence's run
ends with its last candidate and holds the controls just before its candidates; every
control place holds a control of a kind that can be made there; labels and numbers
are each used once a run; and the hidden reference is the one a reference control of
the run shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotation.controls.runs import (
    REPEAT_DISTANCE,
    Placement,
    Span,
    drawn_reference,
    hidden_reference,
    item_of,
    queue_total,
    run_bounds,
    run_items,
)
from annotation.models import Judgment, User
from annotation.tests.controls.factories import queue_corpus, walk_queue, with_every_kind
from annotation.text import reference_order

RATES = (3, 4, 7, 10, 100)


def walked(placement: Placement, candidates: int) -> list[int]:
    """Where each candidate stands, found by walking the queue item by item."""
    out, item = [], 0
    while len(out) < candidates:
        if not placement.is_control(item):
            out.append(item)
        item += 1
    return out


@pytest.mark.parametrize("rate", RATES)
def test_where_a_candidate_stands_is_the_walk_of_the_control_places(rate: int) -> None:
    for user_id in (1, 2, 17):
        placement = Placement(user_id, 5, rate)

        assert [item_of(placement, r) for r in range(600)] == walked(placement, 600)
        assert queue_total(placement, 600) == walked(placement, 600)[-1] + 1


def test_with_controls_off_the_queue_is_the_candidates() -> None:
    placement = Placement(1, 1, 0)

    assert [item_of(placement, r) for r in range(50)] == list(range(50))
    assert queue_total(placement, 50) == 50
    assert queue_total(placement, 0) == 0


def spans(systems: list[int], references: int = 2) -> list[Span]:
    out, first = [], 0
    for n in systems:
        out.append(Span(first, n, references))
        first += n
    return out


@pytest.mark.parametrize("rate", RATES)
def test_runs_tile_the_queue_and_end_with_their_last_candidate(rate: int) -> None:
    placement = Placement(3, 9, rate)
    sentences = spans([4, 1, 13, 2, 20, 3] * 5)
    bounds = [run_bounds(placement, s) for s in sentences]

    assert bounds[0][0] == 0
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False))
    total = sum(s.systems for s in sentences)
    assert bounds[-1][1] == queue_total(placement, total)
    for span, (start, end) in zip(sentences, bounds, strict=True):
        assert not placement.is_control(end - 1)
        controls = sum(placement.is_control(i) for i in range(start, end))
        assert end - start == span.systems + controls


@pytest.mark.parametrize("rate", RATES)
@pytest.mark.parametrize("blind", [True, False])
def test_every_control_place_holds_a_control_that_can_be_made_there(rate: int, blind: bool) -> None:
    placement = Placement(8, 2, rate)
    for k, span in enumerate(spans([3, 14, 1, 20, 2] * 6)):
        order = [f"s{k}-{i}" for i in range(span.systems)]
        references = [f"r{k}-{i}" for i in range(span.references)]
        items = run_items(
            placement, blind=blind, sentence_id=k, span=span, order=order, references=references
        )
        start, end = run_bounds(placement, span)

        assert [i.item for i in items] == list(range(start, end))
        assert [i.number for i in items] == list(range(1, end - start + 1))
        assert {i.total for i in items} == {end - start}
        assert sorted(i.label for i in items) == list(range(1, end - start + 1))
        assert [i.target for i in items if not i.kind] == order
        assert all(bool(i.kind) == placement.is_control(i.item) for i in items)
        for at, item in enumerate(items):
            earlier = [i.target for i in items[:at] if not i.kind]
            if item.kind == Judgment.Control.REFERENCE:
                assert blind
                assert item.target in references[1:]
            elif item.kind == Judgment.Control.REPEAT:
                assert item.target in earlier[: len(earlier) - REPEAT_DISTANCE]
            elif item.kind == Judgment.Control.DEGRADED:
                assert item.target in order
        for kind in (Judgment.Control.REPEAT, Judgment.Control.DEGRADED):
            chosen = [i.target for i in items if i.kind == kind]
            assert len(chosen) == len(set(chosen)), kind  # each candidate once a run
        references_shown = [i for i in items if i.kind == Judgment.Control.REFERENCE]
        assert len(references_shown) <= (1 if blind else 0)


def test_the_same_judge_gets_the_same_run_and_another_judge_another() -> None:
    span = Span(40, 14, 3)
    order, references = list(range(14)), ["a", "b", "c"]

    def run(user_id: int) -> list[tuple[int, str, object, int]]:
        items = run_items(
            Placement(user_id, 1, 3),
            blind=True,
            sentence_id=9,
            span=span,
            order=order,
            references=references,
        )
        return [(i.item, i.kind, i.target, i.label) for i in items]

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_the_reference_of_a_reference_control_is_never_the_first() -> None:
    drawn = {drawn_reference(user, 4, ["first", "second", "third"]) for user in range(60)}

    assert drawn == {"second", "third"}
    assert drawn_reference(1, 4, ["only"]) is None


@pytest.mark.django_db
def test_the_hidden_reference_is_the_one_the_run_shows(tmp_path: Path, judge: User) -> None:
    corpus = with_every_kind(
        queue_corpus(tmp_path, "hidden", [judge], sentences=8, systems=3),
        judge,
        {Judgment.Control.REFERENCE},
    )
    items = walk_queue(corpus, judge)
    shown = {j.target.sentence_id: j.target.text for j in items if j.control == "reference"}

    for sentence in corpus.sentences.all():
        references = [
            t.text
            for t in sorted(
                sentence.targets.exclude(translator__role="system").select_related("translator"),
                key=lambda t: reference_order(t.translator.role, t.position),
            )
        ]
        hidden = hidden_reference(
            corpus, user_id=judge.pk, sentence_id=sentence.pk, references=references
        )
        assert hidden == shown.get(sentence.pk)
    assert shown


def test_a_sentence_without_candidates_has_no_run_and_a_changed_one_none_read() -> None:
    def items(span: Span, order: list[int]) -> list:
        return run_items(
            Placement(1, 1, 3), blind=True, sentence_id=1, span=span, order=order, references=[]
        )

    assert items(Span(0, 0, 2), []) == []
    assert items(Span(12, 3, 2), [1, 2]) == []
    assert len(items(Span(12, 3, 2), [1, 2, 3])) >= 3
