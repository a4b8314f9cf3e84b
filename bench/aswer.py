"""AS-WER re-segmentation speed and memory against ``mweralign``, measured in the same run.

    python bench/aswer.py [--segments 2500] [--refs 1,2,3,4] [--mweralign-refs 1,2,3,4]
                          [--hard-refs 1] [--check]

Targets (issue 16): on >= 2,500 segments and >= 45,000 words, time <= 1.0x mweralign's
and peak memory <= 400 MB, with the same AS-WER and boundaries. ``mweralign`` (PyPI) is
the C++ port of RWTH's mwerSegmenter; several references go to it as ``ref ### ref``
lines, its own multi-reference format.

The corpus is synthetic but real-length (``bench/gen_corpus.py``): sentence lengths and
words from the TED demo corpus, references and a system as edited copies of a first
reference; the system's output is one document (its line breaks are spaces to both
tools). The ``hard`` document (``--hard-refs``) is another system's output with 5 % of
its sentences dropped and an unrelated sentence (shuffled words of another) inserted
after 5 %: the alignment's best cells then jump far within one row.

Both compare whitespace words case-insensitively (mweralign ``-m none``, ours
``--tokenize none --lowercase``), and mweralign is given our words: the tokens joined by
one space, lowercased by Python (it splits at ASCII white space and folds ASCII letters
only, so raw text with a no-break space or a capital Ü would be other words to it:
docs/metrics.md).

Each measurement runs in a fresh process: wall time of the re-segmentation call alone
(ours includes tokenizing the references and the document) and the process's peak
resident memory (``ru_maxrss``: Python, numpy and the data included). ``--check`` exits
1 when a figure is past its target (:class:`bench.common.Verdicts`; by hand, not in CI).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import Budget, Verdicts, add_check_option  # noqa: E402

#: Every figure of the run against its target (``--check``).
VERDICTS = Verdicts()
TIME_RATIO = Budget(1.0, "×")
PEAK = Budget(400, "MB")


def write_corpus(directory: Path, segments: int, refs: int, seed: int = 3) -> tuple[int, int]:
    """``ref1.txt … refN.txt``, ``edited.txt`` and ``hard.txt``; returns the words of the
    first reference and of ``edited.txt``."""
    import random

    from bench.gen_corpus import iter_sentences

    streams: list[list[str]] = [[] for _ in range(refs)]
    edited: list[str] = []
    other: list[str] = []
    for sentence in iter_sentences(sentences=segments, references=refs, systems=8, seed=seed):
        targets = [e.target for e in sentence.evals]
        for r in range(refs):
            streams[r].append(targets[r])
        edited.append(targets[refs])
        other.append(targets[-1])
    rng = random.Random(seed)
    hard: list[str] = []
    for sentence in other:
        if rng.random() < 0.05:
            continue
        hard.append(sentence)
        if rng.random() < 0.05:
            extra = rng.choice(other).split()
            rng.shuffle(extra)
            hard.append(" ".join(extra))
    for r, lines in enumerate(streams, start=1):
        (directory / f"ref{r}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, sentences in (("edited", edited), ("hard", hard)):
        # the document's lines are not the references': two sentences per line
        doc = [" ".join(sentences[k : k + 2]) for k in range(0, len(sentences), 2)]
        (directory / f"{name}.txt").write_text("\n".join(doc) + "\n", encoding="utf-8")
    return sum(len(s.split()) for s in streams[0]), sum(len(s.split()) for s in edited)


def worker(tool: str, directory: Path, refs: int, doc: str) -> None:
    """Re-segment in this (fresh) process; print one JSON line."""
    ref_lines = [
        (directory / f"ref{r}.txt").read_text(encoding="utf-8").splitlines()
        for r in range(1, refs + 1)
    ]
    document = (directory / f"{doc}.txt").read_text(encoding="utf-8")
    if tool == "ours":
        from metrics.aswer import resegment_text
        from metrics.tokenize import Preprocessor

        segment_refs = list(zip(*ref_lines, strict=True))
        start = time.perf_counter()
        seg, _ = resegment_text(document, segment_refs, Preprocessor("none", lowercase=True))
        seconds = time.perf_counter() - start
        boundaries, rate = list(seg.boundaries), 100 * seg.rate
    else:
        import io
        import os
        import re

        import mweralign

        from metrics.aswer import matching_words
        from metrics.tokenize import Preprocessor

        pp = Preprocessor("none", lowercase=True)

        def words(text: str) -> str:
            return " ".join(matching_words(pp, text)[1])

        ref_text = "\n".join(" ### ".join(map(words, seg)) for seg in zip(*ref_lines, strict=True))
        hyp_text = words(document)
        err = os.dup(2)
        with tempfile.TemporaryFile() as log:
            os.dup2(log.fileno(), 2)  # the C++ prints AS-WER on stderr
            start = time.perf_counter()
            out = mweralign.align_texts(ref_text, hyp_text)
            seconds = time.perf_counter() - start
            os.dup2(err, 2)
            log.seek(0)
            printed = io.TextIOWrapper(log, encoding="utf-8").read()
        rate = float(re.findall(r"AS-WER[^:]*: ([\d.e+-]+)", printed)[-1])
        boundaries, position = [], 0
        for line in out.split("\n")[: len(ref_lines[0])]:
            position += len(line.split())
            boundaries.append(position)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb, "rate": rate, "ends": boundaries}))


def measure(tool: str, directory: Path, refs: int, doc: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", tool, "--dir", str(directory)]
        + ["--refs", str(refs), "--doc", doc],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--segments", type=int, default=2500)
    p.add_argument("--refs", default="1,2,3,4", help="reference counts to measure ours on")
    p.add_argument("--mweralign-refs", default="1,2,3,4", help="… and mweralign on")
    p.add_argument("--hard-refs", default="1", help="reference counts for the hard document")
    p.add_argument("--worker", choices=("ours", "mweralign"), help=argparse.SUPPRESS)
    p.add_argument("--dir", help=argparse.SUPPRESS)
    p.add_argument("--doc", default="edited", help=argparse.SUPPRESS)
    add_check_option(p)
    args = p.parse_args()
    if args.worker:
        worker(args.worker, Path(args.dir), int(args.refs), args.doc)
        return 0
    counts = [int(r) for r in args.refs.split(",")]
    theirs = {int(r) for r in args.mweralign_refs.split(",") if r}
    hard = [int(r) for r in args.hard_refs.split(",") if r]
    runs = [("edited", r) for r in counts] + [("hard", r) for r in hard]
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        ref_words, hyp_words = write_corpus(directory, args.segments, max(counts + hard))
        print(f"{args.segments} segments, {ref_words} reference words, {hyp_words} candidate words")
        print(
            f"{'document':<8}  {'refs':>4}  {'tool':<10}{'time':>9}  {'peak RSS':>9}  "
            f"{'AS-WER':>8}  agreement"
        )
        for doc, refs in runs:
            ours = measure("ours", directory, refs, doc)
            rows = [("ours", ours)]
            if refs in theirs or doc == "hard":
                rows.append(("mweralign", measure("mweralign", directory, refs, doc)))
            what = f"{doc}, {refs} reference{'s' if refs > 1 else ''}"
            peak = float(ours["peak_mb"])  # type: ignore[arg-type]
            over = VERDICTS.judge(f"{what}: our peak", peak, PEAK)
            for name, r in rows:
                note = "OVER (peak)" if over else ""
                if name == "mweralign":
                    ends = zip(r["ends"], ours["ends"], strict=True)  # type: ignore[call-overload]
                    differ = sum(a != b for a, b in ends)
                    ratio = float(ours["seconds"]) / float(r["seconds"])  # type: ignore[arg-type]
                    mem = float(ours["peak_mb"]) / float(r["peak_mb"])  # type: ignore[arg-type]
                    slower = VERDICTS.judge(f"{what}: our time / mweralign's", ratio, TIME_RATIO)
                    note = (
                        f"{differ} boundaries differ; ours: {ratio:.2f}x the time, "
                        f"{mem:.2f}x the memory{'  OVER' if slower else ''}"
                    )
                figures = f"{r['seconds']:>8.1f}s  {r['peak_mb']:>6.0f} MB  {r['rate']:>7.3f}%"
                print(f"{doc:<8}  {refs:>4}  {name:<10}{figures}  {note}".rstrip())
    VERDICTS.finish(args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
