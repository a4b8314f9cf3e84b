"""What grows with the number of judges: ``python bench/judges.py [--judges 200]``.

A real-size corpus (``--sentences`` 1,000 × ``--systems`` 20 × ``--references`` 3, the
texts of ``bench/gen_corpus.py``) judged by ``--judges`` judges: ``--judged`` of the
sentences (80 %) are dealt whole (every system) to one judge drawn at random, and
``--twice`` of those (15 %) to a second judge as well, as a campaign that splits the work
with an overlap deals them: about 18,400 judgments, each with a score (the judge's own
leniency added), a new reference and an active time. It is imported in a fresh process
into a fresh database (SQLite in a temporary directory unless ``DATABASE_URL`` names
one), and the import's scoring is computed by a ``manage.py worker --batch`` process, as
``bench/dashboard.py`` does.

Then, each in fresh processes with ``DEBUG`` off and the shared store emptied (a first
view: every figure computed), best of ``--repeat``, in CPU seconds of the serving
process:

* **dashboard, first view**: the whole page through Django's test client;
* **per panel, first view**: each panel's own URL (``panel/<name>/``, htmx), alone in a
  fresh process: the panel's figures (with the parts it shares with others) and its
  template;
* **judges panel, later view**: its figures remembered, what is left is its template;
* the judges' figures computed alone from the done judgments: each judge's figures
  (``judges_panel``), the agreement with its intervals (``agreement``), SSER raw and
  per-judge z with each judge's effect (``judge_aware_figures``), the effort panel
  (``effort``), the table's tests of the human metrics with SSER's clusters afresh
  (``human_tests_full``) and one judgment later with the rest kept
  (``human_tests_kept``; a checkout that keeps none computes them afresh again);
* **campaign page** (``/campaigns/<corpus>/``: every judge's progress, who judged what,
  each judge's effect, the power plan) first and later view, and the **judges page**
  (``/campaigns/``: every account), and the campaign's own page (``/campaigns/c/<pk>/``:
  its corpora, annotators and effort per protocol), first and later view;
* **dashboard after one more judgment**: a judgment finished through the judge's
  services, then the dashboard's next view, which computes every figure of the
  judgments again (each measuring process adds one judgment to the corpus).

``--scaling`` then prints what the per-judge figures cost against the number of judges,
the judgments fixed: the same rows with their judges relabelled onto 20, then the
corpus's own, then each judge's sentences split among up to five judges (about 600),
to show that none grows with judges² or judges × sentences (issue 39).

``--pages-only`` measures the pages alone; ``--before PATH`` measures another checkout
too (``PATH``'s code on the same database, e.g. the main branch's) and prints both
columns; ``--profile`` prints the first views' top functions (cProfile, by cumulative
time). Prints, never asserts.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _measured_code() -> None:
    """In a measuring process, the checkout named by ``--code`` first on the path (where
    the script's own directory would be: ``bench/metrics.py`` must not hide the
    ``metrics`` package)."""
    sys.path[:1] = [str(ROOT)]
    import bench.common  # noqa: F401 (this checkout's helpers, whatever the code measured)

    if "--code" in sys.argv:
        sys.path[:1] = [str(Path(sys.argv[sys.argv.index("--code") + 1]).resolve())]


_measured_code()

#: The judges' names: ``judge-001`` … (the import creates their accounts).
JUDGE_NAME = "judge-{:03d}"


def judged_sentences(
    sentences: Iterator[Any],
    *,
    judges: int,
    judged: float,
    twice: float,
    seed: int = 0,
) -> Iterator[Any]:
    """``sentences`` (:func:`bench.gen_corpus.iter_sentences`, none judged) with
    judgments: a ``judged`` share of them dealt whole to one of ``judges`` judges, a
    ``twice`` share of those to a second one too (see the module doc)."""
    from dataclasses import replace

    from annotation.corpora.evaltrans.timing import Timing
    from annotation.text import awer_counts

    rng = random.Random(f"judges:{seed}")
    names = [JUDGE_NAME.format(k + 1) for k in range(judges)]
    leniency = {name: rng.gauss(0.0, 1.0) for name in names}
    for sentence in sentences:
        if rng.random() >= judged:
            yield sentence
            continue
        dealt = rng.sample(names, 2 if rng.random() < twice and judges > 1 else 1)
        references = [e.target for e in sentence.evals if e.translator.endswith("reference")]
        evals = list(sentence.evals)
        outputs = [e for e in sentence.evals if not e.translator.endswith("reference")]
        for k, judge in enumerate(dealt):
            for ev in outputs:
                new_ref = rng.choice([*references, ev.target])
                edits, length = awer_counts(ev.target, new_ref, cache=False)
                rate = edits / length if length else 1.0
                noise = leniency[judge] + rng.gauss(0.0, 1.0)
                sser = min(10, max(0, round(10 * (1 - rate) + noise)))
                judgment = replace(
                    ev,
                    evaluator=judge,
                    sser=sser,
                    awer=(edits, length),
                    new_ref=new_ref,
                    timing=Timing(active_seconds=round(rng.uniform(8.0, 90.0), 2)),
                )
                if k == 0:  # the system's own <eval> carries the first judgment
                    evals[evals.index(ev)] = judgment
                else:
                    evals.append(judgment)
        yield replace(sentence, evals=tuple(evals))


def write_corpus(path: Path, args: argparse.Namespace) -> None:
    from annotation.corpora.evaltrans import CorpusHeader, write_evaltrans
    from bench.gen_corpus import iter_sentences

    sentences = iter_sentences(
        sentences=args.sentences, references=args.references, systems=args.systems
    )
    header = CorpusHeader(
        name=f"synthetic {args.sentences}x{args.references}x{args.systems}, {args.judges} judges",
        extra_attrs=(("generator", "bench/judges.py"),),
    )
    with path.open("wb") as out:
        write_evaltrans(
            out,
            header,
            judged_sentences(sentences, judges=args.judges, judged=args.judged, twice=args.twice),
        )


# ------------------------------------------------------------------ measuring processes


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (every view module, as a server's first request)


def _timed(fn: Callable[[], object]) -> float:
    """The CPU seconds of this process that ``fn`` takes (SQLite's work included): on a
    shared machine, far steadier than the wall clock, which counts other processes'
    turns."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def _client() -> Any:
    from django.test import Client

    from annotation.models import User

    client = Client()
    client.force_login(User.objects.get(username="bench-lead"))
    return client


def _get(client: Any, url: str, **headers: str) -> None:
    response = client.get(url, **headers)
    if response.status_code != 200:
        raise SystemExit(f"{url}: HTTP {response.status_code}")


def _corpus() -> Any:
    from annotation.models import Corpus

    return Corpus.objects.get(name="bench")


def measure_pages() -> dict[str, float]:
    """In this fresh process: the dashboard's and the campaign pages' first and later
    views, the shared store emptied first."""
    _setup()
    from annotation.statistics import forget

    corpus, client = _corpus(), _client()
    forget()
    page = f"/dashboard/{corpus.pk}/"
    out = {"dashboard_first": _timed(lambda: _get(client, page))}
    out["dashboard_later"] = _timed(lambda: _get(client, page))
    panel = f"{page}panel/judges/"
    out["judges_panel_later"] = _timed(lambda: _get(client, panel, HTTP_HX_REQUEST="true"))
    forget()
    campaign = f"/campaigns/{corpus.pk}/"
    out["campaign_first"] = _timed(lambda: _get(client, campaign))
    out["campaign_later"] = _timed(lambda: _get(client, campaign))
    whole = f"/campaigns/c/{corpus.campaign_id}/"
    out["whole_campaign_first"] = _timed(lambda: _get(client, whole))
    out["whole_campaign_later"] = _timed(lambda: _get(client, whole))
    out["judges_page"] = _timed(lambda: _get(client, "/campaigns/"))
    out["dashboard_after_judgment"] = _timed_after_judgment(client, page)
    return out


def _timed_after_judgment(client: Any, page: str) -> float:
    """One more judgment finished through the judge's services, then the dashboard's
    view that follows it (every figure of the judgments computed again), timed."""
    from annotation.judging import changes, start
    from annotation.models import User

    judge = User.objects.get(username="bench-judge")
    judgment = start.next_judgment_for(user=judge, corpus=_corpus())
    assert judgment is not None
    changes.judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=7)
    changes.judgment_finish(judgment=judgment, user=judge, version=judgment.version)
    return _timed(lambda: _get(client, page))


def measure_panel(name: str) -> dict[str, float]:
    """In this fresh process: one panel's first view alone (htmx fragment)."""
    _setup()
    from annotation.statistics import forget

    corpus, client = _corpus(), _client()
    forget()
    url = f"/dashboard/{corpus.pk}/panel/{name}/"
    return {f"panel_{name}": _timed(lambda: _get(client, url, HTTP_HX_REQUEST="true"))}


def measure_figures() -> dict[str, float]:
    """In this fresh process: the judges' figures computed alone from the judgments."""
    _setup()
    from annotation.campaigns.power import judge_effects
    from annotation.dashboard.effort import effort
    from annotation.dashboard.judges import agreement, judges_panel
    from annotation.statistics import judge_aware_figures, judgment_rows, paired_bootstrap

    corpus = _corpus()
    rows = judgment_rows(corpus)
    systems = sorted({r.system for r in rows})
    n = corpus.n_sentences
    bootstrap = paired_bootstrap(n)
    return {
        "judges_panel": _timed(lambda: judges_panel(rows, systems, normalize=False)),
        "judges_panel_z": _timed(lambda: judges_panel(rows, systems, normalize=True)),
        "agreement": _timed(lambda: agreement(rows, normalize=False, bootstrap=bootstrap)),
        "agreement_z": _timed(lambda: agreement(rows, normalize=True, bootstrap=bootstrap)),
        "judge_aware": _timed(lambda: judge_aware_figures(rows, systems, n, bootstrap)),
        "judge_effects": _timed(lambda: judge_effects(rows, systems, n)),
        "effort": _timed(lambda: effort(rows, systems)),
        **_human_tests(rows, systems, n, bootstrap),
    }


def _human_tests(rows: list[Any], systems: list[str], n: int, drawn: Any) -> dict[str, float]:
    """The table's tests of the human metrics and SSER's clusters computed afresh
    (``human_tests_full``), and after one more judgment with the tests of the view
    before kept (``human_tests_kept``: :mod:`metrics.reuse`), one system's SSER score
    on a sentence it had none for added."""
    from annotation.dashboard.table import human_significance
    from annotation.dashboard.verdicts import sser_clusters
    from annotation.statistics import human_rows_by_system

    try:
        from metrics.reuse import PairMemo
    except ImportError:  # a checkout that keeps no test: each view computes them afresh
        PairMemo = None  # type: ignore[assignment,misc]

    def tests(judged: list[Any], memo: Any) -> None:
        grouped = human_rows_by_system(judged)
        if memo is None:
            human_significance(judged, systems, n, drawn, grouped)
            sser_clusters(judged, systems, n)
        else:
            human_significance(judged, systems, n, drawn, grouped, memo)
            sser_clusters(judged, systems, n, memo=memo)

    kept = None if PairMemo is None else PairMemo()
    full = _timed(lambda: tests(rows, kept))
    first = rows[0]
    taken = {r.segment for r in rows if r.system == first.system}
    free = next(k for k in range(n) if k not in taken)
    more = [*rows, first._replace(segment=free, target_id=-1, pk=None, sser=3)]
    return {
        "human_tests_full": full,
        "human_tests_kept": _timed(
            lambda: tests(more, None if kept is None else PairMemo(kept.used))
        ),
    }


def measure_scaling() -> dict[str, float]:
    """In this fresh process: the judges' figures (as :func:`measure_figures`) on the
    judgments relabelled onto 20 judges, the corpus's own, and about three times its own
    (each judge's sentences split among up to five): CPU milliseconds, best of three,
    printed."""
    _setup()
    from annotation.dashboard.effort import effort
    from annotation.dashboard.judges import agreement, judges_panel
    from annotation.statistics import judge_aware_figures, judgment_rows, paired_bootstrap

    corpus = _corpus()
    rows = judgment_rows(corpus)
    systems, n = sorted({r.system for r in rows}), corpus.n_sentences
    drawn = paired_bootstrap(n)
    names = sorted({r.evaluator for r in rows})
    number = {name: k for k, name in enumerate(names)}
    relabelled = {
        "20 judges": [r._replace(evaluator=f"j{number[r.evaluator] % 20}") for r in rows],
        "the corpus's": rows,
        "split": [r._replace(evaluator=f"{r.evaluator}-{r.segment % 5}") for r in rows],
    }
    print(f"{'judges':>7}{'judges_panel':>14}{'agreement':>11}{'judge_aware':>13}{'effort':>8}")
    for judged in relabelled.values():
        work: list[Callable[[], object]] = [
            lambda j=judged: judges_panel(j, systems, normalize=True),
            lambda j=judged: agreement(j, normalize=True, bootstrap=drawn),
            lambda j=judged: judge_aware_figures(j, systems, n, drawn),
            lambda j=judged: effort(j, systems),
        ]
        figures = [min(_timed(fn) for _ in range(3)) for fn in work]  # best of three
        judges = len({r.evaluator for r in judged})
        print(
            f"{judges:>7}"
            + "".join(f"{f * 1000:>{w}.1f}" for f, w in zip(figures, (14, 11, 13, 8), strict=True))
        )
    return {}


def profile_first_view(url: str) -> None:
    """In this fresh process: cProfile of the first view of ``url`` (``{pk}``: the
    corpus), its top functions by cumulative time, printed."""
    import cProfile
    import pstats

    _setup()
    from annotation.statistics import forget

    corpus, client = _corpus(), _client()
    forget()
    profiler = cProfile.Profile()
    profiler.runcall(_get, client, url.format(pk=corpus.pk))
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(PROFILE_LINES)


# ------------------------------------------------------------------ the driver

#: The dashboard's panels, in the page's order (``annotation.dashboard.panels.PAGE``).
PANELS = ("table", "estimates", "charts", "judges", "effort", "meta")
#: The functions a profile lists.
PROFILE_LINES = 45


PAGE_ROWS = (
    ("dashboard_first", "dashboard, first view"),
    ("dashboard_later", "dashboard, later view"),
    ("judges_panel_later", "judges panel, later view"),
    ("campaign_first", "campaign page, first view"),
    ("campaign_later", "campaign page, later view"),
    ("judges_page", "judges page (/campaigns/)"),
    ("whole_campaign_first", "campaign's own page, first view"),
    ("whole_campaign_later", "campaign's own page, later view"),
    ("dashboard_after_judgment", "dashboard after one more judgment"),
)
FIGURE_ROWS = (
    ("judges_panel", "judges_panel (figures per judge)"),
    ("judges_panel_z", "… with the (0,1) normalization"),
    ("agreement", "agreement with its intervals"),
    ("agreement_z", "… normalized"),
    ("judge_aware", "judge_aware_figures (raw, z, effects)"),
    ("judge_effects", "judge_effects (campaign page)"),
    ("effort", "effort"),
    ("human_tests_full", "human tests and clusters, afresh"),
    ("human_tests_kept", "… one judgment later, the rest kept"),
)


def measure(code: Path, env: dict[str, str], repeat: int, *, pages_only: bool) -> dict[str, float]:
    """Every figure of the module doc for the checkout ``code`` (``pages_only``: the
    pages' alone): best of ``repeat`` fresh processes each."""
    from bench.common import run_json

    def best(*mode: str) -> dict[str, float]:
        runs = [run_json(__file__, *mode, "--code", str(code), env=env) for _ in range(repeat)]
        return {key: min(r[key] for r in runs) for key in runs[0]}

    out = best("--measure-pages")
    if pages_only:
        return out
    for name in PANELS:
        out.update(best("--measure-panel", name))
    out.update(best("--measure-figures"))
    return out


def report(columns: dict[str, dict[str, float]]) -> None:
    names = list(columns)
    rows = [*PAGE_ROWS, *((f"panel_{p}", f"panel {p}, first view") for p in PANELS), *FIGURE_ROWS]
    rows = [(key, label) for key, label in rows if key in columns[names[0]]]
    print(f"{'':>40}" + "".join(f"{n:>12}" for n in names))
    for key, label in rows:
        print(f"{label:>40}" + "".join(f"{columns[n][key]:>10.3f} s" for n in names))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judges", type=int, default=200)
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--references", type=int, default=3)
    parser.add_argument("--judged", type=float, default=0.8, help="share of sentences judged")
    parser.add_argument("--twice", type=float, default=0.15, help="of those, share judged twice")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another checkout to measure too")
    parser.add_argument("--profile", action="store_true", help="cProfile the first views")
    parser.add_argument("--pages-only", action="store_true", help="the pages' figures alone")
    parser.add_argument(
        "--scaling", action="store_true", help="the judges' figures against the number of judges"
    )
    parser.add_argument("--code", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--import-one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--measure-pages", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure-panel", help=argparse.SUPPRESS)
    parser.add_argument("--measure-figures", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure-scaling", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile-url", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.profile_url:
        profile_first_view(args.profile_url)
        return
    from bench.common import manage, production_env, run_asked_mode, run_json, run_measured

    def import_one() -> dict[str, float]:
        from bench.dashboard import import_once

        return import_once(args.import_one)

    modes: dict[str, Callable[[], object]] = {
        "import_one": import_one,
        "measure_pages": measure_pages,
        "measure_panel": lambda: measure_panel(args.measure_panel),
        "measure_figures": measure_figures,
        "measure_scaling": measure_scaling,
    }
    if run_asked_mode(args, modes):
        return

    with tempfile.TemporaryDirectory(prefix="evaltool-bench-judges-") as tmp:
        workdir = Path(tmp)
        path = workdir / "corpus.xml"
        write_corpus(path, args)
        env = production_env(workdir)
        # every checkout reads the static files collected from this one (the same files)
        env["STATIC_ROOT"] = str(ROOT / "staticfiles")
        imported = run_json(__file__, "--import-one", str(path), env=env)
        scoring = run_measured(manage("worker", "--batch", "--interval", "0.1"), env)
        print(
            f"{args.sentences:,} sentences × {args.systems} systems × {args.references} refs, "
            f"{args.judges} judges, {imported['judgments']:,} judgments; the import's scoring: "
            f"{scoring.seconds:.1f} s"
        )
        checkouts = {"after": ROOT} if args.before is None else {"before": args.before}
        if args.before is not None:
            checkouts["after"] = ROOT
        if args.scaling:
            command = [sys.executable, __file__, "--measure-scaling", "--code", str(ROOT)]
            subprocess.run(command, env=env, cwd=ROOT, check=True)
        if args.profile:
            for name, code in checkouts.items():
                for url in ("/dashboard/{pk}/", "/campaigns/{pk}/"):
                    print(f"--- {name}: {url}", flush=True)
                    command = [sys.executable, __file__, "--profile-url", url, "--code", str(code)]
                    subprocess.run(command, env=env, cwd=ROOT, check=True)
        columns = {
            name: measure(code, env, args.repeat, pages_only=args.pages_only)
            for name, code in checkouts.items()
        }
        report(columns)


if __name__ == "__main__":
    main()
