"""``python -m metrics human``: an ESA or MQM campaign's figures per system from a file,
as :mod:`metrics.protocols` computes them; MQM read in WMT's layout with Freitag et al.'s
weights by hand; bad input refused in one line with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from metrics.__main__ import main
from metrics.protocols import esa, esa_z
from metrics.ratings import ratings

HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def row(system: str, seg: int, rater: str, category: str, severity: str) -> str:
    return f"{system}\td\t{seg}\t{seg}\t{rater}\tsrc\ttgt\t{category}\t{severity}\n"


def human(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["human", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_esa_figures_are_the_modules_and_the_clusters_rank_by_esa_z(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(3)
    rows = [
        (system, f"seg{s}", f"r{(s + k) % 3}", int(np.clip(rng.normal(mean, 10), 0, 100)))
        for k, (system, mean) in enumerate([("good", 85), ("fair", 60), ("poor", 30)])
        for s in range(30)
    ]
    path = tmp_path / "esa.tsv"
    path.write_text("".join(f"{a}\t{b}\t{c}\t{d}\n" for a, b, c, d in rows), encoding="utf-8")
    r = ratings(*zip(*[(a, int(b[3:]), c, d) for a, b, c, d in rows], strict=True), 30)

    got = human(capsys, "--protocol", "esa", str(path))

    by_system = {s["system"]: s for s in got["systems"]}
    for system in ("good", "fair", "poor"):
        assert by_system[system]["esa"] == pytest.approx(esa(r).of(system), abs=1e-12)
        assert by_system[system]["esa_z"] == pytest.approx(esa_z(r).of(system), abs=1e-12)
        assert by_system[system]["items"] == 30
    assert [by_system[s]["cluster"] for s in ("good", "fair", "poor")] == [1, 2, 3]
    assert got["clusters"]["by"] == "esa_z"
    assert got["clusters"]["too_few"] is False
    assert main(["human", "--protocol", "esa", str(path)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["system", "esa", "esa_z", "items", "cluster"]
    assert table[1].split()[0] == "good"


def test_mqm_in_wmts_layout_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A: segment 1 by r1 5 + 0.1 (major mistranslation, minor punctuation) and by r2
    no error: 2.55; segment 2 not translated (WMT's "Non-translation!"), 25; mean 13.775.
    B: segment 1 a minor error and a neutral one: 1; segment 2 no error: mean 0.5."""
    path = tmp_path / "mqm.tsv"
    path.write_text(
        HEADER
        + row("A", 1, "r1", "Accuracy/Mistranslation", "Major")
        + row("A", 1, "r1", "Fluency/Punctuation", "Minor")
        + row("A", 1, "r2", "No-error", "No-error")
        + row("A", 2, "r1", "Non-translation!", "Major")
        + row("B", 1, "r1", "Fluency/Grammar", "minor")
        + row("B", 1, "r1", "Style/Awkward", "Neutral")
        + row("B", 2, "r2", "No-error", "No-error"),
        encoding="utf-8",
    )

    got = human(capsys, "--protocol", "mqm", str(path))

    by_system = {s["system"]: s for s in got["systems"]}
    assert by_system["A"]["mqm"] == pytest.approx((2.55 + 25) / 2, abs=1e-12)
    assert by_system["B"]["mqm"] == pytest.approx(0.5, abs=1e-12)
    assert (by_system["A"]["items"], by_system["B"]["items"]) == (2, 2)
    taxonomy = tmp_path / "taxonomy.json"
    taxonomy.write_text(
        '{"weights": {"minor": 2, "major": 10}, "categories": [{"name": "Fluency/Grammar"}]}',
        encoding="utf-8",
    )
    path.write_text(HEADER + row("B", 1, "r1", "Fluency/Grammar", "Minor"), encoding="utf-8")
    own = human(capsys, "--protocol", "mqm", str(path), "--taxonomy", str(taxonomy))
    assert own["systems"][0]["mqm"] == 2.0


@pytest.mark.parametrize(
    "protocol, content, message",
    [
        ("esa", "A\ts1\tr1\n", "esa.txt line 1: expected 'system<TAB>segment<TAB>annotator"),
        ("esa", "A\ts1\tr1\t80\nA\ts2\tr1\t101\n", "esa.txt line 2: score 101 is outside 0–100"),
        ("esa", "A\ts1\tr1\tgood\n", "esa.txt line 1: score 'good' is not a number"),
        ("esa", "", "esa.txt: holds no judgment"),
        ("mqm", "system\tseg_id\trater\tcategory\n", "esa.txt line 1: the header names no 'sev"),
        (
            "mqm",
            HEADER + row("A", 1, "r1", "Names", "Major"),
            "esa.txt line 2: category 'Names' is not in the taxonomy",
        ),
        (
            "mqm",
            HEADER + row("A", 1, "r1", "Other", "Critical"),
            "esa.txt line 2: severity 'critical': choose one of minor, major",
        ),
    ],
)
def test_bad_input_is_one_line_with_exit_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], protocol: str, content: str, message: str
) -> None:
    path = tmp_path / "esa.txt"
    path.write_text(content, encoding="utf-8")

    status = main(["human", "--protocol", protocol, str(path)])

    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("python -m metrics human: error: ")
    assert message in err
