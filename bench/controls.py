"""How much a judge's page pays for the control items' runs (``annotation/controls/runs.py``).

With controls on, every page works out where its item stands: the run of its sentence
(:func:`run_items`: a seeded draw of the run's control places and one per control) and
the reference the sentence hides (one draw). The queue's length and where each run
starts are read once per corpus and process (:func:`corpus_queue`), from the sentences'
candidate counts. Nothing walks the corpus on a page, so its cost depends on the number
of systems and not on the number of sentences; this prints it at a real size (1,000
sentences × 20 systems) for rates 3, 10 and 100, with the controls each run then holds.

With ``--db``, the same on a real database (a temporary SQLite file): a corpus of 1,000
sentences × 3 references × 20 systems (``bench/gen_corpus.py``) imported, a judge with
the first 500 sentences of the queue done, then the judge's page (``judging_context`` and
``judge_header``, as the view calls them) with controls off and on at rates 3 and 10:
median time and queries, and the one query per corpus and process that reads the
sentences' spans.

    python -m bench.controls [--db]
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

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
    from annotation.controls.runs import (
        Placement,
        Span,
        controls_per_run,
        queue_total,
        run_items,
        spans_of,
    )

    order, references = list(range(SYSTEMS)), list(range(REFERENCES))
    print(f"{SENTENCES} sentences × {SYSTEMS} systems, {REFERENCES} references a sentence")
    print(
        f"{'rate':>5} {'a run':>6} {'run (µs)':>10} {'max run (µs)':>13} {'spans (ms)':>11} "
        f"{'items':>7}"
    )
    for rate in (3, 10, 100):
        per_run = controls_per_run(rate, SYSTEMS)
        placement = Placement(7, 1, per_run)
        counts = [(SYSTEMS, REFERENCES)] * SENTENCES
        spans = spans_of(counts, per_run)

        def run(span: Span, placement: Placement = placement) -> object:
            return run_items(
                placement, blind=True, sentence_id=1, span=span, order=order, references=references
            )

        runs = [per_call(lambda s=s: run(s), 3) for s in spans[::50]]
        whole = per_call(lambda c=counts, p=per_run: spans_of(c, p), 20) / 1e3
        items = queue_total(spans, per_run)
        print(
            f"{rate:>5} {per_run:>6} {statistics.median(runs):>10.0f} {max(runs):>13.0f} "
            f"{whole:>11.2f} {items:>7}"
        )


def on_a_database(workdir: Path) -> None:
    """The judge's page at a real size, controls off and on (see the module)."""
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotation.controls import runs
    from annotation.corpora.imports import corpus_import
    from annotation.judging.header import judge_header
    from annotation.judging.page import judging_context
    from annotation.judging.stack import judgment_for
    from annotation.judging.start import next_judgment_for
    from annotation.models import Judgment, Target, Translator, User
    from annotation.text import words
    from bench import gen_corpus

    call_command("migrate", verbosity=0)
    xml = workdir / "corpus.xml"
    gen_corpus.main([str(xml), "-n", str(SENTENCES), "-r", "3", "-s", str(SYSTEMS)])
    with xml.open("rb") as source:
        corpus = corpus_import(source=source, name="bench-controls").corpus
    judge = User.objects.create_user("bench-judge", password="x")
    corpus.judges.add(judge)
    done = Target.objects.filter(
        sentence__corpus=corpus,
        sentence__queue_position__lt=SENTENCES // 2,
        translator__role=Translator.Role.SYSTEM,
    ).values_list("pk", "text")
    Judgment.objects.bulk_create(
        Judgment(
            target_id=pk,
            evaluator=judge,
            new_ref=" ".join(words(text)),
            sser=7,
            edits=0,
            ref_length=len(words(text)),
            state=Judgment.State.DONE,
        )
        for pk, text in done
    )
    print(
        f"\n{corpus.n_sentences} × {corpus.n_candidates // corpus.n_sentences} systems, "
        f"judge at sentence {SENTENCES // 2 + 1}"
    )
    start = time.perf_counter()
    runs.corpus_spans(corpus)
    print(
        f"the sentences' spans (one query, once per process): "
        f"{(time.perf_counter() - start) * 1e3:.0f} ms"
    )
    print(f"{'controls':>9} {'page (ms)':>10} {'queries':>8}")
    for rate in (0, 3, 10):
        corpus.controls_enabled, corpus.control_rate = bool(rate), rate or 10
        corpus.save()
        item = next_judgment_for(user=judge, corpus=corpus)
        times, queries = [], 0
        for _ in range(15):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                judgment = judgment_for(pk=item.pk, user=judge)
                ctx = judging_context(judgment)
                judge_header(judgment, ctx.run_item)
                times.append(time.perf_counter() - start)
            queries = len(captured)
        label = f"1 in {rate}" if rate else "off"
        print(f"{label:>9} {statistics.median(times) * 1e3:>10.1f} {queries:>8}")


if __name__ == "__main__":
    import os
    import sys
    import tempfile

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    if "--db" in sys.argv:
        workdir = Path(tempfile.mkdtemp(prefix="bench-controls-"))
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
        main()
        on_a_database(workdir)
    else:
        main()
