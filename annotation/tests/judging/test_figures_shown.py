"""No anchoring (issue 23): a blind corpus keeps the system's live figures off the judge's
page, in the markup too, unless a lead shows them; the candidate's own aWER and edit count
stay."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from annotation.models import Corpus, Judgment
from annotation.tests.factories import HTMX, change_url, page_url

pytestmark = pytest.mark.django_db

#: What gives a system's running figures away: their markup and their labels.
SYSTEM_FIGURES = re.compile(r'data-figure="|\b(BLEU|mWER|aSER|SSER error)\b|This system, over')


def _set(corpus: Corpus, *, blind: bool, see: bool | None) -> None:
    corpus.blind, corpus.judges_see_figures = blind, see
    corpus.save(update_fields=["blind", "judges_see_figures"])


@pytest.mark.parametrize(
    "blind, see, shown",
    [
        (True, None, False),
        (False, None, True),
        (True, True, True),
        (False, False, False),
    ],
    ids=["blind", "named", "blind-shown", "named-hidden"],
)
def test_the_setting_or_else_blindness_decides_whether_figures_are_shown(
    blind: bool, see: bool | None, shown: bool
) -> None:
    assert Corpus(name="c", blind=blind, judges_see_figures=see).shows_live_figures is shown


def test_a_corpus_made_blind_later_hides_the_figures_nobody_chose_to_show() -> None:
    corpus = Corpus(name="c", blind=False)
    assert corpus.shows_live_figures
    corpus.blind = True
    assert not corpus.shows_live_figures


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_blind_corpus_page_holds_no_system_figure_but_the_candidates_own(
    judge_client: Client, seed: Corpus, figure_1: Judgment, htmx: bool
) -> None:
    html = judge_client.get(page_url(figure_1), **(HTMX if htmx else {})).content.decode()

    assert SYSTEM_FIGURES.search(html) is None
    assert 'id="candidate-awer">45.5 %<' in html
    assert 'id="edit-count">5<' in html


def test_the_figures_swapped_in_after_a_click_obey_the_setting(
    judge_client: Client, seed: Corpus, figure_1: Judgment
) -> None:
    response = judge_client.post(
        change_url(figure_1, "op"), {"version": "1", "op": "missing:0:0"}, **HTMX
    )
    html = response.content.decode()

    assert response.status_code == 200
    assert '<dl id="figures" class="figures" hx-swap-oob="true"' in html
    assert SYSTEM_FIGURES.search(html) is None
    assert 'id="candidate-awer">40.0 %<' in html
    assert 'id="edit-count">4<' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_named_corpus_shows_the_systems_figures(
    judge_client: Client, seed: Corpus, figure_1: Judgment, htmx: bool
) -> None:
    _set(seed, blind=False, see=None)

    html = judge_client.get(page_url(figure_1), **(HTMX if htmx else {})).content.decode()

    for key in ("awer", "aser", "sser", "wer", "mwer", "bleu"):
        assert f'data-figure="{key}"' in html
    assert 'id="candidate-awer">45.5 %<' in html


def test_a_named_corpus_whose_lead_hides_the_figures_shows_none(
    judge_client: Client, seed: Corpus, figure_1: Judgment
) -> None:
    _set(seed, blind=False, see=False)

    html = judge_client.get(page_url(figure_1)).content.decode()

    assert SYSTEM_FIGURES.search(html) is None
    assert 'id="edit-count">5<' in html


def test_a_hidden_figures_page_costs_fewer_queries_than_a_shown_one(
    judge_client: Client, seed: Corpus, figure_1: Judgment, django_assert_max_num_queries
) -> None:
    _set(seed, blind=True, see=True)
    with CaptureQueriesContext(connection) as shown:
        judge_client.get(page_url(figure_1), **HTMX)
    _set(seed, blind=True, see=None)
    with django_assert_max_num_queries(len(shown.captured_queries)):
        judge_client.get(page_url(figure_1), **HTMX)
