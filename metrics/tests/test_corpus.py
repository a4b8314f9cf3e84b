"""A whole corpus at once (``metrics/corpus.py``): the same statistics as each metric's
own path, to the last bit, on every preprocessing choice."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from metrics.corpus import score_corpus
from metrics.nist import NIST
from metrics.registry import METRIC_NAMES, REF_LENGTHS, build_metric
from metrics.stats import MetricInfo
from metrics.tests.demo import demo, demo_refs
from metrics.tokenize import TOKENIZERS, Preprocessor


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal shapes and equal bytes: equal to the last bit."""
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


#: The choices besides the tokenizer: every reference length, case and sentence boundary,
#: each with another of the others.
CHOICES = list(
    zip((False, True, False, True), (False, True, True, False), REF_LENGTHS, strict=True)
)
#: The demo's translators the parity is checked on: both references (every segment
#: matching one reference exactly) and the three systems with the longest lines (415,
#: 413 and 417 characters: several 64-bit words per lane), every one of the 40 sentences.
#: The other two systems are news MT output of the same kind with shorter lines, which
#: made the test two fifths longer.
PARITY_TRANSLATORS = ("first reference", "multi reference", "DIDI-NLP", "IIE-MT", "Online-W")


@pytest.mark.slow
@pytest.mark.parametrize("tokenize", list(TOKENIZERS))
def test_score_corpus_equals_each_metric_on_its_own_to_the_last_bit(tokenize: str) -> None:
    """Each tokenizer with two of the other choices, in turn: every choice meets several
    tokenizers (the shared path's caches are keyed by the words, whichever tokenizer
    made them; all four choices per tokenizer took a minute of CPU)."""
    refs = demo_refs()
    systems = {name: list(demo()[name]) for name in PARITY_TRANSLATORS}
    turn = list(TOKENIZERS).index(tokenize)
    for lowercase, bounds, ref_length in (CHOICES[turn % 4], CHOICES[(turn + 1) % 4]):
        pp = Preprocessor(tokenize=tokenize, lowercase=lowercase, sentence_boundaries=bounds)
        metrics = [build_metric(m, preprocessor=pp, ref_length=ref_length) for m in METRIC_NAMES]
        got = score_corpus(refs, systems, metrics)
        for metric in metrics:
            prepared = metric.prepare_references(refs)
            for system, hyps in systems.items():
                want = metric.corpus_score(hyps, refs, prepared)
                mine = got[system][metric.name]
                assert want.stats is not None
                assert mine.stats is not None
                assert _same(mine.stats, want.stats), (metric.name, system, pp, ref_length)
                assert (mine.score, mine.signature) == (want.score, want.signature)


@pytest.mark.slow
def test_score_corpus_on_awkward_text() -> None:
    """Empty lines, a literal ``<s>`` (the boundary word), repeated outputs, a varying
    number of references, very long lines (several 64-bit words per lane)."""
    long = " ".join(f"w{i % 17}" for i in range(150))
    refs = [("a b c", "a c"), ("<s> x </s>",), ("",), (long, long[::-1]), ("q", "q q", "r")]
    systems = {
        "one": ["a b c", "<s> x", "", long, "q q q"],
        "two": ["", "x </s> <s>", "a", long[:200], "r"],
        "three": ["a b c", "<s> x", "b", long, ""],
    }
    for tokenize, bounds in itertools.product(("none", "13a", "char"), (False, True)):
        pp = Preprocessor(tokenize=tokenize, sentence_boundaries=bounds)
        for ref_length in REF_LENGTHS:
            metrics = [
                build_metric(m, preprocessor=pp, ref_length=ref_length) for m in METRIC_NAMES
            ]
            got = score_corpus(refs, systems, metrics)
            for metric in metrics:
                for system, hyps in systems.items():
                    want = metric.corpus_score(hyps, refs)
                    assert want.stats is not None
                    assert _same(got[system][metric.name].stats, want.stats), (
                        metric.name,
                        system,
                        pp,
                    )


def test_score_corpus_refuses_metrics_with_different_preprocessing() -> None:
    metrics = [build_metric("wer"), build_metric("bleu", preprocessor=Preprocessor("none"))]
    with pytest.raises(ValueError, match="2 preprocessors"):
        score_corpus([("a",)], {"s": ["a"]}, metrics)
    with pytest.raises(ValueError, match="s: 2 hypotheses but 1 reference segments"):
        score_corpus([("a",)], {"s": ["a", "b"]}, [build_metric("wer")])


def test_score_corpus_keeps_each_nists_information_weights() -> None:
    """NIST as mteval and as defined side by side (renamed to tell them apart): each gets
    its own weights."""
    refs = [("0:4 and 0", "0 : 1"), ("1 0 : 0",)]
    systems = {"one": ["0:4 and 1", "0 : 0"], "two": ["0 0 0", "1 0 :"]}
    quirk, defined = NIST(), NIST(mteval=False)
    defined.info = MetricInfo("nist_defined", "NIST", True, unit="", highest=math.inf)
    got = score_corpus(refs, systems, [quirk, defined])
    for metric in (quirk, defined):
        for system, hyps in systems.items():
            want = metric.corpus_score(hyps, refs)
            assert _same(got[system][metric.name].stats, want.stats)
    assert got["one"]["nist"].score != got["one"]["nist_defined"].score
