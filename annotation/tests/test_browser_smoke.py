"""The browser can reach the app, log in, and the vendored htmx is loaded."""

from __future__ import annotations

from django.conf import settings
from playwright.sync_api import Page

from annotation.models import User
from annotation.tests.factories import PASSWORD


def test_a_judge_logs_in_and_the_page_runs_the_pinned_htmx(
    page: Page, live_server, user_factory
) -> None:
    user_factory("ana", role=User.Role.JUDGE)

    page.goto(f"{live_server.url}/")
    assert "/accounts/login/" in page.url

    page.fill("#id_username", "ana")
    page.fill("#id_password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")

    assert page.locator("header .who").inner_text() == "ana"
    assert page.evaluate("window.htmx && window.htmx.version") == settings.HTMX_VERSION
