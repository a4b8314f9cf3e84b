"""WER, SER, mWER and PER: parity with jiwer on the demo corpus, hand-computed cases,
the four reference-length methods, invariants."""

from __future__ import annotations

from collections import Counter

import jiwer
import numpy as np
import pytest

from metrics import __version__
from metrics.align import align
from metrics.stats import Metric
from metrics.tests.demo import SYSTEMS, demo, demo_refs
from metrics.tokenize import Preprocessor
from metrics.wer import (
    MWER,
    PER,
    SER,
    WER,
    EditRefs,
    RefLength,
    per_distance,
    rate,
    reduce_references,
)

NONE = Preprocessor(tokenize="none")
METHODS = ("average", "closest", "nearest", "best")


def all_metrics() -> list[Metric]:
    out: list[Metric] = [WER(), SER(), WER(NONE)]
    out += [MWER(ref_length=m) for m in METHODS]
    out += [PER(ref_length=m) for m in METHODS]
    return out


# ------------------------------------------------------------------ parity with jiwer


@pytest.mark.parametrize("system", SYSTEMS)
def test_wer_equals_jiwer_on_demo(system: str) -> None:
    """Corpus WER, its edit and length totals, and every sentence's edits match jiwer."""
    hyps = demo()[system]
    refs = demo_refs()
    first = [seg[0] for seg in refs]
    metric = WER(NONE)
    score = metric.corpus_score(hyps, refs)
    assert score.score == pytest.approx(100 * jiwer.wer(first, list(hyps)), abs=1e-9)
    words = jiwer.process_words(first, list(hyps))
    assert score.stats is not None
    assert score.stats[:, 0].sum() == words.substitutions + words.deletions + words.insertions
    assert score.stats[:, 1].sum() == words.hits + words.substitutions + words.deletions
    for k, (hyp, ref) in enumerate(zip(hyps, first, strict=True)):
        one = jiwer.process_words(ref, hyp)
        assert score.stats[k, 0] == one.substitutions + one.deletions + one.insertions
        ours = align(NONE.tokens(hyp), NONE.tokens(ref))
        assert ours.distance == score.stats[k, 0]
        # same distance; our tie-break keeps at least as many words as matches
        assert ours.matches >= one.hits


@pytest.mark.parametrize("system", SYSTEMS)
def test_wer_13a_equals_jiwer_on_pretokenized_text(system: str) -> None:
    """With 13a, WER is jiwer's WER on the 13a tokens joined by spaces."""
    pp = Preprocessor(tokenize="13a")
    hyps = demo()[system]
    refs = demo_refs()
    joined_refs = [" ".join(pp.tokens(seg[0])) for seg in refs]
    joined_hyps = [" ".join(pp.tokens(h)) for h in hyps]
    expected = 100 * jiwer.wer(joined_refs, joined_hyps)
    assert WER().corpus_score(hyps, refs).score == pytest.approx(expected, abs=1e-9)


# ------------------------------------------------------------------------- hand cases

TWO_REFS = [("a b c d", "a b c d x y z w v")]
TWO_REFS_HYP = ["a b c d e f g h"]
# candidate 8 words; ref A: 4 words, 4 edits (relative 1.0); ref B: 9 words, 5 edits
# (relative 0.56). min distance 4 (A); closest length 9 (B); best ref B.
REF_LENGTH_CASES = [
    ("average", 4.0, 6.5),
    ("closest", 4.0, 9.0),
    ("nearest", 4.0, 4.0),
    ("best", 5.0, 9.0),
]


@pytest.mark.parametrize("metric_class", [MWER, PER])
@pytest.mark.parametrize("method, errors, length", REF_LENGTH_CASES)
def test_four_reference_lengths_differ(
    metric_class: type[MWER] | type[PER], method: str, errors: float, length: float
) -> None:
    """Seed 000 §3.3 on one 2-reference segment where all four methods disagree
    (PER distances equal the Levenshtein ones here: 4 and 5)."""
    metric = metric_class(NONE, ref_length=method)
    score = metric.corpus_score(TWO_REFS_HYP, TWO_REFS)
    assert score.stats is not None
    assert score.stats.tolist() == [[errors, length]]
    assert score.score == pytest.approx(100 * errors / length)


@pytest.mark.parametrize(
    "distances, lengths, hyp_length, method, expected",
    [
        # two references at the minimum distance: nearest averages their lengths
        ([1, 1], [2, 4], 3, "nearest", (1.0, 3.0)),
        # closest: equally near lengths → the shorter one (BLEU's rule)
        ([1, 1], [2, 4], 3, "closest", (1.0, 2.0)),
        ([1, 1], [4, 2], 3, "closest", (1.0, 2.0)),
        ([1, 1], [2, 4], 3, "average", (1.0, 3.0)),
        ([1, 1], [2, 4], 3, "best", (1.0, 4.0)),
        # best: equal relative error 1/2 = 2/4 → the smaller distance, in either order
        ([1, 2], [2, 4], 2, "best", (1.0, 2.0)),
        ([2, 1], [4, 2], 2, "best", (1.0, 2.0)),
        # best: an empty reference is perfect for an empty candidate, never otherwise
        ([0, 1], [0, 1], 0, "best", (0.0, 0.0)),
        ([1, 2], [0, 2], 1, "best", (2.0, 2.0)),
        ([1], [0], 1, "best", (1.0, 0.0)),
        # best may use more edits than the minimum
        ([3, 4], [3, 10], 6, "best", (4.0, 10.0)),
    ],
)
def test_reduce_references(
    distances: list[int],
    lengths: list[int],
    hyp_length: int,
    method: RefLength,
    expected: tuple[float, float],
) -> None:
    assert reduce_references(distances, lengths, hyp_length, method) == expected


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        # ½(|4 − 3| + |a| 0 + |b| 0 + |c| 1 + |d| 1 + |e| 1) = ½(1 + 3) = 2
        ("a b c d", "b a e", 2),
        # ½(|4 − 3| + |the| 2 + |cat| 0 + |sat| 1) = 2
        ("the the the cat", "the cat sat", 2),
        ("c b a", "a b c", 0),
        ("", "a b", 2),
        ("a b", "", 2),
        ("x y", "a b", 2),
        ("a a", "a", 1),
    ],
)
def test_per_hand_computed(hyp: str, ref: str, expected: int) -> None:
    """Seed 000 §2.1.2's formula, worked by hand; the corpus PER follows from it."""
    h, r = hyp.split(), ref.split()
    assert per_distance(Counter(h), len(h), Counter(r), len(r)) == expected
    stats = PER(NONE).segment_stats([hyp], PER(NONE).prepare_references([(ref,)]))
    assert stats.tolist() == [[expected, len(r)]]


def test_ser_counts_sentences_not_identical_to_the_first_reference() -> None:
    refs = [("a b", "x"), ("a b", "x"), ("a b", "x"), ("a b", "x")]
    # identical; identical after tokenization; one word off; equal to the 2nd reference only
    hyps = ["a b", " a   b ", "a c", "x"]
    score = SER(NONE).corpus_score(hyps, refs)
    assert score.stats is not None
    assert score.stats.tolist() == [[0, 1], [0, 1], [1, 1], [1, 1]]
    assert score.score == 50.0
    assert SER(NONE).sentence_scores(hyps, refs).tolist() == [0.0, 0.0, 100.0, 100.0]


def test_wer_uses_only_the_first_reference_and_mwer_all() -> None:
    refs = [("a b c", "x y z")]
    hyps = ["x y z"]
    assert WER(NONE).corpus_score(hyps, refs).score == 100.0
    for method in METHODS:
        assert MWER(NONE, ref_length=method).corpus_score(hyps, refs).score == 0.0


@pytest.mark.parametrize(
    "hyp, ref, row, sentence",
    [
        ("a b", "a b c d", [2, 4], 50.0),
        ("a b c d e", "a b", [3, 2], 150.0),  # WER can exceed 100
        ("", "", [0, 0], 0.0),  # empty reference, no edits → 0
        ("a", "", [1, 0], 100.0),  # empty reference, one insertion over 1
        ("a b c", "", [3, 0], 300.0),  # three insertions over 1 (jiwer's rule)
        ("", "a b", [2, 2], 100.0),
    ],
)
def test_wer_rows_and_sentence_scores(hyp: str, ref: str, row: list[int], sentence: float) -> None:
    metric = WER(NONE)
    stats = metric.segment_stats([hyp], metric.prepare_references([(ref,)]))
    assert stats.tolist() == [row]
    assert metric.sentence_scores([hyp], [(ref,)]).tolist() == [sentence]


@pytest.mark.parametrize(
    "empty_reference, expected",
    [("ins", [[25.0, 0.0], [300.0, 25.0]]), ("100", [[25.0, 0.0], [100.0, 25.0]])],
)
def test_rate_is_vectorised(empty_reference: str, expected: list[list[float]]) -> None:
    """Bootstrap samples (B, 2) are scored in one call."""
    stats = np.array([[[1, 4], [0, 0]], [[3, 0], [2, 8]]], dtype=np.float64)
    assert rate(stats, empty_reference).tolist() == expected


# --------------------------------------------------------------- an empty reference

#: (references, candidates): one segment, or a corpus, with empty references.
EMPTY_REFERENCE_CASES = [
    ([""], ["a b c"]),
    ([""], [""]),
    ([""], ["a"]),
    (["", ""], ["a", "b c"]),  # every reference empty: the corpus rate too
    (["a b", ""], ["a b", "x y"]),  # one empty: only that sentence's rate
    (["", "a b c d"], ["x", "a b"]),
]


@pytest.mark.parametrize("refs, hyps", EMPTY_REFERENCE_CASES)
def test_an_empty_reference_is_the_insertions_over_1_as_jiwer(
    refs: list[str], hyps: list[str]
) -> None:
    metric = WER(NONE)  # empty_reference="ins", the default
    segments = [(r,) for r in refs]
    assert metric.corpus_score(hyps, segments).score == pytest.approx(100 * jiwer.wer(refs, hyps))
    assert metric.sentence_scores(hyps, segments).tolist() == pytest.approx(
        [100 * jiwer.wer(r, h) for r, h in zip(refs, hyps, strict=True)]
    )
    assert "|empty:ins|" in metric.signature(segments)


@pytest.mark.parametrize("refs, hyps", EMPTY_REFERENCE_CASES)
def test_an_empty_reference_is_0_or_100_percent_on_request(
    refs: list[str], hyps: list[str]
) -> None:
    """jiwer's own rule for the match error rate of an empty reference (0 without a
    candidate word, 1 with any); where no reference is empty the two rules agree."""
    metric = WER(NONE, empty_reference="100")
    segments = [(r,) for r in refs]
    expected = [
        100 * (jiwer.mer(r, h) if not r else jiwer.wer(r, h))
        for r, h in zip(refs, hyps, strict=True)
    ]
    assert metric.sentence_scores(hyps, segments).tolist() == pytest.approx(expected)
    whole = jiwer.mer(refs, hyps) if not any(refs) else jiwer.wer(refs, hyps)
    assert metric.corpus_score(hyps, segments).score == pytest.approx(100 * whole)
    assert "|empty:100|" in metric.signature(segments)


@pytest.mark.parametrize("metric_class", [WER, MWER, PER])
def test_the_rule_reaches_every_rate_of_the_family(
    metric_class: type[WER] | type[MWER] | type[PER],
) -> None:
    hyps, refs = ["a b c"], [("",)]
    assert metric_class(NONE).corpus_score(hyps, refs).score == 300.0
    capped = metric_class(NONE, empty_reference="100")
    assert capped.corpus_score(hyps, refs).score == 100.0


def test_an_unknown_empty_reference_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown empty_reference 'cap'"):
        WER(empty_reference="cap")


# ------------------------------------------------------------------------- invariants


@pytest.mark.parametrize("metric", all_metrics(), ids=lambda m: f"{m.name}-{m.signature([('x',)])}")
def test_corpus_stats_are_the_sum_of_segment_stats(metric: Metric) -> None:
    refs = demo_refs()
    hyps = demo()["NiuTrans"]
    prepared = metric.prepare_references(refs)
    rows = np.vstack(
        [
            metric.segment_stats([h], metric.prepare_references([r]))
            for h, r in zip(hyps, refs, strict=True)
        ]
    )
    score = metric.corpus_score(hyps, refs, prepared)
    assert score.stats is not None
    assert np.array_equal(score.stats, rows)
    assert score.score == pytest.approx(float(metric.score_from_stats(rows.sum(axis=0))))
    assert score.stats.dtype == np.float64
    assert score.stats.shape == (len(hyps), 2)


@pytest.mark.parametrize("metric", all_metrics(), ids=lambda m: m.name)
def test_identical_candidate_scores_zero(metric: Metric) -> None:
    refs = demo_refs()
    hyps = [seg[0] for seg in refs]
    assert metric.corpus_score(hyps, refs).score == 0.0
    assert not metric.sentence_scores(hyps, refs).any()


@pytest.mark.parametrize("method", METHODS)
def test_mwer_and_per_with_one_reference(method: str) -> None:
    """One reference: every method is that reference's length and distance, so mWER is
    WER; PER never exceeds it (a bag-of-words distance is a lower bound)."""
    refs = [(seg[0],) for seg in demo_refs()]
    for system in SYSTEMS:
        hyps = demo()[system]
        wer = WER().corpus_score(hyps, refs)
        mwer = MWER(ref_length=method).corpus_score(hyps, refs)
        per = PER(ref_length=method).corpus_score(hyps, refs)
        assert wer.stats is not None
        assert mwer.stats is not None
        assert per.stats is not None
        assert np.array_equal(mwer.stats, wer.stats)
        assert np.all(per.stats[:, 0] <= wer.stats[:, 0])
        assert np.array_equal(per.stats[:, 1], wer.stats[:, 1])


@pytest.mark.parametrize("system", SYSTEMS)
def test_mwer_never_exceeds_the_first_reference_distance(system: str) -> None:
    refs = demo_refs()
    hyps = demo()[system]
    wer = WER().corpus_score(hyps, refs)
    mwer = MWER().corpus_score(hyps, refs)
    per = PER().corpus_score(hyps, refs)
    assert wer.stats is not None
    assert mwer.stats is not None
    assert per.stats is not None
    assert np.all(mwer.stats[:, 0] <= wer.stats[:, 0])
    assert np.all(per.stats[:, 0] <= mwer.stats[:, 0])
    assert mwer.score < wer.score


def test_prepared_references_are_reused_and_memoized() -> None:
    """One preparation for every system; a sentence repeated by two systems is looked up."""
    refs = demo_refs()
    metric = MWER()
    prepared = metric.prepare_references(refs)
    assert isinstance(prepared, EditRefs)
    first = metric.segment_stats(demo()["DIDI-NLP"], prepared)
    memo_size = len(prepared.memo)
    again = metric.segment_stats(demo()["DIDI-NLP"], prepared)
    assert np.array_equal(first, again)
    assert len(prepared.memo) == memo_size == len(refs)
    fresh = metric.segment_stats(demo()["IIE-MT"], metric.prepare_references(refs))
    assert np.array_equal(metric.segment_stats(demo()["IIE-MT"], prepared), fresh)
    # DIDI-NLP and IIE-MT output some identical sentences: only the others were added
    shared = sum(a == b for a, b in zip(demo()["DIDI-NLP"], demo()["IIE-MT"], strict=True))
    assert shared > 0
    assert len(prepared.memo) == 2 * len(refs) - shared


# --------------------------------------------------------------------- signatures, errors


@pytest.mark.parametrize(
    "metric, expected",
    [
        (WER(), "nrefs:1|tok:13a|case:mixed|bounds:no|empty:ins"),
        (WER(empty_reference="100"), "nrefs:1|tok:13a|case:mixed|bounds:no|empty:100"),
        (SER(Preprocessor(lowercase=True)), "nrefs:1|tok:13a|case:lc|bounds:no"),
        (MWER(), "nrefs:2|tok:13a|case:mixed|bounds:no|reflen:nearest|empty:ins"),
        (
            PER(NONE, ref_length="best"),
            "nrefs:2|tok:none|case:mixed|bounds:no|reflen:best|empty:ins",
        ),
    ],
)
def test_signatures(metric: Metric, expected: str) -> None:
    assert metric.signature(demo_refs()) == f"{expected}|version:{__version__}"


def test_names() -> None:
    assert [m.name for m in (WER(), SER(), MWER(), PER())] == ["wer", "ser", "mwer", "per"]


def test_nrefs_varies() -> None:
    assert MWER().signature([("a",), ("a", "b")]).startswith("nrefs:var|")


@pytest.mark.parametrize("metric_class", [MWER, PER])
def test_unknown_reference_length_is_refused(metric_class: type[MWER] | type[PER]) -> None:
    with pytest.raises(ValueError, match="'shortest'"):
        metric_class(ref_length="shortest")


def test_prepared_references_belong_to_their_metric() -> None:
    refs = demo_refs()
    hyps = demo()["DIDI-NLP"]
    with pytest.raises(ValueError, match="prepared for"):
        MWER(ref_length="best").segment_stats(hyps, MWER().prepare_references(refs))
    with pytest.raises(ValueError, match="prepared for"):
        WER().segment_stats(hyps, WER(NONE).prepare_references(refs))
    with pytest.raises(ValueError, match="39 hypotheses but 40"):
        WER().segment_stats(hyps[:-1], WER().prepare_references(refs))


@pytest.mark.parametrize("metric", all_metrics(), ids=lambda m: m.name)
def test_segment_without_reference_is_refused(metric: Metric) -> None:
    with pytest.raises(ValueError, match="segment 2 has no reference"):
        metric.prepare_references([("a",), ()])
