"""A database that goes away (issue 24, point 6): ``make serve`` against a PostgreSQL
server this test starts itself, in a directory of its own on a free port, then stops and
starts again. While it is down, a write is answered 503 "not saved, retry" and a read
the 503 page, never a 500; once it is back, the same session carries on.

The suite's own database (SQLite or PostgreSQL) plays no part, so the test is the same
in ``make test`` and ``make test-postgres``.
"""

from __future__ import annotations

import http.cookiejar
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from annotation.web import ERR_DATABASE_UNREACHABLE, ERR_PAGE_UNAVAILABLE
from evaltool.tests.private_postgres import PrivatePostgres
from evaltool.tests.serving import ROOT, NoRedirect, free_port, make_serve, production_env

#: One PostgreSQL server and make serve for the module, on one worker of a parallel run.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("private-postgres")]


@pytest.fixture(scope="module")
def postgres(private_server: PrivatePostgres) -> PrivatePostgres:
    return private_server


@pytest.fixture(scope="module")
def served(postgres: PrivatePostgres) -> Iterator[tuple[str, dict[str, str]]]:
    """``make serve`` (one worker) against a copy of the private server's migrated
    database: its URL and environment."""
    scratch = Path(tempfile.mkdtemp(prefix="evaltool-serve-"))
    port = free_port()
    try:
        with postgres.copy_of_migrated("served") as url:
            env = production_env(
                scratch, DATABASE_URL=url, HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="1"
            )
            with make_serve(env) as base:
                yield base, env
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


class Browser:
    """A browser's session with the server: cookies kept, redirects not followed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )
        self.token = ""

    def get(self, path: str) -> tuple[int, str]:
        return self.send(urllib.request.Request(self.base + path))

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        form = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.token}).encode()
        referer = {"Referer": self.base + path}
        return self.send(urllib.request.Request(self.base + path, data=form, headers=referer))

    def send(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as response:
                status, body = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        if token is not None:
            self.token = token.group(1)
        return status, body


def test_a_database_down_is_503_not_saved_for_writes_and_a_503_page_for_reads(
    postgres: PrivatePostgres, served: tuple[str, dict[str, str]]
) -> None:
    base, env = served
    subprocess.run(
        [sys.executable, "manage.py", "add_user", "ana", "--password", "pw-ana", "--role", "judge"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    ana, stranger = Browser(base), Browser(base)
    ana.get("/accounts/login/")
    assert ana.post("/accounts/login/", {"username": "ana", "password": "pw-ana"})[0] == 302
    assert ana.get("/")[0] == 200
    stranger.get("/accounts/login/")

    postgres.stop()
    try:
        read = ana.get("/")
        write = ana.post("/accounts/logout/", {})
        login = stranger.post("/accounts/login/", {"username": "ana", "password": "pw-ana"})
    finally:
        postgres.start()

    assert read[0] == 503
    assert 'data-status="503"' in read[1]
    assert ERR_PAGE_UNAVAILABLE in read[1]
    assert write == (503, ERR_DATABASE_UNREACHABLE)
    assert login == (503, ERR_DATABASE_UNREACHABLE)
    # Back up: the same session reads its page again, the login goes through.
    assert ana.get("/")[0] == 200
    assert stranger.post("/accounts/login/", {"username": "ana", "password": "pw-ana"})[0] == 302
