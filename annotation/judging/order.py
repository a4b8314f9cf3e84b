"""The order of work: which candidate a judge sees next, and which one came before.

Candidates come sentence by sentence (file order); within a sentence, the MT systems come
in an order shuffled per judge and sentence (:func:`shuffled_systems`), the same every
time that judge comes back. References are never judged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import models
from django.db.models import Count, Q

from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User


def shuffled_systems(targets: Sequence[Target], *, user_id: int, sentence_id: int) -> list[Target]:
    """A sentence's system targets in this judge's order: shuffled, the same every time.

    The seed is the judge and the sentence, so judges see the systems in different orders
    (no position bias shared by all judges) but one judge always in the same order.
    """
    ordered = sorted(targets, key=lambda t: (t.translator.position, t.ordinal, t.pk))
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
    """The first candidate, sentence by sentence, that ``user`` has not judged (done)."""
    system = Q(targets__translator__role=Translator.Role.SYSTEM)
    done = Q(
        targets__judgments__evaluator=user,
        targets__judgments__state=Judgment.State.DONE,
        targets__translator__role=Translator.Role.SYSTEM,
    )
    sentence = (
        corpus.sentences.annotate(
            n_systems=Count("targets", filter=system, distinct=True),
            n_done=Count("targets__judgments", filter=done, distinct=True),
        )
        .filter(n_done__lt=models.F("n_systems"))
        .order_by("position")
        .first()
    )
    if sentence is None:
        return None
    finished = set(
        Judgment.objects.done()
        .filter(evaluator=user, target__sentence=sentence)
        .values_list("target_id", flat=True)
    )
    for target in system_order(user=user, sentence=sentence):
        if target.pk not in finished:
            return target
    return None  # pragma: no cover - the annotation said one is left


def previous_target_for(*, judgment: Judgment) -> Target | None:
    """The candidate before this one in the evaluator's order (None at the very first)."""
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


def _sentence_before(sentence: Sentence) -> Sentence | None:
    return (
        Sentence.objects.filter(corpus_id=sentence.corpus_id, position__lt=sentence.position)
        .order_by("-position")
        .first()
    )
