"""``python -m metrics --unsegmented``: hypotheses as documents, re-segmented (seed 002)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.__main__ import main
from metrics.aswer import resegment_text
from metrics.tests.demo import REFERENCES, demo
from metrics.tests.test_cli import run_cli
from metrics.tokenize import Preprocessor

SYSTEM = "NiuTrans"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """The references one segment per line; the system's output as a document whose
    lines are not the references' (two sentences per line, a final line of one)."""
    data = demo()
    out = {}
    for name in REFERENCES:
        out[name] = tmp_path / f"{name.replace(' ', '_')}.txt"
        out[name].write_text("\n".join(data[name]) + "\n", encoding="utf-8")
    lines = [" ".join(data[SYSTEM][k : k + 2]) for k in range(0, len(data[SYSTEM]), 2)]
    out[SYSTEM] = tmp_path / "niutrans.txt"
    out[SYSTEM].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def test_unsegmented_scores_the_resegmented_document_and_adds_its_segmentation(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = str(files[SYSTEM])
    args = ["--ref", str(files["first reference"]), "--hyp", hyp, "--unsegmented", "--json"]

    code = main(
        [*args, "--metric", "aswer,wer,bleu", "--tokenize", "none", "--lowercase"]
        + ["--segmented-out", str(tmp_path / "out")]
    )

    assert code == 0
    payload = json.loads(capsys.readouterr().out)[hyp]
    assert list(payload) == ["aswer", "wer", "bleu", "segmentation"]
    # one reference: AS-WER is the WER of the re-segmented document
    assert payload["aswer"]["score"] == pytest.approx(payload["wer"]["score"], abs=1e-12)
    assert payload["aswer"]["signature"].startswith("nrefs:1|tok:none|case:lc|seg:auto|")
    refs = [(t,) for t in demo()["first reference"]]
    seg, segments = resegment_text(
        files[SYSTEM].read_text(encoding="utf-8"), refs, Preprocessor("none", lowercase=True)
    )
    assert payload["segmentation"] == {
        "boundaries": list(seg.boundaries),
        "reference_per_segment": [0] * 40,
    }
    assert payload["aswer"]["score"] == pytest.approx(100 * seg.rate, abs=1e-12)
    written = (tmp_path / "out" / "niutrans.txt").read_text(encoding="utf-8").split("\n")
    assert written == [*segments, ""]
    assert len(segments) == 40


def test_unsegmented_defaults_to_every_metric_and_aswer_with_two_references(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = str(files[SYSTEM])
    refs = ["--ref", str(files["first reference"]), "--ref", str(files["multi reference"])]

    assert main([*refs, "--hyp", hyp, "--unsegmented", "--json"]) == 0

    payload = json.loads(capsys.readouterr().out)[hyp]
    assert "aswer" in payload
    assert "bleu" in payload
    assert "ter" in payload
    assert payload["aswer"]["signature"].startswith("nrefs:2|tok:13a|case:mixed|")
    assert set(payload["segmentation"]["reference_per_segment"]) <= {0, 1}
    assert 0 < payload["aswer"]["score"] < 100


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--metric", "wer,aswer"], "metric 'aswer' needs --unsegmented"),
        (["--segmented-out", "somewhere"], "--segmented-out needs --unsegmented"),
        (["--aswer-as-defined"], "--aswer-as-defined needs --unsegmented"),
    ],
)
def test_aswer_and_segmented_out_need_unsegmented(
    files: dict[str, Path], extra: list[str], message: str
) -> None:
    ref = str(files["first reference"])
    proc = run_cli("--ref", ref, "--hyp", ref, *extra)

    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"python -m metrics: error: {message}")
    assert proc.stdout == ""


def test_aswer_as_defined_leaves_out_mwersegmenters_charge_before_the_first_word(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A document that starts with the fourth sentence: by default its split and AS-WER
    are mwerSegmenter's (the segment ends before the first word charged), with
    ``--aswer-as-defined`` seed 002's; the signature says which."""
    late = tmp_path / "late.txt"
    late.write_text("\n".join(demo()[SYSTEM][3:]) + "\n", encoding="utf-8")
    refs = [(t,) for t in demo()["first reference"]]
    args = ["--ref", str(files["first reference"]), "--hyp", str(late), "--unsegmented"]
    args += ["--json", "--metric", "aswer"]

    got = {}
    for extra, mweralign in (([], True), (["--aswer-as-defined"], False)):
        assert main([*args, *extra]) == 0
        got[mweralign] = json.loads(capsys.readouterr().out)[str(late)]
        seg, _ = resegment_text(late.read_text(encoding="utf-8"), refs, mweralign=mweralign)
        assert got[mweralign]["segmentation"]["boundaries"] == list(seg.boundaries)
        assert got[mweralign]["aswer"]["score"] == pytest.approx(100 * seg.rate, abs=1e-12)
        assert f"|mweralign:{'yes' if mweralign else 'no'}|" in got[mweralign]["aswer"]["signature"]
    assert got[True]["segmentation"]["boundaries"][0] == 1  # a word into the first segment
    assert got[False]["segmentation"]["boundaries"][0] == 0  # as defined: it stays empty
    assert got[True]["aswer"]["score"] > got[False]["aswer"]["score"]
