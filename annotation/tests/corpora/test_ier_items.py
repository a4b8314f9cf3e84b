"""IER's information items in evalTrans: the ``ierItems`` attribute of the judged
``<eval>`` (``start-end:label`` per item), read, written, exported and imported again
unchanged, and refused when malformed or when it does not tile the candidate."""

from __future__ import annotations

import io

import pytest

from annotation.corpora.evaltrans import CorpusHeader, EvalElement, SentenceElement
from annotation.corpora.evaltrans.schema import ERR_IER_FORMAT
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import corpus_import
from annotation.ier import ERR_IER_ITEMS
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.items import judgment_ier_mark, judgment_ier_split
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


def test_the_reader_takes_the_items_of_a_judgment() -> None:
    found = judged_eval(doc(ev('translator="sys" evaluator="ana" ierItems=" 0-1:ok  1-3:meaning"')))
    assert (found.ier, found.extra_attrs) == (((0, 1, "ok"), (1, 3, "meaning")), ())
    assert found.judged


@pytest.mark.parametrize(
    "value",
    ["0-1:fine", "1-2:ok", "0-1:ok 2-3:ok", "0-2:ok 1-3:ok", "0-0:ok", "0:ok", "a-b:ok"],
)
def test_malformed_items_are_refused_with_their_line(value: str) -> None:
    message = refusal(doc(ev(f'translator="sys" evaluator="ana" ierItems="{value}"')))
    assert message.endswith(f"line 6: {ERR_IER_FORMAT.format(value=value)}")


def test_the_writer_writes_them_and_reads_them_back() -> None:
    judged = EvalElement("sys", "a b , c", 0, evaluator="ana", ier=((0, 3, "ok"), (3, 4, "other")))
    sentence = SentenceElement(
        source="s", evals=(EvalElement("first reference", "r", 0), judged), line=0, position=0
    )
    text = written(CorpusHeader(None), [sentence])
    assert b'ierItems="0-3:ok 3-4:other"' in text
    assert judged_eval(text) == judged


def test_the_writer_refuses_a_mark_the_reader_would_refuse() -> None:
    judged = EvalElement("sys", "t", 0, evaluator="ana", ier=((0, 1, "bad"),))
    sentence = SentenceElement(
        source="s", evals=(EvalElement("first reference", "r", 0), judged), line=0, position=0
    )
    with pytest.raises(ValueError, match="ierItems"):
        written(CorpusHeader(None), [sentence])


# --- through the database: export, import, export -------------------------------------------


@pytest.mark.django_db
def test_items_survive_export_and_import_byte_for_byte(seed: Corpus, judge: User) -> None:
    seed.ier_enabled = True
    seed.save()
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    # "Diagram show the scan procedure for locate the archives ." (10 words)
    judgment_ier_split(judgment=judgment, user=judge, version=judgment.version, gap=5)
    judgment_ier_mark(
        judgment=judgment, user=judge, version=judgment.version, start=0, label="syntax"
    )
    judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=6)
    judgment_finish(judgment=judgment, user=judge, version=judgment.version)

    data = exported(seed)
    assert 'ierItems="0-5:syntax 5-10:ok"' in data.decode()
    again = corpus_import(source=io.BytesIO(data), name="again").corpus

    read_back = Judgment.objects.get(target__sentence__corpus=again, evaluator=judge)
    assert read_back.ier_items == [[0, 5, "syntax"], [5, 10, "ok"]]
    assert (read_back.ier_errors, read_back.ier_length) == (1, 2)
    assert read_back.extra_attrs == []
    assert exported(again).replace(b'"again"', b'"seed"', 1) == data


@pytest.mark.django_db
def test_a_judgment_without_items_is_exported_as_before(seed: Corpus, judge: User) -> None:
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=6)
    assert b"ierItems" not in exported(seed)


@pytest.mark.django_db
def test_items_that_do_not_reach_the_candidates_last_word_are_refused() -> None:
    text = doc(ev('translator="sys" evaluator="ana" ierItems="0-1:ok"', "<target>a b</target>"))
    with pytest.raises(ImportRefused) as refused:
        corpus_import(source=io.BytesIO(text), name="short")
    assert refused.value.reason == ERR_IER_ITEMS.format(n=2, why="the last item ends at 1")
    assert not Corpus.all_objects.filter(name="short").exists()
