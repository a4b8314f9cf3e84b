"""The fixtures of the tests with real worker processes (:mod:`annotation.tests.jobs.
workers`)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from annotation.tests.jobs.workers import (
    WorkerDatabase,
    postgres_worker_database,
    sqlite_worker_database,
    stop_all,
)


@pytest.fixture
def worker_db(tmp_path: Path) -> Iterator[WorkerDatabase]:
    """The workers' database: SQLite here; a PostgreSQL database of its own when the
    suite runs on PostgreSQL."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        with postgres_worker_database(
            url.rsplit("/", 1)[0], f"evaltool_workers_{os.getpid()}"
        ) as db:
            yield db
        return
    yield sqlite_worker_database(tmp_path / "workers.sqlite3")


@pytest.fixture
def stopped_at_the_end() -> Iterator[list[subprocess.Popen[str]]]:
    """The worker processes a test started, stopped at its end (SIGTERM)."""
    processes: list[subprocess.Popen[str]] = []
    yield processes
    stop_all(processes)
