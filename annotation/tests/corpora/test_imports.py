"""Importing evalTrans corpora and plain-text files: all or nothing, with clear refusals."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from annotation.corpora.imports import (
    ERR_CORPUS_EXISTS,
    ImportRefused,
    corpus_import,
    corpus_import_text,
)
from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User
from annotation.tests.factories import DEMO_XML, JUDGED, SEED_XML

pytestmark = pytest.mark.django_db


def test_the_demo_corpus_imports_with_its_references_and_systems() -> None:
    summary = corpus_import(source=DEMO_XML, name="demo")

    assert (summary.sentences, summary.references_min, summary.references_max) == (40, 2, 2)
    assert summary.systems == 5
    stored = Corpus.objects.get(name="demo")
    assert (stored.n_sentences, stored.n_systems, stored.n_candidates) == (40, 5, 200)
    assert summary.judgments == 0
    roles = dict(summary.corpus.translators.values_list("name", "role"))
    assert roles["first reference"] == Translator.Role.FIRST_REFERENCE
    assert roles["multi reference"] == Translator.Role.REFERENCE
    assert roles["DIDI-NLP"] == Translator.Role.SYSTEM
    assert Target.objects.filter(sentence__corpus=summary.corpus).count() == 40 * 7


def test_evaluators_named_in_a_file_become_accounts_that_cannot_log_in() -> None:
    corpus = corpus_import(source=io.BytesIO(JUDGED), filename="judged.xml").corpus

    jm = User.objects.get(username="JM")
    assert not jm.is_active
    assert not jm.has_usable_password()
    assert jm.role == User.Role.JUDGE
    assert set(corpus.judges.values_list("username", flat=True)) == {"JM", "AB"}


def test_a_refused_file_leaves_nothing_behind() -> None:
    broken = JUDGED.replace(b'sser="6"', b'sser="11"')

    with pytest.raises(ImportRefused) as refused:
        corpus_import(source=io.BytesIO(broken), filename="broken.xml")

    assert str(refused.value).startswith("broken.xml line 11: ")
    assert Corpus.objects.count() == 0
    assert Sentence.objects.count() == Target.objects.count() == Judgment.objects.count() == 0
    assert User.objects.count() == 0


def test_a_refusal_late_in_a_large_file_rolls_back_the_batches_already_written() -> None:
    good = DEMO_XML.read_bytes()
    sentences = good.split(b"<sentence ")
    # 40 sentences × 15 copies > one write batch; the last sentence lacks its source.
    body = b"".join(b"<sentence " + s for s in sentences[1:]) * 15
    bad_tail = b'<sentence><eval translator="first reference"><target>x</target></eval></sentence>'
    content = sentences[0] + body.replace(b"</evalTrans>", b"") + bad_tail + b"</evalTrans>"

    with pytest.raises(ImportRefused, match="without <source>"):
        corpus_import(source=io.BytesIO(content), filename="big.xml")

    assert Sentence.objects.count() == 0


def test_a_second_corpus_of_the_same_name_is_refused() -> None:
    corpus_import(source=SEED_XML, name="same")

    with pytest.raises(ImportRefused) as refused:
        corpus_import(source=SEED_XML, name="same")

    assert refused.value.reason == ERR_CORPUS_EXISTS.format(name="same")
    assert Corpus.objects.count() == 1


def test_other_translators_can_be_named_references() -> None:
    summary = corpus_import(source=DEMO_XML, name="demo", reference_names=["Online-W"])

    assert summary.systems == 4
    assert (summary.references_min, summary.references_max) == (3, 3)


def test_the_seed_example_keeps_both_multi_references_of_one_sentence() -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus

    refs = Target.objects.filter(
        sentence__corpus=corpus, sentence__position=0, translator__name="multi reference"
    ).order_by("ordinal")
    assert [t.text for t in refs] == [
        "Chart represents the search method to locate the files .",
        "This figure shows the scan procedure to find the files .",
    ]


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


def test_a_corpus_name_longer_than_its_column_is_refused_on_every_database() -> None:
    with pytest.raises(ImportRefused, match="the corpus name is 201 characters long; at most 200"):
        corpus_import(source=SEED_XML, name="n" * 201)
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
