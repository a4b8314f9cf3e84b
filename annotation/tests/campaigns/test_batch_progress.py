"""The progress of a campaign that splits the work, as the lead's pages show it: per
corpus the items of its batches judged of all of them and its batches dealt, finished
and given back (``CorpusQuerySet.with_judges_progress``), per annotator their batches
held and finished, the items they judged and what their batch has left
(:mod:`annotation.campaigns.batch_progress`), on the campaign page, a corpus's campaign
page and the lead's home, each in a number of queries that does not grow with the
campaign. Every judge on every candidate would make it "36 / 60,120" (issue 37)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from lxml import html

from annotation.campaigns.batch_progress import AnnotatorBatches, annotator_batches
from annotation.campaigns.dealing import finish_task_if_done, release_stale_tasks, task_items_left
from annotation.campaigns.drawing import draw_campaign_tasks
from annotation.dealt import task_targets
from annotation.models import Campaign, Corpus, Judgment, Task, User
from annotation.tests.campaigns.split import (
    corpus_of_documents,
    judge_items,
    leave_untouched,
    split_campaign,
)
from annotation.tests.factories import page_queries

pytestmark = pytest.mark.django_db

Users = Callable[..., User]

#: The batches' progress of "de-en" in :func:`under_way`: items judged of all, batches
#: drawn, dealt, finished and given back.
DE_EN = {
    "data-items-done": "19",
    "data-items-total": "48",
    "data-batches-total": "4",
    "data-batches-dealt": "3",
    "data-batches-finished": "1",
    "data-batches-returned": "1",
}


def give(task: Task, user: User) -> Task:
    """``task`` dealt to ``user`` (as a deal claims it)."""
    Task.objects.filter(pk=task.pk).update(assignee=user, assigned_at=task.corpus.created_at)
    task.refresh_from_db()
    return task


@pytest.fixture
def under_way(user_factory: Users) -> Campaign:
    """A campaign of one annotator per item, 20 % overlap, batches of 10: "de-en" (4
    batches of 10 candidates, each task 12 items with its 2 overlap items: 48) and
    "fr-en" (2 batches, none dealt). In de-en: ann judged her whole batch (finished);
    bob judged 5 items of his and left it untouched (given back), then cy was dealt it
    and judged 2 more (5 left); dee holds one and did only a control item; the fourth
    is free. ann also has a done judgment outside any batch (an import's)."""
    ann, bob, cy, dee = (user_factory(name) for name in ("ann", "bob", "cy", "dee"))
    campaign = split_campaign("wmt", batch_size=10, overlap_percent=20)
    de_en = corpus_of_documents(
        "de-en", [5] * 4, systems=2, campaign=campaign, judges=[ann, bob, cy, dee]
    )
    corpus_of_documents("fr-en", [5] * 2, systems=2, campaign=campaign, judges=[ann, bob])
    draw_campaign_tasks(campaign)
    first, second, third, fourth = Task.objects.filter(corpus=de_en).order_by("order")
    judge_items(give(first, ann), ann, task_items_left(first))
    assert finish_task_if_done(first)
    judge_items(give(second, bob), bob, list(task_items_left(second))[:5])
    leave_untouched(second, campaign)
    assert release_stale_tasks(campaign) == 1
    judge_items(give(second, cy), cy, list(task_items_left(second))[:2])
    give(third, dee)
    control = task_targets(third).first()
    Judgment.objects.create(
        target=control, evaluator=dee, task=third, control=Judgment.Control.REPEAT, state="done"
    )
    outside = task_targets(fourth).first()
    Judgment.objects.create(target=outside, evaluator=ann, state=Judgment.State.DONE, sser=3)
    return campaign


def tree(client: Client, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.fromstring(response.content)


def figures(element: Any, names: Any) -> dict[str, str]:
    return {name: element.get(name) for name in names}


def test_a_corpus_s_progress_is_the_items_of_its_batches(under_way: Campaign) -> None:
    de_en, fr_en = Corpus.objects.filter(campaign=under_way).with_judges_progress()

    assert (de_en.name, fr_en.name) == ("de-en", "fr-en")
    assert (de_en.n_judges_done, de_en.n_judges_assigned) == (19, 48)  # type: ignore[attr-defined]
    batches = ("n_batches", "n_batches_dealt", "n_batches_finished", "n_batches_returned")
    assert [getattr(de_en, name) for name in batches] == [4, 3, 1, 1]
    assert (fr_en.n_judges_done, fr_en.n_judges_assigned) == (0, 24)  # type: ignore[attr-defined]
    assert [getattr(fr_en, name) for name in batches] == [2, 0, 0, 0]


def test_each_annotator_s_batches_items_and_what_their_batch_has_left(
    under_way: Campaign,
) -> None:
    """bob's 5 items stay his once his batch went back; cy's batch has what is left of
    it; a control item is no item; ann's judgment outside any batch is not in one."""
    batches = annotator_batches(Task.objects.filter(corpus__campaign=under_way))
    by_name = {User.objects.get(pk=pk).username: theirs for pk, theirs in batches.items()}

    assert by_name == {
        "ann": AnnotatorBatches(held=1, finished=1, items_done=12, left=None),
        "bob": AnnotatorBatches(held=0, finished=0, items_done=5, left=None),
        "cy": AnnotatorBatches(held=1, finished=0, items_done=2, left=5),
        "dee": AnnotatorBatches(held=1, finished=0, items_done=0, left=12),
    }


def test_the_campaign_page_shows_the_items_and_batches_of_each_corpus_and_annotator(
    lead_client: Client, under_way: Campaign
) -> None:
    page = tree(lead_client, reverse("campaigns:campaign", args=[under_way.pk]))

    (total,) = page.cssselect("#campaign-progress")
    assert figures(total, DE_EN) == {
        **DE_EN,
        "data-items-total": "72",
        "data-batches-total": "6",
    }
    assert (total.get("data-done"), total.get("data-assigned")) == ("19", "72")
    assert "Items judged in batches: 19/72" in total.text_content()
    (de_en,) = page.cssselect('#campaign-corpora [data-batches="de-en"]')
    assert figures(de_en, DE_EN) == DE_EN
    (span,) = page.cssselect('#campaign-corpora [data-judges-progress="de-en"]')
    assert span.text_content() == "19/48"
    rows = {
        row.get("data-annotator"): (
            row.cssselect('td[data-col="progress"]')[0].get("data-items-done"),
            row.cssselect('td[data-col="batches"]')[0].text_content(),
            row.cssselect('td[data-col="left"]')[0].get("data-batch-left"),
        )
        for row in page.cssselect("#campaign-annotators tbody tr")
    }
    assert rows == {
        "ann": ("12", "1 / 1", ""),
        "bob": ("5", "0 / 0", ""),
        "cy": ("2", "1 / 0", "5"),
        "dee": ("0", "1 / 0", "12"),
    }


def test_a_corpus_s_campaign_page_shows_its_items_batches_and_each_judge_s(
    lead_client: Client, under_way: Campaign
) -> None:
    de_en = Corpus.objects.get(name="de-en")
    page = tree(lead_client, reverse("campaigns:corpus", args=[de_en.pk]))

    (progress,) = page.cssselect("#campaign-progress")
    assert figures(progress, DE_EN) == DE_EN
    assert "Items judged in batches: 19/48" in progress.text_content()
    judges = {
        row.get("data-judge"): figures(
            row.cssselect('td[data-col="progress"]')[0],
            ("data-batches-held", "data-batches-finished", "data-items-done", "data-batch-left"),
        )
        for row in page.cssselect("#campaign-judges tbody tr")
    }
    assert judges["cy"] == {
        "data-batches-held": "1",
        "data-batches-finished": "0",
        "data-items-done": "2",
        "data-batch-left": "5",
    }
    assert judges["ann"]["data-items-done"] == "12"
    assert judges["bob"]["data-batches-held"] == "0"


def test_the_lead_s_home_shows_a_split_corpus_s_items_and_batches(
    lead_client: Client, under_way: Campaign
) -> None:
    page = tree(lead_client, "/")

    (span,) = page.cssselect('[data-judges-progress="de-en"]')
    assert (span.get("data-done"), span.get("data-assigned")) == ("19", "48")
    (batches,) = page.cssselect('[data-batches="de-en"]')
    assert figures(batches, DE_EN) == DE_EN
    assert "1 given back" in batches.text_content()


# --- queries --------------------------------------------------------------------------

#: Each page's budget where the campaign splits the work: the campaign page's of any
#: campaign (test_campaign_pages) with the annotators' done judgments per corpus replaced
#: by their batches (two queries: the batches by holder, the judgments of open or
#: given-back batches), and the effort per protocol (two); a corpus's campaign page,
#: home and the rules page as in any campaign (a corpus's judges are read with their
#: batches).
MAX_QUERIES_SPLIT = {"campaign": 12, "corpus": 13, "home": 7, "rules": 7}


def split_campaign_judged(name: str, corpora: int, annotators: list[User]) -> Campaign:
    """A split campaign of ``corpora`` corpora, each annotator dealt a batch of each and
    judging half of it (the first finishing it), one batch given back."""
    campaign = split_campaign(name, batch_size=10, overlap_percent=20)
    for k in range(corpora):
        corpus_of_documents(
            f"{name}{k}", [5] * (2 + len(annotators)), systems=2, campaign=campaign
        ).judges.add(*annotators)
    draw_campaign_tasks(campaign)
    for corpus in campaign.corpora.all():
        tasks = list(Task.objects.filter(corpus=corpus).order_by("order"))
        for user, task in zip(annotators, tasks, strict=False):
            left = list(task_items_left(give(task, user)))
            judge_items(task, user, left if user == annotators[0] else left[: len(left) // 2])
            finish_task_if_done(task)
        leave_untouched(tasks[1], campaign)
    release_stale_tasks(campaign)
    return campaign


def split_pages(campaign: Campaign) -> dict[str, str]:
    """The lead's pages that show ``campaign``'s progress."""
    corpus = campaign.corpora.order_by("pk").first()
    assert corpus is not None
    return {
        "campaign": reverse("campaigns:campaign", args=[campaign.pk]),
        "corpus": reverse("campaigns:corpus", args=[corpus.pk]),
        "home": "/",
        "rules": reverse("campaigns:rules", args=[campaign.pk]),
    }


def test_a_split_campaign_s_pages_cost_the_same_queries_small_and_large(
    lead_client: Client, user_factory: Users
) -> None:
    """Home is counted with the small campaign alone, then with the large one too."""
    small = split_campaign_judged("small", 1, [user_factory(f"a{k}") for k in range(2)])
    at_small = {page: page_queries(lead_client, url) for page, url in split_pages(small).items()}
    large = split_campaign_judged("large", 4, [user_factory(f"b{k}") for k in range(6)])

    at_large = {page: page_queries(lead_client, url) for page, url in split_pages(large).items()}

    assert at_large == at_small
    assert all(at_small[page] <= n for page, n in MAX_QUERIES_SPLIT.items()), at_small
    for page, url in split_pages(large).items():  # with the batches' figures
        shown = "data-returned=" if page == "rules" else "data-batches-finished="
        assert shown in lead_client.get(url).content.decode(), page
    assert Judgment.objects.filter(task__corpus__campaign=large).count() > 4 * 5 * 6
    assert Task.objects.filter(corpus__campaign=large, returned=1).count() == 4
