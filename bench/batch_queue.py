"""What a judge's batch costs where a campaign splits the work
(``annotation/judging/order.py``'s batches, ``annotation/judging/batches.py``):
``python -m bench.batch_queue``.

A corpus of 1,000 sentences × 3 references × 20 systems in documents of 50 sentences
(``bench/gen_corpus.py``) is imported through the app's import, on SQLite (a temporary
file) and on PostgreSQL (``evaltool_bench_batches``, dropped and created here), into a
campaign of one annotator per item, in batches of 5 sentences (100 candidates). Half the
batches are judged by 50 other judges (one judgment per candidate, made in its batch),
and the judge holds a batch of the second half. Printed, with the judge 0 %, 50 % and
95 % of the way through their batch: median time and queries of

* the judge's next candidate in the batch (:func:`next_in_task`), beside the next
  candidate where every judge judges everything (:func:`next_target_for`, the judge
  half-way through the corpus: the peer);
* the candidate before (:func:`previous_target_for`);
* the header's counts of the batch (:func:`judge_header`'s one query);
* the home page's and the finished page's batches (:func:`judge_batches`);
* the batch's queue (:func:`task_queue`) read once per process and batch.

    python -m bench.batch_queue [--db sqlite|postgres|both] [--sentences N]
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bench.judge_queue import median_ms

SENTENCES, SYSTEMS, REFERENCES, PER_BATCH = 1000, 20, 3, 5
PG_DATABASE = "evaltool_bench_batches"


def measure(workdir: Path, size: int) -> None:
    """Everything the module prints, on the database ``DATABASE_URL`` names."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from annotation.controls.runs import task_queue

    call_command("migrate", verbosity=0)
    print(f"\n## {connection.vendor}")
    corpus, judge, mine, systems = _build(workdir, size)
    start = time.perf_counter()
    task_queue(mine, corpus)
    print(f"the batch's queue (once per process): {(time.perf_counter() - start) * 1e3:.1f} ms")
    for share in (0, 50, 95):
        print(f"{share:>3}% · " + _steps(corpus, judge, mine, share))
    _peer(corpus, systems, size)


def _build(workdir: Path, size: int) -> tuple[Any, Any, Any, list[tuple[int, int]]]:
    """The corpus (``size`` sentences, batches of :data:`PER_BATCH` sentences, half of
    them judged by 50 other judges), the measured judge, the batch they hold (three
    quarters in), and every candidate's (id, sentence position)."""
    from annotation.corpora.imports import corpus_import
    from annotation.models import Corpus, Judgment, Target, Task, Translator, User
    from bench import gen_corpus

    xml = workdir / "corpus.xml"
    gen_corpus.main([str(xml), "-n", str(size), "-r", str(REFERENCES), "-s", str(SYSTEMS)])
    corpus = corpus_import(source=xml, name="bench-batches", score=False).corpus
    corpus.campaign.judges_per_item = 1
    corpus.campaign.save()
    judge = User.objects.create_user("bench-batch-judge", password="x")
    others = [User.objects.create_user(f"bench-other-{k}", password="x") for k in range(50)]
    corpus.judges.add(judge, *others)
    batches = size // PER_BATCH
    tasks = Task.objects.bulk_create(
        Task(
            corpus=corpus,
            batch=b,
            start=b * PER_BATCH,
            end=(b + 1) * PER_BATCH,
            order=b,
            size=PER_BATCH * SYSTEMS,
            assignee=others[b % len(others)] if b < batches // 2 else None,
        )
        for b in range(batches)
    )
    systems = list(
        Target.objects.filter(
            sentence__corpus=corpus, translator__role=Translator.Role.SYSTEM
        ).values_list("pk", "sentence__position")
    )
    Judgment.objects.bulk_create(
        Judgment(
            target_id=pk,
            evaluator=others[(at // PER_BATCH) % len(others)],
            task=tasks[at // PER_BATCH],
            state=Judgment.State.DONE,
            sser=7,
        )
        for pk, at in systems
        if at // PER_BATCH < batches // 2
    )
    mine = tasks[batches * 3 // 4]
    Task.objects.filter(pk=mine.pk).update(assignee=judge)
    mine.refresh_from_db()
    print(
        f"{size} × {REFERENCES} × {SYSTEMS}, {batches} batches of {PER_BATCH * SYSTEMS} "
        f"candidates, {batches // 2} judged by {len(others)} other judges"
    )
    return Corpus.objects.select_related("campaign").get(pk=corpus.pk), judge, mine, systems


def _timed(label: str, fn: Any) -> str:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        fn()
    return f"{label} {median_ms(fn):.2f} ms / {len(captured)} q"


def _steps(corpus: Any, judge: Any, mine: Any, share: int) -> str:
    """The judge's next, previous, header and batches with ``share`` % of their batch
    judged (made anew)."""
    from django.db import connection

    from annotation.judging.batches import judge_batches
    from annotation.judging.header import judge_header
    from annotation.judging.order import next_in_task, previous_target_for
    from annotation.judging.stack import judgment_for
    from annotation.judging.start import judgment_open
    from annotation.models import Judgment

    Judgment.objects.filter(evaluator=judge).delete()
    for k, _ in enumerate(range(PER_BATCH * SYSTEMS * share // 100)):
        step = next_in_task(user=judge, task=mine)
        assert step is not None, k
        Judgment.objects.create(
            target=step.target, evaluator=judge, task=mine, state="done", sser=5
        )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    step = next_in_task(user=judge, task=mine)
    assert step is not None
    judgment = judgment_open(user=judge, target=step.target, task=mine)
    loaded = judgment_for(pk=judgment.pk, user=judge)
    return " · ".join(
        [
            _timed("next", lambda: next_in_task(user=judge, task=mine)),
            _timed("previous", lambda: previous_target_for(judgment=loaded)),
            _timed("header", lambda: judge_header(loaded)),
            _timed("batches", lambda: judge_batches(user=judge, corpora=[corpus])),
        ]
    )


def _peer(corpus: Any, systems: list[tuple[int, int]], size: int) -> None:
    """The peer: the next candidate of a judge of an unsplit queue, half of it judged."""
    from annotation.judging.order import next_target_for
    from annotation.models import Judgment, User

    peer = User.objects.create_user("bench-peer", password="x")
    corpus.judges.add(peer)
    Judgment.objects.bulk_create(
        Judgment(target_id=pk, evaluator=peer, state=Judgment.State.DONE, sser=7)
        for pk, at in systems
        if at < size // 2
    )
    print("peer: " + _timed("next, no batches", lambda: next_target_for(user=peer, corpus=corpus)))


def main() -> None:
    from bench.common import sized_bench_main

    sized_bench_main("bench.batch_queue", __doc__, measure, SENTENCES, PG_DATABASE)


if __name__ == "__main__":
    main()
