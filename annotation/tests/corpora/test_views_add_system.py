"""The upload page's second form: a lead adds a system's plain text to a corpus that
exists, one candidate per line or one document re-segmented against the references."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.corpora.removal import corpus_delete
from annotation.corpora.systems import ERR_LINE_COUNT
from annotation.jobs import Job, run_queued_jobs
from annotation.models import Corpus, Target, Translator, User
from annotation.tests.browsing import log_in
from annotation.tests.documents import unsegmented_document
from annotation.tests.factories import DEMO_XML

pytestmark = pytest.mark.django_db
ADD = reverse("annotation:corpus_add_system")
UPLOAD = reverse("annotation:corpus_upload")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def jobs_wait_for_a_worker(settings: Any) -> None:
    """The added system's job waits for a worker (the jobs' own backend), as in
    production, where the test settings would compute it where it is queued."""
    settings.TASKS = settings.QUEUED_TASKS


@pytest.fixture
def demo() -> Corpus:
    return corpus_import(source=DEMO_XML, name="demo").corpus


def document_bytes(corpus: Corpus) -> bytes:
    return ("\n".join(unsegmented_document(corpus)) + "\n").encode()


def add_system(
    client: Client,
    corpus: Corpus | int,
    content: bytes,
    *,
    name: str = "speech",
    filename: str = "speech.txt",
    unsegmented: bool = False,
    **extra: object,
):
    data: dict[str, object] = {
        "system-corpus": corpus if isinstance(corpus, int) else corpus.pk,
        "system-name": name,
        "system-file": SimpleUploadedFile(filename, content),
    }
    if unsegmented:
        data["system-unsegmented"] = "on"
    return client.post(ADD, data, **extra)


def job_page(client: Client, **extra: object) -> str:
    """The last job's page once the queue is drained (a worker's work, done here)."""
    run_queued_jobs()
    return client.get(
        f"/corpora/imports/{Job.objects.filter(kind='add-system').first().pk}/", **extra
    ).content.decode()


def added(corpus: Corpus, system: str = "speech") -> int:
    return Target.objects.filter(sentence__corpus=corpus, translator__name=system).count()


def test_the_upload_page_offers_the_corpora_and_the_unsegmented_choice(
    lead_client: Client, demo: Corpus
) -> None:
    html = lead_client.get(UPLOAD).content.decode()

    assert "Add a system to a corpus (plain text)" in html
    assert f'action="{ADD}"' in html
    assert 'id="add-system-form"' in html
    assert f'<option value="{demo.pk}">demo</option>' in html
    assert 'name="system-unsegmented"' in html
    assert "it is re-segmented against the corpus&#x27;s references" in html
    assert 'id="id_file"' in html
    assert 'id="id_system-file"' in html


def test_a_lead_adds_an_unsegmented_system_and_is_sent_to_its_progress(
    lead_client: Client, demo: Corpus
) -> None:
    response = add_system(lead_client, demo, document_bytes(demo), unsegmented=True)

    job = Job.objects.get(kind="add-system")
    assert response.status_code == 303
    assert response["Location"] == f"/corpora/imports/{job.pk}/"
    assert (job.kind, job.corpus, added(demo)) == ("add-system", demo, 0)  # the worker adds it
    run_queued_jobs()
    assert added(demo) == 40
    assert Translator.objects.get(corpus=demo, name="speech").segmentation is not None


def test_an_htmx_add_answers_with_its_progress_then_the_summary(
    lead_client: Client, demo: Corpus
) -> None:
    response = add_system(lead_client, demo, document_bytes(demo), unsegmented=True, **HTMX)

    started = response.content.decode()
    assert response.status_code == 200
    assert started.lstrip().startswith('<div id="add-system-result"')
    assert 'id="add-system-progress"' in started
    assert 'data-status="queued"' in started
    assert "<form" not in started
    html = job_page(lead_client, **HTMX)
    assert html.lstrip().startswith('<div id="add-system-progress"')
    assert 'data-status="done"' in html
    assert "hx-trigger" not in html
    assert "Added system &#x27;speech&#x27; to corpus &#x27;demo&#x27;: 40 candidates" in html
    assert "Re-segmented from one document: AS-WER " in html
    assert f'href="/dashboard/{demo.pk}/" data-action="dashboard"' in html
    assert added(demo) == 40


def test_a_segmented_system_is_one_candidate_per_line(lead_client: Client, demo: Corpus) -> None:
    lines = "".join(f"candidate {k}\r\n" for k in range(40)).encode("utf-8-sig")

    add_system(lead_client, demo, lines, name="plain", **HTMX)

    html = job_page(lead_client)
    assert "40 candidates, 80 words." in html
    assert "Re-segmented" not in html
    first = Target.objects.get(
        sentence__corpus=demo, sentence__position=0, translator__name="plain"
    )
    assert first.text == "candidate 0"  # the BOM and the CR are not part of it


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_segmented_file_with_the_wrong_line_count_is_refused_with_the_reason(
    lead_client: Client, demo: Corpus, htmx: bool
) -> None:
    response = add_system(lead_client, demo, b"one line\n" * 39, **(HTMX if htmx else {}))

    assert response.status_code == (200 if htmx else 303)
    html = job_page(lead_client, **(HTMX if htmx else {}))
    reason = ERR_LINE_COUNT.format(lines=39, sentences=40)
    assert '<p class="error" id="add-system-error" role="alert"><strong>Not added:</strong>' in html
    assert f"speech.txt: {reason}" in html
    assert 'data-action="retry"' in html
    assert ("<h1>" in html) is not htmx  # htmx gets the panel, a browser the page
    assert Job.objects.get(kind="add-system").status == "failed"
    assert added(demo) == 0


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_invalid_utf8_is_refused_with_its_line(
    lead_client: Client, demo: Corpus, htmx: bool
) -> None:
    latin1 = "first line\ndeuxième ligne\n".encode("latin-1")

    response = add_system(
        lead_client, demo, latin1, filename="latin1.txt", unsegmented=True, **(HTMX if htmx else {})
    )

    html = response.content.decode()
    assert response.status_code == (200 if htmx else 400)
    assert "latin1.txt line 2: invalid UTF-8 (byte 0xe8 at offset 16)" in html
    assert added(demo, "speech") == 0


def test_a_taken_system_name_is_refused(lead_client: Client, demo: Corpus) -> None:
    add_system(lead_client, demo, document_bytes(demo), name="NiuTrans", unsegmented=True)

    assert "the corpus has a translator named &#x27;NiuTrans&#x27; already" in job_page(lead_client)
    assert Translator.objects.filter(corpus=demo, name="NiuTrans").count() == 1


@pytest.mark.parametrize(
    "name, corpus, size, field",
    [("", None, 10, "name"), ("speech", 999_999, 10, "corpus"), ("speech", None, 101, "file")],
    ids=["missing name", "unknown corpus", "file too big"],
)
def test_a_refused_form_value_is_a_400_naming_its_field(
    lead_client: Client,
    demo: Corpus,
    settings,
    name: str,
    corpus: int | None,
    size: int,
    field: str,
) -> None:
    settings.EVALTOOL_MAX_UPLOAD_BYTES = 100

    response = add_system(lead_client, corpus or demo, b"x" * size, name=name, unsegmented=True)

    html = response.content.decode()
    assert response.status_code == 400
    assert '<div class="error" role="alert" id="add-system-form-errors">' in html
    assert f'<li data-field="{field}"><a href="#id_system-{field}">' in html
    assert Translator.objects.filter(corpus=demo).count() == 7


def test_the_size_limit_points_to_the_command_line(
    lead_client: Client, demo: Corpus, settings
) -> None:
    settings.EVALTOOL_MAX_UPLOAD_BYTES = 100

    html = add_system(lead_client, demo, b"x" * 101, **HTMX).content.decode()

    assert "speech.txt: 101 bytes is over the upload limit of 100 bytes" in html
    assert "use manage.py import_text for larger files" in html


def test_the_same_system_is_not_added_twice_while_the_first_runs(
    lead_client: Client, demo: Corpus
) -> None:
    add_system(lead_client, demo, document_bytes(demo), unsegmented=True)
    first = Job.objects.get(kind="add-system")

    again = add_system(lead_client, demo, document_bytes(demo), unsegmented=True)
    page = lead_client.get(UPLOAD).content.decode()

    assert again.status_code == 409
    assert (
        "system &#x27;speech&#x27; is already being added to &#x27;demo&#x27;: "
        f"job {first.pk}, queued" in again.content.decode()
    )
    assert Job.objects.filter(kind="add-system").count() == 1
    assert '<button type="submit" disabled aria-describedby="add-system-submit-running">' in page
    run_queued_jobs()
    assert added(demo) == 40


def test_a_corpus_deleted_before_the_worker_came_is_the_jobs_reason(
    lead_client: Client, demo: Corpus
) -> None:
    add_system(lead_client, demo, document_bytes(demo), unsegmented=True)
    corpus_delete(corpus=demo)

    html = job_page(lead_client)

    assert "corpus &#x27;demo&#x27; was deleted before the system was added" in html
    assert not Translator.objects.filter(name="speech").exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_judges_cannot_add_a_system(judge_client: Client, judge: User, method: str) -> None:
    """404 as on every lead-only page: a judge does not learn the page exists."""
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    corpus.judges.add(judge)

    if method == "get":
        response = judge_client.get(ADD)
    else:
        response = add_system(judge_client, corpus, document_bytes(corpus), unsegmented=True)

    assert response.status_code == 404
    assert added(corpus) == 0


def test_anonymous_users_are_sent_to_login(client: Client) -> None:
    response = client.post(ADD)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_in_the_browser_a_lead_adds_an_unsegmented_system_and_reads_the_summary(
    page: Page, live_server, user_factory, demo: Corpus, tmp_path
) -> None:
    user_factory("lee", role=User.Role.LEAD)
    document = tmp_path / "speech.txt"
    document.write_bytes(document_bytes(demo))
    base = live_server.url
    log_in(page, base, "lee")

    page.click("#upload-link")
    page.select_option("#id_system-corpus", label="demo")
    page.fill("#id_system-name", "speech")
    page.set_input_files("#id_system-file", str(document))
    page.check("#id_system-unsegmented")
    page.click("#add-system-form button[type=submit]")

    expect(page.locator("#add-system-progress")).to_have_attribute("data-status", "queued")
    expect(page.locator("#add-system-submit button")).to_be_disabled()
    run_queued_jobs()  # a worker's work, in this thread: the live server shares its database
    summary = page.locator("#add-system-summary")
    expect(summary).to_contain_text("Added system 'speech' to corpus 'demo': 40 candidates")
    expect(summary).to_contain_text("Re-segmented from one document: AS-WER")
    assert page.url == f"{base}{UPLOAD}"  # htmx swapped the answer in; no navigation
    assert added(demo) == 40
