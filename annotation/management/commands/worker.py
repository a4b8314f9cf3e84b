"""``manage.py worker`` — compute queued jobs (scoring, imports) until stopped.

One process: the task backend's worker loop (``django_tasks_db``'s ``db_worker``), which
takes each job's task in turn, and beside it a thread that every half lease gives the
jobs of killed workers to the workers again (:func:`annotation.jobs.requeue_abandoned`),
and one that every few seconds fills the HTER counts of judgments done since
(:func:`annotation.statistics.fill_hter_counts`: a judge's click leaves them to the
workers).
Start as many as the machine has cores, on any machine that reaches the database
(``make worker``); SIGTERM lets the current job finish first, SIGKILL costs it a retry.
A database that goes away (PostgreSQL restarted) stops no worker: each waits for it,
logging the outage, and goes on, the job it was computing too
(:mod:`annotation.jobs.outage`).
A worker runs at a lower CPU priority (``--nice``, default ``EVALTOOL_WORKER_NICE``), its
scoring processes too, so that on a machine it shares with app servers the judges' requests
are served first.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from annotation.jobs import requeue_abandoned
from annotation.jobs.outage import database_lost, despite_outages
from annotation.jobs.runner import lease, worker_id
from annotation.statistics import fill_hter_counts

logger = logging.getLogger(__name__)

#: Seconds between two looks for done judgments without their HTER counts.
HTER_INTERVAL = 5.0


class Command(BaseCommand):
    help = "Compute queued jobs (scoring, imports) until stopped; start one per core."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval", type=float, default=0.5, help="seconds between looks when idle"
        )
        parser.add_argument(
            "--batch", action="store_true", help="exit once no job is left (scripts, CI)"
        )
        parser.add_argument(
            "--nice",
            type=int,
            default=settings.EVALTOOL_WORKER_NICE,
            help="lower the worker's CPU priority by this much (0: as the shell's)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # A worker tells what it does (the queue's lines: started, each task run) through
        # the settings' handler (standard error), which passes warnings only by default.
        logging.getLogger().setLevel(logging.INFO)
        if options["nice"] < 0:
            raise CommandError("--nice must be 0 or more: a worker never raises its priority")
        os.nice(options["nice"])
        me = worker_id()
        self.stdout.write(f"worker {me}: computing queued jobs")
        _sweep_once()
        _fill_hter_once()
        if not options["batch"]:
            threading.Thread(target=_sweep_forever, name="requeue", daemon=True).start()
            threading.Thread(target=_fill_hter_forever, name="hter", daemon=True).start()
        loop = OutlastingWorker(
            queue_names=[DEFAULT_TASK_QUEUE_NAME],
            interval=options["interval"],
            batch=options["batch"],
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=False,
            max_tasks=None,
            worker_id=me,
            excluded_queue_names=[],
        )
        loop.configure_signals()
        loop.run()


class OutlastingWorker(Worker):
    """``db_worker``'s loop, which a database gone away no longer ends: its own
    statements (looking for the next task, recording how one ended) are waited for and
    made again once the database is back, unless the worker was asked to stop meanwhile.
    A task whose ending could not be recorded is run again: a task is only its job's
    doorbell, and a job that has ended is not claimed twice."""

    def run(self) -> None:
        despite_outages(super().run, "looking for jobs", going_on=self._going_on)

    def run_task(self, db_task_result: DBTaskResult[Any, Any]) -> None:
        run = partial(super().run_task, db_task_result)
        despite_outages(run, f"running task {db_task_result.id}", going_on=self._going_on)

    def _going_on(self) -> bool:
        return bool(self.running)


def _chore(do: Callable[[], int], done: str, failed: str) -> Callable[[], None]:
    """One look of a background chore: ``do`` returns how many things it did, logged with
    ``done``; a database away (or busy) for a moment is logged with ``failed`` (in one
    line when it is gone: the worker's loop tells of the outage), and the next look will
    do. Each look closes its thread's own connection."""

    def once() -> None:
        try:
            count = do()
        except DatabaseError as error:
            if database_lost(error):
                logger.warning("%s: the database cannot be reached", failed)
            else:
                logger.exception(failed)
            return
        finally:
            connection.close()
        if count:
            logger.info(done, count)

    return once


_sweep_once = _chore(
    requeue_abandoned,
    "handed %d job(s) of stopped workers to the workers again",
    "could not look for abandoned jobs",
)
_fill_hter_once = _chore(
    fill_hter_counts, "filled the HTER counts of %d judgment(s)", "could not fill HTER counts"
)


def _every(seconds: Callable[[], float], once: Callable[[], None]) -> Callable[[], None]:
    """``once`` every ``seconds()``, for ever (a daemon thread's target)."""

    def forever() -> None:
        stop = threading.Event()
        while not stop.wait(seconds()):
            once()

    return forever


_sweep_forever = _every(lambda: lease().total_seconds() / 2, _sweep_once)
_fill_hter_forever = _every(lambda: HTER_INTERVAL, _fill_hter_once)
