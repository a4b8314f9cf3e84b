"""``make serve``: the production server as a lead deploys it, started for real.

gunicorn on a free port with ``DEBUG`` off, against a fresh SQLite database: static files
answer with hashed names (served by the app, cached forever), pages carry the security
headers and the Content-Security-Policy, errors are the app's own pages, and ``check
--deploy`` is clean once the HTTPS variables are set.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from gunicorn.config import Config

from evaltool.tests.serving import (
    ROOT,
    NoRedirect,
    Served,
    fetch,
    free_port,
    make_serves,
    production_env,
)

#: One make serve for the module, on one worker of a parallel run.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("make-serve")]


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, str]]]:
    """``make serve`` running, with its error log, and its environment (database and all)."""
    tmp_path = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = production_env(tmp_path, HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2")
    with make_serves(env) as (one,):
        yield one, env


@pytest.fixture
def served(running: tuple[Served, dict[str, str]]) -> tuple[str, dict[str, str]]:
    """``make serve`` running: its base URL and its environment."""
    return running[0].base, running[1]


@pytest.fixture
def server(served: tuple[str, dict[str, str]]) -> str:
    return served[0]


def test_pages_are_served_with_debug_off_and_the_security_headers(server: str) -> None:
    status, headers, body = fetch(f"{server}/accounts/login/")

    assert status == 200
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "style-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert b'id="login-form"' in body


def test_static_files_have_hashed_names_and_are_cached_forever(server: str) -> None:
    _, _, body = fetch(f"{server}/accounts/login/")
    css = re.search(rb'href="(/static/css/evaltool\.[0-9a-f]{12}\.css)"', body)
    js = re.search(rb'src="(/static/js/htmx-2\.0\.11\.min\.[0-9a-f]{12}\.js)"', body)
    assert css is not None
    assert js is not None

    for path in (css.group(1), js.group(1)):
        status, headers, content = fetch(server + path.decode())
        assert status == 200
        assert content
        assert "immutable" in headers["Cache-Control"]


def test_errors_are_the_apps_own_pages_never_debug_pages(server: str) -> None:
    status, _, body = fetch(f"{server}/no/such/page/")

    assert status == 404
    assert b'data-status="404"' in body
    assert b"Traceback" not in body
    assert b"DEBUG" not in body


def log_in(
    base: str, username: str, password: str, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    """Log in through the login form as a browser does (cookie, CSRF token), the post
    carrying ``headers`` as well."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
        NoRedirect(),
    )
    page = opener.open(f"{base}/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    form = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token.group(1)}
    ).encode()
    request = urllib.request.Request(
        f"{base}/accounts/login/",
        data=form,
        headers={"Referer": f"{base}/accounts/login/", **(headers or {})},
    )
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_locked_sqlite_database_is_503_not_saved_never_500(
    served: tuple[str, dict[str, str]],
) -> None:
    """A long write holds SQLite's lock: a login (a write) waits for it, then is told
    "not saved, retry" with 503; once the lock is gone, the same login goes through."""
    base, env = served
    subprocess.run(
        [sys.executable, "manage.py", "add_user", "ana", "--password", "pw-ana", "--role", "judge"],
        cwd=ROOT,
        env={**env, "DEBUG": "false"},
        check=True,
        capture_output=True,
    )
    database = env["DATABASE_URL"].removeprefix("sqlite:///")
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        status, body = log_in(base, "ana", "pw-ana")
    finally:
        holder.execute("ROLLBACK")
        holder.close()

    assert status == 503
    assert "your change was not saved" in body
    assert "Retry" in body
    assert log_in(base, "ana", "pw-ana")[0] == 302


def test_an_unhandled_error_is_in_gunicorns_error_log_with_its_traceback(
    running: tuple[Served, dict[str, str]],
) -> None:
    """Issue 36, point 7: a 500 left an access-log line and no trace (Django mails it to
    the admins when DEBUG is off, and writes it nowhere). A login whose throttling table
    is gone (renamed away for the moment) fails inside the app: the visitor gets the
    app's 500 page, and the error log, the server's standard error, the traceback."""
    served, env = running
    database = sqlite3.connect(env["DATABASE_URL"].removeprefix("sqlite:///"), timeout=30)
    database.execute("ALTER TABLE axes_accessattempt RENAME TO axes_accessattempt_away")
    try:
        status, body = log_in(served.base, "nobody", "wrong")
    finally:
        database.execute("ALTER TABLE axes_accessattempt_away RENAME TO axes_accessattempt")
        database.close()

    assert status == 500
    assert 'data-status="500"' in body
    assert "Traceback" not in body
    log = served.errors()
    assert "[ERROR] django.request: Internal Server Error: /accounts/login/" in log
    traceback = log[log.index("Internal Server Error: /accounts/login/") :]
    assert "Traceback (most recent call last):" in traceback
    assert "no such table: axes_accessattempt" in traceback


@pytest.fixture
def new_database(tmp_path: Path) -> Iterator[str]:
    """The URL of a database nothing has touched: on the suite's PostgreSQL server when it
    runs on PostgreSQL (a database of its own, dropped after), else a SQLite file."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'new.sqlite3'}"
        return
    import psycopg

    name = f"evaltool_serve_{os.getpid()}"
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name}")
        c.execute(f"CREATE DATABASE {name}")
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_two_make_serve_started_at_once_from_one_checkout_both_serve_hashed_files(
    tmp_path: Path, new_database: str
) -> None:
    """Issue 36, point 5: two ``make serve`` started at the same moment, from one checkout
    (one new database, one ``STATIC_ROOT``): one crashed, in migrate (both created the
    first table) or in collectstatic (WhiteNoise's post-processing of files the other was
    rewriting). Both come up now, and serve the one collection, published whole."""
    ports = [free_port()]
    while len(ports) < 2:
        ports += [p for p in [free_port()] if p not in ports]
    envs = [
        production_env(
            tmp_path,
            DATABASE_URL=new_database,
            HOST="127.0.0.1",
            PORT=str(port),
            WEB_CONCURRENCY="1",
        )
        for port in ports
    ]

    with make_serves(*envs) as servers:
        for served in servers:
            status, _, body = fetch(f"{served.base}/accounts/login/")
            assert status == 200
            css = re.search(rb'href="(/static/css/evaltool\.[0-9a-f]{12}\.css)"', body)
            assert css is not None
            assert fetch(served.base + css.group(1).decode())[0] == 200

    root = tmp_path / "staticfiles"
    assert root.is_symlink()
    assert (root / "staticfiles.json").is_file()
    assert [p.name for p in tmp_path.glob(".staticfiles-*")] == [os.readlink(root)]


@pytest.mark.parametrize("target, runs", [("serve", "manage.py deploy"), ("worker", "worker")])
def test_the_production_targets_install_no_test_or_development_tool_and_run_no_apt(
    tmp_path: Path, target: str, runs: str
) -> None:
    """Issue 36, point 5: ``make serve`` (and ``make worker``, on the same hosts) installed
    the test and development extras (``.[test,dev]``) and Debian packages (apt-get) on a
    production host. Their install is now the runtime's alone, and they only check for
    WordNet's files."""
    done = subprocess.run(
        ["make", "-n", target, f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )

    assert "test," not in done.stdout
    assert "dev]" not in done.stdout
    assert "apt-get" not in done.stdout
    assert '-m pip install --quiet --disable-pip-version-check -e ".[postgres]"' in done.stdout
    assert runs in done.stdout


def test_without_a_proxy_gunicorn_believes_no_forwarded_proto(server: str) -> None:
    """Issue 24, point 6: a local process claiming ``X-Forwarded-Proto: https`` does not
    make its plain request pass for HTTPS (believed, the request would be secure, and
    the CSRF check would refuse the plain-HTTP Referer with 403)."""
    status, body = log_in(server, "nobody", "wrong", {"X-Forwarded-Proto": "https"})

    assert status == 200
    assert "Please enter a correct username and password" in body


def test_behind_a_proxy_the_scheme_is_believed_from_its_addresses_only(
    tmp_path: Path, running: tuple[Served, dict[str, str]]
) -> None:
    """Issue 36, point 8 (b), for the scheme: behind a proxy, ``X-Forwarded-Proto: https``
    from a peer of ``FORWARDED_ALLOW_IPS`` makes the request secure (the CSRF check then
    refuses its plain-HTTP Referer: 403); from any other peer it is not believed (the
    login form answers as to a plain request). Django read the header from any peer.
    The two servers share the module's server's database and collection, migrated and
    collected already (a server deployed again finds nothing to do, as one restarted
    does: a new database and collection cost each start seconds of CPU, and what the
    test checks is the scheme, not a deployment)."""
    deployed = running[1]
    envs = [
        production_env(
            tmp_path,
            DATABASE_URL=deployed["DATABASE_URL"],
            STATIC_ROOT=deployed["STATIC_ROOT"],
            HOST="127.0.0.1",
            PORT=str(free_port()),
            WEB_CONCURRENCY="1",
            EVALTOOL_BEHIND_PROXY="true",
            FORWARDED_ALLOW_IPS=proxies,
        )
        for proxies in ("127.0.0.1", "10.9.9.9")
    ]
    with make_serves(*envs) as (trusted, untrusted):
        claim = {"X-Forwarded-Proto": "https"}
        believed = log_in(trusted.base, "nobody", "wrong", claim)
        not_believed = log_in(untrusted.base, "nobody", "wrong", claim)

    assert believed[0] == 403
    assert not_believed[0] == 200
    assert "Please enter a correct username and password" in not_believed[1]


def serve_command(**environ: str) -> str:
    """The gunicorn command ``make serve`` runs in ``environ`` (``make -n``: nothing runs)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("EVALTOOL_BEHIND_PROXY", "FORWARDED_ALLOW_IPS")
    }
    done = subprocess.run(
        ["make", "-n", "serve", f"VENV={sys.prefix}"],
        cwd=ROOT,
        env={**env, **environ},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout[done.stdout.index("gunicorn evaltool.wsgi") :]


@pytest.mark.parametrize(
    "environ, flag",
    [
        ({}, "--forwarded-allow-ips ''"),
        ({"EVALTOOL_BEHIND_PROXY": "off"}, "--forwarded-allow-ips ''"),
        ({"FORWARDED_ALLOW_IPS": "10.0.0.0/8"}, "--forwarded-allow-ips ''"),
        ({"EVALTOOL_BEHIND_PROXY": "true"}, "--forwarded-allow-ips '127.0.0.1,::1'"),
        (
            {"EVALTOOL_BEHIND_PROXY": "yes", "FORWARDED_ALLOW_IPS": "10.0.0.0/8"},
            "--forwarded-allow-ips '10.0.0.0/8'",
        ),
    ],
)
def test_make_serve_lets_gunicorn_believe_a_proxy_only_when_one_is_declared(
    environ: dict[str, str], flag: str
) -> None:
    assert flag in serve_command(**environ)


def test_an_empty_forwarded_allow_ips_is_gunicorns_nobody() -> None:
    config = Config()
    assert config.forwarded_allow_ips == ["127.0.0.1", "::1"]  # its default believes local
    config.set("forwarded_allow_ips", "")
    assert config.forwarded_allow_ips == []


def run_check_deploy(tmp_path: Path, **more: str) -> subprocess.CompletedProcess[str]:
    env = production_env(tmp_path, DEBUG="false", **more)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_check_deploy_is_clean_once_https_is_declared(tmp_path: Path) -> None:
    done = run_check_deploy(tmp_path, EVALTOOL_HTTPS="true")

    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout + done.stderr


def test_the_https_settings_come_from_the_environment(tmp_path: Path) -> None:
    done = run_check_deploy(tmp_path)

    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in done.stdout + done.stderr


def manage(env: dict[str, str], *args: str, stdin: str = "") -> str:
    """``manage.py ARGS`` against the served database: its standard output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**env, "DEBUG": "false"},
        input=stdin,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def test_no_log_of_make_serve_holds_a_links_token(
    running: tuple[Served, dict[str, str]],
) -> None:
    """Issue 37, point 3: a per-annotator link is a password in a URL. Opened, refused,
    sent as a Referer, and failing with a 500, its token is in neither gunicorn's access
    log nor its error log (with Django's and django-axes' lines): only its hint is."""
    served, env = running
    manage(
        env,
        "import_evaltrans",
        str(ROOT / "fixtures" / "seed-example.evaltrans.xml"),
        "--name",
        "seed",
    )
    manage(env, "add_judges", "-", "--corpus", "seed", stdin="cy\ndee\n")
    rows = manage(env, "annotator_links", "seed", "--all", "--base-url", served.base)
    links = [row.split(",")[2] for row in rows.splitlines()[1:]]
    tokens = [link.rstrip("/").rsplit("/", 1)[1] for link in links]
    unknown = "Zz" + tokens[0][2:]
    opener = urllib.request.build_opener(NoRedirect())

    def status(url: str, **headers: str) -> int:
        try:
            with opener.open(urllib.request.Request(url, headers=headers), timeout=30) as r:
                return int(r.status)
        except urllib.error.HTTPError as error:
            return error.code

    opened = status(links[0], Referer=links[0])
    refused = status(f"{served.base}/a/{unknown}/")
    styled = status(f"{served.base}/accounts/login/", Referer=links[0])
    database = sqlite3.connect(env["DATABASE_URL"].removeprefix("sqlite:///"), timeout=30)
    database.execute("ALTER TABLE axes_accessattempt RENAME TO axes_accessattempt_away")
    try:
        failed = status(links[1])
    finally:
        database.execute("ALTER TABLE axes_accessattempt_away RENAME TO axes_accessattempt")
        database.close()

    assert (opened, refused, styled, failed) == (302, 404, 200, 500)
    accesses, errors = served.accesses(), served.errors()
    for token in [*tokens, unknown]:
        assert token not in accesses
        assert token not in errors
        assert token[6:20] not in accesses + errors
    assert f'"GET /a/{tokens[0][:6]}…/ HTTP/1.1" 302' in accesses
    assert f'"{served.base}/a/{tokens[0][:6]}…/"' in accesses  # the Referer column
    assert f'"GET /a/{unknown[:6]}…/ HTTP/1.1" 404' in accesses
    assert f"Not Found: /a/{unknown[:6]}…/" in errors
    assert f"Internal Server Error: /a/{tokens[1][:6]}…/" in errors
    assert "Traceback (most recent call last):" in errors
