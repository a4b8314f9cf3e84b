"""CPU of one judge action, per kind, on a corpus of real size:
``python bench/judge_cpu.py`` (prints, never asserts).

What it shows: how much of a core each action of the judge's page costs the server, the
figure that bounds how many actions a second two cores can answer (``bench/load.py``
measures that with real servers; on a shared machine its wall-clock figures move with
the load, this one's do not). The actions are ``bench/load.py``'s, sent as htmx sends
them: *open* (the corpus's next candidate, its redirect followed: the full page), *op*
(accept one edit operation), *sser* (score SSER) and *accept* (accept & next: the next
candidate's fragment).

Set-up: a database with a corpus from ``bench/gen_corpus.py`` at its real size (1,000
sentences × 3 references × 20 systems by default), imported and scored, and ``--judges``
judges assigned to it, built in ``--dir`` (reused when it is there: ``--fresh`` builds it
again) with SQLite, or in the PostgreSQL database ``--pg-database`` (dropped and built
anew each run). Each run works on a copy of the SQLite file, so every run starts from the
same state. The requests go through Django's test client in this process (the full
request cycle: middleware, session, view, template), ``DEBUG`` off, each action's CPU
time read from the process's clock (``time.process_time``: every thread's, numpy's BLAS
threads' too, which the server pays for as much as for its own), with its query count.
``--profile KIND`` prints a profile of that kind's actions (``cProfile``, by cumulative
time) and writes it beside the database (``pstats``).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import PG_SERVER, pg_admin, production_env  # noqa: E402
from bench.load import judgment_and_version  # noqa: E402

CORPUS = "cpu"
PASSWORD = "cpu-pw"
KINDS = ("open", "op", "sser", "accept")
OP = re.compile(r'name="op" value="([a-z]+:\d+:\d+[^"]*)"')


def build(env: dict[str, str], workdir: Path, args: argparse.Namespace) -> None:
    """The corpus generated, imported and scored (as a worker scores it), the judges."""
    from bench.gen_corpus import generate_corpus

    path = workdir / "corpus.xml"
    with path.open("wb") as out:
        generate_corpus(
            out, sentences=args.sentences, references=args.references, systems=args.systems
        )

    def manage(*argv: str) -> None:
        command = [sys.executable, "manage.py", *argv]
        subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)

    manage("migrate", "--noinput")
    manage("import_evaltrans", str(path), "--name", CORPUS, "--wait")
    manage("figures", CORPUS, f"--{args.figures}")
    for k in range(args.judges):
        name = f"cpu-judge-{k + 1}"
        manage("add_user", name, "--password", PASSWORD, "--role", "judge", "--corpus", CORPUS)


class Judge:
    """One judge's page, driven through the test client as ``bench/load.py`` drives it."""

    def __init__(self, client: Any, corpus_pk: int) -> None:
        self.client = client
        self.corpus_pk = corpus_pk
        self.page = ""
        self.judgment: int | None = None
        self.version = 0
        self.sser: int | None = None

    def show(self, page: str) -> None:
        self.page = page
        self.judgment, self.version = judgment_and_version(page)

    def get(self, path: str) -> str:
        return page_after_redirects(self.client, path)

    def post(self, path: str, data: dict[str, str]) -> str:
        response = self.client.post(path, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, (path, response.status_code)
        return response.content.decode()

    def next_kind(self, rng: random.Random) -> str:
        if self.judgment is None:
            return "open"
        if OP.search(self.page) and rng.random() < 0.6 and self.sser is None:
            return "op"
        return "sser" if self.sser is None else "accept"

    def act(self, kind: str, rng: random.Random) -> None:
        pk, version = self.judgment, str(self.version)
        if kind == "open":
            self.show(self.get(f"/corpora/{self.corpus_pk}/judge/"))
            self.sser = None
        elif kind == "op":
            op = rng.choice(OP.findall(self.page))
            self.show(self.post(f"/judgments/{pk}/op/", {"op": op, "version": version}))
        elif kind == "sser":
            self.sser = rng.randint(0, 10)
            self.show(
                self.post(f"/judgments/{pk}/sser/", {"sser": str(self.sser), "version": version})
            )
        else:
            self.show(self.post(f"/judgments/{pk}/accept/", {"version": version}))
            self.sser = None


def page_after_redirects(client: Any, path: str) -> str:
    """The page at ``path`` through the test ``client``, its redirects followed (a 200)."""
    response = client.get(path)
    while response.status_code in (301, 302, 303):
        response = client.get(response["Location"])
    assert response.status_code == 200, (path, response.status_code)
    return str(response.content.decode())


def print_cpu_table(found: dict[str, list[tuple[float, int]]], kinds: Sequence[str]) -> None:
    """One line per kind of action: how many, the CPU's median, mean and 95th percentile
    in ms, and the queries' median (and most)."""
    width = max(len(kind) for kind in kinds) + 1
    print(f"  {'kind':<{width}}{'n':>3}   CPU median    mean     p95   queries (max)")
    for kind in kinds:
        rows = found.get(kind, [])
        if not rows:
            continue
        cpu = sorted(c for c, _ in rows)
        p95 = cpu[min(len(cpu) - 1, round(0.95 * (len(cpu) - 1)))]
        queries = [q for _, q in rows]
        print(
            f"  {kind:<{width}}{len(rows):>4}  {1000 * statistics.median(cpu):>8.1f} ms"
            f"  {1000 * statistics.fmean(cpu):>6.1f}  {1000 * p95:>6.1f}"
            f"   {statistics.median(queries):>4.0f} ({max(queries)})"
        )


def measure(args: argparse.Namespace) -> dict[str, list[tuple[float, int]]]:
    """(CPU seconds, queries) of every action, per kind: each judge first warms up (its
    first candidates: a server's process has then seen the corpus), then ``--actions``
    actions are measured, spread over the judges in turn."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from annotation.models import Corpus

    corpus_pk = Corpus.objects.get(name=CORPUS).pk
    users = get_user_model().objects.filter(username__startswith="cpu-judge-").order_by("pk")
    judges = []
    for user in users[: args.judges]:
        client = Client()
        client.force_login(user)
        judges.append(Judge(client, corpus_pk))
    rng = random.Random(1)
    for judge in judges:
        for _ in range(args.warm_up):
            judge.act(judge.next_kind(rng), rng)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    found: dict[str, list[tuple[float, int]]] = defaultdict(list)
    plan = [("", judges[n % len(judges)]) for n in range(args.actions)]
    plan += [("open", judges[n % len(judges)]) for n in range(args.opens)]
    for wanted, judge in plan:
        kind = wanted or judge.next_kind(rng)
        profiling = profiler is not None and kind == args.profile
        with CaptureQueriesContext(connection) as queries:
            if profiling:
                profiler.enable()
            start = time.process_time()
            judge.act(kind, rng)
            cpu = time.process_time() - start
            if profiling:
                profiler.disable()
        found[kind].append((cpu, len(queries.captured_queries)))
    if profiler is not None:
        import pstats

        out = Path(args.dir) / f"profile-{args.profile}.pstats"
        profiler.dump_stats(out)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile_lines)
        print(f"profile written to {out}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--dir", default=str(ROOT / "bench" / "out" / "judge_cpu"))
    parser.add_argument("--fresh", action="store_true", help="build the SQLite corpus again")
    parser.add_argument("--pg-database", default="evaltool_bench_judge_cpu")
    parser.add_argument("--judges", type=int, default=4)
    parser.add_argument("--warm-up", type=int, default=12, help="actions per judge, unmeasured")
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--opens", type=int, default=40, help="then, opens of the page")
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--references", type=int, default=3)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--figures", choices=["on", "off", "auto"], default="on")
    parser.add_argument("--profile", choices=KINDS, help="profile this kind of action")
    parser.add_argument("--profile-lines", type=int, default=60, help="functions printed")
    args = parser.parse_args()
    workdir = Path(args.dir)
    workdir.mkdir(parents=True, exist_ok=True)
    built = workdir / f"built-{args.sentences}x{args.references}x{args.systems}.sqlite3"
    if args.db == "postgres":
        pg_admin(f'DROP DATABASE IF EXISTS "{args.pg_database}" WITH (FORCE)')
        pg_admin(f'CREATE DATABASE "{args.pg_database}"')
        os.environ["DATABASE_URL"] = f"{PG_SERVER}/{args.pg_database}"
        env = production_env(workdir)
        build(env, workdir, args)
    else:
        if args.fresh or not built.exists():
            built.unlink(missing_ok=True)
            env = production_env(workdir, built.name)
            build(env, workdir, args)
        run = workdir / "run.sqlite3"
        shutil.copyfile(built, run)
        os.environ["DATABASE_URL"] = f"sqlite:///{run}"
        env = production_env(workdir, run.name)
    os.environ.update(env)
    os.environ["ALLOWED_HOSTS"] = "testserver"
    load = os.getloadavg()
    found = measure(args)
    print(
        f"\n{args.db}: corpus {args.sentences} × {args.references} × {args.systems}, "
        f"live figures {args.figures}; {args.judges} judges, {args.actions} actions measured "
        f"(load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})"
    )
    print_cpu_table(found, KINDS)


if __name__ == "__main__":
    main()
