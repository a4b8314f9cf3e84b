"""Import speed and memory: ``python bench/import.py`` (``make bench``).

Targets (corpus issue): 1,000 sentences × 3 references × 20 systems (≈ 23,000 ``<eval>``,
≈ 5 MB) imports in under 5 s with peak memory under 300 MB; ten times that in under 60 s
with memory that does not grow with the file. Each import runs in a fresh process against
a fresh database (SQLite in a temp dir, or ``DATABASE_URL`` if set — it must then be a
disposable database), so peak RSS is the import's own. 10 % of system outputs are judged,
so the aWER recomputation is part of the figure.

While the import runs, a second process plays a judge: every 50 ms a one-row write in a
transaction of its own (as a click is), timed from its start to its commit. The longest
one says how long the import kept others waiting (the production issue: a long import on
SQLite must not lock judges out); any error is counted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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

from bench.common import production_env, run_json  # noqa: E402


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def import_once(path: Path) -> dict[str, float]:
    """In this (fresh) process: migrate, then time the import of one file."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from annotation.corpora.imports import corpus_import

    call_command("migrate", verbosity=0)
    writer = subprocess.Popen(
        [sys.executable, __file__, "--writer"], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
    before = _rss_mb()
    start = time.perf_counter()
    summary = corpus_import(source=path, name=f"bench {path.stem}")
    seconds = time.perf_counter() - start
    writer.send_signal(signal.SIGINT)
    writes = json.loads(writer.stdout.read())
    writer.wait()
    return {
        **writes,
        "seconds": seconds,
        "peak_rss_mb": _rss_mb(),
        "rss_before_mb": before,
        "sentences": summary.sentences,
        "judgments": summary.judgments,
    }


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


def run_in_fresh_process(path: Path, workdir: Path) -> dict[str, float]:
    env = production_env(workdir, database=path.stem + ".sqlite3")
    return run_json(__file__, "--one", str(path), env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--writer", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--scales", default="1,10", help="multiples of 1,000 sentences (default 1,10)"
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(import_once(args.one)))
        return
    if args.writer:
        print(json.dumps(write_like_a_judge()))
        return

    from bench.gen_corpus import generate_corpus

    with tempfile.TemporaryDirectory(prefix="evaltool-bench-") as tmp:
        workdir = Path(tmp)
        print(
            f"{'corpus':>26}  {'<eval>':>8}  {'MB':>6}  {'seconds':>8}  {'peak RSS MB':>11}  "
            f"{'judge write p50/max ms':>22}  {'errors':>6}  target"
        )
        for scale in (int(s) for s in args.scales.split(",")):
            path = workdir / f"corpus-{scale}k.xml"
            with path.open("wb") as out:
                evals = generate_corpus(
                    out, sentences=1000 * scale, references=3, systems=20, judged=0.1
                )
            figures = run_in_fresh_process(path, workdir)
            target = "< 5 s, < 300 MB" if scale == 1 else "< 60 s, flat memory"
            print(
                f"{f'{1000 * scale:,} × 3 refs × 20 systems':>26}  {evals:>8,}  "
                f"{path.stat().st_size / 1e6:>6.1f}  {figures['seconds']:>8.2f}  "
                f"{figures['peak_rss_mb']:>11.0f}  "
                f"{figures['write_p50_ms']:>10.1f} / {figures['write_max_ms']:>9.1f}  "
                f"{figures['write_errors']:>6}  {target}"
            )


if __name__ == "__main__":
    main()
