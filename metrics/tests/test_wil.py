"""CER, MER, WIL and WIP (issue 40, point 2) as jiwer 4 computes them: jiwer's own test
cases (tests/test_cer.py, test_measures.py and test_empty_ref.py, Apache-2.0), every
demo system segment by segment and as a corpus, and the alignment jiwer reads."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jiwer
import pytest
import rapidfuzz

from metrics.__main__ import main
from metrics.align import align
from metrics.editops import edit_counts
from metrics.tests.demo import SYSTEMS, demo
from metrics.tokenize import Preprocessor
from metrics.wil import CER, MER, WIL, WIP

WORDS = Preprocessor("none")  # jiwer's default words: split at spaces


def _scores(refs: list[str], hyps: list[str]) -> dict[str, float]:
    """Our four measures as jiwer's fractions (ours are percent)."""
    segments = [(r,) for r in refs]
    return {
        "cer": CER().corpus_score(hyps, segments).score / 100,
        "mer": MER(WORDS).corpus_score(hyps, segments).score / 100,
        "wil": WIL(WORDS).corpus_score(hyps, segments).score / 100,
        "wip": WIP(WORDS).corpus_score(hyps, segments).score / 100,
    }


# jiwer's cases: reference(s), hypothesis(es), CER
CER_CASES = [
    ("This is a test", "This is a test", 0 / 14),
    ("This is a test", "", 14 / 14),
    ("This is a test", "This test", 5 / 14),
    ("X", "X", 0),
    ("X", "X X Y Y", 6),
    ("X Y X", "X Z", 3 / 5),
    ("X", "Y", 1),
    ("X", "Y Z", 3),
    (["i", "am i good"], ["i am", "i good"], 0.6),
    (["am i good", "i"], ["i good", "i am"], 0.6),
    ("", "", 0),
    ("", "a", 1),
    ("", "abd", 3),
    ("a", "", 1),
    ("abc", "", 1),
]


def _lines(x: str | list[str]) -> list[str]:
    return [x] if isinstance(x, str) else x


@pytest.mark.parametrize("ref, hyp, cer", CER_CASES)
def test_jiwers_own_cer_cases(ref: str | list[str], hyp: str | list[str], cer: float) -> None:
    assert _scores(_lines(ref), _lines(hyp))["cer"] == pytest.approx(cer, abs=1e-15)


# jiwer's cases: reference(s), hypothesis(es), (WER,) MER, WIL; WIP is 1 − WIL
MEASURE_CASES = [
    ("This is a test", "This is a test", 0, 0),
    ("This is a test", "", 1, 1),
    ("This is a test", "This test", 0.5, 0.5),
    ("X", "X", 0, 0),
    ("X", "X X Y Y", 0.75, 0.75),
    ("X Y X", "X Z", 2 / 3, 5 / 6),
    ("X", "Y", 1, 1),
    ("X", "Y Z", 1, 1),
    (["i", "am i good"], ["i am", "i good"], 0.4, 7 / 16),
    (["am i good", "i"], ["i good", "i am"], 0.4, 7 / 16),
    # jiwer's contiguous transform: the sentences joined into one
    ("i am i good", "i am i good", 0, 0),
    ("am i good i", "i good i am", 0.4, 7 / 16),
    ("hello this sentence is fractured", "this sentence", 0.6, 0.6),
    (
        "i am a short ground truth",
        "i am a considerably longer and very much incorrect hypothesis",
        0.7,
        0.85,
    ),
    # test_empty_ref.py
    ("", "", 0, 0),
    ([""] * 3, [""] * 3, 0, 0),
    ("", "hello", 1, 1),
    ("", "0 1 2 3 4", 1, 1),
    ("hello", "", 1, 1),
    (["hello world", ""], ["hello world", "done"], 1 / 3, 1 / 3),
]


@pytest.mark.parametrize("ref, hyp, mer, wil", MEASURE_CASES)
def test_jiwers_own_measure_cases(
    ref: str | list[str], hyp: str | list[str], mer: float, wil: float
) -> None:
    found = _scores(_lines(ref), _lines(hyp))
    assert found["mer"] == pytest.approx(mer, abs=1e-15)
    assert found["wil"] == pytest.approx(wil, abs=1e-15)
    assert found["wip"] == pytest.approx(1 - wil, abs=1e-15)


def test_a_hypothesis_per_reference_segment_is_required() -> None:
    """jiwer refuses sentences of different numbers (without its contiguous transform)."""
    for metric in (CER(), MER(WORDS), WIL(WORDS), WIP(WORDS)):
        with pytest.raises(ValueError, match="parallel"):
            metric.corpus_score(["this sentence"], [("hello",), ("this",)])


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_demo_system_scores_as_jiwer(system: str) -> None:
    refs = list(demo()["first reference"])
    hyps = list(demo()[system])
    ours = _scores(refs, hyps)
    theirs = jiwer.process_words(refs, hyps)
    assert ours["mer"] == pytest.approx(theirs.mer, abs=1e-15)
    assert ours["wil"] == pytest.approx(theirs.wil, abs=1e-15)
    assert ours["wip"] == pytest.approx(theirs.wip, abs=1e-15)
    assert ours["cer"] == pytest.approx(jiwer.cer(refs, hyps), abs=1e-15)
    stats = MER(WORDS).corpus_score(hyps, [(r,) for r in refs]).stats
    assert stats is not None
    for row, ref, hyp in zip(stats.tolist(), refs, hyps, strict=True):
        one = jiwer.process_words(ref, hyp)
        assert row == [one.hits, one.substitutions, one.deletions, one.insertions]


def _rapidfuzz_counts(ref: list[int], hyp: list[int]) -> tuple[int, int, int, int]:
    hits = subs = dels = ins = 0
    for tag, i1, i2, j1, j2 in rapidfuzz.distance.Levenshtein.opcodes(ref, hyp):
        hits += (i2 - i1) * (tag == "equal")
        subs += (i2 - i1) * (tag == "replace")
        dels += (i2 - i1) * (tag == "delete")
        ins += (j2 - j1) * (tag == "insert")
    return hits, subs, dels, ins


def test_the_alignment_is_the_one_jiwer_reads() -> None:
    """Among alignments with the fewest edits, the one whose hits jiwer counts: "a b"
    against "b c" is two substitutions to it, no hit, where the WER family's alignment
    (the most hits) has a deletion, a hit and an insertion; and on random sequences,
    short and beyond one 64-bit word, rapidfuzz's every time."""
    assert tuple(edit_counts(["a", "b"], ["b", "c"])) == _rapidfuzz_counts([0, 1], [1, 2])
    assert edit_counts(["a", "b"], ["b", "c"]).hits == 0
    assert align(["b", "c"], ["a", "b"]).matches == 1
    assert MER(WORDS).corpus_score(["b c"], [("a b",)]).score == 100  # 2/3 with that hit
    rng = random.Random(4)
    for _ in range(2000):
        size = rng.choice((8, 20, 150))
        ref = [rng.randrange(3) for _ in range(rng.randint(0, size))]
        hyp = [rng.randrange(3) for _ in range(rng.randint(0, size))]
        assert tuple(edit_counts(ref, hyp)) == _rapidfuzz_counts(ref, hyp)


def test_the_command_line_scores_the_four_measures(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("X Y X\nThis is a test\n", encoding="utf-8")
    hyp.write_text("X Z\nThis test\n", encoding="utf-8")
    argv = ["--ref", str(ref), "--hyp", str(hyp), "--tokenize", "none", "--json"]
    assert main([*argv, "--metric", "cer,mer,wil,wip"]) == 0
    figures = json.loads(capsys.readouterr().out)[str(hyp)]
    theirs = jiwer.process_words(["X Y X", "This is a test"], ["X Z", "This test"])
    assert figures["mer"]["score"] == pytest.approx(100 * theirs.mer)
    assert figures["wip"]["score"] == pytest.approx(100 * theirs.wip)
    assert figures["wil"]["signature"].startswith("nrefs:1|tok:none|case:mixed|align:rapidfuzz|")
    assert figures["cer"]["signature"].startswith("nrefs:1|tok:chars|case:mixed|empty:ins|")
