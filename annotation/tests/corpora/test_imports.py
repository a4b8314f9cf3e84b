"""Importing and exporting evalTrans corpora: lossless, all or nothing, with clear refusals."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from lxml import etree

from annotation.corpora.exports import corpus_export
from annotation.corpora.imports import (
    ERR_CORPUS_EXISTS,
    ImportRefused,
    corpus_import,
    corpus_import_text,
)
from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User
from annotation.tests.factories import DEMO_XML, SEED_XML

pytestmark = pytest.mark.django_db

JUDGED = b"""<?xml version="1.0" encoding="UTF-8"?>
<evalTrans name="judged">
<sentence id="s1" doc="d1" topic="figures">
  <source>La figura muestra el m\xc3\xa9todo.</source>
  <eval translator="first reference"><target>This figure shows the procedure.</target></eval>
  <eval translator="multi reference"><target>This figure shows the method.</target></eval>
  <eval translator="Statistical" evaluator="JM" sser="8" awer="1/5" checked="yes">
    <target>Chart represent the method.</target>
    <newRef>Chart represents the method.</newRef>
  </eval>
  <eval translator="Statistical" evaluator="AB" sser="6" awer="3/4">
    <target>Chart represent the method.</target>
    <newRef>Chart represents the method.</newRef>
    <note>second opinion</note>
  </eval>
  <eval translator="Rules"><target>The figure shows the method.</target></eval>
</sentence>
</evalTrans>
"""


def snapshot(corpus: Corpus) -> dict[str, object]:
    """Everything a corpus holds, without database ids or timestamps."""
    return {
        "corpus": (corpus.extra_attrs, corpus.extra_xml),
        "translators": sorted(corpus.translators.values_list("name", "role", "position")),
        "sentences": list(
            Sentence.objects.filter(corpus=corpus)
            .order_by("position")
            .values_list(
                "position", "xml_id", "doc", "source", "extra_attrs", "extra_xml", "after_xml"
            )
        ),
        "targets": sorted(
            Target.objects.filter(sentence__corpus=corpus).values_list(
                "sentence__position",
                "translator__name",
                "ordinal",
                "position",
                "text",
                "extra_attrs",
                "extra_xml",
            )
        ),
        "judgments": sorted(
            Judgment.objects.filter(target__sentence__corpus=corpus).values_list(
                "target__sentence__position",
                "target__translator__name",
                "evaluator__username",
                "sser",
                "new_ref",
                "edits",
                "ref_length",
                "state",
                "extra_attrs",
                "extra_xml",
            )
        ),
    }


def export_bytes(corpus: Corpus) -> bytes:
    out = io.BytesIO()
    corpus_export(corpus=corpus, out=out)
    return out.getvalue()


def canonical(xml: bytes, *, drop_root_name: bool = False) -> list[tuple[object, ...]]:
    """Elements in document order with whitespace-normalised text, for comparing files."""
    root = etree.fromstring(xml)
    if drop_root_name:
        root.attrib.pop("name", None)
    return [
        (el.tag, sorted(el.attrib.items()), " ".join((el.text or "").split())) for el in root.iter()
    ]


def test_the_demo_corpus_imports_with_its_references_and_systems() -> None:
    summary = corpus_import(source=DEMO_XML, name="demo")

    assert (summary.sentences, summary.references_min, summary.references_max) == (40, 2, 2)
    assert summary.systems == 5
    assert summary.judgments == 0
    roles = dict(summary.corpus.translators.values_list("name", "role"))
    assert roles["first reference"] == Translator.Role.FIRST_REFERENCE
    assert roles["multi reference"] == Translator.Role.REFERENCE
    assert roles["DIDI-NLP"] == Translator.Role.SYSTEM
    assert Target.objects.filter(sentence__corpus=summary.corpus).count() == 40 * 7


@pytest.mark.parametrize("path", [DEMO_XML, SEED_XML], ids=["demo", "seed"])
def test_export_of_an_unjudged_file_equals_the_input_after_whitespace_normalisation(
    path: Path,
) -> None:
    corpus = corpus_import(source=path, name="c").corpus

    exported = export_bytes(corpus)

    assert exported.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    assert canonical(exported, drop_root_name=True) == canonical(
        path.read_bytes(), drop_root_name=True
    )


@pytest.mark.parametrize(
    "content",
    [DEMO_XML.read_bytes(), SEED_XML.read_bytes(), JUDGED],
    ids=["demo", "seed", "judged"],
)
def test_import_export_import_gives_identical_database_content(content: bytes) -> None:
    first = corpus_import(source=io.BytesIO(content), name="first", filename="a.xml").corpus
    second = corpus_import(
        source=io.BytesIO(export_bytes(first)), name="second", filename="b.xml"
    ).corpus

    assert snapshot(second) == snapshot(first)


def test_judgments_survive_the_round_trip_with_recomputed_awer() -> None:
    summary = corpus_import(source=io.BytesIO(JUDGED), filename="judged.xml")

    assert summary.corpus.name == "judged"
    assert summary.judgments == 2
    jm = Judgment.objects.get(evaluator__username="JM")
    assert (jm.sser, jm.new_ref, jm.edits, jm.ref_length) == (
        8,
        "Chart represents the method .",
        1,
        5,
    )
    assert jm.state == Judgment.State.DONE
    # AB's awer="3/4" does not match its new reference: a warning, and 1/5 wins.
    assert summary.warnings == (
        "judged.xml line 11: awer 3/4 of 'Statistical' recomputed from its new reference as 1/5",
    )
    ab = Judgment.objects.get(evaluator__username="AB")
    assert (ab.edits, ab.ref_length) == (1, 5)

    exported = export_bytes(summary.corpus)
    root = etree.fromstring(exported)
    judged = root.findall(".//eval[@evaluator]")
    assert [(e.get("evaluator"), e.get("sser"), e.get("awer")) for e in judged] == [
        ("JM", "8", "1/5"),
        ("AB", "6", "1/5"),
    ]
    assert judged[0].get("checked") == "yes"
    assert judged[1].findtext("note") == "second opinion"
    assert judged[0].findtext("newRef") == "Chart represents the method ."
    assert root.find("sentence").get("topic") == "figures"


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


def test_a_judgment_in_progress_stays_pending_through_export_and_import() -> None:
    content = JUDGED.replace(b'evaluator="AB" sser="6"', b'evaluator="AB" sser="6" state="pending"')
    first = corpus_import(source=io.BytesIO(content), name="first", filename="a.xml").corpus
    ab = Judgment.objects.get(target__sentence__corpus=first, evaluator__username="AB")
    assert ab.state == Judgment.State.PENDING
    assert ab.extra_attrs == []

    exported = export_bytes(first)
    second = corpus_import(source=io.BytesIO(exported), name="second", filename="b.xml").corpus

    assert b'evaluator="AB" sser="6" awer="1/5" state="pending"' in exported
    assert snapshot(second) == snapshot(first)
    assert not Judgment.objects.done().filter(
        target__sentence__corpus=second, evaluator__username="AB"
    )
