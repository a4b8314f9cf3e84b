"""The lead's way around from home (issue 37, point 5): corpora grouped by campaign, the
quality-control page and the campaigns one click away, a failed scoring or import job
shown with its Retry wherever the corpus appears (home, its campaign, its own campaign
page, its upload's page), and no invitation to judge a corpus the lead does not judge.
Home costs the same queries with more corpora, campaigns and jobs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from lxml import html as lxml_html

from annotation.campaigns.membership import campaign_create
from annotation.jobs import Job, run_queued_jobs
from annotation.jobs.pruning import prune_jobs
from annotation.models import Campaign, Corpus, User
from annotation.statistics import scoring_job
from annotation.tests.factories import (
    SEED_REFUSED_LATE,
    SEED_XML,
    page_queries,
    queue_upload,
    seed_corpus,
    sized_corpus,
)

pytestmark = pytest.mark.django_db


def failed_scoring(corpus: Corpus) -> Job:
    """The corpus's scoring, failed as a worker records it."""
    job = scoring_job(corpus)
    Job.objects.filter(pk=job.pk).update(status="failed", error="MemoryError: out of memory")
    job.refresh_from_db()
    return job


def failed_import(lead: User, settings: Any, campaign: Campaign | None = None) -> Job:
    """An upload a worker refused (its file kept for a retry)."""
    settings.TASKS = settings.QUEUED_TASKS
    job = queue_upload(lead, SEED_REFUSED_LATE, "broken", campaign)
    run_queued_jobs()
    job.refresh_from_db()
    assert job.status == "failed"
    return job


def tree(client: Client, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200
    return lxml_html.fromstring(response.content)


def test_a_leads_home_groups_the_corpora_by_campaign(lead_client: Client) -> None:
    wmt = campaign_create(name="WMT25")
    seed_corpus("zh-en", wmt)
    seed_corpus("de-en", wmt)
    seed_corpus("alone")
    campaign_create(name="empty")

    page = tree(lead_client, "/")

    groups = {
        g.get("data-campaign"): [r.get("data-corpus") for r in g.cssselect("tr[data-corpus]")]
        for g in page.cssselect("#corpora tbody.campaign-group")
    }
    assert groups == {"WMT25": ["de-en", "zh-en"], "alone": ["alone"], "empty": []}
    (head,) = page.cssselect('a[data-action="open-campaign"][data-campaign="WMT25"]')
    assert head.get("href") == f"/campaigns/c/{wmt.pk}/"
    (upload,) = page.cssselect('a[data-action="upload-into"][data-campaign="empty"]')
    assert upload.get("href").startswith("/corpora/upload/?campaign=")


def test_a_leads_home_links_the_quality_control_page_and_the_campaigns(
    lead_client: Client,
) -> None:
    page = tree(lead_client, "/")

    assert page.get_element_by_id("controls-link").get("href") == reverse("controls:index")
    assert page.get_element_by_id("campaigns-link").get("href") == reverse("campaigns:campaigns")
    assert lead_client.get(reverse("controls:index")).status_code == 200


def test_a_lead_is_offered_to_judge_only_a_corpus_they_judge(
    lead_client: Client, lead: User
) -> None:
    theirs, others = seed_corpus("theirs"), seed_corpus("others")
    theirs.judges.add(lead)

    page = tree(lead_client, "/")

    (start,) = page.cssselect('a[data-action="continue"]')
    assert (start.get("data-corpus"), start.text) == ("theirs", "Start")
    (instead,) = page.cssselect('a[data-action="open-campaign"][data-corpus="others"]')
    assert (instead.text, instead.get("href")) == (
        "Open campaign",
        f"/campaigns/c/{others.campaign_id}/",
    )
    assert not page.cssselect('[data-progress="others"]')


def test_a_failed_scoring_job_shows_on_home_with_a_retry_that_works(lead_client: Client) -> None:
    corpus = seed_corpus()
    job = failed_scoring(corpus)

    (shown,) = tree(lead_client, "/").cssselect(
        f'tr[data-corpus="seed"] td[data-col="jobs"] li[data-job="{job.pk}"]'
    )
    assert shown.get("data-status") == "failed"
    assert "MemoryError: out of memory" in shown.text_content()
    (form,) = shown.cssselect("form")
    response = lead_client.post(form.get("action"), HTTP_REFERER="http://testserver/")

    assert (response.status_code, response["Location"]) == (303, "/")
    job.refresh_from_db()
    assert job.status == "done"  # queued again, and computed (the tests' queue runs it)
    assert not tree(lead_client, "/").cssselect(f'li[data-job="{job.pk}"]')


def test_a_running_job_shows_on_home_without_a_retry(lead_client: Client, settings: Any) -> None:
    settings.TASKS = settings.QUEUED_TASKS
    job = scoring_job(seed_corpus())

    (shown,) = tree(lead_client, "/").cssselect(f'li[data-job="{job.pk}"]')

    assert shown.get("data-status") == "queued"
    assert not shown.cssselect("form")


def test_a_failed_job_shows_with_its_retry_on_the_corpus_campaign_page_and_the_campaign_page(
    lead_client: Client,
) -> None:
    corpus = seed_corpus()
    job = failed_scoring(corpus)

    for url in (f"/campaigns/{corpus.pk}/", f"/campaigns/c/{corpus.campaign_id}/"):
        (retry,) = tree(lead_client, url).cssselect(
            f'li[data-job="{job.pk}"][data-status="failed"] form button[data-action="retry-job"]'
        )
        assert retry.text == "Retry"
    (back,) = tree(lead_client, f"/campaigns/{corpus.pk}/").cssselect("#in-campaign a")
    assert back.get("href") == f"/campaigns/c/{corpus.campaign_id}/"


def test_the_upload_jobs_page_offers_a_retry_of_its_corpus_s_failed_scoring(
    lead_client: Client, lead: User
) -> None:
    upload = queue_upload(lead, SEED_XML.read_bytes(), "seed")
    scoring = failed_scoring(Corpus.objects.get(name="seed"))

    page = tree(lead_client, f"/corpora/imports/{upload.pk}/")
    (form,) = page.cssselect(f'.corpus-jobs li[data-job="{scoring.pk}"] form')
    response = lead_client.post(
        form.get("action"), HTTP_REFERER=f"http://testserver/corpora/imports/{upload.pk}/"
    )

    assert response["Location"] == f"/corpora/imports/{upload.pk}/"
    scoring.refresh_from_db()
    assert scoring.status == "done"


def test_a_failed_import_shows_on_home_and_on_its_campaigns_page_until_its_file_is_cleared(
    lead_client: Client, lead: User, settings: Any
) -> None:
    wmt = campaign_create(name="WMT25")
    job = failed_import(lead, settings, campaign=wmt)

    for url in ("/", f"/campaigns/c/{wmt.pk}/"):
        (shown,) = tree(lead_client, url).cssselect(
            f'#failed-imports li[data-failed-import="{job.pk}"]'
        )
        assert "broken.xml line 30" in shown.text_content()
        assert shown.cssselect('button[data-action="retry-job"]')
    prune_jobs(upload_days=-1)

    assert not tree(lead_client, "/").cssselect("#failed-imports")


def test_a_retried_import_leaves_home_once_a_later_upload_of_the_name_is_queued(
    lead_client: Client, lead: User, settings: Any
) -> None:
    job = failed_import(lead, settings)
    queue_upload(lead, SEED_XML.read_bytes(), "broken")

    assert not tree(lead_client, "/").cssselect(f'[data-failed-import="{job.pk}"]')


def test_home_costs_the_same_queries_with_more_corpora_campaigns_and_jobs(
    tmp_path: Path,
    lead_client: Client,
    lead: User,
    settings: Any,
    user_factory: Callable[..., User],
) -> None:
    first = sized_corpus(tmp_path, "first", 3)
    few = page_queries(lead_client, "/")
    wmt = campaign_create(name="WMT25")
    campaign_create(name="empty")
    for k in range(4):
        more = sized_corpus(tmp_path, f"more{k}", 10 + k, systems=4)
        Corpus.objects.filter(pk=more.pk).update(campaign=wmt if k % 2 else more.campaign)
        more.judges.add(user_factory(f"judge{k}"), *([lead] if k == 1 else []))
        failed_scoring(more)
    failed_scoring(first)
    failed_import(lead, settings)

    many = page_queries(lead_client, "/")

    assert many == few
    groups = tree(lead_client, "/").cssselect("#corpora tbody.campaign-group")
    assert len(groups) == 5  # first, more0, more2, WMT25 (more1, more3) and empty
