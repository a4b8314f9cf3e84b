"""``python -m metrics estimate``: the JSON of issue 28, a readable table, and bad input
refused in one line naming the file, the line and the problem, with exit status 2."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from metrics.__main__ import main
from metrics.estimate import REGRESSION, REGRESSION_STRATIFIED_VARIANCE, estimate_mean
from metrics.segment_scores import ERR_OUT_OF_RANGE
from metrics.tests.test_cli import run_cli

N = 60


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, Path]:
    """A corpus of 60 segments in 6 documents, 20 of them judged; chrF follows the human
    score, BLEU is noise."""
    rng = np.random.default_rng(0)
    chrf = rng.uniform(20, 80, size=N)
    bleu = rng.uniform(0, 50, size=N)
    human = 0.1 * chrf + rng.normal(size=N)
    judged = np.arange(1, N, 3)
    files = {
        "human": tmp_path / "human.tsv",
        "chrf": tmp_path / "chrf.txt",
        "bleu": tmp_path / "bleu.txt",
        "docs": tmp_path / "docs.txt",
    }
    files["human"].write_text(
        "".join(f"{k}\t{float(human[k])!r}\n" for k in judged), encoding="utf-8"
    )
    files["chrf"].write_text("".join(f"{float(v)!r}\n" for v in chrf), encoding="utf-8")
    files["bleu"].write_text("".join(f"{float(v)!r}\n" for v in bleu), encoding="utf-8")
    files["docs"].write_text("".join(f"doc{k // 10}\n" for k in range(N)), encoding="utf-8")
    return files


def estimate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["estimate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_json_has_the_plain_mean_and_the_estimate_with_the_keys_of_the_issue(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    got = estimate(
        capsys, "--human", str(corpus["human"]), "--auto", f"chrf={corpus['chrf']}",
        "--auto", f"bleu={corpus['bleu']}",
    )  # fmt: skip
    plain, est = got["plain"], got["estimate"]
    assert isinstance(plain, dict)
    assert isinstance(est, dict)
    assert set(plain) == {"mean", "low", "high", "n"}
    assert {"mean", "low", "high", "n", "method", "variance_ratio"} <= set(est)
    assert plain["n"] == est["n"] == 20
    assert est["method"] == REGRESSION
    assert plain["low"] < plain["mean"] < plain["high"]
    assert est["high"] - est["low"] < plain["high"] - plain["low"]
    assert 0 < est["variance_ratio"] < 1
    assert set(est["covariates"]) == {"chrf", "bleu"}
    assert got["corpus_size"] == N
    assert got["confidence"] == 0.95


def test_the_command_line_gives_the_functions_figures(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [line.split("\t") for line in corpus["human"].read_text().splitlines()]
    chrf = [float(v) for v in corpus["chrf"].read_text().split()]
    documents = corpus["docs"].read_text().split()
    expected = estimate_mean(
        [int(k) for k, _ in rows], [float(v) for _, v in rows], {"chrf": chrf},
        documents=documents, confidence=0.9,
    )  # fmt: skip
    got = estimate(
        capsys, "--human", str(corpus["human"]), "--auto", f"chrf={corpus['chrf']}",
        "--docs", str(corpus["docs"]), "--confidence", "0.9",
    )  # fmt: skip
    assert got == json.loads(json.dumps(expected.as_json()))
    # every third segment: each document within one of its share
    assert got["estimate"]["method"] == REGRESSION_STRATIFIED_VARIANCE  # type: ignore[index]
    assert got["estimate"]["proportional"] is True  # type: ignore[index]


def test_without_json_a_table_says_both_means_and_how_the_estimate_was_made(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["estimate", "--human", str(corpus["human"]), "--auto", f"chrf={corpus['chrf']}"]) == 0
    )
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["mean", "95%", "interval", "n"]
    assert lines[1].startswith("plain mean")
    assert lines[2].startswith("estimate")
    assert "method: regression" in out
    assert "variance ratio: 0." in out
    assert "chrf: r = 0." in out


Files = dict[str, Path]


@pytest.mark.parametrize(
    "write, args, message",
    [
        (
            lambda f: f["human"].write_text("1\t0.5\n2 0.7\n"),
            lambda f: [],
            "human.tsv line 2: expected 'segment index<TAB>score', found 1 field(s)",
        ),
        (
            lambda f: f["human"].write_text("1\t0.5\nseven\t0.7\n"),
            lambda f: [],
            "human.tsv line 2: segment index 'seven' is not a whole number",
        ),
        (  # issue 36: Arabic-Indic 2, which Python's int reads
            lambda f: f["human"].write_text("1\t0.5\n٢\t0.7\n"),
            lambda f: [],
            "human.tsv line 2: segment index '٢' is not a whole number",
        ),
        (
            lambda f: f["human"].write_text("4\t0.5\n2\t١٢\n"),
            lambda f: [],
            "human.tsv line 2: score '١٢' is not a number",
        ),
        (
            lambda f: f["human"].write_text("1\t0.5\n60\t0.7\n"),
            lambda f: [],
            "human.tsv line 2: segment index 60 is past the corpus's last segment, 59",
        ),
        (
            lambda f: f["human"].write_text("1\t0.5\n-1\t0.7\n"),
            lambda f: [],
            "human.tsv line 2: segment index -1 is negative (0-based)",
        ),
        (
            lambda f: f["human"].write_text("4\t0.5\n2\t1\n4\t0.7\n"),
            lambda f: [],
            "human.tsv line 3: segment 4 is already scored on line 1",
        ),
        (
            lambda f: f["human"].write_text("4\t0.5\n2\tgood\n"),
            lambda f: [],
            "human.tsv line 2: score 'good' is not a number",
        ),
        (
            lambda f: f["human"].write_text("4\t0.5\n2\tnan\n"),
            lambda f: [],
            "human.tsv line 2: score 'nan' is not a finite number",
        ),
        (  # issue 36: its square overflowed, and the estimate was no number
            lambda f: f["human"].write_text("4\t0.5\n2\t1e200\n"),
            lambda f: [],
            f"human.tsv line 2: score '1e200' {ERR_OUT_OF_RANGE}",
        ),
        (  # the rule of every score file (imported metrics too), not Python's float
            lambda f: f["human"].write_text("4\t0.5\n2\t1_000\n"),
            lambda f: [],
            "human.tsv line 2: score '1_000' is not a number",
        ),
        (
            lambda f: f["human"].write_text("4\t0.5\n"),
            lambda f: [],
            "human.tsv: has 1 judged segment(s): an interval needs at least two",
        ),
        (
            lambda f: f["chrf"].write_text("0.5\n\n0.7\n"),
            lambda f: [],
            "chrf.txt line 2: score '' is not a number",
        ),
        (
            lambda f: f["bleu"].write_text("0.5\n0.7\n"),
            lambda f: ["--auto", f"bleu={f['bleu']}"],
            "bleu.txt: has 2 lines but",
        ),
        (
            lambda f: f["docs"].write_text("a\nb\n"),
            lambda f: ["--docs", str(f["docs"])],
            "docs.txt: has 2 lines but",
        ),
        (
            lambda f: None,
            lambda f: ["--auto", "chrf"],
            "--auto 'chrf': expected NAME=FILE",
        ),
        (
            lambda f: None,
            lambda f: ["--auto", f"chrf={f['bleu']}"],
            "--auto chrf: the name is given twice",
        ),
        (
            lambda f: None,
            lambda f: ["--auto", f"x={f['chrf'].parent / 'missing.txt'}"],
            "missing.txt: no such file",
        ),
        (
            lambda f: None,
            lambda f: ["--confidence", "95"],
            "confidence 95.0: must lie strictly between 0 and 1",
        ),
    ],
    ids=[
        "no-tab", "index", "other-digits-index", "other-digits-score", "past-end", "negative",
        "twice", "score", "nan-score", "huge-score",
        "underscore-score", "one-judged",
        "auto-number", "auto-length", "docs-length", "auto-form", "auto-twice", "missing",
        "confidence",
    ],
)  # fmt: skip
def test_bad_input_exits_2_naming_the_file_the_line_and_the_problem(
    corpus: Files,
    capsys: pytest.CaptureFixture[str],
    write: Callable[[Files], object],
    args: Callable[[Files], list[str]],
    message: str,
) -> None:
    write(corpus)
    status = main(
        ["estimate", "--human", str(corpus["human"]), "--auto", f"chrf={corpus['chrf']}",
         *args(corpus)],
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("python -m metrics estimate: error: ")
    assert message in err


def test_a_confidence_in_other_digits_is_refused_as_a_word_would_be(
    corpus: Files, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36, point 8c: Arabic-Indic 0.95, which Python's float reads."""
    with pytest.raises(SystemExit) as stopped:
        main(["estimate", "--human", str(corpus["human"]), "--auto", f"chrf={corpus['chrf']}",
              "--confidence", "٠.٩٥"])  # fmt: skip
    assert stopped.value.code == 2
    assert "argument --confidence: invalid float value: '٠.٩٥'" in capsys.readouterr().err


def test_a_process_refusing_bad_input_exits_2_without_a_traceback(corpus: Files) -> None:
    corpus["human"].write_text("1\t0.5\n60\t0.7\n")
    proc = run_cli("estimate", "--human", str(corpus["human"]), "--auto", f"c={corpus['chrf']}")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"python -m metrics estimate: error: {corpus['human']} line 2: segment index 60 is past "
        f"the corpus's last segment, 59 ({corpus['chrf']} has 60 lines; indices are 0-based)"
    ]


def test_a_missing_option_is_refused_by_the_parser_in_one_line(
    corpus: Files, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["estimate", "--human", str(corpus["human"])])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "python -m metrics estimate: error: the following arguments are required: --auto"
    ]


def test_the_main_help_names_the_estimate_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "python -m metrics estimate --help" in " ".join(capsys.readouterr().out.split())


def test_on_too_few_judged_segments_the_command_gives_the_plain_mean_and_says_too_few(
    corpus: Files, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three judged segments: the plain mean of what was judged, and "too few" where the
    intervals and the estimate would be (metrics.claims), in JSON and in the table."""
    corpus["human"].write_text("4\t0.5\n2\t1.5\n7\t0.25\n")
    args = ["--human", str(corpus["human"]), "--auto", f"chrf={corpus['chrf']}"]

    got = estimate(capsys, *args)
    assert main(["estimate", *args]) == 0
    table = capsys.readouterr().out

    assert got["too_few"] == "too few judged segments (n = 3)"
    assert got["plain"] == {"mean": pytest.approx(0.75), "low": None, "high": None, "n": 3}
    est = got["estimate"]
    assert isinstance(est, dict)
    assert (est["mean"], est["low"], est["high"], est["n"]) == (None, None, None, 3)
    lines = table.splitlines()
    assert lines[1].split() == ["plain", "mean", "0.7500", "too", "few", "3"]
    assert lines[2].split() == ["estimate", "too", "few", "too", "few", "3"]
    assert "too few judged segments (n = 3): no interval, no estimate (10 are needed)" in table


def test_range_cuts_both_intervals_to_the_range_the_scores_lie_in(
    corpus: Files, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nine error rates of 0 and one of 100: Student's t reaches below 0, where the mean
    of error rates cannot lie; ``--range 0:100`` stops both intervals there."""
    corpus["human"].write_text("".join(f"{k}\t{100 if k == 4 else 0}\n" for k in range(10)))
    args = ["--human", str(corpus["human"]), "--auto", f"chrf={corpus['chrf']}"]

    free = estimate(capsys, *args)
    cut = estimate(capsys, *args, "--range", "0:100")

    assert free["too_few"] == cut["too_few"] == ""
    for part in ("plain", "estimate"):
        low, high = free[part]["low"], free[part]["high"]  # type: ignore[index]
        assert low < 0.0 < high < 100.0
        assert (cut[part]["low"], cut[part]["high"]) == (0.0, high)  # type: ignore[index]


@pytest.mark.parametrize("value", ["100:0", "0-100", "low:high", "5:5"])
def test_a_range_that_is_not_low_colon_high_is_refused_in_one_line(
    corpus: Files, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(
            ["estimate", "--human", str(corpus["human"]), "--auto", f"chrf={corpus['chrf']}",
             "--range", value]
        )  # fmt: skip
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"python -m metrics estimate: error: argument --range: {value!r}: expected LOW:HIGH "
        "with LOW below HIGH"
    ]
