"""A campaign in real Chromium: a lead creates a judge, assigns a corpus, and the judge
logs in with the one-time password, chooses their own, and finds the corpus."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.models import Judgment, User
from annotation.tests.factories import PASSWORD, SEED_XML, done_judgment


def log_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("#login-form button[type=submit]")


def test_a_lead_creates_a_judge_assigns_a_corpus_and_the_judge_sees_it(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    corpus_import(source=SEED_XML, name="seed")
    user_factory("lee", role=User.Role.LEAD)
    base = live_server.url

    # The lead creates the account and reads the one-time password off the page.
    log_in(page, base, "lee", PASSWORD)
    page.wait_for_url(f"{base}/")
    page.click("#judges-link")
    page.fill("#id_username", "ana")
    page.click("#judge-create-form button[type=submit]")
    expect(page.locator("#login-username")).to_have_text("ana")
    one_time = page.locator("#login-password").inner_text()

    # ... assigns the corpus on its campaign page ...
    page.goto(f"{base}/")
    expect(page.locator('[data-judges-progress="seed"]')).to_have_text("no judge assigned")
    page.click('a[data-action="campaign"][data-corpus="seed"]')
    page.select_option("#id_judges", label="ana")
    page.click("#assign-form button[type=submit]")
    row = page.locator('#campaign-judges tr[data-judge="ana"]')
    expect(row.locator('[data-col="progress"]')).to_contain_text("0/2")
    expect(row).to_contain_text("(one-time password)")
    page.click(".site-header button[type=submit]")  # log out
    page.wait_for_url(f"{base}/accounts/login/")

    # ... and the judge logs in with it, must choose their own, then sees the corpus.
    log_in(page, base, "ana", one_time)
    page.wait_for_url(f"{base}/accounts/password_change/")
    expect(page.locator("#one-time-notice")).to_be_visible()
    page.fill("#id_old_password", one_time)
    page.fill("#id_new_password1", "ana's own passphrase")
    page.fill("#id_new_password2", "ana's own passphrase")
    page.click("#password-change-form button[type=submit]")
    page.click("#to-corpora")
    page.wait_for_url(f"{base}/")
    expect(page.locator('[data-progress="seed"]')).to_have_text("0/2")
    page.click('a[data-action="continue"][data-corpus="seed"]')
    expect(page.locator("#candidate")).to_be_visible()


def test_a_lead_leaves_a_judge_out_then_archives_and_deletes_the_corpus(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    user_factory("lee", role=User.Role.LEAD)
    bob = user_factory("bob")
    corpus.judges.add(bob)
    done_judgment(corpus, bob, "a translator", 0, sser=2, new_ref="x y", edits=2, length=2)
    base = live_server.url
    log_in(page, base, "lee", PASSWORD)
    page.wait_for_url(f"{base}/")

    # Bob is left out on the campaign page; the dashboard says so and counts no judgment.
    page.click('a[data-action="campaign"][data-corpus="seed"]')
    page.click('button[data-action="leave-out"][data-judge="bob"]')
    expect(page.locator('#left-out [data-left-out="bob"]')).to_be_visible()
    page.click('a[data-action="dashboard"]')
    expect(page.locator('#left-out [data-left-out="bob"]')).to_have_text("bob")
    expect(page.locator(".dash-meta")).to_contain_text("0 done judgments")

    # Archived, then deleted once its name is typed (a wrong name deletes nothing).
    page.goto(f"{base}/campaigns/{corpus.pk}/")
    page.click('a[data-action="remove"]')
    page.click('button[data-action="archive"]')
    expect(page.locator("#archived-note")).to_be_visible()
    page.fill("#id_name", "sed")
    page.click('button[data-action="delete"]')
    expect(page.locator("#remove-errors")).to_contain_text("type the corpus's name")
    page.fill("#id_name", "seed")
    page.click('button[data-action="delete"]')
    page.wait_for_url(f"{base}/")
    expect(page.locator('tr[data-corpus="seed"]')).to_have_count(0)
    assert not Judgment.objects.filter(evaluator=bob).exists()
