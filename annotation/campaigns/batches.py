"""How a corpus's work is cut into batches and in which order they are dealt (issue 37):
plain functions of the sentences' sizes, no database, so that every rule can be tested
over many random corpora (:mod:`annotation.campaigns.drawing` writes what they plan).

**Batches.** A batch is a run of whole sentences (all the candidates of a sentence are
one run of the judge's queue) that is contiguous in the file, WMT's "document-level"
batches: documents (runs of sentences of one ``doc``; sentences without one form a
document together) are packed whole, in file order, while they fit in ``batch_size``
candidates; a document longer than that is cut into contiguous pieces as even as whole
sentences allow, each a batch of its own. A single sentence of more candidates than
``batch_size`` is a batch by itself (a sentence is never cut).

**Dealing order.** A random permutation of the batches, seeded with the corpus's name:
whatever share of the corpus the annotators get through, what is dealt is a random
sample of its document chunks. With ``k`` annotators per item, the ``k`` copies of a
batch follow each other, so a batch is complete early rather than all batches being
a third done.

**Overlap.** With one annotator per item, a share ``s`` of each batch (``round(s ×
candidates)`` items: whole sentences first, drawn at random, the last one partly) is
judged a second time for agreement, by whoever is dealt the *next* batch in dealing
order (the last batch's by the first's): the second judgment comes from another
annotator (:mod:`annotation.campaigns.dealing` never deals a task to someone who holds
its neighbour), spread over the whole campaign. A corpus of one batch has no neighbour:
its overlap is a task of its own, of those items only (``batch`` None).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SentenceSize:
    """What planning reads of a sentence: its file position, its document, and how many
    candidates (system targets) it has."""

    position: int
    doc: str | None
    candidates: int


#: One item to judge, as planning names it: (sentence position, index of the candidate
#: among the sentence's, in the corpus's order of systems).
Item = tuple[int, int]


@dataclass(frozen=True)
class Batch:
    """Batch ``number`` (its place in the file order of batches): its sentences."""

    number: int
    sentences: tuple[SentenceSize, ...]

    @property
    def start(self) -> int:
        """The file position of its first sentence."""
        return self.sentences[0].position

    @property
    def end(self) -> int:
        """One past the file position of its last sentence."""
        return self.sentences[-1].position + 1

    @property
    def size(self) -> int:
        """Its candidates."""
        return sum(s.candidates for s in self.sentences)


@dataclass(frozen=True)
class PlannedTask:
    """A task as planned: ``batch`` (None: the overlap of a corpus of one batch), its
    sentence positions [``start``, ``end``), its ``copy``, its place in the dealing
    order, and the overlap items it carries (``extra``, of batch ``extra_batch``)."""

    batch: int | None
    start: int
    end: int
    copy: int
    order: int
    extra_batch: int | None
    extra: tuple[Item, ...]
    size: int


def documents(sentences: Sequence[SentenceSize]) -> list[list[SentenceSize]]:
    """``sentences`` (in file order) in runs of one document each."""
    runs: list[list[SentenceSize]] = []
    for sentence in sentences:
        if runs and runs[-1][-1].doc == sentence.doc:
            runs[-1].append(sentence)
        else:
            runs.append([sentence])
    return runs


def cut_document(
    document: Sequence[SentenceSize], batch_size: int
) -> list[tuple[SentenceSize, ...]]:
    """A document longer than ``batch_size`` candidates in contiguous pieces of whole
    sentences of at most ``batch_size`` candidates each (a sentence larger than that is a
    piece by itself): ⌈candidates / batch_size⌉ pieces, or more where whole sentences
    do not allow that few, as even as they allow (the cuts fall where the running count
    of candidates is nearest to an equal share), so no batch is a small remainder."""
    total = sum(s.candidates for s in document)
    pieces = max(1, math.ceil(total / batch_size))
    while True:
        cuts = _even_cuts(document, pieces)
        parts = [
            tuple(document[a:b]) for a, b in zip([0, *cuts], [*cuts, len(document)], strict=True)
        ]
        if all(len(p) == 1 or sum(s.candidates for s in p) <= batch_size for p in parts):
            return parts
        pieces += 1


def _even_cuts(document: Sequence[SentenceSize], pieces: int) -> list[int]:
    """The sentence indexes (increasing, each piece non-empty) at which to cut
    ``document`` into ``pieces`` parts of nearly equal candidates."""
    running = [0]
    for s in document:
        running.append(running[-1] + s.candidates)
    total, cuts = running[-1], list[int]()
    for j in range(1, min(pieces, len(document))):
        share = total * j / pieces
        low = cuts[-1] + 1 if cuts else 1
        high = len(document) - (min(pieces, len(document)) - j)
        cut = min(range(low, high + 1), key=lambda k: (abs(running[k] - share), k))
        cuts.append(cut)
    return cuts


def plan_batches(sentences: Sequence[SentenceSize], batch_size: int) -> list[Batch]:
    """The batches of a corpus whose ``sentences`` are given in file order (module doc)."""
    if batch_size < 1:
        raise ValueError(f"batch_size {batch_size}: a batch holds at least 1 candidate")
    parts: list[tuple[SentenceSize, ...]] = []
    open_part: list[SentenceSize] = []
    for document in documents(sentences):
        size = sum(s.candidates for s in document)
        if sum(s.candidates for s in open_part) + size <= batch_size:
            open_part.extend(document)
            continue
        if open_part:
            parts.append(tuple(open_part))
        if size <= batch_size or len(document) == 1:
            open_part = list(document)
        else:
            parts.extend(cut_document(document, batch_size))
            open_part = []
    if open_part:
        parts.append(tuple(open_part))
    return [Batch(number, part) for number, part in enumerate(parts)]


def dealing_order(batches: int, *, seed: str) -> list[int]:
    """The batch numbers ``0 … batches - 1`` in the order they are dealt: a permutation
    drawn with ``seed`` (the corpus's name), the same on every database."""
    order = list(range(batches))
    random.Random(f"{seed}/batches").shuffle(order)  # noqa: S311 (a seeded draw, by design)
    return order


def overlap_count(size: int, percent: int) -> int:
    """``round(percent / 100 × size)``, halves up (the same on every platform)."""
    return (2 * percent * size + 100) // 200


def overlap_items(batch: Batch, percent: int, *, seed: str) -> tuple[Item, ...]:
    """The items of ``batch`` judged a second time: :func:`overlap_count` of them, whole
    sentences in an order drawn with ``seed`` and the batch's number while they fit, then
    part of the next sentence (candidates drawn the same way). In file order."""
    wanted = overlap_count(batch.size, percent)
    draw = random.Random(f"{seed}/overlap/{batch.number}")  # noqa: S311 (seeded, by design)
    sentences = list(batch.sentences)
    draw.shuffle(sentences)
    items: list[Item] = []
    for sentence in sentences:
        room = wanted - len(items)
        if room <= 0:
            break
        if sentence.candidates <= room:
            items.extend((sentence.position, k) for k in range(sentence.candidates))
        else:
            items.extend(
                (sentence.position, k) for k in draw.sample(range(sentence.candidates), room)
            )
    return tuple(sorted(items))


def plan_tasks(
    sentences: Sequence[SentenceSize],
    *,
    batch_size: int,
    judges_per_item: int,
    overlap_percent: int,
    seed: str,
) -> list[PlannedTask]:
    """Every task of a corpus, in dealing order (module doc): ``judges_per_item`` copies
    of each batch; with one, each batch's overlap carried by the next batch's task
    (cyclic), or by a task of its own where the corpus is one batch."""
    if not 1 <= judges_per_item <= 3:
        raise ValueError(f"judges_per_item {judges_per_item}: 1, 2 or 3 annotators per item")
    batches = plan_batches(sentences, batch_size)
    order = dealing_order(len(batches), seed=seed)
    if judges_per_item > 1 or not batches:
        return [
            _task(batches[b], copy=c, order=i * judges_per_item + c)
            for i, b in enumerate(order)
            for c in range(judges_per_item)
        ]
    extras = {b.number: overlap_items(b, overlap_percent, seed=seed) for b in batches}
    if len(batches) == 1:
        only = _task(batches[0], copy=0, order=0)
        if not extras[0]:
            return [only]
        return [only, PlannedTask(None, 0, 0, 0, 1, 0, extras[0], len(extras[0]))]
    tasks = []
    for i, b in enumerate(order):
        carried = order[i - 1]  # the previous batch in dealing order (the last for the first)
        tasks.append(_task(batches[b], copy=0, order=i, extra=extras[carried], of=carried))
    return tasks


def _task(
    batch: Batch, *, copy: int, order: int, extra: tuple[Item, ...] = (), of: int | None = None
) -> PlannedTask:
    return PlannedTask(
        batch=batch.number,
        start=batch.start,
        end=batch.end,
        copy=copy,
        order=order,
        extra_batch=of if extra else None,
        extra=extra,
        size=batch.size + len(extra),
    )
