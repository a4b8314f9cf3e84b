"""Where every app process finds the figures another one computed: the one cache's
second level.

:mod:`~annotation.statistics.memo` keeps what a process computed in its memory first (a
look-up there costs no I/O). The shelves that say so (:attr:`~annotation.statistics.memo.
Shelf.shared`: the figures derived from the judgments, what derives from the stored
automatic statistics alone, the estimates kept by their inputs) keep each value here
too, in Django's cache (``CACHES["default"]``: Redis when ``CACHE_URL`` names one, else a
table of the app's database, :func:`evaltool.env.parse_cache_url`). A second app server,
or another ``WEB_CONCURRENCY`` worker of the same one, then reads the figures the first
computed after a judgment instead of computing them again: N servers cost what one does.

* **Never stale.** A value's name in the store holds what its memo key holds (the shelf,
  the corpus and its creation time, the values of the stamps the shelf depends on, a
  digest of the part: :func:`part_digest`) and the code's version
  (:func:`code_version`): a value of a corpus's past state, or computed by other code,
  is never read. A value computed inside a transaction is stored once the transaction
  commits: a change rolled back leaves no value under the stamps it had moved.
* **Computed once per change.** The first process to miss a value of a corpus's state
  claims it (``add`` of a lock that expires by itself after :data:`LOCK_SECONDS`, should
  its process die), computes and stores it; the others wait for it meanwhile
  (:data:`WAIT_SECONDS` at most, then compute it themselves rather than fail). The
  values named by their inputs alone (the estimates' fits and tests: a few hundred, each
  computed in milliseconds) are stored by whichever process computed them, unclaimed.
* **A store that goes away costs speed, never a figure.** Every operation on the store
  that fails (Redis stopped or not answering, the table missing) counts as a miss: the
  process computes what it needs itself, and leaves the store alone for
  ``EVALTOOL_CACHE_RETRY_SECONDS`` before asking it again; a warning says so, at most
  once a minute. On the database an operation made inside a transaction runs in a
  savepoint, so one that fails leaves the request's transaction as it was.
* **Bounded.** Values are stored pickled, each for a day at most
  (``evaltool.env.CACHE_SECONDS``), and a value of a corpus's state replaces the one of
  the same part at the corpus's earlier state (:class:`Name`), as the process's memory
  does: a day of judgments leaves one value a part, not one a judgment. A value larger
  than :data:`MAX_BYTES` stays in its process.

Nothing here knows what a figure is: :mod:`~annotation.statistics.memo` names the values.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import pickle
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

import django
import numpy as np
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections, router, transaction
from django.db import Error as DatabaseError
from redis.exceptions import RedisError

from annotation.release import source_version

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: How long a claim on a value holds when its process died computing it (seconds).
LOCK_SECONDS = 60
#: How long a process waits for the value another one claimed before it computes the
#: value itself (seconds): longer than a real-size dashboard's slowest part takes.
WAIT_SECONDS = 20.0
#: How often a waiting process looks for the value (seconds).
POLL_SECONDS = 0.05
#: The largest value stored (pickled): one larger stays in its process. At real size
#: (1,000 sentences × 20 systems) the meta-evaluation's automatic side is the largest
#: value stored (8.6 MB, its bootstrap samples); the grown pool's statistics (about 20
#: MB each) stay in the process that scored them (the database has them too).
MAX_BYTES = 16 * 2**20
#: A warning that the store does not answer, at most this often (seconds).
WARN_EVERY = 60.0
#: What a store that went away raises: Redis's errors (connection refused, a timeout),
#: the database's (the table missing), the socket's.
FAILURES = (RedisError, DatabaseError, OSError)

#: What :meth:`SharedStore.get` answers for a value the store does not have (or when it
#: does not answer): values may be None.
MISSING: Any = object()


@functools.cache
def code_version() -> str:
    """A digest of the code that computes the values: the release's source
    (:func:`annotation.release.source_version`) and the versions of Python, numpy and
    Django. Part of every value's name, so a release never reads what another computed
    (nor a pickle of a class it no longer has)."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(repr((sys.version_info[:2], np.__version__, django.__version__)).encode())
    digest.update(source_version().encode())
    return digest.hexdigest()


#: The kinds a part may be made of: their ``repr`` is the same in every process (a set's
#: order, or an object's address, is not).
_PLAIN = (str, bytes, int, float, Decimal, type(None))


def _plain_repr(value: Hashable) -> str:
    if isinstance(value, tuple):
        return "(" + ",".join(_plain_repr(v) for v in value) + ",)"
    if isinstance(value, _PLAIN):
        return repr(value)
    raise TypeError(
        f"{value!r} ({type(value).__name__}) in a shared value's key: use tuples, strings, "
        "bytes and numbers, whose repr is the same in every process"
    )


def part_digest(part: tuple[Hashable, ...]) -> str:
    """A digest of what a value is of (a panel's name, a choice, a digest of inputs, …),
    the same in every process (TypeError for a kind whose repr is not)."""
    return hashlib.blake2b(_plain_repr(part).encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Name:
    """A value's name in the store: its ``family`` (the code's version, the shelf, the
    corpus and the part: one value over time) and the stamps of the corpus it was
    computed under (None: a value of no corpus, named by its inputs alone). The store
    keeps the family's latest stamps beside it (:attr:`latest`), to drop the value of an
    earlier state when the value of a later one comes."""

    family: str
    stamps: tuple[int, ...] | None = None

    def __str__(self) -> str:
        if self.stamps is None:
            return self.family
        return f"{self.family}:{'.'.join(map(str, self.stamps))}"

    @property
    def latest(self) -> str:
        """Where the store keeps the family's latest stamps."""
        return f"{self.family}:latest"


def _earlier(stamps: tuple[int, ...], than: tuple[int, ...]) -> bool:
    """Whether a corpus's ``stamps`` are an earlier state than ``than`` (the stamps only
    move forward, so any two states of one corpus are one before the other, or equal)."""
    return stamps != than and all(a <= b for a, b in zip(stamps, than, strict=True))


def _in_transaction() -> bool:
    """Whether this thread's database work is inside a transaction (``atomic``)."""
    return connections[DEFAULT_DB_ALIAS].in_atomic_block


class SharedStore:
    """The values every process shares, by name, in one of Django's caches (``alias``).
    Its operations never raise for the store's sake: one that fails is a miss, and the
    process leaves the store alone for a while (the module docstring). ``counts`` says
    what it did (``found``, ``stored``, ``waited``, ``failed``, …), for the benches and
    the tests."""

    def __init__(self, alias: str = "default") -> None:
        self.alias = alias
        self.counts: Counter[str] = Counter()
        self._state = threading.Lock()
        self._down_until = 0.0
        self._warned_at: float | None = None

    def get(self, name: Name) -> Any:
        """The value stored under ``name``, else :data:`MISSING`."""
        return self._loaded(self._call(lambda cache: cache.get(str(name)), None))

    def get_or_compute(self, name: Name, compute: Callable[[], T]) -> T:
        """The value stored under ``name``; else ``compute()``'s, stored. One process
        computes a value of a corpus's state while the others wait for it (the module
        docstring); a value named by its inputs alone is computed by whichever process
        misses it (they are many, each computed in milliseconds: the claim's two round
        trips would cost what computing it does)."""
        found = self.get(name)
        if found is not MISSING:
            return found  # type: ignore[no-any-return]
        if name.stamps is None or _in_transaction():  # in one: stored on commit
            value = compute()
            self.put(name, value)
            return value
        lock = f"{name}:computing"  # a process's claim on computing it for all
        mine = self._call(lambda cache: cache.add(lock, os.getpid(), LOCK_SECONDS), True)
        if not mine:
            found = self._awaited(name, lock)
            if found is not MISSING:
                return found  # type: ignore[no-any-return]
        try:
            value = compute()
            self.put(name, value)
        finally:
            if mine:
                self._call(lambda cache: cache.delete(lock), None)
        return value

    def put(self, name: Name, value: Any) -> None:
        """Store ``value`` under ``name`` (when the transaction commits, inside one),
        unless it is larger than :data:`MAX_BYTES` pickled."""
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) > MAX_BYTES:
            self._count("too large")
            return
        if _in_transaction():
            transaction.on_commit(lambda: self._write(name, data))
        else:
            self._write(name, data)

    def clear(self) -> None:
        """Empty the store, the whole of Django's cache, and forget what this process did
        with it (tests and benches: a cold start of every process)."""
        with self._state:
            self._down_until, self._warned_at = 0.0, None
            self.counts.clear()
        self._call(lambda cache: cache.clear(), None)

    def _write(self, name: Name, data: bytes) -> None:
        """Store ``data`` under ``name``, in place of its family's value of an earlier
        state; not at all when a later state's is there (no one asks for it again)."""

        def write(cache: BaseCache) -> bool:
            if name.stamps is not None:
                latest = cache.get(name.latest)
                if latest is not None and latest != name.stamps:
                    if not _earlier(latest, name.stamps):
                        return False
                    cache.delete(str(Name(name.family, latest)))
                cache.set(name.latest, name.stamps)
            cache.set(str(name), data)
            return True

        if self._call(write, False):
            self._count("stored")

    def _awaited(self, name: Name, lock: str) -> Any:
        """The value another process claimed, once it is stored; :data:`MISSING` when
        that process gave it up, the wait is over, or the store does not answer."""
        self._count("waited")
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            seen: dict[str, Any] | None = self._call(
                lambda cache: cache.get_many([str(name), lock]), None
            )
            if seen is None or str(name) in seen or lock not in seen:
                return self._loaded(None if seen is None else seen.get(str(name)))
        return MISSING

    def _loaded(self, data: bytes | None) -> Any:
        if data is None:
            return MISSING
        try:
            value = pickle.loads(data)  # noqa: S301 (written by this code's version only)
        except Exception as exc:  # a value unreadable is a value missing
            self._warn(f"a stored value could not be read ({exc!r}): computed again")
            return MISSING
        self._count("found")
        return value

    def _call(self, operation: Callable[[BaseCache], T], failed: T) -> T:
        """``operation`` on the store, or ``failed`` when the store does not answer (or
        was left alone since it last did not)."""
        if time.monotonic() < self._down_until:
            return failed
        cache = caches[self.alias]
        try:
            with self._savepoint(cache):
                return operation(cache)
        except FAILURES as exc:
            self._went_away(exc)
            return failed

    @contextlib.contextmanager
    def _savepoint(self, cache: BaseCache) -> Iterator[None]:
        """A savepoint around an operation on a table of a database whose connection is
        inside a transaction: a failure (the table missing) rolls back to it, and the
        transaction goes on (PostgreSQL refuses every later statement otherwise)."""
        if isinstance(cache, DatabaseCache):
            using = router.db_for_write(cache.cache_model_class)
            if connections[using].in_atomic_block:
                with transaction.atomic(using=using):
                    yield
                return
        yield

    def _went_away(self, exc: Exception) -> None:
        retry = float(settings.EVALTOOL_CACHE_RETRY_SECONDS)
        with self._state:
            self._down_until = time.monotonic() + retry
            self.counts["failed"] += 1
        self._warn(
            f"the figures' store did not answer ({type(exc).__name__}: {exc}); this process "
            f"computes its figures alone and asks the store again in {retry:g} s"
        )

    def _warn(self, message: str) -> None:
        """``message`` as a warning, unless one was given less than a minute ago."""
        now = time.monotonic()
        with self._state:
            if self._warned_at is not None and now - self._warned_at < WARN_EVERY:
                return
            self._warned_at = now
        logger.warning("%s", message)

    def _count(self, what: str) -> None:
        with self._state:
            self.counts[what] += 1


#: The store of this process.
STORE = SharedStore()


def cache_table_created(using: str = DEFAULT_DB_ALIAS, **_: Any) -> None:
    """The store's table, where the figures are kept in the database (no ``CACHE_URL``):
    made by every ``migrate`` (its ``post_migrate``), so every database that has the
    app's tables has this one (``createcachetable`` makes it if it is missing, and
    nothing where the store is Redis)."""
    call_command("createcachetable", database=using, verbosity=0)
