"""The side-by-side draw (issue 42, point 1): every pair of systems meets equally often
in a judge's queue, in a random order, left and right swapped at random, from a seed."""

from __future__ import annotations

from itertools import combinations

import pytest

from metrics.pairing import draw_screens, pair_counts

FIVE = ["a", "b", "c", "d", "e"]


def every_sentence(n: int, systems: list[str] = FIVE) -> dict[int, list[str]]:
    return {s: list(systems) for s in range(n)}


@pytest.mark.parametrize("seed", [0, 1, 42])
def test_two_systems_a_screen_meet_equally_often_over_full_rounds(seed: int) -> None:
    screens = draw_screens(every_sentence(30), per_screen=2, seed=seed)  # 3 rounds of 10 pairs
    counts = pair_counts(screens)
    assert set(counts) == set(combinations(FIVE, 2))
    assert set(counts.values()) == {3}


@pytest.mark.parametrize("n", range(1, 24))
def test_any_queue_of_pairs_keeps_every_pair_within_one_meeting(n: int) -> None:
    counts = pair_counts(draw_screens(every_sentence(n), per_screen=2, seed=7))
    values = [counts.get(p, 0) for p in combinations(FIVE, 2)]
    assert max(values) - min(values) <= 1


@pytest.mark.parametrize("per_screen, rounds", [(3, 2), (4, 3)])
def test_three_or_four_systems_a_screen_meet_equally_often(per_screen: int, rounds: int) -> None:
    sets = len(list(combinations(FIVE, per_screen)))
    counts = pair_counts(draw_screens(every_sentence(sets * rounds), per_screen=per_screen, seed=3))
    assert len(set(counts.values())) == 1


def test_each_sentence_once_in_a_random_order_and_left_right_swapped_at_random() -> None:
    screens = draw_screens(every_sentence(200), per_screen=2, seed=11)
    assert sorted(s.sentence for s in screens) == list(range(200))
    assert [s.sentence for s in screens] != list(range(200))
    swapped = sum(s.swapped for s in screens)
    assert 60 < swapped < 140
    assert all(s.swapped == (list(s.systems) != sorted(s.systems)) for s in screens)
    lefts = {name: sum(s.systems[0] == name for s in screens) for name in FIVE}
    assert all(20 < n < 60 for n in lefts.values())


def test_the_same_seed_gives_the_same_queue_and_another_seed_another() -> None:
    one = draw_screens(every_sentence(20), per_screen=2, seed=5)
    assert draw_screens(every_sentence(20), per_screen=2, seed=5) == one
    assert draw_screens(every_sentence(20), per_screen=2, seed=6) != one


def test_only_systems_with_a_candidate_are_drawn_and_short_sentences_are_left_out() -> None:
    available = {0: ["a", "b", "c"], 1: ["a"], 2: ["b", "c"]}
    screens = draw_screens(available, per_screen=2, seed=1)
    assert {s.sentence for s in screens} == {0, 2}
    assert all(set(s.systems) <= set(available[s.sentence]) for s in screens)


@pytest.mark.parametrize("per_screen", [1, 5])
def test_a_screen_shows_two_to_four_systems(per_screen: int) -> None:
    with pytest.raises(ValueError, match=f"not {per_screen}"):
        draw_screens(every_sentence(3), per_screen=per_screen, seed=0)
