"""``make serve`` for the tests that run it for real: its environment, its start and stop,
and a browser's way of talking to it (cookies kept, redirects not followed)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECRET = "a-test-secret-that-is-long-enough-and-random-enough-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def production_env(tmp_path: Path, **more: str) -> dict[str, str]:
    """The environment of a deployment: DEBUG off, a secret, a SQLite database and the
    collected static files in ``tmp_path`` (the checkout is left as it is) unless ``more``
    names others."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DEBUG"))}
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
            "STATIC_ROOT": str(tmp_path / "staticfiles"),
            "SECRET_KEY": SECRET,
            "ALLOWED_HOSTS": "127.0.0.1,eval.example.org",
            **more,
        }
    )
    return env


@dataclass(frozen=True)
class Served:
    """A ``make serve`` that answers: its base URL, and the files its standard error
    (gunicorn's error log, with the app's own log) and standard output (gunicorn's
    access log) go to."""

    base: str
    log: Path
    access_log: Path

    def errors(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def accesses(self) -> str:
        return self.access_log.read_text(encoding="utf-8", errors="replace")


@contextmanager
def make_serves(*envs: dict[str, str]) -> Iterator[list[Served]]:
    """``make serve`` in each of ``envs`` (each gives ``HOST`` and ``PORT``), all started at
    the same moment: each once it answers; stopped, with their workers, on leaving. They
    run with the virtual environment as ``make test`` left it (``-o runtime``): a test
    never installs into it, which would write the package's metadata into the checkout.
    Standard error and output go to files (a pipe nobody reads would fill and stop
    gunicorn)."""
    logs = Path(tempfile.mkdtemp(prefix="evaltool-serve-log-"))
    started: list[tuple[subprocess.Popen[bytes], Served]] = []
    try:
        for env in envs:
            served = Served(
                f"http://{env['HOST']}:{env['PORT']}",
                logs / f"{env['PORT']}.log",
                logs / f"{env['PORT']}.access.log",
            )
            with served.log.open("wb") as log, served.access_log.open("wb") as access:
                process = subprocess.Popen(
                    ["make", "-s", "-o", "runtime", "serve"],
                    cwd=ROOT,
                    env=env,
                    stdout=access,
                    stderr=log,
                    start_new_session=True,
                )
            started.append((process, served))
        for process, served in started:
            _wait_until_it_answers(process, served)
        yield [served for _, served in started]
    finally:
        for process, _ in started:
            with contextlib.suppress(ProcessLookupError):  # stopped already
                os.killpg(process.pid, signal.SIGTERM)
        for process, _ in started:
            process.wait(timeout=30)
        shutil.rmtree(logs, ignore_errors=True)


def _wait_until_it_answers(process: subprocess.Popen[bytes], served: Served) -> None:
    for _ in range(1200):
        if process.poll() is not None:
            pytest.fail(f"make serve stopped: {served.errors()[-2000:]}")
        try:
            fetch(f"{served.base}/accounts/login/")
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"make serve did not answer within 120 s: {served.errors()[-2000:]}")


@contextmanager
def make_serve(env: dict[str, str]) -> Iterator[str]:
    """One ``make serve`` (:func:`make_serves`): its base URL."""
    with make_serves(env) as (served,):
        yield served.base


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None
