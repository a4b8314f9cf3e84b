"""Home, upload and download pages: who may see what, and refusals shown in the page."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from annotation.corpora.exports import corpus_export
from annotation.corpora.imports import ERR_CORPUS_EXISTS, RENAME_IN_FORM, corpus_import
from annotation.jobs import Job, run_queued_jobs
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.start import next_judgment_for
from annotation.models import Corpus, User
from annotation.tests.factories import DEMO_XML, SEED_XML, add_judgments, page_queries, sized_corpus

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


def test_a_lead_uploads_a_corpus_and_is_sent_to_its_progress(lead_client: Client, settings) -> None:
    settings.TASKS = settings.QUEUED_TASKS  # the import waits for a worker
    response = upload(lead_client, SEED_XML.read_bytes(), name="seed.xml")

    job = Job.objects.get(kind="import")
    assert response.status_code == 303
    assert response["Location"] == f"/corpora/imports/{job.pk}/"
    assert not Corpus.all_objects.exists()  # the worker imports it
    run_queued_jobs()
    assert Corpus.objects.get().name == "seed"


def test_an_htmx_upload_answers_with_the_progress_then_the_summary(
    lead_client: Client, settings
) -> None:
    settings.TASKS = settings.QUEUED_TASKS  # the import waits for a worker
    response = upload(lead_client, DEMO_XML.read_bytes(), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="upload-result"')
    assert 'id="import-progress"' in html
    assert 'data-status="queued"' in html
    run_queued_jobs()
    page = lead_client.get(
        f"/corpora/imports/{Job.objects.get(kind='import').pk}/"
    ).content.decode()
    assert "40 sentences, 2 references per sentence, 5 systems" in page


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


def test_the_download_is_streamed_and_is_the_command_lines_file(lead_client: Client) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    written = io.BytesIO()
    corpus_export(corpus=corpus, out=written)

    response = lead_client.get(f"/corpora/{corpus.pk}/export.xml")

    assert response.streaming
    assert response["Content-Type"] == "application/xml; charset=utf-8"
    assert b"".join(response.streaming_content) == written.getvalue()


def test_the_home_pages_queries_do_not_grow_with_the_corpora(
    tmp_path: Path, user_factory: Callable[..., User], client: Client
) -> None:
    """Five sentences or fifty, one corpus or three: a lead's and a judge's home page
    cost the same number of queries (the sizes are stored, progress is one subquery)."""
    lead = user_factory("boss", role=User.Role.LEAD)
    judge = user_factory("ana")
    small = sized_corpus(tmp_path, "small", 5)
    small.judges.add(judge)
    counts = {}
    for who in (lead, judge):
        client.force_login(who)
        counts[(who.username, "small")] = page_queries(client, "/")
    big = sized_corpus(tmp_path, "big", 50, systems=6)
    more = sized_corpus(tmp_path, "more", 20)
    big.judges.add(judge)
    more.judges.add(judge)
    for who in (lead, judge):
        client.force_login(who)
        counts[(who.username, "big")] = page_queries(client, "/")

    assert counts[("boss", "small")] == counts[("boss", "big")]
    assert counts[("ana", "small")] == counts[("ana", "big")]


def test_the_home_page_shows_stored_sizes_and_the_judges_progress(
    tmp_path: Path, judge_client: Client, judge: User
) -> None:
    corpus = sized_corpus(tmp_path, "campaign", 7, systems=4)
    corpus.judges.add(judge)
    for _ in range(3):
        j = next_judgment_for(user=judge, corpus=corpus)
        j = judgment_set_sser(judgment=j, user=judge, version=j.version, sser=7)
        judgment_finish(judgment=j, user=judge, version=j.version)

    html = judge_client.get("/").content.decode()

    assert (corpus.n_sentences, corpus.n_systems, corpus.n_candidates) == (7, 4, 28)
    assert '<span data-progress="campaign">3/28</span>' in html
    assert "<td>7</td>" in html
    assert "<td>4</td>" in html


def test_an_upload_name_xml_cannot_hold_is_refused(lead_client: Client) -> None:
    response = lead_client.post(
        UPLOAD, {"file": SimpleUploadedFile("s.xml", SEED_XML.read_bytes()), "name": "bad\x07"}
    )

    assert response.status_code == 400
    assert "character U+0007 cannot be written in XML" in response.content.decode()
    assert Corpus.objects.count() == 0


def test_the_upload_forms_help_text_shows_the_element_it_names(lead_client: Client) -> None:
    html = lead_client.get(UPLOAD).content.decode()

    assert "<code>&lt;evalTrans&gt;</code>" in html
    assert "<evalTrans>" not in html
    assert "the file's , else" not in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_taken_name_is_refused_in_the_browsers_words(lead_client: Client, htmx: bool) -> None:
    corpus_import(source=SEED_XML, name="seed")

    response = lead_client.post(
        UPLOAD,
        {"file": SimpleUploadedFile("s.xml", SEED_XML.read_bytes()), "name": "seed"},
        **(HTMX if htmx else {}),
    )

    html = response.content.decode()
    reason = ERR_CORPUS_EXISTS.format(name="seed", rename=RENAME_IN_FORM)
    assert reason.replace("'", "&#x27;") in html
    assert "choose another name)" in html
    assert "--name" not in html
    assert Corpus.objects.count() == 1


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_an_import_refusal_is_an_alert_styled_as_an_error(lead_client: Client, htmx: bool) -> None:
    bad = b"<evalTrans>\n<sentence>\n<source>x</source>\n<eval><target>y</target></eval>\n"

    html = upload(lead_client, bad, name="bad.xml", **(HTMX if htmx else {})).content.decode()

    assert '<p class="error" id="upload-error" role="alert"><strong>Not imported:</strong>' in html
    assert 'id="upload-result" aria-live="polite"' in html


def test_a_refused_form_value_names_its_field_in_an_alert(lead_client: Client, settings) -> None:
    settings.EVALTOOL_MAX_UPLOAD_BYTES = 100

    html = upload(lead_client, SEED_XML.read_bytes(), name="seed.xml").content.decode()

    assert '<div class="error" role="alert" id="upload-form-errors">' in html
    assert '<li data-field="file"><a href="#id_file">evalTrans XML file</a>: ' in html
    assert 'aria-invalid="true"' in html


def test_an_upload_makes_the_lead_a_lead_of_the_corpus_and_links_its_campaign(
    lead_client: Client, lead: User
) -> None:
    upload(lead_client, SEED_XML.read_bytes(), name="seed.xml", **HTMX)
    run_queued_jobs()

    corpus = Corpus.objects.get()
    page = lead_client.get(
        f"/corpora/imports/{Job.objects.get(kind='import').pk}/"
    ).content.decode()
    assert list(corpus.leads.all()) == [lead]
    assert f'href="/campaigns/{corpus.pk}/" data-action="campaign"' in page


def test_a_leads_home_shows_the_judges_progress_and_links_each_campaign(
    tmp_path: Path, lead_client: Client, user_factory: Callable[..., User]
) -> None:
    corpus = sized_corpus(tmp_path, "campaign", 3, systems=2)
    idle = sized_corpus(tmp_path, "idle", 2)
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus.judges.add(ana, bob)
    add_judgments(corpus, [ana, bob], 5)

    html = lead_client.get("/").content.decode()

    assert (
        '<span data-judges-progress="campaign" data-done="5" data-assigned="12">5/12</span>' in html
    )
    assert '<span data-judges-progress="idle" data-done="0" data-assigned="0">' in html
    assert "no judge assigned" in html
    assert f'href="/campaigns/{corpus.pk}/" data-action="campaign" data-corpus="campaign"' in html
    assert f'href="/campaigns/{idle.pk}/" data-action="campaign" data-corpus="idle"' in html
    # the lead judges neither: offered their campaign, not 6 candidates to judge
    assert 'data-progress="campaign"' not in html
    assert f'href="/campaigns/c/{corpus.campaign_id}/" data-action="open-campaign"' in html
    assert 'id="judges-link"' in html


def test_a_judge_with_nothing_assigned_is_told_to_ask_the_corpus_leads(
    judge_client: Client, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    named = user_factory("maria", role=User.Role.LEAD, first_name="María", email="m@x.org")
    user_factory("other-lead", role=User.Role.LEAD)
    corpus.leads.add(named)

    html = judge_client.get("/").content.decode()

    assert 'id="nothing-assigned"' in html
    assert '<li data-lead="maria"><bdi>María</bdi> (<bdi>maria</bdi>)' in html
    assert 'href="mailto:m@x.org"' in html
    assert 'data-lead="other-lead"' not in html


def test_without_a_corpus_lead_a_judge_is_told_every_active_lead(
    judge_client: Client, user_factory: Callable[..., User]
) -> None:
    user_factory("boss", role=User.Role.LEAD)
    user_factory("root", is_superuser=True)
    user_factory("gone", role=User.Role.LEAD, is_active=False)

    html = judge_client.get("/").content.decode()

    assert 'data-lead="boss"' in html
    assert 'data-lead="root"' in html
    assert 'data-lead="gone"' not in html
    assert "Ask one of the leads" in html


def test_a_judge_with_a_corpus_is_not_told_whom_to_ask(judge_client: Client, seed) -> None:
    html = judge_client.get("/").content.decode()

    assert 'id="ask-leads"' not in html
    assert 'data-corpus="seed"' in html
