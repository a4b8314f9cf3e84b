"""Importing plain one-segment-per-line files: parallel files become a corpus, and a line
that could not be kept is refused with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotation.corpora.import_state import ImportRefused
from annotation.corpora.text_imports import corpus_import_text
from annotation.models import Corpus, Target

pytestmark = pytest.mark.django_db


def test_plain_text_files_import_as_a_corpus(tmp_path: Path) -> None:
    (tmp_path / "src.txt").write_text("uno\ndos\n", encoding="utf-8")
    (tmp_path / "ref1.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "ref2.txt").write_text("a one\na two\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("one\n  too \n", encoding="utf-8")

    summary = corpus_import_text(
        name="plain",
        source=tmp_path / "src.txt",
        refs=[tmp_path / "ref1.txt", tmp_path / "ref2.txt"],
        hyps=[("mt", tmp_path / "sys.txt")],
    )

    assert (summary.sentences, summary.references_max, summary.systems) == (2, 2, 1)
    stored = Corpus.objects.get(name="plain")
    assert (stored.n_sentences, stored.n_systems, stored.n_candidates) == (2, 1, 2)
    texts = dict(
        Target.objects.filter(sentence__position=1).values_list("translator__name", "text")
    )
    assert texts == {"first reference": "two", "second reference": "a two", "mt": "too"}


def test_plain_text_files_of_different_lengths_are_refused_with_file_and_line(
    tmp_path: Path,
) -> None:
    (tmp_path / "src.txt").write_text("uno\ndos\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("one\n", encoding="utf-8")

    with pytest.raises(ImportRefused) as refused:
        corpus_import_text(
            name="plain",
            source=tmp_path / "src.txt",
            refs=[tmp_path / "ref.txt"],
            hyps=[("mt", tmp_path / "sys.txt")],
        )

    assert str(refused.value) == (
        f"{tmp_path / 'sys.txt'} line 2: has 1 lines but {tmp_path / 'src.txt'} has 2:"
        " files must be parallel"
    )
    assert Corpus.objects.count() == 0


def write_plain(tmp_path: Path, hyp: str) -> dict[str, object]:
    (tmp_path / "src.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text(hyp, encoding="utf-8")
    return {
        "name": "plain",
        "source": tmp_path / "src.txt",
        "refs": [tmp_path / "ref.txt"],
        "hyps": [("mt", tmp_path / "sys.txt")],
    }


@pytest.mark.parametrize("bad", ["\x00", "\x07", "\ufffe", "\uffff"])
def test_a_plain_text_line_xml_cannot_hold_is_refused_with_file_and_line(
    tmp_path: Path, bad: str
) -> None:
    with pytest.raises(ImportRefused) as caught:
        corpus_import_text(**write_plain(tmp_path, f"one\ntw{bad}o\n"))

    assert str(caught.value).startswith(f"{tmp_path / 'sys.txt'} line 2: character U+")
    assert "cannot be written in XML" in str(caught.value)
    assert Corpus.objects.count() == 0


def test_a_system_name_longer_than_its_column_is_refused(tmp_path: Path) -> None:
    files = write_plain(tmp_path, "one\ntwo\n")
    files["hyps"] = [("s" * 201, tmp_path / "sys.txt")]

    with pytest.raises(ImportRefused, match="201 characters long; at most 200 fit"):
        corpus_import_text(**files)


# --- a long import: hidden until complete, short transactions, nothing left on failure ---
