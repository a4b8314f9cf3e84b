"""A corpus's protocol (aWER, ESA, ESA with pre-filled spans, MQM) and its MQM taxonomy:
chosen at import (the upload form, ``import_evaltrans --protocol``), changed on the
corpus's page until its first judgment; aWER stays every other corpus's."""

from __future__ import annotations

import io
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from annotation.campaigns.forms import ERR_PROTOCOL_JUDGED
from annotation.campaigns.overview import CorpusRow
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import ERR_JUDGED_UNDER_AWER, corpus_import
from annotation.jobs import run_queued_jobs
from annotation.models import Corpus, Protocol
from annotation.tests.factories import DEMO_XML, JUDGED, SEED_XML, manage_py
from metrics.mqm import WMT_TAXONOMY, wmt_taxonomy_json

pytestmark = pytest.mark.django_db
UPLOAD = reverse("annotation:corpus_upload")
UNKNOWN = "unknown protocol 'esa-ai' (choose from awer, esa, esa_prefill, mqm)"


def test_a_corpus_is_awer_with_wmts_taxonomy_unless_told_otherwise() -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus

    assert corpus.protocol == Protocol.AWER == "awer"
    assert corpus.mqm_taxonomy == wmt_taxonomy_json()
    assert corpus.taxonomy == WMT_TAXONOMY
    assert CorpusRow(corpus).method == "aWER + SSER"


@pytest.mark.parametrize("protocol", ["esa", "esa_prefill", "mqm"])
def test_the_upload_form_imports_with_the_protocol_chosen(
    lead_client: Client, protocol: str
) -> None:
    page = lead_client.get(UPLOAD).content.decode()
    assert 'name="protocol"' in page
    assert '<option value="esa_prefill">ESA with pre-filled spans</option>' in page

    data = {"file": SimpleUploadedFile("seed.xml", SEED_XML.read_bytes()), "protocol": protocol}
    response = lead_client.post(UPLOAD, data)
    run_queued_jobs()

    assert response.status_code == 303
    corpus = Corpus.objects.get(name="seed")
    assert corpus.protocol == protocol
    assert CorpusRow(corpus).method == Protocol(protocol).label


def test_an_upload_without_a_protocol_is_awer_and_an_unknown_one_is_refused(
    lead_client: Client,
) -> None:
    lead_client.post(UPLOAD, {"file": SimpleUploadedFile("seed.xml", SEED_XML.read_bytes())})
    run_queued_jobs()
    refused = lead_client.post(
        UPLOAD,
        {"file": SimpleUploadedFile("demo.xml", DEMO_XML.read_bytes()), "protocol": "esa-ai"},
    )

    assert Corpus.objects.get(name="seed").protocol == "awer"
    assert refused.status_code == 400
    assert "Select a valid choice. esa-ai is not one of the available choices." in (
        refused.content.decode()
    )
    assert not Corpus.objects.filter(name="demo").exists()


def test_the_import_service_refuses_an_unknown_protocol_and_leaves_nothing() -> None:
    with pytest.raises(ImportRefused, match=re.escape(UNKNOWN)):
        corpus_import(source=SEED_XML, name="seed", protocol="esa-ai")

    assert not Corpus.all_objects.exists()


def test_a_file_with_awer_judgments_is_refused_for_another_protocol() -> None:
    message = ERR_JUDGED_UNDER_AWER.format(protocol="ESA")

    with pytest.raises(ImportRefused, match=re.escape(f"judged line 7: {message}")):
        corpus_import(source=io.BytesIO(JUDGED), filename="judged", protocol="esa")

    assert not Corpus.all_objects.exists()
    assert corpus_import(source=io.BytesIO(JUDGED), name="judged").judgments == 2  # as aWER


def test_import_evaltrans_takes_the_protocol() -> None:
    call_command(
        "import_evaltrans", str(SEED_XML), "--name", "seed", "--protocol", "mqm", stdout=StringIO()
    )
    call_command("import_evaltrans", str(DEMO_XML), "--name", "demo", stdout=StringIO())

    assert Corpus.objects.get(name="seed").protocol == "mqm"
    assert Corpus.objects.get(name="demo").protocol == "awer"


def test_import_evaltrans_refuses_an_unknown_protocol_by_name() -> None:
    with pytest.raises(CommandError, match=re.escape(f"--protocol: {UNKNOWN}")):
        call_command("import_evaltrans", str(SEED_XML), "--protocol", "esa-ai")

    assert not Corpus.all_objects.exists()


def test_import_evaltrans_with_an_unknown_protocol_exits_non_zero_in_one_line(
    tmp_path: Path,
) -> None:
    proc = manage_py(
        tmp_path / "cli.sqlite3", "import_evaltrans", str(SEED_XML), "--protocol", "esa-ai"
    )

    assert proc.returncode != 0
    assert proc.stderr.strip() == f"CommandError: --protocol: {UNKNOWN}"


def corpus_page(client: Client, corpus: Corpus) -> str:
    return client.get(reverse("campaigns:corpus", args=[corpus.pk])).content.decode()


def settings(client: Client, corpus: Corpus, data: dict[str, object]):
    return client.post(reverse("campaigns:settings", args=[corpus.pk]), data)


def test_the_corpus_page_shows_and_changes_the_protocol_and_the_taxonomy(
    lead_client: Client,
) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    page = corpus_page(lead_client, corpus)
    assert '<option value="awer" selected>aWER + SSER</option>' in page
    assert "Fluency/Punctuation" in page  # the taxonomy, shown to be edited
    own = '{"weights": {"minor": 2, "major": 10}, "categories": [{"name": "Names"}]}'

    response = settings(lead_client, corpus, {"protocol": "mqm", "mqm_taxonomy": own})

    corpus.refresh_from_db()
    assert response.status_code == 303
    assert corpus.protocol == "mqm"
    assert corpus.taxonomy.points("major", "Names") == 10
    assert '<option value="mqm" selected>MQM</option>' in corpus_page(lead_client, corpus)


def test_settings_posted_without_the_protocol_leave_it_and_the_taxonomy_alone(
    lead_client: Client,
) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed", protocol="esa").corpus

    response = settings(lead_client, corpus, {"blind": "on"})

    corpus.refresh_from_db()
    assert response.status_code == 303
    assert (corpus.protocol, corpus.mqm_taxonomy) == ("esa", wmt_taxonomy_json())


@pytest.mark.parametrize(
    "taxonomy, message",
    [
        ("{", "Enter a valid JSON."),
        (
            '{"weights": {"minor": 1, "major": -5}, "categories": [{"name": "Other"}]}',
            "weights.major: -5 must be a finite number of penalty points",
        ),
        ('{"weights": {"minor": 1, "major": 5}, "categories": []}', "categories: expected a"),
    ],
)
def test_a_wrong_taxonomy_is_refused_on_its_field(
    lead_client: Client, taxonomy: str, message: str
) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus

    response = settings(lead_client, corpus, {"protocol": "mqm", "mqm_taxonomy": taxonomy})

    html = response.content.decode()
    corpus.refresh_from_db()
    assert response.status_code == 400
    assert 'data-field="mqm_taxonomy"' in html
    assert message in html
    assert (corpus.protocol, corpus.mqm_taxonomy) == ("awer", wmt_taxonomy_json())


def test_the_protocol_stays_once_the_corpus_has_judgments(lead_client: Client) -> None:
    corpus = corpus_import(source=io.BytesIO(JUDGED), name="judged").corpus

    response = settings(lead_client, corpus, {"protocol": "esa"})
    same = settings(lead_client, corpus, {"protocol": "awer", "blind": "on"})

    corpus.refresh_from_db()
    assert response.status_code == 400
    assert ERR_PROTOCOL_JUDGED.format(protocol="aWER + SSER") in response.content.decode()
    assert same.status_code == 303  # the same protocol is no change
    assert corpus.protocol == "awer"
