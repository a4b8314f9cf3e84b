"""The queue as runs (``annotation/controls/runs.py``): every sentence's run holds the
same number of controls, as near the lead's rate as whole controls come; runs tile the
queue and end with their last candidate; every control place holds a control of a kind
that can be made there; labels and numbers are each used once a run; and the hidden
reference is the one a reference control of the run would show, hidden in every run."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from annotation.controls.runs import (
    Placement,
    Span,
    candidate_slot,
    control_slots,
    controls_per_run,
    drawn_reference,
    hidden_reference,
    queue_total,
    run_bounds,
    run_items,
    spans_of,
)
from annotation.models import Judgment, User
from annotation.tests.controls.factories import queue_corpus, walk_queue
from annotation.text import reference_order

PER_RUN = (1, 2, 3, 7)


@pytest.mark.parametrize(
    "rate, systems, per_run",
    [
        (10, 13, 1),  # issue 35's corpus: 1 in 14
        (3, 13, 7),  # 7 in 20, one in 2.9 (6 in 19: one in 3.2, further)
        (10, 20, 2),  # 2 in 22, one in 11
        (10, 4, 1),  # at least one a run: 1 in 5
        (100, 20, 1),
        (3, 2, 1),  # 1 in 3 exactly
        (4, 20, 7),  # 7 in 27, one in 3.9 (6 in 26: one in 4.3)
        (3, 3, 2),  # 2 in 5, one in 2.5 (1 in 4, further)
        (10, 0, 0),  # no candidate, no run
    ],
)
def test_every_run_holds_the_whole_number_of_controls_nearest_the_rate(
    rate: int, systems: int, per_run: int
) -> None:
    assert controls_per_run(rate, systems) == per_run


def test_a_rate_below_three_is_refused() -> None:
    with pytest.raises(ValueError, match="rate 2"):
        controls_per_run(2, 10)


@pytest.mark.parametrize("per_run", PER_RUN)
def test_a_runs_controls_are_never_two_in_a_row_nor_last(per_run: int) -> None:
    placement = Placement(7, 3, per_run)
    for systems in (1, 2, 3, 5, 13, 20):
        for sentence in range(200):
            slots = control_slots(placement, sentence, systems)
            length = systems + len(slots)

            assert len(slots) == min(per_run, systems)
            assert list(slots) == sorted(set(slots))
            assert all(b - a >= 2 for a, b in itertools.pairwise(slots))
            assert all(0 <= s < length - 1 for s in slots)
            reals = [candidate_slot(slots, k) for k in range(systems)]
            assert sorted(reals + list(slots)) == list(range(length))


def test_every_arrangement_of_a_runs_controls_is_drawn_as_often() -> None:
    """Two controls among four candidates: the six places with no two in a row and
    none last, each drawn about a sixth of the time over many sentences."""
    placement = Placement(5, 1, 2)
    drawn = Counter(control_slots(placement, sentence, 4) for sentence in range(6000))

    assert set(drawn) == {(0, 2), (0, 3), (0, 4), (1, 3), (1, 4), (2, 4)}
    assert all(900 <= n <= 1100 for n in drawn.values()), drawn


def test_places_are_the_same_for_a_judge_and_differ_between_judges() -> None:
    def places(user_id: int) -> list[tuple[int, ...]]:
        return [control_slots(Placement(user_id, 1, 2), s, 10) for s in range(50)]

    assert places(1) == places(1)
    assert places(1) != places(2)


def spans(systems: list[int], per_run: int, references: int = 2) -> list[Span]:
    return spans_of([(n, references) for n in systems], per_run)


@pytest.mark.parametrize("per_run", PER_RUN)
def test_runs_tile_the_queue_and_end_with_their_last_candidate(per_run: int) -> None:
    placement = Placement(3, 9, per_run)
    sentences = spans([4, 1, 13, 0, 2, 20, 3] * 5, per_run)
    bounds = [run_bounds(placement, s) for s in sentences if s.systems]

    assert bounds[0][0] == 0
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    assert bounds[-1][1] == queue_total(sentences, per_run)
    for span in sentences:
        if not span.systems:
            continue
        start, end = run_bounds(placement, span)
        slots = control_slots(placement, 11, span.systems)
        assert end - start == span.systems + min(per_run, span.systems) == span.systems + len(slots)


@pytest.mark.parametrize("per_run", PER_RUN)
@pytest.mark.parametrize("blind", [True, False])
def test_every_control_place_holds_a_control_that_can_be_made_there(
    per_run: int, blind: bool
) -> None:
    placement = Placement(8, 2, per_run)
    for k, span in enumerate(spans([3, 14, 1, 20, 2] * 6, per_run)):
        order = [f"s{k}-{i}" for i in range(span.systems)]
        references = [f"r{k}-{i}" for i in range(span.references)]
        items = run_items(
            placement, blind=blind, sentence_id=k, span=span, order=order, references=references
        )
        start, end = run_bounds(placement, span)
        slots = control_slots(placement, k, span.systems)

        assert [i.item for i in items] == list(range(start, end))
        assert [i.number for i in items] == list(range(1, end - start + 1))
        assert {i.total for i in items} == {end - start}
        assert sorted(i.label for i in items) == list(range(1, end - start + 1))
        assert [i.target for i in items if not i.kind] == order
        assert [i.number - 1 for i in items if i.kind] == list(slots)
        for item in items:
            if item.kind == Judgment.Control.REFERENCE:
                assert blind
                assert item.target in references[1:]
            elif item.kind:
                assert item.kind == Judgment.Control.DEGRADED
                assert item.target in order
        chosen = [i.target for i in items if i.kind == Judgment.Control.DEGRADED]
        assert len(chosen) == len(set(chosen))  # each candidate once a run
        references_shown = [i for i in items if i.kind == Judgment.Control.REFERENCE]
        assert len(references_shown) <= (1 if blind else 0)


def test_the_same_judge_gets_the_same_run_and_another_judge_another() -> None:
    span = Span(40, 14, 3, 42)
    order, references = list(range(14)), ["a", "b", "c"]

    def run(user_id: int) -> list[tuple[int, str, object, int]]:
        items = run_items(
            Placement(user_id, 1, 2),
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
def test_the_hidden_reference_is_the_one_a_run_shows_and_hidden_in_every_run(
    tmp_path: Path, judge: User
) -> None:
    """Every sentence of a blind corpus with controls on hides the same drawn reference
    from the judge, whether its run shows it as a control or not: a pool one reference
    short in the runs with a reference control only would count them (issue 35)."""
    # one control a run, a reference or a bad one by a fair draw: 16 runs hold both kinds
    # but once in about 30,000 draws
    corpus = queue_corpus(tmp_path, "hidden", [judge], sentences=16, systems=3, rate=100)
    items = walk_queue(corpus, judge)
    shown = {j.target.sentence_id: j.target.text for j in items if j.control == "reference"}

    hidden = {}
    for sentence in corpus.sentences.all():
        references = [
            t.text
            for t in sorted(
                sentence.targets.exclude(translator__role="system").select_related("translator"),
                key=lambda t: reference_order(t.translator.role, t.position),
            )
        ]
        hidden[sentence.pk] = hidden_reference(
            corpus, user_id=judge.pk, sentence_id=sentence.pk, references=references
        )
        assert hidden[sentence.pk] in references[1:]
        if sentence.pk in shown:
            assert hidden[sentence.pk] == shown[sentence.pk]
    assert shown
    assert len(shown) < len(hidden)  # runs without a reference control hide one too


def test_a_sentence_without_candidates_has_no_run_and_a_changed_one_none_read() -> None:
    def items(span: Span, order: list[int]) -> list:
        return run_items(
            Placement(1, 1, 1), blind=True, sentence_id=1, span=span, order=order, references=[]
        )

    assert items(Span(0, 0, 2, 0), []) == []
    assert items(Span(12, 3, 2, 16), [1, 2]) == []
    assert len(items(Span(12, 3, 2, 16), [1, 2, 3])) == 4
