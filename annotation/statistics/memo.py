"""What a process remembers between requests, and why it is never stale: the one memo.

:class:`Memo` is the one kind of memory the app keeps in a process: a bounded map, the
least recently used entry first to go, shared by the threads of the process. The
dashboard's parts are kept in one (below); the judge's live figures keep their
statistics rows and sums in three more (:mod:`~annotation.statistics.live`), each keyed
by what its value is computed from, so none is ever read stale. :func:`forget` empties
them all (a new process, as the tests see it).

* The automatic statistics are not kept here: they are stored in the database with the
  corpus (:mod:`~annotation.statistics.store`), computed once per preprocessing choice
  by a worker. Those against the grown reference pool are the exception: the pool is the
  judgments' new references, so they are kept here under the judgments stamp (and
  stored as last scored, only to build the next pool on: :mod:`~annotation.statistics.
  pool`).
* What derives from a choice's stored automatic statistics alone and costs too much
  to compute on every view after a judgment (the meta-evaluation's automatic side of
  its pairwise figures) is kept in a second memo under the corpus's *texts stamp*
  (:func:`remembered_for_texts`), which moves when a candidate's text does.
* What is computed from one system's judged scores alone, and costs enough to matter
  on every view after a judgment (the estimates of :mod:`~annotation.dashboard.
  estimates`: 120 fits and their rank tests, a third of a real-size dashboard's first
  view), is kept in a third memo under a digest of everything it is computed from
  (:func:`remembered_by_content`). A judgment changes one system's scores: the next
  view recomputes that system's figures only, and no key can name stale inputs.
* Everything derived from the judgments — the human figures and their bootstrap, the
  judges, agreement and effort panels, the meta-evaluation — is kept in this process's
  memory under the corpus's *judgments stamp* (:func:`judgments_key`). The stamp moves in
  the very transaction that changes a done judgment
  (:meth:`~annotation.models.CorpusQuerySet.stamp_judgments`) and is read with the corpus
  row every view loads anyway, so a look-up costs no query, and a judgment finished a
  second ago has moved it: the next view finds no entry and computes afresh. (An entry
  computed from judgments read after the stamp moved is newer than its key, never older.)
  The key also holds the corpus's creation time: a re-imported corpus under a reused
  primary key is another corpus.

The memory is bounded (:data:`MEMO_SIZE` entries, the least recently used goes first;
a corpus's entries of earlier stamps go as soon as a newer one is kept) and holds only
frozen results, never the judgment rows they were computed from; the largest are the
grown pool's statistics, as large as one decoded statistics row (tens of MB at real
size: ``docs/performance.md``), one per preprocessing choice viewed with ``refs=pool``. It is
shared by the threads of one process.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

from annotation.models import Corpus

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_ALL: weakref.WeakSet[Memo[Any, Any]] = weakref.WeakSet()


class Memo(Generic[K, V]):
    """A bounded map shared by the threads of a process: at most ``size`` entries, the
    least recently used first to go. Values are kept as they are: keep frozen results."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        _ALL.add(self)

    def get(self, key: K, default: Any = None) -> Any:
        """The value kept under ``key`` (now the most recently used), else ``default``."""
        with self._lock:
            if key not in self._items:
                return default
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: K, value: V, *, dropping: Callable[[K], bool] | None = None) -> None:
        """Keep ``value`` under ``key`` (and let go of the keys ``dropping`` names)."""
        self.put_all([(key, value)], dropping=dropping)

    def put_all(
        self, items: Iterable[tuple[K, V]], *, dropping: Callable[[K], bool] | None = None
    ) -> None:
        with self._lock:
            if dropping is not None:
                for old in [k for k in self._items if dropping(k)]:
                    del self._items[old]
            for key, value in items:
                self._items[key] = value
                self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def entries(self) -> list[tuple[K, V]]:
        with self._lock:
            return list(self._items.items())

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


#: Entries kept: a few parts per corpus, choice and normalization (a page is about six).
MEMO_SIZE = 48

#: The corpus, its creation time and judgments stamp (:func:`judgments_key`), then the part.
MemoKey = tuple[int, str, int, *tuple[Hashable, ...]]

_MEMO: Memo[MemoKey, Any] = Memo(MEMO_SIZE)
_MISSING = object()


def judgments_key(corpus: Corpus) -> tuple[int, str, int]:
    """The corpus (primary key and creation time) and its judgments stamp."""
    return (corpus.pk, corpus.created_at.isoformat(), corpus.judgments_stamp)


def remembered(corpus: Corpus, part: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
    """``part`` of ``corpus`` as of its judgments stamp: the value kept, or ``compute()``'s,
    kept from now on. Keeping a value drops the corpus's values of earlier stamps, which
    no view asks for again (the stamp only moves forward)."""
    pk, created, stamp = judgments_key(corpus)
    key: MemoKey = (pk, created, stamp, *part)
    kept = _MEMO.get(key, _MISSING)  # a kept value may be None
    if kept is not _MISSING:
        return kept  # type: ignore[no-any-return]
    value = compute()
    _MEMO.put(key, value, dropping=lambda k: k[:2] == (pk, created) and k[2] < stamp)
    return value


#: Entries kept of what derives from a choice's stored automatic statistics alone: a
#: few choices per corpus (each several megabytes: :func:`remembered_for_texts`).
TEXTS_MEMO_SIZE = 6

_TEXTS_MEMO: Memo[tuple[Hashable, ...], Any] = Memo(TEXTS_MEMO_SIZE)


def remembered_for_texts(corpus: Corpus, part: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
    """``part`` of ``corpus`` as of its candidates' texts (its texts stamp), for a value
    computed from stored automatic statistics alone: a judgment does not change it, so
    it outlives the judgments stamp that :func:`remembered`'s values go with, and a
    moved word (which moves the texts stamp and has the statistics scored again) makes
    the next view compute it afresh. Keeping a value drops the corpus's values of earlier
    texts stamps. (Statistics against the grown pool depend on the judgments: not
    for here.)"""
    key: tuple[Hashable, ...] = (corpus.pk, corpus.created_at.isoformat(), corpus.texts_stamp)
    key += part
    stamp = corpus.texts_stamp
    kept = _TEXTS_MEMO.get(key, _MISSING)
    if kept is not _MISSING:
        return kept  # type: ignore[no-any-return]
    value = compute()
    _TEXTS_MEMO.put(
        key, value, dropping=lambda k: k[:2] == key[:2] and isinstance(k[2], int) and k[2] < stamp
    )
    return value


#: Entries kept of what :func:`remembered_by_content` keeps: a few views' worth of one
#: corpus's estimates and rank tests (about 240 a view at real size, a few KB each).
CONTENT_MEMO_SIZE = 2048

_CONTENT_MEMO: Memo[bytes, Any] = Memo(CONTENT_MEMO_SIZE)


def content_digest(*parts: bytes | str | int | float) -> bytes:
    """A digest of ``parts`` (arrays as their ``tobytes()``), each part's length and
    kind kept apart so that no two different sequences of parts share one."""
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        raw = part if isinstance(part, bytes) else repr(part).encode()
        digest.update(b"b" if isinstance(part, bytes) else b"r")
        digest.update(len(raw).to_bytes(8, "little"))
        digest.update(raw)
    return digest.digest()


def remembered_by_content(key: bytes, compute: Callable[[], T]) -> T:
    """The value computed from the inputs ``key`` digests (:func:`content_digest`): the
    one kept, or ``compute()``'s, kept from now on. The key stands for the inputs
    themselves (a 160-bit digest: two different inputs share one with a chance of about
    2⁻¹⁶⁰), so a kept value is never stale, whatever moved since."""
    kept = _CONTENT_MEMO.get(key, _MISSING)
    if kept is not _MISSING:
        return kept  # type: ignore[no-any-return]
    value = compute()
    _CONTENT_MEMO.put(key, value)
    return value


def recalled(corpus: Corpus, part: tuple[Hashable, ...]) -> Any:
    """``part`` of ``corpus`` as remembered under its judgments stamp, or None (nothing
    is computed): for a caller that must know what a part would cost before asking."""
    pk, created, stamp = judgments_key(corpus)
    return _MEMO.get((pk, created, stamp, *part))


def earlier(corpus: Corpus, part: tuple[Hashable, ...]) -> Any:
    """``part`` of ``corpus`` as remembered under an earlier judgments stamp (the latest
    one kept), or None: for a part that can be brought up to date for less than computing
    it afresh (:mod:`~annotation.statistics.pool`). Such a value is the past: it is never
    shown, only built on."""
    pk, created, stamp = judgments_key(corpus)
    found = [
        (k[2], v)
        for k, v in _MEMO.entries()
        if k[:2] == (pk, created) and k[2] < stamp and k[3:] == part
    ]
    return max(found, key=lambda kv: kv[0])[1] if found else None


def forget() -> None:
    """Empty every memo of this process (tests: a cold view, or another process)."""
    for memo in list(_ALL):
        memo.clear()
