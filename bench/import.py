"""Import speed and memory: ``python bench/import.py`` (``make bench``).

Budgets (task-queue issue): 1,002 sentences × 3 references × 20 systems (≈ 23,000
``<eval>``, ≈ 4.4 MB) imports in ≤ 3 s and ≤ 150 MB, the command as a whole process (its
start-up included), before scoring: the import stores the rows and *queues* the default
choice's scoring for a worker. (Before the queue the import scored too: 49.5 s, 337 MB.)
Ten times that imports with memory that does not grow with the file.

Each corpus is imported by ``manage.py import_evaltrans FILE --name N`` in a process of
its own, against a fresh database (SQLite in a temp dir, or ``DATABASE_URL`` if set — it
must then be a disposable database), under GNU time: wall clock, peak RSS, CPU seconds
(user + system: what a loaded machine does not stretch). 10 % of system outputs are
judged, so the aWER recomputation is part of the figure. Then a real ``manage.py
worker`` process is started and the queued scoring timed to its end: the job's own
claim-to-done (its row's ``started_at`` and ``finished_at``) and from the import's start
to the figures stored (for the corpora up to ``--worker-upto`` thousand sentences: 1 by
default, scoring ten times the corpus takes minutes). ``bench/taskqueue.py`` prints the
same budgets on SQLite and PostgreSQL, with ``manage.py scores --json``.

While the import runs, another process plays a judge: every 50 ms a one-row write in a
transaction of its own (as a click is), timed from its start to its commit. The longest
one says how long the import kept others waiting (the production issue: a long import on
SQLite must not lock judges out); any error is counted.

``--check`` exits 1 when a figure is past its budget (:class:`bench.common.Verdicts`; by
hand, not in CI).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    Budget,
    Verdicts,
    add_check_option,
    job_rows,
    manage,
    production_env,
    run_measured,
    score_in_worker,
)


def import_once(path: Path, name: str, env: dict[str, str], *, score: bool) -> dict[str, Any]:
    """Migrate (a process of its own), then import ``path`` as a whole process while a
    judge writes; then, if ``score``, the queued scoring in a worker."""
    run_measured(manage("migrate", "-v0"), env)
    writer = subprocess.Popen(
        [sys.executable, __file__, "--writer"], env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    started = time.time()
    try:
        run = run_measured(manage("import_evaltrans", str(path), "--name", name), env)
    finally:
        writer.send_signal(signal.SIGINT)
        writes = json.loads(writer.stdout.read())
        writer.wait()
    queued = [j for j in job_rows(env["DATABASE_URL"], "statistics") if j["status"] == "queued"]
    out: dict[str, Any] = {
        **writes,
        "seconds": run.seconds,
        "peak_rss_mb": run.peak_mb,
        "cpu": run.cpu,
        "queued": len(queued),
        "summary": run.stdout.strip().splitlines()[-1],
    }
    if score and queued:
        scoring = score_in_worker(env)
        finished = max(j["finished"] for j in job_rows(env["DATABASE_URL"], "statistics"))
        out["scoring"] = {**scoring, "import_to_done": finished - started}
    return out


def write_like_a_judge() -> dict[str, Any]:
    """In this process, until interrupted: a one-row write transaction every 50 ms, each
    timed; prints "ready" once set up, then (at the interrupt) its figures."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()
    from django.db import DatabaseError, transaction
    from django.utils import timezone

    from annotation.models import User

    judge, _ = User.objects.get_or_create(username="bench-writer")
    seconds: list[float] = []
    errors = 0
    print("ready", flush=True)
    try:
        while True:
            start = time.perf_counter()
            try:
                with transaction.atomic():
                    User.objects.filter(pk=judge.pk).update(last_login=timezone.now())
            except DatabaseError:
                errors += 1
            seconds.append(time.perf_counter() - start)
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
    return {
        "writes": len(seconds),
        "write_errors": errors,
        "write_p50_ms": 1000 * statistics.median(seconds) if seconds else 0.0,
        "write_max_ms": 1000 * max(seconds, default=0.0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writer", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--scales", default="1,10", help="multiples of 1,002 sentences (default 1,10)"
    )
    parser.add_argument(
        "--worker-upto",
        type=int,
        default=1,
        help="time the queued scoring in a worker up to this scale (default 1)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: one corpus of 60 × 3 refs × 5 systems"
    )
    add_check_option(parser)
    args = parser.parse_args()
    if args.writer:
        print(json.dumps(write_like_a_judge()))
        return

    from bench.gen_corpus import generate_corpus

    verdicts = Verdicts()
    with tempfile.TemporaryDirectory(prefix="evaltool-bench-") as tmp:
        workdir = Path(tmp)
        print(
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; the import is "
            "manage.py import_evaltrans as a whole process (start-up included); CPU: user + "
            "system seconds"
        )
        print(
            f"{'corpus':>26}  {'<eval>':>7}  {'MB':>5}  {'wall s':>7}  {'CPU s':>6}  "
            f"{'peak MB':>7}  {'judge write p50/max ms':>22}  {'errors':>6}  budget"
        )
        scored = []
        base, systems = (60, 5) if args.quick else (1002, 20)
        for scale in (1,) if args.quick else (int(s) for s in args.scales.split(",")):
            sentences = base * scale
            path = workdir / f"corpus-{scale}k.xml"
            with path.open("wb") as out:
                evals = generate_corpus(
                    out, sentences=sentences, references=3, systems=systems, judged=0.1
                )
            env = production_env(workdir, database=f"{path.stem}.sqlite3")
            figures = import_once(path, f"bench {path.stem}", env, score=scale <= args.worker_upto)
            budget = "≤ 3 s, ≤ 150 MB" if scale == 1 else "flat memory"
            over = ""
            if scale == 1:
                label = f"import of {sentences:,} sentences"
                over = verdicts.judge(label, figures["seconds"], Budget(3, "s"))
                over += verdicts.judge(label, figures["peak_rss_mb"], Budget(150, "MB"))
            print(
                f"{f'{sentences:,} × 3 refs × {systems} systems':>26}  {evals:>7,}  "
                f"{path.stat().st_size / 1e6:>5.1f}  {figures['seconds']:>7.2f}  "
                f"{figures['cpu']:>6.2f}  {figures['peak_rss_mb']:>7.0f}  "
                f"{figures['write_p50_ms']:>10.1f} / {figures['write_max_ms']:>9.1f}  "
                f"{figures['write_errors']:>6}  {budget}{'  OVER' if over else ''}",
                flush=True,
            )
            if "scoring" in figures:
                scored.append((sentences, figures["scoring"]))
        for sentences, job in scored:
            verdicts.judge(
                f"scoring of {sentences:,} sentences", job["claim_to_done"], Budget(30, "s")
            )
            print(
                f"{sentences:,} sentences, the queued scoring in a worker: claim → done "
                f"{job['claim_to_done']:.1f} s (budget ≤ 30 s); worker start → done "
                f"{job['start_to_done']:.1f} s ({job['worker_cpu']:.1f} s CPU, "
                f"{job['worker_peak_mb']:.0f} MB peak); import start → figures stored "
                f"{job['import_to_done']:.1f} s"
            )
    verdicts.finish(args.check)


if __name__ == "__main__":
    main()
