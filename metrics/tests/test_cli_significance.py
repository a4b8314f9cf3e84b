"""``python -m metrics --paired-bs / --paired-ar / --confidence``: sacreBLEU 2.6's numbers.

sacreBLEU's own paired tests (``sacrebleu.significance.PairedTest``, what its command line
runs) and its bootstrap interval (``corpus_score(n_bootstrap=…)``) run on the TED demo
corpus's systems, and our command line must print the same p-values (4 decimals, as
printed) and the same ``μ ± ci`` (2 decimals, as printed) for BLEU, chrF and TER.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from metrics.__main__ import main
from metrics.paired import seed_from_environment
from metrics.tests.demo import REFERENCES, SYSTEMS, demo
from metrics.tests.test_cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
#: Our metric names and sacreBLEU's.
SACRE = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF, "ter": sacrebleu.TER}


#: sacreBLEU's TER of each segment computed once for the module (``conftest.py``).
pytestmark = pytest.mark.usefixtures("sacre_ter_once_a_segment")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    data = demo()
    out = {}
    for name in (*REFERENCES, *SYSTEMS):
        (tmp_path / "systems").mkdir(exist_ok=True)
        path = tmp_path / "systems" / f"{name.replace(' ', '_')}.txt"
        path.write_text("\n".join(data[name]) + "\n", encoding="utf-8")
        out[name] = path
    return out


def sacre_paired(order: Sequence[str], test: str, n: int, refs: Sequence[str]) -> dict[str, Any]:
    """sacreBLEU's results, ``order[0]`` the baseline: metric → system → Result."""
    named = [(name, list(demo()[name])) for name in order]
    metrics = {name.upper(): cls() for name, cls in SACRE.items()}
    streams = [list(demo()[r]) for r in refs]
    _, scores = PairedTest(named, metrics, streams, test, n)()
    by_name = dict(zip(("BLEU", "chrF2", "TER"), SACRE, strict=True))
    return {
        by_name[metric]: dict(zip(scores["System"], results, strict=True))
        for metric, results in scores.items()
        if metric != "System"
    }


def ours(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def arguments(files: dict[str, Path], order: Sequence[str], refs: Sequence[str]) -> list[str]:
    out = [f"--ref={files[r]}" for r in refs] + [f"--hyp={files[s]}" for s in order]
    return [*out, "--metric", ",".join(SACRE)]


@pytest.mark.parametrize("seed", ["12345", "7"])
@pytest.mark.parametrize("refs", [REFERENCES, REFERENCES[:1]])
def test_paired_bootstrap_prints_sacrebleus_p_values_and_intervals(
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    refs: Sequence[str],
    seed: str,
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    order = [SYSTEMS[2], *(s for s in SYSTEMS if s != SYSTEMS[2])]
    sacre = sacre_paired(order, "bs", 1000, refs)
    got = ours(capsys, *arguments(files, order, refs), "--paired-bs")
    for system in order:
        for metric in SACRE:
            mine, theirs = got[str(files[system])][metric], sacre[metric][system]
            assert f"{mine['score']:.2f}" == f"{theirs.score:.2f}"
            assert (
                f"{mine['mean']:.2f} ± {mine['ci']:.2f}" == f"{theirs.mean:.2f} ± {theirs.ci:.2f}"
            )
            if system == order[0]:
                assert "p_value" not in mine
            else:
                assert f"{mine['p_value']:.4f}" == f"{theirs.p_value:.4f}"
            assert mine["baseline"] == str(files[order[0]])
            assert mine["test"].startswith(f"test:paired-bs|bs:1000|seed:{seed}|")


def test_paired_randomization_prints_sacrebleus_p_values(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    order = list(SYSTEMS)
    sacre = sacre_paired(order, "ar", 2000, REFERENCES)
    got = ours(capsys, *arguments(files, order, REFERENCES), "--paired-ar", "--paired-ar-n=2000")
    p_values = []
    for system in order[1:]:
        for metric in SACRE:
            mine, theirs = got[str(files[system])][metric], sacre[metric][system]
            assert mine["p_value"] == pytest.approx(theirs.p_value, abs=1e-12)
            assert "mean" not in mine  # sacreBLEU's --paired-ar gives no interval
            p_values.append(mine["p_value"])
    assert min(p_values) < 0.05 < max(p_values)  # the demo has both verdicts
    assert got[str(files[order[1]])]["bleu"]["test"].startswith(
        "test:paired-ar|ar:2000|seed:12345|"
    )


def test_confidence_is_sacrebleus_interval_of_each_system_alone(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    got = ours(
        capsys, *arguments(files, SYSTEMS[:2], REFERENCES), "--confidence", "--confidence-n=500"
    )
    streams = [list(demo()[r]) for r in REFERENCES]
    for system in SYSTEMS[:2]:
        for metric, cls in SACRE.items():
            theirs = cls().corpus_score(list(demo()[system]), streams, n_bootstrap=500)
            theirs_text = theirs.format(width=2)
            mine = got[str(files[system])][metric]
            assert f"(μ = {mine['mean']:.2f} ± {mine['ci']:.2f})" in theirs_text
            assert mine["low"] <= mine["score"] <= mine["high"]
            assert "p_value" not in mine
            assert mine["test"].startswith("test:confidence|seed:12345|bs:500|")


def test_the_table_names_systems_by_file_name_and_marks_the_significant(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    order = [SYSTEMS[0], SYSTEMS[1], SYSTEMS[4]]
    sacre = sacre_paired(order, "bs", 1000, REFERENCES)
    assert main([*arguments(files, order, REFERENCES), "--paired-bs"]) == 0
    table = capsys.readouterr().out
    rows = table.splitlines()
    assert rows[0].split()[:3] == ["hypothesis", "BLEU", "(μ"]
    assert rows[1].startswith("Baseline: DIDI-NLP.txt ")
    assert rows[2].startswith("Facebook-AI.txt ")
    assert rows[3].startswith("Online-W.txt ")
    assert str(files[SYSTEMS[1]].parent) not in table
    for row, system in zip(rows[1:4], order, strict=True):
        for metric in SACRE:
            r = sacre[metric][system]
            cell = f"{r.score:.2f} ({r.mean:.2f} ± {r.ci:.2f})"
            if r.p_value is not None:
                cell += f" (p = {r.p_value:.4f})" + ("*" if r.p_value < 0.05 else "")
            assert cell in row
    assert "*" in table
    assert "Paired bootstrap resampling test (1000" in table
    assert table.splitlines()[-1].startswith("test:paired-bs|bs:1000|seed:12345|")


def test_files_of_the_same_name_are_named_by_their_paths(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    twin = other / files[SYSTEMS[0]].name
    twin.write_text(files[SYSTEMS[1]].read_text(encoding="utf-8"), encoding="utf-8")
    assert (
        main([f"--ref={files[REFERENCES[0]]}", f"--hyp={files[SYSTEMS[0]]}", f"--hyp={twin}"]) == 0
    )
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].startswith(str(files[SYSTEMS[0]]))
    assert rows[2].startswith(str(twin))


def test_identical_systems_are_not_significantly_different(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """metrics.significance's documented deviation: sacreBLEU says p = 1/(B+1)."""
    copy = files[SYSTEMS[0]].with_name("copy.txt")
    copy.write_text(files[SYSTEMS[0]].read_text(encoding="utf-8"), encoding="utf-8")
    for test in ("--paired-bs", "--paired-ar"):
        got = ours(
            capsys,
            f"--ref={files[REFERENCES[0]]}",
            f"--hyp={files[SYSTEMS[0]]}",
            f"--hyp={copy}",
            "--metric=bleu,wer",
            test,
            "--paired-ar-n=500",
        )
        assert got[str(copy)]["bleu"]["p_value"] == got[str(copy)]["wer"]["p_value"] == 1.0


def test_without_hyp_the_hypothesis_is_read_from_standard_input(files: dict[str, Path]) -> None:
    text = files[SYSTEMS[3]].read_text(encoding="utf-8")
    ref = f"--ref={files[REFERENCES[0]]}"
    piped = run_cli(ref, "--metric=bleu,wer", "--json", stdin=text)
    named = run_cli(ref, "--metric=bleu,wer", "--json", f"--hyp={files[SYSTEMS[3]]}")
    assert piped.returncode == named.returncode == 0, piped.stderr
    from_stdin = json.loads(piped.stdout)
    assert list(from_stdin) == ["-"]
    assert from_stdin["-"] == json.loads(named.stdout)[str(files[SYSTEMS[3]])]
    table = run_cli(ref, "--metric=bleu", stdin=text).stdout
    assert table.splitlines()[1].startswith("<stdin> ")
    short = run_cli(ref, stdin="one line\n")
    assert short.returncode == 2
    assert short.stderr.startswith("python -m metrics: error: <stdin> line 2: has 1 lines but ")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--paired-bs"], "--paired-bs compares systems: give at least two --hyp"),
        (["--paired-ar"], "--paired-ar compares systems: give at least two --hyp"),
        (["--paired-bs", "--paired-ar", "--hyp=x"], "argument --paired-ar/-par: not allowed with"),
        (["--confidence", "--confidence-n=-3"], "--confidence-n -3: must be a positive integer"),
        (
            ["--paired-bs", "--hyp=x", "--paired-bs-n=0"],
            "--paired-bs-n 0: must be a positive integer",
        ),
        (  # issue 36: Arabic-Indic 100, which Python's int reads
            ["--paired-bs", "--hyp=x", "--paired-bs-n=١٠٠"],
            "argument --paired-bs-n/-pbsn: invalid int value: '١٠٠'",
        ),
    ],
)
def test_bad_test_options_exit_2_with_one_line(
    files: dict[str, Path], args: list[str], message: str
) -> None:
    hyp = f"--hyp={files[SYSTEMS[0]]}"
    proc = run_cli(
        f"--ref={files[REFERENCES[0]]}",
        hyp,
        *[a.replace("=x", f"={files[SYSTEMS[1]]}") for a in args],
    )
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1
    assert message in proc.stderr


def test_a_seed_that_is_no_number_is_refused(files: dict[str, Path]) -> None:
    env = {"SACREBLEU_SEED": "twelve", "PATH": "/usr/bin:/bin"}
    proc = run_cli(
        f"--ref={files[REFERENCES[0]]}", f"--hyp={files[SYSTEMS[0]]}", "--confidence", env=env
    )
    assert proc.returncode == 2
    assert (
        proc.stderr
        == "python -m metrics: error: SACREBLEU_SEED='twelve': not an integer (nor none)\n"
    )


@pytest.mark.parametrize("value", ["٧", "１２３４５", "12_345"])
def test_a_seed_in_other_digits_is_no_number(value: str) -> None:
    """Issue 36, point 8c: sacreBLEU's seed variable is read in the digits 0–9 only."""
    with pytest.raises(ValueError, match="not an integer"):
        seed_from_environment({"SACREBLEU_SEED": value})
    assert seed_from_environment({"SACREBLEU_SEED": " 7 "}) == 7
