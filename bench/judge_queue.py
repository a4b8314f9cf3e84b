"""What the stratified queue (``annotation/queue_order.py``, walked by
``annotation/judging/order.py``) costs:
``python -m bench.judge_queue``.

A corpus of 1,000 sentences × 3 references × 20 systems in documents of 50 sentences
(``bench/gen_corpus.py``) is imported through the app's import, on SQLite (a temporary
file) and on PostgreSQL (``evaltool_bench_queue``, dropped and created here). Printed:

* the import's drawing and storing of the queue (:func:`queue_positions` and the
  writes), beside the whole import; the draw alone for 20,000 sentences in 400 documents;
* the judge's next candidate (:func:`next_target_for`) and the candidate before
  (:func:`previous_target_for`) with the judge 0 %, 50 % and 95 % of the way through the
  queue: median time and queries, in the stratified order and — the peer — in file
  order (the order before it, as a corpus migrated from then keeps it), with their ratio;
* the database's plan for the next candidate's first query.

    python -m bench.judge_queue [--db sqlite|postgres|both] [--sentences N]

``--sentences`` makes a smaller corpus (a smoke run). The temporary directory and the
PostgreSQL database are removed at the end.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SENTENCES, SYSTEMS, REFERENCES = 1000, 20, 3
PG_DATABASE = "evaltool_bench_queue"
REPEAT = 15


def median_ms(fn: Callable[[], object], repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def measure(workdir: Path, sentences_wanted: int) -> None:
    """Everything the module prints, on the database ``DATABASE_URL`` names."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from annotation.models import User

    call_command("migrate", verbosity=0)
    print(f"\n## {connection.vendor}")
    corpus, documents, places = import_with_queue(workdir, sentences_wanted)
    judge = User.objects.create_user("bench-queue-judge", password="x")
    corpus.judges.add(judge)
    print_walks(corpus, judge, sentences_wanted)
    store_queue(corpus, documents, places)
    judged_up_to(judge, corpus, sentences_wanted // 2)
    print_plan(corpus, judge)


def import_with_queue(workdir: Path, size: int) -> tuple[Any, list[tuple[int, Any]], list[int]]:
    """Import the corpus and time its queue's draw and write (printed); the corpus, its
    sentences' (pk, document) in file order and their queue positions."""
    from annotation.corpora.imports import corpus_import
    from annotation.models import Sentence
    from annotation.queue_order import queue_positions
    from bench import gen_corpus

    xml = workdir / "corpus.xml"
    gen_corpus.main([str(xml), "-n", str(size), "-r", str(REFERENCES), "-s", str(SYSTEMS)])
    start = time.perf_counter()
    corpus = corpus_import(source=xml, name="bench-queue", score=False).corpus
    whole = time.perf_counter() - start
    sentences = Sentence.objects.filter(corpus=corpus)
    documents = list(sentences.order_by("position").values_list("pk", "doc"))
    draw = median_ms(lambda: queue_positions([d for _, d in documents], seed="x"), 5)
    start = time.perf_counter()
    places = queue_positions([d for _, d in documents], seed=corpus.name)
    store_queue(corpus, documents, places)
    stored = time.perf_counter() - start
    big = [f"doc {k // 50}" for k in range(20_000)]
    print(
        f"import of {size} × {REFERENCES} × {SYSTEMS}: {whole:.1f} s, of which the queue "
        f"(draw and write): {stored * 1e3:.0f} ms (the draw: {draw:.1f} ms; "
        f"for 20,000 sentences: {median_ms(lambda: queue_positions(big, seed='x'), 3):.0f} ms)"
    )
    return corpus, documents, places


def store_queue(corpus: Any, documents: list[tuple[int, Any]], places: list[int]) -> None:
    """Write the queue positions ``places`` of the sentences ``documents`` (pk, doc)."""
    from annotation.models import Sentence

    Sentence.objects.filter(corpus=corpus).update(queue_position=None)
    Sentence.objects.bulk_update(
        [Sentence(pk=pk, queue_position=p) for (pk, _), p in zip(documents, places, strict=True)],
        ["queue_position"],
        batch_size=500,
    )


def judged_up_to(judge: Any, corpus: Any, queue_position: int) -> None:
    """Leave ``judge`` with done judgments of every system candidate before
    ``queue_position`` in the queue, and nothing else (statistics fresh on PostgreSQL)."""
    from django.db import connection

    from annotation.models import Judgment, Target, Translator

    systems = Target.objects.filter(
        sentence__corpus=corpus, translator__role=Translator.Role.SYSTEM
    )
    Judgment.objects.filter(evaluator=judge).delete()
    Judgment.objects.bulk_create(
        Judgment(target_id=pk, evaluator=judge, state=Judgment.State.DONE, sser=7)
        for pk in systems.filter(sentence__queue_position__lt=queue_position).values_list(
            "pk", flat=True
        )
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def print_walks(corpus: Any, judge: Any, size: int) -> None:
    """The next and previous candidate's times and queries, 0 %, 50 % and 95 % through
    the queue, in the stratified order and then in file order, and their ratios."""
    from django.db import connection
    from django.db.models import F
    from django.test.utils import CaptureQueriesContext

    from annotation.judging.order import next_target_for, previous_target_for
    from annotation.judging.start import judgment_open
    from annotation.models import Sentence

    print(
        f"{'order':>10} {'through':>8} {'next (ms)':>10} {'queries':>8} "
        f"{'previous (ms)':>14} {'queries':>8}"
    )
    rows: dict[tuple[str, int], tuple[float, float]] = {}
    for order in ("stratified", "file"):
        if order == "file":
            sentences = Sentence.objects.filter(corpus=corpus)
            sentences.update(queue_position=None)
            sentences.update(queue_position=F("position"))
        for share in (0, 50, 95):
            judged_up_to(judge, corpus, size * share // 100)
            target = next_target_for(user=judge, corpus=corpus)
            assert target is not None
            with CaptureQueriesContext(connection) as next_queries:
                next_target_for(user=judge, corpus=corpus)
            judgment = judgment_open(user=judge, target=target)
            with CaptureQueriesContext(connection) as previous_queries:
                previous_target_for(judgment=judgment)
            next_ms = median_ms(lambda: next_target_for(user=judge, corpus=corpus))
            previous_ms = median_ms(lambda j=judgment: previous_target_for(judgment=j))
            rows[order, share] = (next_ms, previous_ms)
            print(
                f"{order:>10} {share:>7}% {next_ms:>10.2f} {len(next_queries):>8} "
                f"{previous_ms:>14.2f} {len(previous_queries):>8}"
            )
    for share in (0, 50, 95):
        (a, b), (c, d) = rows["stratified", share], rows["file", share]
        print(f"stratified / file at {share}%: next ×{a / c:.2f}, previous ×{b / d:.2f}")


def print_plan(corpus: Any, judge: Any) -> None:
    """The database's plan for the first query of the judge's next candidate."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotation.judging.order import next_target_for

    with CaptureQueriesContext(connection) as captured:
        next_target_for(user=judge, corpus=corpus)
    first = captured.captured_queries[0]["sql"]
    explain = "EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN "
    with connection.cursor() as cursor:
        cursor.execute(explain + first)
        plan = [" ".join(str(c) for c in row) for row in cursor.fetchall()]
    print("plan of the next candidate's first query (judge half-way):")
    print("\n".join(f"    {line}" for line in plan))


def main() -> None:
    from bench.common import sized_bench_main

    sized_bench_main("bench.judge_queue", __doc__, measure, SENTENCES, PG_DATABASE)


if __name__ == "__main__":
    main()
