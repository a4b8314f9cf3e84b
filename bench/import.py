"""Import speed and memory: ``python bench/import.py`` (``make bench``).

Targets (corpus issue): 1,000 sentences × 3 references × 20 systems (≈ 23,000 ``<eval>``,
≈ 5 MB) imports in under 5 s with peak memory under 300 MB; ten times that in under 60 s
with memory that does not grow with the file. Each import runs in a fresh process against
a fresh database (SQLite in a temp dir, or ``DATABASE_URL`` if set — it must then be a
disposable database), so peak RSS is the import's own. 10 % of system outputs are judged,
so the aWER recomputation is part of the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

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
    before = _rss_mb()
    start = time.perf_counter()
    summary = corpus_import(source=path, name=f"bench {path.stem}")
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "peak_rss_mb": _rss_mb(),
        "rss_before_mb": before,
        "sentences": summary.sentences,
        "judgments": summary.judgments,
    }


def run_in_fresh_process(path: Path, workdir: Path) -> dict[str, float]:
    env = production_env(workdir, database=path.stem + ".sqlite3")
    return run_json(__file__, "--one", str(path), env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--scales", default="1,10", help="multiples of 1,000 sentences (default 1,10)"
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(import_once(args.one)))
        return

    from bench.gen_corpus import generate_corpus

    with tempfile.TemporaryDirectory(prefix="evaltool-bench-") as tmp:
        workdir = Path(tmp)
        print(
            f"{'corpus':>26}  {'<eval>':>8}  {'MB':>6}  {'seconds':>8}  {'peak RSS MB':>11}  target"
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
                f"{figures['peak_rss_mb']:>11.0f}  {target}"
            )


if __name__ == "__main__":
    main()
