"""Adaptive dealing at a real size (issue 43): one corpus of 1,000 sentences × 20 systems
(batches of 100 candidates, one annotator per item, 10 % overlap), 200 annotators,
adaptive dealing on with a warm-up of 25 %: ``python -m bench.adaptive``.

Printed (this machine's timings: figures, never assertions):

* a deal in the warm-up: every annotator asks for a batch (``deal_next``), median, 95th
  percentile and worst time, and its SQL statements;
* the deal that draws round 1 once the warm-up is judged (every item written in bulk,
  scores that differ by system): its time and statements (the policy reads the corpus's
  judgments and scores once per round);
* a deal within the round: median time and statements;
* the weighted estimates' status (the dashboard panel's and the campaign page's figures)
  computed afresh;
* the policy's and the weighting's steps alone (:mod:`metrics.adaptive`) at this size
  with three covariates (the bench's corpus has no stored automatic scores: words drawn
  at random are no translations, so the app's round runs without covariates).

    python -m bench.adaptive [--small]

On SQLite in a temporary directory, or the database of ``DATABASE_URL`` when it is set
(emptied first: give it a database of its own).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _setup(workdir: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command

    if _has_tables():
        call_command("flush", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)


def _has_tables() -> bool:
    from django.db import connection

    return "annotation_corpus" in connection.introspection.table_names()


def _timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        value = fn(*args, **kwargs)
        seconds = time.perf_counter() - start
    return value, seconds, len(queries)


def _judge_in_bulk(tasks: list[Any]) -> int:
    """Every item of ``tasks`` judged by its holder, SSER by system (apart by 0.3 a
    system, noise of 2), written in bulk."""
    import random

    from annotation.dealt import task_targets
    from annotation.models import Judgment, Task

    rng = random.Random(0)
    rows = []
    for task in tasks:
        for pk, position in task_targets(task).values_list("pk", "translator__position"):
            score = round(min(10, max(0, 3 + 0.3 * (position % 20) + rng.gauss(0, 2))))
            rows.append(
                Judgment(
                    target_id=pk,
                    evaluator_id=task.assignee_id,
                    task=task,
                    state=Judgment.State.DONE,
                    sser=score,
                    new_ref="x",
                )
            )
    Judgment.objects.bulk_create(rows, batch_size=5000, ignore_conflicts=True)
    Task.objects.filter(pk__in=[t.pk for t in tasks]).update(finished_at=time_now())
    return len(rows)


def time_now() -> Any:
    from django.utils import timezone

    return timezone.now()


def _pure_steps(sentences: int, systems: int) -> dict[str, float]:
    """The policy and the weighting alone at this size, three covariates."""
    import numpy as np

    from metrics.adaptive import DealtRound, batch_probabilities, weighted_estimates

    rng = np.random.default_rng(0)
    truth = rng.normal(0, 1, (systems, sentences)) + np.linspace(0, 1, systems)[:, None]
    covariates = truth[:, :, None] + rng.normal(0, 1, (systems, sentences, 3))
    batches = [np.arange(i, min(i + 5, sentences)) for i in range(0, sentences, 5)]
    warm = np.zeros(sentences, dtype=bool)
    warm[: sentences // 4] = True
    human = np.where(warm[None, :], truth, np.nan)
    rounds = [DealtRound(np.full(sentences, 0.25), warm, warm_up=True)]
    left = [b for b in batches if not warm[b[0]]]
    start = time.perf_counter()
    batch_probabilities(
        human,
        covariates,
        rounds,
        left,
        costs=np.full(len(left), 5.0 * systems),
        expected=0.25 * sentences * systems,
        alpha=0.05,
    )
    policy = time.perf_counter() - start
    start = time.perf_counter()
    weighted_estimates(human, covariates, rounds)
    return {"policy": policy, "estimates": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="200 sentences, 40 annotators")
    args = parser.parse_args()
    sentences, annotators = (200, 40) if args.small else (1000, 200)
    with tempfile.TemporaryDirectory() as workdir:
        _setup(workdir)
        _run(sentences, annotators)


def _run(sentences: int, annotators: int) -> None:
    from annotation.adaptive.status import corpus_status
    from annotation.campaigns.dealing import deal_next
    from annotation.campaigns.drawing import draw_campaign_tasks
    from annotation.models import Campaign, Corpus, DealingRound, Task, User
    from bench.gen_campaign import CampaignSize, build_campaign

    size = CampaignSize(corpora=1, sentences=sentences, annotators=annotators, per_annotator=1)
    start = time.perf_counter()
    campaign = build_campaign(size, name="adaptive bench")
    Campaign.objects.filter(pk=campaign.pk).update(
        judges_per_item=1, overlap_percent=10, batch_size=100, adaptive=True, warm_up_percent=25
    )
    campaign.refresh_from_db()
    draw_campaign_tasks(campaign)
    corpus = Corpus.objects.get(campaign=campaign)
    print(
        f"built {sentences} sentences × 20 systems, {annotators} annotators, batches drawn "
        f"in {time.perf_counter() - start:.1f} s; "
        f"{Task.objects.filter(corpus=corpus).count()} batches, "
        f"{Task.objects.filter(corpus=corpus, round=0).count()} in the warm-up"
    )
    users = list(User.objects.filter(username__startswith="bench-annotator").order_by("pk"))
    warm_times: list[float] = []
    warm_queries: list[int] = []
    n_warm = Task.objects.filter(corpus=corpus, round=0).count()
    for user in users[:n_warm]:  # the warm-up dealt; the next ask is timed once it is judged
        task, seconds, queries = _timed(deal_next, user=user, campaign=campaign)
        if task is None or task.round != 0:
            raise RuntimeError(f"{user}: dealt {task} where the warm-up was expected")
        warm_times.append(seconds)
        warm_queries.append(queries)
        _report("warm-up deal", warm_times, warm_queries)
    judged = _judge_in_bulk(list(Task.objects.filter(corpus=corpus, round=0)))
    print(f"judged the warm-up in bulk: {judged} judgments")
    asker = users[-1]
    Task.objects.filter(assignee=asker, finished_at__isnull=True).update(
        assignee=None, assigned_at=None
    )
    task, seconds, queries = _timed(deal_next, user=asker, campaign=campaign)
    rounds = DealingRound.objects.filter(corpus=corpus).count()
    print(
        f"deal drawing round {rounds - 1}: {seconds:.3f} s, {queries} statements "
        f"(round drew {Task.objects.filter(corpus=corpus, round=rounds - 1).count()} tasks)"
    )
    within, within_queries = [], []
    for user in users[:50]:
        Task.objects.filter(assignee=user, finished_at__isnull=True).update(finished_at=time_now())
        task, seconds, queries = _timed(deal_next, user=user, campaign=campaign)
        if task is None or task.round != rounds - 1:
            break
        within.append(seconds)
        within_queries.append(queries)
    _report("deal within the round", within, within_queries)
    campaign.refresh_from_db()
    _, seconds, queries = _timed(corpus_status, corpus, campaign)
    print(f"weighted estimates' status afresh: {seconds:.3f} s, {queries} statements")
    pure = _pure_steps(sentences, 20)
    print(
        f"metrics.adaptive alone, 3 covariates: policy {pure['policy']:.3f} s, "
        f"weighted estimates {pure['estimates']:.3f} s"
    )


def _report(what: str, times: list[float], queries: list[int]) -> None:
    if not times:
        print(f"{what}: none")
        return
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(
        f"{what} ({len(times)}): median {statistics.median(times) * 1000:.1f} ms, "
        f"95th {p95 * 1000:.1f} ms, worst {ordered[-1] * 1000:.1f} ms; "
        f"statements {min(queries)}–{max(queries)}"
    )


if __name__ == "__main__":
    main()
