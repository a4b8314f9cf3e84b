"""A command line run imports the modules of the metrics it is asked for, and no other.

Start-up is most of ``python -m metrics``'s time on a test set, so ``--metric bleu`` must
not pay for the alignment, TER, chrF, METEOR … modules (``metrics.registry`` names each
metric's module and imports it when the metric is built).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from metrics.registry import METRIC_CLASSES

ROOT = Path(__file__).resolve().parents[2]

#: Modules only some metrics or options need, besides each metric's own.
HELPERS = {
    "metrics.align",  # the edit-distance family
    "metrics.segment",  # --unsegmented
    "metrics.significance",  # --paired-bs, --paired-ar, --confidence
    "metrics.resampling",
    "metrics.randomization",
    "metrics.ranking",
    "metrics.human",
    "metrics.estimate_cli",  # python -m metrics estimate
    "metrics.estimate",
    "metrics.distributions",
    "metrics.power",
}

RUN = """
import json, runpy, sys
sys.argv = ["python -m metrics", *sys.argv[1:]]
try:
    runpy.run_module("metrics", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith("metrics") or m == "regex")))
"""


def imported_by(*args: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-c", RUN, *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(proc.stdout.splitlines()[-1]))


def modules_of(*names: str) -> set[str]:
    return {METRIC_CLASSES[name][0] for name in names}


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("The cat sat on the mat.\nHello, world!\n", encoding="utf-8")
    hyp.write_text("The cat sat on a mat.\nHello world!\n", encoding="utf-8")
    return ["--ref", str(ref), "--hyp", str(hyp)]


@pytest.mark.parametrize(
    "metric, own",
    [
        ("bleu", {"metrics.bleu", "metrics.ngrams"}),
        ("wer", {"metrics.wer", "metrics.align"}),
        ("chrf", {"metrics.chrf", "metrics.chrf_match"}),
    ],
)
def test_a_run_imports_only_the_modules_of_its_metric(
    files: list[str], metric: str, own: set[str]
) -> None:
    loaded = imported_by(*files, "--metric", metric)
    others = modules_of(*(name for name in METRIC_CLASSES if name != metric)) | HELPERS
    assert own <= loaded
    assert loaded & (others - own) == set()


def test_help_imports_only_the_modules_whose_choices_it_lists(files: list[str]) -> None:
    """--ref-length's (metrics.wer), --smooth's (metrics.bleu) and --weights' choices
    (metrics.wngram) are read from the modules that own them."""
    owners = {"metrics.wer", "metrics.align", "metrics.bleu", "metrics.ngrams", "metrics.wngram"}
    loaded = imported_by("--help")
    assert loaded & (modules_of(*METRIC_CLASSES) | HELPERS) <= owners
    assert "metrics.ter" not in loaded
    assert "metrics.meteor" not in loaded


def test_a_test_imports_the_resampling_only_when_asked(files: list[str], tmp_path: Path) -> None:
    other = tmp_path / "other.txt"  # a second system (a file given twice is refused)
    other.write_text("The cat sat on the mat.\nHello world!\n", encoding="utf-8")
    second = files + ["--hyp", str(other)]
    assert "metrics.significance" in imported_by(*second, "--metric=bleu", "--paired-bs")
    assert "metrics.significance" not in imported_by(*second, "--metric=bleu")


@pytest.mark.parametrize(
    "tokenize, metric, needs_classes",
    [
        ("13a", "bleu,wer", False),
        ("none", "wer", False),
        ("char", "bleu", False),
        ("intl", "bleu", True),
        ("nopunct", "wer", True),
    ],
)
def test_the_unicode_classes_module_is_imported_only_for_intl_and_nopunct(
    files: list[str], tokenize: str, metric: str, needs_classes: bool
) -> None:
    """``intl`` and ``nopunct`` read the Unicode classes of the ``regex`` module
    (:func:`metrics.tokenize_unicode._category_ranges`); no other tokenizer pays for its import."""
    loaded = imported_by(*files, "--metric", metric, "--tokenize", tokenize)
    assert ("regex" in loaded) == needs_classes


def test_estimate_imports_the_estimator_and_no_metric(tmp_path: Path) -> None:
    human, chrf = tmp_path / "human.tsv", tmp_path / "chrf.txt"
    human.write_text("0\t1.0\n2\t3.0\n", encoding="utf-8")
    chrf.write_text("0.1\n0.2\n0.3\n", encoding="utf-8")
    loaded = imported_by("estimate", "--human", str(human), "--auto", f"chrf={chrf}")
    assert {"metrics.estimate_cli", "metrics.estimate"} <= loaded
    assert loaded & (modules_of(*METRIC_CLASSES) | HELPERS) == {
        "metrics.estimate_cli",
        "metrics.estimate",
        "metrics.distributions",
    }
