"""``manage.py worker`` — compute queued jobs (scoring, imports) until stopped.

One process: a loop that takes the oldest job there is to take, a queued one or one whose
worker was killed (:func:`annotation.jobs.runner.work`), and beside it a thread that every
few seconds fills the HTER counts of judgments done since
(:func:`annotation.statistics.fill_hter_counts`: a judge's click leaves them to the
workers).
Start as many as the machine has cores, on any machine that reaches the database
(``make worker``); SIGTERM (or Ctrl-C) lets the current job finish first, a second one
stops at once, and SIGKILL costs the job a retry by another worker.
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
import signal
import threading
import time
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection

from annotation.jobs.outage import database_lost
from annotation.jobs.runner import work
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
        if options["nice"] < 0:
            raise CommandError("--nice must be 0 or more: a worker never raises its priority")
        os.nice(options["nice"])
        _fill_hter_once()
        if not options["batch"]:
            threading.Thread(target=_fill_hter_forever, name="hter", daemon=True).start()
        stop = StopWhenAsked()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT):
            signal.signal(signum, stop)
        work(interval=options["interval"], batch=options["batch"], stopping=stop.asked.is_set)


class StopWhenAsked:
    """The worker's signal handler: asked once, the worker stops after the job under way
    (at once when idle: it looks for work again within ``--interval``); asked again, it
    stops now, and the job's lease runs out for another worker to take it."""

    def __init__(self) -> None:
        self.asked = threading.Event()

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        name = signal.strsignal(signum)
        if self.asked.is_set():
            logger.warning("%s again: stopping now", name)
            raise SystemExit(1)
        logger.warning("%s: stopping once the job under way, if any, is done", name)
        self.asked.set()


def _fill_hter_once() -> None:
    """One look for done judgments without their HTER counts: a database away (or busy)
    for a moment is logged (in one line when it is gone: the worker's loop tells of the
    outage), and the next look will do. Closes its thread's own connection."""
    try:
        filled = fill_hter_counts()
    except DatabaseError as error:
        if database_lost(error):
            logger.warning("could not fill HTER counts: the database cannot be reached")
        else:
            logger.exception("could not fill HTER counts")
        return
    finally:
        connection.close()
    if filled:
        logger.info("filled the HTER counts of %d judgment(s)", filled)


def _fill_hter_forever() -> None:
    """:func:`_fill_hter_once` every :data:`HTER_INTERVAL` seconds, for ever (a daemon
    thread's target)."""
    while True:
        time.sleep(HTER_INTERVAL)
        _fill_hter_once()
