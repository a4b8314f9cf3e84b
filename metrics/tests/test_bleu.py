"""BLEU and BLEU-S: parity with sacreBLEU 2.6, hand-computed cases, invariants."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
import sacrebleu

from metrics import __version__
from metrics.bleu import BLEU, BLEUS, bleu_from_stats
from metrics.ngrams import index_references, match_hypotheses, ngram_counts
from metrics.tests.demo import README_REFS, README_SYS, REFERENCES, SYSTEMS, demo, demo_refs
from metrics.tokenize import Preprocessor


def stream_major(refs: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """sacreBLEU's layout; missing references of a segment are None."""
    width = max(len(seg) for seg in refs)
    return [[seg[r] if r < len(seg) else None for seg in refs] for r in range(width)]


def sacre(
    hyps: Sequence[str], refs: Sequence[Sequence[str]], **kw: Any
) -> tuple[np.ndarray, float]:
    """sacreBLEU's per-segment statistics and corpus score."""
    metric = sacrebleu.BLEU(**kw)
    streams = stream_major(refs)
    stats = np.array(metric._extract_corpus_statistics(list(hyps), streams), dtype=np.float64)
    return stats, metric.corpus_score(list(hyps), streams).score


def ours(hyps: Sequence[str], refs: Sequence[Sequence[str]], **kw: Any) -> tuple[np.ndarray, float]:
    metric = BLEU(**kw)
    result = metric.corpus_score(hyps, refs)
    return result.stats, result.score


def assert_parity(hyps: Sequence[str], refs: Sequence[Sequence[str]], **kw: Any) -> None:
    s_stats, s_score = sacre(hyps, refs, **kw)
    o_stats, o_score = ours(hyps, refs, **kw)
    np.testing.assert_array_equal(o_stats, s_stats)
    assert o_score == pytest.approx(s_score, abs=1e-9, rel=0)


# ------------------------------------------------------------------ sacreBLEU parity

SMOOTHINGS = [
    {"smooth_method": "exp"},
    {"smooth_method": "none"},
    {"smooth_method": "floor"},
    {"smooth_method": "floor", "smooth_value": 0.3},
    {"smooth_method": "add-k"},
    {"smooth_method": "add-k", "smooth_value": 0.5},
    {"smooth_method": "exp", "effective_order": True},
    {"smooth_method": "none", "effective_order": True},
]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("options", SMOOTHINGS, ids=lambda o: "-".join(map(str, o.values())))
def test_demo_corpus_matches_sacrebleu_for_every_smoothing(
    system: str, options: dict[str, Any]
) -> None:
    assert_parity(demo()[system], demo_refs(*REFERENCES), **options)


@pytest.mark.parametrize("words", [1, 2, 3, 4])
@pytest.mark.parametrize("options", SMOOTHINGS, ids=lambda o: "-".join(map(str, o.values())))
def test_short_corpora_where_smoothing_matters_match_sacrebleu(
    words: int, options: dict[str, Any]
) -> None:
    # hypotheses cut to a few words: high orders have no n-grams or no matches at all
    hyps = [" ".join(h.split()[:words]) for h in demo()["Online-W"][:4]]
    assert_parity(hyps, demo_refs(*REFERENCES)[:4], tokenize="none", **options)


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char"])
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("system", ["DIDI-NLP", "Online-W"])
def test_tokenizers_and_case_match_sacrebleu(tokenize: str, lowercase: bool, system: str) -> None:
    assert_parity(demo()[system], demo_refs(*REFERENCES), tokenize=tokenize, lowercase=lowercase)


@pytest.mark.parametrize(
    "hyp_system, ref_names",
    [
        ("DIDI-NLP", ("first reference",)),
        ("DIDI-NLP", ("first reference", "multi reference")),
        ("DIDI-NLP", ("first reference", "multi reference", "NiuTrans")),
        ("DIDI-NLP", ("first reference", "multi reference", "NiuTrans", "Online-W")),
        ("Facebook-AI", ("multi reference", "IIE-MT", "NiuTrans", "Online-W")),
    ],
)
def test_one_to_four_references_match_sacrebleu(
    hyp_system: str, ref_names: tuple[str, ...]
) -> None:
    assert_parity(demo()[hyp_system], demo_refs(*ref_names))


def test_variable_number_of_references_matches_sacrebleu() -> None:
    full = demo_refs("first reference", "multi reference", "NiuTrans")
    refs = [seg[: 1 + k % 3] for k, seg in enumerate(full)]
    assert_parity(demo()["IIE-MT"], refs)
    assert BLEU().signature(refs).startswith("nrefs:var|")


@pytest.mark.parametrize(
    "blank",
    [
        lambda k: k % 3 == 0,  # some empty hypotheses
        lambda k: True,  # all empty
        lambda k: k == 39,  # only the last one
    ],
)
@pytest.mark.parametrize("smooth_method", ["exp", "none", "floor", "add-k"])
def test_empty_hypotheses_match_sacrebleu(blank: Callable[[int], bool], smooth_method: str) -> None:
    hyps = ["" if blank(k) else h for k, h in enumerate(demo()["NiuTrans"])]
    assert_parity(hyps, demo_refs(*REFERENCES), smooth_method=smooth_method)


@pytest.mark.parametrize("max_ngram_order", [1, 2, 3, 6])
def test_other_ngram_orders_match_sacrebleu(max_ngram_order: int) -> None:
    assert_parity(demo()["Facebook-AI"], demo_refs(*REFERENCES), max_ngram_order=max_ngram_order)


def test_readme_example_is_48_53() -> None:
    result = BLEU().corpus_score(README_SYS, README_REFS)
    assert round(result.score, 2) == 48.53
    assert_parity(README_SYS, README_REFS)


@pytest.mark.parametrize("smooth_method", ["exp", "floor", "add-k", "none"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_sentence_bleu_matches_sacrebleu(smooth_method: str, system: str) -> None:
    refs = demo_refs(*REFERENCES)
    hyps = list(demo()[system]) + ["", "Light."]
    refs = refs + [refs[0], refs[1]]
    got = BLEU(smooth_method=smooth_method).sentence_scores(hyps, refs)
    want = [
        sacrebleu.sentence_bleu(h, list(r), smooth_method=smooth_method).score
        for h, r in zip(hyps, refs, strict=True)
    ]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)


def test_signature_extends_sacrebleus() -> None:
    refs = demo_refs(*REFERENCES)
    hyps = demo()["DIDI-NLP"]
    for options in SMOOTHINGS:
        metric = sacrebleu.BLEU(**options)
        metric.corpus_score(list(hyps), stream_major(refs))
        theirs = str(metric.get_signature()).rsplit("|version:", 1)[0]
        mine = BLEU(**options).signature(refs)
        trimmed = "|".join(
            p for p in mine.split("|") if p.split(":")[0] not in {"reflen", "bounds"}
        )
        assert trimmed == f"{theirs}|version:{__version__}"
    assert BLEU().signature(refs) == (
        f"nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|reflen:closest|bounds:no|version:{__version__}"
    )


# ------------------------------------------------------------------ hand-computed

CAT_HYP = "the cat sat on the mat"
CAT_REF = "the cat sat on a mat"


@pytest.mark.parametrize(
    "metric, hyp, ref, expected",
    [
        # p_1 = (5+1)/(6+1), p_2 = 3/5, p_3 = 2/4, p_4 = 1/3, BP = 1
        (BLEUS(tokenize="none"), CAT_HYP, CAT_REF, 100 * (6 / 7 * 3 / 5 * 2 / 4 * 1 / 3) ** 0.25),
        (BLEU(tokenize="none", smooth_method="bleu-s"), CAT_HYP, CAT_REF, 100 * (18 / 210) ** 0.25),
        # the same without s_1: plain BLEU
        (BLEU(tokenize="none", smooth_method="none"), CAT_HYP, CAT_REF, 100 * (1 / 12) ** 0.25),
        # no unigram matches at all: only s_1 keeps the precision from 0: (0+1)/(2+1)
        (BLEUS(tokenize="none", max_ngram_order=1), "x y", "a b", 100 / 3),
        # brevity: hyp 2 words, ref 3; p_1 = (2+1)/(2+1), p_2 = 1/1
        (BLEUS(tokenize="none", max_ngram_order=2), "the cat", "the cat sat", 100 * math.exp(-0.5)),
        # a zero 4-gram precision still zeroes BLEU-S (s_4 = 0)
        (BLEUS(tokenize="none"), "a b c d", "a b c e", 0.0),
    ],
)
def test_bleu_s_by_hand(metric: BLEU, hyp: str, ref: str, expected: float) -> None:
    assert metric.corpus_score([hyp], [(ref,)]).score == pytest.approx(expected, abs=1e-9)


def test_bleu_s_names_itself() -> None:
    assert BLEUS().name == "bleu_s"
    assert "smooth:bleu-s" in BLEUS().signature([("a",)])


SCORING_OPTIONS: list[dict[str, Any]] = [
    {},
    {"smooth_method": "none"},
    {"smooth_method": "floor"},
    {"smooth_method": "add-k"},
    {"smooth_method": "bleu-s"},
    {"effective_order": True},
]


@pytest.mark.parametrize(
    "options",
    [
        *SCORING_OPTIONS,
        {"tokenize": "none"},
        {"tokenize": "char"},
        {"lowercase": True},
        {"sentence_boundaries": True},
        {"ref_length": "shortest"},
        {"ref_length": "average"},
    ],
)
def test_identical_hypothesis_and_reference_score_100(options: dict[str, Any]) -> None:
    refs = demo_refs("first reference")
    hyps = [seg[0] for seg in refs]
    metric = BLEU(**options)
    assert metric.corpus_score(hyps, refs).score == pytest.approx(100.0, abs=1e-9)
    np.testing.assert_allclose(metric.sentence_scores(hyps, refs), 100.0, atol=1e-9)


@pytest.mark.parametrize(
    "ref_length, refs, hyp, expected",
    [
        ("closest", ("a b c", "a b c d e f", "a b c d e f g h i"), "a b c d e", 6),
        ("shortest", ("a b c", "a b c d e f", "a b c d e f g h i"), "a b c d e", 3),
        ("average", ("a b c", "a b c d e f", "a b c d e f g h i"), "a b c d e", 6),
        ("closest", ("a b c d e f", "a b c d"), "a b c d e", 4),  # tie: the shorter one
        ("average", ("a b c d e f", "a b c d"), "a b c d e", 5),
        ("closest", ("a",), "", 1),
    ],
)
def test_reference_length_rules(
    ref_length: str, refs: tuple[str, ...], hyp: str, expected: float
) -> None:
    stats = BLEU(tokenize="none", ref_length=ref_length).corpus_score([hyp], [refs]).stats
    assert stats is not None
    assert stats[0, 1] == expected


def test_sentence_boundaries_count_in_ngrams_not_in_lengths() -> None:
    # <s> a b c </s> against <s> a b d </s>: unigrams 4/5, bigrams 2/4, lengths 3 and 3
    metric = BLEU(tokenize="none", sentence_boundaries=True, max_ngram_order=2)
    stats = metric.corpus_score(["a b c"], [("a b d",)]).stats
    np.testing.assert_array_equal(stats, [[3, 3, 4, 2, 5, 4]])
    assert "bounds:yes" in metric.signature([("a b d",)])


# ------------------------------------------------------------------ invariants


@pytest.mark.parametrize("system", SYSTEMS)
def test_corpus_stats_are_the_sum_of_segment_stats(system: str) -> None:
    refs = demo_refs(*REFERENCES)
    hyps = demo()[system]
    metric = BLEU()
    result = metric.corpus_score(hyps, refs)
    assert result.stats is not None
    alone = np.vstack(
        [metric.corpus_score([h], [r]).stats for h, r in zip(hyps, refs, strict=True)]
    )
    np.testing.assert_array_equal(result.stats, alone)
    assert result.score == metric.score_from_stats(alone.sum(axis=0))


@pytest.mark.parametrize("options", SCORING_OPTIONS)
def test_vectorised_score_from_stats_equals_the_loop(options: dict[str, Any]) -> None:
    refs = demo_refs(*REFERENCES)
    metric = BLEU(**options)
    stats = metric.segment_stats(demo()["IIE-MT"], metric.prepare_references(refs))
    rng = np.random.default_rng(1234)
    idx = rng.integers(0, len(stats), size=(200, len(stats)))
    samples = stats[idx].sum(axis=1)
    samples[:5] = stats[:5]  # single sentences too, some with zero higher-order matches
    samples[5] = 0.0
    vector = metric.score_from_stats(samples)
    loop = np.array([metric.score_from_stats(row) for row in samples])
    assert vector.shape == (200,)
    np.testing.assert_array_equal(vector, loop)
    assert isinstance(metric.score_from_stats(samples[0]), float)
    assert metric.score_from_stats(samples.reshape(20, 10, -1)).shape == (20, 10)
    sentence = metric.sentence_score_from_stats(stats)
    np.testing.assert_array_equal(sentence, [metric.sentence_score_from_stats(r) for r in stats])


def test_prepared_references_are_reused_across_systems() -> None:
    refs = demo_refs(*REFERENCES)
    metric = BLEU()
    prepared = metric.prepare_references(refs)
    for system in SYSTEMS:
        with_prepared = metric.corpus_score(demo()[system], refs, prepared)
        assert with_prepared.score == metric.corpus_score(demo()[system], refs).score


def test_empty_corpus_scores_zero() -> None:
    result = BLEU().corpus_score([], [])
    assert result.score == 0.0
    assert result.stats is not None
    assert result.stats.shape == (0, 10)


def _plain_stats(hyp: Sequence[str], refs: Sequence[Sequence[str]], order: int) -> list[float]:
    """The clipped counts of seed 000 §2.1.3 with Counters, sacreBLEU's closest length."""
    ref_max: Counter[tuple[str, ...]] = Counter()
    for r in refs:
        ref_max |= ngram_counts(r, order)
    hyp_counts = ngram_counts(hyp, order)
    correct = [0] * order
    total = [max(0, len(hyp) - n) for n in range(order)]
    for gram, count in hyp_counts.items():
        correct[len(gram) - 1] += min(count, ref_max[gram])
    closest = min((abs(len(hyp) - len(r)), len(r)) for r in refs)[1]
    return [len(hyp), closest, *correct, *total]


@pytest.mark.parametrize("seed", range(5))
def test_vectorised_clipping_equals_counters_on_random_text(seed: int) -> None:
    rnd = random.Random(seed)
    words = ["a", "b", "c", "d", "e", "f"]  # a small vocabulary: many repeated n-grams

    def sentence() -> tuple[str, ...]:
        return tuple(rnd.choice(words) for _ in range(rnd.randint(0, 12)))

    refs = [tuple(sentence() for _ in range(rnd.randint(1, 4))) for _ in range(60)]
    hyps = [sentence() + (("zz",) if rnd.random() < 0.2 else ()) for _ in range(60)]
    pp = Preprocessor(tokenize="none")
    ref_text = [tuple(" ".join(r) for r in seg) for seg in refs]
    matches = match_hypotheses([" ".join(h) for h in hyps], index_references(ref_text, pp, 4))
    got = np.column_stack([matches.lengths, matches.clipped_sums(), matches.totals])
    want = np.array([_plain_stats(h, r, 4) for h, r in zip(hyps, refs, strict=True)])
    np.testing.assert_array_equal(got, np.delete(want, 1, axis=1))
    stats = BLEU(tokenize="none").corpus_score([" ".join(h) for h in hyps], ref_text).stats
    np.testing.assert_array_equal(stats, want)


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "options, message",
    [
        ({"smooth_method": "laplace"}, "smooth_method='laplace'"),
        ({"smooth_method": "exp", "smooth_value": 0.1}, "smooth_value=0.1"),
        ({"smooth_method": "floor", "smooth_value": -1.0}, "smooth_value=-1.0"),
        ({"max_ngram_order": 0}, "max_ngram_order=0"),
        ({"ref_length": "longest"}, "ref_length='longest'"),
    ],
)
def test_bad_options_raise(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BLEU(**options)


def test_misused_statistics_and_references_raise() -> None:
    refs = [("a b c",)]
    prepared = BLEU(tokenize="none").prepare_references(refs)
    with pytest.raises(ValueError, match="prepared references were made with"):
        BLEU(tokenize="13a").segment_stats(["a b c"], prepared)
    with pytest.raises(ValueError, match="2 hypotheses"):
        BLEU(tokenize="none").segment_stats(["a", "b"], prepared)
    with pytest.raises(ValueError, match=r"stats of shape \(7,\)"):
        BLEU().score_from_stats(np.zeros(7))
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        BLEU().prepare_references([()])


def test_bleu_from_stats_handles_no_rows() -> None:
    assert bleu_from_stats(np.zeros((0, 10))).shape == (0,)
