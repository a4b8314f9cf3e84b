"""``pip install .`` ships the metrics engine with its ``evaltool-metrics`` command.

The wheel is built offline from a copy of ``pyproject.toml`` and ``metrics/`` (so the
build leaves nothing in the checkout), installed into a fresh virtual environment, and
the command is run from a directory outside the checkout. The new environment sees
numpy through a path entry to the test environment's site-packages (that is where the
dependency lives here; ``pip install .`` would fetch it), and nothing else of the
checkout: the import must come from what the wheel installed. About 3 s.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*command: str | Path, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    return subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, check=check
    )


@pytest.mark.slow  # pip builds and installs a wheel
def test_pip_install_gives_the_evaltool_metrics_command_outside_the_checkout(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy(ROOT / "pyproject.toml", source)
    shutil.copytree(
        ROOT / "metrics", source / "metrics", ignore=shutil.ignore_patterns("__pycache__")
    )
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    run(
        *pip,
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        "dist",
        source,
        cwd=tmp_path,
    )
    (wheel,) = (tmp_path / "dist").glob("evaltool-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # only the metrics engine: not the web app, not the tests
    assert {name.split("/")[0] for name in names} == {"metrics", "evaltool-0.1.0.dist-info"}
    assert not [n for n in names if n.startswith("metrics/tests/")]
    assert "metrics/__main__.py" in names

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    run(
        *pip,
        "--python",
        venv / "bin" / "python",
        "install",
        "--no-deps",
        "--no-index",
        wheel,
        cwd=tmp_path,
    )
    purelib = subprocess.run(
        [venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    numpy_home = Path(np.__file__).resolve().parents[1]
    assert numpy_home == Path(sysconfig.get_path("purelib")).resolve()
    (Path(purelib) / "numpy-of-the-tests.pth").write_text(f"{numpy_home}\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "ref.txt").write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    (elsewhere / "hyp.txt").write_text("the cat sat on a mat\nhello world\n", encoding="utf-8")
    out = run(
        venv / "bin" / "evaltool-metrics",
        "--ref",
        "ref.txt",
        "--hyp",
        "hyp.txt",
        "--metric",
        "wer,bleu",
        "--json",
        cwd=elsewhere,
    ).stdout
    payload = json.loads(out)
    assert payload["hyp.txt"]["wer"]["score"] == 12.5  # one substitution in 8 words
    assert payload["hyp.txt"]["bleu"]["signature"].startswith("nrefs:1|case:mixed|eff:no|tok:13a")
    where = run(
        venv / "bin" / "python", "-c", "import metrics; print(metrics.__file__)", cwd=elsewhere
    )
    assert Path(where.stdout.strip()).is_relative_to(venv)
    no_app = run(venv / "bin" / "python", "-c", "import annotation", cwd=elsewhere, check=False)
    assert "No module named 'annotation'" in no_app.stderr
    refused = run(venv / "bin" / "evaltool-metrics", "--ref", "ref.txt", cwd=elsewhere, check=False)
    assert refused.returncode == 2
    assert refused.stderr.startswith("evaltool-metrics: error: ")
