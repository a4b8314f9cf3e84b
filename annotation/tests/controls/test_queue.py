"""Where control items go in a judge's queue (``annotation/controls/queue.py``): one in
every ``rate`` items at seeded random places spread over the whole queue (never clustered
at the end, never two in a row), the same for the same judge, repeats only well after
their originals, references only in blind corpora; and a control is drawn as a candidate
is (``annotation/judging/page.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from annotation.controls.queue import REPEAT_DISTANCE, control_place, is_control_item
from annotation.judging.order import previous_target_for
from annotation.judging.page import judge_header, judging_context
from annotation.judging.start import next_judgment_for
from annotation.models import Judgment, Translator, User
from annotation.tests.controls.factories import queue_corpus, right_answer, walk_queue
from annotation.tests.factories import finish
from annotation.text import words

pytestmark = pytest.mark.django_db

RATE = 10


def control_positions(items: list[Judgment]) -> list[int]:
    return [i for i, j in enumerate(items) if j.control]


def test_each_run_of_rate_items_has_one_control_place_never_two_in_a_row() -> None:
    for rate in (3, 4, 10, 25):
        places = [
            run * rate + control_place(user_id=7, corpus_id=3, rate=rate, run=run)
            for run in range(400)
        ]
        items = [
            i
            for i in range(400 * rate)
            if is_control_item(user_id=7, corpus_id=3, rate=rate, item=i)
        ]

        assert items == places
        assert min(b - a for a, b in zip(places, places[1:], strict=False)) >= 2, rate
        assert {p % rate for p in places} == set(range(rate)), rate  # every place is used


def test_places_are_the_same_for_a_judge_and_differ_between_judges() -> None:
    def places(user_id: int) -> list[int]:
        return [control_place(user_id=user_id, corpus_id=1, rate=RATE, run=r) for r in range(50)]

    assert places(1) == places(1)
    assert places(1) != places(2)


def test_a_rate_below_three_is_refused() -> None:
    with pytest.raises(ValueError, match="rate 2"):
        control_place(user_id=1, corpus_id=1, rate=2, run=0)


def test_controls_are_spread_over_the_whole_queue_not_clustered_at_the_end(
    tmp_path: Path, judge: User
) -> None:
    """90 candidates, one control in every 10 items: about nine controls, from the
    first runs to the last ones, one per run, never two in a row, the last item real."""
    corpus = queue_corpus(tmp_path, "spread", [judge], rate=RATE)

    items = walk_queue(corpus, judge)
    positions = control_positions(items)

    real = [j for j in items if not j.control]
    assert len(real) == 90 and len({j.target_id for j in real}) == 90
    assert 8 <= len(positions) <= 10
    assert len({p // RATE for p in positions}) == len(positions)  # one per run
    assert min(b - a for a, b in zip(positions, positions[1:], strict=False)) >= 2
    assert positions[0] < 2 * RATE and positions[-1] >= len(items) - 2 * RATE
    thirds = {3 * p // len(items) for p in positions}
    assert thirds == {0, 1, 2}
    assert not items[-1].control
    # exactly the places the seeded draw gives this judge (the first may pass: nothing
    # judged yet to make a control of)
    expected = [
        i
        for i in range(len(items))
        if i > 0 and is_control_item(user_id=judge.pk, corpus_id=corpus.pk, rate=RATE, item=i)
    ]
    assert [p for p in positions if p > 0] == expected


def test_another_judge_gets_controls_at_other_places(
    tmp_path: Path, judge: User, user_factory: Callable[..., User]
) -> None:
    other = user_factory("other")
    corpus = queue_corpus(tmp_path, "two", [judge, other], rate=RATE)

    assert control_positions(walk_queue(corpus, judge)) != control_positions(
        walk_queue(corpus, other)
    )


def test_a_candidate_comes_back_only_well_after_it_was_accepted_and_once(
    tmp_path: Path, judge: User
) -> None:
    corpus = queue_corpus(tmp_path, "repeats", [judge], rate=5)

    items = walk_queue(corpus, judge)

    repeats = [i for i, j in enumerate(items) if j.control == Judgment.Control.REPEAT]
    assert repeats
    for at in repeats:
        first = next(
            i for i, j in enumerate(items) if j.target_id == items[at].target_id and not j.control
        )
        judged_between = sum(1 for j in items[first + 1 : at] if not j.control)
        assert judged_between >= REPEAT_DISTANCE
    assert len({items[i].target_id for i in repeats}) == len(repeats)


def test_a_corpus_that_shows_names_gets_repeats_only(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "named", [judge], rate=4, blind=False)

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert kinds == {Judgment.Control.REPEAT}


def test_a_blind_corpus_gets_both_kinds(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "both", [judge], rate=4)

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert kinds == {Judgment.Control.REFERENCE, Judgment.Control.REPEAT}


def test_no_control_while_the_corpus_has_them_off(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "off", [judge], rate=3)
    corpus.controls_enabled = False
    corpus.save()

    items = walk_queue(corpus, judge)

    assert len(items) == 90 and not any(j.control for j in items)


def test_an_open_control_comes_back_until_it_is_accepted(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "open", [judge], rate=3)
    while not (judgment := next_judgment_for(user=judge, corpus=corpus)).control:
        finish(judgment, judge, *right_answer(judgment))

    again = next_judgment_for(user=judge, corpus=corpus)

    assert again is not None and again.pk == judgment.pk


def test_a_reference_control_looks_like_a_candidate(tmp_path: Path, judge: User) -> None:
    """Labelled "System N" with the place of that system in the judge's order, a
    reference of the sentence the judge has got to (not the first reference), which the
    pool leaves out (it would show the candidate itself, 0 edits); the new reference
    starts from the nearest pool entry, so accepting the candidate takes clicks."""
    corpus = queue_corpus(tmp_path, "looks", [judge], rate=3)
    items = walk_queue(corpus, judge)
    control = next(j for j in items if j.control == Judgment.Control.REFERENCE)
    control = Judgment.objects.select_related(
        "target__translator", "target__sentence__corpus", "evaluator", "shown_as"
    ).get(pk=control.pk)

    header = judge_header(control)
    ctx = judging_context(control)

    assert control.target.translator.role == Translator.Role.REFERENCE
    systems = list(corpus.translators.filter(role="system").order_by("position"))
    assert header.translator_label == f"System {systems.index(control.shown_as) + 1}"
    assert 1 <= ctx.order_index <= ctx.order_total == 3
    assert words(control.target.text) not in [p.words for p in ctx.pool]
    assert [p.kind for p in ctx.pool][0] == "first reference"
    reached = max(
        j.target.sentence.position for j in items[: items.index(control)] if not j.control
    )
    assert control.target.sentence.position == reached
    first = Judgment.objects.filter(pk=control.pk).values_list("version", flat=True).get()
    assert first > 1  # it was judged through the services, from a start with edits


def test_a_repeat_control_is_labelled_as_its_candidate_and_starts_afresh(
    tmp_path: Path, judge: User
) -> None:
    corpus = queue_corpus(tmp_path, "again", [judge], rate=3)
    items = walk_queue(corpus, judge, answer=lambda j: ("my own words .", 7))
    control = next(j for j in items if j.control == Judgment.Control.REPEAT)
    original = Judgment.objects.real().get(target=control.target, evaluator=judge)
    first_event = control.events.filter(kind="edit_ref").values_list("before", flat=True).first()

    ctx = judging_context(control)

    assert first_event is not None and first_event["new_ref"] != original.new_ref
    assert first_event["sser"] is None
    assert judge_header(control).translator_label == judge_header(original).translator_label
    assert ctx.order_index == judging_context(original).order_index


def test_previous_from_a_control_goes_to_the_candidate_reached_before_it(
    tmp_path: Path, judge: User
) -> None:
    corpus = queue_corpus(tmp_path, "back", [judge], rate=3)
    items = walk_queue(corpus, judge)
    at = next(i for i, j in enumerate(items) if j.control and i > 0)
    before = next(j for j in reversed(items[:at]) if not j.control)

    assert previous_target_for(judgment=items[at]) == before.target
