"""Where control items go in a judge's queue (``annotation/controls/queue.py``, ``runs.py``):
the same number in every sentence's run, at seeded random places (never two in a row,
never a run's last), the same for the same judge; each made of the sentence the judge is
at and shown in its run; references only in blind corpora, no candidate shown again; and
a control is drawn as a candidate is (``annotation/judging/page.py``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client

from annotation.controls.runs import Placement, control_slots, controls_per_run
from annotation.judging.header import judge_header
from annotation.judging.order import previous_target_for
from annotation.judging.page import judging_context
from annotation.judging.start import next_judgment_for
from annotation.models import Judgment, Target, Translator, User
from annotation.tests.controls.factories import (
    DRAWN_KINDS,
    queue_corpus,
    right_answer,
    walk_queue,
    with_every_kind,
)
from annotation.tests.factories import finish
from annotation.text import words

pytestmark = pytest.mark.django_db


def control_positions(items: list[Judgment]) -> list[int]:
    return [i for i, j in enumerate(items) if j.control]


def runs_of(items: list[Judgment]) -> list[list[Judgment]]:
    """The judge's items cut where the source changes: the runs the judge sees."""
    return [list(run) for _, run in itertools.groupby(items, key=lambda j: j.target.sentence_id)]


@pytest.mark.parametrize("rate, systems", [(10, 3), (3, 3), (4, 9), (10, 13)])
def test_every_run_the_judge_sees_holds_as_many_controls(
    tmp_path: Path, judge: User, rate: int, systems: int
) -> None:
    """The judge sees which items share a source: every run is its candidates and the
    same number of controls (issue 35: runs of 13, 14 and 15 items gave them away), at
    the places the judge's seeded draw gives, never two in a row, never last."""
    corpus = queue_corpus(tmp_path, "alike", [judge], sentences=12, systems=systems, rate=rate)
    per_run = controls_per_run(rate, systems)

    items = walk_queue(corpus, judge)

    runs = runs_of(items)
    assert len(runs) == 12
    assert {len(run) for run in runs} == {systems + per_run}
    for run in runs:
        places = tuple(k for k, j in enumerate(run) if j.control)
        sentence = run[0].target.sentence_id
        assert places == control_slots(Placement.of(corpus, judge.pk), sentence, systems)
        assert not run[-1].control
    assert len({j.target_id for j in items if not j.control}) == 12 * systems
    assert min(b - a for a, b in itertools.pairwise(control_positions(items))) >= 2


def test_another_judge_gets_controls_at_other_places(
    tmp_path: Path, judge: User, user_factory: Callable[..., User]
) -> None:
    other = user_factory("other")
    corpus = queue_corpus(tmp_path, "two", [judge, other], sentences=8, systems=6, rate=4)

    assert control_positions(walk_queue(corpus, judge)) != control_positions(
        walk_queue(corpus, other)
    )


def test_every_control_is_made_of_the_sentence_of_its_run(tmp_path: Path, judge: User) -> None:
    """A control stands between candidates of one sentence (or before the first of
    one): the candidate after it has its sentence, and so has the one before it unless
    the control opens the run."""
    corpus = queue_corpus(tmp_path, "runs", [judge], sentences=8, systems=4, rate=3)

    items = walk_queue(corpus, judge)

    assert sum(1 for j in items if j.control) == 16
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
    assert [run[0].target.sentence_id for run in runs_of(items)] == queue
    for at in control_positions(items):
        assert items[at].target.sentence_id == items[at + 1].target.sentence_id


def test_no_candidate_is_shown_again_as_a_control(tmp_path: Path, judge: User) -> None:
    """A repeat is no longer drawn (annotation.controls.runs says why): with many
    systems and many controls, every control is a reference or a bad reference."""
    corpus = queue_corpus(tmp_path, "no-repeats", [judge], sentences=3, systems=14, rate=3)

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert kinds == set(DRAWN_KINDS)


def test_a_corpus_that_shows_names_gets_no_reference_control(tmp_path: Path, judge: User) -> None:
    corpus = with_every_kind(
        queue_corpus(tmp_path, "named", [judge], sentences=4, systems=14, blind=False), judge
    )

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert kinds == {Judgment.Control.DEGRADED}


def test_a_blind_corpus_gets_both_kinds(tmp_path: Path, judge: User) -> None:
    corpus = with_every_kind(queue_corpus(tmp_path, "all", [judge], sentences=4, systems=14), judge)

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert kinds == {Judgment.Control.REFERENCE, Judgment.Control.DEGRADED}


def test_a_sentence_with_one_reference_gets_no_reference_control(
    tmp_path: Path, judge: User
) -> None:
    corpus = queue_corpus(tmp_path, "one", [judge], sentences=6, systems=6, rate=3, references=1)

    kinds = {j.control for j in walk_queue(corpus, judge) if j.control}

    assert Judgment.Control.REFERENCE not in kinds
    assert Judgment.Control.DEGRADED in kinds


def test_no_control_while_the_corpus_has_them_off(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "off", [judge], sentences=8, rate=3)
    corpus.controls_enabled = False
    corpus.save()

    items = walk_queue(corpus, judge)

    assert len(items) == 24
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
    """A reference of the sentence, never its first one, hidden from the pool's
    references on every item of that sentence for this judge (so the control's list
    counts as its neighbours'); "candidate k of N" counts the run with the control, each
    k once, and the labels of the run are N distinct "System L"; the new reference starts
    from the nearest pool entry, so accepting the candidate takes clicks. Once accepted,
    its new reference joins the judge's pool as a real candidate's does."""
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
    for judgment, ctx in zip(run, contexts, strict=True):
        references = [p.words for p in ctx.pool if p.kind != "new reference"]
        assert words(control.target.text) not in references
        assert [p.kind for p in ctx.pool][0] == "first reference"
        assert len(references) == 1
        new_refs = [p.words for p in ctx.pool if p.kind == "new reference"]
        assert (words(control.target.text) in new_refs) == (judgment.pk != control.pk)
    # every item up to the control started from a reference the judge could see
    for judgment in run[: run.index(control) + 1]:
        edit = judgment.events.filter(kind="edit_ref").values_list("before", flat=True).first()
        started = judgment.new_ref if edit is None else edit["new_ref"]  # None: kept as is
        assert words(started) != words(control.target.text)
    first = Judgment.objects.filter(pk=control.pk).values_list("version", flat=True).get()
    assert first > 1  # it was judged through the services, from a start with edits


def test_previous_from_a_control_goes_to_the_candidate_reached_before_it(
    tmp_path: Path, judge: User
) -> None:
    corpus = queue_corpus(tmp_path, "back", [judge], sentences=4, rate=3)
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
