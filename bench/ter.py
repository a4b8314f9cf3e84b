"""TER on a corpus the size the app imports: time to score every system.

    python bench/ter.py [--segments 1002] [--systems 20] [--references 3] [--sacrebleu]

The corpus is ``bench/gen_corpus.py``'s (TED words and lengths, systems as edited copies
of the first reference, some outputs shared between systems). Times our TER for all
systems at once (``score_corpus``, as the app scores a corpus) and system by system
(``corpus_score``); with ``--sacrebleu`` also sacreBLEU's ``TER(references=…)`` (many
minutes) and the largest score difference. Wall-clock and CPU seconds are both shown:
on a busy machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sacrebleu.metrics.ter import TER as SacreTER  # noqa: E402

from bench.gen_corpus import iter_sentences  # noqa: E402
from metrics.corpus import score_corpus  # noqa: E402
from metrics.ter import TER  # noqa: E402


def make_corpus(
    segments: int, systems: int, references: int
) -> tuple[list[tuple[str, ...]], dict[str, list[str]]]:
    refs: list[tuple[str, ...]] = []
    hyps: dict[str, list[str]] = {}
    for sentence in iter_sentences(
        sentences=segments, references=references, systems=systems, seed=7
    ):
        refs.append(tuple(e.target for e in sentence.evals if e.translator.endswith("reference")))
        for e in sentence.evals:
            if not e.translator.endswith("reference"):
                hyps.setdefault(e.translator, []).append(e.target)
    return refs, hyps


def timed(run: Callable[[], list[float]]) -> tuple[float, float, list[float]]:
    wall, cpu = time.perf_counter(), time.process_time()
    scores = run()
    return time.perf_counter() - wall, time.process_time() - cpu, scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=1002)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--references", type=int, default=3)
    parser.add_argument("--sacrebleu", action="store_true", help="also time sacreBLEU (slow)")
    args = parser.parse_args()

    refs, hyps = make_corpus(args.segments, args.systems, args.references)
    words = sum(len(h.split()) for system in hyps.values() for h in system)
    print(
        f"corpus: {len(refs):,} segments × {len(hyps)} systems, "
        f"{args.references} references, {words:,} candidate words"
    )

    def together() -> list[float]:
        got = score_corpus(refs, hyps, [TER()])
        return [got[name]["ter"].score for name in hyps]

    def one_by_one() -> list[float]:
        metric = TER()
        prepared = metric.prepare_references(refs)
        return [metric.corpus_score(h, refs, prepared).score for h in hyps.values()]

    def sacre() -> list[float]:
        streams = [list(s) for s in zip(*refs, strict=True)]
        metric = SacreTER(references=streams)
        return [metric.corpus_score(h, None).score for h in hyps.values()]

    runs = [("ours, all systems at once", together), ("ours, system by system", one_by_one)]
    if args.sacrebleu:
        runs.append(("sacreBLEU TER(references=…)", sacre))
    results = {}
    for label, run in runs:
        wall, cpu, scores = timed(run)
        results[label] = (wall, cpu, scores)
        print(f"  {label:<32}{wall:8.2f} s wall {cpu:8.2f} s CPU")
    first = results[runs[0][0]][2]
    for label, (_, _, scores) in results.items():
        diff = max(abs(a - b) for a, b in zip(first, scores, strict=True))
        print(f"  largest score difference to {label}: {diff:.2e}")
    if args.sacrebleu:
        wall, cpu, _ = results["sacreBLEU TER(references=…)"]
        for label, _ in runs[:2]:
            ours_wall, ours_cpu, _ = results[label]
            print(
                f"  ratio {label} / sacreBLEU: {ours_wall / wall:.3f} wall, "
                f"{ours_cpu / cpu:.3f} CPU"
            )


if __name__ == "__main__":
    main()
