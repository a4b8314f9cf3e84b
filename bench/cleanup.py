"""A lead's clean-up at real size: ``python bench/cleanup.py [--sentences N] [--judged N]``.

Generates a corpus (``bench/gen_corpus.py``: 1,002 sentences × 3 references × 20 systems
by default), imports it, gives it judgments through the judging services
(``bench/gen_judgments.py``: three judges a candidate over the first ``--judged``
sentences), then times, each in a fresh process with ``DEBUG`` off: leaving a judge out
of the figures and counting them again, archiving and restoring, setting a judge aside
and discarding their judgments, and deleting the whole corpus (``manage.py
delete_corpus --yes``, the page does the same). SQLite in a temp dir, or the database
``DATABASE_URL`` names. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT, production_env, run_json  # noqa: E402

CORPUS = "cleanup"


def step(what: str) -> dict[str, float]:
    """Run in a fresh process: one clean-up action, timed (the last line is its JSON)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()
    from annotation.campaigns.judges import (
        corpus_discard_judgments,
        corpus_leave_out_judge,
        corpus_set_aside_judge,
    )
    from annotation.corpora.removal import corpus_delete, corpus_set_archived
    from annotation.models import Corpus, Judgment

    corpus = Corpus.objects.get(name=CORPUS)
    judge = Judgment.objects.of_corpus(corpus.pk).order_by("pk").first().evaluator
    start = time.perf_counter()
    if what == "leave-out":
        corpus_leave_out_judge(corpus=corpus, judge=judge, left_out=True)
        corpus_leave_out_judge(corpus=corpus, judge=judge, left_out=False)
    elif what == "archive":
        corpus_set_archived(corpus=corpus, archived=True)
        corpus_set_archived(corpus=corpus, archived=False)
    elif what == "discard":
        corpus_set_aside_judge(corpus=corpus, judge=judge)
        n = corpus_discard_judgments(corpus=corpus, judge=judge, typed=judge.username)
        return {"seconds": time.perf_counter() - start, "judgments": n}
    elif what == "delete":
        corpus_delete(corpus=corpus)
    return {"seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=1002)
    parser.add_argument("--judged", type=int, default=100, help="sentences judged (3 judges)")
    parser.add_argument("--step", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        import json

        print(json.dumps(step(args.step)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        env = production_env(workdir)
        corpus_file = workdir / "corpus.xml"
        python = sys.executable

        def run(*command: str) -> None:
            subprocess.run([python, *command], env=env, cwd=ROOT, check=True, capture_output=True)

        run("bench/gen_corpus.py", str(corpus_file), "-n", str(args.sentences))
        run("manage.py", "migrate", "--noinput")
        run("manage.py", "import_evaltrans", str(corpus_file), "--name", CORPUS)
        judged = ("--corpus", CORPUS, "--sentences", str(args.judged))
        run("bench/gen_judgments.py", *judged)
        print(f"corpus: {args.sentences} sentences × 3 references × 20 systems, ", end="")
        print(f"{args.judged} sentences judged by 3 judges a candidate")
        for what in ("leave-out", "archive", "discard", "delete"):
            figures = run_json("bench/cleanup.py", "--step", what, env=env)
            extra = f" ({figures['judgments']:.0f} judgments)" if "judgments" in figures else ""
            print(f"  {what:<10} {figures['seconds']:7.2f} s{extra}")


if __name__ == "__main__":
    main()
