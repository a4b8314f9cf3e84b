"""Adaptive dealing (issue 43, point 1): after a warm-up of batches in the random dealing
order, each round's batches are drawn with recorded chances that favour the pairs still
open; every batch not drawn yet keeps a chance, and a judge is dealt drawn batches only."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from annotation.adaptive.rounds import draw_round
from annotation.campaigns.dealing import deal_next
from annotation.models import Corpus, DealingRound, Task, User
from annotation.tests.adaptive.helpers import adaptive_corpus, judge_task
from annotation.tests.stored import automatic_statistics
from metrics.simulate import SEGMENT_FLOOR

pytestmark = pytest.mark.django_db


def test_a_campaign_deals_as_before_unless_the_lead_turns_adaptive_dealing_on(
    user_factory: Callable[..., User],
) -> None:
    ann = user_factory("ann")
    campaign, corpus = adaptive_corpus("plain", [5] * 8, systems=3, judges=[ann], adaptive=False)

    assert not campaign.adaptive
    assert not Task.objects.filter(corpus=corpus, round__isnull=False).exists()
    assert not DealingRound.objects.filter(corpus=corpus).exists()
    first = deal_next(user=ann, campaign=campaign)
    assert first is not None
    assert first.order == 0


def test_the_warm_up_is_the_first_share_of_batches_in_dealing_order_with_its_chance(
    user_factory: Callable[..., User],
) -> None:
    ann = user_factory("ann")
    campaign, corpus = adaptive_corpus("warm", [5] * 8, systems=3, judges=[ann])

    tasks = list(Task.objects.filter(corpus=corpus).order_by("order"))
    warm = [t for t in tasks if t.round == 0]
    assert [t.order for t in warm] == [0, 1]  # 25 % of 8 batches, first in dealing order
    assert {t.probability for t in warm} == {2 / 8}
    assert all(t.round is None and t.probability is None for t in tasks[2:])
    (row,) = DealingRound.objects.filter(corpus=corpus)
    assert row.number == 0
    assert set(row.probabilities.values()) == {0.25}
    assert len(row.probabilities) == 8


def test_after_the_warm_up_each_round_records_a_chance_for_every_batch_left(
    user_factory: Callable[..., User],
) -> None:
    judges = [user_factory(f"judge{k}") for k in range(3)]
    campaign, corpus = adaptive_corpus("rounds", [5] * 16, systems=4, judges=judges)
    dealt_before: set[int] = set()

    for k in range(8):
        task = deal_next(user=judges[k % 3], campaign=campaign)
        assert task is not None
        assert task.round is not None  # only drawn batches are dealt
        judge_task(task, judges[k % 3])
        dealt_before.add(task.batch)

    rounds = list(DealingRound.objects.filter(corpus=corpus).order_by("number"))
    assert len(rounds) >= 2
    for row in rounds[1:]:
        chances = {int(b): p for b, p in row.probabilities.items()}
        drawn = Task.objects.filter(corpus=corpus, round=row.number)
        assert all(0.0 < p <= 1.0 for p in chances.values())
        # the policy's floor: no batch below a share of the average chance
        mean = sum(chances.values()) / len(chances)
        assert min(chances.values()) >= SEGMENT_FLOOR * mean * 0.5
        for task in drawn:
            assert task.probability == pytest.approx(chances[task.batch])
    earlier = set()
    for row in rounds:
        assert not earlier & {int(b) for b in row.probabilities}  # a batch is drawn once
        earlier |= set(
            Task.objects.filter(corpus=corpus, round=row.number).values_list("batch", flat=True)
        )


def test_the_recorded_chances_are_the_chances_batches_are_drawn_with(
    user_factory: Callable[..., User],
) -> None:
    """The same round drawn 300 times from the same judgments (the corpus renamed each
    time: the draw's seed): each batch is drawn as often as its recorded chance says,
    within four standard errors, and the chances themselves do not move."""
    ann = user_factory("ann")
    campaign, corpus = adaptive_corpus("known", [4] * 24, systems=3, judges=[ann])
    automatic_statistics(corpus)  # the covariates the policy reads
    for _ in range(6):
        judge_task(deal_next(user=ann, campaign=campaign), ann, spread=0.2)
    drawn_before = Task.objects.filter(corpus=corpus, round__isnull=False)
    assert drawn_before.count() == 6
    counts: dict[int, int] = {}
    chances: dict[int, float] = {}
    repetitions = 300
    for k in range(repetitions):
        Task.objects.filter(corpus=corpus, round__gte=1).update(round=None, probability=None)
        DealingRound.objects.filter(corpus=corpus, number__gte=1).delete()
        Corpus.objects.filter(pk=corpus.pk).update(name=f"known {k}")
        corpus.refresh_from_db()
        draw_round(corpus, campaign)
        row = DealingRound.objects.get(corpus=corpus, number=1)
        recorded = {int(b): p for b, p in row.probabilities.items()}
        assert chances in ({}, recorded)
        chances = recorded
        for task in Task.objects.filter(corpus=corpus, round=1):
            assert task.probability == chances[task.batch]
            counts[task.batch] = counts.get(task.batch, 0) + 1
    assert len(set(chances.values())) > 1  # the policy favours some batches
    for batch, p in chances.items():
        share = counts.get(batch, 0) / repetitions
        assert abs(share - p) <= 4 * math.sqrt(p * (1 - p) / repetitions) + 1e-9, batch


def test_with_two_annotators_per_item_both_copies_of_a_batch_share_its_round_and_chance(
    user_factory: Callable[..., User],
) -> None:
    """Adaptive dealing on top of the campaign's redundancy: a round draws a batch with
    both its copies (each dealt to a different annotator), with one chance."""
    judges = [user_factory(f"judge{k}") for k in range(4)]
    campaign, corpus = adaptive_corpus(
        "twice", [4] * 12, systems=3, judges=judges, judges_per_item=2
    )
    for k in range(10):
        task = deal_next(user=judges[k % 4], campaign=campaign)
        assert task is not None
        judge_task(task, judges[k % 4])

    assert DealingRound.objects.filter(corpus=corpus).count() >= 2
    copies: dict[int, set[tuple[int | None, float | None]]] = {}
    holders: dict[int, set[int | None]] = {}
    for task in Task.objects.filter(corpus=corpus, batch__isnull=False):
        copies.setdefault(task.batch or 0, set()).add((task.round, task.probability))
        if task.assignee_id is not None:
            holders.setdefault(task.batch or 0, set()).add(task.assignee_id)
    assert all(len(kinds) == 1 for kinds in copies.values())  # the copies agree
    drawn_in = {next(iter(kinds))[0] for kinds in copies.values()}
    assert any(r is not None and r > 0 for r in drawn_in)  # some batch a round drew
    counts = Task.objects.filter(corpus=corpus, batch__isnull=False, assignee__isnull=False)
    for batch, people in holders.items():
        assert len(people) == counts.filter(batch=batch).count()  # never one judge twice
