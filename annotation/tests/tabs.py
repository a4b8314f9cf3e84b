"""Browser tabs kept open from one real-browser test to the next (conftest.py's ``page``,
``other_page`` and ``new_page`` hand them out).

A new tab costs Chromium about half a second of CPU (a renderer process of its own, for
a browser context of its own); the suite opens some 130, a tenth of its time on two
cores. A tab back from a test is made again what a new one is: its page blank, no
cookies, nothing stored for the site, no routes, listeners or dialog handlers of the
test, the default window size. A tab whose state the reset cannot undo (a script or
permission added to its context, a DevTools session, another tab opened, the tab
closed, a reset that fails) is closed instead, and the next test gets a new one: the
tests' isolation never depends on a test tidying up."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, ViewportSize

#: What a test can change in a tab's context or page that no reset here undoes.
CONTEXT_FOR_GOOD = (
    "add_init_script",
    "expose_binding",
    "expose_function",
    "grant_permissions",
    "new_cdp_session",
    "new_page",
    "route_from_har",
    "set_extra_http_headers",
    "set_geolocation",
    "set_offline",
)
PAGE_FOR_GOOD = (
    "add_init_script",
    "emulate_media",
    "expose_binding",
    "expose_function",
    "route_from_har",
    "set_extra_http_headers",
)
#: A new tab's window (Playwright's default).
WINDOW: ViewportSize = {"width": 1280, "height": 720}
#: Tabs kept for the next tests (a test takes two at most, but for ``new_page``).
KEPT = 3


@dataclass
class Tab:
    context: BrowserContext
    page: Page
    devtools: CDPSession
    changed_for_good: bool = False
    listeners: list[tuple[str, Callable[..., Any]]] = field(default_factory=list)


class Tabs:
    """The tabs of one test process's browser."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.kept: list[Tab] = []

    def take(self) -> Tab:
        """A tab as new: a kept one, else one opened now."""
        if self.kept:
            return self.kept.pop()
        context = self.browser.new_context()
        page = context.new_page()
        tab = Tab(context, page, context.new_cdp_session(page))
        _watch_changes(tab)
        return tab

    def give_back(self, tab: Tab, origin: str | None) -> None:
        """Keep ``tab`` for a later test once reset (``origin``: the site whose stored
        data to clear), or close it where it cannot be."""
        if len(self.kept) < KEPT and _reset(tab, origin):
            self.kept.append(tab)
        else:
            _close(tab)

    def close(self) -> None:
        for tab in self.kept:
            _close(tab)
        self.kept.clear()


def _watch_changes(tab: Tab) -> None:
    """Flag the tab on any change no reset undoes; note the listeners a test adds."""

    def for_good(method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            tab.changed_for_good = True
            return method(*args, **kwargs)

        return call

    def noted(method: Callable[..., Any]) -> Callable[..., Any]:
        def call(event: str, handler: Callable[..., Any]) -> Any:
            tab.listeners.append((event, handler))
            return method(event, handler)

        return call

    for name in CONTEXT_FOR_GOOD:
        setattr(tab.context, name, for_good(getattr(tab.context, name)))
    for name in PAGE_FOR_GOOD:
        setattr(tab.page, name, for_good(getattr(tab.page, name)))
    for name in ("on", "once"):
        setattr(tab.page, name, noted(getattr(tab.page, name)))


def _reset(tab: Tab, origin: str | None) -> bool:
    """Make ``tab`` as new; whether it is."""
    page = tab.page
    if tab.changed_for_good or page.is_closed() or len(tab.context.pages) != 1:
        return False
    try:
        for event, handler in tab.listeners:
            page.remove_listener(event, handler)
        tab.listeners.clear()
        page.unroute_all(behavior="ignoreErrors")
        # a judge's page with text not saved asks before it is left
        leave: Callable[..., Any] = lambda dialog: dialog.accept()  # noqa: E731
        page.on("dialog", leave)
        page.goto("about:blank")
        page.remove_listener("dialog", leave)
        tab.listeners.clear()
        tab.context.clear_cookies()
        if origin:
            tab.devtools.send(
                "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"}
            )
        page.set_viewport_size(WINDOW)
    except Exception:  # noqa: BLE001  whatever went wrong, a new tab replaces this one
        return False
    return page.url == "about:blank"


def _close(tab: Tab) -> None:
    with contextlib.suppress(Exception):  # the browser may be gone at the session's end
        tab.context.close()
