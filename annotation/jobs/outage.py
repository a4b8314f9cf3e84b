"""A database that goes away and comes back (PostgreSQL restarted, failed over, the
network cut): how a worker tells it from a fault of its work, and rides it out.

A restart breaks every connection: the statement running fails with Django's
``OperationalError`` or ``InterfaceError``, and the connection is dead afterwards. A
fault of the work itself (a constraint, a statement timeout, SQLite's lock held too
long) fails the same classes but leaves the connection usable. So a worker that meets a
database error asks its connection (:func:`database_lost`): broken, the database went
away, and the worker waits for it (:func:`wait_for_database`: it tries again, backing
off up to :data:`MAX_PAUSE` seconds, and logs the outage and its end), then carries on
where it was (:func:`despite_outages`); usable, the error is the work's, handled as any
other. A SQLite file does not go away: its connection always answers usable.

Every thread has its own connection, so every thread of a worker (its loop, a job's
heartbeat, its chores) meets an outage on its own; the last time any of them did is
kept (:func:`reachable_for`), because a lease that ran out while the database was away
says nothing about its worker.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import TypeVar

from django.db import DatabaseError, InterfaceError, OperationalError, connection

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds before the first try to reach the database again; each failed try doubles it.
FIRST_PAUSE = 0.5
#: The longest pause between two tries: a worker is back at work at most this long after
#: the database is.
MAX_PAUSE = 10.0

_last_lost: float | None = None  # time.monotonic() when a thread here last found it gone
_lost_lock = threading.Lock()


def database_lost(error: BaseException) -> bool:
    """Whether ``error`` is the database gone away (its connection broken), rather than
    a fault of the work that raised it. Asks this thread's connection, so call it where
    the error was caught, outside any transaction (Django has rolled back by then)."""
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    try:
        usable = connection.is_usable()
    except DatabaseError:
        usable = False
    if not usable:
        _note_lost()
    return not usable


def _note_lost() -> None:
    global _last_lost
    with _lost_lock:
        _last_lost = time.monotonic()


def reachable_for(seconds: float) -> bool:
    """Whether no thread of this process has found the database gone in the last
    ``seconds``: a worker judges other workers' leases only then."""
    return _last_lost is None or time.monotonic() - _last_lost >= seconds


def wait_for_database(doing: str, error: BaseException | None = None) -> float:
    """Block until this thread's connection reaches the database again, trying after
    :data:`FIRST_PAUSE` seconds, then twice as long each time up to :data:`MAX_PAUSE`;
    the outage is logged when met, while it lasts, and when it ends (with what the
    worker was ``doing``). Returns how long it waited."""
    started = time.monotonic()
    pause = FIRST_PAUSE
    said = f": {_first_line(error)}" if error is not None else ""
    logger.warning("the database cannot be reached (%s)%s; waiting for it", doing, said)
    while True:
        with suppress(DatabaseError):
            connection.close()  # the broken connection; the next query opens a new one
        time.sleep(pause)
        try:
            connection.ensure_connection()
            if connection.is_usable():
                break
        except DatabaseError as refused:
            logger.warning("the database still cannot be reached: %s", _first_line(refused))
        _note_lost()
        pause = min(2 * pause, MAX_PAUSE)
    waited = time.monotonic() - started
    logger.warning("the database is back after %.1f s: %s goes on", waited, doing)
    return waited


def _first_line(error: BaseException) -> str:
    """What a log line says of ``error`` (psycopg's messages run over several lines)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def despite_outages(
    do: Callable[[], T], doing: str, *, going_on: Callable[[], bool] = lambda: True
) -> T:
    """``do()``, waited for and called again after each time the database went away
    while it ran (:func:`database_lost`), as long as ``going_on()`` (a worker asked to
    stop is not); any other error is raised as it is. ``do`` must be safe to call again
    after it was cut short."""
    while True:
        try:
            return do()
        except Exception as error:
            if not (going_on() and database_lost(error)):
                raise
            wait_for_database(doing, error)
