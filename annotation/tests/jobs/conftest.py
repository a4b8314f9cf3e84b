"""The fixtures of the tests with real worker processes (:mod:`annotation.tests.jobs.
workers`)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from annotation.tests.jobs.workers import WorkerDatabase, stop_all, worker_database


@pytest.fixture
def worker_db(migrated: WorkerDatabase, tmp_path: Path) -> Iterator[WorkerDatabase]:
    """The workers' database, a copy of the session's migrated one: SQLite here; a
    PostgreSQL database of its own when the suite runs on PostgreSQL."""
    with worker_database(migrated, tmp_path, "evaltool_workers") as db:
        yield db


@pytest.fixture
def stopped_at_the_end() -> Iterator[list[subprocess.Popen[str]]]:
    """The worker processes a test started, stopped at its end (SIGTERM)."""
    processes: list[subprocess.Popen[str]] = []
    yield processes
    stop_all(processes)
