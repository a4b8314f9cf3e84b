"""Importing evalTrans corpora and plain-text files: all or nothing, with clear refusals."""

from __future__ import annotations

import io
import threading

import pytest
from django.db import connection
from django.test import Client

from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import (
    ERR_CORPUS_EXISTS,
    ERR_CORPUS_IMPORTING,
    RENAME_ON_COMMAND_LINE,
    SENTENCES_PER_TRANSACTION,
    corpus_import,
)
from annotation.judging.changes import judgment_set_sser
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User
from annotation.tests.factories import (
    DEMO_XML,
    JUDGED,
    PASSWORD,
    SEED_XML,
    done_judgment,
    exported,
    target_of,
)

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
    assert not corpus.judges.exists()


def test_an_import_assigns_the_files_evaluators_only_when_asked() -> None:
    summary = corpus_import(source=io.BytesIO(JUDGED), filename="judged.xml", assign=True)

    assert set(summary.corpus.judges.values_list("username", flat=True)) == {"JM", "AB"}
    assert "Evaluators AB, JM: assigned as judges." in summary.lines()


def test_a_reimported_export_gives_its_judges_no_second_queue(seed: Corpus, judge: User) -> None:
    done_judgment(seed, judge, "a translator", 0, sser=7, new_ref="x", edits=1, length=1)

    summary = corpus_import(source=io.BytesIO(exported(seed)), name="copy")
    copy = summary.corpus

    assert "judge" in summary.evaluators
    assert not copy.judges.exists()
    assert Corpus.objects.filter(pk=copy.pk).visible_to(judge).count() == 0


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

    assert refused.value.reason == ERR_CORPUS_EXISTS.format(
        name="same", rename=RENAME_ON_COMMAND_LINE
    )
    assert "choose another --name" in refused.value.reason
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


def test_a_corpus_name_longer_than_its_column_is_refused_on_every_database() -> None:
    with pytest.raises(ImportRefused, match="the corpus name is 201 characters long; at most 200"):
        corpus_import(source=SEED_XML, name="n" * 201)
    assert Corpus.objects.count() == 0


def sentences_of_file(data: bytes) -> bytes:
    """The ``<sentence>`` elements of an evalTrans file, without its head and end."""
    body = data.split(b"<sentence ", 1)[1].replace(b"</evalTrans>", b"")
    return b"<sentence " + body


def evaltrans_of(*sentences: bytes) -> bytes:
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<evalTrans>'
        + b"".join(sentences)
        + (b"</evalTrans>")
    )


DEMO_SENTENCES = sentences_of_file(DEMO_XML.read_bytes())  # 40 sentences
NO_SOURCE = b"<sentence><eval translator='first reference'><target>x</target></eval></sentence>"


def test_a_corpus_is_hidden_from_every_page_until_its_import_is_complete(
    lead_client: Client,
) -> None:
    assert SENTENCES_PER_TRANSACTION == 50  # 120 sentences: three transactions
    seen: list[tuple[int, bool, bool, bool]] = []

    def look(stored: int) -> None:
        home = lead_client.get("/").content.decode()
        seen.append(
            (
                stored,
                Corpus.all_objects.filter(name="long-import", ready=False).exists(),
                Corpus.objects.filter(name="long-import").exists(),
                '<tr data-corpus="long-import">' in home,
            )
        )

    source = io.BytesIO(evaltrans_of(DEMO_SENTENCES * 3))
    summary = corpus_import(source=source, name="long-import", progress=look)

    assert seen == [
        (0, True, False, False),  # the name is taken: a queued import records its corpus
        (50, True, False, False),
        (100, True, False, False),
        (120, True, False, False),
    ]
    assert summary.corpus.ready
    assert Corpus.objects.get(name="long-import").n_sentences == 120
    home = lead_client.get("/").content.decode()
    assert '<tr data-corpus="long-import">' in home
    assert "data-unfinished" not in home
    assert lead_client.get(f"/dashboard/{summary.corpus.pk}/").status_code == 200


def test_a_refusal_after_several_transactions_removes_all_they_wrote() -> None:
    existing = User.objects.create(username="JM", role=User.Role.JUDGE)
    # A judged sentence (evaluators JM, who exists, and AB, whom the import creates) in
    # the first transaction, 80 demo sentences, then a sentence without its source.
    content = evaltrans_of(sentences_of_file(JUDGED), DEMO_SENTENCES * 2, NO_SOURCE)

    with pytest.raises(ImportRefused, match="without <source>"):
        corpus_import(source=io.BytesIO(content), name="late")

    assert not Corpus.all_objects.exists()
    assert Sentence.objects.count() == Target.objects.count() == Judgment.objects.count() == 0
    assert list(User.objects.all()) == [existing]  # AB, created by the import, is gone


def test_a_name_being_imported_is_taken_with_its_own_reason() -> None:
    def import_the_same_name_meanwhile(stored: int) -> None:
        with pytest.raises(ImportRefused) as refused:
            corpus_import(source=SEED_XML, name="busy")
        reasons.append(refused.value.reason)

    reasons: list[str] = []
    source = io.BytesIO(evaltrans_of(DEMO_SENTENCES))
    corpus_import(source=source, name="busy", progress=import_the_same_name_meanwhile)

    assert reasons
    assert set(reasons) == {ERR_CORPUS_IMPORTING.format(name="busy", rename=RENAME_ON_COMMAND_LINE)}
    assert Corpus.objects.get(name="busy").n_sentences == 40


@pytest.mark.django_db(transaction=True)
def test_judges_log_in_and_click_while_a_long_import_writes(seed: Corpus, judge: User) -> None:
    """Between the import's transactions the database is free: another connection (a
    judge's request) writes at once. Were the import one transaction, SQLite would refuse
    that write until the end of the whole import."""
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    answers: list[object] = []

    def judge_works(stored: int) -> None:
        if stored == 0:  # told in the transaction that takes the name, for its caller to
            return  # record the corpus there (import_jobs): not between transactions

        def in_another_connection() -> None:
            try:
                login = Client().post(
                    "/accounts/login/", {"username": judge.username, "password": PASSWORD}
                )
                saved = judgment_set_sser(
                    judgment=Judgment.objects.get(pk=judgment.pk),
                    user=judge,
                    version=Judgment.objects.get(pk=judgment.pk).version,
                    sser=stored % 11,
                )
                answers.append((login.status_code, saved.sser))
            except Exception as exc:  # reported below, with the batch it happened after
                answers.append(exc)
            finally:
                connection.close()

        worker = threading.Thread(target=in_another_connection)
        worker.start()
        worker.join()

    source = io.BytesIO(evaltrans_of(DEMO_SENTENCES * 3))
    corpus_import(source=source, name="long", progress=judge_works)

    assert answers == [(302, n % 11) for n in (50, 100, 120)]


def test_judgments_with_without_and_with_an_empty_new_reference_import_side_by_side() -> None:
    """The new references of a batch are counted together: each judgment still gets its
    own counts, none where it has no new reference."""
    xml = b"""<evalTrans>
<sentence id="s1">
  <source>x</source>
  <eval translator="first reference"><target>The figure shows the method .</target></eval>
  <eval translator="A" evaluator="JM" sser="5"><target>Figure show method .</target></eval>
  <eval translator="B" evaluator="JM" sser="4"><target>A chart shows it .</target>
    <newRef></newRef></eval>
  <eval translator="C" evaluator="JM" sser="9"><target>The figure show the method .</target>
    <newRef>The figure shows the method.</newRef></eval>
</sentence>
</evalTrans>"""

    corpus_import(source=io.BytesIO(xml), name="three")

    got = {
        j.target.translator.name: (j.new_ref, j.edits, j.ref_length, j.ter_edits, j.ter_length)
        for j in Judgment.objects.select_related("target__translator")
    }
    assert got == {
        "A": ("", None, None, None, None),
        "B": ("", 5, 0, 5, 0),
        "C": ("The figure shows the method.", 1, 6, 1, 6),
    }
