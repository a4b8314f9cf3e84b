"""What every benchmark needs: a production-like environment and fresh processes.

Figures are taken with ``DEBUG`` off (Django then keeps no log of every SQL statement),
against a disposable database (SQLite in the benchmark's temp dir unless
``DATABASE_URL`` names one), each measurement in a fresh process so peak memory and cold
caches are the measurement's own.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def production_env(workdir: Path, database: str = "bench.sqlite3") -> dict[str, str]:
    """The environment of a production process (DEBUG off), the static files collected
    as ``make serve`` collects them: without them, DEBUG-off pages fail (the hashed
    names come from the manifest)."""
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{workdir / database}")
    env.update(
        DEBUG="false",
        SECRET_KEY=env.get("SECRET_KEY", "bench-only-secret"),
        ALLOWED_HOSTS="testserver",
        DJANGO_SETTINGS_MODULE="evaltool.settings",
    )
    _collect_static(env["DEBUG"], env["SECRET_KEY"])
    return env


@functools.cache
def _collect_static(debug: str, secret_key: str) -> None:
    """``manage.py collectstatic`` once per bench run (a fresh checkout has none)."""
    env = dict(os.environ, DEBUG=debug, SECRET_KEY=secret_key)
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(command, env=env, cwd=ROOT, check=True)


def run_json(script: str, *args: str, env: dict[str, str]) -> dict[str, float]:
    """Run ``script`` in a fresh process; its last line of output is a JSON object."""
    out = subprocess.run(
        [sys.executable, script, *args],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]
