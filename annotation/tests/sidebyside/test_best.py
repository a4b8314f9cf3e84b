"""The preference on a screen of 3 or 4 candidates (``annotation/sidebyside/screen.py``,
``figures.py``): the judge picks the best of them, or says none stands out; a pick is
broken into the pairs it implies (the best beat each other shown), resampled together
by the ranking's bootstrap, and "none stands out" says nothing of any pair."""

from __future__ import annotations

import pytest
from django.test import Client
from lxml import html as lxml_html

from annotation.models import Comparison, Corpus, SideBySide, User
from annotation.sidebyside.actions import comparison_accept, comparison_judgments
from annotation.sidebyside.figures import corpus_outcomes
from annotation.sidebyside.queue import next_comparison, side_by_side_set
from annotation.tests.sidebyside.corpora import side_by_side_corpus
from metrics.pairwise import Outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def corpus(judge: User) -> Corpus:
    corpus = side_by_side_corpus(judge)
    side_by_side_set(corpus=corpus, per_screen=3)
    return corpus


def screen(corpus: Corpus, judge: User) -> Comparison:
    comparison = next_comparison(setting=SideBySide.objects.get(corpus=corpus), user=judge)
    assert comparison is not None
    return comparison


def test_a_screen_of_three_asks_which_is_best(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison = screen(corpus, judge)
    assert comparison.picks_best
    page = lxml_html.fromstring(judge_client.get(f"/comparisons/{comparison.pk}/").content)

    form = page.get_element_by_id("sbs-preference")
    assert form.get_element_by_id("sbs-preference-label").text.strip() == "Which is best?"
    assert [b.text_content() for b in form.iterfind(".//button")] == [
        "A best a",
        "B best b",
        "C best c",
        "None stands out =",
    ]
    assert page.xpath('//dd[@data-action="prefer-c"]/@data-key') == ["c"]


def test_the_best_is_one_of_the_screens_letters(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison = screen(corpus, judge)
    url = f"/comparisons/{comparison.pk}/preference/"

    assert judge_client.post(url, {"preference": "c"}).status_code == 303
    assert Comparison.objects.get(pk=comparison.pk).preference == "c"
    assert judge_client.post(url, {"preference": "d"}).status_code == 400


def test_a_screen_of_two_still_asks_a_against_b(judge_client: Client, judge: User) -> None:
    comparison = screen(side_by_side_corpus(judge, name="pairs"), judge)
    assert not comparison.picks_best
    url = f"/comparisons/{comparison.pk}/preference/"

    assert judge_client.post(url, {"preference": "c"}).status_code == 400


def picked(corpus: Corpus, judge: User, preference: str) -> tuple[Comparison, list[int]]:
    """The first screen accepted with ``preference``; its systems' numbers, in the order
    shown (the corpus's systems in file order: alpha 0, beta 1, gamma 2)."""
    comparison = screen(corpus, judge)
    shown = comparison_judgments(comparison=comparison, user=judge)
    comparison_accept(
        comparison=comparison,
        user=judge,
        scores={j.pk: 50 for j in shown},
        preference=preference,
    )
    names = ["alpha", "beta", "gamma"]
    return comparison, [names.index(j.target.translator.name) for j in shown]


def test_a_pick_is_the_best_beating_each_other_candidate_shown(judge: User, corpus: Corpus) -> None:
    comparison, systems = picked(corpus, judge, "c")

    names, outcomes = corpus_outcomes(corpus.side_by_side)
    best, *others = systems[2], systems[0], systems[1]
    assert names == ["alpha", "beta", "gamma"]
    assert outcomes == [
        Outcome(best, other, 1.0, judge=judge.pk, item=comparison.sentence_id, group=comparison.pk)
        for other in others
    ]


def test_none_standing_out_says_nothing_of_any_pair(judge: User, corpus: Corpus) -> None:
    picked(corpus, judge, "same")

    assert corpus_outcomes(corpus.side_by_side)[1] == []
