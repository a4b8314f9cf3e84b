"""A running ESA campaign with pre-filled spans moves through evalTrans whole: the spans a
span file gave candidates (``ImportedSpans``), waiting for their next judges, go out as
``<importedSpans>`` on the candidate's own ``<eval>`` and come back as the same rows, so
the next judge of the copy is suggested what the original's would have been; malformed
ones are refused with their line and reason."""

from __future__ import annotations

import io
import re

import pytest

from annotation.corpora.evaltrans.imported_spans import ERR_IMPORTED_JUDGED, ERR_IMPORTED_SPAN
from annotation.corpora.evaltrans.protocol import ERR_IMPORTED_PROTOCOL
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import corpus_import
from annotation.corpora.marked_spans import ERR_IMPORTED_ON_REFERENCE, ERR_IMPORTED_UNDER_OTHER
from annotation.corpora.span_imports import imported_spans_import
from annotation.judging.start import judgment_open
from annotation.models import Corpus, ImportedSpans, Span, User
from annotation.tests.corpora.test_evaltrans_spans import (
    CANDIDATE,
    HEAD,
    PREFILL_FILE,
    SENTENCE,
)
from annotation.tests.factories import SEED_XML, exported, target_of

pytestmark = pytest.mark.django_db

IMPORTED = """    <importedSpans file="xcomet.jsonl">
      <span start="0" end="5" severity="minor"/>
      <span start="27" end="27" missing="true" severity="major"/>
    </importedSpans>
"""
#: Statistical's own <eval>, waiting with a span file's spans for its next judges.
WAITING = f"""  <eval translator="Statistical">
    <target>{CANDIDATE}</target>
{IMPORTED}  </eval>
"""


def prefill_file(name: str, evals: str) -> str:
    head = f'<evalTrans name="{name}" judgingProtocol="esa_prefill">\n'
    return HEAD + head + SENTENCE + evals + "</sentence>\n</evalTrans>\n"


#: A campaign under way: Statistical judged by JM (its suggestions kept on the judgment)
#: and waiting for its next judges; Neural, whose spans the file found none of, not yet
#: opened.
WAITING_FILE = prefill_file(
    "waiting",
    WAITING
    + PREFILL_FILE.split(SENTENCE)[1].split("</sentence>")[0]  # JM's judgment of it
    + """  <eval translator="Neural">
    <target>The figure shows the procedure.</target>
    <importedSpans file="xcomet.jsonl"/>
  </eval>
""",
)


def imported(content: str | bytes, name: str | None = None, **options: object) -> Corpus:
    data = content.encode() if isinstance(content, str) else content
    return corpus_import(source=io.BytesIO(data), name=name, filename="f.xml", **options).corpus


def waiting_rows(corpus: Corpus) -> list[tuple[object, ...]]:
    return sorted(
        ImportedSpans.objects.filter(target__sentence__corpus=corpus).values_list(
            "target__translator__name", "spans", "source"
        )
    )


def test_the_export_of_a_campaign_under_way_is_its_file_byte_for_byte() -> None:
    corpus = imported(WAITING_FILE)

    assert exported(corpus).decode() == WAITING_FILE
    assert waiting_rows(corpus) == [
        ("Neural", [], "xcomet.jsonl"),
        (
            "Statistical",
            [
                {"start": 0, "end": 5, "severity": "minor", "category": "", "missing": False},
                {"start": 27, "end": 27, "severity": "major", "category": "", "missing": True},
            ],
            "xcomet.jsonl",
        ),
    ]


def test_the_next_judge_of_the_copy_is_suggested_what_the_originals_would_be(
    judge: User,
) -> None:
    copy = imported(exported(imported(WAITING_FILE, "first")), "copy")
    copy.judges.add(judge)

    statistical = judgment_open(user=judge, target=target_of(copy, "Statistical"))
    neural = judgment_open(user=judge, target=target_of(copy, "Neural"))

    suggested = Span.objects.filter(judgment=statistical, origin=Span.Origin.SUGGESTED)
    assert sorted(suggested.values_list("start", "end", "missing", "severity", "source")) == [
        (0, 5, False, "minor", "imported"),
        (27, 27, True, "major", "imported"),
    ]
    assert not Span.objects.filter(judgment=neural).exists()  # the file found no error


def test_spans_imported_by_import_spans_travel_with_the_corpus() -> None:
    corpus = corpus_import(source=SEED_XML, name="seed", protocol="esa_prefill").corpus
    text = target_of(corpus, "a translator").text
    sentences = corpus.sentences.count()
    lines = [
        f'{{"system": "a translator", "segment": {k + 1}, "spans": []}}' for k in range(sentences)
    ]
    lines[0] = (
        f'{{"system": "a translator", "segment": 1, "spans": [{{"start": 0, "end": '
        f'{text.index(" ")}, "severity": "major"}}]}}'
    )
    imported_spans_import(corpus=corpus, data="\n".join(lines).encode(), filename="model.jsonl")
    original = exported(corpus)
    corpus.name = "the original"
    corpus.save()

    copy = imported(original)

    assert b'<importedSpans file="model.jsonl">' in original
    assert exported(copy) == original
    assert waiting_rows(copy) == waiting_rows(corpus)


@pytest.mark.parametrize(
    "old, new, line, reason",
    [
        (
            '<span start="0" end="5" severity="minor"/>',
            '<span start="0" end="40" severity="minor"/>',
            11,
            '<span start="0" end="40">: characters 0…40',
        ),
        (
            '<span start="0" end="5" severity="minor"/>',
            '<span start="0" end="5" severity="minor" origin="suggested" source="awer"/>',
            11,
            ERR_IMPORTED_SPAN,
        ),
        (
            'judgingProtocol="esa_prefill"',
            'judgingProtocol="esa"',
            10,
            ERR_IMPORTED_PROTOCOL,
        ),
        (
            '<eval translator="Statistical">',
            '<eval translator="Statistical" evaluator="AB">',
            10,
            ERR_IMPORTED_JUDGED,
        ),
        (
            "This figure shows the procedure.</target>\n",
            'This figure shows the procedure.</target>\n    <importedSpans file="x.jsonl"/>\n',
            7,
            ERR_IMPORTED_ON_REFERENCE.format(translator="first reference"),
        ),
    ],
    ids=["past the text", "a suggestion's attributes", "not esa_prefill", "judged", "reference"],
)
def test_malformed_imported_spans_are_refused_with_line_and_reason(
    old: str, new: str, line: int, reason: str
) -> None:
    assert old in WAITING_FILE
    broken = WAITING_FILE.replace(old, new, 1)

    with pytest.raises(ImportRefused) as refused:
        imported(broken)

    assert str(refused.value).startswith(f"f.xml line {line}: {reason}")
    assert not Corpus.all_objects.exists()
    assert not ImportedSpans.objects.exists()


def test_a_corpus_of_another_protocol_refuses_them() -> None:
    unjudged = prefill_file("unjudged", WAITING)
    reason = ERR_IMPORTED_UNDER_OTHER.format(protocol="ESA")

    assert exported(imported(unjudged)).decode() == unjudged
    with pytest.raises(ImportRefused, match=f"f.xml line 10: {re.escape(reason)}"):
        imported(unjudged, "other", protocol="esa")

    assert not Corpus.all_objects.filter(name="other").exists()
