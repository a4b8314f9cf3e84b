"""How much a judge's page pays for the control items' runs (``annotation/controls/runs.py``).

With controls on, every page works out where its item stands: the run of its sentence
(:func:`run_items`: a seeded draw per item of the run), the queue's length
(:func:`queue_total`: one draw) and whether the run hides a reference
(:func:`hidden_reference`'s draw, the same run again). Nothing walks the corpus, so the
cost depends on the number of systems and not on the number of sentences; this prints it
at a real size (1,000 sentences × 20 systems) for rates 3, 10 and 100, plus what the one
query per corpus and process (the sentences' spans) would cost to rebuild in Python.

    python -m bench.controls
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

SENTENCES, SYSTEMS, REFERENCES = 1000, 20, 2


def per_call(fn: Callable[[], object], repeat: int) -> float:
    """The median time of ``fn``, in microseconds, over ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    import django

    django.setup()
    from annotation.controls.runs import Placement, Span, queue_total, run_items

    spans = [Span(k * SYSTEMS, SYSTEMS, REFERENCES) for k in range(SENTENCES)]
    order, references = list(range(SYSTEMS)), list(range(REFERENCES))
    print(f"{SENTENCES} sentences × {SYSTEMS} systems, {REFERENCES} references a sentence")
    print(f"{'rate':>5} {'run (µs)':>10} {'max run (µs)':>13} {'total (µs)':>11} {'items':>7}")
    for rate in (3, 10, 100):
        placement = Placement(7, 1, rate)

        def run(span: Span, placement: Placement = placement) -> object:
            return run_items(
                placement, blind=True, sentence_id=1, span=span, order=order, references=references
            )

        runs = [per_call(lambda s=s: run(s), 3) for s in spans[::50]]
        total = per_call(lambda p=placement: queue_total(p, SENTENCES * SYSTEMS), 200)
        items = queue_total(placement, SENTENCES * SYSTEMS)
        print(
            f"{rate:>5} {statistics.median(runs):>10.0f} {max(runs):>13.0f} {total:>11.1f} "
            f"{items:>7}"
        )
    start = time.perf_counter()
    first, rows = 0, []
    for _ in range(SENTENCES):
        rows.append(Span(first, SYSTEMS, REFERENCES))
        first += SYSTEMS
    print(f"spans of the corpus rebuilt from rows: {(time.perf_counter() - start) * 1e3:.1f} ms")


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    main()
