"""Nothing a judge sees tells adaptive dealing from dealing in the random order: the same
batch, held by the same judge with the same history, gives the same page (its markup to
the byte, once the session's CSRF token and the new judgment's id are set aside), the
home page the same counts, whether a round drew it or the random order dealt it. With
control items on, the same: a round's batch holds its controls where the random order's
would, at the corpus's rate, and a control's page is a real item's but for its texts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotation.campaigns.dealing import deal_next
from annotation.campaigns.drawing import draw_campaign_tasks
from annotation.controls.runs import controls_per_run
from annotation.models import Campaign, Corpus, Judgment, Task, User
from annotation.tests.adaptive.helpers import adaptive_corpus, judge_task, system_score
from annotation.tests.controls.factories import DRAWN_KINDS
from annotation.tests.controls.test_page import skeleton
from annotation.tests.factories import finish

pytestmark = pytest.mark.django_db

ASIDE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), "csrf"),
    (re.compile(r'"x-csrftoken": "[^"]+"'), "csrf"),
    (re.compile(r"/judgments/\d+/"), "/judgments/N/"),
    (re.compile(r'data-judgment="\d+"'), 'data-judgment="N"'),
]


def seen(client: Client, corpus: Corpus) -> tuple[str, str]:
    """The judge's page of their next item and their home page, as served."""
    page = client.get(reverse("annotation:judge_continue", args=[corpus.pk]), follow=True)
    home = client.get(reverse("annotation:home"))
    assert page.status_code == home.status_code == 200
    out = []
    for text in (page.content.decode(), home.content.decode()):
        for pattern, replacement in ASIDE:
            text = pattern.sub(replacement, text)
        out.append(text)
    return out[0], out[1]


def redraw(campaign: Campaign, *, adaptive: bool) -> None:
    """Start the campaign again under the other rule: no judgment, no task dealt."""
    Judgment.objects.all().delete()
    Task.objects.all().update(assignee=None, assigned_at=None, finished_at=None)
    Task.objects.all().delete()
    Campaign.objects.filter(pk=campaign.pk).update(adaptive=adaptive)
    campaign.refresh_from_db()
    draw_campaign_tasks(campaign)


def test_a_batch_drawn_by_a_round_looks_as_it_would_dealt_in_the_random_order(
    user_factory: Callable[..., User],
) -> None:
    judge = user_factory("ann")
    client = Client()
    client.force_login(judge)
    campaign, corpus = adaptive_corpus("unseen", [3] * 12, systems=3, judges=[judge])
    adaptive_pages, batches = [], []
    for _ in range(4):  # the warm-up's three batches, then one a round drew
        task = deal_next(user=judge, campaign=campaign)
        assert task is not None
        batches.append(task.batch)
        adaptive_pages.append(seen(client, corpus))
        judge_task(task, judge)
    assert Task.objects.get(corpus=corpus, batch=batches[-1], copy=0).round == 1

    redraw(campaign, adaptive=False)
    plain_pages = []
    for batch in batches:  # the same batches, held in the same order, without rounds
        Task.objects.filter(corpus=corpus, batch=batch).update(
            assignee=judge, assigned_at=timezone.now(), touched_at=timezone.now()
        )
        task = Task.objects.get(corpus=corpus, batch=batch)
        assert task.round is None
        plain_pages.append(seen(client, corpus))
        judge_task(task, judge)

    for adaptive, plain in zip(adaptive_pages, plain_pages, strict=True):
        assert adaptive[0] == plain[0]  # the judge's page
        assert adaptive[1] == plain[1]  # the home page


# --- with control items on, dealt through the judge's own path ---------------------------

#: One control in every four items: one in each run of three systems.
RATE, SYSTEMS, SENTENCES_A_BATCH, BATCHES = 4, 3, 3, 5

PROGRESS = re.compile(r'id="progress">(\d+)/(\d+)<')
#: The judge's pace and the time it leaves: the active seconds the walk took, which no
#: rule of dealing decides (``skeleton`` sets them aside too).
PACE = re.compile(r'(id="(?:pace|time-left)"[^>]*>)[^<]*<')


@dataclass
class Item:
    """One item of a batch as the judge met it: the page and the home page beside it
    (as served, ids aside), the header's "done x/T" and the judgment behind the page."""

    judgment: Judgment
    batch: int
    page: str
    home: str
    progress: tuple[int, int]
    home_progress: str


def walk_batches(client: Client, corpus: Corpus, judge: User, batches: int) -> list[list[Item]]:
    """The judge asks for a batch (the finished page's button: the real deal), then
    judges it item by item as the pages open them, as many times as ``batches``."""
    walked = []
    for _ in range(batches):
        dealt = client.post(reverse("annotation:next_batch", args=[corpus.pk]))
        assert dealt.status_code == 303
        items = []
        while True:
            response = client.get(reverse("annotation:judge_continue", args=[corpus.pk]))
            if response.status_code != 302:  # the batch's finished page
                break
            page, home = (PACE.sub(r"\1·<", text) for text in seen(client, corpus))
            pk = int(response["Location"].rstrip("/").rsplit("/", 1)[1])
            judgment = Judgment.objects.select_related(
                "task", "target__translator", "target__sentence"
            ).get(pk=pk)
            progress = PROGRESS.search(page)
            counted = re.search(rf'data-progress="{corpus.name}">([^<]*)<', home)
            assert progress is not None
            assert counted is not None
            done, total = map(int, progress.groups())
            assert judgment.task is not None
            assert judgment.task.batch is not None
            batch = judgment.task.batch
            items.append(Item(judgment, batch, page, home, (done, total), counted.group(1)))
            answer(judgment, judge)
        walked.append(items)
    return walked


def answer(judgment: Judgment, judge: User) -> None:
    """A candidate scored as :func:`system_score` has its system's (so the rounds'
    estimates have pairs to tell apart), a control as a careful judge scores it."""
    target = judgment.target
    if judgment.control:
        careful = 10 if judgment.control == Judgment.Control.REFERENCE else 3
        finish(judgment, judge, target.text, careful)
        return
    score = system_score(target.translator.position, target.sentence.position)
    finish(judgment, judge, target.text, score)


def deal_first(campaign: Campaign, batches: list[int]) -> None:
    """Put ``batches`` first in the corpus's random dealing order, in this order (the
    dealing order is never shown to a judge)."""
    tasks = Task.objects.filter(corpus__campaign=campaign)
    tasks.update(order=F("order") + 10_000)
    for k, batch in enumerate(batches, start=1):
        tasks.filter(batch=batch).update(order=k)


def test_with_controls_on_a_batch_a_round_drew_shows_its_controls_as_any_batch(
    user_factory: Callable[..., User],
) -> None:
    """Controls on (one in every four items), the judge asks for each batch through the
    finished page's button (:func:`~annotation.campaigns.dealing.deal_next`) and judges
    it through the pages, adaptively dealt, then the same batches dealt in that order in
    the random order: every page and home page is the same to the byte (controls,
    labels, "candidate k of N", "done x/T", the home page's count); each batch, the
    rounds' as the warm-up's, holds one control in each of its runs; and a control's page
    has the markup of a real item's (its texts and numbers masked)."""
    judge = user_factory("ann")
    client = Client()
    client.force_login(judge)
    campaign, corpus = adaptive_corpus(
        "unseen", [SENTENCES_A_BATCH] * 12, systems=SYSTEMS, judges=[judge]
    )
    Corpus.objects.filter(pk=corpus.pk).update(controls_enabled=True, control_rate=RATE)
    corpus.refresh_from_db()
    per_run = controls_per_run(RATE, SYSTEMS)

    adaptive = walk_batches(client, corpus, judge, BATCHES)
    batches = [items[0].batch for items in adaptive]
    rounds = [Task.objects.get(corpus=corpus, batch=b).round for b in batches]
    redraw(campaign, adaptive=False)
    deal_first(campaign, batches)
    plain = walk_batches(client, corpus, judge, BATCHES)

    assert rounds[:3] == [0, 0, 0]  # the warm-up's batches
    assert all(r is not None and r >= 1 for r in rounds[3:])  # drawn by rounds
    assert [items[0].batch for items in plain] == batches
    assert {t.round for t in Task.objects.filter(corpus=corpus)} == {None}
    total = SENTENCES_A_BATCH * (SYSTEMS + per_run)
    assert per_run / (SYSTEMS + per_run) == 1 / RATE
    for items in adaptive:  # the rounds' batches as the warm-up's
        assert [i.progress for i in items] == [(done, total) for done in range(total)]
        assert [i.home_progress for i in items] == [f"{done}/{total}" for done in range(total)]
        runs = Counter(i.judgment.target.sentence_id for i in items if i.judgment.control)
        assert sorted(runs.values()) == [per_run] * SENTENCES_A_BATCH
    for held, dealt in zip(adaptive, plain, strict=True):
        assert [i.page for i in held] == [i.page for i in dealt]
        assert [i.home for i in held] == [i.home for i in dealt]
    walked = [i for items in adaptive for i in items]
    real = {str(skeleton(i.page)) for i in walked if not i.judgment.control}
    controls = [i for i in walked if i.judgment.control]
    assert {i.judgment.control for i in controls} <= DRAWN_KINDS
    for control in controls:
        assert str(skeleton(control.page)) in real, control.judgment.control
