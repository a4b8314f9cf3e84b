"""What every benchmark needs: a production-like environment and fresh processes.

Figures are taken with ``DEBUG`` off (Django then keeps no log of every SQL statement),
against a disposable database (SQLite in the benchmark's temp dir unless
``DATABASE_URL`` names one), each measurement in a fresh process so peak memory and cold
caches are the measurement's own.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def production_env(workdir: Path, database: str = "bench.sqlite3") -> dict[str, str]:
    """The environment of a production process (DEBUG off, modules run from their
    bytecode), the static files collected as ``make serve`` collects them: without them,
    DEBUG-off pages fail (the hashed names come from the manifest)."""
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{workdir / database}")
    # A deployment runs compiled modules (pip compiles what it installs, Python the app's
    # own at their first import); a shell's PYTHONDONTWRITEBYTECODE would make every
    # measured start-up compile them all again. Their bytecode goes outside the tree.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "evaltool-bench-pyc"))
    env.update(
        DEBUG="false",
        SECRET_KEY=env.get("SECRET_KEY", "bench-only-secret"),
        ALLOWED_HOSTS="testserver",
        DJANGO_SETTINGS_MODULE="evaltool.settings",
    )
    _collect_static(env["DEBUG"], env["SECRET_KEY"])
    return env


@functools.cache
def _collect_static(debug: str, secret_key: str) -> None:
    """``manage.py collectstatic`` once per bench run (a fresh checkout has none)."""
    env = dict(os.environ, DEBUG=debug, SECRET_KEY=secret_key)
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(command, env=env, cwd=ROOT, check=True)


def run_asked_mode(args: argparse.Namespace, modes: dict[str, Callable[[], object]]) -> bool:
    """In a measuring process (a fresh process a benchmark started with one of its
    hidden options): run the mode whose option is set, print its figures as the JSON
    line :func:`run_json` reads, and say so (False: this is the driving process)."""
    for mode, in_this_process in modes.items():
        if getattr(args, mode):
            print(json.dumps(in_this_process()))
            return True
    return False


def run_json(script: str, *args: str, env: dict[str, str]) -> dict[str, float]:
    """Run ``script`` in a fresh process; its last line of output is a JSON object."""
    out = subprocess.run(
        [sys.executable, script, *args],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


# ------------------------------------------------------------------ whole processes

TIME = "/usr/bin/time"  # GNU time: the peak RSS of the process it runs (``%M``)


@dataclass(frozen=True)
class Run:
    """One command as a whole process: wall clock (from before its start to its exit),
    peak resident memory, CPU seconds (user + system: what a loaded machine does not
    inflate), its output."""

    seconds: float
    peak_mb: float
    cpu: float
    stdout: str
    stderr: str


def run_measured(command: list[str], env: dict[str, str]) -> Run:
    """Run ``command`` (``python manage.py …``) under GNU time, from the project root.

    Not ``getrusage(RUSAGE_CHILDREN)``: the child's peak would start at this process's
    own (a fork copies its page tables, and ``ru_maxrss`` survives ``execve``); GNU time
    is a small process, so the peak it reports is the command's."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        start = time.perf_counter()
        proc = subprocess.run(
            [TIME, "-f", "%M %U %S", "-o", report.name, *command],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - start
        last = report.read().strip().splitlines()[-1]
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {proc.returncode}\n{proc.stderr[-3000:]}")
    kb, user, system = last.split()
    return Run(seconds, int(kb) / 1024, float(user) + float(system), proc.stdout, proc.stderr)


def manage(*args: str) -> list[str]:
    """``python manage.py ARGS`` with this interpreter."""
    return [sys.executable, "manage.py", *args]


def process_figures(pid: int) -> dict[str, float]:
    """A live process's peak and current resident memory (MB, from ``/proc``: the peak of
    its own image, not its parent's) and CPU seconds so far."""
    found = {"VmHWM:": 0.0, "VmRSS:": 0.0}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            key = line.split(maxsplit=1)[0] if line.strip() else ""
            if key in found:
                found[key] = int(line.split()[1]) / 1024
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return {"peak_mb": found["VmHWM:"], "rss_mb": found["VmRSS:"], "cpu": cpu}


# ------------------------------------------------------------------ PostgreSQL

PG_SERVER = "postgres://postgres@127.0.0.1:5432"


def ensure_postgres() -> None:
    """Start the local server if it is down (as ``make test-postgres`` does)."""
    ready = ["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"]
    if subprocess.run(ready).returncode == 0:
        return
    versions = os.listdir("/etc/postgresql")
    start = ["pg_ctlcluster", "--skip-systemctl-redirect", versions[0], "main", "start"]
    if os.geteuid() != 0:
        start.insert(0, "sudo")
    subprocess.run(start, check=True)
    for _ in range(30):
        if subprocess.run(ready).returncode == 0:
            return
        time.sleep(1)
    raise SystemExit("PostgreSQL on 127.0.0.1:5432 did not start")


def pg_admin(sql: str) -> None:
    """One statement on the server's ``postgres`` database (CREATE, DROP DATABASE)."""
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


def pg_fresh(database: str) -> str:
    """An empty PostgreSQL database of the benchmark's own (dropped first if it is
    there: only an ``evaltool_bench…`` one, never the app's nor a test database); its
    URL."""
    if not database.startswith("evaltool_bench"):
        raise SystemExit(f"refusing to use the database {database!r}")
    pg_admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    pg_admin(f'CREATE DATABASE "{database}"')
    return f"{PG_SERVER}/{database}"


def sized_bench_main(
    module: str,
    doc: str | None,
    measure: Callable[[Path, int], None],
    sentences: int,
    pg_database: str,
) -> None:
    """The command line of a benchmark measured on one generated corpus
    (``[--db sqlite|postgres|both] [--sentences N]``): each database in turn, in a
    process of its own (``python -m module --workdir DIR``, which calls ``measure(DIR,
    N)``), on SQLite (a file in a temporary directory) or PostgreSQL (``pg_database``,
    made afresh and dropped after); ``doc``: the module's, whose first line describes it."""
    parser = argparse.ArgumentParser(description=(doc or module).splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--sentences", type=int, default=sentences)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.workdir is not None:  # the measuring process
        measure(args.workdir, args.sentences)
        return
    for db in ("sqlite", "postgres") if args.db == "both" else (args.db,):
        workdir = Path(tempfile.mkdtemp(prefix="bench-"))
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="evaltool.settings", DEBUG="false")
        if db == "postgres":
            ensure_postgres()
            env["DATABASE_URL"] = pg_fresh(pg_database)
        else:
            env["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
        command = [sys.executable, "-m", module, "--workdir", str(workdir)]
        try:
            command += ["--sentences", str(args.sentences)]
            subprocess.run(command, env=env, cwd=ROOT, check=True)
        finally:
            shutil.rmtree(workdir)
            if db == "postgres":
                pg_admin(f'DROP DATABASE IF EXISTS "{pg_database}" WITH (FORCE)')


# ------------------------------------------------------------------ the task queue's jobs


def job_rows(database_url: str, kind: str = "") -> list[dict[str, Any]]:
    """The queue's jobs (of ``kind``, if given) as the database holds them, read with the
    database's own client (not Django: this process watches, it does not run the app),
    times as seconds since the epoch."""
    sql = (
        "SELECT id, kind, status, done, total, attempts, error, created_at, started_at,"
        " finished_at FROM annotation_job"
    )
    params: tuple[str, ...] = ()
    if kind:
        sql += " WHERE kind = %s"
        params = (kind,)
    sql += " ORDER BY id"
    if database_url.startswith("sqlite:///"):
        import sqlite3

        path = database_url.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            rows = conn.execute(sql.replace("%s", "?"), params).fetchall()
    else:
        import psycopg

        with psycopg.connect(database_url) as conn:
            rows = conn.execute(sql, params).fetchall()  # type: ignore[arg-type]
    names = ("id", "kind", "status", "done", "total", "attempts", "error")
    out = []
    for row in rows:
        job = dict(zip(names, row[:7], strict=True))
        for name, value in zip(("created", "started", "finished"), row[7:], strict=True):
            job[name] = _epoch(value)
        out.append(job)
    return out


def _epoch(value: Any) -> float | None:
    """A stored time (SQLite: UTC text; PostgreSQL: an aware datetime) as epoch seconds."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return float(value.timestamp())


def score_in_worker(env: dict[str, str], kind: str = "statistics") -> dict[str, Any]:
    """Start a real ``manage.py worker`` process and wait until every job of ``kind``
    has ended; then stop it (SIGTERM). The figures: from the worker's start to its claim
    and to the job done (wall clock), the job's own claim-to-done (its row's
    ``started_at``/``finished_at``), the worker's CPU seconds and peak memory."""
    url = env["DATABASE_URL"]
    ids = {job["id"] for job in job_rows(url, kind) if job["status"] in ("queued", "running")}
    if not ids:
        raise SystemExit(f"no queued job of kind {kind!r} to measure")
    started = time.time()
    worker = subprocess.Popen(
        manage("worker", "--interval", "0.1"),
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while True:
            jobs = [job for job in job_rows(url, kind) if job["id"] in ids]
            if all(job["status"] in ("done", "failed") for job in jobs):
                seen = time.time()
                break
            if worker.poll() is not None:
                raise SystemExit(f"the worker stopped:\n{worker.stderr.read()[-3000:]}")
            time.sleep(0.1)
        figures = process_figures(worker.pid)
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    failed = [f"job {j['id']}: {j['error']}" for j in jobs if j["status"] == "failed"]
    if failed:
        raise SystemExit("a job failed: " + "; ".join(failed))
    first_claim = min(j["started"] for j in jobs)
    last_done = max(j["finished"] for j in jobs)
    return {
        "jobs": len(jobs),
        "start_to_claim": first_claim - started,
        "claim_to_done": sum(j["finished"] - j["started"] for j in jobs),
        "start_to_done": last_done - started,
        "seen_done": seen - started,
        "queued_to_done": last_done - min(j["created"] for j in jobs),
        "attempts": max(j["attempts"] for j in jobs),
        "worker_cpu": figures["cpu"],
        "worker_peak_mb": figures["peak_mb"],
    }


# ------------------------------------------------------------------ budgets

#: A budget as the tables print it: "≤ 3 s", "≥ 50 actions/s", "≤ 150 MB", "≤ 0.25×"
#: ("< 2 s" reads as "≤ 2 s": a measured figure is never exactly its budget).
_BUDGET = re.compile(r"\s*(≤|≥|<=|>=|<|>)\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(\S*)\s*")


@dataclass(frozen=True)
class Budget:
    """A figure's limit: at most ``limit`` (or at least, for a rate), in ``unit``: the
    caller compares a figure in that unit."""

    limit: float
    unit: str = ""
    at_least: bool = False

    @classmethod
    def parse(cls, text: str) -> list[Budget]:
        """The budgets a printed budget names: each comma-separated "≤ N unit" or
        "≥ N unit" of ``text``; words that name no number (e.g. "≤ command line", "1
        request") are no budget of their own."""
        found = []
        for clause in text.split(","):
            match = _BUDGET.fullmatch(clause)
            if match is not None:
                sign, number, unit = match.groups()
                found.append(cls(float(number.replace(",", "")), unit, sign in ("≥", ">=", ">")))
        return found

    def allows(self, value: float) -> bool:
        return value >= self.limit if self.at_least else value <= self.limit

    def __str__(self) -> str:
        unit = self.unit if self.unit in ("", "×") else f" {self.unit}"
        return f"{'≥' if self.at_least else '≤'} {self.limit:g}{unit}"


class Verdicts:
    """Every figure a run compared with its budget, and the verdict of ``--check``: the
    one place a bench script asks whether a figure is past its budget."""

    def __init__(self) -> None:
        self.checked: list[str] = []
        self.over: list[str] = []

    def judge(self, what: str, value: float | None, budget: Budget | str) -> str:
        """Compare ``value`` (in the budget's unit; None: not measured, not judged) with
        ``budget`` (a :class:`Budget`, or a printed one :meth:`Budget.parse` reads, which
        names one budget at most: a text naming none judges nothing); returns what the
        printed row adds: "" within, "OVER" past it."""
        budgets = Budget.parse(budget) if isinstance(budget, str) else [budget]
        if len(budgets) > 1:
            raise ValueError(f"{what}: {budget!r} names {len(budgets)} budgets; judge each")
        if value is None or not budgets:
            return ""
        limit = budgets[0]
        line = f"{what}: {value:.4g}{'' if limit.unit == '×' else ' '}{limit.unit} (budget {limit})"
        self.checked.append(line)
        if limit.allows(value):
            return ""
        self.over.append(line)
        return "OVER"

    def finish(self, check: bool) -> None:
        """Print the figures past their budget; with ``check``, exit 1 if there is any
        (and 0 otherwise), so a run by hand can gate on it."""
        print(f"\nbudgets: {len(self.checked)} figures compared, {len(self.over)} past theirs")
        for line in self.over:
            print(f"  OVER  {line}")
        sys.stdout.flush()
        if check and self.over:
            raise SystemExit(1)


def add_check_option(parser: argparse.ArgumentParser) -> None:
    """``--check``: exit non-zero when a figure is past its budget (run by hand, never in
    CI: figures of a shared machine are too noisy to fail a build)."""
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a measured figure is past its budget (run by hand, not in CI)",
    )
