"""Levenshtein distances of many pairs at once (``metrics.align.levenshtein``, numpy):
equal to the textbook distance, with shared candidates, long references and unknown
tokens."""

from __future__ import annotations

import random

import numpy as np
import pytest

from metrics.align import distance, levenshtein
from metrics.encode import Lines


def _random_lines(rng: random.Random, count: int, vocab: int, longest: int) -> list[list[int]]:
    return [[rng.randrange(vocab) for _ in range(rng.randint(0, longest))] for _ in range(count)]


@pytest.mark.parametrize("seed", range(4))
def test_levenshtein_of_many_pairs_equals_the_textbook(seed: int) -> None:
    """Groups of references (2–4 per group, up to 200 tokens: up to four words per lane),
    candidates compared with every reference of their group, tokens unknown to the group
    (-1 and ids no reference of the group has)."""
    rng = random.Random(seed)
    groups = 40
    refs: list[list[int]] = []
    ref_group: list[int] = []
    hyps: list[list[int]] = []
    hyp_group: list[int] = []
    for g in range(groups):
        size = rng.choice([2, 5, 30])
        longest = rng.choice([3, 20, 70, 200])
        for ref in _random_lines(rng, rng.randint(2, 4), size, longest):
            refs.append(ref)
            ref_group.append(g)
        for hyp in _random_lines(rng, rng.randint(1, 4), size + 2, longest):
            hyps.append([t if t < size + 1 else -1 for t in hyp])
            hyp_group.append(g)
    pairs = [(h, r) for h, gh in enumerate(hyp_group) for r, gr in enumerate(ref_group) if gh == gr]
    got = levenshtein(
        Lines.from_lists(hyps),
        Lines.from_lists(refs),
        np.array([h for h, _ in pairs], dtype=np.int64),
        np.array([r for _, r in pairs], dtype=np.int64),
        np.array(hyp_group, dtype=np.int64),
        np.array(ref_group, dtype=np.int64),
    )
    want = [distance([t if t >= 0 else None for t in hyps[h]], refs[r]) for h, r in pairs]
    assert got.tolist() == want
