"""The dashboard of one corpus (``annotation/dashboard/board.py``, ``parts.py``,
``panels/``): the human figures it reads once, its panels in the page's order, what it
shows while a worker computes its figures, and templates that only read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from lxml import etree

from annotation.dashboard import figures as dashboard_figures
from annotation.dashboard import sources
from annotation.dashboard.board import dashboard_page, dashboard_panel
from annotation.dashboard.panels import PAGE, PANELS
from annotation.dashboard.parts import Pending, in_order
from annotation.dashboard.preprocessing import Preprocessing
from annotation.models import Corpus, Judgment, Target, User
from annotation.statistics import human_scores
from annotation.tests.boards import view_of
from annotation.tests.factories import HTMX, done_judgment

pytestmark = pytest.mark.django_db


def test_human_figures_from_the_rows_are_human_scores_bit_for_bit(
    hand_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    """The dashboard reads the judgments once and derives the human figures from those
    rows; they must be ``manage.py scores``'s, also for judgments without a score or
    without an edit count, and for a system nobody judged."""
    ann, bob = user_factory("ann"), user_factory("bob")
    done_judgment(hand_corpus, ann, "perfect", 0, sser=10, edits=0, length=4)
    done_judgment(hand_corpus, bob, "perfect", 0, sser=7, edits=1, length=5)
    done_judgment(hand_corpus, ann, "perfect", 1, sser=None, edits=2, length=4)
    done_judgment(hand_corpus, ann, "one-off", 2, sser=3)  # scored, no edit count
    Judgment.objects.create(  # in progress: not counted anywhere
        target=Target.objects.get(sentence__position=3, translator__name="one-off"),
        evaluator=bob,
        sser=0,
    )

    expected = human_scores(hand_corpus)
    got = view_of(hand_corpus).get(dashboard_figures.human)

    assert {s: set(f) for s, f in got.items()} == {s: set(f) for s, f in expected.items()}
    assert set(got["one-off"]) == {"sser"}
    assert "bad" not in got
    for system, figures in expected.items():
        for metric, score in figures.items():
            mine = got[system][metric]
            assert (mine.score, mine.signature) == (score.score, score.signature)
            assert np.array_equal(mine.stats, score.stats)


def test_the_page_shows_every_panel_in_its_place_with_its_jump_link(
    lead_client: Client, judged_hand: Corpus
) -> None:
    """The page's panels are the registered ones, in :data:`PAGE`'s order: each one's
    section and its jump link."""
    page = etree.HTML(lead_client.get(f"/dashboard/{judged_hand.pk}/").content)

    sections = page.xpath('//div[@id="dashboard"]/section[@class="panel"]/@id')
    jumps = page.xpath('//nav[@class="jump"]/a')
    assert (
        list(PANELS)
        == list(PAGE)
        == ["table", "estimates", "adaptive", "charts", "judges", "effort", "meta"]
    )
    assert sections == [p.anchor for p in PANELS.values()]
    assert [a.get("href") for a in jumps] == [f"#{p.anchor}" for p in PANELS.values()]
    assert [a.text for a in jumps] == [p.title for p in PANELS.values()]


def test_a_panel_is_placed_on_the_page_or_refused() -> None:
    with pytest.raises(ValueError, match=r"panels not placed: \['meta'\]; placed, not regis"):
        in_order(PAGE[:-1])
    with pytest.raises(ValueError, match=r"not placed: \[\]; placed, not registered: \['news'\]"):
        in_order((*PAGE, "news"))
    with pytest.raises(ValueError, match="unknown panel 'secrets': choose one of table, estim"):
        dashboard_panel(view_of(Corpus(name="none")), "secrets")


def test_figures_a_worker_computes_are_pending_not_an_error(
    hand_corpus: Corpus, settings: Any
) -> None:
    """A choice never scored: every panel that shows automatic figures is the same
    :class:`Pending` value, with the job queued for it; the panels of the judgments alone
    are shown."""
    settings.TASKS = settings.QUEUED_TASKS  # the job waits for a worker
    dash = view_of(hand_corpus, Preprocessing(tokenize="none"))

    pending = dash.get(sources.chosen_statistics)
    built = {name: dashboard_panel(dash, name) for name in PANELS}

    assert isinstance(pending, Pending)
    ((job,),) = {p.jobs for p in built.values() if isinstance(p, Pending)}
    assert job == pending.jobs[0]
    assert (job.kind, job.status, pending.failed) == ("statistics", "queued", False)
    assert {n for n, p in built.items() if isinstance(p, Pending)} == {
        "table",
        "estimates",
        "charts",
        "meta",
    }
    assert built["effort"].total_judgments == 0
    assert dashboard_page(dash).pending == pending
    assert dashboard_page(dash).shown == ()


@pytest.mark.parametrize("panel", ["", *(f"panel/{name}/" for name in PAGE)])
@pytest.mark.parametrize("htmx", [False, True])
def test_no_query_runs_while_a_dashboard_template_renders(
    lead_client: Client, judged_hand: Corpus, panel: str, htmx: bool
) -> None:
    """Each view builds the frozen values its templates show before they render (the
    first template renders after the last query)."""
    before_render: list[int] = []
    with CaptureQueriesContext(connection) as queries:

        def rendering(**kwargs: object) -> None:
            before_render.append(len(queries))

        template_rendered.connect(rendering)
        try:
            response = lead_client.get(
                f"/dashboard/{judged_hand.pk}/{panel}", **(HTMX if htmx else {})
            )
        finally:
            template_rendered.disconnect(rendering)

    assert response.status_code == 200
    assert before_render
    assert before_render[0] == len(queries)
