"""Which campaign a corpus is judged in: a lead creates, renames and deletes campaigns,
uploads a corpus into one (:func:`annotation.corpora.import_jobs.queue_import`) and
moves a corpus into another (:func:`corpus_move`).

A corpus uploaded without a choice gets a campaign of its own (``Corpus.save``), marked
``made_for_corpus``; it goes once it holds no corpus, when its corpus is deleted or moved
out (:func:`campaign_drop_if_left_empty`), so one-corpus campaigns do not pile up. A
campaign a lead created, or chose for another corpus, is the lead's and stays, empty or
not, until the lead deletes it.

A move is refused, nothing changed, where it would leave the work inconsistent:

* into a campaign that splits the work and has dealt a batch already
  (:data:`ERR_TARGET_DEALING`): its annotators hold batches drawn under its rules, and
  their quotas count them; a corpus joins such a campaign by upload, with nothing judged;
* out of a campaign whose batches of the corpus were dealt (:data:`ERR_CORPUS_DEALT`):
  those judgments were made in batches of that campaign's rules (how many annotators
  per item, the overlap), which the other campaign's rules would contradict;
* a corpus with judgments into a campaign that splits the work
  (:data:`ERR_JUDGED_INTO_SPLIT`): there every item is dealt afresh to as many
  annotators as set, so the judgments made before would count beside theirs.

A corpus's batches not yet dealt (drawn under the campaign it leaves) are removed by a
move, and a campaign that splits the work draws the batches of the corpus that joined it
(:func:`~annotation.campaigns.drawing.queue_draw`), as it does for a corpus uploaded
into it.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q

from annotation.campaigns.drawing import DrawRefused, clear_undealt_tasks, queue_draw
from annotation.models import Campaign, Corpus, Judgment, Task, User

ERR_NAME_TAKEN = "a campaign named {name!r} exists already: choose another name"
ERR_NAME_EMPTY = "give the campaign a name"
ERR_SAME_CAMPAIGN = "corpus {corpus!r} is in campaign {campaign!r} already"
ERR_TARGET_DEALING = (
    "campaign {campaign!r} splits the work and has dealt batches already: a corpus can no "
    "longer join it (upload a new corpus into it instead)"
)
ERR_CORPUS_DEALT = (
    "batches of corpus {corpus!r} were dealt under the rules of campaign {source!r}: its "
    "judgments belong to them, so it stays there"
)
ERR_JUDGED_INTO_SPLIT = (
    "corpus {corpus!r} has judgments already, and campaign {campaign!r} splits the work: "
    "there every item is dealt afresh, and the earlier judgments would count twice"
)
ERR_NOT_EMPTY = "campaign {campaign!r} holds {n} corpora: move or delete them first"


class CampaignRefused(ValueError):
    """Nothing was changed; the message says why, in the lead's words."""


def _free_name(name: str, *, other_than: int | None = None) -> str:
    name = name.strip()
    if not name:
        raise CampaignRefused(ERR_NAME_EMPTY)
    taken = Campaign.objects.filter(name=name)
    if other_than is not None:
        taken = taken.exclude(pk=other_than)
    if taken.exists():
        raise CampaignRefused(ERR_NAME_TAKEN.format(name=name))
    return name


def campaign_create(*, name: str) -> Campaign:
    """A new campaign of the lead's, empty, with the default rules (every judge of a
    corpus judges every candidate until its rules say otherwise)."""
    free = _free_name(name)
    try:
        with transaction.atomic():
            return Campaign.objects.create(name=free)
    except IntegrityError:  # taken a moment ago by another request
        raise CampaignRefused(ERR_NAME_TAKEN.format(name=free)) from None


def campaign_rename(*, campaign: Campaign, name: str) -> Campaign:
    """``campaign`` under the new name (only the name is written)."""
    free = _free_name(name, other_than=campaign.pk)
    try:
        with transaction.atomic():
            Campaign.objects.filter(pk=campaign.pk).update(name=free)
    except IntegrityError:
        raise CampaignRefused(ERR_NAME_TAKEN.format(name=free)) from None
    campaign.name = free
    return campaign


def campaign_delete(*, campaign: Campaign) -> None:
    """Delete a campaign that holds no corpus (a hidden one, being imported, counts:
    refused). Its annotator links and quotas go with it: they open nothing else."""
    n = Corpus.all_objects.filter(campaign=campaign).count()
    if n:
        raise CampaignRefused(ERR_NOT_EMPTY.format(campaign=campaign.name, n=n))
    campaign.delete()


def campaign_drop_if_left_empty(campaign_id: int) -> bool:
    """Delete campaign ``campaign_id`` if it was made for one corpus and holds none any
    more (that corpus deleted, or moved out); whether it was. A campaign of the lead's
    stays."""
    holds = Corpus.all_objects.filter(campaign_id=OuterRef("pk"))
    empty = Campaign.objects.filter(pk=campaign_id, made_for_corpus=True).exclude(Exists(holds))
    return bool(empty.delete()[0])


def campaign_chosen(campaign: Campaign) -> None:
    """A lead chose ``campaign`` for another corpus (upload, move): it is theirs now, and
    stays when the corpus it was made for goes."""
    if campaign.made_for_corpus:
        Campaign.objects.filter(pk=campaign.pk).update(made_for_corpus=False)
        campaign.made_for_corpus = False


#: A task dealt once (a task given back to the pool keeps its ``assigned_at``).
DEALT = Q(assigned_at__isnull=False)


def dealing_started(campaign: Campaign) -> bool:
    """Whether ``campaign`` has dealt a batch of any of its corpora (one query)."""
    return Task.objects.filter(DEALT, corpus__campaign=campaign).exists()


def _move_refusal(corpus: Corpus, target: Campaign) -> str | None:
    source = corpus.campaign
    if source.pk == target.pk:
        return ERR_SAME_CAMPAIGN.format(corpus=corpus.name, campaign=target.name)
    if target.splits_work and dealing_started(target):
        return ERR_TARGET_DEALING.format(campaign=target.name)
    dealt = Task.objects.filter(DEALT, corpus=corpus)
    if dealt.exists() or Judgment.objects.filter(task__corpus=corpus).exists():
        return ERR_CORPUS_DEALT.format(corpus=corpus.name, source=source.name)
    if target.splits_work and Judgment.objects.counted().of_corpus(corpus.pk).exists():
        return ERR_JUDGED_INTO_SPLIT.format(corpus=corpus.name, campaign=target.name)
    return None


def corpus_move(*, corpus: Corpus, campaign: Campaign, requested_by: User | None = None) -> Corpus:
    """Move ``corpus`` into ``campaign`` (refused with the reason: the module's doc). Its
    batches not yet dealt go, and where ``campaign`` splits the work a worker draws its
    new ones; its old campaign goes if it was made for it and is left empty. The corpus
    keeps its judges, judgments and settings."""
    with transaction.atomic():
        corpus = (
            Corpus.objects.select_related("campaign")
            .select_for_update(of=("self",))
            .get(pk=corpus.pk)
        )
        refusal = _move_refusal(corpus, campaign)
        if refusal is not None:
            raise CampaignRefused(refusal)
        source_id = corpus.campaign_id
        try:
            clear_undealt_tasks(corpus)
        except DrawRefused:  # a batch dealt since the check: it stays where it is
            raise CampaignRefused(
                ERR_CORPUS_DEALT.format(corpus=corpus.name, source=corpus.campaign.name)
            ) from None
        Corpus.objects.filter(pk=corpus.pk).update(campaign=campaign)
        campaign_chosen(campaign)
        campaign_drop_if_left_empty(source_id)
    corpus.campaign = campaign
    if campaign.splits_work:
        queue_draw(campaign, requested_by=requested_by)
    return corpus
