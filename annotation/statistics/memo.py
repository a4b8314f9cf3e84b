"""What the dashboard remembers between requests (the memo), and why it is never stale.

* The automatic statistics are not kept here: they are stored in the database with the
  corpus (:func:`annotation.statistics.store.automatic_statistics`), computed once per
  preprocessing choice, since the corpus texts never change. Those against the grown
  reference pool are the exception: the pool is the judgments' new references, so they
  are kept here under the judgments stamp (and stored as last scored, only to build the
  next pool on: :mod:`~annotation.statistics.pool`).
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
grown pool's statistics, as large as one decoded statistics row (about 20 MB for 1,000
sentences × 20 systems), one per preprocessing choice viewed with ``refs=pool``. It is
shared by the threads of one process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from annotation.models import Corpus

T = TypeVar("T")

#: Entries kept: a few parts per corpus, choice and normalization (a page is about six).
MEMO_SIZE = 48

_MEMO: OrderedDict[tuple[Hashable, ...], Any] = OrderedDict()
_LOCK = threading.Lock()


def judgments_key(corpus: Corpus) -> tuple[int, str, int]:
    """The corpus (primary key and creation time) and its judgments stamp."""
    return (corpus.pk, corpus.created_at.isoformat(), corpus.judgments_stamp)


def remembered(corpus: Corpus, part: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
    """``part`` of ``corpus`` as of its judgments stamp: the value kept, or ``compute()``'s,
    kept from now on. Keeping a value drops the corpus's values of earlier stamps, which
    no view asks for again (the stamp only moves forward)."""
    pk, created, stamp = judgments_key(corpus)
    key = (pk, created, stamp, *part)
    with _LOCK:
        if key in _MEMO:
            _MEMO.move_to_end(key)
            value: T = _MEMO[key]
            return value
    value = compute()
    with _LOCK:
        for old in [k for k in _MEMO if k[:2] == (pk, created) and k[2] < stamp]:
            del _MEMO[old]
        _MEMO[key] = value
        _MEMO.move_to_end(key)
        while len(_MEMO) > MEMO_SIZE:
            _MEMO.popitem(last=False)
    return value


def recalled(corpus: Corpus, part: tuple[Hashable, ...]) -> Any:
    """``part`` of ``corpus`` as remembered under its judgments stamp, or None (nothing
    is computed): for a caller that must know what a part would cost before asking."""
    pk, created, stamp = judgments_key(corpus)
    with _LOCK:
        return _MEMO.get((pk, created, stamp, *part))


def earlier(corpus: Corpus, part: tuple[Hashable, ...]) -> Any:
    """``part`` of ``corpus`` as remembered under an earlier judgments stamp (the latest
    one kept), or None: for a part that can be brought up to date for less than computing
    it afresh (:mod:`~annotation.statistics.pool`). Such a value is the past: it is never
    shown, only built on."""
    pk, created, stamp = judgments_key(corpus)
    with _LOCK:
        found = [
            (k[2], v)
            for k, v in _MEMO.items()
            if k[:2] == (pk, created) and k[2] < stamp and k[3:] == part
        ]
    return max(found, key=lambda kv: kv[0])[1] if found else None


def forget() -> None:
    """Empty the memory (tests that count the queries of a cold view)."""
    with _LOCK:
        _MEMO.clear()
