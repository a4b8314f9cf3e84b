"""LEPOR (seed 003; Han et al. 2012): hand-computed sentence pairs, the context-dependent
alignment with repeated words, the corpus mean as summed rows, and its refusals."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from metrics.lepor import (
    LEPOR,
    WordCounts,
    align,
    length_penalty,
    lepor_parts,
    score_bound,
)
from metrics.registry import build_metric
from metrics.stats import MetricInfo
from metrics.tests.demo import SYSTEMS, demo, demo_refs
from metrics.tokenize import Preprocessor

E = math.exp

#: (candidate, reference, LEPOR in 0–1 by hand with α = β = 1), 13a words.
CASES = [
    # the sentence pair NLTK's documentation takes from Han (2017): "a" twice in the
    # candidate, once in the reference, so the second "a" has no free word left;
    # c = 7, r = 6, 4 aligned words:
    # LP = e^(1 − 7/6), NPD = 1/7 · (|1/7 − 1/6| + |2/7 − 2/6| + |6/7 − 5/6| + 0) = 2/147,
    # P = 4/7, R = 4/6, Harmonic = 2PR/(P + R) = 8/13
    ("a bird is on a stone .", "a bird behind the stone .", E(-1 / 6) * E(-2 / 147) * 8 / 13),
    # the two halves swapped: context aligns the first "the" to the second one ("on the",
    # "the mat"), not to the nearer first one: every |PD| = 1/2, NPD = 1/2
    ("on the mat the cat sat", "the cat sat on the mat", E(-1 / 2)),
    # a repeated word aligns once per reference occurrence: 1 of 4 aligned,
    # LP = e^(1 − 4/2), NPD = 1/4 · |1/4 − 1/2| = 1/16, P = 1/4, R = 1/2, H = 1/3
    ("the the the the", "the cat", E(-1) * E(-1 / 16) / 3),
    # short candidate: LP = e^(1 − r/c) = e^(1 − 4/2); NPD = 1/2 · (1/4 + 1/2) = 3/8;
    # P = 1, R = 1/2, H = 2/3
    ("a b", "a b c d", E(-1) * E(-3 / 8) * 2 / 3),
    ("same words here", "same words here", 1.0),
    ("", "", 1.0),
    ("", "a b", 0.0),
    ("a b", "", 0.0),
    ("x y z", "a b c", 0.0),
]


@pytest.mark.parametrize("hyp, ref, expected", CASES)
def test_sentence_lepor_equals_the_hand_computation(hyp: str, ref: str, expected: float) -> None:
    score = LEPOR().corpus_score([hyp], [(ref,)]).score

    assert score == pytest.approx(100 * expected, abs=1e-12)


#: (candidate, reference, alignment): 0-based reference positions, -1 for none.
ALIGNMENTS = [
    # single candidates, and the second "a" finds its only reference "a" taken
    ("a bird is on a stone .", "a bird behind the stone .", [0, 1, -1, -1, -1, 4, 5]),
    # context first: "the" at 2 has "on" before it, as the reference's second "the"
    ("on the mat the cat sat", "the cat sat on the mat", [3, 4, 5, 0, 1, 2]),
    # no context matches either "a": the nearest, |2/3 − 4/4| < |2/3 − 1/4|
    ("x a y", "a p q a", [-1, 3, -1]),
    # both positions match in context: the nearest of them, each time
    ("p a q", "p a q p a q", [0, 4, 5]),
    ("the the the the", "the cat", [0, -1, -1, -1]),
]


@pytest.mark.parametrize("hyp, ref, expected", ALIGNMENTS)
def test_context_dependent_alignment(hyp: str, ref: str, expected: list[int]) -> None:
    assert align(hyp.split(), ref.split()) == expected


def test_without_context_the_nearest_word_is_taken() -> None:
    """``context=1`` is the nearest-match rule alone: the swapped halves then align the
    first "the" to the nearer first one: NPD = 1/6 · (3/6 · 4 + 1/6 · 2) = 7/18."""
    hyp, ref = "on the mat the cat sat", "the cat sat on the mat"

    assert align(hyp.split(), ref.split(), context=1) == [3, 0, 5, 4, 1, 2]
    score = LEPOR(context=1).corpus_score([hyp], [(ref,)]).score
    assert score == pytest.approx(100 * E(-7 / 18), abs=1e-12)


def test_alpha_and_beta_weigh_recall_and_precision() -> None:
    """Harmonic(αR, βP) = (α + β)/(α/R + β/P): α = 9, β = 1 on that pair gives
    10/(9 · 6/4 + 7/4) = 40/61 instead of 8/13."""
    hyp, ref = "a bird is on a stone .", "a bird behind the stone ."

    score = LEPOR(alpha=9, beta=1).corpus_score([hyp], [(ref,)]).score

    assert score == pytest.approx(100 * E(-1 / 6) * E(-2 / 147) * 40 / 61, abs=1e-12)
    parts = lepor_parts(hyp.split(), ref.split())
    assert (parts.common, parts.c, parts.r) == (4, 7, 6)
    assert parts.score(1, 9) == pytest.approx(E(-1 / 6) * E(-2 / 147) * 10 / (6 / 4 + 63 / 4))


def test_length_penalty_is_below_one_on_both_sides() -> None:
    """Seed 003 prints exp(1 − c/r) for c < r too, which would exceed 1: the paper's
    exp(1 − r/c) it is."""
    assert length_penalty(5, 5) == 1.0
    assert length_penalty(2, 4) == pytest.approx(E(-1))
    assert length_penalty(6, 4) == pytest.approx(E(-0.5))
    assert length_penalty(0, 4) == 0.0


def test_several_references_keep_the_best_sentence_score() -> None:
    metric = LEPOR()
    alone = metric.corpus_score(["a b c d"], [("a b c e",)]).score

    assert metric.corpus_score(["a b c d"], [("x y", "a b c e")]).score == alone
    assert metric.corpus_score(["a b c d"], [("a b c e", "a b c d")]).score == 100.0


def test_the_corpus_score_is_the_mean_of_sentence_scores_from_summed_rows() -> None:
    metric = LEPOR()
    hyps, refs = ["a b", "on the mat the cat sat", "x"], [("a b c d",), (CASES[1][1],), ("x",)]

    result = metric.corpus_score(hyps, refs)
    sentences = metric.sentence_scores(hyps, refs)

    assert result.stats is not None
    assert result.stats[:, 1].tolist() == [1.0, 1.0, 1.0]
    assert sentences.tolist() == pytest.approx(
        [100 * E(-1) * E(-3 / 8) * 2 / 3, 100 * E(-1 / 2), 100.0]
    )
    assert result.score == pytest.approx(float(np.mean(sentences)), abs=1e-12)
    # bootstrap-shaped input: (B, k) → (B,)
    samples = result.stats[[[0, 0, 2], [1, 2, 2]]].sum(axis=1)
    assert metric.score_from_stats(samples).tolist() == pytest.approx(
        [(2 * sentences[0] + 100) / 3, (sentences[1] + 200) / 3]
    )
    assert metric.score_from_stats(np.zeros(2)) == 0.0


def test_lepor_on_the_demo_corpus_is_a_percentage_that_ranks_identity_first() -> None:
    refs = demo_refs()
    metric = LEPOR()
    prepared = metric.prepare_references(refs)
    for system in SYSTEMS:
        score = metric.corpus_score(list(demo()[system]), refs, prepared).score
        assert 0.0 < score < 100.0
    first = [seg[0] for seg in refs]
    assert metric.corpus_score(first, refs, prepared).score == 100.0


def test_case_and_tokenizer_choices_apply_and_are_in_the_signature() -> None:
    lower = LEPOR(Preprocessor(lowercase=True))

    assert lower.corpus_score(["The Cat"], [("the cat",)]).score == 100.0
    assert LEPOR().corpus_score(["The Cat"], [("the cat",)]).score == 0.0
    signature = build_metric("lepor", lepor_alpha=9).signature([("a", "b")])
    assert signature.startswith("nrefs:2|case:mixed|tok:13a|alpha:9|beta:1|ctx:2|mref:best|")


def test_lepor_states_its_facts() -> None:
    assert LEPOR.info == MetricInfo("lepor", "LEPOR", higher_is_better=True)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 0}, "alpha=0 must be a positive number"),
        ({"beta": -1.0}, "beta=-1.0 must be a positive number"),
        ({"alpha": "9"}, "alpha='9' must be a number"),
        ({"context": 0}, "context=0 must be a whole number"),
    ],
)
def test_bad_options_are_value_errors_naming_them(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LEPOR(**kwargs)


def test_references_prepared_otherwise_are_refused() -> None:
    refs = [("a b",)]
    prepared = LEPOR(Preprocessor(lowercase=True)).prepare_references(refs)

    with pytest.raises(ValueError, match="prepare_references"):
        LEPOR().segment_stats(["a b"], prepared)
    with pytest.raises(ValueError, match="prepare_references"):  # its memo holds α = 1's
        LEPOR(alpha=9).segment_stats(["a b"], LEPOR().prepare_references(refs))
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        LEPOR().prepare_references([()])


def _random_sentences(rng: random.Random, n: int, vocab: str = "abcdef") -> list[list[str]]:
    """Short sentences over a small vocabulary: many repeated words, ties and near-copies
    (a sentence edited by a word or two), empty ones too."""
    out: list[list[str]] = []
    for _ in range(n):
        if out and rng.random() < 0.4:
            words = list(rng.choice(out))
            for _ in range(rng.randint(0, 2)):
                if words and rng.random() < 0.5:
                    words.pop(rng.randrange(len(words)))
                else:
                    words.insert(rng.randint(0, len(words)), rng.choice(vocab))
        else:
            words = [rng.choice(vocab) for _ in range(rng.randint(0, 8))]
        out.append(words)
    return out


@pytest.mark.parametrize("alpha, beta, context", [(1.0, 1.0, 2), (9.0, 1.0, 2), (1.0, 3.0, 1)])
def test_pruned_references_give_the_unpruned_maximum_to_the_bit(
    alpha: float, beta: float, context: int
) -> None:
    """The score bound skips references, never the maximum: the pruned best equals the
    plain maximum over every reference (duplicated, empty, tied references included)."""
    rng = random.Random(7)
    metric = LEPOR(alpha=alpha, beta=beta, context=context)
    skipped = 0
    for _ in range(400):
        refs = _random_sentences(rng, rng.randint(1, 12))
        refs += [list(r) for r in refs if rng.random() < 0.2]  # duplicates
        hyp = rng.choice([*_random_sentences(rng, 1), rng.choice(refs)])
        scores = [lepor_parts(hyp, r, context).score(alpha, beta) for r in refs]
        counts = WordCounts(refs)
        for parts_score, ref, n in zip(scores, refs, counts.common(hyp), strict=True):
            bound = score_bound(len(hyp), len(ref), n, alpha, beta)
            assert parts_score <= bound
            skipped += bound <= max(scores) and parts_score < max(scores)
        assert metric.sentence_lepor(hyp, refs) == max(scores)
        assert metric.sentence_lepor(hyp, refs, counts) == max(scores)
    assert skipped > 100  # the bound does prune


def test_the_common_count_is_the_number_of_aligned_words() -> None:
    rng = random.Random(3)
    for _ in range(300):
        hyp, ref = _random_sentences(rng, 2)
        aligned = sum(1 for y in align(hyp, ref) if y >= 0)
        common = sum((Counter(hyp) & Counter(ref)).values())
        assert WordCounts([ref, hyp]).common(hyp)[0] == common == aligned
        assert lepor_parts(hyp, ref).common == aligned


def test_segment_scores_with_many_references_equal_the_plain_maximum() -> None:
    rng = random.Random(11)
    refs = [
        tuple(" ".join(w) for w in _random_sentences(rng, rng.randint(1, 30))) for _ in range(40)
    ]
    hyps = [rng.choice([*seg, "a b c", ""]) for seg in refs]
    metric = LEPOR()
    pp = metric.preprocessor
    plain = [
        max(lepor_parts(pp.tokens(h), pp.tokens(r)).score() for r in seg)
        for h, seg in zip(hyps, refs, strict=True)
    ]

    stats = metric.segment_stats(hyps, metric.prepare_references(refs))

    assert stats[:, 0].tolist() == plain


def test_a_reference_that_cannot_win_is_not_aligned(monkeypatch: pytest.MonkeyPatch) -> None:
    """The identical reference scores 1, the bound of every other is below: one alignment."""
    import metrics.lepor as lepor

    calls = []
    real = lepor.lepor_parts

    def counted(hyp: list[str], ref: list[str], context: int = 2) -> lepor.LeporParts:
        calls.append(ref)
        return real(hyp, ref, context)

    monkeypatch.setattr(lepor, "lepor_parts", counted)
    refs = [["x", "b", "c"], ["a", "b"], ["a", "b", "c", "d"], ["a", "b", "c"], ["c"]]

    assert LEPOR().sentence_lepor(["a", "b", "c"], refs) == 1.0
    assert calls == [["a", "b", "c"]]
