"""A campaign of two corpora in real Chromium: the lead creates the campaign, uploads two
corpora into it from its page, finds both there, and retries a scoring job that failed,
from the campaign page, having seen it on home too."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from annotation.jobs import Job
from annotation.models import Campaign, Corpus, User
from annotation.tests.browsing import log_in, upload_into_the_campaign
from annotation.tests.factories import DEMO_XML, SEED_XML


def test_a_lead_runs_a_two_corpus_campaign_and_retries_a_failed_job(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    user_factory("lee", role=User.Role.LEAD)
    base = live_server.url
    log_in(page, base, "lee")

    page.click("#campaigns-link")
    page.fill("#id_name", "WMT25")
    page.click("#campaign-create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/campaigns/c/\d+/$"))
    expect(page.locator("#campaign-name")).to_have_text("WMT25")
    expect(page.locator("#no-corpus")).to_be_visible()
    campaign = Campaign.objects.get(name="WMT25")

    upload_into_the_campaign(page, campaign, DEMO_XML, "ted zh-en")
    upload_into_the_campaign(page, campaign, SEED_XML, "seed es-en")

    rows = page.locator("#campaign-corpora tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator('tr[data-corpus="ted zh-en"] td[data-col="size"]')).to_contain_text(
        "40 × 5"
    )
    expect(page.locator('tr[data-corpus="seed es-en"] td[data-col="size"]')).to_contain_text(
        "2 × 1"
    )
    assert Campaign.objects.count() == 1  # neither upload made a campaign of its own

    # The seed corpus's scoring fails, as a worker records it: home shows it ...
    seed = Corpus.objects.get(name="seed es-en")
    job = Job.objects.get(kind="statistics", corpus=seed)
    Job.objects.filter(pk=job.pk).update(status="failed", error="MemoryError: out of memory")
    page.goto(f"{base}/")
    failed = page.locator(f'#corpora li[data-job="{job.pk}"]')
    expect(failed).to_have_attribute("data-status", "failed")
    expect(failed).to_contain_text("MemoryError: out of memory")

    # ... and the campaign page, one click away, where the lead retries it.
    page.click('a[data-action="open-campaign"][data-campaign="WMT25"]')
    page.wait_for_url(f"{base}/campaigns/c/{campaign.pk}/")
    jobs = page.locator('tr[data-corpus="seed es-en"] td[data-col="jobs"]')
    expect(jobs).to_contain_text("failed: MemoryError: out of memory")
    jobs.locator('button[data-action="retry-job"]').click()
    page.wait_for_url(f"{base}/campaigns/c/{campaign.pk}/")
    expect(jobs).to_have_text("–")
    job.refresh_from_db()
    assert job.status == "done"
