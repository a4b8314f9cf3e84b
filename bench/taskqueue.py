"""The task queue's budgets, on SQLite and PostgreSQL: ``python bench/taskqueue.py``.

What the lead waits for now that scoring is a worker's job (:mod:`annotation.jobs`), for
a corpus of 1,002 sentences × 3 references × 20 systems (``bench/gen_corpus.py``), each
step a whole process as the lead runs it, against a database of this script's own:

1. ``manage.py import_evaltrans FILE --name N``: wall clock from its start to its exit,
   its peak RSS (GNU time) and CPU seconds; budget ≤ 3 s and ≤ 150 MB. The import stores
   the rows and queues the default choice's scoring (checked: one queued job).
2. That job in a real ``manage.py worker`` process started afterwards: the job's own
   claim-to-done (its row's ``started_at`` and ``finished_at``), the wall clock from the
   worker's start to the job done, the worker's CPU seconds and peak RSS, and the time
   from the import's start to the figures stored; budget ≤ 30 s.
3. ``manage.py scores NAME --json`` from the stored statistics (median of ``--runs``
   whole processes; checked: valid JSON, no waiting for a job); budget ≤ 2 s.

Beside them, Django's start-up (``manage.py check``, a whole process): the part of every
command's time that is no command's own. CPU seconds are printed because the machine is
shared: a loaded machine stretches the wall clock, not the CPU time.

``--profile`` then scores the corpus once more in this script's own process, under
pyinstrument (or cProfile where it is not installed), calling the handler
``annotation.statistics.jobs.score_choice`` directly, and prints where the time goes.

Before the queue (scoring inside the import): the import took 49.5 s and 337 MB, and
``scores --json`` 88 s. Prints; asserts only with ``--check``.

PostgreSQL: the server on 127.0.0.1:5432 (started if it is down), database
``evaltool_bench_queue`` (``evaltool_bench_queue_quick`` for ``--quick``, or
``--pg-database``'s), dropped and created by this script, and dropped at the end.
SQLite: a file in a temporary directory.

Usage::

    python bench/taskqueue.py [--db sqlite|postgres|both] [--quick] [--runs 3] [--profile]
                          [--json FILE] [--before FILE] [--pg-database NAME] [--check]

``--before FILE`` prints an earlier run's figures (its ``--json FILE``) beside this
run's: before and after a change, measured the same way. ``--check`` exits 1 when a
figure is past its budget (:class:`bench.common.Verdicts`; by hand, not in CI).

``--quick`` is a smoke run on 60 sentences × 3 references × 5 systems. (Not named
``queue.py``: a script's folder comes first on ``sys.path``, and the standard library's
``queue``, which Django and psycopg import, would be this file.)
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: bench/metrics.py must not hide the metrics package

from bench.common import (  # noqa: E402
    Budget,
    Verdicts,
    add_check_option,
    ensure_postgres,
    job_rows,
    manage,
    pg_admin,
    pg_fresh,
    production_env,
    run_measured,
    score_in_worker,
)

NAME = "bench-queue"


@dataclass(frozen=True)
class Size:
    sentences: int
    references: int
    systems: int
    pg_database: str

    @property
    def label(self) -> str:
        return (
            f"{self.sentences:,} sentences × {self.references} references × {self.systems} systems"
        )


FULL = Size(1002, 3, 20, "evaltool_bench_queue")
QUICK = Size(60, 3, 5, "evaltool_bench_queue_quick")
#: ``--pg-database``'s prefix: :func:`bench.common.pg_fresh` drops only such a database.
PG_PREFIX = "evaltool_bench"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def corpus_file(size: Size, folder: Path) -> tuple[Path, int]:
    """The evalTrans file of ``size`` (seed 1) and its number of ``<eval>``."""
    from bench.gen_corpus import generate_corpus

    path = folder / f"corpus-{size.sentences}x{size.references}x{size.systems}.xml"
    with path.open("wb") as out:
        evals = generate_corpus(
            out, sentences=size.sentences, references=size.references, systems=size.systems, seed=1
        )
    return path, evals


def measure(kind: str, size: Size, corpus: Path, workdir: Path, runs: int) -> dict[str, Any]:
    """Every figure of one database (see the module doc), in fresh processes."""
    env = production_env(workdir, database=f"queue-{kind}.sqlite3")
    if kind == "postgres":
        env["DATABASE_URL"] = pg_fresh(size.pg_database)
    else:
        env["DATABASE_URL"] = f"sqlite:///{workdir / f'queue-{kind}.sqlite3'}"
    title = "SQLite" if kind == "sqlite" else "PostgreSQL"
    out: dict[str, Any] = {"load_before": os.getloadavg()[0]}
    log(f"  {title}: migrate")
    out["migrate"] = run_measured(manage("migrate", "-v0"), env).seconds
    log(f"  {title}: Django's start-up (manage.py check)")
    checks = [run_measured(manage("check"), env) for _ in range(runs)]
    out["startup"] = _median_run(checks)

    log(f"  {title}: import (no worker running)")
    imported_at = time.time()
    run = run_measured(manage("import_evaltrans", str(corpus), "--name", NAME), env)
    out["import"] = {"seconds": run.seconds, "peak_mb": run.peak_mb, "cpu": run.cpu}
    queued = [j for j in job_rows(env["DATABASE_URL"], "statistics") if j["status"] == "queued"]
    out["import"]["queued_jobs"] = len(queued)

    log(f"  {title}: the queued scoring in a worker")
    scoring = score_in_worker(env)
    # the worker starts once the import has returned, as a lead's would find the job
    ended = max(j["finished"] for j in job_rows(env["DATABASE_URL"], "statistics"))
    scoring["import_to_done"] = ended - imported_at
    out["scoring"] = scoring

    log(f"  {title}: manage.py scores --json from the stored statistics")
    reads = [run_measured(manage("scores", NAME, "--json"), env) for _ in range(runs)]
    for read in reads:
        payload = json.loads(read.stdout)  # valid JSON, or this fails loudly
        if read.stderr.strip():
            raise SystemExit(f"scores --json waited or warned: {read.stderr[-500:]}")
    out["scores"] = {**_median_run(reads), "systems": len(payload.get("systems", payload))}
    out["load_after"] = os.getloadavg()[0]
    out["env"] = env
    return out


def _median_run(runs: list[Any]) -> dict[str, Any]:
    return {
        "seconds": statistics.median(r.seconds for r in runs),
        "all_seconds": [r.seconds for r in runs],
        "peak_mb": max(r.peak_mb for r in runs),
        "cpu": statistics.median(r.cpu for r in runs),
    }


IMPORT_BUDGETS = (Budget(3, "s"), Budget(150, "MB"))
SCORING_BUDGET = Budget(30, "s")
SCORES_BUDGET = Budget(2, "s")


def print_table(
    kind: str,
    size: Size,
    evals: int,
    mb: float,
    figures: dict[str, Any],
    verdicts: Verdicts,
    before: dict[str, Any] | None = None,
) -> None:
    """One database's table; each budgeted figure judged by ``verdicts``; ``before``
    (the same figures of an earlier run, ``--before``) printed beside them."""
    title = "SQLite" if kind == "sqlite" else "PostgreSQL"
    _print_header(title, size, evals, mb, figures, before)
    row = functools.partial(_row, title, figures, before, verdicts)
    row("Django start-up (manage.py check)", (), ("startup",))
    i = figures["import"]
    row(
        "import_evaltrans (scoring queued)",
        IMPORT_BUDGETS,
        ("import",),
        note=f"{i['queued_jobs']} scoring job queued",
    )
    j = figures["scoring"]
    row(
        "scoring in a worker: claim → done (the job's row)",
        (SCORING_BUDGET,),
        ("scoring",),
        wall_key="claim_to_done",
        cpu_key="-",
        peak_key="-",
        note=f"{j['jobs']} job, {j['attempts']} claim",
    )
    row(
        "scoring in a worker: worker start → done",
        (),
        ("scoring",),
        wall_key="start_to_done",
        cpu_key="worker_cpu",
        peak_key="worker_peak_mb",
        note=f"claimed {j['start_to_claim']:.2f} s after the worker's start",
    )
    row(
        "import start → figures stored",
        (),
        ("scoring",),
        wall_key="import_to_done",
        cpu_key="-",
        peak_key="-",
    )
    r = figures["scores"]
    row(
        "scores NAME --json (stored statistics)",
        (SCORES_BUDGET,),
        ("scores",),
        note=f"{len(r['all_seconds'])} runs: " + ", ".join(f"{t:.2f}" for t in r["all_seconds"]),
    )


def _print_header(
    title: str, size: Size, evals: int, mb: float, figures: dict[str, Any], before: Any
) -> None:
    """The title and column heads of :func:`print_table`."""
    print()
    print(f"{title} — {size.label} ({evals:,} <eval>, {mb:.1f} MB)")
    print(
        f"load average {figures['load_before']:.2f} → {figures['load_after']:.2f} "
        f"on {os.cpu_count()} CPUs; wall: whole process (median of runs where several); "
        "CPU: user + system seconds"
        + ("; before: the same figures of the --before run (wall / CPU / peak)" if before else "")
    )
    header = f"{'measure':<52} {'budget':<16} {'wall':>8} {'CPU':>8} {'peak RSS':>9}  "
    header += f"{'before':<24} " if before else ""
    header += "note"
    print(header)
    print("-" * len(header))


def _row(
    title: str,
    figures: dict[str, Any],
    before: dict[str, Any] | None,
    verdicts: Verdicts,
    label: str,
    budgets: tuple[Budget, ...],
    path: tuple[str, ...],
    wall_key: str = "seconds",
    cpu_key: str = "cpu",
    peak_key: str = "peak_mb",
    note: str = "",
) -> None:
    """One measure's line of :func:`print_table`: its figures, the earlier run's, and
    whether it is over its budgets."""
    now, then = _at(figures, path), _at(before, path)
    wall, cpu, peak = (now.get(k) for k in (wall_key, cpu_key, peak_key))
    over = [
        verdicts.judge(f"{title}: {label}", peak if b.unit == "MB" else wall, b) for b in budgets
    ]
    budget = ", ".join(map(str, budgets))
    line = f"{label:<52} {budget:<16} {_fig(wall, 's'):>8} {_fig(cpu, 's'):>8} "
    line += f"{_fig(peak, 'MB'):>9}  "
    if before:
        was = " / ".join(
            _fig(then.get(k), u) for k, u in ((wall_key, "s"), (cpu_key, "s"), (peak_key, "MB"))
        )
        line += f"{was:<24} "
    print(line + "  ".join(filter(None, ["OVER" if "OVER" in over else "", note])))


def _at(figures: dict[str, Any] | None, path: tuple[str, ...]) -> dict[str, Any]:
    for key in path:
        figures = (figures or {}).get(key)
    return figures or {}


def _fig(value: float | None, unit: str) -> str:
    if value is None:
        return "–"
    return f"{value:.0f} MB" if unit == "MB" else f"{value:.2f} s"


def profile(env: dict[str, str]) -> None:
    """Score the corpus again in a fresh process, the handler called directly under a
    profiler; its report on standard output."""
    import subprocess

    subprocess.run([sys.executable, __file__, "--profile-here"], env=env, cwd=ROOT, check=True)


def profile_here() -> None:
    """In this process: the corpus's stored statistics deleted (else the handler takes
    every metric from them: equal signatures), a job row of the default choice's scoring
    (no task: no worker takes it) and its handler called under a profiler, storing
    nothing. The last step of a run: the database is dropped after it."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()
    from annotation.jobs import Job
    from annotation.models import Corpus, CorpusStatistics
    from annotation.statistics.jobs import SCORING, score_choice
    from metrics.tokenize import Preprocessor

    corpus = Corpus.objects.get(name=NAME)
    CorpusStatistics.objects.filter(corpus=corpus).delete()
    pp = Preprocessor()
    job = Job.objects.create(
        kind=SCORING,
        key=f"bench-profile:{time.time()}",
        label="profile",
        corpus=corpus,
        payload={
            "tokenize": pp.tokenize,
            "lowercase": pp.lowercase,
            "sentence_boundaries": pp.sentence_boundaries,
            "ref_length": "nearest",
            "texts_stamp": corpus.texts_stamp,
        },
        status=Job.Status.RUNNING,
    )

    def progress(done: int, total: int, phase: str = "") -> None:
        pass

    try:
        from pyinstrument import Profiler
    except ImportError:
        Profiler = None  # noqa: N806
    start, cpu = time.perf_counter(), time.process_time()
    if Profiler is not None:
        profiler = Profiler(interval=0.005)
        profiler.start()
        score_choice(job, progress)
        profiler.stop()
        report = profiler.output_text(unicode=True, color=False)
    else:
        import cProfile
        import io
        import pstats

        with cProfile.Profile() as prof:
            score_choice(job, progress)
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(40)
        report = text.getvalue()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    job.delete()
    print(f"\nscore_choice under the profiler: {seconds:.1f} s wall, {cpu:.1f} s CPU")
    print(report)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--quick", action="store_true", help="a small corpus: a smoke run")
    parser.add_argument("--runs", type=int, default=3, help="whole processes per read figure")
    parser.add_argument("--profile", action="store_true", help="then profile score_choice")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    parser.add_argument(
        "--before",
        type=Path,
        metavar="FILE",
        help="an earlier run's --json: its figures printed beside these",
    )
    parser.add_argument(
        "--pg-database",
        metavar="NAME",
        help=f"the PostgreSQL database of this run (its name starts with {PG_PREFIX}; "
        "default: the size's own): runs on one server side by side need one each",
    )
    add_check_option(parser)
    parser.add_argument("--profile-here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profile_here:
        profile_here()
        return
    size = QUICK if args.quick else FULL
    if args.pg_database:
        if not args.pg_database.startswith(PG_PREFIX):
            parser.error(f"--pg-database must start with {PG_PREFIX}")
        size = replace(size, pg_database=args.pg_database)
    before = json.loads(args.before.read_text()) if args.before else {}
    kinds = ("sqlite", "postgres") if args.db == "both" else (args.db,)
    if "postgres" in kinds:
        ensure_postgres()
    results: dict[str, Any] = {}
    verdicts = Verdicts()
    with tempfile.TemporaryDirectory(prefix="evaltool-bench-queue-") as tmp:
        workdir = Path(tmp)
        corpus, evals = corpus_file(size, workdir)
        mb = corpus.stat().st_size / 1e6
        try:
            for kind in kinds:
                figures = measure(kind, size, corpus, workdir, args.runs)
                print_table(kind, size, evals, mb, figures, verdicts, before.get(kind))
                sys.stdout.flush()
                if args.profile:
                    log(f"  {kind}: profiling score_choice in-process")
                    profile(figures["env"])
                results[kind] = {k: v for k, v in figures.items() if k != "env"}
        finally:
            if "postgres" in kinds:
                pg_admin(f'DROP DATABASE IF EXISTS "{size.pg_database}" WITH (FORCE)')
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    verdicts.finish(args.check)


if __name__ == "__main__":
    main()
