"""The order of work: which candidate a judge sees next, and which one came before.

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

**Batches.** Where the corpus's campaign splits the work (``Campaign.splits_work``), a
judge works through the batch dealt to them (:class:`~annotation.models.Task`), and
nothing else of the corpus: its sentences in the queue's order, each with the batch's
candidates of it (all of them, or for overlap items a batch carries, some), in the
judge's order of those (:func:`task_order`). What is done in the batch, whoever did it
(a batch given back keeps its earlier holder's work), or by the judge is skipped, and
"previous" walks back through the batch's items the judge has, never into another
judge's (:func:`previous_target_for`).

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
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar, overload

from django.db.models import Exists, OuterRef

from annotation.campaigns.tasks import done_for, task_targets
from annotation.models import Corpus, Judgment, Sentence, Target, Task, Translator, User

T = TypeVar("T")
TargetT = TypeVar("TargetT", bound=Target)
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


def system_order(*, user: User, sentence: Sentence) -> list[Target]:
    """The sentence's system targets in ``user``'s order (:func:`shuffled_systems`)."""
    targets = list(
        sentence.targets.filter(translator__role=Translator.Role.SYSTEM).select_related(
            "translator"
        )
    )
    return shuffled_systems(targets, user_id=user.pk, sentence_id=sentence.pk)


def next_target_for(*, user: User, corpus: Corpus) -> Target | None:
    """The first candidate, sentence by sentence in the queue's order, that ``user`` has
    not judged (done).

    Two queries, whatever the corpus size: the first sentence holding a candidate the
    judge has not done (the database walks the sentences by their stored queue position,
    in its index, looks up each one's candidates by their sentence, and stops at the
    first with one left, never counting a whole corpus; the judge's done candidates are
    looked up as one set, which both SQLite and PostgreSQL build once), then that
    sentence's candidates, each marked done or not, in the judge's order. Asked of the
    targets and ordered by their sentence instead, PostgreSQL's planner joins the
    corpus's every target to each sentence it walks (``bench/judge_queue.py``).
    """
    done = Judgment.objects.counted().filter(evaluator_id=user.pk)
    candidates = Target.objects.filter(translator__role=Translator.Role.SYSTEM)
    left = candidates.filter(sentence_id=OuterRef("pk")).exclude(pk__in=done.values("target_id"))
    sentence_id = (
        Sentence.objects.filter(corpus_id=corpus.pk)
        .filter(Exists(left))
        .order_by("queue_position")
        .values_list("pk", flat=True)
        .first()
    )
    if sentence_id is None:
        return None
    here = (
        candidates.filter(sentence_id=sentence_id)
        .select_related("translator", "sentence__corpus")
        .annotate(is_done=Exists(done.filter(target_id=OuterRef("pk"))))
    )
    for target in shuffled_systems(list(here), user_id=user.pk, sentence_id=sentence_id):
        if not target.is_done:
            return target
    return None  # pragma: no cover - the first query found one left


def previous_target_for(*, judgment: Judgment) -> Target | None:
    """The candidate before this one in the evaluator's order (None at the very first).
    Before a control item comes the candidate the judge reached last before it. In a
    batch, the batch's candidate before it that is the judge's (:func:`task_order`), and
    none before the batch's first; none for a judgment made outside any batch of a
    corpus whose campaign splits the work (no order of the corpus is the judge's)."""
    if judgment.control:
        return _reached_before(judgment)
    if judgment.task is not None:
        return _previous_in_task(judgment, judgment.task)
    if judgment.target.sentence.corpus.campaign.splits_work:
        return None
    user = judgment.evaluator
    sentence = judgment.target.sentence
    order = system_order(user=user, sentence=sentence)
    index = next(i for i, t in enumerate(order) if t.pk == judgment.target_id)
    if index > 0:
        return order[index - 1]
    earlier = _sentence_before(sentence)
    while earlier is not None:
        order = system_order(user=user, sentence=earlier)
        if order:
            return order[-1]
        earlier = _sentence_before(earlier)
    return None


@dataclass(frozen=True)
class TaskItem:
    """A candidate of a judge's batch, in the judge's order (:func:`task_order`): its
    place among the batch's candidates of its sentence (``here``, 0-based, of
    ``systems``), whether it is ``done`` (:func:`~annotation.campaigns.tasks.done_for`)
    and whether the judge has a judgment of it (``mine``)."""

    target_id: int
    sentence_id: int
    here: int
    systems: int
    done: bool
    mine: bool

    @property
    def theirs(self) -> bool:
        """Done in the batch by another judge (its earlier holder): not the judge's item."""
        return self.done and not self.mine


@dataclass(frozen=True)
class TaskStep:
    """The judge's next candidate in the batch ``task``, with where it stands in it."""

    task: Task
    target: Target
    item: TaskItem


def task_order(*, user_id: int, task: Task) -> list[TaskItem]:
    """Every candidate of ``task`` in the order the judge ``user_id`` takes them: its
    sentences by queue position, each one's candidates of the batch in the judge's order
    (:func:`shuffled_systems`). One query of the batch's candidates (a batch holds about
    ``Campaign.batch_size`` of them, whatever the corpus's size), each marked done and
    mine by an index lookup of its judgments."""
    done = Judgment.objects.filter(done_for(task, user_id), target_id=OuterRef("pk"))
    mine = Judgment.objects.real().filter(evaluator_id=user_id, target_id=OuterRef("pk"))
    rows = (
        task_targets(task)
        .order_by()
        .annotate(done=Exists(done), mine=Exists(mine))
        .values_list(
            "pk",
            "sentence_id",
            "sentence__queue_position",
            "translator__position",
            "ordinal",
            "done",
            "mine",
            named=True,
        )
    )
    sentences: dict[int, list[Any]] = {}
    for row in rows:
        sentences.setdefault(row.sentence_id, []).append(row)
    out: list[TaskItem] = []
    for sentence_id, here in sorted(
        sentences.items(), key=lambda s: (s[1][0].sentence__queue_position or 0, s[0])
    ):
        ordered = shuffled_systems(
            here,
            user_id=user_id,
            sentence_id=sentence_id,
            place=lambda r: (r.translator__position, r.ordinal, r.pk),
        )
        out.extend(
            TaskItem(r.pk, sentence_id, k, len(ordered), r.done, r.mine)
            for k, r in enumerate(ordered)
        )
    return out


def next_in_task(*, user: User, task: Task) -> TaskStep | None:
    """The judge's next candidate in ``task``: its first in :func:`task_order` not done.
    None when none is left. Two queries."""
    item = next((i for i in task_order(user_id=user.pk, task=task) if not i.done), None)
    if item is None:
        return None
    return TaskStep(task, _target(item.target_id), item)


def _previous_in_task(judgment: Judgment, task: Task) -> Target | None:
    """The candidate of the judgment's batch ``task`` before it in the judge's order that
    is not another judge's (:attr:`TaskItem.theirs`); None at the batch's first. Two
    queries."""
    items = task_order(user_id=judgment.evaluator_id, task=task)
    at = next((k for k, i in enumerate(items) if i.target_id == judgment.target_id), 0)
    before = next((i for i in reversed(items[:at]) if not i.theirs), None)
    return None if before is None else _target(before.target_id)


def _target(pk: int) -> Target:
    """The target ``pk`` as the judging services use it."""
    return Target.objects.select_related("translator", "sentence__corpus").get(pk=pk)


def _reached_before(control: Judgment) -> Target | None:
    """The candidate of the judge's latest real judgment of the corpus (of the batch,
    for a control of one) made before ``control`` (judgments are made as the judge
    reaches them)."""
    earlier = Judgment.objects.real().filter(
        evaluator_id=control.evaluator_id,
        target__translator__corpus_id=control.target.sentence.corpus_id,
        pk__lt=control.pk,
    )
    if control.task_id is not None:  # in a batch: its own items only
        earlier = earlier.filter(task_id=control.task_id)
    return (
        Target.objects.filter(pk__in=earlier.order_by("-pk").values("target_id")[:1])
        .select_related("translator", "sentence__corpus")
        .first()
    )


def _sentence_before(sentence: Sentence) -> Sentence | None:
    """The sentence before ``sentence`` in the queue (None at the first)."""
    if sentence.queue_position is None:
        return None  # not in any queue yet: an import still writing it
    return (
        Sentence.objects.filter(
            corpus_id=sentence.corpus_id, queue_position__lt=sentence.queue_position
        )
        .order_by("-queue_position")
        .first()
    )
