"""chrF and chrF++: parity with sacreBLEU 2.6 (statistics, corpus and sentence scores),
hand cases and the invariants every metric here keeps."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
import sacrebleu

from metrics import __version__
from metrics.chrf import CHAR_ORDER, CHRF, CHRFPlusPlus, chrf_words, pair_stats
from metrics.tests.demo import README_REFS, README_SYS, REFERENCES, SYSTEMS, demo, demo_refs
from metrics.tokenize import Preprocessor

VARIANTS = [
    pytest.param(CHRF, {}, id="chrf"),
    pytest.param(CHRFPlusPlus, {"word_order": 2}, id="chrf++"),
]


def stream_major(refs: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """sacreBLEU's layout; missing references of a segment are None."""
    width = max(len(seg) for seg in refs)
    return [[seg[r] if r < len(seg) else None for seg in refs] for r in range(width)]


def assert_parity(
    metric: CHRF, hyps: Sequence[str], refs: Sequence[Sequence[str]], **sacre_kw: Any
) -> None:
    """Segment statistics equal, corpus score and every sentence score within 0.01
    (in fact to 1e-9)."""
    theirs = sacrebleu.CHRF(**sacre_kw)
    streams = stream_major(refs)
    s_stats = np.array(theirs._extract_corpus_statistics(list(hyps), streams), dtype=np.float64)
    result = metric.corpus_score(hyps, refs)
    assert result.stats is not None
    np.testing.assert_array_equal(result.stats, s_stats)
    assert result.score == pytest.approx(
        theirs.corpus_score(list(hyps), streams).score, abs=1e-9, rel=0
    )
    sentence = metric.sentence_scores(hyps, refs)
    expected = [theirs.sentence_score(h, list(r)).score for h, r in zip(hyps, refs, strict=True)]
    np.testing.assert_allclose(sentence, expected, atol=1e-9, rtol=0)


@pytest.mark.parametrize("cls, kw", VARIANTS)
@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("references", [REFERENCES[:1], REFERENCES])
def test_demo_corpus_equals_sacrebleu(
    cls: type[CHRF], kw: dict[str, Any], system: str, references: tuple[str, ...]
) -> None:
    assert_parity(cls(), demo()[system], demo_refs(*references), **kw)


@pytest.mark.parametrize("cls, kw", VARIANTS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_readme_example_equals_sacrebleu(
    cls: type[CHRF], kw: dict[str, Any], lowercase: bool
) -> None:
    metric = cls(Preprocessor(lowercase=lowercase))
    assert_parity(metric, README_SYS, README_REFS, lowercase=lowercase, **kw)


ALPHABET = ["a", "b", "ab", "ba", "c", "0", "é", "Ab", "x.", "(y", "z,", "!", "漢字", "a-b", "."]


def generated(seed: int, width: int) -> tuple[list[str], list[tuple[str, ...]]]:
    """Sentences of repeated short words and punctuation: n-grams repeat within a line
    (clipping matters), references differ in number (1…width) and length (empty too)."""
    rnd = random.Random(seed)

    def sentence() -> str:
        return " ".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 9)))

    refs = [tuple(sentence() for _ in range(rnd.randint(1, width))) for _ in range(40)]
    hyps = [rnd.choice([sentence(), seg[0] + " a"]) for seg in refs]
    return hyps, refs


@pytest.mark.parametrize("cls, kw", VARIANTS)
@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(5))
def test_generated_multi_reference_equals_sacrebleu(
    cls: type[CHRF], kw: dict[str, Any], width: int, seed: int
) -> None:
    hyps, refs = generated(seed * 10 + width, width)
    assert_parity(cls(), hyps, refs, **kw)


@pytest.mark.parametrize("option", [{"whitespace": True}, {"eps_smoothing": True}])
@pytest.mark.parametrize("cls, kw", VARIANTS)
def test_options_equal_sacrebleu(
    cls: type[CHRF], kw: dict[str, Any], option: dict[str, bool]
) -> None:
    hyps, refs = generated(99, 3)
    assert_parity(cls(**option), hyps, refs, **kw, **option)


def test_many_distinct_characters_take_the_dense_path() -> None:
    """Over 2,000 distinct characters, 6-grams do not fit one integer: renumbered per
    order, with the same statistics."""
    rnd = random.Random(3)
    chars = [chr(0x4E00 + i) for i in range(3000)]
    refs = [("".join(rnd.choices(chars, k=30)),) for _ in range(30)]
    hyps = [r[0][:20] + "".join(rnd.choices(chars, k=5)) for (r,) in refs]
    assert_parity(CHRF(), hyps, refs)


# ------------------------------------------------------------------ hand cases


def test_hand_case() -> None:
    """ "ab" against "abc": P = 1 at orders 1–2 (order 3: the candidate has no trigram,
    so only two orders count), R = 2/3 and 1/2; P̄ = 1, R̄ = 7/12;
    chrF2 = 5·P̄·R̄/(4·P̄ + R̄) = (35/12)/(55/12) = 7/11."""
    score = CHRF().corpus_score(["a b"], [("abc",)])
    assert score.score == pytest.approx(100 * 7 / 11, abs=1e-12)
    np.testing.assert_array_equal(score.stats[0, :9], [2, 3, 2, 1, 2, 1, 0, 1, 0])


def test_best_reference_is_the_one_with_the_best_f() -> None:
    """The second reference is identical: its row is kept (100), not the first's."""
    score = CHRF().corpus_score(["abc"], [("xyz", "abc")])
    assert score.score == pytest.approx(100.0)


def test_words_split_one_punctuation_mark() -> None:
    words = chrf_words("(hi) a, b. !x", lowercase=False)
    assert words == ["(hi", ")", "a", ",", "b", ".", "!", "x"]


def test_empty_candidate_and_reference() -> None:
    assert CHRF().corpus_score([""], [("",)]).score == 0.0
    assert CHRF().corpus_score([""], [("abc",)]).score == 0.0


# ------------------------------------------------------------------ invariants


def test_corpus_score_is_the_score_of_summed_rows() -> None:
    hyps, refs = generated(7, 3)
    metric = CHRFPlusPlus()
    score = metric.corpus_score(hyps, refs)
    assert score.stats is not None
    assert score.stats.shape == (len(hyps), 3 * 8)
    assert score.score == metric.score_from_stats(score.stats.sum(axis=0))
    rng = np.random.default_rng(1)
    idx = rng.integers(0, len(hyps), size=(50, len(hyps)))
    boot = metric.score_from_stats(score.stats[idx].sum(axis=1))
    assert boot.shape == (50,)
    assert metric.score_from_stats(score.stats[idx[3]].sum(axis=0)) == boot[3]


def test_signature_records_every_choice() -> None:
    sig = CHRFPlusPlus(Preprocessor(tokenize="intl", lowercase=True)).signature([("a", "b")])
    expected = "nrefs:2|case:lc|eff:yes|nc:6|nw:2|beta:2|space:no|tok:none"
    assert sig == f"{expected}|version:{__version__}"


def test_tokenizer_does_not_apply() -> None:
    hyps, refs = generated(5, 2)
    plain = CHRF(Preprocessor(tokenize="13a")).corpus_score(hyps, refs).score
    assert CHRF(Preprocessor(tokenize="char")).corpus_score(hyps, refs).score == plain


@pytest.mark.parametrize(
    "kw", [{"char_order": 0}, {"word_order": -1}, {"beta": 0}, {"char_order": 2.5}]
)
def test_bad_options_are_refused(kw: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(kw))):
        CHRF(**kw)


def test_words_equal_sacrebleus_loop_on_random_strings() -> None:
    """The two substitutions of ``chrf_words`` are sacreBLEU's ``_remove_punctuation``."""
    theirs = sacrebleu.CHRF(word_order=2)
    rnd = random.Random(0)
    alphabet = [*"ab(),.!-\"'[]x_", " ", "  ", "\t", "é", "漢"]
    for _ in range(20000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
        assert chrf_words(text, lowercase=False) == theirs._remove_punctuation(text), text


def plain_matches(hyp: str, ref: str, n: int) -> int:
    """Σ_g min(count in hyp, count in ref) of the character n-grams (spaces removed)."""
    h, r = hyp.replace(" ", ""), ref.replace(" ", "")
    hc = Counter(h[i : i + n] for i in range(len(h) - n + 1))
    rc = Counter(r[i : i + n] for i in range(len(r) - n + 1))
    return sum((hc & rc).values())


def many_references(seed: int) -> tuple[list[str], list[tuple[str, ...]]]:
    """A grown reference pool: up to 30 references per segment, near-copies of each other
    and of the candidate, duplicates and empty ones, several candidates per segment."""
    rnd = random.Random(seed)
    hyps, refs = [], []
    for _ in range(12):
        base = [rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 12))]
        seg = []
        for _ in range(rnd.randint(1, 30)):
            words = list(base)
            for _ in range(rnd.randint(0, 3)):
                if words and rnd.random() < 0.5:
                    words.pop(rnd.randrange(len(words)))
                else:
                    words.insert(rnd.randint(0, len(words)), rnd.choice(ALPHABET))
            seg.append(" ".join(words))
        seg += [r for r in seg if rnd.random() < 0.2] + [""] * (rnd.random() < 0.2)
        refs.append(tuple(seg))
        hyps.append(rnd.choice([*seg, " ".join(base), ""]))
    return hyps, refs


@pytest.mark.parametrize("seed", range(4))
def test_every_reference_slot_counts_the_clipped_matches(seed: int) -> None:
    """Each (candidate, reference) pair's matches of every order, for every slot, not
    only the best reference's: against Counter intersections, two candidates a segment."""
    hyps, refs = many_references(seed)
    cands = hyps + [h[::-1] for h in hyps]
    cand_segment = np.asarray(list(range(len(hyps))) * 2, dtype=np.int64)

    stats, valid = pair_stats(refs, cands, cand_segment)

    for c, (hyp, k) in enumerate(zip(cands, cand_segment.tolist(), strict=True)):
        assert valid[c].tolist() == [s < len(refs[k]) for s in range(valid.shape[1])]
        for slot, ref in enumerate(refs[k]):
            found = [int(stats[c, slot, 3 * (n - 1) + 2]) for n in range(1, CHAR_ORDER + 1)]
            assert found == [plain_matches(hyp, ref, n) for n in range(1, CHAR_ORDER + 1)]


@pytest.mark.parametrize("cls, kw", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_many_references_equal_sacrebleu(cls: type[CHRF], kw: dict[str, Any], seed: int) -> None:
    hyps, refs = many_references(seed + 10)
    assert_parity(cls(), hyps, refs, **kw)
