"""What the app remembers between requests, and why it is never stale: the one cache.

Everything the app remembers is kept in one cache (:data:`CACHE`), each
value on a :class:`Shelf` that declares which of the corpus's stamps its values depend on
(:class:`~annotation.changes.Stamp`) and how many of them are kept. A value's
:class:`Key` holds the corpus (its primary key and creation time: a corpus imported
again under a reused primary key is another corpus) with the values of those stamps as
the corpus row was read, then what the value is of. Every change of what a figure reads
moves the stamps it touches, in its own transaction (:mod:`annotation.changes`), and a
view reads the stamps with the corpus row it loads anyway: so a look-up costs no query,
and a judgment finished a second ago has moved a stamp, so the next view finds no entry
and computes afresh. (A value computed from rows read after a stamp moved is newer than
its key, never older.) Keeping a value drops the values of the same shelf and corpus
kept under earlier stamps, which no view asks for again (the stamps only move forward),
except through :func:`earlier`.

The shelves, by what they depend on:

* :data:`FIGURES`: everything derived from the judgments (the human figures and their
  bootstrap, the judges, agreement and effort panels, the meta-evaluation, the grown
  pool's statistics, the power plan) and the imported metrics' figures, under all three
  stamps. The largest entries are the grown pool's statistics, as large as one decoded
  statistics row (tens of MB at real size: ``docs/performance.md``), one per
  preprocessing choice viewed with ``refs=pool``: past the shared store's bound
  (:data:`~annotation.statistics.shared.MAX_BYTES`), they stay in the process that
  scored them, and the others read them from the database, where every scoring stores
  them (:mod:`~annotation.statistics.pool`). The automatic statistics are not kept
  here: they are stored in the database with the corpus
  (:mod:`~annotation.statistics.store`), computed once per choice by a worker; each
  process keeps a few decoded, under the texts stamp alone (:data:`~annotation.
  dashboard.sources.DECODED`).
* :data:`AUTOMATIC`: what derives from a choice's stored automatic statistics alone and
  costs too much to compute on every view after a judgment (the meta-evaluation's
  automatic side of its pairwise figures), under the texts stamp only: a judgment leaves
  it, a moved word makes it anew.
* :data:`BY_CONTENT`: what is computed from one system's judged scores alone and costs
  enough to matter on every view after a judgment (the estimates of :mod:`~annotation.
  dashboard.estimates`: 120 fits and their rank tests, a third of a real-size dashboard's
  first view), under a digest of everything it is computed from
  (:func:`remembered_by_content`) and no stamp: a judgment changes one system's scores,
  the next view recomputes that system's figures only, and no key can name stale inputs.
* :data:`ACROSS`: what is computed from the judgments of several corpora at once (the
  campaign page's effort per protocol), under every one's judgments stamp
  (:func:`remembered_across`).
* The judge's live figures' rows and sums (:mod:`~annotation.statistics.live`) and the
  controls' queues (:mod:`annotation.controls.runs`) declare their shelves where they
  are used, under the texts stamp.

The cache has two levels. The first is the process's memory, shared by its threads: a
look-up there costs no I/O. The second is shared by every process of every app server
(:mod:`~annotation.statistics.shared`: Redis, or a table of the database), for the
shelves whose values cost enough to compute that N servers computing each once after
a judgment would cost N times one (the four above, ``shared=True``): a value missing
from the memory is looked for there, and a value computed is kept in both, so the first
process that asks after a change computes it and the others read it. The judge's live
figures and the controls' queues stay in each process: their values are many and small
(a round trip each would cost what computing them does) or read in one query.

The cache holds only frozen results, never the rows they were computed from. Its
interface is a key's :meth:`~Cache.get`, :meth:`~Cache.put` and :meth:`~Cache.get_or_set`
(Django's cache framework's words); ``computations`` counts the values each shelf
computed (what a second process is spared: the tests and benches count it);
:func:`forget` empties both levels (a cold start of every process, as the tests see
it).
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from annotation.changes import Stamp, stamps_of
from annotation.models import Corpus
from annotation.statistics.shared import (
    MISSING,
    STORE,
    Name,
    SharedStore,
    code_version,
    part_digest,
)
from metrics.reuse import PairMemo
from metrics.reuse import content_digest as content_digest  # the memo's keys, from here too

T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class Shelf:
    """One kind of remembered value: its name, the stamps its values depend on (a value
    is kept under their values: :class:`CorpusState`), how many values a process keeps
    in its memory, the least recently used first to go, and whether every process
    shares them (:mod:`~annotation.statistics.shared`; their keys' parts then made of
    tuples, strings, bytes and numbers alone)."""

    name: str
    depends: Stamp
    size: int
    shared: bool = False

    def key(self, corpus: Corpus | CorpusState | None, *part: Hashable) -> Key:
        """The key of ``part`` of ``corpus`` (None: a value of no corpus) on this shelf:
        of the corpus as read, or of a :class:`CorpusState` made for this shelf's
        stamps."""
        if isinstance(corpus, Corpus):
            corpus = CorpusState.of(corpus, self.depends)
        elif corpus is not None and corpus.depends != self.depends:
            raise ValueError(
                f"{self.name!r} keeps values by {self.depends}, not by {corpus.depends}"
            )
        return Key(self, corpus, part)


@dataclass(frozen=True)
class CorpusState:
    """A corpus as a remembered value depends on it: which corpus, and the values of
    the stamps ``depends`` names as the corpus row was read."""

    pk: int
    created: str
    depends: Stamp
    stamps: tuple[int, ...]

    @classmethod
    def of(cls, corpus: Corpus, depends: Stamp) -> CorpusState:
        return cls(corpus.pk, corpus.created_at.isoformat(), depends, stamps_of(corpus, depends))

    def is_before(self, other: CorpusState) -> bool:
        """Whether this is the same corpus as ``other`` at earlier stamps (every one of
        them at most ``other``'s, one below at least)."""
        return (
            (self.pk, self.created, self.depends) == (other.pk, other.created, other.depends)
            and self.stamps != other.stamps
            and all(a <= b for a, b in zip(self.stamps, other.stamps, strict=True))
        )


@dataclass(frozen=True)
class Key:
    """Where a value is kept: its shelf, its corpus's state (None: of no corpus), and
    what the value is of (the part: a panel's name, a choice, a target's id, …)."""

    shelf: Shelf
    corpus: CorpusState | None
    part: tuple[Hashable, ...]


def store_name(key: Key) -> Name:
    """``key``'s name in the shared store: the code's version, the shelf, the corpus (its
    primary key and creation time), a digest of the part, and the corpus's stamps the
    shelf depends on, as the key holds them."""
    state = key.corpus
    corpus = "-" if state is None else f"{state.pk}@{state.created}"
    family = f"evaltool:{code_version()}:{key.shelf.name}:{corpus}:{part_digest(key.part)}"
    return Name(family, None if state is None else state.stamps)


class Cache:
    """The one cache: per shelf, a bounded map in the process's memory (the least
    recently used entry first to go), shared by its threads; for a shared shelf, the
    store every process reads (``shared``) behind it. Values are kept as they are: keep
    frozen results."""

    def __init__(self, shared: SharedStore) -> None:
        self._shelves: dict[Shelf, OrderedDict[Key, Any]] = {}
        #: Per shelf and corpus, the latest state a value was kept under.
        self._latest: dict[tuple[Shelf, int, str], CorpusState] = {}
        self._lock = threading.Lock()
        self.shared = shared
        #: How many values each shelf (by name) computed in this process.
        self.computations: Counter[str] = Counter()

    def get(self, key: Key, default: Any = None) -> Any:
        """The value kept under ``key`` (now the most recently used in the process's
        memory; a shared shelf's found in the shared store is kept there from now on),
        else ``default``."""
        kept = self._get_here(key)
        if kept is not MISSING:
            return kept
        if key.shelf.shared:
            found = self.shared.get(store_name(key))
            if found is not MISSING:
                self._put_here([(key, found)])
                return found
        return default

    def _get_here(self, key: Key) -> Any:
        with self._lock:
            items = self._shelves.get(key.shelf)
            if items is None or key not in items:
                return MISSING
            items.move_to_end(key)
            return items[key]

    def put(self, key: Key, value: Any) -> None:
        """Keep ``value`` under ``key``."""
        self.put_many([(key, value)])

    def put_many(self, items: Iterable[tuple[Key, Any]]) -> None:
        """Keep each value under its key (a shared shelf's in the shared store too); a
        key of a corpus's later state than any kept on its shelf drops the values of that
        corpus's earlier states there."""
        items = list(items)
        self._put_here(items)
        for key, value in items:
            if key.shelf.shared:
                self.shared.put(store_name(key), value)

    def _put_here(self, items: Iterable[tuple[Key, Any]]) -> None:
        with self._lock:
            for key, value in items:
                kept = self._shelves.setdefault(key.shelf, OrderedDict())
                if key.corpus is not None:
                    self._drop_earlier(kept, key)
                kept[key] = value
                kept.move_to_end(key)
                while len(kept) > key.shelf.size:
                    kept.popitem(last=False)

    def _drop_earlier(self, kept: OrderedDict[Key, Any], key: Key) -> None:
        state = key.corpus
        assert state is not None  # noqa: S101 (the caller's check)
        which = (key.shelf, state.pk, state.created)
        latest = self._latest.get(which)
        if latest is not None and not latest.is_before(state):
            return  # the latest state, or an earlier one (a request that read it before)
        self._latest[which] = state
        if latest is not None:
            for old in [k for k in kept if k.corpus is not None and k.corpus.is_before(state)]:
                del kept[old]

    def get_or_set(self, key: Key, compute: Callable[[], T]) -> T:
        """The value kept under ``key``, or ``compute()``'s, kept from now on: for a
        shared shelf, the one another process stored, or computed here once for all of
        them (:meth:`~annotation.statistics.shared.SharedStore.get_or_compute`)."""
        kept = self._get_here(key)  # a kept value may be None
        if kept is not MISSING:
            return kept  # type: ignore[no-any-return]

        def computed() -> T:
            with self._lock:
                self.computations[key.shelf.name] += 1
            return compute()

        if key.shelf.shared:
            value = self.shared.get_or_compute(store_name(key), computed)
        else:
            value = computed()
        self._put_here([(key, value)])
        return value

    def before(self, key: Key) -> Any:
        """The value of ``key``'s part and corpus on its shelf as kept in this process's
        memory under the latest earlier state of the corpus, or None (the shared store
        is not asked: it keeps values by their state, and knows no earlier one)."""
        with self._lock:
            found = [
                (k.corpus.stamps, v)
                for k, v in self._shelves.get(key.shelf, {}).items()
                if k.part == key.part
                and k.corpus is not None
                and key.corpus is not None
                and k.corpus.is_before(key.corpus)
            ]
        return max(found, key=lambda sv: sv[0])[1] if found else None

    def clear(self) -> None:
        """Empty both levels, this process's memory and the shared store, and start the
        count of computations afresh (a cold start of every process)."""
        with self._lock:
            self._shelves.clear()
            self._latest.clear()
            self.computations.clear()
        self.shared.clear()


#: The one cache of this process (its first level), and of all (the store behind it).
CACHE = Cache(STORE)

#: What derives from the judgments, the texts and the imported scores: a few parts per
#: corpus, choice and normalization (a page is about six).
FIGURES = Shelf("figures", Stamp.JUDGMENTS | Stamp.TEXTS | Stamp.EXTERNAL, 48, shared=True)
#: What derives from a choice's stored automatic statistics alone: a few choices per
#: corpus (each several megabytes: :func:`remembered_for_texts`).
AUTOMATIC = Shelf("automatic", Stamp.TEXTS, 6, shared=True)
#: What :func:`remembered_by_content` keeps: a few views' worth of one corpus's estimates
#: and rank tests (about 240 a view at real size, a few KB each).
BY_CONTENT = Shelf("by-content", Stamp.NONE, 2048, shared=True)
#: What :func:`remembered_across` keeps: a few campaigns' figures (small: a row per
#: protocol), each under the states of all its corpora.
ACROSS = Shelf("across", Stamp.JUDGMENTS, 16, shared=True)


def remembered(corpus: Corpus, part: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
    """``part`` of ``corpus``'s figures (:data:`FIGURES`) as of its stamps: the value
    kept, or ``compute()``'s, kept from now on."""
    return CACHE.get_or_set(FIGURES.key(corpus, *part), compute)


def recalled(corpus: Corpus, part: tuple[Hashable, ...]) -> Any:
    """``part`` of ``corpus``'s figures as remembered under its stamps, or None (nothing
    is computed): for a caller that must know what a part would cost before asking."""
    return CACHE.get(FIGURES.key(corpus, *part))


def earlier(corpus: Corpus, part: tuple[Hashable, ...]) -> Any:
    """``part`` of ``corpus``'s figures as remembered under earlier stamps (the latest
    kept), or None: for a part that can be brought up to date for less than computing
    it afresh (:mod:`~annotation.statistics.pool`). Such a value is the past: it is never
    shown, only built on."""
    return CACHE.before(FIGURES.key(corpus, *part))


def remembered_for_texts(corpus: Corpus, part: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
    """``part`` of ``corpus`` as of its candidates' texts (:data:`AUTOMATIC`), for a value
    computed from stored automatic statistics alone: a judgment does not change it, so
    it outlives the judgments stamp that :func:`remembered`'s values go with, and a
    moved word (which moves the texts stamp and has the statistics scored again) makes
    the next view compute it afresh. (Statistics against the grown pool depend on the
    judgments: not for here.)"""
    return CACHE.get_or_set(AUTOMATIC.key(corpus, *part), compute)


def remembered_across(
    corpora: Iterable[Corpus], part: tuple[Hashable, ...], compute: Callable[[], T]
) -> T:
    """``part`` of the figures of several corpora at once (a campaign's), as of their
    judgments stamps (:data:`ACROSS`): the value kept, or ``compute()``'s, kept from now
    on. Its key holds every corpus's state as read (primary key, creation time, protocol,
    judgments stamp), so a judgment in any of them, a corpus added, moved away or judged
    by another protocol names another value; the values of earlier states are not
    dropped at once, the least recently used going first (and from the shared store,
    after a day)."""
    states = tuple(
        (c.pk, c.created_at.isoformat(), c.protocol, *stamps_of(c, ACROSS.depends))
        for c in sorted(corpora, key=lambda c: c.pk)
    )
    return CACHE.get_or_set(ACROSS.key(None, *part, states), compute)


def remembered_by_content(key: bytes, compute: Callable[[], T]) -> T:
    """The value computed from the inputs ``key`` digests (:func:`content_digest`,
    :data:`BY_CONTENT`): the one kept, or ``compute()``'s, kept from now on. The key
    stands for the inputs themselves (a 160-bit digest: two different inputs share one
    with a chance of about 2⁻¹⁶⁰), so a kept value is never stale, whatever moved since."""
    return CACHE.get_or_set(BY_CONTENT.key(None, key), compute)


def _pairs_key(corpus: Corpus, what: str) -> Key:
    return BY_CONTENT.key(None, "pairs", what, corpus.pk, corpus.created_at.isoformat())


def kept_pairs(corpus: Corpus, what: str) -> PairMemo:
    """The pairwise tests ``what`` (a panel's) of ``corpus`` kept by the view before,
    each under a digest of its inputs (:mod:`metrics.reuse`): brought up to date, they
    are computed again only where a judgment changed their inputs. One value per corpus
    and ``what`` on :data:`BY_CONTENT` (no stamp: a test is found by its inputs alone,
    so none is stale), read from the shared store when this process has none."""
    return PairMemo(CACHE.get(_pairs_key(corpus, what)))


def keep_pairs(corpus: Corpus, what: str, memo: PairMemo) -> None:
    """Keep the tests ``memo`` used (:func:`kept_pairs`) for the next view: those of
    inputs no longer present are dropped."""
    CACHE.put(_pairs_key(corpus, what), memo.used)


def forget() -> None:
    """Empty the cache, this process's memory and the shared store (tests and benches: a
    cold view, in this process or any other)."""
    CACHE.clear()
