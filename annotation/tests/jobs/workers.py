"""Real worker processes on a database of their own, for the tests of the queue: the
database (SQLite in a file, or a PostgreSQL database made for the test), the workers
(``manage.py worker``, logging to a file when asked), the jobs' rows read straight from
that database while the workers run, and the processes as ``/proc`` lists them."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from annotation.tests.factories import ROOT

#: The workers' lease when a test does not say: long enough for a loaded machine (no job
#: is taken over from a worker that is merely slow, which is not what a test checks).
LEASE = 60.0
#: How long a test waits for what must happen before it fails.
PATIENCE = 180.0
#: A worker at the shell's CPU priority, for a test whose lease is a few seconds: at the
#: lowest (``EVALTOOL_WORKER_NICE``'s default), a worker on a machine busy with other
#: work may wait longer than that for the CPU, and lose its job as a stopped worker would.
AT_SHELL_PRIORITY = {"EVALTOOL_WORKER_NICE": "0"}


class WorkerDatabase:
    """A migrated database the workers and the test share, and a way to read it."""

    def __init__(self, url: str, query: Callable[[str], list[tuple[Any, ...]]]) -> None:
        self.url = url
        self.query = query
        self.env = {
            **os.environ,
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "evaltool.settings",
            "DEBUG": "true",
        }

    def manage(self, *args: str) -> str:
        """``manage.py ARGS``' output."""
        return self._run([sys.executable, "manage.py", *args])

    def steps(self, *args: str) -> str:
        """The same with the test's step jobs known (:mod:`annotation.tests.jobs.steps`):
        ``steps("enqueue", SECONDS, STEPS)`` queues one and answers its number."""
        return self._run([sys.executable, "-m", "annotation.tests.jobs.steps", *args])

    def _run(self, command: list[str]) -> str:
        done = subprocess.run(
            command, cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def worker(
        self, lease: float = LEASE, *, log: Path | None = None, steps: bool = False, **env: str
    ) -> subprocess.Popen[str]:
        """A worker process with this lease (and ``env``), its log written to ``log``;
        one that knows the step jobs too with ``steps``."""
        program = ["-m", "annotation.tests.jobs.steps"] if steps else ["manage.py"]
        errors = subprocess.DEVNULL if log is None else os.open(log, os.O_WRONLY | os.O_CREAT)
        try:
            return subprocess.Popen(
                [sys.executable, *program, "worker", "--interval", "0.2"],
                cwd=ROOT,
                env={**self.env, "EVALTOOL_JOB_LEASE_SECONDS": str(lease), **env},
                stdout=subprocess.DEVNULL,
                stderr=errors,
                text=True,
            )
        finally:
            if log is not None:
                os.close(errors)

    def jobs(self) -> list[tuple[Any, ...]]:
        """(id, status, attempts, worker) of every job, oldest first."""
        return self.query("SELECT id, status, attempts, worker FROM annotation_job ORDER BY id")

    def results(self) -> list[Any]:
        """The stored result of every job, oldest first."""
        rows = self.query("SELECT result FROM annotation_job ORDER BY id")
        return [json.loads(stored) if isinstance(stored, str) else stored for (stored,) in rows]

    def wait_until(self, condition: Callable[[list[tuple[Any, ...]]], bool], what: str) -> None:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            if condition(self.jobs()):
                return
            time.sleep(0.05)
        raise AssertionError(f"not {what} after {PATIENCE:.0f} s: {self.jobs()}")


@contextmanager
def postgres_worker_database(
    server: str, name: str, like: str | None = None
) -> Iterator[WorkerDatabase]:
    """A new migrated database ``name`` on the PostgreSQL server at ``server`` (a URL
    without a database), dropped on leaving: a copy of the migrated database ``like`` on
    the same server (PostgreSQL's ``TEMPLATE``), or migrated here."""
    import psycopg

    admin = f"{server}/postgres"
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name}")
        c.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {like}" if like else ""))
    own = f"{server}/{name}"

    def pg_query(sql: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(own) as c:
            return c.execute(sql).fetchall()  # type: ignore[arg-type]

    db = WorkerDatabase(own, pg_query)
    if like is None:
        db.manage("migrate", "--noinput", "-v0")
    try:
        yield db
    finally:
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def sqlite_database(path: Path) -> WorkerDatabase:
    """The SQLite database in the file ``path``."""

    def sqlite_query(sql: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(path, timeout=30) as c:
            return c.execute(sql).fetchall()

    return WorkerDatabase(f"sqlite:///{path}", sqlite_query)


def sqlite_worker_database(path: Path, like: Path | None = None) -> WorkerDatabase:
    """A new migrated SQLite database in the file ``path``: a copy of the migrated file
    ``like``, or migrated here."""
    db = sqlite_database(path)
    if like is None:
        db.manage("migrate", "--noinput", "-v0")
    else:
        shutil.copyfile(like, path)
    return db


@contextmanager
def migrated_database(directory: Path) -> Iterator[WorkerDatabase]:
    """The database every test's own is copied from (:func:`worker_database`), migrated
    once: ``manage.py migrate`` takes seconds of CPU, a copy none. SQLite in
    ``directory``, migrated by the first process to ask for it there (the processes of
    a parallel run ask in the same directory: the others wait for it, then copy it too,
    as it is never written after); a PostgreSQL database of each process's own when the
    suite runs on PostgreSQL (a template two processes copied at once would refuse the
    second: PostgreSQL copies a database nobody else is connected to)."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        name = f"evaltool_migrated_{os.getpid()}"
        with postgres_worker_database(url.rsplit("/", 1)[0], name) as db:
            yield db
        return
    with sqlite_template(directory) as path:
        if not path.exists():
            with whole(path) as migrating:
                sqlite_worker_database(migrating)
    yield sqlite_database(path)


@contextmanager
def sqlite_template(directory: Path) -> Iterator[Path]:
    """The run's migrated SQLite file in ``directory`` (there or not yet), held under
    the run's lock: the process that finds it missing makes it while the others wait.
    Made by the first process to ask, by the first of :func:`migrated_database` and the
    suite's own test database (``annotation.tests.database``)."""
    with (directory / "migrated.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
        yield directory / "migrated.sqlite3"


@contextmanager
def whole(path: Path) -> Iterator[Path]:
    """A file to write in place of ``path``, that becomes ``path`` once written: whole,
    or not there."""
    writing = path.with_name(f"writing-{os.getpid()}-{path.name}")
    yield writing
    writing.replace(path)


@contextmanager
def worker_database(
    migrated: WorkerDatabase, directory: Path, name: str
) -> Iterator[WorkerDatabase]:
    """A test's own database ``name``, a copy of ``migrated``: a SQLite file in
    ``directory``, or a PostgreSQL database on the same server, dropped on leaving."""
    if not migrated.url.startswith("postgres"):
        like = Path(migrated.url.removeprefix("sqlite:///"))
        yield sqlite_worker_database(directory / f"{name}.sqlite3", like)
        return
    server, template = migrated.url.rsplit("/", 1)
    with postgres_worker_database(server, f"{name}_{os.getpid()}", template) as db:
        yield db


def host_and_pid(process: subprocess.Popen[str]) -> str:
    """The process as a job's ``worker`` names it."""
    return f"{socket.gethostname()}:{process.pid}"


def stop_all(processes: list[subprocess.Popen[str]]) -> None:
    """SIGTERM to each process still running (each finishes its job), then wait."""
    for p in processes:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in processes:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def children_of(pid: int) -> set[int]:
    """The running processes whose parent is process ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended meanwhile
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found
