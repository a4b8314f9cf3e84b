"""Error spans in evalTrans: the ``<errors>`` element of a judged ``<eval>`` (an
extension), read, written, refused when malformed, exported for done judgments and read
back into severities, export → import → export byte-identical."""

from __future__ import annotations

import io

import pytest

from annotation.corpora.evaltrans import CorpusHeader, EvalElement, SentenceElement
from annotation.corpora.evaltrans.errors import (
    ERR_ERROR_ATTR,
    ERR_ERROR_OP,
    ERR_ERROR_SEVERITY,
    ERR_ERROR_SPAN,
)
from annotation.corpora.evaltrans.schema import ErrorElement
from annotation.corpora.imports import corpus_import
from annotation.corpora.spans import WARN_ERRORS_IGNORED
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.severity import judgment_toggle_severity
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import (
    FIGURE_1_RESULT,
    doc,
    ev,
    exported,
    finish,
    judged_eval,
    refusal,
    target_of,
    written,
)

ERRORS = (
    '<errors><error start="1" end="2" op="substitution" severity="major" ref="shows"/>'
    '<error start="0" end="0" op="missing" severity="minor" ref="This"/></errors>'
)


def test_the_reader_takes_the_error_spans_of_a_judgment() -> None:
    found = judged_eval(doc(ev('translator="sys" evaluator="ana"', f"<target>t</target>{ERRORS}")))
    assert found.errors == (
        ErrorElement(1, 2, "substitution", "major", "shows"),
        ErrorElement(0, 0, "missing", "minor", "This"),
    )
    assert found.extra_xml == ()


@pytest.mark.parametrize(
    "error, reason",
    [
        ('start="2" end="1" op="extra" severity="minor"', ERR_ERROR_SPAN.format(start=2, end=1)),
        ('start="x" end="1" op="extra" severity="minor"', ERR_ERROR_SPAN.format(start="x", end=1)),
        # issue 36: Arabic-Indic 0 and 1 (Python's int reads them), superscript 2 (isdigit)
        (
            'start="٠" end="١" op="extra" severity="minor"',
            ERR_ERROR_SPAN.format(start="٠", end="١"),
        ),
        ('start="0" end="²" op="extra" severity="minor"', ERR_ERROR_SPAN.format(start=0, end="²")),
        ('start="0" end="1" op="swap" severity="minor"', ERR_ERROR_OP.format(value="swap")),
        ('start="0" end="1" op="extra" severity="huge"', ERR_ERROR_SEVERITY.format(value="huge")),
        ('start="0" end="1" op="extra" severity="minor" x="1"', ERR_ERROR_ATTR.format(name="x")),
        ('start="0" end="1" op="missing" severity="minor"', "a missing word covers none"),
        ('start="0" end="2" op="extra" severity="minor"', "it covers one"),
    ],
)
def test_a_malformed_error_is_refused_with_its_line_and_reason(error: str, reason: str) -> None:
    body = f"<target>t</target><errors><error {error}/></errors>"
    message = refusal(doc(ev('translator="sys" evaluator="ana"', body)))
    assert "line 6:" in message
    assert reason in message


def test_the_writer_writes_them_and_reads_them_back() -> None:
    judged = EvalElement(
        "sys",
        "a b",
        0,
        evaluator="ana",
        new_ref="a c",
        errors=(ErrorElement(1, 2, "substitution", "major", 'c "&"'),),
    )
    sentence = SentenceElement(
        source="s", evals=(EvalElement("first reference", "r", 0), judged), line=0, position=0
    )
    text = written(CorpusHeader(None), [sentence])
    assert (
        b"    <newRef>a c</newRef>\n    <errors>\n"
        b'      <error start="1" end="2" op="substitution" severity="major" '
        b'ref="c &quot;&amp;&quot;"/>\n'
        b"    </errors>\n  </eval>" in text
    )
    assert judged_eval(text) == judged


# --- through the database: export, import, export -------------------------------------------


@pytest.mark.django_db
def test_a_done_judgment_exports_its_errors_and_they_survive_import(
    seed: Corpus, judge: User
) -> None:
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    finish(judgment, judge, FIGURE_1_RESULT, 7)  # "show" and "for" left wrong
    judgment_toggle_severity(
        judgment=judgment, user=judge, version=judgment.version, op="substitution:1:1"
    )

    data = exported(seed)
    assert (
        b"    <errors>\n"
        b'      <error start="1" end="2" op="substitution" severity="major" ref="shows"/>\n'
        b'      <error start="5" end="6" op="substitution" severity="minor" ref="to"/>\n'
        b"    </errors>\n" in data
    )
    again = corpus_import(source=io.BytesIO(data), name="again").corpus
    read_back = Judgment.objects.get(target__sentence__corpus=again, evaluator=judge)
    assert read_back.severities == {"substitution:1": "major"}
    assert read_back.extra_xml == []
    assert exported(again).replace(b'"again"', b'"seed"', 1) == data


@pytest.mark.django_db
def test_a_pending_judgment_and_a_perfect_one_have_no_errors_element(
    seed: Corpus, judge: User
) -> None:
    judgment_open(user=judge, target=target_of(seed, "a translator"))  # pending
    perfect = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    finish(perfect, judge, perfect.target.text, 10)
    assert b"<errors>" not in exported(seed)


@pytest.mark.django_db
def test_spans_that_are_no_operation_are_reported_and_recomputed(judge: User) -> None:
    body = (
        "<target>a b c</target><newRef>a x c</newRef>"
        '<errors><error start="0" end="1" op="substitution" severity="major" ref="x"/>'
        '<error start="1" end="2" op="substitution" severity="major" ref="x"/></errors>'
    )
    source = doc(ev('translator="sys" evaluator="judge" sser="5"', body))
    result = corpus_import(source=io.BytesIO(source), name="c")
    judgment = Judgment.objects.get(target__sentence__corpus=result.corpus)
    assert judgment.severities == {"substitution:1": "major"}
    assert any(
        WARN_ERRORS_IGNORED.format(count=1, translator="sys") in str(w) for w in result.warnings
    )


@pytest.mark.django_db
def test_finishing_keeps_the_severities(seed: Corpus, judge: User) -> None:
    figure_1 = judgment_open(user=judge, target=target_of(seed, "a translator"))
    judgment_toggle_severity(
        judgment=figure_1, user=judge, version=figure_1.version, op="substitution:0:1"
    )
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=3)
    judgment_finish(judgment=figure_1, user=judge, version=figure_1.version)
    assert Judgment.objects.get(pk=figure_1.pk).severities == {"substitution:0": "major"}
