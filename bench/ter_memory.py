"""TER's peak memory on long lines beside sacreBLEU's, on the same lines (issue 40, point 3).

    python bench/ter_memory.py [--words 2000,5000] [--kinds documents,edited] [--no-sacrebleu]

Each line is one candidate against one reference, of real text
(:func:`metrics.tests.demo.long_line_pair`): ``documents`` is three systems' documents of
the demo corpus against its two references' documents, as an unsegmented document is
scored; ``edited`` the references' words with one neighbour swap and one replaced word
in every 20 (few errors: many rounds of shifts, each with a few candidates).

Each figure is a fresh process's (``--child``): its peak resident memory (VmHWM, which a
new program starts afresh, unlike getrusage's ``ru_maxrss``), Python and its modules
included (``start`` is the peak before scoring), the wall time of the scoring, and the
edits found. sacreBLEU's search is plain Python: minutes at 2,000 words, and much longer
at 5,000 (the ``edited`` line above all). Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TOOLS = ("evaltool", "sacrebleu")


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child(tool: str, kind: str, words: int) -> dict[str, float]:
    """Score one line with ``tool`` in this process: edits, peak MB, seconds."""
    from metrics.tests.demo import long_line_pair

    hyp, ref = long_line_pair(kind, words)
    if tool == "sacrebleu":
        from sacrebleu.metrics import TER as SacreTER

        start, began = peak_mb(), time.perf_counter()
        edits = float(SacreTER().corpus_score([hyp], [[ref]]).num_edits)
    else:
        from metrics.ter import TER

        start, began = peak_mb(), time.perf_counter()
        stats = TER().corpus_score([hyp], [(ref,)]).stats
        assert stats is not None
        edits = float(stats[0, 0])
    seconds = time.perf_counter() - began
    return {"edits": edits, "peak_mb": peak_mb(), "start_mb": start, "seconds": seconds}


def measure(tool: str, kind: str, words: int) -> dict[str, float]:
    """:func:`child` in a process of its own."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", tool, kind, str(words)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"failed": 1.0, "error": last}  # type: ignore[dict-item]
    found: dict[str, float] = json.loads(done.stdout)
    return found


def _cell(found: dict[str, float]) -> str:
    if "failed" in found:
        return f"failed: {found['error']}"
    return (
        f"{found['peak_mb']:7.0f} MB (start {found['start_mb']:.0f}) "
        f"{found['seconds']:7.1f} s  {found['edits']:.0f} edits"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default="2000,5000", help="line lengths, comma-separated")
    parser.add_argument("--kinds", default="documents", help="documents, edited or both")
    parser.add_argument("--no-sacrebleu", action="store_true", help="evaltool's figures only")
    parser.add_argument(
        "--child", nargs=3, metavar=("TOOL", "KIND", "WORDS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.child:
        tool, kind, words = args.child
        print(json.dumps(child(tool, kind, int(words))))
        return
    tools = TOOLS[:1] if args.no_sacrebleu else TOOLS
    print("TER on one long line: peak resident memory of a fresh process, scoring time, edits")
    for kind in args.kinds.split(","):
        for words in (int(w) for w in args.words.split(",")):
            found = {tool: measure(tool, kind, words) for tool in tools}
            for tool in tools:
                print(f"{kind:9} {words:6,} words  {tool:9}  {_cell(found[tool])}", flush=True)
            ours, theirs = found["evaltool"], found.get("sacrebleu")
            if theirs and "failed" not in ours and "failed" not in theirs:
                ratio = ours["peak_mb"] / theirs["peak_mb"]
                same = "same edits" if ours["edits"] == theirs["edits"] else "EDITS DIFFER"
                print(f"{'':23}  evaltool / sacreBLEU peak: {ratio:.2f}x, {same}", flush=True)


if __name__ == "__main__":
    main()
