"""TER's normalisation options (issue 40, point 2) — ``normalized``, ``no_punct``,
``asian_support`` and ``case_sensitive`` — as sacreBLEU 2.6's ``TER(…)`` and its
``--ter-*`` options: its own tokenizer test cases, every demo line (English and
Chinese) under every combination, and the scores of real text."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

from metrics.__main__ import main
from metrics.ter import TER, Normalisation
from metrics.tests.demo import REFERENCES, demo, demo_lines, demo_refs

OPTIONS = ("case_sensitive", "normalized", "no_punct", "asian_support")
COMBINATIONS = [
    dict(zip(OPTIONS, c, strict=True)) for c in itertools.product((False, True), repeat=4)
]

# sacreBLEU's own cases (test/test_tokenizer_ter.py, Apache-2.0): input, expected, options
SACREBLEU_CASES = [
    ("a b c d", "a b c d", {}),
    ("", "", {}),
    ("a b c d.", "a b c d.", {}),
    ("A B C D.", "a b c d.", {}),
    ("a b c d.", "a b c d", {"no_punct": True}),
    ("A ; B ) C : D.", "a b c d", {"no_punct": True}),
    ("a b (c) d.", "a b ( c ) d .", {"normalized": True}),
    ("Jim's car.", "jim 's car .", {"normalized": True}),
    ("4.2", "4.2", {"normalized": True}),
    ("美众院公布对特", "美 众 院 公 布 对 特", {"normalized": True, "asian_support": True}),
    ("りの拳銃を持", "りの 拳 銃 を 持", {"normalized": True, "asian_support": True}),
]


@pytest.mark.parametrize("text, expected, options", SACREBLEU_CASES)
def test_sacrebleus_own_tokenizer_cases(text: str, expected: str, options: dict[str, bool]) -> None:
    assert " ".join(Normalisation(**options).words(text)) == expected


@pytest.mark.parametrize("options", COMBINATIONS, ids=lambda o: "-".join(k for k in o if o[k]))
def test_every_demo_line_is_tokenized_as_sacrebleu_does(options: dict[str, bool]) -> None:
    theirs = TercomTokenizer(**options)
    ours = Normalisation(**options)
    for line in demo_lines():
        assert " ".join(ours.words(line)) == theirs(line)


def _sacre_rows(hyps: list[str], refs: list[tuple[str, ...]], **options: bool) -> list[list[float]]:
    metric = SacreTER(**options)
    streams = [list(s) for s in zip(*refs, strict=True)]
    return [[float(x) for x in row] for row in metric._extract_corpus_statistics(hyps, streams)]


@pytest.mark.parametrize(
    "options",
    [
        {"normalized": True},
        {"no_punct": True},
        {"normalized": True, "no_punct": True, "case_sensitive": True},
    ],
    ids=lambda o: "-".join(o),
)
def test_a_demo_system_scores_as_sacrebleu_with_the_option(options: dict[str, bool]) -> None:
    refs = demo_refs(*REFERENCES)[:20]
    hyps = list(demo()["Facebook-AI"])[:20]
    stats = TER(**options).corpus_score(hyps, refs).stats
    assert stats is not None
    rows = _sacre_rows(hyps, refs, **options)
    assert stats.tolist() == rows
    assert stats.tolist() != TER().corpus_score(hyps, refs).stats.tolist()  # it changed them


def test_chinese_scores_as_sacrebleu_with_asian_support() -> None:
    """The demo's Chinese sources against themselves with their clauses in reverse order:
    with ``asian_support`` each ideograph is a word, and the clauses are shifts."""
    sources = [line for line in demo_lines() if "的" in line][:4]
    hyps = ["，".join(reversed(s.split("，"))) for s in sources]
    refs = [(s,) for s in sources]
    options = {"normalized": True, "no_punct": True, "asian_support": True}
    stats = TER(**options).corpus_score(hyps, refs).stats
    assert stats is not None
    assert stats.tolist() == _sacre_rows(hyps, refs, **options)
    assert stats[:, 1].min() > 10  # characters, not the one or two "words" of a line


def test_the_options_are_in_the_signature() -> None:
    metric = TER(True, normalized=True, no_punct=True, asian_support=True)
    assert metric.signature([("a",)]).startswith(
        "nrefs:1|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|"
    )


def test_the_command_line_takes_sacrebleus_ter_options(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("He said: (it's) fine.\n", encoding="utf-8")
    hyp.write_text("It's fine, he said\n", encoding="utf-8")
    argv = ["--ref", str(ref), "--hyp", str(hyp), "--metric", "ter", "--json"]

    assert main([*argv, "--ter-normalized", "--ter-no-punct", "--ter-case-sensitive"]) == 0
    figure = json.loads(capsys.readouterr().out)[str(hyp)]["ter"]
    theirs = SacreTER(normalized=True, no_punct=True, case_sensitive=True)
    assert figure["score"] == pytest.approx(
        theirs.corpus_score([hyp.read_text().strip()], [[ref.read_text().strip()]]).score
    )
    assert "|case:mixed|tok:tercom|norm:yes|punct:no|asian:no|" in figure["signature"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)[str(hyp)]["ter"]["score"] != figure["score"]
