"""Which systems a judge compares on which source sentence, side by side.

Song, Riley, Deutsch & Freitag (2025) judge 2 translations of one source on one screen;
their agreement gain only holds if no pair of systems is favoured by the draw. So a
judge's queue is drawn so that **every pair of systems meets equally often** in it:

- A screen shows ``per_screen`` systems (2 to 4). Every screen of ``k`` systems holds
  ``k(k-1)/2`` pairs; the screen drawn next is, among the system sets the sentence has
  candidates of, one whose pairs have met least so far in this queue (the sum of their
  counts, then the largest, then at random). Over all the ``C(n, k)`` sets of a full
  round each pair meets ``C(n-2, k-2)`` times, the same for every pair; with two
  systems a screen, any prefix of the queue has every pair's count within one of
  every other's.
- Sentences come in a random order, and each screen's systems are shown in a random
  order (left/right swapped at random), so neither position nor time favours a
  system.
- Everything comes from ``numpy.random.default_rng(seed)``: the same seed, the same
  queue; the caller records the seed with the queue.

Pure Python and numpy, no Django: the caller gives the systems each sentence has
candidates of, by any hashable key, and stores the screens as it likes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

import numpy as np

S = TypeVar("S", bound=Hashable)
K = TypeVar("K", bound=Hashable)

#: The fewest and most systems one screen shows.
MIN_PER_SCREEN, MAX_PER_SCREEN = 2, 4


@dataclass(frozen=True)
class Screen(Generic[K, S]):
    """One item of a side-by-side queue: the sentence, and its systems in the order
    shown (left to right); ``swapped``: the shown order is not the sorted one."""

    sentence: K
    systems: tuple[S, ...]
    swapped: bool


def _pairs(systems: Sequence[S]) -> list[tuple[S, S]]:
    return [_pair(a, b) for a, b in combinations(systems, 2)]


def _pair(a: S, b: S) -> tuple[S, S]:
    """A pair as the counts key it, whatever the order shown."""
    return (a, b) if repr(a) <= repr(b) else (b, a)


def draw_screens(
    available: Mapping[K, Sequence[S]], *, per_screen: int, seed: int
) -> list[Screen[K, S]]:
    """One judge's side-by-side queue over the sentences of ``available`` (each with
    the systems it has a candidate of): one screen a sentence, in the order shown, by
    the rule of the module's docstring. A sentence with fewer than ``per_screen``
    systems gets no screen."""
    if not MIN_PER_SCREEN <= per_screen <= MAX_PER_SCREEN:
        raise ValueError(
            f"per_screen must be {MIN_PER_SCREEN} to {MAX_PER_SCREEN}, not {per_screen!r}"
        )
    rng = np.random.default_rng(seed)
    sentences = list(available)
    order = rng.permutation(len(sentences))
    met: Counter[tuple[S, S]] = Counter()
    screens: list[Screen[K, S]] = []
    for index in order:
        sentence = sentences[int(index)]
        systems = sorted(set(available[sentence]), key=repr)
        if len(systems) < per_screen:
            continue
        sets = list(combinations(systems, per_screen))
        keys = [
            (sum(met[p] for p in _pairs(c)), max(met[p] for p in _pairs(c)), float(rng.random()))
            for c in sets
        ]
        chosen = sets[min(range(len(sets)), key=keys.__getitem__)]
        met.update(_pairs(chosen))
        shown_order = rng.permutation(per_screen)
        shown = tuple(chosen[int(k)] for k in shown_order)
        screens.append(Screen(sentence, shown, shown != chosen))
    return screens


def pair_counts(screens: Sequence[Screen[K, S]]) -> Counter[tuple[S, S]]:
    """How often each pair of systems meets in ``screens`` (pairs in sorted order)."""
    met: Counter[tuple[S, S]] = Counter()
    for screen in screens:
        met.update(_pairs(screen.systems))
    return met
