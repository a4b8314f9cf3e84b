"""Dashboard speed: ``python bench/dashboard.py [--check]`` (for ``make bench``).

Targets (dashboard issue): on 1,000 sentences × 20 systems × 3 references, the first view
of the dashboard under 2 s, later views under 0.5 s, and the paired bootstrap of all 20
systems on all nine metrics under 2 s. ``--check`` exits 1 when a figure misses its
target (:class:`bench.common.Verdicts`; by hand, not in CI).

The corpus comes from ``bench/gen_corpus.py`` (30 % of the system outputs judged) and is
imported in a fresh process into a fresh SQLite database, as ``bench/import.py`` does;
the default choice's scoring the import queued is then computed by a real ``manage.py
worker --batch`` process (its time is printed). Each measurement then runs in a fresh
process with ``DEBUG`` off, through Django's test client as a logged-in lead, so a figure
is the whole request: URL routing, the queries, the statistics, the bootstrap, the charts
and the template.

* **first view**: a fresh process right after the import and its job (the worker stored
  the default choice's statistics; the human figures are computed, the shared store
  emptied first); best of ``--cold-runs`` fresh processes;
* **later view, same process**: what a running server answers from then on;
* **later view, new process**: a restarted server (or another worker): nothing in its
  memory yet, the figures of the view before in the shared store
  (:mod:`annotation.statistics.shared`; best of ``--repeat`` processes);
* **after a judgment**: a fresh process finishes one judgment through the judge's
  services and views the dashboard (it computes the figures of the judgments), then
  another fresh process views it (another app server, or another worker of the same:
  it reads them from the shared store, a table of the database unless ``CACHE_URL``
  names a Redis), best of ``--repeat`` rounds; with what the shared store holds then;
* **bootstrap**: the nine metrics' paired bootstrap (1,000 samples), computed (not read
  from the cache), alone;
* **meta-evaluation**, computed alone, without (``meta_plain``) and with
  (``meta_intervals``) the system-level intervals' bootstrap over sentences, and as after
  a judgment (``meta_after_judgment``: one judgment's score changed, its automatic side,
  which depends on the stored statistics alone, and its sentence-level points with their
  τ-b counts kept from an earlier view);
* **drill-down** and **CSV download**: one system's sentence page, the table as CSV.

Each process imports the URLconf (every view module) before it starts the clock, as a
server does once at its first request whatever the page. Best of ``--repeat`` runs for
the warm figures. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    Verdicts,
    add_check_option,
    manage,
    production_env,
    run_asked_mode,
    run_json,
    run_measured,
)


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()


def import_once(path: Path) -> dict[str, float]:
    """In this (fresh) process: migrate, import the corpus, create the lead."""
    _setup()
    from django.core.management import call_command

    from annotation.corpora.imports import corpus_import
    from annotation.models import User

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    summary = corpus_import(source=path, name="bench")
    seconds = time.perf_counter() - start
    User.objects.create_user("bench-lead", password="bench-lead-pw", role=User.Role.LEAD)
    summary.corpus.judges.add(User.objects.create_user("bench-judge", role=User.Role.JUDGE))
    return {"import_seconds": seconds, "judgments": summary.judgments}


def _timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


def _load_urls() -> None:
    """Import the URLconf (and so every view module) as a server does at its first
    request, whatever the page: not part of any one view's time."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018


def view_once(repeat: int) -> dict[str, float]:
    """In this (fresh) process: time the dashboard's requests (see the module doc)."""
    _setup()
    _load_urls()
    from django.test import Client

    from annotation.statistics import forget

    forget()  # nothing computed by an earlier process either

    from annotation.dashboard.inputs import DashboardInputs
    from annotation.dashboard.parts import Parts, Pending
    from annotation.dashboard.sources import bootstrap as drawn
    from annotation.dashboard.sources import judgments, metrics, original_statistics, systems
    from annotation.dashboard.table import human_significance
    from annotation.models import Corpus, Translator, User
    from annotation.statistics.compute import automatic_significance

    corpus = Corpus.objects.get(name="bench")
    system = Translator.objects.filter(corpus=corpus, role=Translator.Role.SYSTEM).first()
    assert system is not None
    client = Client()
    client.force_login(User.objects.get(username="bench-lead"))
    page = f"/dashboard/{corpus.pk}/"

    def get(url: str) -> None:
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")

    out: dict[str, float] = {"first_view": _timed(lambda: get(page))}
    out["later_view"] = min(_timed(lambda: get(page)) for _ in range(repeat))

    def bootstrap() -> None:
        # computed, not read from the cache: a fresh index matrix, all nine metrics
        dash = Parts(DashboardInputs(corpus))
        # statistics from the cache, and the judgments: not part of the bootstrap
        auto, rows = dash.get(original_statistics), dash.get(judgments)
        assert not isinstance(auto, Pending), auto.jobs
        start = time.perf_counter()
        matrix = dash.get(drawn)
        assert matrix is not None
        automatic_significance(auto.scores, dash.get(metrics), matrix)
        human_significance(rows, dash.get(systems), auto.n_segments, matrix)
        times.append(time.perf_counter() - start)

    times: list[float] = []
    for _ in range(repeat):
        bootstrap()
    out["bootstrap"] = min(times)
    out["meta_plain"], out["meta_intervals"], out["meta_after_judgment"] = meta_times(
        corpus, repeat
    )
    out["drill_down"] = min(
        _timed(lambda: get(f"/dashboard/{corpus.pk}/system/{system.pk}/?metric=bleu"))
        for _ in range(repeat)
    )
    out["csv"] = min(_timed(lambda: get(f"{page}table.csv")) for _ in range(repeat))
    return out


def meta_times(corpus: object, repeat: int) -> tuple[float, float, float]:
    """The meta-evaluation computed (not read from the cache) without and with its
    system-level intervals (the bootstrap over sentences), and with them as after a
    judgment (one judgment's score changed; the automatic side and the sentence-level
    points with their τ-b counts kept from the view before): best of ``repeat`` each."""
    from annotation.dashboard.figures import human
    from annotation.dashboard.inputs import DashboardInputs
    from annotation.dashboard.meta import meta_evaluation, metric_sides
    from annotation.dashboard.meta_human import human_side
    from annotation.dashboard.meta_sentence import SentencePoints, sentence_level
    from annotation.dashboard.parts import Parts, Pending
    from annotation.dashboard.sources import bootstrap as drawn
    from annotation.dashboard.sources import judgments, metrics, original_statistics

    dash = Parts(DashboardInputs(corpus))  # type: ignore[arg-type]
    # the inputs, not measured
    auto, rows, figures = dash.get(original_statistics), dash.get(judgments), dash.get(human)
    assert not isinstance(auto, Pending), auto.jobs
    matrix, configured = dash.get(drawn), dash.get(metrics)
    kept = metric_sides(auto, configured, matrix)
    before = sentence_level(auto, configured, human_side(rows, figures, normalize=False)).points
    changed = list(rows)  # one judgment's score changed since
    first = next(i for i, r in enumerate(rows) if r.sser is not None)
    changed[first] = rows[first]._replace(sser=(rows[first].sser or 0) % 10 + 1)

    def meta(
        bootstrap: object,
        sides: object = None,
        judged: object = rows,
        points: dict[str, SentencePoints] | None = None,
    ) -> None:
        side = human_side(judged, figures, normalize=False, bootstrap=bootstrap)  # type: ignore[arg-type]
        meta_evaluation(
            auto,
            configured,
            side,
            normalize=False,
            bootstrap=bootstrap,  # type: ignore[arg-type]
            metric_sides=sides,  # type: ignore[arg-type]
            sentence=None
            if points is None
            else sentence_level(auto, configured, side, before=points),
        )

    plain = min(_timed(lambda: meta(None)) for _ in range(repeat))
    sampled = min(_timed(lambda: meta(matrix)) for _ in range(repeat))
    after_judgment = min(_timed(lambda: meta(matrix, kept, changed, before)) for _ in range(repeat))
    return plain, sampled, after_judgment


def later_view_new_process() -> dict[str, float]:
    """In this (fresh) process, with the file cache already filled: one page view."""
    _setup()
    _load_urls()
    from django.test import Client

    from annotation.models import Corpus, User

    corpus = Corpus.objects.get(name="bench")
    client = Client()
    client.force_login(User.objects.get(username="bench-lead"))
    return {
        "later_view_new_process": _timed(lambda: client.get(f"/dashboard/{corpus.pk}/")),
    }


def judge_and_view() -> dict[str, float]:
    """In this (fresh) process: one more judgment finished through the judge's services,
    then one page view (it computes the figures of the judgments), and what the shared
    store holds then where it is the database's table."""
    _setup()
    _load_urls()
    from django.db import DatabaseError, connection
    from django.test import Client

    from annotation.judging import changes, start
    from annotation.models import Corpus, User

    corpus = Corpus.objects.get(name="bench")
    judge = User.objects.get(username="bench-judge")
    judgment = start.next_judgment_for(user=judge, corpus=corpus)
    assert judgment is not None
    changes.judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=7)
    changes.judgment_finish(judgment=judgment, user=judge, version=judgment.version)
    client = Client()
    client.force_login(User.objects.get(username="bench-lead"))
    out = {"after_judgment": _timed(lambda: client.get(f"/dashboard/{corpus.pk}/"))}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*), SUM(LENGTH(value)) FROM evaltool_cache")
            entries, size = cursor.fetchone()
        out.update(store_entries=entries, store_mb=(size or 0) / 2**20)
    except DatabaseError:  # no such table: the figures are not shared (or are in Redis)
        pass
    return out


def run(mode: str, *args: str, env: dict[str, str]) -> dict[str, float]:
    return run_json(__file__, mode, *args, env=env)


def measure(args: argparse.Namespace, env: dict[str, str]) -> dict[str, float]:
    """Every figure of the module doc, each in fresh processes on the imported corpus."""
    # the first view, in fresh processes: best of a few runs
    # (this is the figure a busy machine disturbs most)
    colds = [run("--view", "--repeat", "1", env=env)["first_view"] for _ in range(args.cold_runs)]
    figures = run("--view", "--repeat", str(args.repeat), env=env)
    figures["first_view"] = min(colds + [figures["first_view"]])
    again = [run("--view-again", env=env) for _ in range(args.repeat)]
    figures["later_view_new_process"] = min(a["later_view_new_process"] for a in again)
    rounds = [
        (run("--judge-view", env=env), run("--view-again", env=env)) for _ in range(args.repeat)
    ]
    figures["after_judgment"] = min(judged["after_judgment"] for judged, _ in rounds)
    figures["after_judgment_other"] = min(o["later_view_new_process"] for _, o in rounds)
    judged = rounds[-1][0]
    if "store_entries" in judged:
        print(
            f"the shared store (the database's table) after a judgment: "
            f"{judged['store_entries']} values, {judged['store_mb']:.1f} MB"
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--import-one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--view", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--view-again", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--judge-view", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--references", type=int, default=3)
    parser.add_argument("--judged", type=float, default=0.3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--cold-runs", type=int, default=3, help="fresh processes for the first view"
    )
    add_check_option(parser)
    args = parser.parse_args()
    modes = {
        "import_one": lambda: import_once(args.import_one),
        "view": lambda: view_once(args.repeat),
        "view_again": later_view_new_process,
        "judge_view": judge_and_view,
    }
    if run_asked_mode(args, modes):
        return

    from bench.gen_corpus import generate_corpus

    with tempfile.TemporaryDirectory(prefix="evaltool-bench-dash-") as tmp:
        workdir = Path(tmp)
        path = workdir / "corpus.xml"
        with path.open("wb") as out:
            generate_corpus(
                out,
                sentences=args.sentences,
                references=args.references,
                systems=args.systems,
                judged=args.judged,
            )
        env = production_env(workdir)
        imported = run("--import-one", str(path), env=env)
        scoring = run_measured(manage("worker", "--batch", "--interval", "0.1"), env)
        size = f"{args.sentences:,} sentences × {args.systems} systems × {args.references} refs"
        print(
            f"dashboard on {size}, {imported['judgments']:,} judgments; the import's scoring "
            f"in a worker process: {scoring.seconds:.1f} s ({scoring.cpu:.1f} s CPU)"
        )
        figures = measure(args, env)
        rows = [
            ("first view (fresh process)", figures["first_view"], "< 2 s"),
            ("later view, same process", figures["later_view"], "< 0.5 s"),
            ("later view, new process", figures["later_view_new_process"], "< 0.5 s"),
            ("after a judgment, judging process", figures["after_judgment"], ""),
            ("… then another fresh process", figures["after_judgment_other"], ""),
            ("bootstrap, 9 metrics × all systems", figures["bootstrap"], "< 2 s"),
            ("meta-evaluation, no intervals", figures["meta_plain"], ""),
            ("meta-evaluation with its intervals", figures["meta_intervals"], ""),
            (
                "… after a judgment (automatic side, τ counts kept)",
                figures["meta_after_judgment"],
                "",
            ),
            ("drill-down page (one system)", figures["drill_down"], ""),
            ("table as CSV", figures["csv"], ""),
        ]
        verdicts = Verdicts()
        for label, seconds, target in rows:
            over = verdicts.judge(label, seconds, target)
            print(f"{label:>36}  {seconds:>7.3f} s  {target}  {over}".rstrip())
    verdicts.finish(args.check)


if __name__ == "__main__":
    main()
