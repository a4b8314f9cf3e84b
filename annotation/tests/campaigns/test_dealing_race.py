"""Annotators asking at once, each a process of its own (:mod:`annotation.tests.
campaigns.racing`) on a database the test made (SQLite in a file, with the app's own
settings; a PostgreSQL database of its own where the suite runs on PostgreSQL): never
two of them dealt the same task, never one dealt both copies of a batch, and one
annotator asking from four tabs at once dealt one task."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from annotation.tests.campaigns.racing import READY, TASKS
from annotation.tests.factories import ROOT
from annotation.tests.jobs.workers import WorkerDatabase, worker_database

#: Processes on a database of their own (make test runs them; make test-fast does not).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("private-postgres")]

#: From the moment the last process is ready (Django imported, its user read) to the one
#: they all ask at: time for the test to tell each of them.
HEAD_START = 0.5


@pytest.fixture
def race_db(migrated: WorkerDatabase, tmp_path: Path) -> Iterator[WorkerDatabase]:
    with worker_database(migrated, tmp_path, "evaltool_race") as db:
        yield db


def racing(db: WorkerDatabase, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "annotation.tests.campaigns.racing", *args],
        cwd=ROOT,
        env=db.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def prepare(db: WorkerDatabase, annotators: int) -> None:
    """The campaign of :func:`annotation.tests.campaigns.racing.setup`."""
    done = subprocess.run(
        [sys.executable, "-m", "annotation.tests.campaigns.racing", "setup", str(annotators)],
        cwd=ROOT,
        env=db.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def at_once(db: WorkerDatabase, command: str, usernames: list[str]) -> list[tuple[str, int]]:
    """Each of ``usernames`` runs ``command`` in a process, all starting at one moment
    once every one is ready: the (username, task id) pairs they were dealt."""
    processes = [(name, racing(db, command, name)) for name in usernames]
    for _, process in processes:
        assert process.stdout is not None
        assert process.stdout.readline() == f"{READY}\n", process.communicate()[1]
    start = f"{time.time() + HEAD_START}\n"
    for _, process in processes:
        assert process.stdin is not None
        process.stdin.write(start)
        process.stdin.flush()
    dealt = []
    for name, process in processes:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        dealt += [(name, pk) for pk in json.loads(out)]
    return dealt


def test_annotators_asking_at_once_never_get_the_same_task(race_db: WorkerDatabase) -> None:
    prepare(race_db, 6)

    dealt = at_once(race_db, "deal", [f"ann{k}" for k in range(6)])

    assert len(dealt) == TASKS  # every task dealt
    assert Counter(pk for _, pk in dealt).most_common(1)[0][1] == 1  # each once
    holders = dict(race_db.query("SELECT id, assignee_id FROM annotation_task"))
    users = dict(race_db.query("SELECT username, id FROM annotation_user"))
    assert all(holders[pk] == users[name] for name, pk in dealt)
    batch = dict(race_db.query("SELECT id, batch FROM annotation_task"))
    copies = Counter((name, batch[pk]) for name, pk in dealt)
    assert max(copies.values()) == 1  # never both copies of a batch to one annotator


def test_one_annotator_asking_from_four_tabs_at_once_is_dealt_one_task(
    race_db: WorkerDatabase,
) -> None:
    prepare(race_db, 1)

    dealt = at_once(race_db, "once", ["ann0"] * 4)

    assert len(dealt) == 4
    assert len({pk for _, pk in dealt}) == 1
    assert race_db.query("SELECT COUNT(*) FROM annotation_task WHERE assignee_id IS NOT NULL") == [
        (1,)
    ]


@contextmanager
def another_deal_looking_at_every_free_task(db: WorkerDatabase) -> Iterator[None]:
    """Every free task locked, as a deal reading them for its claim holds them, then let
    go without a claim. On SQLite, the database held as a write transaction holds it."""
    if db.url.startswith("postgres"):
        import psycopg

        with psycopg.connect(db.url) as c:
            c.execute("SELECT id FROM annotation_task WHERE assignee_id IS NULL FOR UPDATE")
            yield
            c.rollback()
        return
    held = sqlite3.connect(db.url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        held.execute("BEGIN IMMEDIATE")
        yield
        held.execute("ROLLBACK")
    finally:
        held.close()


#: Sessions of the test's PostgreSQL database waiting for a lock.
WAITING = """SELECT count(*) FROM pg_stat_activity
WHERE wait_event_type = 'Lock' AND datname = current_database()"""


def waiting_for_a_lock(db: WorkerDatabase, process: subprocess.Popen[str]) -> bool:
    """Whether ``process`` waits (on PostgreSQL: a session of its database waits for a
    row lock), up to 30 s; False as soon as it has ended."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        if not db.url.startswith("postgres"):
            time.sleep(1.0)  # SQLite's busy wait shows nowhere: give it time to start
            return process.poll() is None
        if db.query(WAITING)[0][0]:
            return True
        time.sleep(0.05)
    return False


def test_a_free_task_another_deal_only_looked_at_is_dealt_not_reported_gone(
    race_db: WorkerDatabase,
) -> None:
    """The last tasks of a campaign asked for at once: a deal whose every free task is
    being read by other deals waits for them, and gets a task none of them claimed;
    skipping the locked ones would have told the annotator nothing was left (a task
    left undealt when 6 annotators raced for 24)."""
    prepare(race_db, 1)

    with another_deal_looking_at_every_free_task(race_db):
        process = racing(race_db, "once", "ann0")
        assert process.stdout is not None
        assert process.stdout.readline() == f"{READY}\n", process.communicate()[1]
        assert process.stdin is not None
        process.stdin.write(f"{time.time()}\n")
        process.stdin.flush()
        assert waiting_for_a_lock(race_db, process)
    out, err = process.communicate(timeout=120)

    assert process.returncode == 0, err
    assert len(json.loads(out)) == 1
