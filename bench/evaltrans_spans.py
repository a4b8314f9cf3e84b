"""Export speed of ESA corpora: ``python bench/evaltrans_spans.py [--sentences N]``.

Issue 41, point 5: an ESA or MQM corpus's evalTrans export carries every judgment's score
and spans (``<errorSpans>``) and must stay as fast, and as streaming, as an aWER
corpus's. Two corpora of the same size (by default 1,002 sentences × 20 systems, one
judge on every candidate: 20,040 judgments) are imported into a fresh SQLite database in
a temp directory (or ``DATABASE_URL`` if set — it must then be a disposable database),
DEBUG off: an aWER one (each judgment an SSER score) and an ESA one with pre-filled spans
(each judgment three suggestions, three spans of the judge's, one of them a kept
suggestion, a score). Each is exported to memory by ``corpus_export``, three times. The
figures: the import's wall and CPU seconds; the whole export's wall and CPU seconds (the
run of least CPU), the time to its first piece (what a download waits for), its SQL
queries, the peak of Python's allocations (tracemalloc, in a fourth run) and the bytes.
Prints, never asserts.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.common import production_env  # noqa: E402

WORDS = [f"w{k}" for k in range(300)]


def corpus_file(path: Path, *, sentences: int, systems: int, esa: bool) -> None:
    """The evalTrans file of a corpus judged by one judge, ``esa`` or aWER (module doc)."""
    from annotation.corpora.evaltrans import (
        FIRST_REFERENCE,
        CorpusHeader,
        EvalElement,
        SentenceElement,
        write_evaltrans,
    )
    from annotation.corpora.evaltrans.error_spans import SpanElement

    rng = random.Random(41)

    def spans(text: str) -> tuple[SpanElement, ...]:
        starts = [0] + [k + 1 for k, c in enumerate(text) if c == " "]
        ends = [text.index(" ", s) if " " in text[s:] else len(text) for s in starts]
        picked = sorted(rng.sample(range(len(starts)), 5))
        at = [(starts[k], ends[k]) for k in picked]
        suggested = tuple(
            SpanElement(s, e, "minor", suggested=True, source="imported") for s, e in at[:3]
        )
        own = (
            SpanElement(*at[0], "minor", suggestion=1, seconds=1.5),
            SpanElement(*at[3], "major", seconds=2.25),
            SpanElement(len(text), len(text), "minor", missing=True, seconds=0.75),
        )
        return suggested + own

    def elements():
        for k in range(sentences):
            reference = " ".join(rng.choice(WORDS) for _ in range(20))
            evals = [EvalElement(translator=FIRST_REFERENCE, target=reference, line=0)]
            for s in range(systems):
                text = " ".join(rng.choice(WORDS) for _ in range(20))
                judged = {"evaluator": "judge"}
                if esa:
                    evals.append(
                        EvalElement(
                            translator=f"system {s}",
                            target=text,
                            line=0,
                            **judged,
                            esa_score=rng.randint(0, 100),
                            spans=spans(text),
                        )
                    )
                else:
                    evals.append(
                        EvalElement(
                            translator=f"system {s}",
                            target=text,
                            line=0,
                            **judged,
                            sser=rng.randint(0, 10),
                        )
                    )
            yield SentenceElement(source=f"source {k}", evals=tuple(evals), line=0, position=k)

    protocol = "esa_prefill" if esa else None
    with path.open("wb") as out:
        write_evaltrans(out, CorpusHeader(name=path.stem, protocol=protocol), elements())


def measure(name: str) -> dict[str, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotation.corpora.exports import corpus_export_bytes
    from annotation.models import Corpus

    corpus = Corpus.objects.get(name=name)
    runs = []
    for _ in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        with CaptureQueriesContext(connection) as queries:
            pieces = corpus_export_bytes(corpus=corpus)
            first = next(pieces)
            first_at = time.perf_counter() - wall
            size = len(first) + sum(len(piece) for piece in pieces)
        runs.append(
            {
                "wall": time.perf_counter() - wall,
                "cpu": time.process_time() - cpu,
                "first": first_at,
                "queries": len(queries),
                "mb": size / 2**20,
            }
        )
    best = min(runs, key=lambda r: r["cpu"])
    tracemalloc.start()  # a run of its own: tracing slows every allocation down
    for _ in corpus_export_bytes(corpus=corpus):
        pass
    best["peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=1002)
    parser.add_argument("--systems", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="evaltool-bench-spans-") as tmp:
        os.environ.update(production_env(Path(tmp)))
        import django

        django.setup()
        from django.core.management import call_command

        from annotation.corpora.imports import corpus_import
        from annotation.models import Span

        call_command("migrate", verbosity=0)
        print(f"{args.sentences} sentences × {args.systems} systems, one judge on every candidate")
        print(f"load average before the run: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
        rows = []
        for label, esa in (("aWER (SSER)", False), ("ESA pre-filled", True)):
            path = Path(tmp) / ("esa.xml" if esa else "awer.xml")
            corpus_file(path, sentences=args.sentences, systems=args.systems, esa=esa)
            start, cpu = time.perf_counter(), time.process_time()
            corpus_import(source=path, name=path.stem, score=False)
            imported = (time.perf_counter() - start, time.process_time() - cpu)
            rows.append((label, imported, measure(path.stem)))
        print(f"spans stored: {Span.objects.count():,}")
        head = ("corpus", "import s", "(CPU s)", "export s", "(CPU s)", "first piece s")
        head += ("queries", "peak MB")
        print("  ".join(f"{h:>14}" for h in (*head, "file MB")))
        for label, imported, r in rows:
            figures = (
                f"{imported[0]:.2f}",
                f"{imported[1]:.2f}",
                f"{r['wall']:.2f}",
                f"{r['cpu']:.2f}",
                f"{r['first']:.3f}",
                f"{r['queries']}",
                f"{r['peak_mb']:.1f}",
                f"{r['mb']:.1f}",
            )
            print("  ".join(f"{c:>14}" for c in (label, *figures)))


if __name__ == "__main__":
    main()
