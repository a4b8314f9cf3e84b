"""Home, upload and download pages: who may see what, and refusals shown in the page."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from annotation.corpora.imports import corpus_import
from annotation.models import Corpus
from annotation.tests.factories import DEMO_XML, SEED_XML

pytestmark = pytest.mark.django_db
UPLOAD = reverse("annotation:corpus_upload")
HTMX = {"HTTP_HX_REQUEST": "true"}


def upload(client: Client, content: bytes, name: str = "corpus.xml", **extra: object):
    return client.post(UPLOAD, {"file": SimpleUploadedFile(name, content), "name": ""}, **extra)


@pytest.mark.parametrize("url", ["/", UPLOAD, "/corpora/1/export.xml"])
def test_anonymous_users_are_sent_to_login(client: Client, url: str) -> None:
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_judge_sees_only_assigned_corpora(judge_client: Client, judge) -> None:
    mine = corpus_import(source=SEED_XML, name="mine").corpus
    corpus_import(source=DEMO_XML, name="other")
    mine.judges.add(judge)

    html = judge_client.get("/").content.decode()

    assert 'data-corpus="mine"' in html
    assert 'data-corpus="other"' not in html
    assert 'data-action="export"' not in html
    assert 'data-action="dashboard"' not in html


def test_a_lead_sees_every_corpus_with_an_export_link(lead_client: Client) -> None:
    corpus_import(source=SEED_XML, name="seed")

    html = lead_client.get("/").content.decode()

    assert 'data-action="export" data-corpus="seed"' in html
    assert 'data-action="dashboard" data-corpus="seed"' in html
    assert 'id="upload-link"' in html


@pytest.mark.parametrize("method", ["get", "post"])
def test_judges_cannot_upload(judge_client: Client, method: str) -> None:
    assert getattr(judge_client, method)(UPLOAD).status_code == 404


def test_judges_cannot_download(judge_client: Client, judge) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    corpus.judges.add(judge)

    assert judge_client.get(f"/corpora/{corpus.pk}/export.xml").status_code == 404


def test_a_lead_uploads_a_corpus_and_is_sent_home(lead_client: Client) -> None:
    response = upload(lead_client, SEED_XML.read_bytes(), name="seed.xml")

    assert response.status_code == 302
    assert Corpus.objects.get().name == "seed"


def test_an_htmx_upload_answers_with_the_summary_fragment(lead_client: Client) -> None:
    response = upload(lead_client, DEMO_XML.read_bytes(), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="upload-result"')
    assert "40 sentences, 2 references per sentence, 5 systems" in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_malformed_upload_is_refused_in_the_page_with_line_and_reason(
    lead_client: Client, htmx: bool
) -> None:
    bad = b"<evalTrans>\n<sentence>\n<source>x</source>\n<eval><target>y</target></eval>\n"

    response = upload(lead_client, bad, name="bad.xml", **(HTMX if htmx else {}))

    html = response.content.decode()
    assert response.status_code == (200 if htmx else 400)
    assert 'id="upload-error"' in html
    assert "bad.xml line 4: " in html
    assert Corpus.objects.count() == 0


def test_hostile_xml_is_refused(lead_client: Client) -> None:
    laughs = (
        b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>\n<evalTrans>&lol2;</evalTrans>\n'
    )

    response = upload(lead_client, laughs)

    assert response.status_code == 400
    assert "corpus.xml line" in response.content.decode()
    assert Corpus.objects.count() == 0


def test_an_upload_over_the_size_limit_is_refused(lead_client: Client, settings) -> None:
    settings.EVALTOOL_MAX_UPLOAD_BYTES = 100

    response = upload(lead_client, SEED_XML.read_bytes(), name="seed.xml")

    assert response.status_code == 400
    assert "is over the upload limit of 100 bytes" in response.content.decode()
    assert Corpus.objects.count() == 0


def test_a_lead_downloads_the_export(lead_client: Client) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus

    response = lead_client.get(f"/corpora/{corpus.pk}/export.xml")

    body = b"".join(response.streaming_content)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="seed.evaltrans.xml"'
    assert body.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    assert body.count(b"<sentence") == 2
