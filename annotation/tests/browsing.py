"""What the real-browser tests do again and again: log in, open a judge's next candidate.
(The browser itself and its Content-Security-Policy watch are fixtures of conftest.py.)"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

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


def wait_for_htmx(page: Page) -> None:
    """Wait until the page has run htmx.

    The predicate is a function, never an expression: Playwright evaluates an expression
    again at every poll, and past the first poll (run by DevTools, which may eval) the
    page's Content-Security-Policy (``script-src 'self'``) refuses the eval, so a page
    whose htmx came a frame late failed the test. A function is evaluated once, then
    called."""
    page.wait_for_function("() => window.htmx !== undefined")


def shown_words(text: str) -> str:
    """A new reference as the word editor (``#new-ref``) shows it: one element per 13a
    word, so its text is the words spaced, whatever the stored text's spacing."""
    return " ".join(words(text))


def score(page: Page, sser: int) -> None:
    """Give the candidate SSER ``sser`` with its key and wait until the page shows it."""
    page.keyboard.press("=" if sser == 10 else str(sser))
    expect(page.locator(f'[data-sser="{sser}"]')).to_have_attribute("aria-pressed", "true")
