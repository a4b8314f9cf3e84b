"""Malformed ESA and MQM content in an evalTrans file (issue 41, point 5) is refused with
its line and the reason, all or nothing: by the import service, by ``import_evaltrans``
(a ``CommandError``), and by the upload page (400 at once for the first sentence, a
failed job with the same words past it), never with a server error. The writer refuses
the same content, so a file it writes always reads back."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from annotation.corpora.evaltrans import CorpusHeader, EvalElement, SentenceElement
from annotation.corpora.evaltrans.error_spans import (
    ERR_JUDGES_SOURCE,
    ERR_SPAN_NO_SOURCE,
    ERR_SPAN_SOURCE,
    SpanElement,
)
from annotation.corpora.evaltrans.protocol import ERR_NEEDS_PROTOCOL, ERR_SCORE_NOT_ESA
from annotation.corpora.evaltrans.writer import write_evaltrans
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import corpus_import
from annotation.corpora.marked_spans import ERR_SPANS_UNDER_OTHER
from annotation.jobs import Job, run_queued_jobs
from annotation.models import Corpus, Span
from annotation.tests.corpora.test_evaltrans_spans import (
    ESA_FILE,
    MQM_FILE,
    PREFILL_FILE,
)
from annotation.tests.factories import HTMX

pytestmark = pytest.mark.django_db
UPLOAD = reverse("annotation:corpus_upload")
SPAN = '<span start="6" end="15" severity="major" seconds="3.25"/>'  # ESA_FILE's line 11
MARKER = '<span start="27" end="27" missing="true" severity="minor" seconds="1.5"/>'  # line 12

#: (file, text replaced, its replacement, line, reason)
CASES = [
    (
        ESA_FILE,
        SPAN,
        SPAN.replace("major", "critical"),
        11,
        '<span start="6" end="15">: severity \'critical\' (choose from minor, major)',
    ),
    (
        ESA_FILE,
        MARKER,
        '<span start="20" end="40" severity="minor"/>',
        12,
        '<span start="20" end="40">: characters 20…40: no stretch of the text\'s 0…27',
    ),
    (
        ESA_FILE,
        MARKER,
        '<span start="10" end="19" severity="minor"/>',
        12,
        '<span start="10" end="19">: overlaps the <span> on line 11',
    ),
    (
        ESA_FILE,
        'esaScore="62"',
        'esaScore="101"',
        8,
        'esaScore="101" is not a whole number from 0 to 100',
    ),
    (
        ESA_FILE,
        'esaScore="62"',
        'esaScore="-3"',
        8,
        'esaScore="-3" is not a whole number from 0 to 100',
    ),
    (
        ESA_FILE,
        SPAN,
        SPAN.replace("/>", ' category="Other"/>'),
        11,
        '<span start="6" end="15">: category \'Other\': ESA spans have none',
    ),
    (
        MQM_FILE,
        'category="Accuracy" seconds',
        'category="Style" seconds',
        20,
        '<span start="6" end="15">: category \'Style\' is not in the corpus\'s taxonomy',
    ),
    (
        MQM_FILE,
        'evaluator="JM"',
        'evaluator="JM" esaScore="80"',
        17,
        ERR_SCORE_NOT_ESA.format(protocol="MQM"),
    ),
    (
        MQM_FILE,
        'points="10"',
        'points="-10"',
        3,
        "<mqmTaxonomy>: weights.major: -10 must be a finite number of penalty points ≥ 0 "
        "(Freitag et al.'s table: 5 for a major error, not −5)",
    ),
    (
        MQM_FILE,
        'points="10"',
        'points="ten"',
        5,
        '<weight points="ten"> is not a number of penalty points',
    ),
    (
        ESA_FILE,
        ' judgingProtocol="esa"',
        "",
        8,
        ERR_NEEDS_PROTOCOL.format(what='esaScore="62"'),
    ),
    (
        ESA_FILE,
        'judgingProtocol="esa"',
        'judgingProtocol="esa-ai"',
        2,
        'judgingProtocol="esa-ai" is not one of awer, esa, esa_prefill, mqm',
    ),
    (
        PREFILL_FILE,
        'suggestion="2"',
        'suggestion="4"',
        15,
        '<span suggestion="4"> names no suggested span of its <eval> (it has 3, numbered from 1)',
    ),
    (
        ESA_FILE,
        'seconds="3.25"',
        'secs="3.25"',
        11,
        "<span> has an unknown attribute 'secs' (start, end, missing, severity, category, "
        "origin, source, suggestion, seconds)",
    ),
    (
        ESA_FILE,
        'missing="true"',
        'missing="yes"',
        12,
        '<span missing="yes">: only missing="true" is allowed',
    ),
    (
        PREFILL_FILE,
        'end="15" severity="major" origin="suggested" source="imported"',
        'end="15" severity="major" origin="suggested"',
        12,
        ERR_SPAN_NO_SOURCE,
    ),
    (
        PREFILL_FILE,
        'end="15" severity="major" origin="suggested" source="imported"',
        'end="15" severity="major" origin="suggested" source="model"',
        12,
        ERR_SPAN_SOURCE.format(value="model"),
    ),
    (
        PREFILL_FILE,
        'suggestion="2"',
        'suggestion="2" source="awer"',
        15,
        ERR_JUDGES_SOURCE.format(value="awer"),
    ),
]
IDS = [
    "unknown severity",
    "past the text's end",
    "overlapping",
    "score above 100",
    "negative score",
    "a category in ESA",
    "unknown category",
    "an ESA score in MQM",
    "negative points",
    "points no number",
    "no protocol declared",
    "unknown protocol",
    "no such suggestion",
    "unknown attribute",
    "missing not true",
    "a suggestion without source",
    "an unknown source",
    "a judge's span with a source",
]


def broken(text: str, old: str, new: str) -> bytes:
    assert old in text
    return text.replace(old, new, 1).encode()


@pytest.mark.parametrize("text, old, new, line, reason", CASES, ids=IDS)
def test_the_import_refuses_with_line_and_reason_and_leaves_nothing(
    text: str, old: str, new: str, line: int, reason: str
) -> None:
    with pytest.raises(ImportRefused) as refused:
        corpus_import(source=io.BytesIO(broken(text, old, new)), filename="f.xml")

    assert str(refused.value) == f"f.xml line {line}: {reason}"
    assert not Corpus.all_objects.exists()
    assert not Span.objects.exists()


@pytest.mark.parametrize("text, old, new, line, reason", CASES[:5], ids=IDS[:5])
def test_import_evaltrans_says_line_and_reason_in_a_command_error(
    tmp_path: Path, text: str, old: str, new: str, line: int, reason: str
) -> None:
    path = tmp_path / "esa.xml"
    path.write_bytes(broken(text, old, new))

    with pytest.raises(CommandError, match=re.escape(f"{path} line {line}: {reason}")):
        call_command("import_evaltrans", str(path), stdout=io.StringIO())

    assert not Corpus.all_objects.exists()


@pytest.mark.parametrize("protocol", ["awer", "mqm", "esa_prefill"])
def test_esa_judgments_are_refused_for_a_corpus_of_another_protocol(protocol: str) -> None:
    label = {"awer": "aWER + SSER", "mqm": "MQM", "esa_prefill": "ESA with pre-filled spans"}
    message = ERR_SPANS_UNDER_OTHER.format(given="esa", protocol=label[protocol])

    with pytest.raises(ImportRefused, match=re.escape(f"f.xml line 8: {message}")):
        corpus_import(source=io.BytesIO(ESA_FILE.encode()), filename="f.xml", protocol=protocol)

    assert not Corpus.all_objects.exists()


def upload(client: Client, content: bytes, **extra: Any):
    return client.post(UPLOAD, {"file": SimpleUploadedFile("esa.xml", content)}, **extra)


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_upload_page_refuses_a_first_sentence_s_bad_span_at_once(
    lead_client: Client, htmx: bool
) -> None:
    content = broken(ESA_FILE, MARKER, '<span start="10" end="19" severity="minor"/>')

    response = upload(lead_client, content, **(HTMX if htmx else {}))

    assert response.status_code == (200 if htmx else 400)
    assert (
        "esa.xml line 12: &lt;span start=&quot;10&quot; end=&quot;19&quot;&gt;: overlaps the "
        "&lt;span&gt; on line 11" in response.content.decode()
    )
    assert not Job.objects.exists()
    assert not Corpus.all_objects.exists()


def test_the_upload_page_ends_a_later_bad_span_as_a_failed_job_with_line_and_reason(
    lead_client: Client, settings: Any
) -> None:
    settings.TASKS = settings.QUEUED_TASKS  # the job waits for a worker, as in production
    first, rest = ESA_FILE.split("</sentence>\n", 1)
    second = first.split("<sentence", 1)[1].replace(SPAN, SPAN.replace("major", "fatal"))
    content = (first + "</sentence>\n<sentence" + second + "</sentence>\n" + rest).encode()
    line = content.decode().split("\n").index("      " + SPAN.replace("major", "fatal")) + 1

    response = upload(lead_client, content)
    run_queued_jobs()

    job = Job.objects.get(kind="import")
    assert response.status_code == 303
    assert job.status == "failed"
    assert job.error == (
        f'esa.xml line {line}: <span start="6" end="15">: severity \'fatal\' '
        "(choose from minor, major)"
    )
    assert not Corpus.all_objects.exists()


def test_an_upload_of_an_esa_export_takes_the_protocol_the_file_says(lead_client: Client) -> None:
    response = upload(lead_client, PREFILL_FILE.encode())
    run_queued_jobs()

    assert response.status_code == 303
    corpus = Corpus.objects.get(name="prefill")
    assert corpus.protocol == "esa_prefill"
    assert Span.objects.filter(judgment__target__sentence__corpus=corpus).count() == 6


@pytest.mark.parametrize(
    "spans, reason",
    [
        ((SpanElement(6, 15, "major"), SpanElement(10, 19, "minor")), "overlaps"),
        ((SpanElement(0, 40, "major"),), "no stretch of the text's 0…27"),
        ((SpanElement(0, 5, "minor", suggestion=1),), "names no suggested span"),
        ((SpanElement(0, 5, "minor", suggested=True),), "has no source"),
        ((SpanElement(0, 5, "minor", source="awer"),), "a judge's own span has no source"),
    ],
    ids=[
        "overlapping",
        "past the end",
        "no such suggestion",
        "a suggestion without source",
        "a judge's span with a source",
    ],
)
def test_the_writer_refuses_spans_that_would_not_read_back(
    spans: tuple[SpanElement, ...], reason: str
) -> None:
    evals = (
        EvalElement(translator="first reference", target="r", line=0),
        EvalElement(
            translator="sys",
            target="Chart represent the method.",
            line=0,
            evaluator="JM",
            spans=spans,
        ),
    )
    sentence = SentenceElement(source="s", evals=evals, line=0, position=0)

    with pytest.raises(ValueError, match=re.escape(reason)):
        write_evaltrans(io.BytesIO(), CorpusHeader(name="x", protocol="esa"), [sentence])


def test_the_taxonomy_comes_once_and_before_the_first_sentence() -> None:
    taxonomy = MQM_FILE[MQM_FILE.index("<mqmTaxonomy>") : MQM_FILE.index("<sentence")]
    twice = MQM_FILE.replace(taxonomy, taxonomy * 2, 1)
    late = ESA_FILE.replace("</sentence>\n", "</sentence>\n" + taxonomy)
    after = ESA_FILE.index("</sentence>\n") + len("</sentence>\n")
    line = ESA_FILE[:after].count("\n") + 1

    with pytest.raises(ImportRefused, match=re.escape("f.xml line 12: <evalTrans> has more than")):
        corpus_import(source=io.BytesIO(twice.encode()), filename="f.xml")
    with pytest.raises(ImportRefused, match=f"line {line}: <mqmTaxonomy> must come before"):
        corpus_import(source=io.BytesIO(late.encode()), filename="f.xml")
    assert not Corpus.all_objects.exists()
