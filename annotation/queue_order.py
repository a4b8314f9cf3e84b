"""The order of work, drawn without the database: where each sentence comes in a
corpus's queue (drawn once, by the import) and where each system comes in a judge's
order of a sentence. :mod:`annotation.judging.order` walks this order for a judge, and
:mod:`annotation.controls.queue` places control items in it.

**Sentences.** A judge's queue is a *stratified random sample* of the corpus at every
prefix: the corpus's documents (``Sentence.doc``) are interleaved so that the first *k*
sentences hold each document's share of *k* — its size times *k* over the corpus's
size, rounded down or up, never further off (:func:`interleaved`) — and the sentences a
document gives are a random subset of it (shuffled within the document). A campaign
stopped anywhere has judged a fair stratified subset, which is what estimating the
whole corpus's score from a judged part needs (documents differ in difficulty; a file
in document order would give the first documents only). Where two documents are due
at once, the one drawn first goes first (the documents' order is drawn at random).

Sentences without a document form one stratum together: a corpus without documents is
thus one stratum, in a plain random order (a simple random sample at every prefix), and
in a corpus mixing both, the sentences without a document get their share as a group —
which a stratified estimate can use (a stratum of one sentence has no variance to
estimate).

Shuffling within a document gives up its reading order: the page shows the sentences
before and after the source in its document (:func:`annotation.judging.page.
document_context`), which is what a pronoun or an ellipsis is judged by.

The order is one per corpus, the same for every judge: whatever the judges' paces, what
a campaign has judged is one prefix of one order, so it is itself a stratified sample
(within one of every document's share), each judged sentence judged by every judge who
got that far (judges compared on the same sentences from the start, a sentence's score
a mean over its judges). An order per judge would cover more sentences sooner, but what
the campaign has judged would be a union of prefixes whose documents' shares drift
apart, and few sentences would be shared. Where a sentence stands is read from its row
(``Sentence.queue_position``, stored by the import: :func:`queue_positions`), so the
next candidate is an index walk whatever the corpus size. The draw is seeded with the
corpus's name: the same file imported under the same name has the same order on any
database. Corpora imported before the order existed keep their file order (their
campaigns had started in it, and a judge's place, controls and "previous" all follow
the order).

**Systems.** Within a sentence, the MT systems come in an order shuffled per judge and
sentence (:func:`shuffled_systems`), the same every time that judge comes back: the
judge's position bias is not shared by all judges. References are never judged, except
as control items, which :mod:`annotation.controls.queue` mixes into this order when the
corpus has them on.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from annotation.models import Target

T = TypeVar("T")
TargetT = TypeVar("TargetT", bound="Target")
#: Where a target stands in the file (:func:`file_place`).
Place = tuple[int, int, int]


def interleaved(sizes: Sequence[int]) -> list[int]:
    """The stratum (index into ``sizes``) of each place of a sequence holding ``sizes[d]``
    items of stratum *d*, such that every prefix of length *k* holds ⌊k·sᵈ/N⌋ or
    ⌈k·sᵈ/N⌉ items of each stratum (N = the sum of ``sizes``).

    Balinski and Young's quota method (*The Quota Method of Apportionment*, American
    Mathematical Monthly 82, 1975), where the places are "seats" given one by one: the
    next place goes to the stratum of largest sᵈ/(cᵈ + 1) (cᵈ its places so far) among
    those still below their upper quota k·sᵈ/N; ties go to the lower index. They prove
    it never leaves either quota. Strata of equal size thus take turns, and a larger
    one comes proportionally more often. O(N log D) for D strata: a stratum waits in
    one heap until the prefix it becomes eligible at, then in another by priority.
    """
    total = sum(sizes)
    if any(size < 0 for size in sizes):
        raise ValueError(f"sizes {list(sizes)!r}: a stratum cannot have fewer than 0 items")
    counts = [0] * len(sizes)
    eligible = [(-Fraction(size), d) for d, size in enumerate(sizes) if size]
    heapq.heapify(eligible)
    waiting: list[tuple[int, int]] = []  # (the prefix length it becomes eligible at, d)
    out: list[int] = []
    for k in range(1, total + 1):
        while waiting and waiting[0][0] <= k:
            _, d = heapq.heappop(waiting)
            heapq.heappush(eligible, (-Fraction(sizes[d], counts[d] + 1), d))
        _, d = heapq.heappop(eligible)
        out.append(d)
        counts[d] += 1
        if counts[d] < sizes[d]:
            # below the upper quota again once counts[d] < k'·size/total
            heapq.heappush(waiting, (counts[d] * total // sizes[d] + 1, d))
    return out


def queue_positions(docs: Sequence[str | None], *, seed: str) -> list[int]:
    """Where each sentence (``docs[i]`` is the document of the sentence at file position
    *i*; None or "" for none) comes in the corpus's queue (0-based), drawn with ``seed``:
    the documents in a random order, each one's sentences shuffled, interleaved by
    :func:`interleaved` (see the module's doc for why)."""
    strata: dict[str | None, list[int]] = {}
    for i, doc in enumerate(docs):
        strata.setdefault(doc or None, []).append(i)
    rng = random.Random(f"queue:{seed}")
    drawn = list(strata.values())  # in the order of first appearance in the file
    rng.shuffle(drawn)
    for sentences in drawn:
        rng.shuffle(sentences)
    taken = [0] * len(drawn)
    positions = [0] * len(docs)
    for place, d in enumerate(interleaved([len(s) for s in drawn])):
        positions[drawn[d][taken[d]]] = place
        taken[d] += 1
    return positions


def file_place(target: Target) -> Place:
    """Where a system target stands in the file: its translator's position, then its
    ordinal and pk (the order the shuffle starts from)."""
    return (target.translator.position, target.ordinal, target.pk)


@overload
def shuffled_systems(
    targets: Sequence[TargetT], *, user_id: int, sentence_id: int
) -> list[TargetT]: ...


@overload
def shuffled_systems(
    targets: Sequence[T], *, user_id: int, sentence_id: int, place: Callable[[T], Place]
) -> list[T]: ...


def shuffled_systems(
    targets: Sequence[Any],
    *,
    user_id: int,
    sentence_id: int,
    place: Callable[[Any], Place] = file_place,
) -> list[Any]:
    """A sentence's system targets in this judge's order: shuffled, the same every time.

    The seed is the judge and the sentence, so judges see the systems in different orders
    (no position bias shared by all judges) but one judge always in the same order.
    ``place`` says where each target stands in the file (:func:`file_place`), so the page
    can put rows it has read in order without building model objects.
    """
    ordered = sorted(targets, key=place)
    random.Random(f"{user_id}:{sentence_id}").shuffle(ordered)
    return ordered
