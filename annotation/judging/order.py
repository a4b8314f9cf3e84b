"""The order of work: which candidate a judge sees next, and which one came before.

The order itself is :mod:`annotation.queue_order`'s: the corpus's sentences in one
stratified random order, the same for every judge (each sentence's place read from its
row, ``Sentence.queue_position``, so the next candidate is an index walk whatever the
corpus size), and within a sentence the systems in an order shuffled per judge. Here it
is walked for one judge.

**Batches.** Where the corpus's campaign splits the work (``Campaign.splits_work``), a
judge works through the batch dealt to them (:class:`~annotation.models.Task`), and
nothing else of the corpus: its sentences in the queue's order, each with the batch's
candidates of it (all of them, or for overlap items a batch carries, some), in the
judge's order of those (:func:`~annotation.dealt.task_order`). What is done in the batch,
whoever did it (a batch given back keeps its earlier holder's work), or by the judge is
skipped, and "previous" walks back through the batch's items the judge has, never into
another judge's (:func:`previous_target_for`).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet

from annotation.dealt import TaskStep, task_order
from annotation.models import Corpus, Judgment, Sentence, Target, Task, Translator, User
from annotation.models.prepared import Prepared
from annotation.queue_order import shuffled_systems


def system_order(*, user: User, sentence: Sentence) -> list[Target]:
    """The sentence's system targets in ``user``'s order
    (:func:`~annotation.queue_order.shuffled_systems`)."""
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

    The first query brings the sentence and its corpus, which the candidate found is
    given: read with each of the sentence's twenty candidates, they were twenty
    sentences and corpora built (a corpus's settings decoded each time) for one kept,
    a tenth of an accept & next's CPU on the server.
    """
    found: list[Sentence] = _NEXT_SENTENCE(user.pk, corpus.pk)
    if not found:
        return None
    sentence = found[0]
    here: list[Target] = _SENTENCE_CANDIDATES(user.pk, sentence.pk)
    for target in shuffled_systems(here, user_id=user.pk, sentence_id=sentence.pk):
        if not target.is_done:  # type: ignore[attr-defined]
            target.sentence = sentence
            return target
    return None  # pragma: no cover - the first query found one left


def _next_sentence_query(user_id: int, corpus_id: int, *, shape: object) -> QuerySet[Sentence]:
    """:func:`next_target_for`'s first query: the first sentence of the queue with a
    candidate the judge ``user_id`` has not done, with its corpus."""
    done = Judgment.objects.counted().filter(evaluator_id=user_id)
    candidates = Target.objects.filter(translator__role=Translator.Role.SYSTEM)
    left = candidates.filter(sentence_id=OuterRef("pk")).exclude(pk__in=done.values("target_id"))
    return (
        Sentence.objects.filter(corpus_id=corpus_id)
        .filter(Exists(left))
        .order_by("queue_position")
        .select_related("corpus")[:1]
    )


def _sentence_candidates_query(
    user_id: int, sentence_id: int, *, shape: object
) -> QuerySet[Target]:
    """:func:`next_target_for`'s second query: the sentence's candidates, each marked
    done (``is_done``) by the judge ``user_id`` or not (the sentence is the first
    query's)."""
    done = Judgment.objects.counted().filter(evaluator_id=user_id)
    return (
        Target.objects.filter(translator__role=Translator.Role.SYSTEM, sentence_id=sentence_id)
        .select_related("translator")
        .annotate(is_done=Exists(done.filter(target_id=OuterRef("pk"))))
    )


#: Compiled once per process (:mod:`annotation.models.prepared`): every accept & next
#: asks them, and the ORM took longer to build them than the database to answer.
_NEXT_SENTENCE = Prepared(_next_sentence_query)
_SENTENCE_CANDIDATES = Prepared(_sentence_candidates_query)


def previous_target_for(*, judgment: Judgment) -> Target | None:
    """The candidate before this one in the evaluator's order (None at the very first).
    Before a control item comes the candidate the judge reached last before it. In a
    batch, the batch's candidate before it that is the judge's
    (:func:`~annotation.dealt.task_order`), and none before the batch's first; none for a
    judgment made outside any batch of a corpus whose campaign splits the work (no order
    of the corpus is the judge's)."""
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


def next_in_task(*, user: User, task: Task) -> TaskStep | None:
    """The judge's next candidate in ``task``: its first in
    :func:`~annotation.dealt.task_order` not done.
    None when none is left. Two queries."""
    item = next((i for i in task_order(user_id=user.pk, task=task) if not i.done), None)
    if item is None:
        return None
    return TaskStep(task, _target(item.target_id), item)


def _previous_in_task(judgment: Judgment, task: Task) -> Target | None:
    """The candidate of the judgment's batch ``task`` before it in the judge's order that
    is not another judge's (:attr:`~annotation.dealt.TaskItem.theirs`); None at the
    batch's first. Two queries."""
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
