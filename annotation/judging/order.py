"""The order of work: which candidate a judge sees next, and which one came before.

Candidates come sentence by sentence (file order); within a sentence, the MT systems come
in an order shuffled per judge and sentence (:func:`shuffled_systems`), the same every
time that judge comes back. References are never judged, except as control items, which
:mod:`annotation.controls.queue` mixes into this order when the corpus has them on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, overload

from django.db.models import Exists, OuterRef

from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User

T = TypeVar("T")
TargetT = TypeVar("TargetT", bound=Target)
#: Where a target stands in the file (:func:`file_place`).
Place = tuple[int, int, int]


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
    """The first candidate, sentence by sentence, that ``user`` has not judged (done).

    Two queries, whatever the corpus size: the first sentence holding a candidate the
    judge has not done (the database walks the sentences in order and stops there, never
    counting a whole corpus; the judge's done candidates are looked up as one set, which
    both SQLite and PostgreSQL build once), then that sentence's candidates, each marked
    done or not, in the judge's order.
    """
    done = Judgment.objects.counted().filter(evaluator_id=user.pk)
    candidates = Target.objects.filter(translator__role=Translator.Role.SYSTEM)
    sentence_id = (
        candidates.filter(sentence__corpus_id=corpus.pk)
        .exclude(pk__in=done.values("target_id"))
        .order_by("sentence__position")
        .values_list("sentence_id", flat=True)
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
    Before a control item comes the candidate the judge reached last before it."""
    if judgment.control:
        return _reached_before(judgment)
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


def _reached_before(control: Judgment) -> Target | None:
    """The candidate of the judge's latest real judgment of the corpus made before
    ``control`` (judgments are made as the judge reaches them)."""
    earlier = Judgment.objects.real().filter(
        evaluator_id=control.evaluator_id,
        target__translator__corpus_id=control.target.sentence.corpus_id,
        pk__lt=control.pk,
    )
    return (
        Target.objects.filter(pk__in=earlier.order_by("-pk").values("target_id")[:1])
        .select_related("translator", "sentence__corpus")
        .first()
    )


def _sentence_before(sentence: Sentence) -> Sentence | None:
    return (
        Sentence.objects.filter(corpus_id=sentence.corpus_id, position__lt=sentence.position)
        .order_by("-position")
        .first()
    )
