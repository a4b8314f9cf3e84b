"""Adding a system to a corpus that exists: from one candidate per line, or from one
unsegmented document re-segmented against the corpus's references (seed 002)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.corpora.exports import corpus_export
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import corpus_import
from annotation.corpora.systems import corpus_add_system
from annotation.judging.changes import judgment_move_word
from annotation.judging.start import judgment_open
from annotation.models import Corpus, CorpusStatistics, Translator, User
from annotation.statistics import corpus_texts, default_stored_statistics
from annotation.tests.documents import candidates_of, unsegmented_document
from annotation.tests.factories import DEMO_XML, ROOT, target_of
from annotation.tests.stored import automatic_statistics
from annotation.text import words

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> Corpus:
    return corpus_import(source=DEMO_XML, name="demo").corpus


def test_an_unsegmented_system_is_cut_into_one_candidate_per_sentence_losing_no_word(
    demo: Corpus,
) -> None:
    document = unsegmented_document(demo)

    added = corpus_add_system(
        corpus=demo, name="speech", lines=document, filename="speech.txt", unsegmented=True
    )

    candidates = candidates_of(demo, "speech")
    assert len(candidates) == demo.n_sentences == 40
    assert [w for c in candidates for w in c.split()] == list(words(" ".join(document)))
    demo.refresh_from_db()
    assert (demo.n_systems, demo.n_candidates) == (6, 240)
    assert added.segmentation is not None
    assert added.segmentation.length > 0
    assert added.lines()[1].startswith("Re-segmented from one document: AS-WER ")


def test_the_corpus_mwer_of_the_added_system_is_the_command_lines_aswer(
    demo: Corpus, tmp_path: Path
) -> None:
    """Same boundaries, same references chosen, same rate as ``python -m metrics
    --unsegmented --metric aswer`` on the same files."""
    document = unsegmented_document(demo)
    (tmp_path / "speech.txt").write_text("\n".join(document) + "\n", encoding="utf-8")
    refs = corpus_texts(demo).refs
    ref_files = []
    for r in range(2):
        path = tmp_path / f"ref{r}.txt"
        path.write_text("".join(seg[r] + "\n" for seg in refs), encoding="utf-8")
        ref_files.append(str(path))
    corpus_add_system(
        corpus=demo, name="speech", lines=document, filename="speech.txt", unsegmented=True
    )

    command = [sys.executable, "-m", "metrics", "--ref", ref_files[0], "--ref", ref_files[1]]
    command += ["--hyp", str(tmp_path / "speech.txt"), "--unsegmented", "--metric", "aswer"]
    out = json.loads(
        subprocess.run([*command, "--json"], cwd=ROOT, capture_output=True, check=True).stdout
    )[str(tmp_path / "speech.txt")]

    demo.refresh_from_db()
    mwer = automatic_statistics(demo).scores["mwer"]["speech"]
    assert mwer.score == pytest.approx(out["aswer"]["score"], abs=1e-9)
    lengths = [len(c.split()) for c in candidates_of(demo, "speech")]
    assert [sum(lengths[: k + 1]) for k in range(len(lengths))] == out["segmentation"]["boundaries"]
    record = Translator.objects.get(corpus=demo, name="speech").segmentation
    assert [e[0] for e in record["segments"]] == out["segmentation"]["reference_per_segment"]


def test_adding_a_system_scores_the_corpus_afresh_with_it(demo: Corpus) -> None:
    automatic_statistics(demo, ref_length="average")  # a second stored choice
    lines = corpus_texts(demo).systems["NiuTrans"]

    corpus_add_system(corpus=demo, name="copy", lines=lines, filename="copy.txt", unsegmented=False)

    assert CorpusStatistics.objects.filter(corpus=demo).count() == 1  # the default, anew
    stored = default_stored_statistics(demo)
    assert stored is not None
    assert "copy" in stored.systems
    assert stored.scores["bleu"]["copy"].score == stored.scores["bleu"]["NiuTrans"].score
    assert Translator.objects.get(corpus=demo, name="copy").segmentation is None


@pytest.mark.parametrize(
    "name, lines, unsegmented, message",
    [
        ("NiuTrans", ["a"] * 40, False, "copy.txt: the corpus has a translator named 'NiuTrans'"),
        ("new reference", ["a"] * 40, False, "copy.txt: system name 'new reference' is empty"),
        ("short", ["a"] * 39, False, "copy.txt: 39 lines, but the corpus has 40 sentences"),
        ("nul", ["a", "b\x00"], True, "copy.txt line 2: "),
        ("bell\x07", ["a"] * 40, False, "copy.txt: the system name: character U+0007"),
    ],
)
def test_a_system_that_cannot_be_added_is_refused_and_nothing_is_stored(
    demo: Corpus, name: str, lines: list[str], unsegmented: bool, message: str
) -> None:
    with pytest.raises(ImportRefused) as refused:
        corpus_add_system(
            corpus=demo, name=name, lines=lines, filename="copy.txt", unsegmented=unsegmented
        )

    assert str(refused.value).startswith(message)
    assert Translator.objects.filter(corpus=demo).count() == 7


def test_import_text_unsegmented_adds_to_an_existing_corpus_or_creates_one(
    demo: Corpus, tmp_path: Path
) -> None:
    (tmp_path / "speech.txt").write_text("\n".join(unsegmented_document(demo)), encoding="utf-8")
    refs = corpus_texts(demo).refs
    (tmp_path / "src.txt").write_text("".join(f"s{k}\n" for k in range(40)), encoding="utf-8")
    (tmp_path / "ref.txt").write_text("".join(seg[0] + "\n" for seg in refs), encoding="utf-8")
    hyp = f"speech={tmp_path / 'speech.txt'}"

    call_command("import_text", "--name", "demo", "--hyp", hyp, "--unsegmented")
    call_command(
        "import_text",
        *("--name", "fresh", "--source", str(tmp_path / "src.txt")),
        *("--ref", str(tmp_path / "ref.txt"), "--hyp", hyp, "--unsegmented"),
    )

    fresh = Corpus.objects.get(name="fresh")
    assert (fresh.n_sentences, fresh.n_systems) == (40, 1)
    assert candidates_of(fresh, "speech") != [""] * 40
    assert len(candidates_of(demo, "speech")) == 40
    with pytest.raises(CommandError, match="no corpus named 'nowhere'"):
        call_command("import_text", "--name", "nowhere", "--hyp", hyp, "--unsegmented")
    with pytest.raises(CommandError, match="needs --source and --ref"):
        call_command("import_text", "--name", "x", "--ref", str(tmp_path / "ref.txt"), "--hyp", hyp)


def test_an_exported_resegmented_system_comes_back_with_its_segmentation(
    demo: Corpus, judge: User
) -> None:
    """The export carries each segment's record (``aswer``, ``aswerRef`` on the system's
    bare ``<eval>``, from the record as it is after a moved word); the import rebuilds the
    record from them, and the file written again is the same file."""
    corpus_add_system(
        corpus=demo,
        name="speech",
        lines=unsegmented_document(demo),
        filename="speech.txt",
        unsegmented=True,
    )
    demo.judges.add(judge)
    judgment = judgment_open(user=judge, target=target_of(demo, "speech", 3))
    judgment_move_word(
        judgment=judgment, user=judge, version=judgment.version, edge="end", move="give"
    )
    exported = io.BytesIO()
    corpus_export(corpus=demo, out=exported)

    again = corpus_import(source=io.BytesIO(exported.getvalue()), name="again").corpus

    record = Translator.objects.get(corpus=demo, name="speech").segmentation
    assert Translator.objects.get(corpus=again, name="speech").segmentation == record
    assert Translator.objects.get(corpus=again, name="NiuTrans").segmentation is None
    assert candidates_of(again, "speech") == candidates_of(demo, "speech")
    written_again = io.BytesIO()
    corpus_export(corpus=again, out=written_again)
    assert written_again.getvalue().replace(b'"again"', b'"demo"') == exported.getvalue()
