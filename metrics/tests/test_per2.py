"""Bigram PER (seed 000 §2.1.2): hand cases, the agreement with a plain count-vector
implementation of the seed's formula, and the corpus path."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from metrics.per2 import PER2
from metrics.tokenize import Preprocessor

NONE = Preprocessor(tokenize="none")
BOUNDS = Preprocessor(tokenize="none", sentence_boundaries=True)

#: (candidate, references, preprocessor, ref_length, errors, reference bigrams)
CASES = [
    # identical: no error
    ("a b c d", ("a b c d",), NONE, "nearest", 0, 3),
    # two words swapped: PER 0, but bigrams {ba, ac, cd} vs {ab, bc, cd}: ½(0 + 4) = 2
    ("b a c d", ("a b c d",), NONE, "nearest", 2, 3),
    # with <s> … </s>: {<s>b, ba, ac, cd, d</s>} vs {<s>a, ab, bc, cd, d</s>}: 3 of 5
    ("b a c d", ("a b c d",), BOUNDS, "nearest", 3, 5),
    # nothing in common, same length: 100 %
    ("x y z", ("a b c",), NONE, "nearest", 2, 2),
    # repeated bigrams are clipped: "a a a" has {aa: 2}, "a a" has {aa: 1}: max(2, 1) − 1
    ("a a a", ("a a",), NONE, "nearest", 1, 1),
    # one-word sentences have no bigram: 0 errors of 0
    ("a", ("b",), NONE, "nearest", 0, 0),
    # an empty candidate against "a b c": all 2 reference bigrams missing
    ("", ("a b c",), NONE, "nearest", 2, 2),
    # two references: the second is at distance 0 (bigram count 2)
    ("a b c", ("x a b c y", "a b c"), NONE, "nearest", 0, 2),
    # average length of both references' bigram counts, distance to the nearest (0)
    ("a b c", ("x a b c y", "a b c"), NONE, "average", 0, 3),
]


@pytest.mark.parametrize("hyp, refs, pp, ref_length, errors, length", CASES)
def test_hand_cases(
    hyp: str, refs: tuple[str, ...], pp: Preprocessor, ref_length: str, errors: int, length: int
) -> None:
    score = PER2(pp, ref_length).corpus_score([hyp], [refs])
    assert score.stats is not None
    assert score.stats.tolist() == [[errors, length]]


def seed_formula(hyp: list[str], ref: list[str]) -> float:
    """½(|I₂ − Ĩ₂| + Σ_b |n_b − ñ_b|) on bigram Counters, as the seed writes it."""
    h = Counter(zip(hyp, hyp[1:], strict=False))
    r = Counter(zip(ref, ref[1:], strict=False))
    diff = sum(abs(h[b] - r[b]) for b in h.keys() | r.keys())
    return 0.5 * (abs(sum(h.values()) - sum(r.values())) + diff)


@pytest.mark.parametrize("seed", range(5))
def test_rows_equal_the_seed_formula_on_random_text(seed: int) -> None:
    rnd = random.Random(seed)

    def words() -> list[str]:
        return [rnd.choice("abcd") for _ in range(rnd.randint(0, 8))]

    hyps = [words() for _ in range(60)]
    refs = [words() for _ in range(60)]
    rows = PER2(NONE).corpus_score([" ".join(h) for h in hyps], [(" ".join(r),) for r in refs])
    assert rows.stats is not None
    for (errors, length), h, r in zip(rows.stats.tolist(), hyps, refs, strict=True):
        assert errors == seed_formula(h, r)
        assert length == max(len(r) - 1, 0)


def test_signature_names_the_metric_choices() -> None:
    sig = PER2(BOUNDS, "best").signature([("a", "b")])
    assert sig.startswith("nrefs:2|tok:none|case:mixed|bounds:yes|reflen:best|")
