"""The figures every app process shares (``annotation/statistics/shared.py``, the one
cache's second level): computed once per change, by whichever process gets there first,
and read by every other; a store that goes away costs speed, never a figure.

The processes are app processes of their own (:mod:`annotation.tests.statistics.
app_process`: the app's settings, Django's whole request handling) on a database the
test made, SQLite in a file or PostgreSQL where the suite runs on it, with either store:
the database's table (no ``CACHE_URL``) or Redis (the machine's, on 127.0.0.1:6379, which
``make test`` starts; a private server of the test's own where the test stops it).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import redis
from django.core.cache import caches
from django.db import connection

from annotation.statistics import CACHE, forget, remembered
from annotation.statistics.memo import BY_CONTENT, FIGURES, CorpusState, Shelf, store_name
from annotation.statistics.shared import (
    MAX_BYTES,
    MISSING,
    SharedStore,
    code_version,
    part_digest,
)
from annotation.tests.factories import ROOT
from annotation.tests.jobs.workers import PATIENCE, WorkerDatabase, worker_database

#: The machine's Redis (``make test`` starts it if it is down).
MACHINE_REDIS = "redis://127.0.0.1:6379/0"
#: How long an app process leaves a store that failed alone, in the tests (seconds).
RETRY = 1.0
#: A state of a corpus, as a view reads it (no database needed to name its values).
STATE = CorpusState(7, "2026-01-02T03:04:05.000006+00:00", FIGURES.depends, (4, 1, 0))


# ------------------------------------------------------------------ app processes


class AppProcess:
    """An app process (:mod:`annotation.tests.statistics.app_process` ``serve``): ask it
    ``view`` or ``judge``, read its answer; its standard error goes to ``log``."""

    def __init__(self, env: dict[str, str], log: Path, retry: float | None = None) -> None:
        self.log = log
        with log.open("w") as errors:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "annotation.tests.statistics.app_process", "serve"]
                + ([str(retry)] if retry is not None else []),
                cwd=ROOT,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
            )

    def ask(self, command: str) -> dict[str, Any]:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(f"{command}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"the app process ended: {self.log.read_text()[-3000:]}"
        return json.loads(line)  # type: ignore[no-any-return]

    def view(self) -> dict[str, Any]:
        """The dashboard, every answer a 200 with the table's figures."""
        seen = self.ask("view")
        assert set(seen["status"]) == {200}, (seen["status"], self.log.read_text()[-3000:])
        assert seen["table"]["translators"], seen["table"]
        return seen

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextmanager
def app_processes(
    db: WorkerDatabase, logs: Path, cache_url: str, retry: float | None = None
) -> Iterator[tuple[AppProcess, AppProcess]]:
    """Two app processes on ``db``, their figures' store the one ``cache_url`` names (""
    for the database's table), as two servers behind one load balancer."""
    env = {**db.env, "CACHE_URL": cache_url, "ALLOWED_HOSTS": "testserver"}
    with ExitStack() as stack:
        pair = []
        for name in ("first", "second"):
            process = AppProcess(env, logs / f"{name}.log", retry)
            stack.callback(process.close)
            pair.append(process)
        yield pair[0], pair[1]


@pytest.fixture(scope="module")
def judged_once(
    migrated: WorkerDatabase, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WorkerDatabase]:
    """The demo corpus scored and judged, once for the module (an app process's
    ``setup``: seconds of CPU): the database each test copies its own from."""
    with worker_database(migrated, tmp_path_factory.mktemp("judged"), "evaltool_judged") as db:
        done = subprocess.run(
            [sys.executable, "-m", "annotation.tests.statistics.app_process", "setup"],
            cwd=ROOT,
            env={**db.env, "CACHE_URL": ""},
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )
        assert done.returncode == 0, done.stderr
        yield db


@pytest.fixture
def judged_db(judged_once: WorkerDatabase, tmp_path: Path) -> Iterator[WorkerDatabase]:
    """A database of the test's own, with the demo corpus scored and judged: a copy of
    :func:`judged_once`'s (a file's copy, or PostgreSQL's ``TEMPLATE``), as it was
    before any app process served from it."""
    with worker_database(judged_once, tmp_path, "evaltool_shared") as db:
        yield db


#: What each process draws from the figures it read, kept in its own memory: the table's
#: charts (SVG, not figures; :mod:`annotation.dashboard.table_charts`).
DRAWN = {"chart-svg"}


def computed(seen: dict[str, Any]) -> dict[str, int]:
    """The figures a view computed (rather than read), by shelf."""
    return {shelf: n for shelf, n in seen["computed"].items() if shelf not in DRAWN}


def computed_figures(seen: dict[str, Any]) -> int:
    """How many figures a view computed (rather than read)."""
    return sum(computed(seen).values())


# ------------------------------------------------------------------ a private Redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateRedis:
    """A Redis server of the test's own (nothing saved to disk), to stop and start
    again: the machine's serves other people's tests too."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "the private Redis did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(timeout=PATIENCE)
        self.process = None


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    if server.process is not None:
        server.stop()


# ------------------------------------------------------------------ two servers


@pytest.mark.slow
@pytest.mark.parametrize("store", ["database", "redis"])
def test_the_figures_one_server_computes_after_a_judgment_another_reads(
    store: str, judged_db: WorkerDatabase, tmp_path: Path
) -> None:
    """A judgment on the first server; the first view after it computes the figures
    there, once; the second server's next view computes none of them, reads no judgment,
    and shows the same figures (on the machine's Redis, or the database's table)."""
    if store == "redis":
        assert redis.Redis.from_url(MACHINE_REDIS).ping(), "make test starts Redis"
    url = MACHINE_REDIS if store == "redis" else ""
    with app_processes(judged_db, tmp_path, url) as (first, second):
        before = first.view()
        assert computed_figures(before) > 0
        assert computed_figures(second.view()) == 0

        first.ask("judge")
        after = first.view()
        read = second.view()

    assert computed_figures(after) > 0
    assert after["table"] != before["table"]  # the judgment shows
    assert computed(read) == {}  # no recomputation
    assert read["judgment_queries"] == 0
    assert read["store"]["found"] > 0
    assert read["table"] == after["table"]


@pytest.mark.slow
def test_a_server_brings_up_to_date_the_sentence_counts_another_kept(
    judged_db: WorkerDatabase, tmp_path: Path
) -> None:
    """The meta-evaluation's sentence-level τ-b counts that the first server kept are
    in the store: after a judgment, the second server, which never computed them, brings
    them up to date (the judged candidate's point taken out and put back) rather than
    counting them afresh, and both show the same figures."""
    with app_processes(judged_db, tmp_path, "") as (first, second):
        assert first.view()["meta_points"]["sser"] == -1  # counted afresh, kept
        first.ask("judge")
        brought = second.view()
        read = first.view()

    assert brought["meta_points"]["sser"] in (1, 2)  # a point came, or one moved
    assert brought["computed"]["figures"] > 0
    assert computed(read) == {}
    assert read["table"] == brought["table"]


@pytest.mark.slow
def test_a_redis_that_goes_away_costs_speed_never_a_wrong_or_missing_figure(
    judged_db: WorkerDatabase, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    """Redis stopped mid-campaign: each server computes its figures itself, right and
    complete, and says so once; Redis back, they share them again."""
    with app_processes(judged_db, tmp_path, private_redis.url, RETRY) as (first, second):
        before = first.view()
        assert computed_figures(second.view()) == 0  # shared

        private_redis.stop()
        first.ask("judge")
        alone = first.view()
        also_alone = second.view()
        first.ask("judge")
        first.view()  # the store still away: no second warning within the minute

        private_redis.start()
        time.sleep(RETRY)
        first.ask("judge")
        back = first.view()
        read = second.view()

    assert alone["store"]["failed"] > 0
    assert alone["table"] != before["table"]  # the judgment shows
    assert computed_figures(also_alone) > 0  # nothing to read: computed
    assert also_alone["table"] == alone["table"]  # right: not the figures of before
    assert back["store"]["stored"] > 0
    assert computed_figures(read) == 0  # shared again
    assert read["table"] == back["table"]
    log = (tmp_path / "first.log").read_text().splitlines()
    warnings = [line for line in log if "store" in line]
    assert len(warnings) == 1, warnings
    assert "did not answer" in warnings[0]


# ------------------------------------------------------------------ in one process


def test_of_two_threads_missing_one_value_one_computes_it_the_other_waits_for_it() -> None:
    """Compute once per change: a second asker (a thread here, as one of a server's
    workers would be) finds the value claimed, waits, and reads it."""
    key = FIGURES.key(STATE, "human")
    started, release = threading.Event(), threading.Event()

    def compute() -> str:
        started.set()
        assert release.wait(PATIENCE)
        return "value"

    values: list[str] = []
    askers = [
        threading.Thread(target=lambda: values.append(CACHE.get_or_set(key, compute)))
        for _ in range(2)
    ]
    askers[0].start()
    assert started.wait(PATIENCE)
    askers[1].start()
    deadline = time.monotonic() + PATIENCE
    while not CACHE.shared.counts["waited"] and time.monotonic() < deadline:
        time.sleep(0.01)
    release.set()
    for asker in askers:
        asker.join()

    assert values == ["value", "value"]
    assert CACHE.computations[FIGURES.name] == 1
    assert CACHE.shared.counts["waited"] == 1


@pytest.mark.django_db
def test_a_store_that_fails_costs_a_computation_never_the_request_s_transaction(
    settings: Any, caplog: pytest.LogCaptureFixture, judged_hand: Any
) -> None:
    """The database's table missing: every figure is computed, the transaction the
    request is in goes on (on PostgreSQL a failed statement would end it), and one
    warning says so, however many operations failed."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "no_such_table",
        }
    }
    settings.EVALTOOL_CACHE_RETRY_SECONDS = 0  # ask it again every time
    forget()
    computed: list[int] = []

    with caplog.at_level(logging.WARNING, logger="annotation.statistics.shared"):
        for k in range(3):
            assert remembered(judged_hand, ("part", k), lambda k=k: computed.append(k) or k) == k

    assert computed == [0, 1, 2]
    with connection.cursor() as cursor:  # the transaction goes on
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert CACHE.shared.counts["failed"] >= 3
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "did not answer" in caplog.records[0].getMessage()


def test_a_value_too_large_to_share_stays_in_its_process() -> None:
    key = BY_CONTENT.key(None, b"large")
    value = b"x" * (MAX_BYTES + 1)

    assert CACHE.get_or_set(key, lambda: value) is value
    assert CACHE.get(key) is value

    assert CACHE.shared.counts["too large"] == 1
    assert CACHE.shared.get(store_name(key)) is MISSING


def test_a_value_s_name_holds_the_code_the_corpus_its_stamps_and_its_part() -> None:
    """Never stale: another state of the corpus, another corpus, another part, other
    code are other names; a part's digest is the same in every process."""
    state = STATE
    later = CorpusState(7, state.created, FIGURES.depends, (5, 1, 0))
    name = str(store_name(FIGURES.key(state, "human")))

    assert name.startswith(f"evaltool:{code_version()}:figures:7@{state.created}:")
    assert name.endswith(":4.1.0")
    assert name != str(store_name(FIGURES.key(later, "human")))
    assert name != str(store_name(FIGURES.key(state, "judges", True)))
    assert name != str(store_name(Shelf("other", FIGURES.depends, 1).key(state, "human")))
    another_process = (
        "import django; django.setup()\n"
        "from annotation.statistics.shared import part_digest\n"
        "print(part_digest(('meta', 'tok:13a', 0.5, b'x', None)))"
    )
    elsewhere = subprocess.run(
        [sys.executable, "-c", another_process],
        cwd=ROOT,
        env={
            **os.environ,
            "PYTHONHASHSEED": "12345",
            "DJANGO_SETTINGS_MODULE": "evaltool.settings",
        },
        capture_output=True,
        text=True,
        check=True,
    )
    assert elsewhere.stdout.strip() == part_digest(("meta", "tok:13a", 0.5, b"x", None))
    with pytest.raises(TypeError, match="repr"):
        part_digest(("systems", frozenset({"a", "b"})))


def test_a_value_of_a_later_state_replaces_the_earlier_one_in_the_store() -> None:
    """Bounded: a day of judgments leaves one value a part, the latest state's; a value
    of an earlier state computed late (a request that read the corpus before the
    judgment) is not stored over it."""
    earlier = STATE
    later = CorpusState(7, STATE.created, FIGURES.depends, (5, 1, 0))
    CACHE.put(FIGURES.key(earlier, "human"), "before")
    CACHE.put(FIGURES.key(later, "human"), "after")

    CACHE.put(FIGURES.key(earlier, "human"), "late")

    assert CACHE.shared.get(store_name(FIGURES.key(later, "human"))) == "after"
    assert CACHE.shared.get(store_name(FIGURES.key(earlier, "human"))) is MISSING
    assert CACHE.shared.counts["stored"] == 2


def test_after_a_judgment_the_store_rewrites_the_judged_system_s_arrays_alone() -> None:
    """A value's large arrays are stored in pieces: the value of the next state, which
    differs in one system's row of the samples and that system's per-sentence rows,
    writes those two pieces, keeps the others, drops the two it replaced, and another
    process reads it whole, every array as it was."""
    rng = np.random.default_rng(7)
    samples = rng.random((20, 1000))  # systems × bootstrap samples
    rows = {f"MT-{k:02}": rng.random((933, 2)) for k in range(20)}
    CACHE.put(FIGURES.key(STATE, "human"), {"samples": samples, "rows": rows})
    stored = CACHE.shared.counts["pieces stored"]
    samples, rows = samples.copy(), dict(rows)
    samples[3] += 1.0
    rows["MT-03"] = np.vstack([rows["MT-03"], [[0.5, 1.0]]])
    later = CorpusState(7, STATE.created, FIGURES.depends, (5, 1, 0))

    CACHE.put(FIGURES.key(later, "human"), {"samples": samples, "rows": rows})

    assert stored > 20
    assert CACHE.shared.counts["pieces stored"] - stored == 2
    assert CACHE.shared.counts["pieces dropped"] == 2
    read = SharedStore().get(store_name(FIGURES.key(later, "human")))  # another process
    assert read["samples"].tobytes() == samples.tobytes()
    assert read["samples"].flags.writeable
    assert read["rows"].keys() == rows.keys()
    assert all(read["rows"][s].tobytes() == rows[s].tobytes() for s in rows)
    assert all(read["rows"][s].shape == rows[s].shape for s in rows)


def test_pieces_the_store_lost_cost_a_computation_never_a_wrong_figure() -> None:
    """The store emptied behind a process's back (Redis restarted between two
    requests): the next state's value, whose unchanged pieces that process does not
    write again, is missing for another process, never wrong; that process computes it
    and stores it whole, and from then on every process reads it."""
    samples = np.random.default_rng(8).random((20, 1000))
    CACHE.put(FIGURES.key(STATE, "human"), samples)
    caches["default"].clear()
    changed = samples.copy()
    changed[3] += 1.0
    state = CorpusState(7, STATE.created, FIGURES.depends, (5, 1, 0))
    later = store_name(FIGURES.key(state, "human"))
    CACHE.shared.put(later, changed)

    other = SharedStore()
    assert other.get(later) is MISSING
    assert other.counts["pieces missing"] == 1
    other.put(later, changed)  # computed there, stored whole
    assert SharedStore().get(later).tobytes() == changed.tobytes()


def test_a_column_of_a_table_is_stored_in_pieces_as_a_whole_array_is() -> None:
    """A large array that is a strided view (a system's column of a sentences × systems
    table) is stored apart as a contiguous one is, and read back equal."""
    table = np.random.default_rng(9).random((1000, 20))
    key = FIGURES.key(STATE, "meta-human")

    CACHE.put(key, {"MT-04": table[:, 3]})

    assert CACHE.shared.counts["pieces stored"] == 1
    read = SharedStore().get(store_name(key))
    assert read["MT-04"].tobytes() == table[:, 3].tobytes()
