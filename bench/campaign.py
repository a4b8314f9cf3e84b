"""Issue 37's scale: a campaign of 15 corpora × 1,000 sentences × 3 references × 20
systems with 200 annotators, on SQLite and PostgreSQL: ``python -m bench.campaign``.

Printed, per database:

* building the data (``bench/gen_campaign.py``, in bulk: not a figure of the app's);
* setting the campaign's rules (one annotator per item, 10 % overlap, batches of 100) as
  the lead does, through the rules page: the POST, and the job it queues that draws the
  batches (run in this process, as a worker would);
* dealing: every annotator asks for a batch (``deal_next``, as the judge's "Next batch"
  and the annotator's link do), twice over, with judgments made in between (every item
  of the first batch and half the second, written in bulk, ~33,000 judgments): median,
  95th percentile and worst time, and the statements, of one deal;
* every page of the lead's way around (issue 37, point 5) and the annotator's, through
  Django's test client with ``DEBUG`` off (:mod:`bench.probes`): median of 7 requests
  and its SQL statements, against the page budget of 0.3 s.

The statement counts are the test suite's concern (asserted there for two sizes); here
they show what a page costs at this size. The timings are this machine's (2 cores,
shared): figures, never assertions.

    python -m bench.campaign [--db sqlite|postgres|both] [--small] [--check]
                             [--pg-database NAME]

``--small`` builds 3 corpora × 100 sentences × 30 annotators (a smoke run). The
temporary directory and the PostgreSQL database (``evaltool_bench_campaign``, or
``--pg-database``: two runs at once each need their own) are removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    Verdicts,
    add_check_option,
    ensure_postgres,
    pg_admin,
    production_env,
)

PG_SERVER = "postgres://postgres@127.0.0.1:5432"
PG_DATABASE = "evaltool_bench_campaign"
PAGE_BUDGET = "≤ 0.3 s"
RUNS = 7


def measure(small: bool) -> dict[str, Any]:
    """In this process, on ``DATABASE_URL``: build, set the rules, deal, measure pages."""
    from bench import probes

    probes.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench.gen_campaign import LEAD, CampaignSize, build_campaign

    size = CampaignSize(corpora=3, sentences=100, annotators=30) if small else CampaignSize()
    out: dict[str, Any] = {"size": size.__dict__}
    start = time.perf_counter()
    campaign = build_campaign(size)
    out["build_s"] = time.perf_counter() - start
    _analyze()
    lead = probes.logged_in(LEAD)
    out["rules"] = _set_rules(lead, campaign)
    _analyze()
    out["deal_first"] = _deal_everyone(campaign)
    made = _judge_dealt(campaign, share=1.0)
    out["deal_second"] = _deal_everyone(campaign)
    made += _judge_dealt(campaign, share=0.5)
    out["judgments"] = made
    _analyze()
    out["pages"] = _pages(campaign, lead)
    return out


def _analyze() -> None:
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def _set_rules(lead: Any, campaign: Any) -> dict[str, Any]:
    """The rules POST, then the draw it queues, run here as a worker runs it (with no
    worker, nothing would be drawn, and nothing dealt)."""
    from django.urls import reverse

    from annotation.campaigns.drawing import DRAWING
    from annotation.jobs import run_queued_jobs
    from annotation.models import Task
    from bench import probes

    data = {
        "judges_per_item": "1",
        "overlap_percent": "10",
        "batch_size": "100",
        "batch_timeout_hours": "24",
        "quota": "",
    }
    sample = probes.request(lead, "post", reverse("campaigns:rules", args=[campaign.pk]), data)
    start = time.perf_counter()
    run_queued_jobs(kinds=[DRAWING])
    return {
        "seconds": sample.seconds,
        "queries": sample.queries,
        "draw_s": time.perf_counter() - start,
        "tasks": Task.objects.filter(corpus__campaign=campaign).count(),
    }


def _deal_everyone(campaign: Any) -> dict[str, Any]:
    from annotation.campaigns.dealing import deal_next
    from annotation.models import User
    from bench.gen_campaign import ANNOTATOR_PREFIX
    from bench.probes import counted

    seconds, queries, dealt = [], [], 0
    for user in User.objects.filter(username__startswith=ANNOTATOR_PREFIX).order_by("pk"):
        with counted() as statements:
            start = time.perf_counter()
            task = deal_next(user=user, campaign=campaign)
            seconds.append(time.perf_counter() - start)
        queries.append(len(statements))
        dealt += task is not None
    seconds.sort()
    return {
        "dealt": dealt,
        "median": statistics.median(seconds),
        "p95": seconds[int(0.95 * (len(seconds) - 1))],
        "max": seconds[-1],
        "queries": sorted(set(queries)),
    }


def _judge_dealt(campaign: Any, *, share: float) -> int:
    """Done judgments, in bulk, of ``share`` of the items of every task held unfinished,
    with their HTER counts as a worker stores them a moment after a judge accepts (else
    the first page reading the judgments computes them: :func:`annotation.statistics.
    human.with_hter_counts`); tasks whose items are all done are finished
    (``finish_task_if_done``)."""
    import random

    from annotation.campaigns.dealing import finish_task_if_done, task_items_left
    from annotation.models import Judgment, Task

    rng = random.Random(1)
    rows = []
    held = list(
        Task.objects.filter(corpus__campaign=campaign, assignee__isnull=False, finished_at=None)
    )
    for task in held:
        left = list(task_items_left(task))
        for target_id in left[: round(share * len(left))]:
            sser = rng.randint(0, 10)
            rows.append(
                Judgment(
                    target_id=target_id,
                    evaluator_id=task.assignee_id,
                    task=task,
                    state=Judgment.State.DONE,
                    sser=sser,
                    new_ref="x",
                    edits=10 - sser,
                    ref_length=10,
                    ter_edits=10 - sser,
                    ter_length=10,
                )
            )
    Judgment.objects.bulk_create(rows, batch_size=5000)
    for task in held:
        finish_task_if_done(task)
    return len(rows)


def _pages(campaign: Any, lead: Any) -> dict[str, Any]:
    from django.urls import NoReverseMatch, reverse

    from annotation.models import Task
    from bench import probes

    corpus = campaign.corpora.order_by("pk").first()
    held = Task.objects.filter(corpus=corpus, assignee__isnull=False, finished_at=None).first()
    annotator = probes.logged_in(held.assignee.username)
    wanted = [
        ("lead: home", lead, "annotation:home", []),
        ("lead: campaigns", lead, "campaigns:campaigns", []),
        ("lead: campaign page", lead, "campaigns:campaign", [campaign.pk]),
        ("lead: rules", lead, "campaigns:rules", [campaign.pk]),
        ("lead: upload into the campaign", lead, "annotation:corpus_upload", []),
        ("lead: annotator links", lead, "campaigns:links", [campaign.pk]),
        ("lead: judges page", lead, "campaigns:judges", []),
        ("lead: corpus campaign page", lead, "campaigns:corpus", [corpus.pk]),
        ("lead: quality control of every corpus", lead, "controls:index", []),
        ("lead: quality control", lead, "controls:settings", [corpus.pk]),
        ("lead: dashboard", lead, "dashboard:page", [corpus.pk]),
        ("annotator: home", annotator, "annotation:home", []),
        ("annotator: judge page", annotator, "annotation:judge_continue", [corpus.pk]),
    ]
    out = {}
    for label, client, name, args in wanted:
        try:
            url = reverse(name, args=args)
        except NoReverseMatch:
            out[label] = {"absent": name}
            continue
        if name == "annotation:corpus_upload":
            url += f"?campaign={campaign.pk}"  # as the campaign page links it
        figure = probes.repeat(lambda c=client, u=url: probes.request(c, "get", u), RUNS)
        out[label] = figure.as_dict()
    return out


def run_on(kind: str, small: bool, workdir: Path, pg_database: str = PG_DATABASE) -> dict[str, Any]:
    env = production_env(workdir)
    if kind == "postgres":
        ensure_postgres()
        pg_admin(f'DROP DATABASE IF EXISTS "{pg_database}" WITH (FORCE)')
        pg_admin(f'CREATE DATABASE "{pg_database}"')
        env["DATABASE_URL"] = f"{PG_SERVER}/{pg_database}"
    else:
        env["DATABASE_URL"] = f"sqlite:///{workdir / 'campaign.sqlite3'}"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "bench.campaign", "--inside", *(["--small"] if small else [])],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        )
    finally:
        if kind == "postgres":
            pg_admin(f'DROP DATABASE IF EXISTS "{pg_database}" WITH (FORCE)')
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def print_figures(title: str, figures: dict[str, Any], verdicts: Verdicts) -> None:
    size = figures["size"]
    print(
        f"\n## {title}: {size['corpora']} corpora × {size['sentences']} sentences × "
        f"{size['references']} references × {size['systems']} systems, "
        f"{size['annotators']} annotators"
    )
    print(f"built in bulk: {figures['build_s']:.1f} s")
    rules = figures["rules"]
    over = verdicts.judge(f"{title} rules POST", rules["seconds"], PAGE_BUDGET)
    print(
        f"rules (1 per item, 10 % overlap, batches of 100): {rules['seconds']:.3f} s, "
        f"{rules['queries']} statements {over}; the draw it queues (a worker): "
        f"{rules['draw_s']:.2f} s, {rules['tasks']} batches drawn"
    )
    for key, what in (("deal_first", "first deal"), ("deal_second", "second deal")):
        d = figures[key]
        over = verdicts.judge(f"{title} {what} p95", d["p95"], PAGE_BUDGET)
        print(
            f"{what} of each annotator: {d['dealt']} dealt, median {d['median'] * 1e3:.1f} ms, "
            f"p95 {d['p95'] * 1e3:.1f} ms, worst {d['max'] * 1e3:.1f} ms, "
            f"statements {d['queries']} {over}"
        )
    print(f"judgments made in bulk between and after: {figures['judgments']}")
    print("\n| page | median | statements | budget |\n|---|---|---|---|")
    for label, figure in figures["pages"].items():
        if "absent" in figure:
            print(f"| {label} | (no URL {figure['absent']}) | | |")
            continue
        over = verdicts.judge(f"{title} {label}", figure["median"], PAGE_BUDGET)
        queries = ",".join(str(q) for q in figure["queries"])
        print(f"| {label} | {figure['median'] * 1e3:.0f} ms | {queries} | {PAGE_BUDGET} {over} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--pg-database", default=PG_DATABASE)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    add_check_option(parser)
    args = parser.parse_args()
    if args.inside:
        print(json.dumps(measure(args.small)))
        return
    verdicts = Verdicts()
    kinds = ("sqlite", "postgres") if args.db == "both" else (args.db,)
    workdir = Path(tempfile.mkdtemp(prefix="evaltool-bench-campaign-"))
    try:
        for kind in kinds:
            figures = run_on(kind, args.small, workdir, args.pg_database)
            print_figures("SQLite" if kind == "sqlite" else "PostgreSQL", figures, verdicts)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    verdicts.finish(args.check)


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    main()
