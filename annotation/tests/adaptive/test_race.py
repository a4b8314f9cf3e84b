"""Annotators asking at once while a campaign deals adaptively, each a process of its own
(:mod:`annotation.tests.campaigns.racing`): when the batches drawn so far run out, the
deals that find none draw the next round one after the other (the corpus's row is locked
while one draws), so no round is drawn twice, no task is dealt twice, and every batch is
dealt in the end, each with the chance of the round that drew it."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from annotation.tests.campaigns.racing import TASKS
from annotation.tests.campaigns.test_dealing_race import at_once, race_db  # noqa: F401
from annotation.tests.factories import ROOT
from annotation.tests.jobs.workers import WorkerDatabase

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("private-postgres")]


def test_annotators_asking_at_once_draw_each_round_once_and_get_distinct_tasks(
    race_db: WorkerDatabase,  # noqa: F811
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "annotation.tests.campaigns.racing", "setup", "6", "adaptive"],
        cwd=ROOT,
        env=race_db.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr

    dealt = at_once(race_db, "deal", [f"ann{k}" for k in range(6)])

    assert len(dealt) == TASKS  # every task dealt, the rounds' included
    assert Counter(pk for _, pk in dealt).most_common(1)[0][1] == 1  # each once
    rows = race_db.query("SELECT round, probability FROM annotation_task")
    assert all(r is not None and 0.0 < p <= 1.0 for r, p in rows)
    rounds = [n for (n,) in race_db.query("SELECT number FROM annotation_dealinground")]
    assert sorted(rounds) == list(range(len(rounds)))  # 0, 1, 2 …: none drawn twice
    assert len(rounds) >= 2
