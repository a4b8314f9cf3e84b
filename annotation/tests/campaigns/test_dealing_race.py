"""Annotators asking at once, each a process of its own (:mod:`annotation.tests.
campaigns.racing`) on a database the test made (SQLite in a file, with the app's own
settings; a PostgreSQL database of its own where the suite runs on PostgreSQL): never
two of them dealt the same task, never one dealt both copies of a batch, and one
annotator asking from four tabs at once dealt one task."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
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
