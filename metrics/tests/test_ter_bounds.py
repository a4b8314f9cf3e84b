"""TER's lower bounds (:mod:`metrics.ter_bounds`): the LCS against a plain dynamic
programme (short, 64-word and long references), the least over shifts against a brute
force, and the bounds never above the edits the search finds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from metrics.ter import ter_edits
from metrics.ter_bounds import edit_bounds, lcs_lengths, order_bound, segment_table
from metrics.ter_search import MAX_SHIFT_SIZE


def plain_lcs(a: list[int], b: list[int]) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        prev_diag = 0
        for j, y in enumerate(b, 1):
            keep = row[j]
            row[j] = prev_diag + 1 if x == y else max(row[j], row[j - 1])
            prev_diag = keep
    return row[-1]


def edited(rng: random.Random, words: list[int], vocab: int) -> list[int]:
    """A near-copy: deletions, insertions, substitutions and moved blocks."""
    w = list(words)
    for _ in range(rng.randint(0, 8)):
        op = rng.random()
        if op < 0.2 and w:
            w.pop(rng.randrange(len(w)))
        elif op < 0.4:
            w.insert(rng.randint(0, len(w)), rng.randrange(vocab))
        elif op < 0.8 and len(w) > 3:
            i, n = rng.randrange(len(w) - 2), rng.randint(1, 12)
            block = w[i : i + n]
            del w[i : i + n]
            j = rng.randint(0, len(w))
            w[j:j] = block
        elif w:
            w[rng.randrange(len(w))] = rng.randrange(vocab)
    return w


def segment(rng: random.Random, length: int, vocab: int) -> tuple[list[int], list[list[int]]]:
    base = [rng.randrange(vocab) for _ in range(length)]
    refs = [edited(rng, base, vocab) for _ in range(rng.randint(1, 8))]
    refs += [list(r) for r in refs if rng.random() < 0.2]  # duplicated references
    if rng.random() < 0.1:
        refs.append([])
    hyp = [] if rng.random() < 0.05 else edited(rng, base, vocab + 2)  # words no ref has
    return hyp, refs


@pytest.mark.parametrize("length", [0, 5, 30, 63, 64, 65, 90])
def test_lcs_lengths_equal_the_dynamic_programme(length: int) -> None:
    rng = random.Random(length)
    for _ in range(40):
        hyp, refs = segment(rng, length, rng.choice([3, 10, 40]))
        refs.append([rng.randrange(5) for _ in range(64)])  # exactly one uint64
        table = segment_table(refs)
        cols = [table.column.get(w, -1) for w in hyp]

        assert lcs_lengths(cols, table).tolist() == [plain_lcs(hyp, r) for r in refs]


def test_order_bound_is_the_least_over_every_number_of_shifts() -> None:
    rng = random.Random(1)
    for _ in range(3000):
        size = rng.randint(0, 80)
        common = rng.randint(0, size)
        lcs = rng.randint(0, common)
        brute = min(s + size - min(common, lcs + MAX_SHIFT_SIZE * s) for s in range(size + 2))
        assert int(order_bound(size, common, lcs)) == brute
        assert brute >= size - common  # never below the bag bound


@pytest.mark.parametrize("length, vocab", [(4, 3), (12, 5), (25, 30), (40, 8), (70, 12)])
def test_bounds_never_exceed_the_edits_and_beat_the_bag_bound(length: int, vocab: int) -> None:
    rng = random.Random(length * vocab)
    tighter = 0
    for _ in range(12):
        hyp, refs = segment(rng, length, vocab)
        bounds = edit_bounds(hyp, segment_table(refs)).tolist()
        for ref, bound in zip(refs, bounds, strict=True):
            common = sum(min(hyp.count(w), ref.count(w)) for w in set(ref))
            bag = max(len(hyp), len(ref)) - common
            assert bag <= bound <= ter_edits(hyp, ref)
            tighter += bound > bag
    assert tighter > 0 or length < 10


def test_a_table_of_empty_references_bounds_by_the_candidate_length() -> None:
    table = segment_table([[], []])

    assert edit_bounds([3, 4, 5], table).tolist() == [3, 3]
    assert edit_bounds([], table).tolist() == [0, 0]
    assert np.asarray(lcs_lengths([-1], table)).tolist() == [0, 0]
