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
* **Written once.** A value's large arrays are stored apart, in pieces (:mod:`~annotation.
  statistics.pieces`) named by the family and their content's digest, each for two
  days: a piece the family's value before had is not written again, so the figures
  after a judgment rewrite the judged system's arrays only, and those the new value no
  longer has are deleted with the value before. A reader reads every piece of a value
  in one round trip: a piece missing is a value missing.

Nothing here knows what a figure is: :mod:`~annotation.statistics.memo` names the values.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import sys
import threading
import time
from collections import Counter, OrderedDict
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
from annotation.statistics.pieces import joined, piece_digest, split

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
#: (1,000 sentences × 20 systems) the values stored are about 3 MB at most (the
#: meta-evaluation's automatic side 2.7 MB, its bootstrap samples, once 8.6 MB; the
#: table's human part 2.8 MB); the grown pool's statistics (about 20 MB each) stay in
#: the process that scored them (the database has them too).
MAX_BYTES = 16 * 2**20
#: A warning that the store does not answer, at most this often (seconds).
WARN_EVERY = 60.0
#: What a store that went away raises: Redis's errors (connection refused, a timeout),
#: the database's (the table missing), the socket's.
FAILURES = (RedisError, DatabaseError, OSError)

#: How many values' pieces a process remembers having written or read (per family).
KNOWN_FAMILIES = 1024

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


#: A value's pieces as stored: each one's digest and when it was written (``time.time``).
Pieces = tuple[tuple[bytes, float], ...]


def _piece_name(family: str, digest: bytes) -> str:
    return f"{family}:piece:{digest.hex()}"


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
        #: Per family, each piece of its value as last written or read here: its digest
        #: and when it was written (:meth:`_pieces_written`).
        self._known: OrderedDict[str, Pieces] = OrderedDict()

    def get(self, name: Name) -> Any:
        """The value stored under ``name``, else :data:`MISSING`."""
        return self._loaded(name, self._call(lambda cache: cache.get(str(name)), None))

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
        unless it is larger than :data:`MAX_BYTES` pickled. Its large arrays are stored
        apart (:mod:`~annotation.statistics.pieces`), each piece under the family's name
        and its place: a piece this process knows is stored already, as it is, is not
        written again (:meth:`_pieces_written`)."""
        data, pieces = split(value)
        if len(data) + sum(map(len, pieces)) > MAX_BYTES:
            self._count("too large")
            return
        if _in_transaction():
            transaction.on_commit(lambda: self._write(name, data, pieces))
        else:
            self._write(name, data, pieces)

    def clear(self) -> None:
        """Empty the store, the whole of Django's cache, and forget what this process did
        with it (tests and benches: a cold start of every process)."""
        with self._state:
            self._down_until, self._warned_at = 0.0, None
            self.counts.clear()
            self._known.clear()
        self._call(lambda cache: cache.clear(), None)

    def _write(self, name: Name, data: bytes, pieces: list[bytes]) -> None:
        """Store ``data`` and its ``pieces`` under ``name``, in place of its family's
        value of an earlier state (and of that value's pieces this one has not); not at
        all when a later state's is there (no one asks for it again). The pieces go
        first: a reader that finds the value finds them."""

        def write(cache: BaseCache) -> bool:
            latest = None if name.stamps is None else cache.get(name.latest)
            before = str(name)
            if latest is not None and name.stamps is not None and latest != name.stamps:
                if not _earlier(latest, name.stamps):
                    return False
                before = str(Name(name.family, latest))
            known = self._known_pieces(cache, name.family, before if pieces else None)
            written = self._pieces_written(cache, name.family, pieces, known)
            if before != str(name):
                cache.delete(before)
            if name.stamps is not None:
                cache.set(name.latest, name.stamps)
            cache.set(str(name), (data, written) if pieces else data)
            gone = {digest for digest, _ in known} - {digest for digest, _ in written}
            if gone:
                cache.delete_many([_piece_name(name.family, digest) for digest in gone])
                self._count("pieces dropped", len(gone))
            return True

        if self._call(write, False):
            self._count("stored")

    def _pieces_written(
        self, cache: BaseCache, family: str, pieces: list[bytes], known: Pieces
    ) -> Pieces:
        """Store the ``pieces`` of ``family``'s value (one round trip), but those ``known``
        stored, as they are, for less than the store's timeout: a judgment rewrites the
        judged system's pieces alone. A piece lives twice the store's timeout, so every
        piece of a value lives as long as it does. Each piece's digest and when it was
        written, as the value names them."""
        timeout = cache.default_timeout
        fresh = float("inf") if timeout is None else timeout
        since = dict(known)
        now, written, new = time.time(), [], {}
        for piece in pieces:
            digest = piece_digest(piece)
            at = since.get(digest)
            if at is None or now - at >= fresh:
                new[_piece_name(family, digest)] = piece
                at = since[digest] = now
            written.append((digest, at))
        if new:
            cache.set_many(new, timeout=None if timeout is None else 2 * timeout)
        self._remember(family, tuple(written))
        with self._state:
            self.counts["pieces stored"] += len(new)
            self.counts["pieces kept"] += len(pieces) - len(new)
        return tuple(written)

    def _known_pieces(self, cache: BaseCache, family: str, before: str | None) -> Pieces:
        """The pieces of ``family``'s value this process wrote or read last, else those
        its stored value (``before``) names: a process that neither wrote nor read the
        value before a judgment rewrites the changed pieces alone too."""
        with self._state:
            known = self._known.get(family)
        if known is not None or before is None:
            return known or ()
        stored = cache.get(before)
        return stored[1] if isinstance(stored, tuple) else ()

    def _remember(self, family: str, pieces: Pieces) -> None:
        """Know ``family``'s pieces as stored (none: write every piece next time)."""
        with self._state:
            self._known[family] = pieces
            self._known.move_to_end(family)
            while len(self._known) > KNOWN_FAMILIES:
                self._known.popitem(last=False)

    def _pieces_read(self, name: Name, known: Pieces) -> list[bytes] | None:
        """The pieces a stored value names (one round trip), None when one is missing
        (expired, or dropped by a process that stored another state meanwhile)."""
        names = [_piece_name(name.family, digest) for digest, _ in known]
        found: dict[str, Any] | None = self._call(lambda cache: cache.get_many(names), None)
        if found is None or any(n not in found for n in names):
            self._remember(name.family, ())  # the next value this process stores: whole
            self._count("pieces missing")
            return None
        self._remember(name.family, known)
        return [found[n] for n in names]

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
                return self._loaded(name, None if seen is None else seen.get(str(name)))
        return MISSING

    def _loaded(self, name: Name, stored: bytes | tuple[bytes, Pieces] | None) -> Any:
        if stored is None:
            return MISSING
        if isinstance(stored, tuple):
            data, known = stored
            found = self._pieces_read(name, known)
            if found is None:
                return MISSING
        else:
            data, found = stored, []
        try:
            value = joined(data, found)  # written by this code's version only
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
            self._known.clear()  # it may come back empty: every piece written again
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

    def _count(self, what: str, n: int = 1) -> None:
        with self._state:
            self.counts[what] += n


#: The store of this process.
STORE = SharedStore()


def cache_table_created(using: str = DEFAULT_DB_ALIAS, **_: Any) -> None:
    """The store's table, where the figures are kept in the database (no ``CACHE_URL``):
    made by every ``migrate`` (its ``post_migrate``), so every database that has the
    app's tables has this one (``createcachetable`` makes it if it is missing, and
    nothing where the store is Redis)."""
    call_command("createcachetable", database=using, verbosity=0)
