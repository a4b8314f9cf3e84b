"""A file of error spans imported for an ESA corpus with pre-filled spans (issue 41,
point 3b): by ``manage.py import_spans`` and by the upload on the corpus's imported
spans page, stored whole or refused whole with its line and reason (400, never 500)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from annotation.models import Corpus, ImportedSpans, User
from annotation.models.corpus import Protocol
from annotation.tests.factories import HTMX
from annotation.tests.judging.test_prefill import prefill_corpus

pytestmark = pytest.mark.django_db


def jsonl(*rows: object) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


#: sysA's "The dog sleeps on mat ." with "dog" major, both sentences.
GOOD = jsonl(
    {"system": "sysA", "segment": 1, "spans": [{"start": 4, "end": 7, "severity": "major"}]},
    {"system": "sysA", "segment": "s1", "spans": []},
)
BAD_LINE = jsonl(
    {"system": "sysA", "segment": 1, "spans": []},
    {"system": "sysA", "segment": 2, "spans": [{"start": 4, "end": 99, "severity": "major"}]},
)


@pytest.fixture
def corpus(judge: User, lead: User) -> Corpus:
    corpus = prefill_corpus(judge)
    corpus.leads.add(lead)
    return corpus


def stored(corpus: Corpus) -> list[tuple[int, list[dict[str, object]]]]:
    return list(
        ImportedSpans.objects.filter(target__sentence__corpus=corpus)
        .order_by("target__sentence__position")
        .values_list("target__sentence__position", "spans")
    )


def test_the_command_imports_a_file_and_says_what(corpus: Corpus, tmp_path: Path) -> None:
    path = tmp_path / "xcomet.jsonl"
    path.write_bytes(GOOD)
    out = io.StringIO()
    call_command("import_spans", corpus.name, str(path), stdout=out)
    assert "imported the spans of 1 system" in out.getvalue()
    assert "sysA (1 spans)" in out.getvalue()
    dog = {"start": 4, "end": 7, "severity": "major", "category": "", "missing": False}
    assert stored(corpus) == [(0, [dog]), (1, [])]


def test_the_command_refuses_a_bad_line_and_keeps_nothing(corpus: Corpus, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(BAD_LINE)
    with pytest.raises(CommandError) as refused:
        call_command("import_spans", corpus.name, str(path))
    assert str(refused.value) == (
        f"{path} line 2: span 1: characters 4…99: no stretch of the text's 0…23"
    )
    assert stored(corpus) == []


def test_a_corpus_that_does_not_pre_fill_refuses_spans(judge: User, tmp_path: Path) -> None:
    corpus = prefill_corpus(judge, protocol=Protocol.ESA)
    path = tmp_path / "spans.jsonl"
    path.write_bytes(GOOD)
    with pytest.raises(CommandError, match="imported spans are suggested only under"):
        call_command("import_spans", corpus.name, str(path))


def page(corpus: Corpus) -> str:
    return reverse("annotation:imported_spans", args=[corpus.pk])


def upload(client: Client, corpus: Corpus, data: bytes, **headers: str) -> object:
    form = {"spans-file": SimpleUploadedFile("xcomet.jsonl", data)}
    return client.post(page(corpus), form, **headers)  # type: ignore[arg-type]


def test_the_page_is_for_leads_only(
    client: Client, user_factory: Callable[..., User], corpus: Corpus
) -> None:
    assert client.get(page(corpus)).status_code == 302  # to the login page
    client.force_login(user_factory("another", role=User.Role.JUDGE))
    assert client.get(page(corpus)).status_code == 404
    assert upload(client, corpus, GOOD).status_code == 404  # type: ignore[attr-defined]
    assert stored(corpus) == []


@pytest.mark.parametrize("htmx", [False, True])
def test_an_upload_is_imported_and_listed(lead_client: Client, corpus: Corpus, htmx: bool) -> None:
    response = upload(lead_client, corpus, GOOD, **(HTMX if htmx else {}))
    if htmx:
        assert response.status_code == 200  # type: ignore[attr-defined]
        html = response.content.decode()  # type: ignore[attr-defined]
        assert html.startswith('<section id="imported-spans"')
    else:
        assert response.status_code == 303  # type: ignore[attr-defined]
        html = lead_client.get(response["Location"]).content.decode()  # type: ignore[index]
    assert 'id="spans-done"' in html
    assert '<tr data-system="sysA">' in html
    assert 'data-candidates="2"' in html
    assert len(stored(corpus)) == 2


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    "data, reason",
    [
        (BAD_LINE, "xcomet.jsonl line 2: span 1: characters 4…99: no stretch"),
        (b"{oops\n", "xcomet.jsonl line 1: not JSON"),
        (b"\xff", "xcomet.jsonl line 1: invalid UTF-8"),
        (jsonl({"system": "sysA", "segment": 1, "spans": []}), "has no line for segment 2"),
    ],
)
def test_a_refused_upload_answers_400_with_its_line_and_reason(
    lead_client: Client, corpus: Corpus, data: bytes, reason: str, htmx: bool
) -> None:
    response = upload(lead_client, corpus, data, **(HTMX if htmx else {}))
    assert response.status_code == 400  # type: ignore[attr-defined]
    html = response.content.decode()  # type: ignore[attr-defined]
    assert 'id="spans-refusal"' in html
    assert reason in html
    assert stored(corpus) == []


def test_an_upload_without_a_file_answers_400(lead_client: Client, corpus: Corpus) -> None:
    assert lead_client.post(page(corpus), {}).status_code == 400


def test_the_campaign_page_links_the_imported_spans_page(
    lead_client: Client, corpus: Corpus
) -> None:
    html = lead_client.get(reverse("campaigns:corpus", args=[corpus.pk])).content.decode()
    assert f'href="{page(corpus)}" data-action="imported-spans"' in html
