"""Where the dashboard's view after a judgment spends its CPU: ``python bench/dashboard_parts.py``.

The corpus of ``bench/judges.py`` (``--sentences`` 1,000 × 20 systems × 3 references,
``--judges`` 200: about 18,660 judgments), imported in a fresh process into a fresh
SQLite database (unless ``DATABASE_URL`` names one) and scored by a ``manage.py worker
--batch`` process. Then, in each of ``--repeat`` fresh processes with ``DEBUG`` off,
started as a server's worker starts (``evaltool.wsgi``: what it loaded frozen out of the
garbage collector's walks): the dashboard viewed once (every figure of the judgments
computed and remembered), one more judgment finished through the judge's services, and
the dashboard viewed again, which computes every figure of the judgments afresh.
Printed, in CPU seconds of the serving process, best of the processes: the whole view,
each part's own time (what :meth:`annotation.dashboard.parts.Parts.get` spent in it,
less the parts it asked for), the template, each panel's template alone (best of seven
renders of its frozen value), and the page's size with each panel's share. Prints,
never asserts.

``--second-server``: before each measured process, another (a first server's) views the
dashboard, which computes every figure and puts it in the shared store
(:mod:`annotation.statistics.shared`); the measured process's first view then reads the
figures from the store, as a second server's does, and never holds the judgments' rows.
Printed after the rest: the view after a second judgment in that process, that first
view's CPU seconds and its parts, and the values each shelf computed in the view after
the (first) judgment.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:1] = [str(ROOT)]  # the checkout's packages, not bench/metrics.py


def _parts_timed(own: Counter[str]) -> None:
    """Count each part's own CPU seconds in ``own`` (a bench's wrapper, this process)."""
    from annotation.dashboard.parts import Parts

    get, stack = Parts.get, [0.0]

    def timed(self: Parts, part: Any) -> Any:
        if self.has(part):
            return get(self, part)
        start, inner = time.process_time(), len(stack)
        stack.append(0.0)
        try:
            return get(self, part)
        finally:
            spent = time.process_time() - start
            own[f"{part.__module__.rsplit('.', 1)[-1]}.{part.__name__}"] += spent - stack.pop()
            stack[inner - 1] += spent

    Parts.get = timed  # type: ignore[method-assign]


def _templates(corpus: Any) -> dict[str, float]:
    """Each panel's template rendered alone from its frozen value: best of seven, and
    its size in bytes (``bytes_<panel>``)."""
    from django.template.loader import get_template

    from annotation.dashboard.board import dashboard_page
    from annotation.dashboard.inputs import DashboardInputs
    from annotation.dashboard.parts import Parts
    from annotation.dashboard.views import _context

    parts = Parts(DashboardInputs(corpus))
    context = _context(parts.inputs)
    out = {}
    for panel, built in dashboard_page(parts).shown:
        template, here = get_template(panel.template), dict(context, panel=built)
        times = []
        for _ in range(7):
            start = time.process_time()
            html = template.render(here)
            times.append(time.process_time() - start)
        out[f"template_{panel.name}"], out[f"bytes_{panel.name}"] = min(times), len(html)
    return out


def measure_once() -> dict[str, float]:
    """In this fresh process: a view, one more judgment, the view after it (timed)."""
    from bench.judges import _client, _corpus, _get, _setup

    _setup()
    from django.template.response import TemplateResponse

    import evaltool.wsgi  # noqa: F401 (a server's worker: its start-up frozen)

    own: Counter[str] = Counter()
    _parts_timed(own)
    client, corpus = _client(), _corpus()
    page = f"/dashboard/{corpus.pk}/"
    begun = time.process_time()
    _get(client, page)
    first = {"first_view": time.process_time() - begun}
    first.update({f"first part {name}": spent for name, spent in own.items()})
    _judge_once(corpus)
    render, rendering = TemplateResponse.render, [0.0]

    def timed_render(self: TemplateResponse) -> Any:
        begun = time.process_time()
        try:
            return render(self)
        finally:
            rendering[0] += time.process_time() - begun

    TemplateResponse.render = timed_render  # type: ignore[method-assign]
    own.clear()
    from annotation.statistics.memo import CACHE

    computed = Counter(CACHE.computations)
    begun = time.process_time()
    response = client.get(page)
    out = {"after_judgment": time.process_time() - begun, "template": rendering[0]}
    computed = Counter(CACHE.computations) - computed
    out.update({f"computed {shelf}": float(n) for shelf, n in computed.items()})
    out["page_bytes"] = len(response.content)
    out.update({f"part {name}": spent for name, spent in own.items()})
    out.update(_templates(_corpus()))
    if "--second-server" in sys.argv:  # what stays for the views after the next ones
        _judge_once(corpus)
        begun = time.process_time()
        _get(client, page)
        out["after_second_judgment"] = time.process_time() - begun
    return {**out, **first}


def _judge_once(corpus: Any) -> None:
    """One more judgment finished by the bench's judge, through the judge's services."""
    from annotation.judging import changes, start
    from annotation.models import User

    judge = User.objects.get(username="bench-judge")
    judgment = start.next_judgment_for(user=judge, corpus=corpus)
    assert judgment is not None
    changes.judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=7)
    changes.judgment_finish(judgment=judgment, user=judge, version=judgment.version)


def view_once() -> dict[str, float]:
    """In this fresh process (another server's): the dashboard viewed once, which
    computes the figures it finds nowhere and puts them in the shared store."""
    from bench.judges import _client, _corpus, _get, _setup

    _setup()
    import evaltool.wsgi  # noqa: F401 (a server's worker: its start-up frozen)

    client, corpus = _client(), _corpus()
    begun = time.process_time()
    _get(client, f"/dashboard/{corpus.pk}/")
    return {"view": time.process_time() - begun}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--judges", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--second-server",
        action="store_true",
        help="a second server's view after a judgment: one process views the dashboard "
        "(computes and stores every figure), then each measured process views it first "
        "from the shared store",
    )
    parser.add_argument("--measure-once", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--view-once", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from bench.common import manage, production_env, run_asked_mode, run_json, run_measured

    if run_asked_mode(args, {"measure_once": measure_once, "view_once": view_once}):
        return
    from bench.judges import write_corpus

    with tempfile.TemporaryDirectory(prefix="evaltool-bench-parts-") as tmp:
        path = Path(tmp) / "corpus.xml"
        shape = {"references": 3, "systems": 20, "judged": 0.8, "twice": 0.15}
        write_corpus(path, argparse.Namespace(**shape, **vars(args)))
        env = production_env(Path(tmp))
        imported = run_json(str(ROOT / "bench/judges.py"), "--import-one", str(path), env=env)
        run_measured(manage("worker", "--batch", "--interval", "0.1"), env)
        runs = []
        for _ in range(args.repeat):
            if args.second_server:  # the first server's view: every figure stored
                run_json(__file__, "--view-once", env=env)
            measure = ("--measure-once", "--second-server")[: 1 + args.second_server]
            runs.append(run_json(__file__, *measure, env=env))
    best = {key: min(r.get(key, 0.0) for r in runs) for key in runs[0]}
    print(f"{args.sentences:,} × 20 × 3, {imported['judgments']:,} judgments; CPU seconds")
    for key in ("after_judgment", "template"):
        print(f"{key:>40} {best[key]:8.3f}")
    parts = sorted((k for k in best if k.startswith("part ")), key=lambda k: -best[k])
    for key in parts:
        print(f"{key:>40} {best[key]:8.3f}")
    for key in sorted(k for k in best if k.startswith("template_")):
        panel = key.removeprefix("template_")
        print(f"{key:>40} {best[key]:8.3f}  {best[f'bytes_{panel}'] / 1024:7.0f} KB")
    print(f"{'page':>40} {best['page_bytes'] / 1024:8.0f} KB")
    if args.second_server:
        print(f"{'after_second_judgment':>40} {best['after_second_judgment']:8.3f}")
        print("second server's first view, from the shared store:")
        firsts = sorted((k for k in best if k.startswith("first ")), key=lambda k: -best[k])
        for key in ("first_view", *firsts):
            print(f"{key:>40} {best[key]:8.3f}")
        print("values computed by the view after the judgment, per shelf:")
        for key in sorted(k for k in best if k.startswith("computed ")):
            print(f"{key:>40} {best[key]:8.0f}")


if __name__ == "__main__":
    main()
