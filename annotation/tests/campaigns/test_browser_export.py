"""The campaign CSV in real Chromium: a lead opens a campaign, reads each judge's pace in
the one unit, and downloads the campaign as CSV from the page."""

from __future__ import annotations

import csv
from collections.abc import Callable

from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.models import User
from annotation.tests.campaigns.test_browser import log_in
from annotation.tests.factories import PASSWORD, SEED_XML, done_judgment


def test_a_lead_downloads_the_campaign_csv_from_the_campaign_page(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    ana = user_factory("ana")
    corpus.judges.add(ana)
    system = corpus.translators.filter(role="system").order_by("position").first().name
    done_judgment(corpus, ana, system, 0, sser=8, seconds=42.0)
    user_factory("lee", role=User.Role.LEAD)
    base = live_server.url

    log_in(page, base, "lee", PASSWORD)
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/campaigns/{corpus.pk}/")
    expect(page.locator("#campaign-judges thead")).to_contain_text("Pace (s per candidate)")
    expect(page.locator('#campaign-judges tr[data-judge="ana"] [data-col="pace"]')).to_have_text(
        "42.0"
    )
    with page.expect_download() as download:
        page.click('a[data-action="campaign-csv"]')

    assert download.value.suggested_filename == "seed-campaign.csv"
    with open(download.value.path(), encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    judged = [r for r in rows if r["kind"] == "judgment"]
    assert [(r["judge"], r["system"], r["sentence"], r["active_seconds"]) for r in judged] == [
        ("ana", system, "1", "42.0")
    ]
    assert judged[0]["first_utc"].endswith("Z")
    ana_rows = [r for r in rows if r["kind"] == "judge-system" and r["judge"] == "ana"]
    assert ana_rows[0]["done"] == "1"
    assert ana_rows[0]["assigned"] == str(corpus.n_sentences)
