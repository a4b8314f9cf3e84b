"""Annotators in without a password, in real Chromium: a lead makes two accounts from a
list (and downloads them as CSV), then a link for one of them; the annotator opens the
link in a browser of their own, lands on their queue, and once their work is done,
finds the completion code; the lead revokes the link, and it opens nothing more."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import log_in
from annotation.tests.factories import SEED_XML, done_judgment


def test_a_lead_makes_two_accounts_and_a_link_and_the_annotator_lands_on_their_queue(
    page: Page, other_page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    annotator_page = other_page  # a browser of the annotator's own
    annotator_page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    user_factory("lee", role=User.Role.LEAD)
    base = live_server.url

    # Two accounts from a list, the corpus assigned, their passwords as CSV.
    log_in(page, base, "lee")
    page.click("#judges-link")
    page.fill("#id_bulk_accounts", "cy,cy@example.org\ndee\n")
    page.locator("#bulk-form").get_by_label("seed").check()
    page.click("#bulk-form button[type=submit]")
    expect(page.locator("#bulk-accounts tbody tr")).to_have_count(2)
    with page.expect_download() as download:
        page.click("#bulk-csv")
    rows = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert rows[0] == "username,email,one_time_password,login_url"
    assert [r.split(",")[0] for r in rows[1:]] == ["cy", "dee"]
    assert list(corpus.judges.order_by("username").values_list("username", flat=True)) == [
        "cy",
        "dee",
    ]

    # A link for cy, on the campaign's links page.
    page.click('a[data-action="links"][data-campaign="seed"]')
    page.locator("#links-form").get_by_label("cy").check()
    page.click("#links-form button[type=submit]")
    link = page.locator('#made-links tr[data-judge="cy"] .secret-link').inner_text()
    links_page = page.url.removesuffix("new/")
    assert re.fullmatch(rf"{re.escape(base)}/a/[\w-]{{43}}/", link)

    # cy opens it in a browser of their own and lands on their queue, as cy.
    annotator_page.goto(link)
    annotator_page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    expect(annotator_page.locator("#candidate")).to_be_visible()
    expect(annotator_page.locator(".site-header .who")).to_have_text("cy")
    judgment = Judgment.objects.get(pk=int(annotator_page.url.rstrip("/").rsplit("/", 1)[1]))
    assert judgment.evaluator.username == "cy"

    # Their work done, the campaign's way on gives the completion code.
    Judgment.objects.filter(evaluator__username="cy").delete()
    cy = User.objects.get(username="cy")
    for position in (0, 1):
        done_judgment(corpus, cy, "a translator", position, sser=5)
    annotator_page.goto(f"{base}/corpora/{corpus.pk}/judge/")
    annotator_page.click('a[data-action="link-next"]')
    code = annotator_page.locator("#completion-code")
    expect(code).to_have_text(re.compile(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}"))
    annotator_page.click("#copy-code")
    expect(annotator_page.locator("#copy-status")).to_have_text("Copied.")
    assert annotator_page.evaluate("() => navigator.clipboard.readText()") == code.inner_text()
    page.goto(links_page)
    expect(page.locator('#links tr[data-judge="cy"] [data-col="code"]')).to_have_text(
        code.inner_text()
    )

    # The lead revokes it: cy's next click ends on the page that says so.
    page.click('#links tr[data-judge="cy"] button[data-action="revoke"]')
    expect(page.locator('#links tr[data-judge="cy"]')).to_have_attribute("data-state", "revoked")
    annotator_page.goto(f"{base}/")
    expect(annotator_page.locator("#link-ended")).to_be_visible()
    annotator_page.goto(link)
    expect(annotator_page.locator('#link-refused[data-refusal="revoked"]')).to_be_visible()
    assert Corpus.objects.get(pk=corpus.pk).judges.count() == 2
