"""Seconds per source sentence, side by side against one at a time, in a real browser:
``python bench/sidebyside.py [--sentences N] [--rounds R] [--protocol esa|awer]``.

Builds two ESA corpora of the same N sentences and two systems in a temporary SQLite
database: one judged one candidate at a time (the ESA page), one side by side (2 a
screen, the preference asked). A scripted judge in Debian's Chromium, against a
``make serve`` server, does the same work in both: on each candidate it selects a word
with the mouse, marks it, and gives a score; side by side it also prefers one of the two
by key, then accepts the screen once instead of twice. Scores are typed, never saved
on their own: accept saves them, on both pages. Prints the seconds per source
sentence of each mode (median over the rounds), and their ratio.

``--protocol awer`` builds aWER corpora instead: on each candidate the judge accepts the
first marked word (a click) and gives an SSER (a click), on the single aWER page and in
each panel alike; side by side it also prefers one by key and accepts once a screen.

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: bench/metrics.py must not hide the metrics package

from bench.browser import chromium, log_in, manage, server  # noqa: E402
from bench.common import production_env  # noqa: E402

JUDGE, PASSWORD = "bench-judge", "bench-judge-pw"
TEXT = "the quick brown fox jumps over a lazy dog near the river bank today"


def build(sentences: int, protocol: str = "esa") -> None:
    """The two corpora and the judge (run inside ``manage.py shell``), judged by
    ``protocol`` (``esa`` or ``awer``)."""
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
        corpus.protocol = Protocol.AWER if protocol == "awer" else Protocol.ESA
        corpus.save(update_fields=["protocol"])
        corpus.judges.add(judge)
        Sentence.objects.filter(corpus=corpus).update(queue_position=None)
        for s in Sentence.objects.filter(corpus=corpus):
            Sentence.objects.filter(pk=s.pk).update(queue_position=s.position)
    side_by_side_set(corpus=corpus, per_screen=2, seed=1)


def corpus_pk(env: dict[str, str], name: str) -> int:
    code = f"from annotation.models import Corpus; print(Corpus.objects.get(name={name!r}).pk)"
    return int(manage(env, "shell", "--no-imports", "-c", code).split()[-1])


def _open(page: Any, url: str, selector: str) -> float:
    """Open ``url``, wait for ``selector`` and htmx, and start the clock."""
    page.goto(url)
    page.wait_for_selector(selector)
    page.wait_for_function("() => window.htmx !== undefined")
    return time.perf_counter()


def _next_shown(page: Any, selector: str, attribute: str, shown: str | None) -> None:
    """Wait until ``selector`` is gone or shows another ``attribute`` than ``shown``: the
    next candidate, or the next screen."""
    page.wait_for_function(
        "([s, a, v]) => !document.querySelector(s) || "
        "document.querySelector(s).getAttribute(a) !== v",
        arg=[selector, attribute, shown],
    )


def one_at_a_time(page: Any, base: str, pk: int, sentences: int) -> float:
    """Every candidate on the ESA page: a word marked minor, a score typed, accept."""
    start = _open(page, f"{base}/corpora/{pk}/judge/", "#judge[data-judgment]")
    for _ in range(2 * sentences):
        shown = page.get_attribute("#judge", "data-judgment")
        page.click('#candidate .piece[data-word="1"]')
        page.click("#mark-minor")
        page.wait_for_selector("#spans .span-row")
        page.fill("#esa-score-number", "70")  # accept saves it first, as side by side
        page.click("#accept-next")
        _next_shown(page, "#judge", "data-judgment", shown)
    return time.perf_counter() - start


def side_by_side(
    page: Any, base: str, pk: int, sentences: int, panel: Callable[[Any, str], None] | None = None
) -> float:
    """Every screen: each panel's work (``panel``, ESA's by default: a word marked and a
    score typed, which accept saves), a preference by key, accept."""
    start = _open(page, f"{base}/corpora/{pk}/side-by-side/", "#side-by-side")
    for _ in range(sentences):
        page.wait_for_function("() => window.htmx !== undefined")
        shown = page.get_attribute("#side-by-side", "data-comparison")
        for letter in "ab":
            (panel or _esa_panel)(page, letter)
        page.click("#h-source")
        with page.expect_response(lambda r: r.url.endswith("/preference/")):
            page.keyboard.press("a")
        page.keyboard.press("Control+Enter")
        _next_shown(page, "#side-by-side", "data-comparison", shown)
    return time.perf_counter() - start


def _esa_panel(page: Any, letter: str) -> None:
    """An ESA panel's work: a word marked minor, a score typed (not saved)."""
    panel = f"#sbs-panel-{letter}"
    page.click(f'{panel} .piece[data-word="1"]')
    page.click(f'{panel} [data-action="mark-minor"]')
    page.wait_for_selector(f"{panel} .span-row")
    page.fill(f"#score-{letter}", "70" if letter == "a" else "60")


def _awer_panel(page: Any, letter: str) -> None:
    """An aWER panel's work: its first marked word accepted, SSER 7 (two clicks)."""
    panel = f"#sbs-panel-{letter}"
    _version_changed(page, panel, f"#candidate-{letter} [data-op] >> nth=0")
    _version_changed(page, panel, f'{panel} [data-sser="7"]')


def _version_changed(page: Any, selector: str, click: str) -> None:
    """Click ``click`` and wait until ``selector``'s ``data-version`` has changed."""
    version = page.get_attribute(selector, "data-version")
    page.click(click)
    _next_shown(page, selector, "data-version", version)


def awer_one_at_a_time(page: Any, base: str, pk: int, sentences: int) -> float:
    """Every candidate on the aWER page: its first marked word accepted, an SSER, accept."""
    start = _open(page, f"{base}/corpora/{pk}/judge/", "#judge[data-judgment]")
    for _ in range(2 * sentences):
        shown = page.get_attribute("#judge", "data-judgment")
        _version_changed(page, "#judge", "#candidate [data-op] >> nth=0")
        _version_changed(page, "#judge", '#judge [data-sser="7"]')
        page.click("#accept-next")
        _next_shown(page, "#judge", "data-judgment", shown)
    return time.perf_counter() - start


def awer_side_by_side(page: Any, base: str, pk: int, sentences: int) -> float:
    """Every screen: in each panel its first marked word accepted and an SSER; a
    preference by key; accept."""
    return side_by_side(page, base, pk, sentences, _awer_panel)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--protocol", choices=("esa", "awer"), default="esa")
    args = parser.parse_args()
    awer = args.protocol == "awer"
    single_mode = awer_one_at_a_time if awer else one_at_a_time
    paired_mode = awer_side_by_side if awer else side_by_side
    single: list[float] = []
    paired: list[float] = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="evaltool-sbs-") as tmp:
            env = production_env(Path(tmp), "sbs.sqlite3")
            manage(env, "migrate", "--noinput")
            code = f"from bench.sidebyside import build; build({args.sentences}, {args.protocol!r})"
            manage(env, "shell", "--no-imports", "-c", code)
            pks = corpus_pk(env, "single"), corpus_pk(env, "sbs")
            with server(env) as base, chromium() as browser:
                page = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
                log_in(page, base, JUDGE, PASSWORD)
                single.append(single_mode(page, base, pks[0], args.sentences) / args.sentences)
                paired.append(paired_mode(page, base, pks[1], args.sentences) / args.sentences)
    one, two = statistics.median(single), statistics.median(paired)
    print(
        f"scripted judge, {args.protocol}, {args.sentences} sentences × 2 systems, "
        f"{args.rounds} rounds (median)"
    )
    print(f"  one at a time  {one:6.2f} s per source sentence  (rounds: {_list(single)})")
    print(f"  side by side   {two:6.2f} s per source sentence  (rounds: {_list(paired)})")
    print(f"  side by side / one at a time: {two / one:.2f}")


def _list(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    main()
