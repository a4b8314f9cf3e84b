"""Workers through a PostgreSQL restart (issue 36, point 2): two real workers, one
computing a job and one idle, against a PostgreSQL server this test starts itself; the
server is stopped as an operator's restart stops it (every session ended) and started
again once the outage has outlasted the job's lease. Both workers wait for it, say so in
their log, and go on: the job is finished by its own worker, claimed once, and both take
new work afterwards.

The suite's own database (SQLite or PostgreSQL) plays no part, so the test is the same
in ``make test`` and ``make test-postgres``.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from annotation.tests.jobs.steps import STARTS
from annotation.tests.jobs.workers import (
    AT_SHELL_PRIORITY,
    PATIENCE,
    WorkerDatabase,
    host_and_pid,
    postgres_worker_database,
)
from evaltool.tests.private_postgres import MIGRATED, PrivatePostgres

#: One PostgreSQL server for the module, on one worker of a parallel run.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("private-postgres")]

#: What a worker logs when it finds the database gone, and when it is back.
GONE = "the database cannot be reached"
BACK = "the database is back"


@pytest.fixture(scope="module")
def postgres(private_server: PrivatePostgres) -> PrivatePostgres:
    return private_server


@pytest.fixture
def outage_db(postgres: PrivatePostgres) -> Iterator[WorkerDatabase]:
    """The workers' database, a copy of the private server's migrated one."""
    with postgres_worker_database(postgres.server, "workers", like=MIGRATED) as db:
        yield db


def wait_for_lines(log: Path, line: str, worker: subprocess.Popen[str]) -> None:
    """Until ``log`` has ``line``, or its worker has stopped."""
    deadline = time.monotonic() + PATIENCE
    while line not in log.read_text() and worker.poll() is None:
        if time.monotonic() > deadline:
            raise AssertionError(f"{log.name} has no {line!r} after {PATIENCE:.0f} s")
        time.sleep(0.05)


def test_workers_ride_out_a_postgresql_restart_and_finish_the_job_they_had(
    postgres: PrivatePostgres,
    outage_db: WorkerDatabase,
    stopped_at_the_end: list[subprocess.Popen[str]],
    tmp_path: Path,
) -> None:
    lease = 2.0
    # held before its last step until the test says (a progress report every 0.1 s
    # meanwhile): running while the server stops, however long the workers take to start
    released = tmp_path / "released"
    job = int(outage_db.steps("enqueue", "1", "10", "--held", str(released)))
    busy_log, idle_log = tmp_path / "busy.log", tmp_path / "idle.log"
    busy = outage_db.worker(lease, log=busy_log, steps=True, **AT_SHELL_PRIORITY)
    stopped_at_the_end.append(busy)
    outage_db.wait_until(lambda jobs: jobs[0][1] == "running", "claimed")
    idle = outage_db.worker(lease, log=idle_log, steps=True, **AT_SHELL_PRIORITY)
    stopped_at_the_end.append(idle)
    wait_for_lines(idle_log, "computing queued jobs", idle)

    assert outage_db.jobs() == [(job, "running", 1, host_and_pid(busy))]
    postgres.stop()
    try:
        wait_for_lines(busy_log, GONE, busy)
        wait_for_lines(idle_log, GONE, idle)
        time.sleep(lease)  # the outage outlasts the job's lease
    finally:
        postgres.start()
    assert (busy.poll(), idle.poll()) == (None, None)  # both rode it out
    wait_for_lines(busy_log, BACK, busy)
    released.touch()
    outage_db.wait_until(lambda jobs: jobs[0][1] in ("done", "failed"), "ended")
    # the idle worker may still be waiting to try the database again when the job ends
    wait_for_lines(idle_log, BACK, idle)

    busy_said, idle_said = busy_log.read_text(), idle_log.read_text()
    for said in (busy_said, idle_said):  # each logged the outage and its end
        assert [GONE in said, BACK in said] == [True, True]
    # the job went on with its own worker after the restart, claimed once, its result stored
    assert outage_db.jobs() == [(job, "done", 1, host_and_pid(busy))]
    assert outage_db.results() == [{"worker": host_and_pid(busy), "starts_here": 2}]
    assert busy_said.count(STARTS.format(job=job)) == 2
    assert STARTS.format(job=job) not in idle_said

    # and both take new work: of two jobs queued at once after it, each computes one (both
    # held until both run: a worker computes one job at a time)
    released_too = tmp_path / "released too"
    outage_db.steps("enqueue", "0.2", "2", "2", "--held", str(released_too))
    outage_db.wait_until(lambda jobs: all(j[1] == "running" for j in jobs[1:]), "both claimed")
    released_too.touch()
    outage_db.wait_until(lambda jobs: all(j[1] == "done" for j in jobs), "the new jobs done")
    assert {worker for _, _, _, worker in outage_db.jobs()[1:]} == {
        host_and_pid(busy),
        host_and_pid(idle),
    }
