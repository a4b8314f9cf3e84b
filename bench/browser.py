"""What the benchmarks that drive a real browser share: a production server on a
database, and Debian's Chromium through Playwright (as the browser tests start it).

The server is ``make serve``'s gunicorn, started from this interpreter's virtualenv (so a
worktree without its own ``.venv`` needs none), on a free port, DEBUG off, the static
files collected (:func:`bench.common.production_env`); it is stopped by its process group
id when the ``with`` block ends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def manage(env: dict[str, str], *args: str) -> str:
    """``manage.py ARGS`` in a fresh process; its output."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(base: str) -> None:
    """Wait (a minute at most) until the server at ``base`` answers its login page."""
    for _ in range(240):
        try:
            urllib.request.urlopen(f"{base}/accounts/login/", timeout=2).read()
            return
        except OSError:
            time.sleep(0.25)
    raise SystemExit(f"{base} did not start")


@contextmanager
def server(env: dict[str, str], workers: int = 2, access_log: Path | None = None) -> Iterator[str]:
    """A gunicorn server of the app on ``env``'s database; yields its base URL.
    ``access_log``: a file where gunicorn writes each request's method, path, status and
    time (microseconds), one line each."""
    port = free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [str(gunicorn), "evaltool.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    command += ["--workers", str(workers), "--no-control-socket"]
    if access_log is not None:
        command += ["--access-logfile", str(access_log)]
        command += ["--access-logformat", "%(m)s %(U)s %(s)s %(D)s"]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**env, "ALLOWED_HOSTS": "127.0.0.1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless (no browser is downloaded)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def log_in(page: Any, base: str, username: str, password: str) -> None:
    """Log in through the login form and wait for the home page."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{base}/")


def open_corpus(page: Any, base: str, name: str) -> None:
    """From the home page, the judge's next candidate of corpus ``name``, htmx loaded."""
    page.click(f'a[data-action="continue"][data-corpus="{name}"]')
    page.wait_for_selector("#judge[data-judgment]")
    # a function, evaluated once: the page's policy forbids the eval of an expression per poll
    page.wait_for_function("() => window.htmx !== undefined")
