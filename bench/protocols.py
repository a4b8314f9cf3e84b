"""Seconds per segment and per span of each protocol, judged in a real browser with the
keyboard only and with the mouse only: ``python bench/protocols.py`` (prints, never
asserts).

**What it measures.** The tool's own time: a scripted judge in Debian's Chromium
(Playwright) does each action as soon as the page has drawn the answer to the previous
one, so a segment's seconds are the round trips (request, server, swap, the page's
scripts, Playwright's own calls) and nothing of a human's reading or thinking. They are
the floor under a human's time, not a human's time: a judge's own seconds are what the
campaign page's *Effort per protocol* shows, from the judges' recorded active time.

**The corpora.** One corpus per protocol (``awer``, ``esa``, ``mqm``; ``esa_prefill``
with ``--protocols``), each ``--sentences`` sentences (1,002 by default) × 3 references
× 20 systems from ``bench/gen_corpus.py`` (seed 1, nothing judged: a file with judgments
imports as aWER only), imported through ``import_evaltrans --protocol`` into one
campaign, on SQLite (or PostgreSQL with ``--db postgres``: the database
``evaltool_bench_protocols``, dropped and created by this script). Built once in
``--dir`` (``bench/out/protocols`` by default) per size and reused.

**The judge.** Per protocol, two judges: one uses only the keyboard, the other only the
mouse. Each judges ``--segments`` segments (after two of warm-up): ``--spans`` spans a
segment (aWER: edit operations of the candidate applied, → then ``a``, or a click;
ESA / MQM: every other word marked minor, → then ``1``, or a click on the word and one
on *Minor*), the score (aWER: an SSER digit or button; ESA: ``s``, typed, Enter, or a
click on the slider; MQM has none), then accept & next (``n`` or the button).

**The table.** Per protocol and input: seconds per segment (from the segment's first
key or click to the next segment drawn), seconds per span (from the span's first key or
click to its answer drawn: selecting it and marking it, or applying an edit operation in
aWER), the median milliseconds of an action's answer as the page sees it (from the key
or click to the last answer it asked for drawn), and the server's milliseconds per
request (gunicorn's own request time, from its access log), median and 95th
percentile. Then the recorded effort the campaign page shows for the bench's campaign
(:func:`annotation.campaigns.effort.campaign_protocol_effort`), which for this judge is
its machine time as the server saw it.

Usage::

    python bench/protocols.py [--sentences 1002] [--segments 20] [--spans 2]
                              [--db sqlite|postgres] [--dir DIR]
                              [--protocols awer,esa,mqm]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: bench/metrics.py must not hide the metrics package

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from bench.browser import chromium, log_in, manage, open_corpus, server  # noqa: E402
from bench.common import PG_SERVER, ensure_postgres, pg_fresh, production_env  # noqa: E402

PROTOCOLS = ("awer", "esa", "esa_prefill", "mqm")
INPUTS = ("keyboard", "mouse")
PASSWORD = "protocols-pw"
PG_DATABASE = "evaltool_bench_protocols"

#: Watches the page (once, after it loads): the first keydown or mousedown after
#: :data:`ARM` starts a clock; each request the page's queue sends (``htmx:confirm`` on
#: ``#queue-status``, static/js/judge.js; counted once, however often htmx confirms it)
#: is counted, and so is each ``#judge`` settled and drawn (the first animation frame
#: after it). An action may send two requests (a typed score saved before accept &
#: next): its answer is the last of them drawn.
WATCH = """() => {
    const t = window.__t = {start: null, sent: new Set(), asked: 0, drawn: 0, last: 0};
    const mark = () => { if (t.start === null) t.start = performance.now(); };
    document.addEventListener("keydown", mark, {capture: true});
    document.addEventListener("mousedown", mark, {capture: true});
    document.addEventListener("htmx:confirm", evt => {
        if (!evt.detail.elt || evt.detail.elt.id !== "queue-status") return;
        t.sent.add(evt.detail.triggeringEvent);  // confirmed again when it leaves its queue
        t.asked = t.sent.size;
    });
    document.addEventListener("htmx:afterSettle", evt => {
        if (evt.target.id === "judge") requestAnimationFrame(() => {
            t.drawn += 1;
            t.last = performance.now();
        });
    });
}"""
ARM = "() => { Object.assign(window.__t, {start: null, sent: new Set(), asked: 0, drawn: 0}); }"
#: Whether every request the action sent has its answer drawn.
ANSWERED = "() => window.__t.asked > 0 && window.__t.drawn >= window.__t.asked"
SINCE = "() => window.__t.last - window.__t.start"

#: Prints the recorded effort of the bench's campaign, per protocol, as JSON.
RECORDED = (
    "import json; from annotation.models import Campaign; "
    "from annotation.campaigns.effort import campaign_protocol_effort; "
    "print(json.dumps([e.as_json() for e in campaign_protocol_effort("
    "Campaign.objects.get(name={campaign!r}))]))"
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def corpus_name(protocol: str, sentences: int) -> str:
    return f"bench-{protocol}-{sentences}x3x20"


def campaign_name(sentences: int) -> str:
    return f"protocols-{sentences}"


def judge_name(protocol: str, how: str) -> str:
    return f"{protocol}-{how}"


def build(args: argparse.Namespace, home: Path, env: dict[str, str], protocols: list[str]) -> None:
    """The corpus file, the database, one corpus per protocol and its two judges (each
    step skipped where a marker says it is done)."""
    from bench.gen_corpus import generate_corpus

    marker = home / f"{args.db}-{args.sentences}.json"
    built: dict[str, Any] = json.loads(marker.read_text()) if marker.exists() else {}
    if not built and args.db == "postgres":
        ensure_postgres()
        pg_fresh(PG_DATABASE)
    manage(env, "migrate", "--noinput")
    path = home / f"corpus-{args.sentences}.xml"
    if not path.exists():
        log(f"generating {path.name}")
        with path.open("wb") as out:
            generate_corpus(out, sentences=args.sentences, references=3, systems=20, seed=1)
    for protocol in protocols:
        name = corpus_name(protocol, args.sentences)
        if name in built:
            continue
        log(f"importing {name}")
        start = time.perf_counter()
        manage(env, "import_evaltrans", str(path), "--name", name, "--protocol", protocol,
               "--campaign", campaign_name(args.sentences))  # fmt: skip
        seconds = time.perf_counter() - start
        for how in INPUTS:
            manage(env, "add_user", judge_name(protocol, how), "--password", PASSWORD,
                   "--role", "judge", "--corpus", name)  # fmt: skip
        built[name] = {"at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "s": seconds}
        marker.write_text(json.dumps(built))


@dataclass
class Round:
    """What one judge's round measured: seconds per segment and per span, and the
    milliseconds of each action's answer as the page saw it."""

    segments: list[float] = field(default_factory=list)
    spans: list[float] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)
    suggested: int = 0
    reclicks: int = 0


class Judge:
    """One judge's hands: each action that asks the server waits for its answer drawn."""

    def __init__(self, page: Any, how: str, protocol: str, spans: int) -> None:
        self.page, self.how, self.protocol, self.spans = page, how, protocol, spans
        self.round = Round()

    def answered(self, act: Callable[[], None]) -> None:
        """Do ``act`` (a key or a click the server answers) and wait for its answer."""
        self.page.evaluate(ARM)
        act()
        try:
            self.page.wait_for_function(ANSWERED, polling="raf", timeout=30_000)
        except PlaywrightTimeout:
            shot = Path(tempfile.gettempdir()) / f"protocols-{self.protocol}-{self.how}.png"
            self.page.screenshot(path=str(shot))
            seen = self.page.evaluate("() => JSON.stringify(window.__t)")
            raise SystemExit(
                f"{self.protocol}, {self.how}: no answer in 30 s ({seen}; see {shot})"
            ) from None
        self.round.answers.append(self.page.evaluate(SINCE))

    def segment(self, k: int) -> None:
        start = time.perf_counter()
        if self.protocol == "awer":
            self.awer(k)
        else:
            self.round.suggested += self.page.locator("#spans .span-row").count()
            self.span_page(k)
        self.answered(self.accept)
        self.round.segments.append(time.perf_counter() - start)

    def timed_span(self, act: Callable[[], None]) -> None:
        start = time.perf_counter()
        act()
        self.round.spans.append(time.perf_counter() - start)

    def accept(self) -> None:
        if self.how == "keyboard":
            self.page.keyboard.press("n")
        else:
            self.page.click("#accept-next")

    def awer(self, k: int) -> None:
        """Apply up to ``spans`` edit operations, then an SSER score."""
        keys, page = self.how == "keyboard", self.page
        for _ in range(self.spans):
            if not page.locator("#candidate button[data-op]").count():
                break
            self.timed_span(self.awer_op_by_keys if keys else self.awer_op_by_mouse)
        sser = 3 + k % 7
        if keys:
            self.answered(lambda: page.keyboard.press(str(sser)))
        else:
            self.answered(lambda: page.click(f'[data-sser="{sser}"]'))

    def awer_op_by_keys(self) -> None:
        self.page.keyboard.press("ArrowRight")
        self.answered(lambda: self.page.keyboard.press("a"))

    def awer_op_by_mouse(self) -> None:
        self.answered(lambda: self.page.locator("#candidate button[data-op]").first.click())

    def select_word(self, w: int) -> None:
        """Click word ``w`` of the candidate until the page says it is selected (a click
        the page missed is clicked again, as a judge would, and counted)."""
        for _ in range(3):
            self.page.locator(f'#candidate .piece[data-word="{w}"]').first.click()
            if self.page.inner_text("#selection-shown").startswith("Selected"):
                return
            self.round.reclicks += 1
        raise SystemExit(f"{self.protocol}, {self.how}: word {w} is never selected")

    def span_page(self, k: int) -> None:
        """Mark every other word minor, ``spans`` of them; ESA: then the score."""
        keys, page = self.how == "keyboard", self.page
        words = page.locator("#candidate .piece[data-word]").count()
        for w in range(0, min(2 * self.spans, words), 2):
            if keys:
                moves = 1 if w == 0 else 2

                def by_keys(moves: int = moves) -> None:
                    for _ in range(moves):
                        page.keyboard.press("ArrowRight")
                    if not page.inner_text("#selection-shown").startswith("Selected"):
                        raise SystemExit(f"{self.protocol}, keyboard: → selected nothing")
                    self.answered(lambda: page.keyboard.press("1"))

                self.timed_span(by_keys)
            else:

                def by_mouse(w: int = w) -> None:
                    self.select_word(w)
                    self.answered(lambda: page.click("#mark-minor"))

                self.timed_span(by_mouse)
        if self.protocol == "mqm":
            return
        score = 10 + k % 30  # far from the unset slider's 50: a click there changes nothing
        if keys:
            page.keyboard.press("s")
            page.keyboard.type(str(score))
            self.answered(lambda: page.keyboard.press("Enter"))
            page.keyboard.press("Escape")
        else:
            slider = page.locator("#esa-score-range")
            box = slider.bounding_box()
            at = {"x": box["width"] * score / 100, "y": box["height"] / 2}
            self.answered(lambda: slider.click(position=at))


def requests_since(access_log: Path, offset: int) -> list[float]:
    """The milliseconds of the app's requests gunicorn logged after ``offset`` (static
    files left out)."""
    with access_log.open() as f:
        f.seek(offset)
        lines = f.read().splitlines()
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) == 4 and not parts[1].startswith("/static/"):
            out.append(int(parts[3]) / 1000)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def judge_round(browser: Any, base: str, args: argparse.Namespace, protocol: str,
                how: str, access_log: Path) -> tuple[Round, list[float]]:  # fmt: skip
    """One judge's round: log in, open the corpus, two segments of warm-up, then
    ``--segments`` measured; the round and its requests' server milliseconds."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    log_in(page, base, judge_name(protocol, how), PASSWORD)
    open_corpus(page, base, corpus_name(protocol, args.sentences))
    # the page's own scripts (deferred, after htmx) listen for the keys
    page.wait_for_function("() => document.readyState === 'complete'")
    page.evaluate(WATCH)
    judge = Judge(page, how, protocol, args.spans)
    for k in range(2):
        judge.segment(k)
    judge.round = Round()
    offset = access_log.stat().st_size
    for k in range(args.segments):
        judge.segment(k)
    page.context.close()
    return judge.round, requests_since(access_log, offset)


def report(results: list[tuple[str, str, Round, list[float]]], facts: str) -> None:
    print(facts)
    header = (
        f"{'protocol':<12} {'input':<9} {'segments':>8} {'s/segment':>10} {'spans':>6} "
        f"{'s/span':>7} {'answer ms p50':>13} {'server ms p50':>13} {'p95':>6}"
    )
    print(header)
    print("-" * len(header))
    for protocol, how, r, server_ms in results:
        per_span = f"{statistics.mean(r.spans):.2f}" if r.spans else "–"
        print(
            f"{protocol:<12} {how:<9} {len(r.segments):>8} {statistics.mean(r.segments):>10.2f} "
            f"{len(r.spans):>6} {per_span:>7} {statistics.median(r.answers):>13.0f} "
            f"{statistics.median(server_ms):>13.0f} {percentile(server_ms, 0.95):>6.0f}"
        )
    for protocol, how, r, _ in results:
        if r.reclicks:
            print(f"{protocol}, {how}: {r.reclicks} clicks on a word the page missed, made again")
    prefill = [r.suggested for p, _, r, _ in results if p == "esa_prefill"]
    if prefill:
        print(f"esa_prefill: {sum(prefill)} spans suggested on the pages judged", end="")
        print("" if sum(prefill) else " (the page pre-fills none yet: timed as ESA)")


def report_recorded(env: dict[str, str], sentences: int) -> None:
    """The campaign page's effort per protocol for the bench's campaign."""
    script = RECORDED.format(campaign=campaign_name(sentences))
    rows = json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])
    print("\nRecorded (the campaign page's Effort per protocol, every judgment the bench made):")
    for row in rows:
        print(
            f"{row['protocol']:<12} {row['judgments']:>5} judgments "
            f"{row['seconds_per_segment'] or 0:>6.2f} s/segment, {row['spans']:>5} spans "
            f"{row['seconds_per_span'] or 0:>6.2f} s/span"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=1002)
    parser.add_argument("--segments", type=int, default=20)
    parser.add_argument("--spans", type=int, default=2)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--dir", type=Path, default=ROOT / "bench" / "out" / "protocols")
    parser.add_argument("--protocols", default="awer,esa,mqm")
    args = parser.parse_args()
    protocols = args.protocols.split(",")
    unknown = sorted(set(protocols) - set(PROTOCOLS))
    if unknown:
        parser.error(f"unknown protocol {', '.join(unknown)}: choose among {', '.join(PROTOCOLS)}")
    home = args.dir.resolve()
    home.mkdir(parents=True, exist_ok=True)
    env = production_env(home, f"protocols-{args.sentences}.sqlite3")
    if args.db == "postgres":
        env["DATABASE_URL"] = f"{PG_SERVER}/{PG_DATABASE}"
    build(args, home, env, protocols)
    access_log = home / "access.log"
    access_log.write_text("")
    results = []
    load = os.getloadavg()[0]
    with server(env, access_log=access_log) as base, chromium() as browser:
        for protocol in protocols:
            for how in INPUTS:
                log(f"{protocol}, {how}: {args.segments} segments")
                measured = judge_round(browser, base, args, protocol, how, access_log)
                results.append((protocol, how, *measured))
    report(
        results,
        f"{args.db}: {args.sentences} sentences × 3 references × 20 systems per protocol; "
        f"{args.spans} spans a segment; Chromium, gunicorn 2 workers; load average "
        f"{load:.2f} → {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs",
    )
    report_recorded(env, args.sentences)


if __name__ == "__main__":
    main()
