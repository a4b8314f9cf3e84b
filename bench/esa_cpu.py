"""CPU of one action of the ESA / MQM page, per kind and protocol, on a corpus of real
size: ``python bench/esa_cpu.py`` (prints, never asserts).

What it shows: how much of a core each action of the page where judges mark error spans
costs the server (``bench/judge_cpu.py`` does the same for the aWER page, and says why a
CPU figure rather than a wall-clock one: on a shared machine the latter moves with the
load, this one does not). The actions are the page's, sent as htmx sends them: *open*
(the corpus's next candidate, its redirect followed: the full page; on an
``esa_prefill`` corpus the first open writes the suggestions), *mark* (mark a word's
span minor), *severity* (make that span major: ``change-span``), *remove* (remove a
span by its own button), *undo*, *score* (ESA's 0–100; MQM has none) and *accept*
(accept & next: the next candidate's fragment, which is created, and pre-filled, on the
way). Per candidate a judge opens it, marks two words, makes the first major, removes
the second, undoes that, scores it (ESA) and accepts it.

Set-up: one corpus per protocol (``esa``, ``esa_prefill``, ``mqm``) from
``bench/gen_corpus.py`` at its real size (1,000 sentences × 3 references × 20 systems
by default), imported with ``import_evaltrans --protocol``, its figures stored, with
``--judges`` judges each; and, unless ``--judged 0``, a judge who has already judged
every candidate of each corpus (a score and one span each: 20,000 judgments a corpus),
so the tables hold what a campaign's do. Built in ``--dir`` with SQLite (reused when it
is there: ``--fresh`` builds it again; each run works on a copy, so every run starts
from the same state). The requests go through Django's test client in this process
(``DEBUG`` off), each action's CPU time read from the thread's clock
(``time.thread_time``), with its query count. ``--profile KIND`` prints a profile of
that kind's actions (``cProfile``, by cumulative time).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import production_env  # noqa: E402
from bench.judge_cpu import page_after_redirects, print_cpu_table  # noqa: E402
from bench.load import judgment_and_version  # noqa: E402

PROTOCOLS = ("esa", "esa_prefill", "mqm")
PASSWORD = "esa-cpu-pw"
KINDS = ("open", "mark", "severity", "remove", "undo", "score", "accept")
WORD = re.compile(r'data-start="(\d+)" data-end="(\d+)" data-word="\d+"')
SPAN = re.compile(r'data-span="([^"]*)"')
CATEGORY = "Accuracy/Mistranslation"

#: Every candidate of each corpus judged by one more judge (``--judged``): a score, and
#: a span over the candidate's first character.
FILL = """
from annotation.models import Corpus, Judgment, Span, Target, User
judge = User.objects.create_user("esa-cpu-filler", password="x")
for corpus in Corpus.objects.all():
    corpus.judges.add(judge)
    targets = Target.objects.filter(sentence__corpus=corpus, translator__role="system")
    rows = Judgment.objects.bulk_create(
        Judgment(target=t, evaluator=judge, esa_score=60, state=Judgment.State.DONE)
        for t in targets.order_by("pk")[:LIMIT]
    )
    category = "" if corpus.span_taxonomy is None else "CATEGORY"
    Span.objects.bulk_create(
        Span(judgment=j, start=0, end=1, severity="minor", category=category) for j in rows
    )
"""


def corpus_name(protocol: str) -> str:
    return f"cpu-{protocol}"


def build(env: dict[str, str], workdir: Path, args: argparse.Namespace) -> None:
    """The corpus generated, imported once per protocol and scored, the judges, the
    judgments already made (module doc)."""
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
    for protocol in PROTOCOLS:
        name = corpus_name(protocol)
        manage("import_evaltrans", str(path), "--name", name, "--protocol", protocol, "--wait")
        manage("figures", name, "--on")
        for k in range(args.judges):
            manage("add_user", f"{name}-{k + 1}", "--password", PASSWORD, "--role", "judge",
                   "--corpus", name)  # fmt: skip
    if args.judged:
        fill = FILL.replace("LIMIT", str(args.judged)).replace("CATEGORY", CATEGORY)
        manage("shell", "-c", fill)


class SpanJudge:
    """One judge's ESA / MQM page, driven through the test client (module doc)."""

    def __init__(self, client: Any, corpus_pk: int, mqm: bool) -> None:
        self.client = client
        self.corpus_pk = corpus_pk
        self.mqm = mqm
        self.page = ""
        self.judgment: int | None = None
        self.version = 0
        self.todo: list[str] = []

    def show(self, page: str) -> None:
        self.page = page
        self.judgment, self.version = judgment_and_version(page)
        self.todo = ["mark", "mark", "severity", "remove", "undo"]
        self.todo += [] if self.mqm else ["score"]
        self.todo.append("accept")
        self.marked = 0

    def update(self, page: str) -> None:
        self.page = page
        self.judgment, self.version = judgment_and_version(page)

    def get(self, path: str) -> str:
        return page_after_redirects(self.client, path)

    def post(self, action: str, data: dict[str, str]) -> str:
        path = f"/judgments/{self.judgment}/{action}/"
        sent = {"version": str(self.version), **data}
        response = self.client.post(path, sent, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, (path, response.status_code, data)
        return response.content.decode()

    def next_kind(self) -> str:
        return "open" if self.judgment is None or not self.todo else self.todo[0]

    def act(self, kind: str) -> None:
        if kind == "open":
            self.show(self.get(f"/corpora/{self.corpus_pk}/judge/"))
            return
        if kind == "accept":
            self.show(self.post("accept", {}))
            return
        self.todo.remove(kind)
        category = CATEGORY if self.mqm else ""
        if kind == "mark":
            words = WORD.findall(self.page)
            start, end = words[min(2 * self.marked + 1, len(words) - 1)]
            self.marked += 1
            data = {"start": start, "end": end, "severity": "minor", "category": category}
            self.update(self.post("mark-span", data))
        elif kind == "severity":
            token = SPAN.findall(self.page)[0]
            start, end, _, _, category = token.split(":", 4)
            data = {"span": token, "start": start, "end": end, "severity": "major"}
            self.update(self.post("change-span", {**data, "category": category}))
        elif kind == "remove":
            self.update(self.post("remove-span", {"span": SPAN.findall(self.page)[-1]}))
        elif kind == "undo":
            self.update(self.post("undo", {}))
        else:
            self.update(self.post("esa-score", {"score": "70"}))


def measure(args: argparse.Namespace, protocol: str) -> dict[str, list[tuple[float, int]]]:
    """(CPU seconds, queries) of every action on ``protocol``'s corpus, per kind: each
    judge first warms up (``--warm-up`` actions), then ``--actions`` actions are
    measured, spread over the judges in turn."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from annotation.models import Corpus

    name = corpus_name(protocol)
    corpus_pk = Corpus.objects.get(name=name).pk
    users = get_user_model().objects.filter(username__startswith=f"{name}-").order_by("pk")
    judges = []
    for user in users[: args.judges]:
        client = Client()
        client.force_login(user)
        judges.append(SpanJudge(client, corpus_pk, protocol == "mqm"))
    for judge in judges:
        for _ in range(args.warm_up):
            judge.act(judge.next_kind())
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    found: dict[str, list[tuple[float, int]]] = defaultdict(list)
    plan = [("", judges[n % len(judges)]) for n in range(args.actions)]
    plan += [("open", judges[n % len(judges)]) for n in range(args.opens)]
    for wanted, judge in plan:
        kind = wanted or judge.next_kind()
        profiling = profiler is not None and kind == args.profile
        with CaptureQueriesContext(connection) as queries:
            if profiling:
                profiler.enable()
            start = time.thread_time()
            judge.act(kind)
            cpu = time.thread_time() - start
            if profiling:
                profiler.disable()
        found[kind].append((cpu, len(queries.captured_queries)))
    if profiler is not None:
        import pstats

        out = Path(args.dir) / f"profile-{protocol}-{args.profile}.pstats"
        profiler.dump_stats(out)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile_lines)
        print(f"profile written to {out}")
    return found


def report(protocol: str, found: dict[str, list[tuple[float, int]]]) -> None:
    print(f"  {protocol}")
    print_cpu_table(found, KINDS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=str(ROOT / "bench" / "out" / "esa_cpu"))
    parser.add_argument("--fresh", action="store_true", help="build the corpora again")
    parser.add_argument("--protocols", default=",".join(PROTOCOLS))
    parser.add_argument("--judges", type=int, default=3)
    parser.add_argument("--judged", type=int, default=20000, help="judgments made already")
    parser.add_argument("--warm-up", type=int, default=10, help="actions per judge, unmeasured")
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--opens", type=int, default=30, help="then, opens of the page")
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--references", type=int, default=3)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--profile", choices=KINDS, help="profile this kind of action")
    parser.add_argument("--profile-lines", type=int, default=60, help="functions printed")
    args = parser.parse_args()
    workdir = Path(args.dir)
    workdir.mkdir(parents=True, exist_ok=True)
    size = f"{args.sentences}x{args.references}x{args.systems}-{args.judged}"
    built = workdir / f"built-{size}.sqlite3"
    if args.fresh or not built.exists():
        built.unlink(missing_ok=True)
        build(production_env(workdir, built.name), workdir, args)
    run = workdir / "run.sqlite3"
    shutil.copyfile(built, run)
    os.environ["DATABASE_URL"] = f"sqlite:///{run}"
    os.environ.update(production_env(workdir, run.name))
    load = os.getloadavg()
    results = {p: measure(args, p) for p in args.protocols.split(",")}
    print(
        f"\nsqlite: corpus {args.sentences} × {args.references} × {args.systems} a protocol, "
        f"{args.judged} judged already; {args.judges} judges, {args.actions} actions measured "
        f"(load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})"
    )
    for protocol, found in results.items():
        report(protocol, found)


if __name__ == "__main__":
    main()
