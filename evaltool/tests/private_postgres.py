"""A PostgreSQL server of a test's own, in a directory of its own on a free port: the
tests of a database that goes away stop and start it for real, which they must never do
to the machine's shared server (other test runs use it). A module that uses it runs on
one worker of a parallel run (``pytest.mark.xdist_group("private-postgres")``) and is
``slow``; the suite's own database (SQLite or PostgreSQL) plays no part in it.

The modules share one server (:func:`private_server`, the test process's), and one
database migrated on it that each copies its own from (:data:`MIGRATED`): initdb and
``migrate`` on PostgreSQL take seconds of CPU each, a copy none. Each test leaves the
server running, as it found it, and a module starts it again if one did not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from evaltool.tests.serving import ROOT, free_port

#: The database migrated once on the private server, that the tests copy theirs from.
MIGRATED = "migrated"


def pg_bin() -> Path:
    """Debian's PostgreSQL programs (the newest installed version); looked for when a
    test starts a server, not when the suite loads this module."""
    return max(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")).parent


@dataclass
class PrivatePostgres:
    """A PostgreSQL server of the test's own: started, stopped and started again."""

    directory: Path
    port: int

    @property
    def server(self) -> str:
        """Its URL without a database."""
        return f"postgres://postgres@127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """Its ``postgres`` database (a test makes the databases it needs from there)."""
        return f"{self.server}/postgres"

    def run(self, program: str, *args: str) -> None:
        # As root, PostgreSQL's programs must run as the postgres user.
        owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(
            [*owner, str(pg_bin() / program), *args], check=True, capture_output=True, timeout=60
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        data, log = str(self.directory / "data"), str(self.directory / "log")
        self.run("pg_ctl", "-D", data, "-o", options, "-l", log, "-w", "start")

    def running(self) -> bool:
        return (self.directory / "data" / "postmaster.pid").exists()

    @contextmanager
    def copy_of_migrated(self, name: str) -> Iterator[str]:
        """A new database ``name``, a copy of :data:`MIGRATED`: its URL; dropped on
        leaving."""
        import psycopg

        if not self.running():
            self.start()  # a test before stopped it and failed
        with psycopg.connect(self.url, autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {name}")
            c.execute(f"CREATE DATABASE {name} TEMPLATE {MIGRATED}")
        try:
            yield f"{self.server}/{name}"
        finally:
            with psycopg.connect(self.url, autocommit=True) as c:
                c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop it as an operator's restart does (``-m fast``): every session is ended,
        whatever it was doing."""
        self.run("pg_ctl", "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop")


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A new server, running; stopped and removed on leaving."""
    directory = Path(tempfile.mkdtemp(prefix="evaltool-pg-"))
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres")
    server = PrivatePostgres(directory, free_port())
    data = str(directory / "data")
    server.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
    server.start()
    try:
        yield server
    finally:
        if server.running():
            server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def private_server() -> Iterator[PrivatePostgres]:
    """The test process's private server, with :data:`MIGRATED` migrated on it (by
    ``manage.py migrate``, as an operator migrates)."""
    import psycopg

    with private_postgres() as server:
        with psycopg.connect(server.url, autocommit=True) as c:
            c.execute(f"CREATE DATABASE {MIGRATED}")
        env = {
            **os.environ,
            "DATABASE_URL": f"{server.server}/{MIGRATED}",
            "DJANGO_SETTINGS_MODULE": "evaltool.settings",
        }
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        yield server
