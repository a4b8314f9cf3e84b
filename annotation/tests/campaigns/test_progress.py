"""The campaign's figures: each judge's done / assigned, active time, pace and time to
finish; the corpus's progress (the assigned judges'); who judged what."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from annotation.campaigns.dealing import deal_next, finish_task_if_done, task_items_left
from annotation.campaigns.drawing import draw_tasks
from annotation.campaigns.progress import Campaign, campaign_of
from annotation.judging.start import next_judgment_for
from annotation.models import Corpus, User
from annotation.tests.campaigns.split import corpus_of_documents, judge_items, split_campaign
from annotation.tests.factories import done_judgment, sized_corpus

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(tmp_path: Path, user_factory: Callable[..., User]) -> Campaign:
    """5 sentences × 3 systems; ana (assigned) has done 3 candidates in 60 s each and has
    one open; bob (assigned) nothing; cy (not assigned: an import's) has done one."""
    corpus = sized_corpus(tmp_path, "small", 5)
    ana, bob, cy = user_factory("ana"), user_factory("bob"), user_factory("cy")
    corpus.judges.add(ana, bob)
    for system, position in (("system 0", 0), ("system 0", 1), ("system 1", 0)):
        done_judgment(corpus, ana, system, position, sser=7, seconds=60)
    next_judgment_for(user=ana, corpus=corpus)  # pending: counted nowhere
    done_judgment(corpus, cy, "system 2", 4, sser=3, seconds=30)
    return campaign_of(Corpus.objects.with_judges_progress().get(pk=corpus.pk))


def judge_named(campaign: Campaign, name: str):
    (found,) = [j for j in campaign.judges if j.username == name]
    return found


def test_a_judge_who_has_started_has_progress_pace_and_time_to_finish(
    campaign: Campaign,
) -> None:
    ana = judge_named(campaign, "ana")

    assert (ana.done, ana.to_do, ana.remaining) == (3, 15, 12)
    assert ana.share == pytest.approx(0.2)
    assert ana.seconds == pytest.approx(180)
    assert ana.per_hour == pytest.approx(60)
    assert ana.seconds_to_finish == pytest.approx(12 * 60)


def test_a_judge_who_has_not_started_has_no_pace_and_no_estimate(campaign: Campaign) -> None:
    bob = judge_named(campaign, "bob")

    assert (bob.done, bob.to_do, bob.seconds) == (0, 15, 0)
    assert bob.per_hour is None
    assert bob.seconds_to_finish is None


def test_an_evaluator_not_assigned_is_listed_apart_and_not_in_the_campaigns_progress(
    campaign: Campaign,
) -> None:
    cy = judge_named(campaign, "cy")

    assert [j.username for j in campaign.judges] == ["ana", "bob", "cy"]
    assert (cy.assigned, cy.done, cy.to_do, cy.remaining) == (False, 1, None, None)
    assert cy.seconds_to_finish is None
    assert (campaign.done, campaign.to_do, campaign.all_done) == (3, 30, 4)
    assert campaign.share == pytest.approx(0.1)


def test_who_judged_what_counts_done_judgments_per_judge_and_system(campaign: Campaign) -> None:
    matrix = {j.username: dict(j.per_system) for j in campaign.judges}

    assert campaign.systems == ("system 0", "system 1", "system 2")
    assert matrix == {
        "ana": {"system 0": 2, "system 1": 1, "system 2": 0},
        "bob": {"system 0": 0, "system 1": 0, "system 2": 0},
        "cy": {"system 0": 0, "system 1": 0, "system 2": 1},
    }


def test_a_judge_who_has_judged_everything_has_nothing_left(tmp_path: Path, judge: User) -> None:
    corpus = sized_corpus(tmp_path, "tiny", 1, systems=2)
    corpus.judges.add(judge)
    done_judgment(corpus, judge, "system 0", 0, sser=5)  # no time measured
    done_judgment(corpus, judge, "system 1", 0, sser=5)

    (only,) = campaign_of(Corpus.objects.with_judges_progress().get(pk=corpus.pk)).judges

    assert (only.done, only.remaining, only.seconds_to_finish) == (2, 0, 0.0)
    assert only.per_hour is None


def test_the_homes_campaign_progress_is_the_campaign_pages(campaign: Campaign) -> None:
    """One rule: the lead's home and the campaign page read the same annotation, and it
    equals the sum over the assigned judges."""
    corpus = Corpus.objects.with_judges_progress().get(pk=campaign.corpus.pk)

    assigned = [j for j in campaign.judges if j.assigned]
    assert corpus.n_judges == 2
    assert corpus.n_judges_done == sum(j.done for j in assigned) == campaign.done
    assert corpus.n_judges_assigned == sum(j.to_do for j in assigned) == campaign.to_do


def test_a_split_campaigns_progress_counts_the_judgments_its_rules_call_for(
    user_factory: Callable[..., User],
) -> None:
    """Where the work is split, the corpus's work is its batches (each candidate once,
    the overlap items twice), not every candidate for every judge: once every batch is
    judged, the progress says done (issue 37: "36 / 60,120")."""
    campaign = split_campaign("wmt", overlap_percent=20, batch_size=10)
    judges = [user_factory(name) for name in ("ann", "bob", "cy")]
    corpus = corpus_of_documents("de-en", [3, 3, 3, 3], systems=3, campaign=campaign, judges=judges)
    draw_tasks(corpus)
    drawn = Corpus.objects.with_judges_progress().get(pk=corpus.pk)
    while task := next(filter(None, (deal_next(user=u, campaign=campaign) for u in judges)), None):
        judge_items(task, User.objects.get(pk=task.assignee_id), task_items_left(task))
        finish_task_if_done(task)

    done = Corpus.objects.with_judges_progress().get(pk=corpus.pk)

    assert drawn.n_judges_assigned == done.n_judges_assigned == 36 + 4 * 2
    assert (drawn.n_judges_done, done.n_judges_done) == (0, 44)
    assert campaign_of(done).done == campaign_of(done).to_do == 44
