"""The browser can reach the app, log in, and the vendored htmx is loaded; the tests' wait
for it holds under the page's Content-Security-Policy."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from playwright.sync_api import Page, Route

from annotation.models import User
from annotation.tests.browsing import log_in, wait_for_htmx
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


def test_waiting_for_htmx_outlasts_a_late_script_under_the_pages_policy(
    page: Page, live_server, user_factory
) -> None:
    """htmx held back until the wait has polled a few frames: the wait still ends with
    htmx loaded, and the policy blocked nothing (an expression polled again is an eval
    the policy refuses; CI once failed so on a busy machine)."""
    user_factory("ana", role=User.Role.JUDGE)
    log_in(page, live_server.url, "ana")
    late: list[Route] = []

    def hold(route: Route) -> None:  # runs while the wait below polls
        late.append(route)
        page.wait_for_timeout(300)
        route.continue_()

    page.route("**/htmx*.js", hold)
    page.goto(f"{live_server.url}/", wait_until="commit")
    wait_for_htmx(page)

    assert len(late) == 1
    assert page.evaluate("window.htmx.version") == settings.HTMX_VERSION


def test_every_wait_in_the_browser_tests_and_bench_polls_a_function() -> None:
    """The same rule kept for every wait: a string predicate must be a function."""
    root = Path(__file__).resolve().parents[2]
    calls = re.compile(r"wait_for_function\(\s*(?P<quote>[\"'])(?P<predicate>.*?)(?P=quote)")
    found = {
        f"{path.relative_to(root)}: {call['predicate']}"
        for folder in ("annotation/tests", "bench")
        for path in (root / folder).rglob("*.py")
        for call in calls.finditer(path.read_text())
    }
    assert found, "the search found no wait at all"
    assert [where for where in found if "=>" not in where] == []
