"""An upload in real Chromium: the lead sees the import's progress at once, with the
form's button disabled, and the summary fills in by itself once a worker has imported
the file.

The worker is :func:`run_queued_jobs` in the test's thread, not a ``manage.py worker``
process: the tests' SQLite database lives in memory, and the live server reaches it by
sharing this thread's connection, which no other process can do."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from annotation.jobs import Job, run_queued_jobs
from annotation.models import Corpus, User
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.factories import DEMO_XML


def test_a_lead_uploads_sees_the_progress_at_once_and_then_the_summary_without_a_click(
    page: Page, live_server, user_factory: Callable[..., User], settings: Any
) -> None:
    settings.TASKS = settings.QUEUED_TASKS  # the import waits for a worker, as in production
    user_factory("lee", role=User.Role.LEAD)
    base = live_server.url
    log_in(page, base, "lee")
    page.click("#upload-link")
    wait_for_htmx(page)

    page.set_input_files("#id_file", str(DEMO_XML))
    page.fill("#id_name", "demo")
    page.click("#upload-submit button")

    progress = page.locator("#import-progress")
    expect(progress).to_have_attribute("data-status", "queued")
    expect(progress).to_contain_text("Import of 'demo': queued")
    expect(page.locator("#upload-submit button")).to_be_disabled()
    running = page.locator("#upload-submit-running a")
    expect(running).to_have_text(re.compile(r"^import of 'demo' \(job \d+\)$"))
    assert not Corpus.all_objects.exists()

    assert run_queued_jobs() == 2  # a worker imports the file, then scores it; the page polls
    expect(progress).to_have_attribute("data-status", "done")
    summary = page.locator("#upload-summary")
    expect(summary).to_contain_text("Imported corpus 'demo': 40 sentences, 2 references")
    expect(summary.locator('a[data-action="campaign"]')).to_have_attribute(
        "href", f"/campaigns/{Corpus.objects.get(name='demo').pk}/"
    )
    assert page.url == f"{base}/corpora/upload/"  # answered in the page, no navigation

    # The summary stays at the job's own page; the form is free again.
    page.click('#import-progress a[data-action="job-page"]')
    page.wait_for_url(re.compile(r"/corpora/imports/\d+/$"))
    expect(page.locator("#upload-summary")).to_contain_text("Imported corpus 'demo'")
    page.goto(f"{base}/corpora/upload/")
    expect(page.locator("#upload-submit button")).to_be_enabled()
    assert Job.objects.get(kind="import").status == "done"
