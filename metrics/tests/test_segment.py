"""Re-segmentation and AS-WER (seed 002): hand cases, the full DP, brute force, and
agreement with ``mweralign`` (the C++ port of RWTH's mwerSegmenter)."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence

import mweralign
import numpy as np
import pytest

from bench.gen_corpus import iter_sentences
from metrics.align import distance
from metrics.aswer import ASWER, matching_words, resegment_text
from metrics.segment import Segmentation, _backtrace, _Grid, resegment
from metrics.tests.demo import REFERENCES, SYSTEMS, demo
from metrics.tokenize import Preprocessor

Refs = list[list[list[str]]]


def words(text: str) -> list[str]:
    return text.split()


def single(*segments: str) -> Refs:
    """One reference per segment."""
    return [[words(s)] for s in segments]


# (name, hypothesis, references per segment, boundaries, reference per segment, edits, N̂)
CASES = [
    (
        "the references joined",
        "the cat sat . it was warm . we left .",
        single("the cat sat .", "it was warm .", "we left ."),
        (4, 8, 11),
        (0, 0, 0),
        0,
        11,
    ),
    (
        # "and" takes the place of the first sentence's full stop: one substitution
        "two sentences merged into one",
        "the cat sat on the mat and it was warm .",
        single("the cat sat on the mat .", "it was warm ."),
        (7, 11),
        (0, 0),
        1,
        11,
    ),
    (
        "one sentence split in two",
        "the cat sat on the mat . it was warm . we left .",
        single("the cat sat on the mat because it was warm .", "we left ."),
        (11, 14),
        (0, 0),
        1,
        14,
    ),
    (
        "a dropped sentence is an empty segment",
        "the cat sat . we left .",
        single("the cat sat .", "it was warm .", "we left ."),
        (4, 4, 7),
        (0, 0, 0),
        4,
        11,
    ),
    (
        "the recombination picks the better reference per segment",
        "the cat sat . it was hot .",
        [
            [words("the cat sat ."), words("a cat sat .")],
            [words("it was warm ."), words("it was hot .")],
        ],
        (4, 8),
        (0, 1),
        0,
        8,
    ),
    (
        "an empty hypothesis deletes every word of the shortest references",
        "",
        [[words("a b c"), words("x y")], [words("d e")]],
        (0, 0),
        (1, 0),
        4,
        4,
    ),
    (
        "a hypothesis longer than all references inserts at both ends",
        "so the cat sat . we left . yes indeed",
        [[words("the cat sat ."), words("a cat .")], [words("we left ."), words("we go")]],
        (5, 10),
        (0, 0),
        3,
        7,
    ),
    (
        # tie: the extra word costs one edit in either segment; the rule (deletion, then
        # insertion, then substitution) ends the first segment after it
        "a word between two segments goes to the first (tie rule)",
        "a b x c d",
        single("a b", "c d"),
        (3, 5),
        (0, 0),
        1,
        4,
    ),
]


@pytest.mark.parametrize(
    "hyp, refs, boundaries, chosen, edits, ref_length",
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_hand_cases(
    hyp: str,
    refs: Refs,
    boundaries: tuple[int, ...],
    chosen: tuple[int, ...],
    edits: int,
    ref_length: int,
) -> None:
    seg = resegment(words(hyp), refs, mweralign=False)

    assert seg.boundaries == boundaries
    assert seg.reference_per_segment == chosen
    assert (seg.edits, seg.ref_length) == (edits, ref_length)
    assert seg.edits == brute_force(words(hyp), refs)
    # no case leaves its first segment empty: mwerSegmenter's charge changes nothing
    assert resegment(words(hyp), refs) == seg


@pytest.mark.parametrize(
    "hyp, refs, mweralign, boundaries, chosen, edits, ref_length",
    [
        # the first sentence missing: deleting it costs its 3 words as defined; in
        # mwerSegmenter's DP one edit more (its end), as much as giving it the first word
        # (3 edits) and deleting "we" from the second (1): the tie rule takes that split
        ("we left .", single("it was warm", "we left ."), False, (0, 3), (0, 0), 3, 6),
        ("we left .", single("it was warm", "we left ."), True, (1, 3), (0, 0), 4, 6),
        # two sentences missing: as defined 3 deletions; charged 3 + 2, so a word goes to
        # the first segment and the second is empty (not before the first word: 1 edit)
        ("c d e", single("a b", "x", "c d e"), False, (0, 0, 3), (0, 0, 0), 3, 6),
        ("c d e", single("a b", "x", "c d e"), True, (1, 1, 3), (0, 0, 0), 4, 6),
        # several references: an empty first segment costs its shortest reference as
        # defined, its longest + 1 charged (here 4, against 2 for the split taken)
        ("c d", [[words("a b c"), words("a")], [words("c d")]], False, (0, 2), (1, 0), 1, 3),
        ("c d", [[words("a b c"), words("a")], [words("c d")]], True, (1, 2), (1, 0), 2, 3),
    ],
)
def test_mwersegmenters_charge_before_the_first_word(
    hyp: str,
    refs: Refs,
    mweralign: bool,
    boundaries: tuple[int, ...],
    chosen: tuple[int, ...],
    edits: int,
    ref_length: int,
) -> None:
    seg = resegment(words(hyp), refs, mweralign=mweralign)

    assert (seg.boundaries, seg.reference_per_segment) == (boundaries, chosen)
    assert (seg.edits, seg.ref_length) == (edits, ref_length)
    assert seg.edits == brute_force(words(hyp), refs, mweralign)


def test_an_empty_hypothesis_scores_100_percent_and_empty_segments() -> None:
    seg, segments = resegment_text("", [("a b c",), ("d e",)], Preprocessor("none"))

    assert segments == ["", ""]
    assert seg.rate == 1.0


def test_segments_are_the_words_cut_at_the_boundaries() -> None:
    seg = Segmentation((2, 2, 5), (0, 0, 0), (0, 1, 0), (2, 1, 3))

    assert seg.segments(words("a b c d e")) == ["a b", "", "c d e"]
    with pytest.raises(ValueError, match="4 words but the segmentation covers 5"):
        seg.split(words("a b c d"))


def test_bad_references_are_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="no reference segments"):
        resegment(["a"], [])
    with pytest.raises(ValueError, match="segment 2 has no reference"):
        resegment(["a"], [[["a"]], []])


# ------------------------------------------------------------------ brute force, full DP


def brute_force(hyp: Sequence[str], refs: Refs, mweralign: bool = False) -> int:
    """The fewest edits over every split of ``hyp`` into ``len(refs)`` segments; with
    ``mweralign``, an empty segment before the first word costs its longest reference's
    length + 1 (mwerSegmenter's charge, docs/metrics.md)."""
    n = len(hyp)
    best = None
    for cuts in itertools.combinations_with_replacement(range(n + 1), len(refs) - 1):
        ends = (*cuts, n)
        starts = (0, *cuts)
        cost = sum(
            max(len(r) for r in seg) + 1
            if mweralign and n and b == 0
            else min(distance(hyp[a:b], r) for r in seg)
            for seg, a, b in zip(refs, starts, ends, strict=True)
        )
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def random_case(rng: random.Random, n_refs: int, vocab: str = "a b c d") -> tuple[list[str], Refs]:
    v = vocab.split()
    refs = [
        [[rng.choice(v) for _ in range(rng.randint(0, 4))] for _ in range(n_refs)]
        for _ in range(rng.randint(1, 3))
    ]
    hyp = [rng.choice(v) for _ in range(rng.randint(0, 7))]
    return hyp, refs


@pytest.mark.parametrize("mweralign", [False, True], ids=["defined", "mweralign"])
@pytest.mark.parametrize("n_refs", [1, 2, 3])
def test_the_fewest_edits_of_any_split_and_any_reference(n_refs: int, mweralign: bool) -> None:
    rng = random.Random(n_refs)
    for _ in range(150):
        hyp, refs = random_case(rng, n_refs)
        seg = resegment(hyp, refs, mweralign=mweralign)
        assert seg.edits == brute_force(hyp, refs, mweralign), (hyp, refs)
        # the chosen reference of each segment: the first with the fewest edits (the
        # first reference for an empty segment mwerSegmenter charges before the first word)
        leading = mweralign and bool(hyp)
        for k, (a, b) in enumerate(zip((0, *seg.boundaries), seg.boundaries, strict=False)):
            leading = leading and a == b
            dists = [distance(hyp[a:b], r) for r in refs[k]]
            expected = 0 if leading else dists.index(min(dists))
            assert seg.reference_per_segment[k] == expected


def grid_of(hyp: Sequence[str], refs: Refs, mweralign: bool = False) -> _Grid:
    vocab: dict[str, int] = {}
    ids = [vocab.setdefault(w, len(vocab)) for w in hyp]
    return _Grid(
        np.array(ids, dtype=np.int32),
        [[[vocab.setdefault(w, len(vocab)) for w in r] for r in seg] for seg in refs],
        mweralign=mweralign,
    )


def full_dp(hyp: Sequence[str], refs: Refs, mweralign: bool = False) -> tuple[int, list[int]]:
    """The DP without windows: a threshold no alignment reaches keeps every cell."""
    cost, rows = grid_of(hyp, refs, mweralign).run(threshold=10**8, beam=0)
    assert all(len(row) == len(hyp) + 1 for _, row in rows)  # nothing was pruned
    return cost, _backtrace(rows, len(hyp))


@pytest.mark.parametrize("mweralign", [False, True], ids=["defined", "mweralign"])
@pytest.mark.parametrize("n_refs", [1, 2, 4])
def test_the_windows_give_the_full_dps_boundaries_ties_included(
    n_refs: int, mweralign: bool
) -> None:
    data = demo()
    rng = random.Random(5)
    for system in SYSTEMS[:3]:
        # the document starts with the third sentence: the first two are deleted
        hyp = words(" ".join(data[system][2:15]).lower())
        refs = [
            [words(data[REFERENCES[r % 2]][k].lower())[rng.randint(0, 2) :] for r in range(n_refs)]
            for k in range(15)
        ]
        cost, ends = full_dp(hyp, refs, mweralign)
        for beam in (1, 64):
            seg = resegment(hyp, refs, beam=beam, mweralign=mweralign)
            assert (seg.edits, list(seg.boundaries)) == (cost, ends)
        # the exact pass at the optimal cost really leaves cells out
        windowed, rows = grid_of(hyp, refs, mweralign).run(threshold=cost, beam=0)
        assert windowed == cost
        assert sum(len(row) for _, row in rows) < 0.8 * len(rows) * (len(hyp) + 1)


def test_adding_a_reference_never_raises_the_edit_count() -> None:
    """d_L as defined is a minimum over more choices; the rate d_L / N̂ can still rise
    (docs). (mwerSegmenter's charge grows with a longer reference: not a minimum.)"""
    rng = random.Random(11)
    rose = 0
    for _ in range(300):
        hyp, refs = random_case(rng, 3)
        before = resegment(hyp, [seg[:2] for seg in refs], mweralign=False)
        after = resegment(hyp, refs, mweralign=False)
        assert after.edits <= before.edits
        rose += after.rate > before.rate
    assert rose > 0  # the rate is not monotone: the property really is about d_L


# ------------------------------------------------------------------------- mweralign


def mweralign_split(
    hyp: Sequence[str], refs: Refs, capfd: pytest.CaptureFixture[str]
) -> tuple[tuple[int, ...], float]:
    """mweralign's boundaries and its printed AS-WER (percent) for the same words."""
    ref_text = "\n".join(" ### ".join(" ".join(r) for r in seg) for seg in refs)
    out = mweralign.align_texts(ref_text, " ".join(hyp))
    printed = re.findall(
        r"AS-WER \(automatic segmentation mWER\): ([\d.e+-]+)", capfd.readouterr().err
    )
    lines = out.split("\n")[: len(refs)]
    ends = tuple(itertools.accumulate(len(line.split()) for line in lines))
    return ends, float(printed[-1])


def split_cost(hyp: Sequence[str], refs: Refs, ends: Sequence[int]) -> int:
    return sum(
        min(distance(hyp[a:b], r) for r in seg)
        for seg, a, b in zip(refs, (0, *ends), ends, strict=False)
    )


@pytest.mark.parametrize("n_refs", [1, 2])
@pytest.mark.parametrize("system", SYSTEMS)
def test_identical_to_mweralign_on_the_demo_corpus(
    n_refs: int, system: str, capfd: pytest.CaptureFixture[str]
) -> None:
    data = demo()
    hyp = words(" ".join(data[system]).lower())
    refs = [
        [words(t.lower()) for t in seg]
        for seg in zip(*(data[r] for r in REFERENCES[:n_refs]), strict=True)
    ]

    seg = resegment(hyp, refs)
    ends, printed = mweralign_split(hyp, refs, capfd)

    assert seg.boundaries == ends
    assert 100 * seg.rate == pytest.approx(printed, abs=5e-5)  # mweralign prints 6 digits


def test_identical_to_mweralign_on_a_generated_corpus(capfd: pytest.CaptureFixture[str]) -> None:
    refs: Refs = []
    systems: dict[str, list[str]] = {}
    for s in iter_sentences(sentences=200, references=1, systems=2, seed=4):
        refs.append([words(s.evals[0].target.lower())])
        for e in s.evals[1:]:
            systems.setdefault(e.translator, []).extend(words(e.target.lower()))
    for hyp in systems.values():
        seg = resegment(hyp, refs)
        ends, printed = mweralign_split(hyp, refs, capfd)
        assert seg.boundaries == ends
        assert 100 * seg.rate == pytest.approx(printed, abs=5e-5)


def test_identical_to_mweralign_when_whole_sentences_are_dropped_and_inserted(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """The hard case for the windows: the best cells jump far within one row."""
    rng = random.Random(8)
    refs: Refs = []
    hyp: list[str] = []
    sentences = list(iter_sentences(sentences=200, references=2, systems=4, seed=9))
    for s in sentences:
        refs.append([words(e.target.lower()) for e in s.evals[:2]])
        if rng.random() < 0.08:
            continue  # dropped
        hyp.extend(words(s.evals[-1].target.lower()))
        if rng.random() < 0.08:  # an unrelated sentence inserted
            extra = words(rng.choice(sentences).evals[-1].target.lower())
            rng.shuffle(extra)
            hyp.extend(extra)
    seg = resegment(hyp, refs)
    ends, printed = mweralign_split(hyp, refs, capfd)

    assert seg.boundaries == ends
    assert 100 * seg.rate == pytest.approx(printed, abs=5e-5)


def as_mweralign_prints(rate: float) -> float:
    """A rate (percent) with the 6 significant digits mweralign prints (C++'s default)."""
    return float(f"{rate:.6g}")


@pytest.mark.parametrize("n_refs, seed", [(1, 1), (2, 2), (3, 3)])
def test_random_small_cases_equal_mweralign(
    n_refs: int, seed: int, capfd: pytest.CaptureFixture[str]
) -> None:
    """Every case the same boundaries and AS-WER, those where mwerSegmenter's charge
    before the first word changes the split included."""
    rng = random.Random(seed)
    charged = 0
    for _ in range(200):
        hyp, refs = random_case(rng, n_refs)
        if not hyp or any(not r for seg in refs for r in seg):
            continue  # mweralign: no segmentation of an empty candidate; no empty refs
        seg = resegment(hyp, refs)
        ends, printed = mweralign_split(hyp, refs, capfd)
        assert (seg.boundaries, as_mweralign_prints(100 * seg.rate)) == (ends, printed)
        charged += resegment(hyp, refs, mweralign=False) != seg
    assert charged > 0


def rule_based_document(segments: int, seed: int) -> tuple[list[str], list[list[list[str]]]]:
    """A long single-reference document like a rule-based system's: most words of every
    sentence wrong (substituted from a handful of words, so that many alignments tie),
    long stretches of inserted words (an untranslated passage), sentences dropped and
    merged, and the document's first sentences missing."""
    rng = random.Random(seed)
    filler = ["der", "die", "das", "und", "zu"]
    refs: list[list[list[str]]] = []
    hyp: list[str] = []
    for k, s in enumerate(iter_sentences(sentences=segments, references=1, systems=0, seed=seed)):
        ref = words(s.evals[0].target.lower())
        refs.append([ref])
        if k < 2 or rng.random() < 0.05:
            continue  # the first sentences missing, then a dropped one now and then
        for w in ref:
            x = rng.random()
            if x < 0.45:
                hyp.append(rng.choice(filler))
            elif x < 0.55:
                hyp += [w, rng.choice(filler)]
            elif x > 0.62:
                hyp.append(w)
        if rng.random() < 0.04:
            hyp += [rng.choice(filler) for _ in range(rng.randint(15, 40))]
    return hyp, refs


@pytest.mark.parametrize("segments, seed", [(60, 1), (150, 2), (300, 3)])
def test_long_rule_based_documents_equal_mweralign(
    segments: int, seed: int, capfd: pytest.CaptureFixture[str]
) -> None:
    hyp, refs = rule_based_document(segments, seed)
    seg = resegment(hyp, refs)
    ends, printed = mweralign_split(hyp, refs, capfd)

    assert seg.rate > 0.6  # mostly wrong, as rule-based output against a human reference
    assert seg.boundaries == ends
    assert as_mweralign_prints(100 * seg.rate) == printed


#: A reference with a no-break space ("10 000") and a word whose capital is not ASCII.
NBSP_REFS = [("Über 10\u00a0000 Menschen kamen .",), ("Es war kalt .",)]
NBSP_DOCUMENT = "über 10 000 Menschen kamen . Es war kalt ."


def test_mweralign_given_our_words_equals_us_given_the_raw_text_it_splits_less(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """mweralign splits words at ASCII white space only and folds ASCII letters only;
    the preprocessor splits at every Unicode space (the no-break space too, as Python,
    sacreBLEU and jiwer do) and lowercases all of Unicode. Given the preprocessor's words,
    mweralign agrees; given the raw lines it reads other words (docs/metrics.md: what made
    a WMT17 system differ)."""
    pp = Preprocessor("none", lowercase=True)
    seg, _ = resegment_text(NBSP_DOCUMENT, NBSP_REFS, pp)
    ref_words = [[list(matching_words(pp, r)[1]) for r in s] for s in NBSP_REFS]
    hyp_words = list(matching_words(pp, NBSP_DOCUMENT)[1])
    ends, printed = mweralign_split(hyp_words, ref_words, capfd)
    assert (seg.boundaries, as_mweralign_prints(100 * seg.rate)) == (ends, printed)
    assert (seg.edits, seg.ref_length) == (0, 10)

    raw = mweralign.align_texts("\n".join(r for (r,) in NBSP_REFS), NBSP_DOCUMENT)
    raw_rate = float(re.findall(r"AS-WER[^:]*: ([\d.e+-]+)", capfd.readouterr().err)[-1])
    assert raw.split("\n")[0].split() == ["über", "10", "000", "Menschen", "kamen", "."]
    assert raw_rate == as_mweralign_prints(100 * 3 / 9)  # "Über" ≠ "über", "10 000" one word


# ---------------------------------------------------------------------- the metric


@pytest.mark.parametrize("mweralign", [True, False], ids=["mweralign", "defined"])
@pytest.mark.parametrize(
    "start, empty_first", [(0, False), (3, False), (0, True)], ids=["whole", "late", "empty"]
)
def test_aswer_rows_from_the_segments_equal_the_dps_own(
    start: int, empty_first: bool, mweralign: bool
) -> None:
    """The demo systems, whole, without their first 3 sentences, and against references
    that open with an empty line (a leading empty segment mwerSegmenter charges 1)."""
    data = demo()
    refs = [tuple(seg) for seg in zip(*(data[r] for r in REFERENCES), strict=True)]
    refs = [("", ""), *refs] if empty_first else refs
    pp = Preprocessor("13a", lowercase=True)
    metric = ASWER(pp, mweralign=mweralign)
    for system in SYSTEMS if (start, empty_first) == (0, False) else SYSTEMS[:2]:
        document = "\n".join(data[system][start:])
        seg, segments = resegment_text(document, refs, pp, mweralign=mweralign)
        from_dp = metric.score_segmentation(seg, refs)
        recomputed = metric.corpus_score(segments, refs)
        assert from_dp.stats is not None
        assert recomputed.stats is not None
        np.testing.assert_array_equal(from_dp.stats, recomputed.stats)
        if empty_first:
            assert from_dp.stats[0].tolist() == [1.0 if mweralign else 0.0, 0.0]
        assert from_dp.score == pytest.approx(100 * seg.rate, abs=1e-12)
        assert from_dp.signature == (
            f"nrefs:2|tok:13a|case:lc|seg:auto|mweralign:{'yes' if mweralign else 'no'}"
            "|empty:ins|version:0.1.0"
        )


def test_lowercase_compares_case_folded_but_keeps_the_words_as_written() -> None:
    seg, segments = resegment_text(
        "The Cat sat. It was warm.",
        [("the cat sat.",), ("it was warm.",)],
        Preprocessor("13a", True),
    )

    assert segments == ["The Cat sat .", "It was warm ."]
    assert seg.edits == 0
