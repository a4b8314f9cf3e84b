"""Adaptive dealing in real Chromium: the lead turns it on on the campaign's rules page,
the judges judge (one through the page, the others' batches written as their saves would
write them), and the dashboard shows the weighted estimates with the pairs resolved and
open, the campaign page which pairs remain and the judgments left; the lead chooses the
pair they care about and stops the campaign, after which a judge is dealt nothing new;
axe finds no serious accessibility violation in either."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.urls import reverse
from playwright.sync_api import Page, expect

from annotation.campaigns.dealing import deal_next
from annotation.models import Campaign, DealingRound, Task, User
from annotation.tests.adaptive.helpers import adaptive_corpus, judge_task
from annotation.tests.browsing import log_in, score, until_shown, wait_for_htmx
from annotation.tests.stored import automatic_statistics
from annotation.tests.test_browser_accessibility import Audit


def test_a_lead_turns_adaptive_dealing_on_and_reads_the_weighted_estimates(
    page: Page, new_page: Callable[[], Page], live_server, user_factory: Callable[..., User]
) -> None:
    user_factory("lee", role=User.Role.LEAD)
    ana, bob = user_factory("ana"), user_factory("bob")
    campaign, corpus = adaptive_corpus(
        "adaptive zh-en", [3] * 16, systems=3, judges=[ana, bob], adaptive=False
    )
    automatic_statistics(corpus)
    base = live_server.url

    log_in(page, base, "lee")
    page.goto(base + reverse("campaigns:rules", args=[campaign.pk]))
    page.check("#id_adaptive")
    page.fill("#id_warm_up_percent", "25")
    page.select_option("#id_confidence", "95")
    page.click('#rules-form button[data-action="save-rules"]')
    page.wait_for_url(re.compile(r"/rules/$"))
    campaign.refresh_from_db()
    assert campaign.adaptive
    assert Task.objects.filter(corpus=corpus, round=0).count() == 4  # a quarter of 16

    # ana, in a browser of her own, asks for a batch and judges it through the page
    judge = new_page()
    log_in(judge, base, "ana")
    judge.click(f'button[data-action="next-batch"][data-corpus="{corpus.name}"]')
    judge.wait_for_url(re.compile(r"/judgments/\d+/$"))
    wait_for_htmx(judge)
    for done in range(9):  # 3 sentences × 3 systems
        expect(judge.locator("#progress")).to_have_text(f"{done}/9")
        score(judge, 6)
        judge.click("#accept-next")
        until_shown(judge, "#progress, #all-done", f"{done + 1}/9")
        expect(judge.locator("#progress, #all-done").first).to_contain_text(f"{done + 1}/9")
    expect(judge.locator("#all-done")).to_be_visible()
    assert Task.objects.get(assignee=ana).round == 0  # a warm-up batch
    # the other batches, as the judges' saves write them: past the warm-up, into rounds
    judges = [ana, bob]
    for k in range(7):
        task = deal_next(user=judges[k % 2], campaign=campaign)
        assert task is not None
        judge_task(task, judges[k % 2], spread=0.0)
    assert DealingRound.objects.filter(corpus=corpus).count() >= 2

    page.goto(f"{base}/dashboard/{corpus.pk}/")
    section = page.locator("#adaptive")
    expect(section).to_have_attribute("data-adaptive", "true")
    expect(page.locator("#adaptive-estimates tbody tr")).to_have_count(3)
    for s in (1, 2, 3):
        row = page.locator(f'#adaptive-estimates tr[data-translator="system {s}"]')
        expect(row).to_have_attribute("data-estimate", re.compile(r"^\d"))
    expect(page.locator("#adaptive-pairs tbody tr")).to_have_count(3)
    expect(page.locator("#adaptive-test")).to_contain_text("α = 0.05")
    expect(page.locator('#adaptive-pairs tr[data-resolved="false"]').first).to_be_visible()
    audit = Audit(page)  # axe on the new panel and section: no serious violation
    audit.check("weighted estimates panel", within="#adaptive")

    page.goto(base + reverse("campaigns:corpus", args=[corpus.pk]))
    stop = page.locator("#adaptive-stop")
    expect(stop).to_be_visible()
    expect(page.locator("#adaptive-open li").first).to_be_visible()
    opened = page.locator("#adaptive-open li").count()
    expect(stop).to_have_attribute("data-open", str(opened))
    expect(stop).to_contain_text("can stop")
    audit.check("campaign page, adaptive dealing", within="#adaptive-stop")

    choose_a_pair_and_stop(page, audit)
    assert audit.failures == [], "\n".join(audit.failures)
    assert Campaign.objects.get(pk=campaign.pk).adaptive
    judge.goto(base + "/")
    judge.click(f'button[data-action="next-batch"][data-corpus="{corpus.name}"]')
    expect(judge.locator("#no-batch")).to_be_visible()  # no batch dealt: stopped
    assert not Task.objects.filter(assignee=ana, finished_at__isnull=True).exists()


def choose_a_pair_and_stop(page: Page, audit: Audit) -> None:
    """The lead cares about one open pair: the campaign page lists it alone; then the
    lead stops the campaign."""
    stop = page.locator("#adaptive-stop")
    chosen = page.locator("#adaptive-open li").first.get_attribute("data-pair")
    page.check(f'#adaptive-pairs-form input[value="{chosen}"]')
    page.click('#adaptive-pairs-form button[data-action="save-pairs"]')
    expect(stop).to_have_attribute("data-chosen", "true")
    expect(page.locator("#adaptive-open li")).to_have_count(1)
    expect(page.locator("#adaptive-open li")).to_have_attribute("data-pair", chosen or "")
    expect(stop).to_have_attribute("data-of-interest", "1")
    page.click('#adaptive-stop-form button[data-action="stop-dealing"]')
    expect(page.locator("#adaptive-stopped")).to_be_visible()
    expect(stop).to_have_attribute("data-stopped", "true")
    audit.check("campaign page, pairs chosen and dealing stopped", within="#adaptive-stop")
