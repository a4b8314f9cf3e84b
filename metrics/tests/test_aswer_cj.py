"""Re-segmenting Chinese and Japanese over mweralign's ``cj`` words (issue 40, point 2):
``python -m metrics --unsegmented --resegment-cj``, with and without ``--docs``, writes
the segments mweralign 1.4.1's own command line writes with ``-m cj``, byte for byte, on
NTREX-128 lines with a system's edits (``data/cjk``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mweralign.segmenter import CJSegmenter

from metrics.__main__ import main
from metrics.aswer import resegment_text
from metrics.cj_words import cj_text, cj_words
from metrics.tokenize import Preprocessor

DATA = Path(__file__).parent / "data" / "cjk"
#: 60 segments in documents of unequal lengths.
DOCUMENTS = ["d1"] * 7 + ["d2"] * 3 + ["d3"] * 15 + ["d4"] * 1 + ["d5"] * 34


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").split("\n")[: len(DOCUMENTS)]


def test_each_character_above_latin1_is_a_word_and_latin1_runs_keep_their_spaces() -> None:
    assert cj_words(" 有人提议应将 AM 的头衔改为MWP（议员) ") == (
        ("有", "人", "提", "议", "应", "将", " AM ", "的", "头", "衔", "改", "为", "MWP")
        + ("（", "议", "员", ")")
    )
    assert cj_words("降至1/20 泰国 \t 政府") == (
        "降",
        "至",
        "1/20 ",
        "泰",
        "国",
        " ",
        " ",
        "政",
        "府",
    )
    assert cj_text(cj_words("  AM 的  ")) == "AM 的"


@pytest.mark.parametrize("language", ["zh", "ja", "ko"])
def test_the_words_are_mweraligns_cj_tokens_on_every_ntrex_line(language: str) -> None:
    """mweralign writes a space as U+2581 and a U+2581 as NUL; we keep the text's own."""
    segmenter = CJSegmenter()
    for name in (f"ntrex128.ref.{language}", f"ntrex128.sys.{language}"):
        for line in (DATA / name).read_text(encoding="utf-8").split("\n"):
            theirs = segmenter.encode(line.strip())
            assert cj_words(line) == tuple(t.replace("\u2581", " ") for t in theirs)


def _hypothesis(lines: list[str]) -> list[str]:
    """The system's output as one line a document, its sentences run together as Chinese
    and Japanese write them, and spaces around some lines (mweralign strips each line);
    sentence 9 is left out and sentence 24, the last of document d3, is put at the start
    of d4. Without ``--docs`` the lines are one document, joined by a space."""
    out: dict[str, str] = {}
    for k, (doc, line) in enumerate(zip(DOCUMENTS, lines, strict=True)):
        if k not in (9, 24):
            out[doc] = out.get(doc, "") + line
    out["d4"] = lines[24] + out["d4"]
    return [f" {line} " if k % 2 else line for k, line in enumerate(out.values())]


def _mweralign(tmp: Path, language: str, with_documents: bool) -> list[str]:
    command = [sys.executable, "-m", "mweralign.mweralign", "-m", "cj", "-l", language]
    command += ["-r", str(tmp / "ref.txt"), "-t", str(tmp / "hyp.txt")]
    command += ["-d", str(tmp / "docids.txt")] if with_documents else []
    subprocess.run([*command, "-o", str(tmp / "mweralign.txt")], check=True, capture_output=True)
    return (tmp / "mweralign.txt").read_text(encoding="utf-8").split("\n")[: len(DOCUMENTS)]


@pytest.mark.parametrize("language", ["zh", "ja"])
@pytest.mark.parametrize("with_documents", [True, False])
def test_the_segments_are_mweraligns_with_its_cj_tokenizer(
    language: str, with_documents: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refs = _lines(f"ntrex128.ref.{language}")
    hyps = _hypothesis(_lines(f"ntrex128.sys.{language}"))
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "docids.txt").write_text("\n".join(DOCUMENTS) + "\n", encoding="utf-8")
    documents = ["--docs", str(tmp_path / "docids.txt")] if with_documents else []
    code = main(
        ["--ref", str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "hyp.txt"), *documents]
        + ["--unsegmented", "--resegment-cj", "--lowercase", "--metric", "aswer"]
        + ["--segmented-out", str(tmp_path / "ours")]
    )
    assert code == 0
    ours = (tmp_path / "ours" / "hyp.txt").read_text(encoding="utf-8").split("\n")[:-1]
    assert ours == _mweralign(tmp_path, language, with_documents)
    assert "|tok:cj|case:lc|" in capsys.readouterr().out


def test_without_cj_words_a_document_without_spaces_cannot_be_split() -> None:
    """Whitespace words make sentences run together one word: all of it lands in one
    segment. mweralign's cj words split it where the references end."""
    picked = (0, 2, 11)  # lines without a space in the reference or the system's output
    refs = [(_lines("ntrex128.ref.zh")[k],) for k in picked]
    sentences = [_lines("ntrex128.sys.zh")[k] for k in picked]
    _, whole = resegment_text("".join(sentences), refs, Preprocessor("none"))
    _, split = resegment_text("".join(sentences), refs, Preprocessor("none"), cj=True)
    assert sorted(whole) == ["", "", "".join(sentences)]
    assert split == sentences


def test_resegment_cj_needs_unsegmented(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ref.txt").write_text("有人\n", encoding="utf-8")
    code = main(
        ["--ref", str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "ref.txt")]
        + ["--resegment-cj"]
    )
    assert code == 2
    assert "--resegment-cj needs --unsegmented" in capsys.readouterr().err
