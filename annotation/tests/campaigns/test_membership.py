"""Which campaign a corpus is in (:mod:`annotation.campaigns.membership`): creating,
renaming and deleting campaigns, uploading into one, moving a corpus into another, and a
campaign made for one corpus going once empty."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from django.utils import timezone

from annotation.campaigns.membership import (
    ERR_CORPUS_DEALT,
    ERR_JUDGED_INTO_SPLIT,
    ERR_NAME_TAKEN,
    ERR_NOT_EMPTY,
    ERR_SAME_CAMPAIGN,
    ERR_TARGET_DEALING,
    CampaignRefused,
    campaign_create,
    campaign_delete,
    campaign_rename,
    corpus_move,
)
from annotation.corpora.import_jobs import ERR_CAMPAIGN_GONE
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import corpus_import
from annotation.corpora.removal import corpus_delete
from annotation.jobs import Job, run_queued_jobs
from annotation.models import Campaign, Corpus, Judgment, Task, User
from annotation.tests.factories import (
    SEED_REFUSED_LATE,
    SEED_XML,
    add_judgments,
    done_judgment,
    queue_upload,
    seed_corpus,
)

pytestmark = pytest.mark.django_db


def split(name: str, judges_per_item: int = 1) -> Campaign:
    """A lead's campaign that splits the work: ``judges_per_item`` annotators per item."""
    campaign = campaign_create(name=name)
    Campaign.objects.filter(pk=campaign.pk).update(judges_per_item=judges_per_item)
    campaign.refresh_from_db()
    return campaign


def task(corpus: Corpus, *, dealt_to: User | None = None, order: int = 0) -> Task:
    """A batch of ``corpus`` (its first sentence), dealt to ``dealt_to`` if given."""
    return Task.objects.create(
        corpus=corpus,
        batch=order,
        start=0,
        end=1,
        order=order,
        size=1,
        assignee=dealt_to,
        assigned_at=timezone.now() if dealt_to else None,
    )


def test_a_corpus_uploaded_without_a_choice_gets_a_campaign_made_for_it() -> None:
    corpus = seed_corpus()

    assert corpus.campaign.name == "seed"
    assert corpus.campaign.made_for_corpus


def test_a_corpus_imported_into_a_campaign_joins_it_and_the_campaign_stays_the_leads() -> None:
    wmt = campaign_create(name="WMT25")

    corpus = seed_corpus(campaign=wmt)

    assert corpus.campaign == wmt
    assert Campaign.objects.count() == 1
    assert not Campaign.objects.get().made_for_corpus


def test_a_corpus_imported_into_another_ones_campaign_makes_it_the_leads(lead: User) -> None:
    first = seed_corpus("first")
    seed_corpus("second", campaign=first.campaign)

    corpus_delete(corpus=first, requested_by=lead)
    corpus_delete(corpus=Corpus.objects.get(name="second"), requested_by=lead)

    assert list(Campaign.objects.values_list("name", flat=True)) == ["first"]
    assert not Campaign.objects.get().made_for_corpus


def test_deleting_a_corpus_deletes_the_campaign_made_for_it(lead: User) -> None:
    corpus = seed_corpus()

    corpus_delete(corpus=corpus, requested_by=lead)  # the tests' queue runs it at once

    assert Job.objects.get(kind="delete_corpus").status == "done"
    assert Corpus.all_objects.count() == 0
    assert Campaign.objects.count() == 0


def test_deleting_a_corpus_keeps_a_campaign_that_holds_another(lead: User) -> None:
    first = seed_corpus("first")
    second = seed_corpus("second", campaign=first.campaign)

    corpus_delete(corpus=first, requested_by=lead)

    assert list(Campaign.objects.all()) == [second.campaign]


def test_deleting_the_last_corpus_of_a_leads_campaign_keeps_the_campaign(lead: User) -> None:
    corpus = seed_corpus(campaign=campaign_create(name="WMT25"))

    corpus_delete(corpus=corpus, requested_by=lead)

    assert list(Campaign.objects.values_list("name", flat=True)) == ["WMT25"]


def test_a_refused_import_leaves_no_campaign_behind() -> None:

    with pytest.raises(ImportRefused):
        corpus_import(source=io.BytesIO(SEED_REFUSED_LATE), name="broken", score=False)

    assert Corpus.all_objects.count() == 0
    assert Campaign.objects.count() == 0


def test_an_upload_queued_for_a_campaign_deleted_since_fails_with_the_reason(
    lead: User, settings
) -> None:
    settings.TASKS = settings.QUEUED_TASKS  # the job waits for a worker
    gone = campaign_create(name="gone")
    job = queue_upload(lead, SEED_XML.read_bytes(), "seed", gone)
    campaign_delete(campaign=gone)
    run_queued_jobs()

    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", ERR_CAMPAIGN_GONE)
    assert Corpus.all_objects.count() == 0


def test_moving_a_corpus_keeps_its_judges_and_judgments_and_drops_its_own_campaign(
    user_factory: Callable[..., User],
) -> None:
    ana = user_factory("ana")
    corpus = seed_corpus()
    corpus.judges.add(ana)
    done_judgment(corpus, ana, "a translator", 0, sser=7)
    own = corpus.campaign
    wmt = campaign_create(name="WMT25")

    moved = corpus_move(corpus=corpus, campaign=wmt)

    assert moved.campaign == wmt
    assert Corpus.objects.get().campaign == wmt
    assert list(Corpus.objects.get().judges.all()) == [ana]
    assert Judgment.objects.count() == 1
    assert not Campaign.objects.filter(pk=own.pk).exists()


def test_moving_a_corpus_into_another_ones_campaign_makes_that_campaign_the_leads() -> None:
    first, second = seed_corpus("first"), seed_corpus("second")
    second_own = second.campaign

    corpus_move(corpus=second, campaign=first.campaign)

    first.campaign.refresh_from_db()
    assert not first.campaign.made_for_corpus
    assert not Campaign.objects.filter(pk=second_own.pk).exists()
    assert set(first.campaign.corpora.values_list("name", flat=True)) == {"first", "second"}


def test_a_move_removes_the_batches_not_yet_dealt() -> None:
    corpus = seed_corpus()
    task(corpus)

    corpus_move(corpus=corpus, campaign=campaign_create(name="WMT25"))

    assert Task.objects.count() == 0


def test_a_move_into_the_same_campaign_is_refused() -> None:
    corpus = seed_corpus()

    with pytest.raises(CampaignRefused) as refused:
        corpus_move(corpus=corpus, campaign=corpus.campaign)

    assert str(refused.value) == ERR_SAME_CAMPAIGN.format(corpus="seed", campaign="seed")


def test_a_move_into_a_split_campaign_that_has_dealt_batches_is_refused(
    user_factory: Callable[..., User],
) -> None:
    split_work = split("split")
    there = seed_corpus("there", campaign=split_work)  # its batches drawn on import
    first = Task.objects.filter(corpus=there).order_by("order")[:1].values("pk")
    Task.objects.filter(pk__in=first).update(
        assignee=user_factory("ana"), assigned_at=timezone.now()
    )
    corpus = seed_corpus()

    with pytest.raises(CampaignRefused) as refused:
        corpus_move(corpus=corpus, campaign=split_work)

    assert str(refused.value) == ERR_TARGET_DEALING.format(campaign="split")
    assert Corpus.objects.get(name="seed").campaign.name == "seed"


def test_a_move_into_a_split_campaign_before_dealing_is_done(
    user_factory: Callable[..., User],
) -> None:
    split_work = split("split", 2)
    seed_corpus("there", campaign=split_work)  # its batches drawn on import, never dealt

    corpus_move(corpus=seed_corpus(), campaign=split_work)

    assert Corpus.objects.get(name="seed").campaign == split_work


def test_a_corpus_moved_into_a_campaign_that_splits_the_work_has_its_batches_drawn() -> None:
    split_work = split("split")
    corpus = seed_corpus()

    corpus_move(corpus=corpus, campaign=split_work)  # the tests' queue draws at once

    tasks = Task.objects.filter(corpus=corpus)
    assert tasks.count() > 0
    assert not tasks.filter(assigned_at__isnull=False).exists()


def test_a_corpus_imported_into_a_campaign_that_splits_the_work_has_its_batches_drawn() -> None:
    corpus = seed_corpus(campaign=split("split"))

    assert Task.objects.filter(corpus=corpus).count() > 0


def test_a_corpus_whose_batches_were_dealt_stays_in_its_campaign(
    user_factory: Callable[..., User],
) -> None:
    corpus = seed_corpus()
    task(corpus, dealt_to=user_factory("ana"))

    with pytest.raises(CampaignRefused) as refused:
        corpus_move(corpus=corpus, campaign=campaign_create(name="WMT25"))

    assert str(refused.value) == ERR_CORPUS_DEALT.format(corpus="seed", source="seed")
    assert Task.objects.get().assignee is not None


def test_a_judged_corpus_cannot_join_a_campaign_that_splits_the_work(
    user_factory: Callable[..., User],
) -> None:
    corpus = seed_corpus()
    add_judgments(corpus, [user_factory("ana")], 1)
    split_work = split("split")

    with pytest.raises(CampaignRefused) as refused:
        corpus_move(corpus=corpus, campaign=split_work)

    assert str(refused.value) == ERR_JUDGED_INTO_SPLIT.format(corpus="seed", campaign="split")


def test_a_taken_campaign_name_is_refused_to_create_and_to_rename() -> None:
    campaign_create(name="WMT25")
    other = campaign_create(name="other")

    with pytest.raises(CampaignRefused, match="exists already"):
        campaign_create(name=" WMT25 ")
    with pytest.raises(CampaignRefused) as refused:
        campaign_rename(campaign=other, name="WMT25")

    assert str(refused.value) == ERR_NAME_TAKEN.format(name="WMT25")
    assert campaign_rename(campaign=other, name="other").name == "other"  # its own name
    assert campaign_rename(campaign=other, name="WMT26").name == "WMT26"
    assert set(Campaign.objects.values_list("name", flat=True)) == {"WMT25", "WMT26"}


def test_a_campaign_holding_a_corpus_is_not_deleted() -> None:
    corpus = seed_corpus()

    with pytest.raises(CampaignRefused) as refused:
        campaign_delete(campaign=corpus.campaign)

    assert str(refused.value) == ERR_NOT_EMPTY.format(campaign="seed", n=1)
    assert Campaign.objects.count() == 1
