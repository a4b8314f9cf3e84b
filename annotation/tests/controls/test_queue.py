"""Where control items go in a judge's queue (``annotation/controls/queue.py``, ``runs.py``):
one in every ``rate`` items at seeded random places spread over the whole queue (never
clustered at the end, never two in a row), the same for the same judge; each made of the
sentence the judge is at and shown in its run; repeats only well after their originals,
references only in blind corpora; and a control is drawn as a candidate is
(``annotation/judging/page.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client

from annotation.controls.queue import REPEAT_DISTANCE, control_place, is_control_item
from annotation.judging.header import judge_header
from annotation.judging.order import previous_target_for
from annotation.judging.page import judging_context
from annotation.judging.start import next_judgment_for
from annotation.models import Judgment, Target, Translator, User
from annotation.tests.controls.factories import (
    queue_corpus,
    right_answer,
    walk_queue,
    with_every_kind,
)
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
    assert len(real) == 90
    assert len({j.target_id for j in real}) == 90
    assert 8 <= len(positions) <= 10
    assert len({p // RATE for p in positions}) == len(positions)  # one per run
    assert min(b - a for a, b in zip(positions, positions[1:], strict=False)) >= 2
    assert positions[0] < 2 * RATE
    assert positions[-1] >= len(items) - 2 * RATE
    thirds = {3 * p // len(items) for p in positions}
    assert thirds == {0, 1, 2}
    assert not items[-1].control
    # exactly the places the seeded draw gives this judge: every place holds a control
    expected = [
        i
        for i in range(len(items))
        if is_control_item(user_id=judge.pk, corpus_id=corpus.pk, rate=RATE, item=i)
    ]
    assert positions == expected


def test_another_judge_gets_controls_at_other_places(
    tmp_path: Path, judge: User, user_factory: Callable[..., User]
) -> None:
    other = user_factory("other")
    corpus = queue_corpus(tmp_path, "two", [judge, other], rate=RATE)

    assert control_positions(walk_queue(corpus, judge)) != control_positions(
        walk_queue(corpus, other)
    )


def test_every_control_is_made_of_the_sentence_of_its_run(tmp_path: Path, judge: User) -> None:
    """A control stands between candidates of one sentence (or before the first of
    one): the candidate after it has its sentence, and so has the one before it unless
    the control opens the run."""
    corpus = queue_corpus(tmp_path, "runs", [judge], sentences=8, systems=4, rate=3)

    items = walk_queue(corpus, judge)

    assert sum(1 for j in items if j.control) >= 8
    for at, control in enumerate(items):
        if control.control:
            after = items[at + 1]
            assert not after.control
            assert control.target.sentence_id == after.target.sentence_id


def test_controls_keep_their_places_in_a_queue_of_documents(tmp_path: Path, judge: User) -> None:
    """The candidates come in the queue's stratified order (annotation.judging.order),
    and the controls stand where the judge's seeded places put them, each made of the
    sentence whose candidates follow it."""
    docs = ["a"] * 4 + ["b"] * 2 + [None] * 2
    corpus = queue_corpus(tmp_path, "documents", [judge], sentences=8, systems=3, docs=docs)

    items = walk_queue(corpus, judge)

    real = [j for j in items if not j.control]
    queue = list(corpus.sentences.order_by("queue_position").values_list("pk", flat=True))
    assert [j.target.sentence_id for j in real[::3]] == queue
    assert queue != list(corpus.sentences.order_by("position").values_list("pk", flat=True))
    assert len(control_positions(items)) >= 2
    assert control_positions(items) == [
        i
        for i in range(len(items))
        if is_control_item(user_id=judge.pk, corpus_id=corpus.pk, rate=RATE, item=i)
    ]
    for at in control_positions(items):
        assert items[at].target.sentence_id == items[at + 1].target.sentence_id


def test_a_candidate_comes_back_only_well_after_it_was_accepted_and_once(
    tmp_path: Path, judge: User
) -> None:
    corpus = with_every_kind(
        queue_corpus(tmp_path, "repeats", [judge], sentences=4, systems=14), judge
    )

    items = walk_queue(corpus, judge)

    repeats = [i for i, j in enumerate(items) if j.control == Judgment.Control.REPEAT]
    assert repeats
    for at in repeats:
        first = next(
            i for i, j in enumerate(items) if j.target_id == items[at].target_id and not j.control
        )
        judged_between = sum(1 for j in items[first + 1 : at] if not j.control)
        assert judged_between >= REPEAT_DISTANCE
        assert items[first].target.sentence_id == items[at + 1].target.sentence_id
    assert len({items[i].target_id for i in repeats}) == len(repeats)


def test_a_corpus_that_shows_names_gets_no_reference_control(tmp_path: Path, judge: User) -> None:
    corpus = with_every_kind(
        queue_corpus(tmp_path, "named", [judge], sentences=4, systems=14, blind=False), judge
    )

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert kinds == {Judgment.Control.REPEAT, Judgment.Control.DEGRADED}


def test_a_blind_corpus_gets_the_three_kinds(tmp_path: Path, judge: User) -> None:
    corpus = with_every_kind(queue_corpus(tmp_path, "all", [judge], sentences=4, systems=14), judge)

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert kinds == {
        Judgment.Control.REFERENCE,
        Judgment.Control.REPEAT,
        Judgment.Control.DEGRADED,
    }


def test_a_sentence_with_one_reference_gets_no_reference_control(
    tmp_path: Path, judge: User
) -> None:
    corpus = queue_corpus(tmp_path, "one", [judge], sentences=6, systems=6, rate=3, references=1)

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert Judgment.Control.REFERENCE not in kinds
    assert Judgment.Control.DEGRADED in kinds


def test_no_control_while_the_corpus_has_them_off(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "off", [judge], rate=3)
    corpus.controls_enabled = False
    corpus.save()

    items = walk_queue(corpus, judge)

    assert len(items) == 90
    assert not any(j.control for j in items)


def test_an_open_control_comes_back_until_it_is_accepted(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "open", [judge], rate=3)
    while not (judgment := next_judgment_for(user=judge, corpus=corpus)).control:
        finish(judgment, judge, *right_answer(judgment))

    again = next_judgment_for(user=judge, corpus=corpus)

    assert again is not None
    assert again.pk == judgment.pk


def opened(judgment: Judgment) -> Judgment:
    """``judgment`` as the judge's page loads it."""
    return Judgment.objects.select_related(
        "target__translator", "target__sentence__corpus", "evaluator", "shown_as"
    ).get(pk=judgment.pk)


def test_a_reference_control_looks_like_a_candidate(tmp_path: Path, judge: User) -> None:
    """A reference of the sentence, never its first one, hidden from the pool of every
    item of that sentence for this judge (so the control's list counts as its
    neighbours'); "candidate k of N" counts the run with the control, each k once, and
    the labels of the run are N distinct "System L"; the new reference starts from the
    nearest pool entry, so accepting the candidate takes clicks."""
    corpus = with_every_kind(
        queue_corpus(tmp_path, "looks", [judge], sentences=6, systems=5),
        judge,
        {Judgment.Control.REFERENCE},
    )
    items = walk_queue(corpus, judge)
    control = opened(next(j for j in items if j.control == Judgment.Control.REFERENCE))
    run = [opened(j) for j in items if j.target.sentence_id == control.target.sentence_id]

    contexts = [judging_context(j) for j in run]
    headers = [judge_header(j, c.run_item) for j, c in zip(run, contexts, strict=True)]

    assert control.target.translator.role == Translator.Role.REFERENCE
    assert [c.order_index for c in contexts] == list(range(1, len(run) + 1))
    assert {c.order_total for c in contexts} == {len(run)}
    assert len(run) > 5
    labels = [h.translator_label for h in headers]
    assert sorted(labels) == sorted(f"System {k}" for k in range(1, len(run) + 1))
    for ctx in contexts:
        assert words(control.target.text) not in [p.words for p in ctx.pool]
        assert [p.kind for p in ctx.pool][0] == "first reference"
        assert len([p for p in ctx.pool if p.kind != "new reference"]) == 1
    for judgment in run:  # every item started from a reference the judge could see
        edit = judgment.events.filter(kind="edit_ref").values_list("before", flat=True).first()
        started = judgment.new_ref if edit is None else edit["new_ref"]  # None: kept as is
        assert words(started) != words(control.target.text)
    first = Judgment.objects.filter(pk=control.pk).values_list("version", flat=True).get()
    assert first > 1  # it was judged through the services, from a start with edits


def test_a_repeat_control_starts_afresh_in_its_own_slot(tmp_path: Path, judge: User) -> None:
    corpus = with_every_kind(
        queue_corpus(tmp_path, "again", [judge], sentences=2, systems=14), judge
    )
    items = walk_queue(corpus, judge, answer=lambda j: ("my own words .", 7))
    control = opened(next(j for j in items if j.control == Judgment.Control.REPEAT))
    original = opened(Judgment.objects.real().get(target=control.target, evaluator=judge))
    first_event = control.events.filter(kind="edit_ref").values_list("before", flat=True).first()

    ctx, first_ctx = judging_context(control), judging_context(original)

    assert first_event is not None
    assert first_event["new_ref"] != original.new_ref
    assert first_event["sser"] is None
    assert ctx.order_index > first_ctx.order_index + REPEAT_DISTANCE
    assert ctx.order_total == first_ctx.order_total
    assert (
        judge_header(control, ctx.run_item).translator_label
        != judge_header(original, first_ctx.run_item).translator_label
    )


def test_previous_from_a_control_goes_to_the_candidate_reached_before_it(
    tmp_path: Path, judge: User
) -> None:
    corpus = queue_corpus(tmp_path, "back", [judge], rate=3)
    items = walk_queue(corpus, judge)
    at = next(i for i, j in enumerate(items) if j.control and i > 0)
    before = next(j for j in reversed(items[:at]) if not j.control)

    assert previous_target_for(judgment=items[at]) == before.target


def test_a_bad_reference_shows_its_own_text_which_stays_on_the_judgment(
    tmp_path: Path, judge: User
) -> None:
    """The candidate with injected errors is drawn and counted from the judgment's own
    text; its target keeps its text, and no pool ever offers it (a control's new
    reference is not counted)."""
    corpus = with_every_kind(
        queue_corpus(tmp_path, "bad", [judge], sentences=6, systems=4),
        judge,
        {Judgment.Control.DEGRADED},
    )
    texts = dict(Target.objects.filter(sentence__corpus=corpus).values_list("pk", "text"))
    items = walk_queue(corpus, judge)
    control = opened(next(j for j in items if j.control == Judgment.Control.DEGRADED))

    ctx = judging_context(control)

    assert control.shown_text
    assert words(control.shown_text) != words(control.target.text)
    assert ctx.candidate == words(control.shown_text)
    assert control.edits == sum(1 for o in ctx.alignment.ops if o.op.value != "match")
    assert dict(Target.objects.filter(sentence__corpus=corpus).values_list("pk", "text")) == texts
    later = [opened(j) for j in items if j.target.sentence_id == control.target.sentence_id]
    # The injected words may happen to say another system's candidate (a "3" from another
    # sentence makes "system 2 says …" system 3's), whose new reference a pool offers.
    said = {words(text) for text in texts.values()}
    for j in later:
        assert words(control.shown_text) not in {p.words for p in judging_context(j).pool} - said


def test_previous_from_the_candidate_after_a_control_goes_to_the_control(
    tmp_path: Path, judge: User, judge_client: Client
) -> None:
    """ "Previous" walks back the run as "candidate k of N" counts it: from the candidate
    right after a control to that control, then to the candidate before it."""
    corpus = queue_corpus(tmp_path, "back2", [judge], sentences=4, systems=4, rate=3)
    items = walk_queue(corpus, judge)
    at = next(i for i, j in enumerate(items) if j.control and i > 0 and not items[i - 1].control)

    def previous(judgment: Judgment) -> int:
        response = judge_client.get(f"/judgments/{judgment.pk}/previous/")
        return int(response["Location"].rstrip("/").rsplit("/", 1)[1])

    assert previous(items[at + 1]) == items[at].pk
    assert previous(items[at]) == items[at - 1].pk
