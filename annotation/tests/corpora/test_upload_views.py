"""An upload never waits for its import: the page answers at once with the job's progress,
a worker imports the file, and the summary (or the refusal, with a Retry button) stays at
the job's own page. A second upload of the same name or file is refused with words while
the first runs. (The form's own refusals: test_views.py; adding a system:
test_views_add_system.py; a real browser: test_browser_upload.py.)"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from annotation.corpora.evaltrans import ERR_CUT_SHORT
from annotation.corpora.import_jobs import ERR_IMPORT_RUNNING, PHASE_READING
from annotation.corpora.imports import corpus_import
from annotation.corpora.removal import corpus_delete
from annotation.jobs import Job, run_queued_jobs
from annotation.models import Corpus, User
from annotation.tests.factories import DEMO_XML, HTMX, SEED_XML

pytestmark = pytest.mark.django_db
UPLOAD = reverse("annotation:corpus_upload")
DEMO = DEMO_XML.read_bytes()
#: The demo's 40 sentences, then one without its source (line 963): refused once the
#: worker reads that far, after the page has answered.
NO_SOURCE = b"<sentence><eval translator='first reference'><target>x</target></eval></sentence>\n"
REFUSED_LATE = DEMO.replace(b"</evalTrans>", NO_SOURCE + b"</evalTrans>")


@pytest.fixture(autouse=True)
def jobs_wait_for_a_worker(settings: Any) -> None:
    """The upload's job waits for a worker (the jobs' own backend), as in production,
    where the test settings would compute it where it is queued."""
    settings.TASKS = settings.QUEUED_TASKS


def upload(client: Client, content: bytes = DEMO, name: str = "demo", **extra: object):
    data = {"file": SimpleUploadedFile("demo.xml", content), "name": name}
    return client.post(UPLOAD, data, **extra)


def job_url(job: Job) -> str:
    return f"/corpora/imports/{job.pk}/"


def test_an_upload_answers_at_once_with_a_queued_job_and_no_corpus_yet(
    lead_client: Client, lead: User
) -> None:
    response = upload(lead_client, **HTMX)

    html = response.content.decode()
    job = Job.objects.get(kind="import")
    assert response.status_code == 200
    assert (job.kind, job.status, job.requested_by, bytes(job.upload)) == (
        "import",
        "queued",
        lead,
        DEMO,
    )
    assert job.payload["name"] == "demo"
    assert job.total == 0
    assert f'<div id="import-progress" class="job-progress" data-job="{job.pk}"' in html
    assert 'data-status="queued"' in html
    assert f'hx-get="{job_url(job)}"' in html
    assert 'hx-trigger="every 1s"' in html
    assert '<p id="upload-submit" hx-swap-oob="true"><button type="submit" disabled' in html
    assert not Corpus.all_objects.exists()


def test_the_worker_imports_it_and_the_page_then_shows_the_summary_and_stops_polling(
    lead_client: Client,
) -> None:
    upload(lead_client)
    job = Job.objects.get(kind="import")

    assert run_queued_jobs() == 2  # the import, then the scoring it queued
    html = lead_client.get(job_url(job), **HTMX).content.decode()

    job.refresh_from_db()
    corpus = Corpus.objects.get(name="demo")
    assert (job.status, job.phase, job.done, job.total, job.corpus) == (
        "done",
        PHASE_READING,
        40,
        40,  # the file's <sentence> tags, counted before it is read
        corpus,
    )
    assert job.result["corpus"] == corpus.pk
    assert (job.result["sentences"], job.result["systems"], job.result["judgments"]) == (40, 5, 0)
    assert (job.result["references_min"], job.result["references_max"]) == (2, 2)
    assert html.lstrip().startswith('<div id="import-progress"')
    assert 'data-status="done"' in html
    assert 'data-percent="100"' in html
    assert "hx-trigger" not in html
    assert "Imported corpus &#x27;demo&#x27;: 40 sentences, 2 references per sentence" in html
    assert f'href="/campaigns/{corpus.pk}/" data-action="campaign"' in html
    assert job.upload is None  # the file is not kept once imported


def test_a_running_import_shows_its_phase_and_counts(lead_client: Client) -> None:
    upload(lead_client)
    job = Job.objects.get(kind="import")
    Job.objects.filter(pk=job.pk).update(
        status="running", phase=PHASE_READING, done=400, total=2000
    )

    html = lead_client.get(job_url(job)).content.decode()

    assert "Import of &#x27;demo&#x27;: reading sentences 400 of 2,000 (20 %)" in html
    assert 'data-status="running" data-done="400" data-total="2000" data-percent="20"' in html
    assert '<progress max="2000" value="400">' in html
    assert 'hx-trigger="every 1s"' in html
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in html


def test_the_corpus_scoring_left_behind_by_the_import_is_followed_too(lead_client: Client) -> None:
    upload(lead_client)
    run_queued_jobs(kinds=["import"])
    job = Job.objects.get(kind="import")
    scoring = Job.objects.get(kind="statistics", corpus=job.corpus)  # queued by the import
    Job.objects.filter(pk=scoring.pk).update(status="running", phase="scoring", done=3, total=15)

    html = lead_client.get(job_url(job), **HTMX).content.decode()

    assert 'id="upload-summary"' in html
    assert (
        f'<li data-job="{scoring.pk}" data-status="running" data-done="3" data-total="15"' in html
    )
    assert f"{scoring.label}: scoring 3 of 15 (20 %)" in html
    assert 'hx-trigger="every 1s"' in html  # until the scoring has ended too


def test_a_file_refused_past_its_first_sentence_ends_as_a_failed_job_with_line_and_reason(
    lead_client: Client,
) -> None:
    response = upload(lead_client, REFUSED_LATE)
    job = Job.objects.get(kind="import")
    assert response.status_code == 303
    assert response["Location"] == job_url(job)

    run_queued_jobs()
    html = lead_client.get(job_url(job)).content.decode()

    job.refresh_from_db()
    assert job.status == "failed"
    assert job.error == "demo.xml line 963: <sentence> without <source>"  # no class name
    assert "demo.xml line 963: &lt;sentence&gt; without &lt;source&gt;" in html
    assert '<p class="error" id="upload-error" role="alert"><strong>Not imported:</strong>' in html
    assert f'action="{job_url(job)}retry/"' in html
    assert 'data-action="retry"' in html
    assert "hx-trigger" not in html
    assert not Corpus.all_objects.exists()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_first_sentence_without_its_source_is_refused_on_the_page_with_line_and_reason(
    lead_client: Client, htmx: bool
) -> None:
    """Issue 36, point 8f: the page says it checks the file's first sentence, and does:
    a first ``<sentence>`` without ``<source>`` is refused before anything is queued."""
    content = b"<evalTrans name='x'>\n" + NO_SOURCE + b"</evalTrans>\n"

    response = upload(lead_client, content, **(HTMX if htmx else {}))

    assert response.status_code == (200 if htmx else 400)
    html = response.content.decode()
    assert "demo.xml line 2: &lt;sentence&gt; without &lt;source&gt;" in html
    assert 'id="upload-error"' in html
    assert not Job.objects.exists()
    assert not Corpus.all_objects.exists()


def cut_in_a_target(at: int) -> tuple[bytes, str]:
    """The demo cut inside the start tag of the ``<target>`` at byte ``at``, and the
    reason its reading gives: where the file ends, inside the ``<eval>``."""
    cut = DEMO[: at + len(b"<targ")]
    opened = DEMO[: DEMO.rindex(b"<eval", 0, at)].count(b"\n") + 1
    ends = cut.count(b"\n") + 1
    return cut, f"demo.xml line {ends}: {ERR_CUT_SHORT.format(tag='eval', line=opened)}"


def test_a_file_cut_short_is_told_as_such_on_the_page_or_by_its_job(lead_client: Client) -> None:
    """Issue 36, point 8g: cut in its first sentence, the page refuses it; cut later, its
    job fails with the same words (it was "<eval> without <target>")."""
    early, reason = cut_in_a_target(DEMO.index(b"<target>"))
    response = upload(lead_client, early, name="early")
    assert response.status_code == 400
    assert escape(reason) in response.content.decode()
    assert not Job.objects.exists()

    late, reason = cut_in_a_target(DEMO.rindex(b"<target>"))
    upload(lead_client, late, name="late")
    run_queued_jobs()

    assert Job.objects.get(kind="import").error == reason


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_second_upload_of_the_same_name_is_refused_with_words_while_the_first_runs(
    lead_client: Client, htmx: bool
) -> None:
    upload(lead_client)
    first = Job.objects.get(kind="import")
    Job.objects.filter(pk=first.pk).update(status="running", phase=PHASE_READING, done=400)

    response = upload(lead_client, SEED_XML.read_bytes(), **(HTMX if htmx else {}))

    html = response.content.decode()
    assert response.status_code == (200 if htmx else 409)
    assert "Not imported:</strong> an import of &#x27;demo&#x27; is already running: " in html
    assert f"job {first.pk}, reading sentences…" in html
    assert f'href="{job_url(first)}" data-action="running-job"' in html
    assert Job.objects.filter(kind="import").count() == 1
    assert ERR_IMPORT_RUNNING.startswith("an import of {name!r} is already running")


def test_the_same_file_under_another_name_is_refused_too(lead_client: Client) -> None:
    upload(lead_client, name="")
    first = Job.objects.get(kind="import")

    response = upload(lead_client, name="again")

    assert response.status_code == 409
    assert (
        "this file is already being imported as &#x27;TED talks zh-en, demo sample&#x27;: "
        f"job {first.pk}, queued" in response.content.decode()
    )
    assert Job.objects.filter(kind="import").count() == 1


def test_the_form_is_disabled_while_the_leads_own_import_runs(
    lead_client: Client, client: Client, user_factory: Callable[..., User]
) -> None:
    upload(lead_client)
    job = Job.objects.get(kind="import")
    colleague = Client()
    colleague.force_login(user_factory("other-lead", role=User.Role.LEAD))

    mine = lead_client.get(UPLOAD).content.decode()
    theirs = colleague.get(UPLOAD).content.decode()
    run_queued_jobs()
    after = lead_client.get(UPLOAD).content.decode()

    assert '<button type="submit" disabled aria-describedby="upload-submit-running">' in mine
    assert f'<a href="{job_url(job)}" data-action="running-job">import of &#x27;demo&#x27;' in mine
    assert '<p id="upload-submit"><button type="submit">Import</button></p>' in theirs
    assert '<p id="upload-submit"><button type="submit">Import</button></p>' in after


def test_a_taken_name_shows_on_the_form_and_the_earlier_summary_stays_at_its_page(
    lead_client: Client,
) -> None:
    upload(lead_client)
    run_queued_jobs()
    job = Job.objects.get(kind="import")
    summary = lead_client.get(job_url(job), **HTMX).content.decode()

    again = upload(lead_client, SEED_XML.read_bytes())

    assert again.status_code == 400
    assert "a corpus named &#x27;demo&#x27; exists already (choose another name)" in (
        again.content.decode()
    )
    assert Job.objects.filter(kind="import").count() == 1  # nothing queued
    assert lead_client.get(job_url(job), **HTMX).content.decode() == summary


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_failed_import_is_retried_with_its_kept_file(lead_client: Client, htmx: bool) -> None:
    upload(lead_client)
    corpus_import(source=SEED_XML, name="demo")  # e.g. from the command line, meanwhile
    run_queued_jobs()
    job = Job.objects.get(kind="import")
    assert "a corpus named &#x27;demo&#x27; exists already" in (
        lead_client.get(job_url(job)).content.decode()
    )
    corpus_delete(corpus=Corpus.objects.get(name="demo"))
    run_queued_jobs()  # the deletion's job

    response = lead_client.post(f"{job_url(job)}retry/", **(HTMX if htmx else {}))

    if htmx:
        assert 'data-status="queued"' in response.content.decode()
    else:
        assert (response.status_code, response["Location"]) == (303, job_url(job))
    run_queued_jobs()
    job.refresh_from_db()
    assert (job.status, job.result["sentences"]) == ("done", 40)
    assert Corpus.objects.get(name="demo").n_sentences == 40


@pytest.mark.parametrize("method", ["get", "post"])
def test_judges_see_no_upload_job(judge_client: Client, method: str) -> None:
    job = Job.objects.create(kind="import", key="import:x", label="import of 'x'")
    url = job_url(job) if method == "get" else f"{job_url(job)}retry/"

    assert getattr(judge_client, method)(url).status_code == 404


def test_anonymous_users_are_sent_to_login(client: Client) -> None:
    job = Job.objects.create(kind="import", key="import:x", label="import of 'x'")

    response = client.get(job_url(job))

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_any_lead_follows_any_upload_but_no_other_kind_of_job(
    lead_client: Client, user_factory: Callable[..., User]
) -> None:
    """Leads share every corpus; a lead told "already running" follows the link."""
    colleague = Client()
    colleague.force_login(user_factory("other-lead", role=User.Role.LEAD))
    upload(lead_client)
    other_kind = Job.objects.create(kind="scoring", key="scoring:x", label="scoring")

    assert colleague.get(job_url(Job.objects.get(kind="import"))).status_code == 200
    assert colleague.get(job_url(other_kind)).status_code == 404
