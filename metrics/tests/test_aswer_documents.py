"""Re-segmentation within documents (issue 40, point 2): ``python -m metrics --unsegmented
--docs FILE``, each candidate line one document, as mweralign 1.4.1's ``--docid-file``
splits it; the same files given to mweralign's own command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from metrics.__main__ import main
from metrics.aswer import document_ranges, resegment_documents, resegment_text
from metrics.tests.demo import REFERENCES, SYSTEMS, demo
from metrics.tokenize import Preprocessor

#: The demo talk cut into three documents of unequal lengths.
DOCUMENTS = ["talk-a"] * 12 + ["talk-b"] * 5 + ["talk-c"] * 23
WORDS = Preprocessor("none", lowercase=True)


def _words(text: str) -> str:
    """The words both tools compare: whitespace words, lowercased by Python (mweralign
    folds ASCII letters only)."""
    return " ".join(text.lower().split())


def _write(directory: Path, system: str, n_refs: int, drop: int | None = None) -> dict[str, Path]:
    """References (mweralign's ``ref ### ref`` lines), document ids, and the system's
    output as one line a document (``drop``: a sentence left out of it; 11, the last of
    the first document, is put at the start of the second instead)."""
    data = demo()
    refs = [" ### ".join(_words(data[r][k]) for r in REFERENCES[:n_refs]) for k in range(40)]
    lines: list[str] = []
    for a, b in document_ranges(DOCUMENTS):
        lines.append(" ".join(_words(data[system][k]) for k in range(a, b) if k != drop))
    if drop == 11:
        lines[1] = f"{_words(data[system][11])} {lines[1]}"
    paths = {
        "ref": directory / "ref.txt",
        "hyp": directory / "hyp.txt",
        "docs": directory / "docids.txt",
    }
    paths["ref"].write_text("\n".join(refs) + "\n", encoding="utf-8")
    paths["hyp"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths["docs"].write_text("\n".join(DOCUMENTS) + "\n", encoding="utf-8")
    return paths


def _mweralign(paths: dict[str, Path], out: Path) -> list[list[str]]:
    """mweralign's segments (the words of each line it writes)."""
    subprocess.run(
        [sys.executable, "-m", "mweralign.mweralign", "-m", "none"]
        + ["-r", str(paths["ref"]), "-t", str(paths["hyp"]), "-d", str(paths["docs"])]
        + ["-o", str(out)],
        check=True,
        capture_output=True,
    )
    return [line.split() for line in out.read_text(encoding="utf-8").split("\n")[:40]]


CASES = [(s, 1, None) for s in SYSTEMS] + [("IIE-MT", 2, None), ("Online-W", 1, 14)]
CASES += [("Facebook-AI", 1, 11), ("NiuTrans", 2, 11)]


@pytest.mark.parametrize("system, n_refs, drop", CASES)
def test_the_segments_are_mweraligns_document_by_document(
    system: str, n_refs: int, drop: int | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _write(tmp_path, system, n_refs, drop)
    refs_args = [a for r in range(n_refs) for a in ("--ref", str(tmp_path / f"ref{r}.txt"))]
    data = demo()
    for r in range(n_refs):
        (tmp_path / f"ref{r}.txt").write_text(
            "\n".join(_words(t) for t in data[REFERENCES[r]]) + "\n", encoding="utf-8"
        )
    code = main(
        [*refs_args, "--hyp", str(paths["hyp"]), "--docs", str(paths["docs"]), "--unsegmented"]
        + ["--tokenize", "none", "--lowercase", "--metric", "aswer", "--json"]
        + ["--segmented-out", str(tmp_path / "ours")]
    )
    assert code == 0
    ours = (tmp_path / "ours" / "hyp.txt").read_text(encoding="utf-8").split("\n")[:40]
    assert [line.split() for line in ours] == _mweralign(paths, tmp_path / "mweralign.txt")
    found = json.loads(capsys.readouterr().out)[str(paths["hyp"])]
    assert found["segmentation"]["boundaries"][-1] == sum(len(line.split()) for line in ours)
    first_line = paths["hyp"].read_text(encoding="utf-8").split("\n")[0]
    # the first document ends where its line does, though its last sentence is on the next
    assert found["segmentation"]["boundaries"][11] == len(first_line.split())


def test_documents_are_not_one_document() -> None:
    """Within documents, a sentence cannot drift into the next document: the segments
    differ from those of the whole output as one document, where it can."""
    data = demo()
    refs = [(t,) for t in data["first reference"]]
    hyp = list(data["DIDI-NLP"])
    lines = [" ".join(hyp[a:b]) for a, b in document_ranges(DOCUMENTS)]
    lines[0], lines[1] = lines[0] + " " + lines[1].split(" ", 3)[3], " ".join(lines[1].split()[:3])
    seg, segments = resegment_documents(lines, refs, DOCUMENTS, WORDS)
    whole, _ = resegment_text(" ".join(lines), refs, WORDS)
    assert seg.boundaries != whole.boundaries
    assert seg.boundaries[11] == len(lines[0].split())  # talk-a ends where its line does
    assert segments[12:17] != [""] * 5  # talk-b keeps its three words


@pytest.mark.parametrize(
    "documents, lines, message",
    [
        (["a", "b", "a"], 3, "document 'a' comes back at segment 3"),
        (["a", "a", "b"], 3, "3 candidate lines but 2 documents"),
        (["a", "b"], 2, "2 document ids but 3 reference segments"),
    ],
)
def test_document_ids_that_do_not_fit_are_refused(
    documents: list[str], lines: int, message: str
) -> None:
    refs = [("x",), ("y",), ("z",)]
    with pytest.raises(ValueError, match=message):
        resegment_documents(["x y"] * lines, refs, documents)
