"""A campaign's rules as the lead sets them (``/campaigns/c/<id>/rules/``): annotators per
item, overlap, batch size, timeout, quotas, and each annotator's own quota.

Saving rules that change how the batches are cut (annotators per item, batch size, the
overlap where one annotator judges each item, and adaptive dealing with its warm-up)
draws every corpus's tasks again (:mod:`annotation.campaigns.drawing`); so does saving
split rules while a corpus has none drawn yet. The request clears the old tasks and a
worker draws the new ones (a job: seconds for a WMT-size campaign). That is refused, and
nothing saved, once dealing has started in a corpus. The timeout, the quotas and the
confidence change at any time: the next deal reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction

from annotation.campaigns.drawing import clear_undealt_tasks, queue_draw, undrawn_corpora
from annotation.jobs import Job
from annotation.models import Campaign, CampaignAnnotator, Corpus, User
from annotation.models.campaign import CONFIDENCE_DEFAULT, WARM_UP_PERCENT_DEFAULT


@dataclass(frozen=True)
class Rules:
    """The rules of a campaign the lead sets (the fields of :class:`Campaign`)."""

    judges_per_item: int | None
    overlap_percent: int
    batch_size: int
    batch_timeout_hours: int
    quota: int | None
    adaptive: bool = False
    warm_up_percent: int = WARM_UP_PERCENT_DEFAULT
    confidence: int = CONFIDENCE_DEFAULT

    @property
    def shape(self) -> tuple[int | None, ...]:
        """What the cut of the batches depends on: two rules of the same shape draw the
        same tasks (the overlap only counts with one annotator per item, the batch size
        only where the work is split)."""
        if self.judges_per_item is None:
            return (None,)
        overlap = self.overlap_percent if self.judges_per_item == 1 else None
        warm_up = self.warm_up_percent if self.adaptive else None
        return (self.judges_per_item, overlap, self.batch_size, self.adaptive, warm_up)


FIELDS = (
    "judges_per_item",
    "overlap_percent",
    "batch_size",
    "batch_timeout_hours",
    "quota",
    "adaptive",
    "warm_up_percent",
    "confidence",
)


def rules_of(campaign: Campaign) -> Rules:
    return Rules(**{name: getattr(campaign, name) for name in FIELDS})


def campaign_annotators(campaign: Campaign) -> list[User]:
    """The campaign's annotators (:meth:`~annotation.users.UserQuerySet.annotating`)."""
    return list(User.objects.annotating(campaign.pk))


def annotator_quotas(campaign: Campaign) -> dict[int, int | None]:
    """The quotas the lead set for single annotators of ``campaign``, by user id."""
    rows = CampaignAnnotator.objects.filter(campaign_id=campaign.pk)
    return dict(rows.values_list("user_id", "quota"))


def tasks_drawn(campaign: Campaign) -> list[Corpus]:
    """The corpora of ``campaign``, each with its tasks drawn, dealt (ever, given back or
    not), finished and given back (:meth:`~annotation.models.CorpusQuerySet.with_batches`,
    the counts the campaign's pages show). One query."""
    return list(Corpus.objects.filter(campaign_id=campaign.pk).with_batches().order_by("name"))


def campaign_set_rules(
    *,
    campaign: Campaign,
    rules: Rules,
    quotas: Mapping[int, int | None],
    requested_by: User | None = None,
) -> Job | None:
    """Store ``rules`` and the annotators' own ``quotas`` (user id: batches, None for the
    campaign's), clearing the tasks the new rules cut otherwise and queueing the job
    that draws them (:func:`~annotation.campaigns.drawing.queue_draw`; returned, None
    where nothing is to draw). Refused with
    :class:`~annotation.campaigns.drawing.DrawRefused`, and nothing stored, once dealing
    has started in a corpus to draw."""
    with transaction.atomic():
        stored = Campaign.objects.select_for_update().get(pk=campaign.pk)
        reshaped = rules_of(stored).shape != rules.shape
        for name in FIELDS:
            setattr(stored, name, getattr(rules, name))
        stored.save(update_fields=list(FIELDS))
        cleared = _corpora_to_draw(stored, reshaped=reshaped)
        for corpus in cleared:
            clear_undealt_tasks(corpus)
        CampaignAnnotator.objects.bulk_create(
            [CampaignAnnotator(campaign=stored, user_id=u, quota=q) for u, q in quotas.items()],
            update_conflicts=True,
            unique_fields=["campaign", "user"],
            update_fields=["quota"],
        )
    for name in FIELDS:
        setattr(campaign, name, getattr(stored, name))
    if not stored.splits_work or not cleared:
        return None
    return queue_draw(stored, requested_by=requested_by)


def _corpora_to_draw(campaign: Campaign, *, reshaped: bool) -> list[Corpus]:
    """Every corpus of ``campaign`` where the rules change the cut; else, where the work
    is split, those with no task drawn yet (:func:`~annotation.campaigns.drawing.
    undrawn_corpora`)."""
    if reshaped:
        return list(Corpus.objects.filter(campaign_id=campaign.pk).order_by("name"))
    return undrawn_corpora(campaign)
