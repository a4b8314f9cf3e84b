"""``python -m metrics`` run as a shell runs it: a hypothesis file given twice, a reader
that stops reading (``| head -1``), and the significance test's signature line (issue 40,
point 5). Each test runs the real command in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from metrics.cli import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE
from metrics.tests.test_cli import ROOT, run_cli

DATA = Path(__file__).parent / "data" / "cjk"
REF, SYS = DATA / "ntrex128.ref.zh", DATA / "ntrex128.sys.zh"


def test_the_same_file_twice_as_hyp_is_refused_in_one_line() -> None:
    done = run_cli("--ref", str(REF), "--hyp", str(SYS), "--hyp", str(SYS), "--metric", "bleu")
    assert done.returncode == EXIT_BAD_INPUT
    assert done.stdout == ""
    assert done.stderr == (
        f"python -m metrics: error: --hyp {SYS} is given twice: give each system once\n"
    )


def test_standard_input_twice_is_refused_too() -> None:
    done = run_cli("--ref", str(REF), "--hyp", "-", "--hyp", "-", stdin=SYS.read_text())
    assert done.returncode == EXIT_BAD_INPUT
    assert "--hyp - (standard input) is given twice" in done.stderr


def test_a_paired_test_of_a_file_against_itself_is_refused() -> None:
    args = ("--ref", str(REF), "--hyp", str(SYS), "--hyp", str(SYS), "--paired-bs")
    done = run_cli(*args, "--metric", "bleu")
    assert done.returncode == EXIT_BAD_INPUT
    assert "is given twice" in done.stderr


def test_the_same_file_under_two_paths_is_two_rows_named_by_path() -> None:
    other = f"{SYS.parent}/./{SYS.name}"
    done = run_cli("--ref", str(REF), "--hyp", str(SYS), "--hyp", other, "--metric", "bleu")
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()[1:3]
    assert rows[0].split()[0] == str(SYS)
    assert rows[1].split()[0] == other
    assert rows[0].split()[1] == rows[1].split()[1]  # the same score twice, both shown


def big_output_command(tmp_path: Path) -> list[str]:
    """A command whose output (a line per segment of 3,000) far exceeds a pipe's buffer."""
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text((REF.read_text(encoding="utf-8")) * 10, encoding="utf-8")
    hyp.write_text((SYS.read_text(encoding="utf-8")) * 10, encoding="utf-8")
    return [sys.executable, "-m", "metrics", "--ref", str(ref), "--hyp", str(hyp)] + [
        "--metric",
        "bleu,chrf",
        "--tokenize",
        "zh",
        "--sentence",
    ]


def test_output_into_a_closed_pipe_ends_quietly_with_141(tmp_path: Path) -> None:
    command = big_output_command(tmp_path)
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before the first line
    _, stderr = proc.communicate(timeout=120)
    assert stderr == b""
    assert proc.returncode == EXIT_BROKEN_PIPE


def test_head_one_gets_the_first_line_and_the_shell_sees_141(tmp_path: Path) -> None:
    command = " ".join(f"'{word}'" for word in big_output_command(tmp_path))
    done = subprocess.run(
        ["bash", "-c", f'{command} | head -1; echo "status ${{PIPESTATUS[0]}}" >&2'],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.split()[0] == "hypothesis"
    assert len(done.stdout.splitlines()) == 1
    assert done.stderr == f"status {EXIT_BROKEN_PIPE}\n"  # no traceback before it


def test_a_reader_that_reads_everything_still_gets_status_0(tmp_path: Path) -> None:
    done = subprocess.run(
        big_output_command(tmp_path), cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) > 3000


@pytest.mark.parametrize("option", ["--paired-bs", "--paired-ar"])
def test_the_test_signature_line_names_the_test_once(option: str) -> None:
    other = DATA / "ntrex128.ref.zh"  # the reference as a second system: a real difference
    done = run_cli(
        *("--ref", str(REF), "--hyp", str(SYS), "--hyp", str(other), "--metric", "bleu"),
        *(option, f"{option}-n", "20"),
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last.startswith(f"test:{option[2:]}|")
    assert "test: test:" not in done.stdout
