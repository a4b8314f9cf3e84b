"""Weighted n-gram P, R, F (seed 004; Babych and Hartley 2004): tf.idf and S-score weights
by hand, the "weight > 1 replaces the count 1" rule, documents, and summed rows."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from metrics.registry import build_metric
from metrics.tests.demo import SYSTEMS, demo, demo_refs
from metrics.tokenize import Preprocessor
from metrics.wngram import (
    WNGramF,
    WNGramP,
    WNGramR,
    ngram_weight,
    sscore_weights,
    tfidf_weights,
    weighted_ngrams,
)

LN = math.log
PP = Preprocessor(tokenize="none")

# Three segments in two documents: A = "x y" + "x z" (4 tokens), B = "y w".
TF_REFS = [("x y",), ("x z",), ("y w",)]
TF_HYPS = ["y x", "x z", "w"]
TF_DOCS = ["A", "A", "B"]
#: tf.idf of x in A, (1 + ln 2) · ln(2/1): the only weight above 1
W = (1 + LN(2)) * LN(2)


def test_tfidf_weights_by_hand() -> None:
    weights = tfidf_weights([["x", "y", "x", "z"], ["y", "w"]])

    assert weights[0] == pytest.approx({"x": W, "y": 0.0, "z": LN(2)})
    assert weights[1] == pytest.approx({"y": 0.0, "w": LN(2)})
    assert W > 1 > LN(2)


def test_tfidf_p_r_f_by_hand_with_documents() -> None:
    """Only x (weight W) counts more than 1; an n-gram containing x counts W (``ngw:max``).
    Segment 1, "y x" against "x y": matched x, y = W + 1 of hyp x, y, "y x" = 2W + 1, ref
    x, y, "x y" = 2W + 1. Segment 2 identical: 2W + 1 throughout. Segment 3, "w" against
    "y w": 1 matched of 1, ref y, w, "y w" = 3."""
    p, r = (3 * W + 3) / (4 * W + 3), (3 * W + 3) / (4 * W + 5)
    for cls, expected in ((WNGramP, p), (WNGramR, r), (WNGramF, 2 * p * r / (p + r))):
        metric = cls(PP, weights="tfidf", documents=TF_DOCS)
        assert metric.corpus_score(TF_HYPS, TF_REFS).score == pytest.approx(100 * expected)


def test_the_last_word_rule_of_the_papers_perl_fragment() -> None:
    """``ngram_rule="last"``: "y x" counts W (its last word is x), "x y" and "x z" count 1."""
    metric = WNGramP(PP, documents=TF_DOCS, ngram_rule="last")
    recall = WNGramR(PP, documents=TF_DOCS, ngram_rule="last")

    assert metric.corpus_score(TF_HYPS, TF_REFS).score == pytest.approx(
        100 * (2 * W + 4) / (3 * W + 4)
    )
    assert recall.corpus_score(TF_HYPS, TF_REFS).score == pytest.approx(
        100 * (2 * W + 4) / (2 * W + 7)
    )


def test_one_document_has_no_weight_above_one_so_counts_are_plain() -> None:
    """N = 1: every idf is ln 1 = 0 and every S-score undefined (N − df = 0): matched 6 of
    7 candidate and 9 reference n-grams, whichever weighting."""
    for weights in ("tfidf", "sscore"):
        p = WNGramP(PP, weights=weights).corpus_score(TF_HYPS, TF_REFS).score
        r = WNGramR(PP, weights=weights).corpus_score(TF_HYPS, TF_REFS).score
        assert (p, r) == (pytest.approx(600 / 7), pytest.approx(600 / 9))
    assert sscore_weights([["x", "y", "x"]]) == [{}]


# S-score: three documents, A = "k k" + "k a" (4 tokens), B and C 8 tokens each (20 in all).
S_REFS = [("k k",), ("k a",), ("a b c d e f g h",), ("p q r s t u v w",)]
S_HYPS = ["k", "k a", "a z", "p q"]
S_DOCS = ["A", "A", "B", "C"]
#: S of k in A: (3/4 − 0) · (3 − 1)/3 / (3/20) = 10/3
S = LN(10 / 3)


def test_sscore_weights_by_hand() -> None:
    weights = sscore_weights([["k", "k", "k", "a"], list("abcdefgh"), list("pqrstuvw")])

    assert weights[0]["k"] == pytest.approx(S)
    # a in A: (1/4 − 1/16) · (3 − 2)/3 / (2/20) = 0.625: defined, negative
    assert weights[0]["a"] == pytest.approx(LN(0.625))
    # b in B: (1/8 − 0) · 2/3 / (1/20) = 5/3
    assert weights[1]["b"] == pytest.approx(LN(5 / 3))
    # a in B: (1/8 − 1/12) · 1/3 / (1/10) = 10/72
    assert weights[1]["a"] == pytest.approx(LN(10 / 72))
    # a word in every document: (N − df)/N = 0, no S-score
    assert "w" not in sscore_weights([["w", "u"], ["w", "v"]])[0]


def test_sscore_p_r_f_by_hand() -> None:
    """Only k (S ≈ 1.204) weighs more than 1. Segment 1: "k" against "k k": matched S, hyp
    S, ref k, k, "k k" = 3S. Segment 2: "k a" = "k a": 2S + 1 throughout. Segment 3: "a z"
    against 8 words: 1 matched of 3, ref 8 + 7 + 6 + 5 = 26. Segment 4: 3 of 3, ref 26."""
    p, r = (3 * S + 5) / (3 * S + 7), (3 * S + 5) / (5 * S + 53)
    for name, expected in (("wngram-p", p), ("wngram-r", r), ("wngram-f", 2 * p * r / (p + r))):
        metric = build_metric(name, preprocessor=PP, weights="sscore", documents=S_DOCS)
        assert metric.corpus_score(S_HYPS, S_REFS).score == pytest.approx(100 * expected)


def test_rows_are_matched_candidate_reference_per_order_and_sum_to_the_corpus() -> None:
    metric = WNGramF(PP, weights="sscore", documents=S_DOCS)
    result = metric.corpus_score(S_HYPS, S_REFS)

    assert result.stats is not None
    assert result.stats.shape == (4, 12)
    assert result.stats[0].tolist() == pytest.approx([S, S, 2 * S, 0, 0, S] + [0] * 6)
    assert result.stats[2].tolist() == pytest.approx([1, 2, 8, 0, 1, 7, 0, 0, 6, 0, 0, 5])
    assert metric.score_from_stats(result.stats.sum(axis=0)) == result.score
    # bootstrap-shaped input: (B, k) → (B,), each the score of its own summed rows
    idx = np.array([[0, 0, 1, 3], [2, 2, 2, 2]])
    samples = result.stats[idx].sum(axis=1)
    expected = [metric.score_from_stats(row) for row in samples]
    assert metric.score_from_stats(samples).tolist() == pytest.approx(expected)
    assert WNGramP(PP).score_from_stats(np.zeros(12)) == 0.0


def test_ngram_weight_rule() -> None:
    weights = {"a": 3.0, "b": 0.5, "c": 2.0}

    assert ngram_weight(("a", "b"), weights) == 3.0
    assert ngram_weight(("a", "b"), weights, "last") == 1.0
    assert ngram_weight(("c", "a"), weights, "last") == 3.0
    assert ngram_weight(("b", "d"), weights) == 1.0


@pytest.mark.parametrize("rule", ["max", "last"])
def test_weighted_ngrams_give_each_ngram_its_ngram_weight(rule: str) -> None:
    tokens = ["a", "b", "c", "a", "b", "d", "c", "c", "a"]
    weights = {"a": 3.0, "b": 0.5, "c": 2.0, "d": 1.5}

    for n, (counts, gram_w) in enumerate(weighted_ngrams(tokens, weights, 4, rule), start=1):
        assert counts == Counter(zip(*(tokens[i:] for i in range(n)), strict=False))
        assert gram_w == {g: ngram_weight(g, weights, rule) for g in counts}
    assert all(w is None for _, w in weighted_ngrams(tokens, {"a": 0.9}, 4, rule))


def test_only_the_first_reference_is_read() -> None:
    metric = WNGramR(PP)

    assert metric.corpus_score(["a b"], [("a b", "x y z")]).score == 100.0
    assert metric.signature([("a b", "x y z")]).startswith("nrefs:1|")


def test_signature_records_weights_order_rule_and_documents() -> None:
    metric = build_metric("wngram-f", weights="sscore", documents=["d1", "d2", "d1"])

    assert metric.signature([("a",)] * 3).startswith(
        "nrefs:1|case:mixed|tok:13a|bounds:no|wt:sscore|order:4|ngw:max|docs:2|log:e|"
    )


def test_demo_corpus_scores_are_percentages_and_the_reference_scores_100() -> None:
    refs = demo_refs()
    docs = [f"talk{k // 10}" for k in range(len(refs))]
    for name in ("wngram-p", "wngram-r", "wngram-f"):
        metric = build_metric(name, weights="sscore", documents=docs)
        prepared = metric.prepare_references(refs)
        for system in SYSTEMS:
            assert 0.0 < metric.corpus_score(list(demo()[system]), refs, prepared).score < 100.0
        first = [seg[0] for seg in refs]
        assert metric.corpus_score(first, refs, prepared).score == pytest.approx(100.0)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"weights": "bm25"}, "weights='bm25': choose one of tfidf, sscore"),
        ({"max_order": 0}, "max_order=0 must be a whole number"),
        ({"ngram_rule": "first"}, "ngram_rule='first'"),
        ({"documents": "AAB"}, "documents='AAB': give one id per segment, not a string"),
    ],
)
def test_bad_options_are_value_errors_naming_them(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        WNGramP(**kwargs)


def test_p_r_and_f_share_prepared_references_and_their_rows() -> None:
    prepared = WNGramP(PP, documents=TF_DOCS).prepare_references(TF_REFS)
    rows = WNGramP(PP, documents=TF_DOCS).segment_stats(TF_HYPS, prepared)

    for cls in (WNGramR, WNGramF):
        metric = cls(PP, documents=TF_DOCS)
        assert metric.segment_stats(TF_HYPS, prepared).tobytes() == rows.tobytes()
        assert metric.score_from_stats(rows.sum(axis=0)) == pytest.approx(
            metric.corpus_score(TF_HYPS, TF_REFS).score
        )


def test_documents_must_give_one_id_per_segment() -> None:
    with pytest.raises(ValueError, match="2 ids for 3 segments"):
        WNGramP(documents=["a", "b"]).prepare_references(TF_REFS)
    prepared = WNGramP(documents=TF_DOCS).prepare_references(TF_REFS)
    with pytest.raises(ValueError, match="prepare_references"):
        WNGramP().segment_stats(TF_HYPS, prepared)
