"""What the real-browser tests do again and again: log in, open a judge's next candidate,
upload a corpus into a campaign.
(The browser itself and its Content-Security-Policy watch are fixtures of conftest.py.)"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from annotation.jobs import run_queued_jobs
from annotation.models import Campaign
from annotation.tests.factories import PASSWORD
from annotation.text import words


def log_in(page: Page, base: str, username: str = "ana", password: str = PASSWORD) -> None:
    """Log ``username`` in through the login form and wait for the home page."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{base}/")


def open_corpus(page: Page, base: str, name: str = "seed", username: str = "ana") -> None:
    """Log ``username`` in and open their next candidate of corpus ``name`` (htmx loaded)."""
    log_in(page, base, username)
    page.click(f'a[data-action="continue"][data-corpus="{name}"]')
    page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    wait_for_htmx(page)


def upload_into_the_campaign(page: Page, campaign: Campaign, file: Path, name: str) -> None:
    """From the campaign's page: its upload link, the file, and back by the summary's
    link. Where the jobs wait for a worker (``settings.TASKS = settings.QUEUED_TASKS``),
    a worker runs them here (the import, then its scoring) while the page follows them;
    where they are computed as they are queued, there is none to run."""
    page.click('#campaign-tasks a[data-action="upload-into"]')
    wait_for_htmx(page)
    expect(page.locator("#id_campaign")).to_have_value(str(campaign.pk))
    page.set_input_files("#id_file", str(file))
    page.fill("#id_name", name)
    page.click("#upload-submit button")
    expect(page.locator("#import-progress, #upload-summary").first).to_be_visible()
    run_queued_jobs()
    summary = page.locator("#upload-summary")
    expect(summary).to_contain_text(f"Imported corpus '{name}'")
    summary.locator('a[data-action="open-campaign"]').click()
    page.wait_for_url(re.compile(rf"/campaigns/c/{campaign.pk}/$"))


def wait_for_htmx(page: Page) -> None:
    """Wait until the page has run htmx.

    The predicate is a function, never an expression: Playwright evaluates an expression
    again at every poll, and past the first poll (run by DevTools, which may eval) the
    page's Content-Security-Policy (``script-src 'self'``) refuses the eval, so a page
    whose htmx came a frame late failed the test. A function is evaluated once, then
    called."""
    page.wait_for_function("() => window.htmx !== undefined")


#: Whether an element of ``selector`` shows ``text`` (``None``: any) with its attribute
#: ``name`` at ``value`` (``None``: any). A function, for :func:`wait_for_function`'s
#: sake (see :func:`wait_for_htmx`).
SHOWS = """([selector, text, name, value]) => Array.from(document.querySelectorAll(selector)).some(
  e => (text === null || e.textContent.includes(text)) &&
       (name === null || e.getAttribute(name) === value))"""


def until_shown(
    page: Page,
    selector: str,
    text: str | None = None,
    attribute: tuple[str, str] | None = None,
) -> None:
    """Wait until an element of ``selector`` shows ``text`` and has ``attribute`` (a name
    and its value), looked for by the page at each frame it draws: the moment it does,
    where ``expect`` looks again only after waiting 20, 50, 100, 100, then 500 ms (an
    answer that came in 180 ms waited until 770 ms). A wait, not an assertion: the
    ``expect`` after it still says what is meant, and says what the page showed if it
    differs."""
    name, value = attribute if attribute else (None, None)
    page.wait_for_function(SHOWS, arg=[selector, text, name, value])


def shown_words(text: str) -> str:
    """A new reference as the word editor (``#new-ref``) shows it: one element per 13a
    word, so its text is the words spaced, whatever the stored text's spacing."""
    return " ".join(words(text))


def score(page: Page, sser: int) -> None:
    """Give the candidate SSER ``sser`` with its key and wait until the page shows it."""
    page.keyboard.press("=" if sser == 10 else str(sser))
    until_shown(page, f'[data-sser="{sser}"]', attribute=("aria-pressed", "true"))
    expect(page.locator(f'[data-sser="{sser}"]')).to_have_attribute("aria-pressed", "true")
