"""The WER family's rules applied to many segments at once (``metrics/wer.py``): equal to
the plain rules they vectorise, to the last bit."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from metrics.encode import Lines
from metrics.wer import (
    REF_LENGTH_METHODS,
    SegmentPairs,
    per_commons,
    per_distance,
    reduce_distances,
    reduce_references,
)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal shapes and equal bytes: equal to the last bit."""
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _random_lines(rng: random.Random, count: int, vocab: int, longest: int) -> list[list[int]]:
    return [[rng.randrange(vocab) for _ in range(rng.randint(0, longest))] for _ in range(count)]


@pytest.mark.parametrize("seed", range(3))
def test_vectorised_reference_length_rules_equal_the_plain_rule(seed: int) -> None:
    rng = random.Random(seed)
    segments = [
        ([rng.randint(0, 6) for _ in range(n)], [rng.randint(0, 8) for _ in range(n)])
        for n in (rng.randint(1, 4) for _ in range(300))
    ]
    hyp_lengths = np.array([rng.randint(0, 9) for _ in segments], dtype=np.int64)
    n_refs = np.array([len(d) for d, _ in segments], dtype=np.int64)
    seg_start = np.concatenate([[0], np.cumsum(n_refs)]).astype(np.int64)
    pairs = SegmentPairs.of(np.arange(len(segments), dtype=np.int64), seg_start)
    flat_d = np.array([x for d, _ in segments for x in d], dtype=np.int64)
    flat_n = np.array([x for _, n in segments for x in n], dtype=np.int64)
    n = len(segments)
    valid = pairs.padded(np.ones(len(flat_d), dtype=np.int64), n, 0).astype(np.bool_)
    for method in REF_LENGTH_METHODS:
        got = reduce_distances(
            pairs.padded(flat_d, n, 0), pairs.padded(flat_n, n, 0), valid, hyp_lengths, method
        )
        want = np.array(
            [
                reduce_references(d, lens, int(h), method)
                for (d, lens), h in zip(segments, hyp_lengths, strict=True)
            ]
        )
        assert _same(got, want), method


@pytest.mark.parametrize("seed", range(3))
def test_multiset_intersections_equal_per_distance(seed: int) -> None:
    rng = random.Random(seed)
    hyps = _random_lines(rng, 200, 6, 15)
    refs = _random_lines(rng, 200, 7, 15)
    pair_hyp = np.array([rng.randrange(200) for _ in range(500)], dtype=np.int64)
    pair_ref = np.array([rng.randrange(200) for _ in range(500)], dtype=np.int64)
    common = per_commons(Lines.from_lists(hyps), Lines.from_lists(refs), pair_hyp, pair_ref)
    for c, h, r in zip(common.tolist(), pair_hyp.tolist(), pair_ref.tolist(), strict=True):
        hyp, ref = hyps[h], refs[r]
        d = per_distance(Counter(map(str, hyp)), len(hyp), Counter(map(str, ref)), len(ref))
        assert max(len(hyp), len(ref)) - c == d
