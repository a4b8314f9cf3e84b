"""What a dealt batch holds and who holds which (the reads every package shares; the
rules of dealing are :mod:`annotation.campaigns.dealing`'s)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from annotation.models import Corpus, Target, Task, Translator, User


def task_targets(task: Task) -> QuerySet[Target]:
    """The system candidates of ``task``: those of its sentences (file positions
    ``start`` to ``end``), and its ``extra`` overlap items. One query when read."""
    mine = Q(pk__in=task.extra) if task.extra else Q(pk__in=[])
    if task.batch is not None:
        mine |= Q(sentence__position__gte=task.start, sentence__position__lt=task.end)
    return Target.objects.filter(
        mine, sentence__corpus_id=task.corpus_id, translator__role=Translator.Role.SYSTEM
    )


def current_task(*, user: User, corpus: Corpus) -> Task | None:
    """The batch of ``corpus`` that ``user`` holds and has not finished (a judge holds at
    most one per corpus), None where they hold none. One query."""
    return (
        Task.objects.filter(corpus_id=corpus.pk, assignee_id=user.pk, finished_at__isnull=True)
        .order_by("order")
        .first()
    )
