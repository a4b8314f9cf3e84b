"""Every page of issue 9's budget table, on SQLite and PostgreSQL: ``python bench/pages.py``.

Builds the issue's database, then measures each page as the browser asks for it and
prints one table per database: the page, its budget, the median server time, the SQL
statements it runs. Prints; with ``--check``, exits 1 when a figure (a median) is past
its budget (:class:`bench.common.Verdicts`; by hand, not in CI).

**The database.** Three corpora made by ``bench/gen_corpus.py`` — 1,002 sentences × 3
references × 20 systems, 3,004 × 1 × 16, 529 × 2 × 13 — imported through the app's import
(each timed, in a fresh process), then the scoring each import queued, computed by a
real ``manage.py worker --batch`` process; a lead and 20 judges (the account service), every one
assigned to every corpus; 18,000 judgments (3 judges × 20 systems × the first 300
sentences of the big corpus) made through the judging services by
``bench/gen_judgments.py``.

**The measurements** (:mod:`bench.probes`), each group in a fresh process with ``DEBUG``
off (``bench/common.py``), through Django's test client:

* the home page as the lead and as a judge;
* the judge's page and each action, on several candidates in a row; accept & next is the
  whole chain the browser goes through, with the number of requests it took;
* the dashboard of the big corpus: the first view right after the import and its job
  (several fresh processes, each after the lead's home page, as a server worker has its
  middleware and URLs loaded: the worker stored the default choice's statistics), later
  views, every
  panel (htmx), ``table.csv``, ``table.json``, two charts, the drill-down of one system;
* each preprocessing choice never seen before, in a process of its own, after the
  statistics stored for any choice but the default are deleted: its first request (it
  queues the choice's scoring and answers at once with ``#scoring``), the job in a real
  ``manage.py worker --batch`` process (its claim-to-done time, from the job's row),
  then the view reading the stored figures;
* the grown pool (``refs=pool``): its first view ever (``#pool-scoring``: a pool job),
  the job in a worker, the view once it is stored; another process's view of the
  stored pool; a view after one sentence's pool changed, scored on the page
  (:func:`bench.probes.measure_pool`);
* the dashboard's first view after a word moved across a boundary (the statistics
  stale: ``#scoring``), the job that scores the changed candidates again, the view
  after it; the same when it moved back (:func:`bench.probes.measure_moved_word`);
* the export download (time to the first byte, and to the end) beside
  ``manage.py export_evaltrans`` (its run time, and with the interpreter's start-up);
* the peak memory of one process after a full dashboard tour (the new choices' jobs
  computed meanwhile by a worker process, whose own peak the note gives).

PostgreSQL: the server on 127.0.0.1:5432 (started if it is down), database
``evaltool_bench`` (``evaltool_bench_quick`` for ``--quick``), dropped and created by
this script, never another one; ``ANALYZE`` runs before each measurement, as autovacuum
would on a server where it is on (the planner's estimates otherwise stay those of empty
tables).

Usage::

    python bench/pages.py [--db sqlite|postgres|both] [--runs 7] [--quick]
                          [--keep DIR | --reuse DIR] [--json FILE]

``--quick`` builds three small corpora (a smoke run; its grown pool, small enough to be
scored on the page, is given to a pool job all the same, so that path runs too).
``--keep DIR`` builds anew and leaves the corpora files, the SQLite file and the
PostgreSQL database in place (with a marker file per database in DIR); ``--reuse DIR``
measures what DIR holds (after ``migrate``), building only what is missing. Without
either, everything is built in a temporary directory and removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: bench/metrics.py must not hide the metrics package

from bench.common import (  # noqa: E402
    PG_SERVER,
    Budget,
    Verdicts,
    add_check_option,
    ensure_postgres,
    pg_admin,
    production_env,
)

#: Every figure of the run against its budget (``--check``).
VERDICTS = Verdicts()


@dataclass(frozen=True)
class CorpusSpec:
    name: str
    sentences: int
    references: int
    systems: int
    seed: int


@dataclass(frozen=True)
class Plan:
    """What to build: the corpora (the first one gets the judgments) and the judging."""

    corpora: tuple[CorpusSpec, ...]
    judges: int
    judged_sentences: int
    per_candidate: int
    pg_database: str
    label: str

    @property
    def big(self) -> CorpusSpec:
        return self.corpora[0]

    def key(self) -> dict[str, Any]:
        return {
            "corpora": [c.__dict__ for c in self.corpora],
            "judges": self.judges,
            "judged_sentences": self.judged_sentences,
            "per_candidate": self.per_candidate,
        }


FULL = Plan(
    corpora=(
        CorpusSpec("bench-1002x3x20", 1002, 3, 20, 1),
        CorpusSpec("bench-3004x1x16", 3004, 1, 16, 2),
        CorpusSpec("bench-529x2x13", 529, 2, 13, 3),
    ),
    judges=20,
    judged_sentences=300,
    per_candidate=3,
    pg_database="evaltool_bench",
    label="full",
)
QUICK = Plan(
    corpora=(
        CorpusSpec("bench-60x3x5", 60, 3, 5, 1),
        CorpusSpec("bench-40x1x4", 40, 1, 4, 2),
        CorpusSpec("bench-30x2x3", 30, 2, 3, 3),
    ),
    judges=6,
    judged_sentences=20,
    per_candidate=3,
    pg_database="evaltool_bench_quick",
    label="quick",
)

#: (key of the figures, row of the table, budget). Keys are those of ``bench.probes``.
ROWS: tuple[tuple[str, str, str], ...] = (
    ("home_lead", "home, lead", "≤ 0.1 s"),
    ("home_judge", "home, judge", "≤ 0.1 s"),
    ("judge_page", "judge's page (GET)", "≤ 0.05 s"),
    ("judge_op", "judge: accept an edit operation", "≤ 0.05 s"),
    ("judge_editor", "judge: open the word editor (GET ?edit=)", "≤ 0.05 s"),
    ("judge_word", "judge: change a word", "≤ 0.05 s"),
    ("judge_sser", "judge: SSER", "≤ 0.05 s"),
    ("judge_undo", "judge: undo", "≤ 0.05 s"),
    ("judge_next", "judge: accept & next (whole chain)", "≤ 0.05 s, 1 request"),
    ("dash_first", "dashboard, first view after import + job", "≤ 1.0 s"),
    ("dash_later", "dashboard, later view", "≤ 0.2 s"),
    ("panel_table", "panel table (htmx)", "≤ 0.2 s"),
    ("panel_charts", "panel charts (htmx)", "≤ 0.2 s"),
    ("panel_judges", "panel judges (htmx)", "≤ 0.2 s"),
    ("panel_effort", "panel effort (htmx)", "≤ 0.2 s"),
    ("panel_meta", "panel meta (htmx)", "≤ 0.2 s"),
    ("csv", "table.csv", "≤ 0.2 s"),
    ("json", "table.json", "≤ 0.2 s"),
    ("svg_bleu", "chart bleu.svg", "≤ 0.2 s"),
    ("svg_ranks", "chart ranks.svg", "≤ 0.2 s"),
    # the preprocessing choices come here (``pre:<name=value>``)
    ("pool_first", "grown pool, first view", "≤ 2 s"),
    ("pool_first_job", "  its pool job in a worker (claim → done)", ""),
    ("pool_first_after", "  grown pool, the view once stored", "≤ 2 s"),
    ("pool_stored", "grown pool, another process", "≤ 2 s"),
    ("pool_one", "grown pool, one sentence judged since", "≤ 2 s"),
    ("pool_one_job", "  its pool job in a worker (claim → done)", ""),
    ("pool_one_after", "  grown pool, the view once stored", "≤ 2 s"),
    ("moved", "dashboard after a word moved", "≤ 1.0 s"),
    ("moved_job", "  its job in a worker (claim → done)", ""),
    ("moved_after", "  dashboard, the view once scored", "≤ 1.0 s"),
    ("moved_back", "dashboard after it moved back", "≤ 1.0 s"),
    ("moved_back_job", "  its job in a worker (claim → done)", ""),
    ("moved_back_after", "  dashboard, the view once scored", "≤ 1.0 s"),
    ("drill", "drill-down of one system", "≤ 0.3 s"),
    ("export_first", "export download, first byte", "≤ 0.3 s"),
    ("export_whole", "export download, whole file", "≤ command line"),
    ("export_command", "export, command line (run time)", ""),
    ("export_command_wall", "export, command line (with start-up)", ""),
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def worker(name: str, *args: Any, env: dict[str, str]) -> dict[str, Any]:
    """Run ``bench.probes.WORKERS[name](*args)`` in a fresh process; its JSON answer."""
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", name, json.dumps(args)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the {name!r} process failed (exit {proc.returncode})")
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def run_worker(name: str, args: str) -> None:
    """In the fresh process: run one worker, print its answer as the last line."""
    from bench.probes import WORKERS

    print(json.dumps(WORKERS[name](*json.loads(args))))


@dataclass(frozen=True)
class Database:
    kind: str  # "sqlite" or "postgres"
    url: str
    home: Path  # where its marker (and SQLite file) live
    plan: Plan

    @property
    def marker(self) -> Path:
        return self.home / f"{self.kind}-{self.plan.label}.json"

    @property
    def title(self) -> str:
        return "SQLite" if self.kind == "sqlite" else "PostgreSQL"

    def create(self) -> None:
        """An empty database, whatever was there (only this script's own database)."""
        if self.kind == "sqlite":
            path = Path(self.url.removeprefix("sqlite:///"))
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            return
        pg_admin(f'DROP DATABASE IF EXISTS "{self.plan.pg_database}" WITH (FORCE)')
        pg_admin(f'CREATE DATABASE "{self.plan.pg_database}"')

    def drop(self) -> None:
        if self.kind == "postgres":
            pg_admin(f'DROP DATABASE IF EXISTS "{self.plan.pg_database}" WITH (FORCE)')


def database(kind: str, home: Path, plan: Plan) -> Database:
    if kind == "sqlite":
        return Database(kind, f"sqlite:///{home / f'bench-{plan.label}.sqlite3'}", home, plan)
    if plan.pg_database == "evaltool" or plan.pg_database.startswith("test_"):
        raise SystemExit(f"refusing to use the database {plan.pg_database!r}")
    return Database(kind, f"{PG_SERVER}/{plan.pg_database}", home, plan)


def env_for(db: Database, workdir: Path) -> dict[str, str]:
    env = production_env(workdir)
    env["DATABASE_URL"] = db.url  # always ours, whatever the caller's environment says
    return env


def corpus_files(plan: Plan, home: Path) -> tuple[dict[str, Path], float]:
    """The evalTrans files of the plan (made by gen_corpus unless already there), and the
    seconds it took to make them."""
    from bench.gen_corpus import generate_corpus

    folder = home / "corpora"
    folder.mkdir(parents=True, exist_ok=True)
    paths, seconds = {}, 0.0
    for spec in plan.corpora:
        path = folder / f"{spec.name}-seed{spec.seed}.xml"
        if not path.exists():
            log(f"  generating {path.name}")
            start = time.perf_counter()
            partial = path.with_suffix(".partial")
            with partial.open("wb") as out:
                generate_corpus(
                    out,
                    sentences=spec.sentences,
                    references=spec.references,
                    systems=spec.systems,
                    seed=spec.seed,
                )
            partial.rename(path)
            seconds += time.perf_counter() - start
        paths[spec.name] = path
    return paths, seconds


def build(db: Database, files: dict[str, Path], workdir: Path) -> dict[str, Any]:
    """The plan's database, step by step, each step in a fresh process; the build facts."""
    plan = db.plan
    env = env_for(db, workdir)
    log(f"  {db.title}: creating the database, migrate")
    db.create()
    built: dict[str, Any] = {"plan": plan.key(), "commit": _commit(), "at": _now()}
    built["migrate"] = worker("migrate", env=env)["seconds"]
    built["imports"] = {}
    for spec in plan.corpora:
        log(f"  {db.title}: importing {spec.name}")
        built["imports"][spec.name] = worker("import", str(files[spec.name]), spec.name, env=env)
    log(f"  {db.title}: the scoring the imports queued, in a worker process")
    built["scoring"] = worker("scoring", env=env)
    log(f"  {db.title}: accounts")
    names = [c.name for c in plan.corpora]
    built["accounts"] = worker("accounts", names, plan.judges, env=env)["seconds"]
    log(f"  {db.title}: judgments through the services")
    built["judgments"] = worker(
        "judgments",
        plan.big.name,
        plan.judged_sentences,
        plan.per_candidate,
        plan.judges,
        env=env,
    )
    return built


def _commit() -> str:
    out = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def measure(db: Database, workdir: Path, runs: int, cold_runs: int) -> dict[str, Any]:
    """Every row of the table, each group in fresh processes (see the module doc)."""
    big = db.plan.big.name
    figures: dict[str, Any] = {}

    def step(message: str) -> None:
        log(f"  {db.title}: {message}")

    step("home pages (a slow one is measured once)")
    figures.update(worker("home", runs, env=env_for(db, workdir)))
    step("judge's page and actions")
    figures.update(worker("judge", big, runs, env=env_for(db, workdir)))
    step("dashboard, first view (cold) in fresh processes")
    colds = [
        worker("dashboard", big, runs, True, env=env_for(db, workdir))["dash_first"]
        for _ in range(cold_runs - 1)
    ]
    step("dashboard: first view, later views, panels, downloads, drill-down")
    figures.update(worker("dashboard", big, runs, env=env_for(db, workdir)))
    first = [s for f in [*colds, figures["dash_first"]] for s in f["seconds"]]
    figures["dash_first"].update(
        median=statistics.median(first),
        seconds=first,
        note=f"after the import, {len(first)} fresh process{'es' if len(first) > 1 else ''}",
    )
    choices = figures.pop("choices")
    for label, query in choices:
        if label == "refs=pool":  # measured step by step below
            continue
        step(f"preprocessing {label}: first request, its job in a worker, the view")
        env = env_for(db, workdir)
        found = worker("preprocessing", big, query, env=env)
        figures[f"pre:{label}"] = found["pre"]
        for part in ("job", "after"):
            if f"pre_{part}" in found:
                figures[f"pre:{label}:{part}"] = found[f"pre_{part}"]
    on_the_page = 0 if db.plan.label == "quick" else None  # the pool job's path, too
    for pool_step in ("first", "stored", "one"):
        step(f"grown pool: {pool_step}")
        figures.update(worker("pool", big, pool_step, on_the_page, env=env_for(db, workdir)))
    step("dashboard after a word moved across a boundary")
    figures.update(worker("moved-word", big, env=env_for(db, workdir)))
    step("export download")
    figures.update(worker("export", big, runs, env=env_for(db, workdir)))
    step("export on the command line")
    from bench.probes import export_command_wall

    out = str(workdir / "export.xml")
    env = env_for(db, workdir)
    inner = [worker("export-command", big, out, env=env)["seconds"] for _ in range(3)]
    wall = [export_command_wall(big, out, env) for _ in range(3)]
    for key, samples in (("export_command", inner), ("export_command_wall", wall)):
        figures[key] = {"median": statistics.median(samples), "seconds": samples, "queries": []}
    figures["export_command"]["note"] = "inside a fresh process, after Django's set-up"
    figures["export_command_wall"]["note"] = "python manage.py export_evaltrans NAME -o FILE"
    step("peak memory after a full dashboard tour")
    tour = worker("tour", big, env=env_for(db, workdir))
    figures["tour"] = {**tour["tour"], "seconds": tour["tour_seconds"]}
    return figures


def _seconds(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.1f} s" if value >= 10 else f"{value:.3f} s"


def _queries(figure: dict[str, Any]) -> str:
    from bench.probes import QUERY_LOG_LIMIT

    counts = figure.get("queries") or []
    if not counts:
        return "–"
    text = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    return f"≥{text}" if counts[-1] >= QUERY_LOG_LIMIT else text


def print_table(
    db: Database,
    built: dict[str, Any],
    facts: dict[str, Any],
    figures: dict[str, Any],
    context: str,
) -> None:
    corpora = ", ".join(f"{n} sentences × {s} systems ({name})" for name, n, s in facts["corpora"])
    print()
    print(f"{db.title} — {corpora}")
    made = built["judgments"]
    imports = ", ".join(f"{v['seconds']:.1f} s" for v in built["imports"].values())
    if "scoring" in built:
        imports += f" (their scoring in a worker: {built['scoring']['worker_seconds']:.0f} s)"
    print(
        f"{facts['judges']} judges, {facts['done']:,} done judgments "
        f"({facts['judgments']:,} judgments, {facts['events']:,} events); "
        f"built {built['at']} at {built['commit']}: imports {imports}; "
        f"{made['judgments']:,} judgments through the services in {made['seconds']:.0f} s "
        f"({1000 * made['seconds'] / max(1, made['judgments']):.1f} ms each)"
    )
    print(context)
    print(
        "median: server time (wall clock) of a request, median of the runs; CPU: this "
        "process's CPU time in it (not the PostgreSQL server's); queries: SQL statements"
    )
    rows = list(ROWS)
    at = next(i for i, r in enumerate(rows) if r[0] == "pool_first")
    pre = []
    for key in (k for k in figures if k.startswith("pre:")):
        if key.endswith(":job"):
            pre.append((key, "  its job in a worker (claim → done)", ""))
        elif key.endswith(":after"):
            pre.append((key, "  the view once scored", "≤ 1.0 s"))
        else:
            pre.append((key, f"new choice {key[4:]}", "≤ 2 s, first request"))
    rows[at:at] = pre
    command = figures.get("export_command", {}).get("median")
    header = (
        f"{'page':<42} {'budget':<24} {'median':>9} {'CPU':>9} {'queries':>9} {'runs':>4}  note"
    )
    print(header)
    print("-" * len(header))
    for key, label, budget in rows:
        f = figures.get(key)
        if f is None:
            continue
        limit: Budget | str = budget
        if key == "export_whole" and command is not None:
            budget = f"≤ command line {command:.2f} s"
            limit = Budget(command, "s")
        notes = [f.get("note", "")] if f.get("note") else []
        over = VERDICTS.judge(f"{db.title}: {label.strip()}", f.get("median"), limit)
        if over:
            notes.insert(0, over)
        if key == "judge_next":
            requests = f.get("requests") or []
            notes.insert(
                0,
                f"{'/'.join(map(str, requests))} request{'s' if requests != [1] else ''} per chain",
            )
        runs = len(f.get("seconds") or [])
        print(
            f"{label:<42} {budget:<24} {_seconds(f.get('median')):>9} "
            f"{_seconds(f.get('cpu')):>9} {_queries(f):>9} "
            f"{runs:>4}  {'; '.join(notes)}"
        )
    tour = figures.get("tour")
    if tour:
        label = "peak memory after a dashboard tour"
        over = VERDICTS.judge(f"{db.title}: {label}", tour["peak_mb"], Budget(200, "MB"))
        print(
            f"{label:<42} {'≤ 200 MB':<24} "
            f"{tour['peak_mb']:>6.0f} MB {'–':>9} {'–':>9} {1:>4}  {over + '  ' if over else ''}"
            f"{tour['requests']} requests in {tour['seconds']:.0f} s; "
            f"{tour['before_peak_mb']:.0f} MB before it, {tour['rss_mb']:.0f} MB resident after; "
            f"the worker's {tour.get('jobs', 0)} jobs: {tour.get('worker_peak_mb', 0):.0f} MB peak"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--runs", type=int, default=7, help="requests per figure (median)")
    parser.add_argument("--cold-runs", type=int, default=3, help="fresh processes, first view")
    parser.add_argument("--quick", action="store_true", help="a small database: a smoke run")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--keep", type=Path, metavar="DIR", help="build anew, keep it in DIR")
    where.add_argument("--reuse", type=Path, metavar="DIR", help="measure what DIR holds")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    add_check_option(parser)
    args, rest = parser.parse_known_args()
    if args.worker:
        run_worker(args.worker, rest[0])
        return
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    plan = QUICK if args.quick else FULL
    runs = min(args.runs, 3) if args.quick else args.runs
    cold_runs = 1 if args.quick else args.cold_runs
    kinds = ("sqlite", "postgres") if args.db == "both" else (args.db,)
    if "postgres" in kinds:
        ensure_postgres()

    temporary = None
    home = args.keep or args.reuse
    if home is None:
        temporary = tempfile.TemporaryDirectory(prefix="evaltool-bench-pages-")
        home = Path(temporary.name)
    home = home.resolve()
    home.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    try:
        files, generated = corpus_files(plan, home)
        if generated:
            log(f"  corpora generated in {generated:.0f} s")
        for kind in kinds:
            db = database(kind, home, plan)
            results[kind] = run_one(
                db, files, reuse=args.reuse is not None, runs=runs, cold_runs=cold_runs
            )
    finally:
        if temporary is not None:
            for kind in kinds:
                database(kind, home, plan).drop()
            temporary.cleanup()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    VERDICTS.finish(args.check)


def run_one(
    db: Database, files: dict[str, Path], *, reuse: bool, runs: int, cold_runs: int
) -> dict[str, Any]:
    """Build (or reuse) one database, measure it, print its table."""
    with tempfile.TemporaryDirectory(prefix="evaltool-bench-run-") as tmp:
        workdir = Path(tmp)
        built = None
        if reuse and db.marker.exists():
            built = json.loads(db.marker.read_text())
            if built.get("plan") != db.plan.key():
                log(f"  {db.title}: {db.marker} was built for another plan: building anew")
                built = None
        if built is None:
            start = time.perf_counter()
            built = build(db, files, workdir)
            built["seconds"] = time.perf_counter() - start
            db.marker.write_text(json.dumps(built, indent=1))
            origin = f"built in {built['seconds']:.0f} s"
        else:
            log(f"  {db.title}: reusing the database built {built['at']}: migrate")
            migrated = worker("migrate", env=env_for(db, workdir))
            origin = f"reused (built {built['at']}; migrate now {migrated['seconds']:.1f} s"
            if migrated["restored"]:
                restored = len(migrated["restored"])
                origin += f"; today's default statistics stored for {restored} corpora"
            origin += ")"
        if db.kind == "postgres":
            stats = worker("analyze", env=env_for(db, workdir))
            origin += (
                f"; ANALYZE {stats['seconds']:.1f} s before measuring "
                f"(autovacuum is {stats['autovacuum']} on this server)"
            )
        facts = worker("facts", env=env_for(db, workdir))
        load_before = os.getloadavg()[0]
        start = time.perf_counter()
        figures = measure(db, workdir, runs, cold_runs)
        minutes = (time.perf_counter() - start) / 60
        context = (
            f"database {origin}; measured at {_commit()} in {minutes:.1f} min, "
            f"load average {load_before:.2f} → {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
        )
        print_table(db, built, facts, figures, context)
        sys.stdout.flush()
        return {"built": built, "facts": facts, "figures": figures, "context": context}


if __name__ == "__main__":
    main()
