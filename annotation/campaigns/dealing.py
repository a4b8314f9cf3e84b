"""Dealing a campaign's work in batches (issue 37; the rules are in the design of
:mod:`annotation.models.campaign`).

This first version deals the first free task of the campaign's corpora the annotator
judges, in dealing order; the full rules (no annotator twice on one item, quotas,
batches given back when left untouched, the draw of the batches) build on it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from annotation.models import Campaign, Task, User


def deal_next(*, user: User, campaign: Campaign) -> Task | None:
    """The batch ``user`` works on next in ``campaign``: the one they hold unfinished, else
    a free one claimed for them now; None when none is left for them. The claim is a
    conditional update, so two annotators asking at once never get the same task."""
    held = (
        Task.objects.filter(
            corpus__campaign_id=campaign.pk, assignee_id=user.pk, finished_at__isnull=True
        )
        .order_by("corpus_id", "order")
        .first()
    )
    if held is not None:
        return held
    free = Task.objects.filter(
        corpus__campaign_id=campaign.pk,
        corpus__judges=user,
        assignee__isnull=True,
        finished_at__isnull=True,
    ).order_by("corpus_id", "order")
    for task in free[:20]:
        now = timezone.now()
        with transaction.atomic():
            claimed = Task.objects.filter(pk=task.pk, assignee__isnull=True).update(
                assignee_id=user.pk, assigned_at=now, touched_at=now
            )
        if claimed:
            task.refresh_from_db()
            return task
    return None
