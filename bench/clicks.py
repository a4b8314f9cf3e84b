"""Per-click times as the judge's browser sees them, on a corpus of real size:
``python bench/clicks.py`` (prints, never asserts).

**The corpus.** 1,002 sentences × 3 references × 20 systems from ``bench/gen_corpus.py``
(seed 1, a tenth of the system outputs already judged by the file's own evaluators, so
the reference pool grows as in a running campaign), imported through ``import_evaltrans``
into SQLite (or the PostgreSQL database ``evaltool_clicks`` with ``--db postgres``,
dropped and created by this script, never another one), and one judge assigned to it.
Built once in ``--dir`` (``bench/out/clicks`` by default) and reused by later runs.

**The measurement.** A ``make serve`` server (gunicorn, DEBUG off) and Debian's Chromium:
the judge opens the corpus and judges ``--candidates`` candidates in a row as a judge
does with the mouse: up to two clicks on edit operations of the candidate, one SSER
button, then *Accept & next*. Each click is timed in the page, from ``performance.now()``
just before the click to the first animation frame after htmx has settled the new
``#judge`` (the page the judge sees next), so the figure includes the request, the
server, the swap and the page's own scripts. Prints the median and the maximum per kind
of click, and over all clicks.

``--protocol esa`` or ``mqm`` judges the same corpus on the ESA / MQM page instead (the
corpus's protocol is set for the run): a click selects a word of the candidate (not
timed), then *Minor* marks it (twice a candidate), the score is typed and saved (ESA),
then *Accept & next*.

**CPU per click** (printed after the times): on a shared machine the wall-clock figure
moves with the load (it was 62–68 ms for a span click at load 5–6, 130 ms at load
21–25), so the bench also reads, around each timed click, the CPU the two sides spent on
it: the server's (every gunicorn process of the run, from each thread's
``/proc/PID/task/TID/schedstat``, in nanoseconds) and the browser's (the page's main
thread: Chrome's ``Performance.getMetrics`` ``TaskDuration``, the time its tasks ran,
parsing the answer, swapping it in, running the page's scripts, style and layout).
Their sum is what a click costs whatever the load; on an idle machine the wall time is
about that plus the round trip.

Usage::

    python bench/clicks.py [--candidates 40] [--db sqlite|postgres] [--dir DIR]
                           [--protocol awer|esa|mqm]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: bench/metrics.py must not hide the metrics package

from bench.browser import chromium, log_in, manage, open_corpus, server  # noqa: E402
from bench.common import production_env  # noqa: E402

CORPUS = "clicks-1002x3x20"
JUDGE, PASSWORD = "clicks-judge", "clicks-pw"
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
PG_DATABASE = "evaltool_clicks"

#: Sets the corpus's protocol for the run (``manage.py shell -c``).
PROTOCOL_SET = (
    "from annotation.models import Corpus; "
    "Corpus.objects.filter(name={corpus!r}).update(protocol={protocol!r})"
)

#: Click the element ``selector`` and resolve with the milliseconds until the page shows
#: the answer: htmx has settled #judge (morphed in place: the figures and the header, swapped
#: out of band, settle too), and the browser has drawn a frame of it.
TIMED_CLICK = """selector => new Promise((resolve, reject) => {
    const target = document.querySelector(selector);
    if (!target) return reject(new Error("nothing matches " + selector));
    const start = performance.now();
    const settled = (evt) => {
        if (evt.target.id !== "judge") return;
        document.removeEventListener("htmx:afterSettle", settled);
        requestAnimationFrame(() => resolve(performance.now() - start));
    };
    document.addEventListener("htmx:afterSettle", settled);
    target.click();
})"""


class ClickCpu:
    """The CPU of the server (every process serving ``port``) and of the page's main
    thread, read around each timed click (module doc, *CPU per click*)."""

    def __init__(self, page: Any, base: str) -> None:
        self.page, self.bind = page, base.removeprefix("http://")
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Performance.enable")
        self.server: dict[str, list[float]] = {}
        #: kind → (ms of the page's tasks, of which scripts, style and layout) per click
        self.browser: dict[str, list[tuple[float, float, float]]] = {}

    def _server_ns(self) -> int:
        """Nanoseconds on a CPU of every thread of the processes serving the port."""
        total = 0
        for proc in Path("/proc").iterdir():
            try:
                if not proc.name.isdigit() or self.bind not in (proc / "cmdline").read_text():
                    continue
                for task in (proc / "task").iterdir():
                    total += int((task / "schedstat").read_text().split()[0])
            except OSError:  # a process that ended meanwhile
                continue
        return total

    def _browser_s(self) -> tuple[float, float, float]:
        """Seconds the page's main thread ran tasks, scripts, and style and layout."""
        got = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        drawn = got["RecalcStyleDuration"] + got["LayoutDuration"]
        return got["TaskDuration"], got["ScriptDuration"], drawn

    def click(self, kind: str, selector: str) -> float:
        """A timed click (:data:`TIMED_CLICK`); its CPU kept under ``kind``."""
        server, browser = self._server_ns(), self._browser_s()
        ms = float(self.page.evaluate(TIMED_CLICK, selector))
        self.server.setdefault(kind, []).append((self._server_ns() - server) / 1e6)
        after = self._browser_s()
        self.browser.setdefault(kind, []).append(
            tuple((b - a) * 1e3 for a, b in zip(browser, after, strict=True))  # type: ignore[arg-type]
        )
        return ms


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def database_env(kind: str, home: Path) -> dict[str, str]:
    env = production_env(home, "clicks.sqlite3")
    env["DATABASE_URL"] = (
        f"{PG_SERVER}/{PG_DATABASE}"
        if kind == "postgres"
        else f"sqlite:///{home / 'clicks.sqlite3'}"
    )
    return env


def build(kind: str, home: Path, env: dict[str, str]) -> dict[str, Any]:
    """The corpus file, the database, the judge; the build's facts (kept in a marker)."""
    from bench.gen_corpus import generate_corpus

    marker = home / f"{kind}.json"
    if marker.exists():
        log(f"reusing the {kind} database built {json.loads(marker.read_text())['at']}")
        manage(env, "migrate", "--noinput")
        return json.loads(marker.read_text())  # type: ignore[no-any-return]
    path = home / f"{CORPUS}.xml"
    if not path.exists():
        log(f"generating {path.name}")
        with path.open("wb") as out:
            generate_corpus(out, sentences=1002, references=3, systems=20, judged=0.1, seed=1)
    if kind == "postgres":
        for sql in (f'DROP DATABASE IF EXISTS "{PG_DATABASE}"', f'CREATE DATABASE "{PG_DATABASE}"'):
            subprocess.run(["psql", f"{PG_SERVER}/postgres", "-q", "-c", sql], check=True)
    else:
        (home / "clicks.sqlite3").unlink(missing_ok=True)
    log(f"{kind}: migrate, import (a few minutes), the judge")
    manage(env, "migrate", "--noinput")
    start = time.perf_counter()
    manage(env, "import_evaltrans", str(path), "--name", CORPUS)
    seconds = time.perf_counter() - start
    manage(env, "add_user", JUDGE, "--password", PASSWORD, "--role", "judge", "--corpus", CORPUS)
    built = {"at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "import_seconds": seconds}
    marker.write_text(json.dumps(built))
    return built


def judge_candidates(cpu: ClickCpu, candidates: int) -> dict[str, list[float]]:
    """Judge ``candidates`` candidates by mouse; the milliseconds of each click, by kind."""
    page = cpu.page
    times: dict[str, list[float]] = {"edit operation": [], "SSER": [], "accept & next": []}
    for k in range(candidates):
        for _ in range(2):
            if page.locator("#candidate button[data-op]").count():
                times["edit operation"].append(
                    cpu.click("edit operation", "#candidate button[data-op]")
                )
        times["SSER"].append(cpu.click("SSER", f'[data-sser="{3 + k % 7}"]'))
        times["accept & next"].append(cpu.click("accept & next", "#accept-next"))
    return times


def judge_spans(cpu: ClickCpu, candidates: int, protocol: str) -> dict[str, list[float]]:
    """Judge ``candidates`` candidates on the ESA / MQM page by mouse; the milliseconds of
    each click, by kind."""
    page = cpu.page
    times: dict[str, list[float]] = {"mark a span": [], "accept & next": []}
    if protocol == "esa":
        times["ESA score"] = []
    for k in range(candidates):
        words = page.locator("#candidate .piece[data-word]")
        for w in range(min(2, words.count())):
            page.locator(f'#candidate .piece[data-word="{2 * w}"]').first.click()
            times["mark a span"].append(cpu.click("mark a span", "#mark-minor"))
        if protocol == "esa":
            page.fill("#esa-score-number", str(30 + k % 60))
            times["ESA score"].append(cpu.click("ESA score", "#save-esa"))
        times["accept & next"].append(cpu.click("accept & next", "#accept-next"))
    return times


def report(times: dict[str, list[float]], cpu: ClickCpu, facts: str) -> None:
    print(facts)
    header = f"{'click':<16} {'clicks':>6} {'median':>9} {'max':>9}"
    print(header)
    print("-" * len(header))
    every = [t for ts in times.values() for t in ts]
    for kind, ts in [*times.items(), ("every click", every)]:
        print(f"{kind:<16} {len(ts):>6} {statistics.median(ts):>6.0f} ms {max(ts):>6.0f} ms")
    print("\nCPU per click, median ms: the server's processes, the page's main thread (of")
    print("which its scripts, and style and layout), and the sum of server and page")
    header = f"{'click':<16} {'server':>7} {'page':>7} {'script':>7} {'layout':>7} {'sum':>7}"
    print(header)
    print("-" * len(header))
    for kind in times:
        server, page = cpu.server[kind], cpu.browser[kind]
        columns = [
            server,
            *([p[k] for p in page] for k in range(3)),
            [a + p[0] for a, p in zip(server, page, strict=True)],
        ]
        print(f"{kind:<16}" + "".join(f" {statistics.median(c):>7.1f}" for c in columns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=40)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--dir", type=Path, default=ROOT / "bench" / "out" / "clicks")
    parser.add_argument("--protocol", choices=("awer", "esa", "mqm"), default="awer")
    args = parser.parse_args()
    home = args.dir.resolve()
    home.mkdir(parents=True, exist_ok=True)
    env = database_env(args.db, home)
    built = build(args.db, home, env)
    manage(env, "shell", "-c", PROTOCOL_SET.format(corpus=CORPUS, protocol=args.protocol))
    judge = (
        judge_candidates
        if args.protocol == "awer"
        else partial(judge_spans, protocol=args.protocol)
    )
    with server(env) as base, chromium() as browser:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        log_in(page, base, JUDGE, PASSWORD)
        open_corpus(page, base, CORPUS)
        judge(ClickCpu(page, base), 2)  # warm-up: the first requests load code
        log(f"judging {args.candidates} candidates")
        load = os.getloadavg()[0]
        cpu = ClickCpu(page, base)
        times = judge(cpu, args.candidates)
    report(
        times,
        cpu,
        f"{args.db}, {args.protocol}: {CORPUS} (1,002 sentences × 3 references × 20 systems, built "
        f"{built['at']}, import {built['import_seconds']:.0f} s); Chromium, gunicorn 2 workers; "
        f"load average {load:.2f} → {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs",
    )


if __name__ == "__main__":
    main()
