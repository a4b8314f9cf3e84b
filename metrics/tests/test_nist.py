"""NIST: mteval-v13a's published numbers, hand-computed cases, a line-by-line
transliteration of mteval's Perl, and the statistics invariants."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from metrics import __version__
from metrics.nist import BETA, NIST
from metrics.tests.demo import README_REFS, README_SYS, REFERENCES, SYSTEMS, demo, demo_refs
from metrics.tokenize import Preprocessor


@pytest.mark.parametrize(
    "lowercase, expected",
    [
        (False, 3.6770),  # mteval-v13a.pl -c (case kept)
        (True, 3.7620),  # mteval-v13a.pl (lowercased)
    ],
)
def test_readme_example_matches_mteval(lowercase: bool, expected: float) -> None:
    assert (
        round(NIST(lowercase=lowercase).corpus_score(README_SYS, README_REFS).score, 4) == expected
    )


def _penalty(ratio: float) -> float:
    # seed 000 §2.1.4 written independently: 0.5 at ratio 2/3, 1 at ratio >= 1
    return 1.0 if ratio >= 1 else 0.5 ** ((math.log(ratio) / math.log(2 / 3)) ** 2)


@pytest.mark.parametrize(
    "hyps, refs, order, expected",
    [
        # corpus counts a:2 b:1 c:1 of 4 words → Info a=1, b=2, c=2; Info(a b) = log2(2/1) = 1
        # matched: a+b = 3 over 2 unigrams, "a b" = 1 over 1 bigram; lengths 2 vs 2
        (["a b"], [("a b", "a c")], 2, 3 / 2 + 1 / 1),
        # hyp of 1 word against an average of 2: penalty at ratio 1/2
        (["a"], [("a b", "a c")], 2, 1.0 * _penalty(1 / 2)),
        # one reference of 3 words, hyp 2 of them: Info = log2 3 each, bigram Info = 0
        (["a b"], [("a b c",)], 2, math.log2(3) * _penalty(2 / 3)),
        # clipping: "a" occurs at most twice in one reference; Info(a) = log2(4/3)
        (["a a a"], [("a b", "a a")], 1, 2 * math.log2(4 / 3) / 3),
        # weights come from the whole corpus: "x" appears in both segments' references
        # words: x y x z (4) → Info x = 1, y = z = 2; "x y", "x z" Info = log2(2/1) = 1
        (["x y", "x z"], [("x y",), ("x z",)], 2, (1 + 2 + 1 + 2) / 4 + (1 + 1) / 2),
        # an empty hypothesis scores 0
        ([""], [("a b",)], 5, 0.0),
    ],
)
def test_hand_computed(
    hyps: list[str], refs: list[tuple[str, ...]], order: int, expected: float
) -> None:
    metric = NIST(tokenize="none", max_ngram_order=order)
    assert metric.corpus_score(hyps, refs).score == pytest.approx(expected, abs=1e-12)


def test_penalty_is_one_half_at_two_thirds() -> None:
    assert math.exp(-BETA * math.log(2 / 3) ** 2) == pytest.approx(0.5, abs=1e-15)


# ------------------------------------------------------------------ mteval transliterated


def _words2ngrams(words: Sequence[str], max_n: int) -> dict[str, int]:
    """mteval's Words2Ngrams: every n-gram up to max_n, joined by spaces."""
    count: dict[str, int] = {}
    for i in range(len(words)):
        ngram = None
        for j in range(max_n):
            if i + j >= len(words):
                break
            ngram = words[i + j] if ngram is None else f"{ngram} {words[i + j]}"
            count[ngram] = count.get(ngram, 0) + 1
    return count


def _nist_score(nsys: int, tst_info: list[float], tst_cnt: list[int], ref_cnt1: int) -> float:
    """mteval's nist_score with nist_length_penalty, for the cumulative 5-gram score."""
    score = sum(tst_info[n] / max(tst_cnt[n], 1) for n in range(1, len(tst_cnt)))
    ratio = tst_cnt[1] / (ref_cnt1 / nsys)
    if ratio >= 1:
        return score
    if ratio <= 0:
        return 0.0
    beta = -math.log(0.5) / math.log(1.5) / math.log(1.5)
    return score * math.exp(-beta * math.log(ratio) * math.log(ratio))


def mteval_nist(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], max_n: int = 5
) -> tuple[float, list[float]]:
    """compute_ngram_info + score_segment + nist_score of mteval-v13a.pl, in Python:
    the system score and the segment scores."""
    ngram_count: dict[str, int] = {}
    tot_wrds = 0
    for seg in refs:
        for wrds in seg:
            tot_wrds += len(wrds)
            for g, c in _words2ngrams(wrds, 9).items():
                ngram_count[g] = ngram_count.get(g, 0) + c
    info = {}
    for g, c in ngram_count.items():
        mgram = " ".join(g.split(" ")[:-1])
        perl_true = mgram not in ("", "0")  # Perl: the strings "" and "0" are false
        info[g] = -math.log(c / ngram_count[mgram] if perl_true else c / tot_wrds) / math.log(2)
    nsys = len(refs[0])
    cum_info = [0.0] * (max_n + 1)
    cum_cnt = [0] * (max_n + 1)
    cum_ref1 = 0
    segment_scores = []
    for wrds, seg in zip(hyps, refs, strict=True):
        tst_info = [0.0] * (max_n + 1)
        tst_cnt = [0] * (max_n + 1)
        ref_cnt1 = 0
        tst = _words2ngrams(wrds, max_n)
        ref_max: dict[str, int] = {}
        for rw in seg:
            for g, c in _words2ngrams(rw, max_n).items():
                ref_max[g] = max(ref_max.get(g, 0), c)
            ref_cnt1 += len(rw)
        for j in range(1, max_n + 1):
            tst_cnt[j] = len(wrds) - j + 1 if j <= len(wrds) else 0
        for g, c in tst.items():
            if g in ref_max:
                tst_info[len(g.split(" "))] += info[g] * min(c, ref_max[g])
        segment_scores.append(_nist_score(nsys, tst_info, tst_cnt, ref_cnt1))
        for j in range(1, max_n + 1):
            cum_info[j] += tst_info[j]
            cum_cnt[j] += tst_cnt[j]
        cum_ref1 += ref_cnt1
    return _nist_score(nsys, cum_info, cum_cnt, cum_ref1), segment_scores


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("system", SYSTEMS)
def test_demo_corpus_matches_mteval_transliteration(system: str, lowercase: bool) -> None:
    refs = demo_refs(*REFERENCES)
    hyps = demo()[system]
    pp = Preprocessor(tokenize="13a", lowercase=lowercase)
    want, want_segments = mteval_nist(
        [pp.tokens(h) for h in hyps], [[pp.tokens(r) for r in seg] for seg in refs]
    )
    metric = NIST(lowercase=lowercase)
    assert metric.corpus_score(hyps, refs).score == pytest.approx(want, rel=1e-12)
    # segment scores as mteval -d 2 prints them: the corpus's weights, one segment's counts
    np.testing.assert_allclose(metric.sentence_scores(hyps, refs), want_segments, rtol=1e-12)


def test_readme_example_matches_mteval_transliteration() -> None:
    pp = Preprocessor(tokenize="13a")
    want, segments = mteval_nist(
        [pp.tokens(h) for h in README_SYS], [[pp.tokens(r) for r in seg] for seg in README_REFS]
    )
    assert NIST().corpus_score(README_SYS, README_REFS).score == pytest.approx(want, rel=1e-12)
    np.testing.assert_allclose(NIST().sentence_scores(README_SYS, README_REFS), segments)


# ------------------------------------------------------------------ invariants


@pytest.mark.parametrize("system", SYSTEMS)
def test_corpus_score_is_a_function_of_summed_rows(system: str) -> None:
    refs = demo_refs(*REFERENCES)
    metric = NIST()
    result = metric.corpus_score(demo()[system], refs)
    assert result.stats is not None
    assert result.stats.shape == (40, 12)
    assert result.score == metric.score_from_stats(result.stats.sum(axis=0))
    np.testing.assert_array_equal(result.stats[:, 0], result.stats[:, 7])  # hyp_len = total_1
    sentence = metric.sentence_scores(demo()[system], refs)
    np.testing.assert_array_equal(sentence, [metric.score_from_stats(r) for r in result.stats])


def test_vectorised_score_from_stats_equals_the_loop() -> None:
    refs = demo_refs(*REFERENCES)
    metric = NIST()
    stats = metric.segment_stats(demo()["NiuTrans"], metric.prepare_references(refs))
    idx = np.random.default_rng(7).integers(0, len(stats), size=(100, len(stats)))
    samples = stats[idx].sum(axis=1)
    samples[0] = 0.0
    vector = metric.score_from_stats(samples)
    np.testing.assert_array_equal(vector, [metric.score_from_stats(r) for r in samples])
    assert isinstance(metric.score_from_stats(samples[1]), float)


def test_sentence_boundaries_and_reference_length_options() -> None:
    refs = [("a b c d", "a b")]
    with_bounds = NIST(tokenize="none", sentence_boundaries=True).corpus_score(["a b"], refs)
    assert with_bounds.stats is not None
    assert with_bounds.stats[0, 0] == 2  # words only
    assert with_bounds.stats[0, 7] == 4  # <s> a b </s>
    stats = {
        method: NIST(tokenize="none", ref_length=method).corpus_score(["a b c"], refs).stats
        for method in ("average", "closest", "shortest")
    }
    assert [s[0, 1] for s in stats.values() if s is not None] == [3.0, 2.0, 2.0]


def test_signature() -> None:
    refs = demo_refs(*REFERENCES)
    assert NIST().signature(refs) == (
        f"nrefs:2|case:mixed|tok:13a|reflen:average|bounds:no|mteval:yes|version:{__version__}"
    )
    assert NIST(lowercase=True, max_ngram_order=4).signature(refs) == (
        f"nrefs:2|case:lc|tok:13a|reflen:average|bounds:no|mteval:yes|order:4|version:{__version__}"
    )


@pytest.mark.parametrize(
    "options, message",
    [
        ({"max_ngram_order": 0}, "max_ngram_order=0"),
        ({"ref_length": "best"}, "ref_length='best'"),
        ({"tokenize": "moses"}, "moses"),
    ],
)
def test_bad_options_raise(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NIST(**options)


def test_references_prepared_for_bleu_are_refused() -> None:
    from metrics.bleu import BLEU

    prepared = BLEU().prepare_references(README_REFS)
    with pytest.raises(ValueError, match="prepared=ReferenceNgrams"):
        NIST().segment_stats(README_SYS, prepared)


# ------------------------------------------------------------------ mteval's "0" quirk

#: "0:4 and 0" (13a: 0 : 4 and 0) against itself. Reference words: 5; "0" twice.
#: Unigrams: Info(0) = log2(5/2), Info(:) = Info(4) = Info(and) = log2 5; all matched.
#: Bigrams: "0 :" has prefix count 2 → 1 bit as defined, but mteval takes the total 5
#: (the prefix "0" is false in Perl) → log2 5; ": 4", "4 and", "and 0" → 0 bits.
#: Trigrams and longer: every prefix count equals the n-gram's → 0 bits.
UNIGRAMS = (2 * math.log2(2.5) + 3 * math.log2(5)) / 5


@pytest.mark.parametrize(
    "mteval, bigrams", [(True, math.log2(5) / 4), (False, 1 / 4)], ids=["mteval", "defined"]
)
def test_a_bigram_after_the_token_0_as_mteval_or_as_defined(mteval: bool, bigrams: float) -> None:
    score = NIST(mteval=mteval).corpus_score(["0:4 and 0"], [("0:4 and 0",)])
    assert score.score == pytest.approx(UNIGRAMS + bigrams, abs=1e-12)
    assert f"|mteval:{'yes' if mteval else 'no'}|" in score.signature


def test_the_quirk_is_the_default_and_only_touches_the_token_0() -> None:
    assert NIST().mteval
    # "10" and "0 0" are true strings in Perl: without a lone "0" both definitions agree
    texts = ["10:4 and 1", "0 0 : 4"]
    scores = {q: NIST(mteval=q).corpus_score(texts[:1], [(texts[0],)]).score for q in (True, False)}
    assert scores[True] == scores[False]


def test_the_quirk_equals_the_mteval_transliteration_on_scores_with_zeros() -> None:
    """The demo corpus with football scores in it ("0:4", "0 - 0") in every text."""
    refs = [tuple(f"{r} 0:{k % 5} ({k} 0)" for r in seg) for k, seg in enumerate(demo_refs())]
    hyps = [f"{h} 0:{k % 3} ({k} 0 -0)" for k, h in enumerate(demo()["NiuTrans"])]
    pp = Preprocessor(tokenize="13a")
    want, want_segments = mteval_nist(
        [pp.tokens(h) for h in hyps], [[pp.tokens(r) for r in seg] for seg in refs]
    )
    score = NIST().corpus_score(hyps, refs).score
    assert score == pytest.approx(want, rel=1e-12)
    np.testing.assert_allclose(NIST().sentence_scores(hyps, refs), want_segments, rtol=1e-12)
    assert NIST(mteval=False).corpus_score(hyps, refs).score < score
