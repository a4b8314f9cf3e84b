"""A judge's note and flag in evalTrans: ``judgeFlag`` and ``judgeNote`` attributes of the
judged ``<eval>``, read, written, exported and imported again unchanged."""

from __future__ import annotations

import io

import pytest

from annotation.corpora.evaltrans import (
    ERR_FLAG,
    NOTE_MAX_LENGTH,
    CorpusHeader,
    EvalElement,
    SentenceElement,
)
from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_set_note, judgment_set_sser
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import (
    doc,
    ev,
    exported,
    judged_eval,
    refusal,
    target_of,
    written,
)


def test_the_reader_takes_the_note_and_the_flag_of_a_judgment() -> None:
    found = judged_eval(
        doc(ev('translator="sys" evaluator="ana" judgeFlag="unsure" judgeNote="  a  b\tc "'))
    )
    assert (found.flag, found.note, found.extra_attrs) == ("unsure", "a b c", ())
    assert found.judged


def test_a_note_alone_is_a_judgment_too() -> None:
    """Else the note would be read and dropped: a judgment without evaluator is the
    anonymous evaluator's, like one with only a score."""
    assert judged_eval(doc(ev('translator="sys" judgeNote="why"'))).judged


def test_an_unknown_flag_is_refused_with_its_line() -> None:
    message = refusal(doc(ev('translator="sys" evaluator="ana" judgeFlag="maybe"')))
    assert message.endswith(f"line 6: {ERR_FLAG.format(value='maybe')}")


def test_a_note_too_long_for_the_database_is_refused() -> None:
    note = "x" * (NOTE_MAX_LENGTH + 1)
    assert "judgeNote" in refusal(doc(ev(f'translator="sys" evaluator="ana" judgeNote="{note}"')))


def test_plain_flag_and_note_attributes_stay_the_corpus_own() -> None:
    found = judged_eval(doc(ev('translator="sys" flag="1" note="n"')))
    assert (found.flag, found.note) == (None, None)
    assert found.extra_attrs == (("flag", "1"), ("note", "n"))


def test_the_writer_writes_them_and_reads_them_back() -> None:
    judged = EvalElement(
        "sys", "t", 0, evaluator="ana", sser=5, note='a "quoted" <note> & more', flag="garbled"
    )
    sentence = SentenceElement(
        source="s", evals=(EvalElement("first reference", "r", 0), judged), line=0, position=0
    )
    text = written(CorpusHeader(None), [sentence])
    assert b'judgeFlag="garbled"' in text
    assert b'judgeNote="a &quot;quoted&quot; &lt;note&gt; &amp; more"' in text
    assert judged_eval(text) == judged


def test_the_writer_refuses_a_flag_the_reader_would_refuse() -> None:
    judged = EvalElement("sys", "t", 0, evaluator="ana", flag="maybe")
    sentence = SentenceElement(
        source="s", evals=(EvalElement("first reference", "r", 0), judged), line=0, position=0
    )
    with pytest.raises(ValueError, match="judgeFlag='maybe'"):
        written(CorpusHeader(None), [sentence])


# --- through the database: export, import, export -------------------------------------------


@pytest.mark.django_db
def test_a_note_and_a_flag_survive_export_and_import(seed: Corpus, judge: User) -> None:
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=6)
    judgment_set_note(
        judgment=judgment,
        user=judge,
        version=judgment.version,
        note="is “archives” right here?",
        flag="unsure",
    )

    data = exported(seed)
    assert 'judgeFlag="unsure" judgeNote="is “archives” right here?"' in data.decode()
    again = corpus_import(source=io.BytesIO(data), name="again").corpus

    read_back = Judgment.objects.get(target__sentence__corpus=again, evaluator=judge)
    assert (read_back.note, read_back.flag, read_back.sser) == (
        "is “archives” right here?",
        "unsure",
        6,
    )
    assert read_back.extra_attrs == []
    assert exported(again).replace(b'"again"', b'"seed"', 1) == data


@pytest.mark.django_db
def test_a_judgment_without_note_or_flag_is_exported_as_before(seed: Corpus, judge: User) -> None:
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=6)
    data = exported(seed)
    assert b"judgeFlag" not in data
    assert b"judgeNote" not in data
