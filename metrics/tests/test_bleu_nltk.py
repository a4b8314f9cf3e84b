"""BLEU with NLTK's smoothing methods 0–7 and n-gram weights (issue 40, point 2), as
NLTK 3.9's ``sentence_bleu`` and ``corpus_bleu`` compute it: NLTK's own cases (its
tests/unit/translate/test_bleu.py and the examples of bleu_score.py, Apache-2.0), and
every segment of demo systems under every method and several weights."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

from metrics.__main__ import main
from metrics.bleu import BLEU
from metrics.tests.demo import demo

CHENCHERRY = SmoothingFunction()
UNIFORM = (0.25, 0.25, 0.25, 0.25)

# NLTK's examples (bleu_score.py's docstrings): tokens as NLTK's tests give them
HYP1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
REF1 = "It is a guide to action that ensures that the military will forever heed Party commands"
REF2 = (
    "It is the guiding principle which guarantees the military forces always being under "
    "the command of the Party"
)
REF3 = "It is the practical guide for the army always to heed the directions of the party"
HYP_B = "he read the book because he was interested in world history"
REF_B = "he was interested in world history because he read the book"


def ours(
    hyps: list[str], refs: list[tuple[str, ...]], method: int = 0, weights: object = UNIFORM
) -> BLEU:
    return BLEU(tokenize="none", smooth_method=f"nltk{method}", weights=weights)  # type: ignore[arg-type]


def sentence(hyp: str, refs: tuple[str, ...], method: int = 0, weights: object = UNIFORM) -> float:
    """Our sentence BLEU as NLTK's fraction (ours is percent)."""
    metric = ours([hyp], [refs], method, weights)
    stats = metric.segment_stats([hyp], metric.prepare_references([refs]))
    return float(metric.sentence_score_from_stats(stats[0])) / 100


def corpus(
    hyps: list[str], refs: list[tuple[str, ...]], method: int = 0, weights: object = UNIFORM
) -> float:
    return ours(hyps, refs, method, weights).corpus_score(hyps, refs).score / 100


@pytest.mark.parametrize(
    "method, printed",
    list(
        enumerate(["0.4118", "0.4118", "0.4452", "0.4118", "0.4118", "0.4905", "0.4135", "0.4905"])
    ),
)
def test_nltks_example_of_each_smoothing_method(method: int, printed: str) -> None:
    """``SmoothingFunction``'s docstring: ``sentence_bleu([reference1], hypothesis1,
    smoothing_function=chencherry.method<k>)`` prints these (``+ELLIPSIS``)."""
    found = sentence(HYP1, (REF1,), method)
    assert str(found).startswith(printed)
    theirs = sentence_bleu(
        [REF1.split()], HYP1.split(), smoothing_function=getattr(CHENCHERRY, f"method{method}")
    )
    assert found == pytest.approx(theirs, rel=1e-15)


@pytest.mark.parametrize(
    "hyp, method, weights, printed",
    [
        (HYP1, 0, UNIFORM, "0.5045"),
        (HYP2, 1, UNIFORM, "0.0370"),
        (HYP1, 0, (1 / 5,) * 5, "0.3920"),
        (HYP1, 0, (1 / 2, 1 / 2), "0.7453"),
        (HYP1, 0, (1 / 3,) * 3, "0.6240"),
    ],
)
def test_nltks_sentence_bleu_examples(
    hyp: str, method: int, weights: tuple[float, ...], printed: str
) -> None:
    assert str(sentence(hyp, (REF1, REF2, REF3), method, weights)).startswith(printed)


@pytest.mark.parametrize(
    "weights, printed",
    [
        (UNIFORM, "0.5920"),
        ((0.1, 0.3, 0.5, 0.1), "0.5818"),
        ((0.5, 0.5), "0.8242"),
        ((0.333, 0.333, 0.334), "0.7067"),
        ((0.2,) * 5, "0.4719"),
    ],
)
def test_nltks_corpus_bleu_examples(weights: tuple[float, ...], printed: str) -> None:
    found = corpus([HYP1, HYP_B], [(REF1, REF2, REF3), (REF_B,)], 0, weights)
    assert str(found).startswith(printed)


@pytest.mark.parametrize("weights", [(1, 0, 0, 0), UNIFORM, (0, 0, 0, 0, 1)])
def test_nltks_corpus_bleu_with_several_weights(weights: tuple[float, ...]) -> None:
    """test_corpus_bleu_with_multiple_weights: each weighting scored on its own."""
    refs = [(REF1, REF2, REF3), (REF_B,)]
    theirs = corpus_bleu(
        [[r.split() for r in seg] for seg in refs], [HYP1.split(), HYP_B.split()], weights
    )
    assert corpus([HYP1, HYP_B], refs, 0, weights) == pytest.approx(theirs, rel=1e-15)


NO_MATCH = "The candidate has no alignment to any of the references"


@pytest.mark.parametrize(
    "hyp, ref, method, weights, expected",
    [
        # test_zero_matches and test_full_matches: BLEU-1 and BLEU-2
        ("John loves Mary", NO_MATCH, 0, (1.0,), 0.0),
        ("John loves Mary", NO_MATCH, 0, (0.5, 0.5), 0.0),
        ("John loves Mary", "John loves Mary", 0, (1.0,), 1.0),
        ("John loves Mary", "John loves Mary", 0, (0.5, 0.5), 1.0),
        # the fringe cases: no 4-gram (or n-gram past the length) to match
        ("John loves Mary who loves Mike", "John loves Mary", 0, UNIFORM, 0.0),
        ("John loves Mary", "John loves Mary ?", 0, UNIFORM, 0.0),
        ("John loves Mary", "John loves Mary", 0, UNIFORM, 0.0),
        ("let go it", "let it go", 0, UNIFORM, 0.0),
        ("", NO_MATCH, 0, UNIFORM, 0.0),
        ("John loves Mary", "", 0, UNIFORM, 0.0),
        ("", "", 0, UNIFORM, 0.0),
        ("Foo", NO_MATCH, 4, UNIFORM, 0.0),
        ("John loves Mary", NO_MATCH, 0, np.array([0.25] * 4), 0.0),
    ],
)
def test_nltks_own_unit_cases(
    hyp: str, ref: str, method: int, weights: object, expected: float
) -> None:
    assert sentence(hyp, (ref,), method, weights) == pytest.approx(expected, abs=1e-4)


def _nltk_sentence(
    hyp: str, refs: tuple[str, ...], method: int, weights: tuple[float, ...]
) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns of every zero count
        try:
            return float(
                sentence_bleu(
                    [r.split() for r in refs],
                    hyp.split(),
                    weights,
                    smoothing_function=getattr(CHENCHERRY, f"method{method}"),
                )
            )
        except AssertionError:  # method 6 without a trigram match
            return math.nan


@pytest.mark.parametrize(
    "weights", [UNIFORM, (0.1, 0.3, 0.5, 0.1), (0.4, 0.3, 0.2, 0.05, 0.05, 0.0)]
)
@pytest.mark.parametrize("method", range(8))
def test_every_segment_of_demo_systems_scores_as_nltk(
    method: int, weights: tuple[float, ...]
) -> None:
    data = demo()
    refs = list(zip(data["first reference"], data["multi reference"], strict=True))
    metric = ours([], [], method, weights)
    prepared = metric.prepare_references(refs)
    undefined = 0
    for system in ("DIDI-NLP", "Online-W"):
        hyps = list(data[system])
        scores = metric.sentence_score_from_stats(metric.segment_stats(hyps, prepared))
        for hyp, seg, score in zip(hyps, refs, scores.tolist(), strict=True):
            theirs = _nltk_sentence(hyp, seg, method, weights)
            if math.isnan(theirs):
                assert math.isnan(score)
                undefined += 1
            else:
                assert score / 100 == pytest.approx(theirs, rel=1e-14, abs=1e-300)
    assert undefined == 0 or method == 6


@pytest.mark.parametrize("method", [0, 1, 2, 3, 4])
def test_a_demo_corpus_scores_as_nltks_corpus_bleu(method: int) -> None:
    """Methods 5 and 6 read the corpus's last sentence in NLTK's ``corpus_bleu`` (ours read
    the corpus's counts); the others agree on the corpus too."""
    data = demo()
    refs = list(zip(data["first reference"], data["multi reference"], strict=True))
    hyps = list(data["IIE-MT"])
    theirs = corpus_bleu(
        [[r.split() for r in seg] for seg in refs],
        [h.split() for h in hyps],
        (0.1, 0.3, 0.5, 0.1),
        smoothing_function=getattr(CHENCHERRY, f"method{method}"),
    )
    assert corpus(hyps, refs, method, (0.1, 0.3, 0.5, 0.1)) == pytest.approx(theirs, rel=1e-14)


def test_method_6_needs_three_orders() -> None:
    with pytest.raises(ValueError, match="at least 3 n-gram orders"):
        BLEU(smooth_method="nltk6", weights=(0.5, 0.5))


def test_weights_on_sacrebleus_smoothing_weigh_the_log_precisions() -> None:
    data = demo()
    refs = [(r,) for r in data["first reference"]]
    hyps = list(data["NiuTrans"])
    default = BLEU().corpus_score(hyps, refs).score
    assert BLEU(weights=UNIFORM).corpus_score(hyps, refs).score == pytest.approx(default, rel=1e-14)
    unigram = BLEU(max_ngram_order=1).corpus_score(hyps, refs).score
    assert BLEU(weights=(1, 0, 0, 0)).corpus_score(hyps, refs).score == pytest.approx(
        unigram, rel=1e-14
    )
    assert BLEU(weights=(0.1, 0.3, 0.5, 0.1)).corpus_score(hyps, refs).score != pytest.approx(
        default
    )


def test_the_command_line_takes_nltks_methods_and_weights(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text(f"{REF1}\n{REF_B}\n", encoding="utf-8")
    hyp.write_text(f"{HYP2}\n{HYP_B}\n", encoding="utf-8")
    argv = ["--ref", str(ref), "--hyp", str(hyp), "--metric", "bleu", "--tokenize", "none"]
    assert main([*argv, "--smooth", "nltk4", "--bleu-weights", "0.4,0.3,0.2,0.1", "--json"]) == 0
    figure = json.loads(capsys.readouterr().out)[str(hyp)]["bleu"]
    theirs = corpus_bleu(
        [[REF1.split()], [REF_B.split()]],
        [HYP2.split(), HYP_B.split()],
        (0.4, 0.3, 0.2, 0.1),
        smoothing_function=CHENCHERRY.method4,
    )
    assert figure["score"] == pytest.approx(100 * theirs, rel=1e-14)
    assert "|smooth:nltk4|" in figure["signature"]
    assert figure["signature"].endswith("|weights:0.4,0.3,0.2,0.1|version:0.1.0")
    with pytest.raises(SystemExit) as exit_status:
        main([*argv, "--bleu-weights", "0.5,x"])
    assert exit_status.value.code == 2
    assert "--bleu-weights: '0.5,x': one number a weight" in capsys.readouterr().err
