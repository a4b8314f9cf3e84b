"""The queue with real worker processes (``manage.py worker``) on a database of their
own: a worker killed with SIGKILL mid-job leaves the job to another worker, which
computes it once more and stores it once, and its scoring processes die with it; two
workers started at once never claim the same job, and fill the HTER counts of a
judgment accepted while they run; a job whose step outlasts the lease stays with its
worker. The test reads the jobs' rows straight from that database while
the workers run (SQLite here; a PostgreSQL database of its own when the suite runs on
PostgreSQL)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.tests.factories import DEMO_XML
from annotation.tests.jobs.steps import STARTS
from annotation.tests.jobs.workers import (
    AT_SHELL_PRIORITY,
    PATIENCE,
    WorkerDatabase,
    alive,
    children_of,
    host_and_pid,
)
from bench.gen_corpus import generate_corpus

#: Real worker processes (make test runs them; make test-fast does not).
pytestmark = pytest.mark.slow

#: The killed worker's short lease, so its job is taken over in seconds; the workers that
#: finish jobs hold the default lease (:data:`annotation.tests.jobs.workers.LEASE`).
SHORT_LEASE = 2.0


def test_a_worker_killed_mid_job_leaves_the_job_to_another_worker(
    worker_db: WorkerDatabase, stopped_at_the_end: list[subprocess.Popen[str]]
) -> None:
    worker_db.manage("import_evaltrans", str(DEMO_XML), "--name", "demo")
    assert worker_db.jobs() == [(1, "queued", 0, "")]  # the import queued its scoring

    first = worker_db.worker(lease=SHORT_LEASE)
    stopped_at_the_end.append(first)
    worker_db.wait_until(lambda jobs: jobs[0][1] == "running", "claimed")
    # a worker yields the CPU to the app servers (EVALTOOL_WORKER_NICE: 19, the lowest)
    assert os.getpriority(os.PRIO_PROCESS, first.pid) == 19
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    (job,) = worker_db.jobs()
    assert job == (1, "running", 1, host_and_pid(first))  # abandoned, lease not run out
    assert worker_db.query("SELECT COUNT(*) FROM annotation_corpusstatistics") == [(0,)]

    # the second worker starts up (seconds of imports) while the lease runs out, and
    # takes the job at its first look past the lease: before it, the job is not free
    second = worker_db.worker()
    stopped_at_the_end.append(second)
    time.sleep(SHORT_LEASE)
    worker_db.wait_until(lambda jobs: jobs[0][1] == "done", "done")

    assert worker_db.jobs() == [(1, "done", 2, host_and_pid(second))]
    assert worker_db.query("SELECT COUNT(*) FROM annotation_corpusstatistics") == [(1,)]
    scores = json.loads(worker_db.manage("scores", "demo", "--json"))  # read, not scored
    assert all("bleu" in figures for figures in scores["translators"].values())
    assert len(scores["translators"]) == 5


#: ``import_evaltrans XML --name "demo K"`` for K below ``count``, and the judge of
#: "demo 0", in one process (a process's start costs more than an import).
IMPORTS = """
from django.core.management import call_command
for k in range({count}):
    call_command("import_evaltrans", {xml!r}, "--name", f"demo {{k}}")
call_command("add_user", "judge", "--password", "pw", "--role", "judge", "--corpus", "demo 0")
"""

#: A judge's accepted judgment, made through the judging services in a process of its own
#: (as a server makes it): its HTER counts are left to the workers. The process prints the
#: counts the accepting left, read at once (read after the process ended, they could be
#: the running worker's already).
ACCEPT_ONE = """
from annotation.judging.changes import judgment_edit_ref, judgment_finish, judgment_set_sser
from annotation.judging.start import judgment_open
from annotation.models import Judgment, Target, User
judge = User.objects.get(username="judge")
target = Target.objects.filter(translator__role="system").order_by("pk").first()
j = judgment_open(user=judge, target=target)
judgment_edit_ref(judgment=j, user=judge, version=j.version, text="the chart shows it .")
judgment_set_sser(judgment=j, user=judge, version=j.version, sser=6)
judgment_finish(judgment=j, user=judge, version=j.version)
done = Judgment.objects.filter(state="done").values_list("ter_edits", "ter_length")
print(list(done))
"""


def test_two_workers_never_compute_the_same_job(
    worker_db: WorkerDatabase, stopped_at_the_end: list[subprocess.Popen[str]]
) -> None:
    """Four scoring jobs, two workers started at once: each job claimed once, and stored
    once. Then the workers fill the HTER counts of a judgment accepted meanwhile."""
    worker_db.manage("shell", "-c", IMPORTS.format(xml=str(DEMO_XML), count=4))
    assert [status for _, status, _, _ in worker_db.jobs()] == ["queued"] * 4

    workers = [worker_db.worker(), worker_db.worker()]
    stopped_at_the_end.extend(workers)
    worker_db.wait_until(lambda jobs: all(j[1] == "done" for j in jobs), "all done")

    jobs = worker_db.jobs()
    assert [attempts for _, _, attempts, _ in jobs] == [1, 1, 1, 1]  # each claimed once
    assert {worker for *_, worker in jobs} <= {host_and_pid(w) for w in workers}
    rows = worker_db.query(
        "SELECT corpus_id, COUNT(*) FROM annotation_corpusstatistics GROUP BY corpus_id"
    )
    assert sorted(count for _, count in rows) == [1, 1, 1, 1]
    # the same workers, idle now (one start of each for both checks)
    a_running_worker_fills_the_hter_counts_of_a_judgment_accepted_meanwhile(worker_db)


def test_a_worker_never_raises_its_own_priority() -> None:
    with pytest.raises(CommandError, match="--nice must be 0 or more"):
        call_command("worker", "--nice", "-1", "--batch")


def a_running_worker_fills_the_hter_counts_of_a_judgment_accepted_meanwhile(
    worker_db: WorkerDatabase,
) -> None:
    """A judgment accepted (by "judge", of the first corpus) while the workers run: the
    click leaves its HTER counts, and a worker fills them."""
    from annotation.text import hter_counts

    left = worker_db.manage("shell", "-c", ACCEPT_ONE).splitlines()[-1]
    assert left == "[(None, None)]"  # the click left them
    counts = "SELECT ter_edits, ter_length FROM annotation_judgment WHERE state = 'done'"

    deadline = time.monotonic() + 180
    while worker_db.query(counts) == [(None, None)] and time.monotonic() < deadline:
        time.sleep(0.2)

    (candidate,) = worker_db.query(
        "SELECT t.text FROM annotation_target t JOIN annotation_judgment j ON j.target_id = t.id"
    )[0]
    assert worker_db.query(counts) == [hter_counts(candidate, "the chart shows it .")]


def test_a_step_longer_than_the_lease_leaves_the_job_with_its_living_worker(
    worker_db: WorkerDatabase, stopped_at_the_end: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    lease, step = 1.5, 4.0  # one step, no progress report in it, of more than two leases
    job = int(worker_db.steps("enqueue", str(step), "1"))
    logs = [tmp_path / "computing.log", tmp_path / "beside.log"]
    computing = worker_db.worker(lease, log=logs[0], steps=True, **AT_SHELL_PRIORITY)
    stopped_at_the_end.append(computing)
    worker_db.wait_until(lambda jobs: jobs[0][1] == "running", "claimed")
    # a second worker beside it looks for work (abandoned jobs too) all along, as the first does
    beside = worker_db.worker(lease, log=logs[1], steps=True, **AT_SHELL_PRIORITY)
    stopped_at_the_end.append(beside)
    worker_db.wait_until(lambda jobs: jobs[0][1] in ("done", "failed"), "ended")

    assert worker_db.jobs() == [(job, "done", 1, host_and_pid(computing))]  # claimed once
    assert worker_db.results() == [{"worker": host_and_pid(computing), "starts_here": 1}]
    said = "".join(log.read_text() for log in logs)
    assert said.count(STARTS.format(job=job)) == 1  # computed once, by one worker
    assert "taken over" not in said  # from a worker thought stopped, or by another
    assert (computing.poll(), beside.poll()) == (None, None)


@pytest.fixture
def killed_at_the_end() -> Iterator[set[int]]:
    """Processes a test left running if it failed: killed (SIGKILL) at its end."""
    pids: set[int] = set()
    yield pids
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_worker_killed_mid_scoring_takes_its_scoring_processes_with_it(
    worker_db: WorkerDatabase,
    stopped_at_the_end: list[subprocess.Popen[str]],
    killed_at_the_end: set[int],
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "larger.xml"  # scored in seconds, not in a fraction of one
    with corpus.open("wb") as out:
        generate_corpus(out, sentences=300, references=2, systems=8, seed=36)
    worker_db.manage("import_evaltrans", str(corpus), "--name", "larger")
    worker = worker_db.worker(EVALTOOL_SCORING_PROCESSES="2")
    stopped_at_the_end.append(worker)
    deadline = time.monotonic() + PATIENCE
    while len(children_of(worker.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    scoring = children_of(worker.pid)
    killed_at_the_end.update(scoring)
    assert len(scoring) == 2, worker_db.jobs()

    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=30)
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in scoring) and time.monotonic() < deadline:
        time.sleep(0.05)

    assert [pid for pid in scoring if alive(pid)] == []
    # killed mid-scoring: its job is left to another worker, nothing of it stored
    assert worker_db.jobs() == [(1, "running", 1, host_and_pid(worker))]
    assert worker_db.query("SELECT COUNT(*) FROM annotation_corpusstatistics") == [(0,)]
