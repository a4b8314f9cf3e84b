"""``make serve`` for the tests that run it for real: its environment, its start and stop,
and a browser's way of talking to it (cookies kept, redirects not followed)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def make_serve(env: dict[str, str]) -> Iterator[str]:
    """``make serve`` running in ``env`` (which gives ``HOST`` and ``PORT``): its base URL
    once it answers; stopped, with its workers, on leaving. It runs with the virtual
    environment as ``make test`` left it (``-o venv``): a test never installs into it,
    which would write the package's metadata into the checkout, and two at once would
    install over each other."""
    process = subprocess.Popen(
        ["make", "-s", "-o", "venv", "serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    base = f"http://{env['HOST']}:{env['PORT']}"
    try:
        for _ in range(120):
            if process.poll() is not None:
                pytest.fail(f"make serve stopped: {process.stderr.read().decode()[-2000:]}")
            try:
                fetch(f"{base}/accounts/login/")
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("make serve did not answer within 60 s")
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None
