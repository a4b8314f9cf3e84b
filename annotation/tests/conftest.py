"""Fixtures shared by the app's tests (django-allauth style); plain helpers and test data
live in :mod:`annotation.tests.factories`."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect, sync_playwright

from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, User
from annotation.statistics import forget
from annotation.tests.database import run_directory
from annotation.tests.factories import PASSWORD, SEED_XML, manage_py
from annotation.tests.jobs.workers import WorkerDatabase, migrated_database
from annotation.tests.tabs import Tabs
from metrics.significance import DEFAULT_SAMPLES


@pytest.fixture(autouse=True)
def fast_and_isolated(settings: Any) -> Iterator[None]:
    """Every test: a fast password hasher for the accounts it creates, and an empty
    dashboard memory, so no test sees figures another one computed."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    forget()
    yield
    forget()


@pytest.fixture
def full_bootstrap(settings: Any) -> None:
    """sacreBLEU's 1,000 bootstrap samples, as in production, for the tests of the
    bootstrap itself (the suite's settings draw fewer: ``evaltool/test_settings.py``)."""
    settings.EVALTOOL_BOOTSTRAP_SAMPLES = DEFAULT_SAMPLES


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WorkerDatabase]:
    """A database migrated once for the session, that the tests with processes of their
    own (workers, racing annotators) copy theirs from: in a parallel run, once for all
    its processes on SQLite (in the run's own directory, which holds each process's),
    once for each on PostgreSQL."""
    with migrated_database(run_directory(tmp_path_factory)) as db:
        yield db


@pytest.fixture
def migrated_sqlite(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A migrated SQLite database in a file of the test's own, for a command run as a
    lead's shell runs it (:func:`~annotation.tests.factories.manage_py`): a copy of the
    session's (:func:`migrated`) when the suite runs on SQLite; on PostgreSQL, where the
    session's is on the server, migrated here (``manage.py migrate`` in a process of its
    own: 4 to 5 s of CPU, where a copy takes none)."""
    path = tmp_path / "migrated.sqlite3"
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert manage_py(path, "migrate", "-v0").returncode == 0
        return path
    migrated: WorkerDatabase = request.getfixturevalue("migrated")
    shutil.copyfile(migrated.url.removeprefix("sqlite:///"), path)
    return path


@pytest.fixture
def user_factory(db: None) -> Callable[..., User]:
    counter = iter(range(1, 1_000_000))

    def make(username: str | None = None, *, role: str = User.Role.JUDGE, **extra: Any) -> User:
        name = username or f"user{next(counter)}"
        return User.objects.create_user(name, password=PASSWORD, role=role, **extra)

    return make


@pytest.fixture
def judge(user_factory: Callable[..., User]) -> User:
    return user_factory("judge", role=User.Role.JUDGE)


@pytest.fixture
def lead(user_factory: Callable[..., User]) -> User:
    return user_factory("lead", role=User.Role.LEAD)


@pytest.fixture
def judge_client(client: Client, judge: User) -> Client:
    client.force_login(judge)
    return client


@pytest.fixture
def lead_client(client: Client, lead: User) -> Client:
    client.force_login(lead)
    return client


@pytest.fixture
def seed(judge: User) -> Corpus:
    """Seed 001's example corpus (Figure 1 and §3.1), assigned to the judge; not scored
    until something reads its figures (a page, :func:`~annotation.tests.stored.
    automatic_statistics`)."""
    corpus = corpus_import(source=SEED_XML, name="seed", score=False).corpus
    corpus.judges.add(judge)
    return corpus


# --- real-browser tests ------------------------------------------------------------------
# Debian's Chromium driven by Playwright against the live server. No browser is
# downloaded: Playwright starts ``/usr/bin/chromium`` (``make test`` installs it).
# Playwright's sync API runs an event loop in this thread, so Django's guard against
# synchronous ORM calls from async contexts is lifted for the tests that use a browser.

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that drives the browser ``browser`` (``make test-fast`` leaves
    them out; ``make test`` runs them)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    # What a page may take to show what a test expects: the page's own default (below),
    # not Playwright's 5 s for expect(), which a request on a machine busy with the rest
    # of the suite (make serve, workers, a PostgreSQL restarted) has been seen to exceed.
    expect.set_options(timeout=10_000)
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make test`, which installs Debian's chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def tabs(browser: Browser) -> Iterator[Tabs]:
    """The tabs the tests of this process pass on (:mod:`annotation.tests.tabs`)."""
    kept = Tabs(browser)
    yield kept
    kept.close()


@pytest.fixture
def page(tabs: Tabs, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A tab as new (:mod:`annotation.tests.tabs`). Every page the test visits runs
    under the app's Content-Security-Policy; anything it blocks (an inline script or
    style, an eval) is reported on the console, and fails the test."""
    yield from _watched_tab(tabs, request)


@pytest.fixture
def other_page(tabs: Tabs, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A tab of a second browser, sharing nothing with ``page``'s (cookies, storage):
    another person's, watched alike."""
    yield from _watched_tab(tabs, request)


@pytest.fixture
def new_page(tabs: Tabs, request: pytest.FixtureRequest) -> Iterator[Callable[[], Page]]:
    """Tabs on demand, each of a browser of its own as ``other_page``'s is, watched
    alike: for a test of more people than two (annotators each in their own browser)."""
    opened: list[Iterator[Page]] = []

    def make() -> Page:
        tab = _watched_tab(tabs, request)
        opened.append(tab)
        return next(tab)

    yield make
    for tab in opened:
        next(tab, None)  # gives it back, and fails the test on what its policy blocked


def _watched_tab(tabs: Tabs, request: pytest.FixtureRequest) -> Iterator[Page]:
    tab = tabs.take()
    page = tab.page
    page.set_default_timeout(10_000)
    blocked: list[str] = []
    page.on(
        "console",
        lambda message: (
            blocked.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield page
    site = (
        request.getfixturevalue("live_server").url
        if "live_server" in request.fixturenames
        else None
    )
    tabs.give_back(tab, site)
    assert blocked == [], f"the Content-Security-Policy blocked: {blocked}"
