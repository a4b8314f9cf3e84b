"""Seconds per source sentence, side by side against one at a time, in a real browser:
``python bench/sidebyside.py [--sentences N] [--rounds R]``.

Builds two ESA corpora of the same N sentences and two systems in a temporary SQLite
database: one judged one candidate at a time (the ESA page), one side by side (2 a
screen, the preference asked). A scripted judge in Debian's Chromium, against a
``make serve`` server, does the same work in both: on each candidate it selects a word
with the mouse, marks it, and gives a score; side by side it also prefers one of the two
by key, then accepts the screen once instead of twice. Scores are typed, never saved
on their own: accept saves them, on both pages. Prints the seconds per source
sentence of each mode (median over the rounds), and their ratio.

The judge is a script: it waits for every answer and never reads. The figures are the
interface's own cost per sentence (requests, swaps, page loads); a human's reading time
comes on top of both, and the agreement gain side by side (issue 42) is not measured here.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: bench/metrics.py must not hide the metrics package

from bench.browser import chromium, log_in, manage, server  # noqa: E402
from bench.common import production_env  # noqa: E402

JUDGE, PASSWORD = "bench-judge", "bench-judge-pw"
TEXT = "the quick brown fox jumps over a lazy dog near the river bank today"


def build(sentences: int) -> None:
    """The two corpora and the judge (run inside ``manage.py shell``)."""
    import io

    from annotation.corpora.imports import corpus_import
    from annotation.models import Sentence, User
    from annotation.models.corpus import Protocol
    from annotation.sidebyside.queue import side_by_side_set

    words = TEXT.split()
    judge = User.objects.create_user(JUDGE, password=PASSWORD, role=User.Role.JUDGE)
    rows = []
    for k in range(sentences):
        ref = " ".join(words[(k + i) % len(words)] for i in range(12))
        a = ref.replace("the", "teh", 1)
        b = " ".join(reversed(ref.split()[:3])) + " " + " ".join(ref.split()[3:])
        rows.append(
            f'<sentence doc="d"><source>fuente {k}</source>'
            f'<eval translator="first reference"><target>{ref}</target></eval>'
            f'<eval translator="one"><target>{a}</target></eval>'
            f'<eval translator="two"><target>{b}</target></eval></sentence>'
        )
    xml = ("<evalTrans>" + "".join(rows) + "</evalTrans>").encode()
    for name in ("single", "sbs"):
        corpus = corpus_import(source=io.BytesIO(xml), name=name, score=False).corpus
        corpus.protocol = Protocol.ESA
        corpus.save(update_fields=["protocol"])
        corpus.judges.add(judge)
        Sentence.objects.filter(corpus=corpus).update(queue_position=None)
        for s in Sentence.objects.filter(corpus=corpus):
            Sentence.objects.filter(pk=s.pk).update(queue_position=s.position)
    side_by_side_set(corpus=corpus, per_screen=2, seed=1)


def corpus_pk(env: dict[str, str], name: str) -> int:
    code = f"from annotation.models import Corpus; print(Corpus.objects.get(name={name!r}).pk)"
    return int(manage(env, "shell", "--no-imports", "-c", code).split()[-1])


def one_at_a_time(page: Any, base: str, pk: int, sentences: int) -> float:
    """Every candidate on the ESA page: a word marked minor, a score typed, accept."""
    page.goto(f"{base}/corpora/{pk}/judge/")
    page.wait_for_selector("#judge[data-judgment]")
    page.wait_for_function("() => window.htmx !== undefined")
    start = time.perf_counter()
    for _ in range(2 * sentences):
        shown = page.get_attribute("#judge", "data-judgment")
        page.click('#candidate .piece[data-word="1"]')
        page.click("#mark-minor")
        page.wait_for_selector("#spans .span-row")
        page.fill("#esa-score-number", "70")  # accept saves it first, as side by side
        page.click("#accept-next")
        page.wait_for_function(
            "(shown) => !document.querySelector('#judge') || "
            "document.querySelector('#judge').getAttribute('data-judgment') !== shown",
            arg=shown,
        )
    return time.perf_counter() - start


def side_by_side(page: Any, base: str, pk: int, sentences: int) -> float:
    """Every screen: a word marked in each panel, both scores typed, a preference, accept."""
    page.goto(f"{base}/corpora/{pk}/side-by-side/")
    page.wait_for_selector("#side-by-side")
    start = time.perf_counter()
    for _ in range(sentences):
        page.wait_for_function("() => window.htmx !== undefined")
        shown = page.get_attribute("#side-by-side", "data-comparison")
        for letter in "ab":
            panel = f"#sbs-panel-{letter}"
            page.click(f'{panel} .piece[data-word="1"]')
            page.click(f'{panel} [data-action="mark-minor"]')
            page.wait_for_selector(f"{panel} .span-row")
        page.fill("#score-a", "70")
        page.fill("#score-b", "60")
        page.click("#h-source")
        with page.expect_response(lambda r: r.url.endswith("/preference/")):
            page.keyboard.press("a")
        page.keyboard.press("Control+Enter")
        page.wait_for_function(
            "(shown) => !document.querySelector('#side-by-side') || "
            "document.querySelector('#side-by-side').getAttribute('data-comparison') !== shown",
            arg=shown,
        )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    single: list[float] = []
    paired: list[float] = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="evaltool-sbs-") as tmp:
            env = production_env(Path(tmp), "sbs.sqlite3")
            manage(env, "migrate", "--noinput")
            code = f"from bench.sidebyside import build; build({args.sentences})"
            manage(env, "shell", "--no-imports", "-c", code)
            pks = corpus_pk(env, "single"), corpus_pk(env, "sbs")
            with server(env) as base, chromium() as browser:
                page = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
                log_in(page, base, JUDGE, PASSWORD)
                single.append(one_at_a_time(page, base, pks[0], args.sentences) / args.sentences)
                paired.append(side_by_side(page, base, pks[1], args.sentences) / args.sentences)
    one, two = statistics.median(single), statistics.median(paired)
    print(f"scripted judge, {args.sentences} sentences × 2 systems, {args.rounds} rounds (median)")
    print(f"  one at a time  {one:6.2f} s per source sentence  (rounds: {_list(single)})")
    print(f"  side by side   {two:6.2f} s per source sentence  (rounds: {_list(paired)})")
    print(f"  side by side / one at a time: {two / one:.2f}")


def _list(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    main()
