"""The error spans in the layout of the public WMT MQM data (annotation/corpora/mqm.py):
``manage.py export_mqm`` and the dashboard's download, TSV and JSON, one row per error,
the span inside ``<v>…</v>``, a missing word an empty ``<v></v>``."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from annotation.corpora.mqm import COLUMNS
from annotation.judging.severity import judgment_toggle_severity
from annotation.judging.start import judgment_open
from annotation.models import Corpus, User
from annotation.tests.factories import FIGURE_1_RESULT, finish, import_xml, target_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def judged(seed: Corpus, judge: User) -> Corpus:
    """Figure 1 judged with "show" left wrong and major, "for" left wrong; sentence 2
    judged with "The" missing before it ("The chart represents the method .")."""
    first = judgment_open(user=judge, target=target_of(seed, "a translator", 0))
    finish(first, judge, FIGURE_1_RESULT, 7)
    judgment_toggle_severity(
        judgment=first, user=judge, version=first.version, op="substitution:1:1"
    )
    second = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    finish(second, judge, "The Chart represent the method .", 6)
    return seed


def tsv_of(corpus: Corpus) -> list[list[str]]:
    out = io.StringIO()
    call_command("export_mqm", corpus.name, stdout=out)
    return [line.split("\t") for line in out.getvalue().splitlines()]


def test_the_tsv_has_the_wmt_columns_and_one_row_per_error(judged: Corpus) -> None:
    header, *rows = tsv_of(judged)
    assert tuple(header) == COLUMNS
    assert header == ["system", "doc", "doc_id", "seg_id", "rater", "source", "target",
                      "category", "severity"]  # fmt: skip
    assert [r[:5] for r in rows] == [
        ["a translator", "#1", "1", "1", "judge"],
        ["a translator", "#1", "1", "1", "judge"],
        ["a translator", "#2", "1", "2", "judge"],
    ]
    assert [r[6:] for r in rows] == [
        [
            "Diagram <v>show</v> the scan procedure for locate the archives .",
            "Accuracy/Mistranslation",
            "Major",
        ],
        [
            "Diagram show the scan procedure <v>for</v> locate the archives .",
            "Accuracy/Mistranslation",
            "Minor",
        ],
        ["<v></v> Chart represent the method .", "Accuracy/Omission", "Minor"],
    ]


def test_doc_id_is_the_place_of_the_sentence_in_its_document(judge: User) -> None:
    """As in the WMT files (``talk.2  1  84``, ``talk.2  2  85``): every sentence counts,
    judged or not; a sentence without ``doc`` is a document of its own."""
    docs = ["t1", "t1", None, "t2", "t1"]
    body = "".join(
        f"<sentence{'' if d is None else f' doc={chr(34)}{d}{chr(34)}'}><source>s{k}</source>"
        '<eval translator="first reference"><target>r</target></eval>'
        f'<eval translator="sys"><target>c{k}</target></eval></sentence>\n'
        for k, d in enumerate(docs)
    )
    corpus = import_xml(f"<evalTrans>\n{body}</evalTrans>", "docs", judge)
    for k in (1, 2, 3, 4):  # the first sentence is not judged
        finish(judgment_open(user=judge, target=target_of(corpus, "sys", k)), judge, "r", 5)
    rows = tsv_of(corpus)[1:]
    assert [r[1:4] for r in rows] == [
        ["t1", "2", "2"],
        ["#3", "1", "3"],
        ["t2", "1", "4"],
        ["t1", "3", "5"],
    ]


def test_a_judgment_without_errors_is_one_no_error_row(seed: Corpus, judge: User) -> None:
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    finish(judgment, judge, judgment.target.text, 10)
    judgment_open(user=judge, target=target_of(seed, "a translator", 0))  # pending: no row
    (_, row) = tsv_of(seed)
    assert row[6:] == ["Chart represent the method .", "No-error", "No-error"]


def test_the_json_has_the_same_rows_with_the_spans(judged: Corpus, tmp_path) -> None:
    path = tmp_path / "mqm.json"
    call_command("export_mqm", judged.name, "--json", "-o", str(path), stderr=io.StringIO())
    rows = json.loads(path.read_text(encoding="utf-8"))
    assert [(r["start"], r["end"], r["op"]) for r in rows] == [
        (1, 2, "substitution"),
        (5, 6, "substitution"),
        (0, 0, "missing"),
    ]
    assert list(rows[0])[: len(COLUMNS)] == list(COLUMNS)
    assert rows[2]["doc_id"] == 1
    assert rows[2]["seg_id"] == 2


def test_the_dashboard_offers_both_to_a_lead_only(
    judged: Corpus, lead_client: Client, judge: User
) -> None:
    page = lead_client.get(reverse("dashboard:page", args=[judged.pk])).content.decode()
    tsv_url = reverse("dashboard:mqm_tsv", args=[judged.pk])
    assert f'href="{tsv_url}"' in page
    response = lead_client.get(tsv_url)
    assert response["Content-Disposition"] == 'attachment; filename="seed-mqm.tsv"'
    body = b"".join(response.streaming_content).decode()
    assert body.splitlines()[0] == "\t".join(COLUMNS)
    assert len(body.splitlines()) == 4
    data = lead_client.get(reverse("dashboard:mqm_json", args=[judged.pk])).json()
    assert len(data) == 3
    lead_client.force_login(judge)
    assert lead_client.get(tsv_url).status_code == 404


def test_an_unknown_corpus_is_refused_by_name() -> None:
    with pytest.raises(Exception, match="no corpus named 'nope'"):
        call_command("export_mqm", "nope")
