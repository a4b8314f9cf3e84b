"""``manage.py worker`` — compute queued jobs (scoring, imports) until stopped.

One process: the task backend's worker loop (``django_tasks_db``'s ``db_worker``), which
takes each job's task in turn, and beside it a thread that every half lease gives the
jobs of killed workers to the workers again (:func:`annotation.jobs.requeue_abandoned`),
and one that every few seconds fills the HTER counts of judgments done since
(:func:`annotation.statistics.fill_hter_counts`: a judge's click leaves them to the
workers).
Start as many as the machine has cores, on any machine that reaches the database
(``make worker``); SIGTERM lets the current job finish first, SIGKILL costs it a retry.
A worker runs at a lower CPU priority (``--nice``, default ``EVALTOOL_WORKER_NICE``), its
scoring processes too, so that on a machine it shares with app servers the judges' requests
are served first.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection

from annotation.jobs import requeue_abandoned
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
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
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
        call_command(
            "db_worker",
            interval=options["interval"],
            worker_id=me,
            batch=options["batch"],
            startup_delay=False,
            reload=False,
        )


def _sweep_once() -> None:
    try:
        again = requeue_abandoned()
    except DatabaseError:  # the database is away for a moment: the next sweep will do
        logger.exception("could not look for abandoned jobs")
        return
    finally:
        connection.close()  # this thread's own connection
    if again:
        logger.info("handed %d job(s) of stopped workers to the workers again", again)


def _sweep_forever() -> None:
    stop = threading.Event()
    while not stop.wait(lease().total_seconds() / 2):
        _sweep_once()


def _fill_hter_once() -> None:
    try:
        filled = fill_hter_counts()
    except DatabaseError:  # the database is away (or busy) for a moment: the next look will do
        logger.exception("could not fill HTER counts")
        return
    finally:
        connection.close()  # this thread's own connection
    if filled:
        logger.info("filled the HTER counts of %d judgment(s)", filled)


def _fill_hter_forever() -> None:
    stop = threading.Event()
    while not stop.wait(HTER_INTERVAL):
        _fill_hter_once()
