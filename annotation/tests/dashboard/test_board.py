"""The dashboard of one corpus (``annotation/dashboard/board.py``): the human figures it
reads once, and its one list of panels."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from annotation.dashboard.board import PANELS, Dashboard
from annotation.models import Corpus, Judgment, Target, User
from annotation.statistics import human_scores
from annotation.tests.factories import done_judgment

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
    got = Dashboard(hand_corpus).human

    assert {s: set(f) for s, f in got.items()} == {s: set(f) for s, f in expected.items()}
    assert set(got["one-off"]) == {"sser"}
    assert "bad" not in got
    for system, figures in expected.items():
        for metric, score in figures.items():
            mine = got[system][metric]
            assert (mine.score, mine.signature) == (score.score, score.signature)
            assert np.array_equal(mine.stats, score.stats)


def test_every_panel_is_prepared_before_a_template_reads_it(
    judged_hand: Corpus, django_assert_num_queries
) -> None:
    """``prepare`` computes each panel's parts; rendering then reads without a query."""
    dash = Dashboard(judged_hand).prepare()

    with django_assert_num_queries(0):
        for parts in PANELS.values():
            for part in parts:
                getattr(dash, part)
    assert dash.prepare("judges") is dash
    with pytest.raises(ValueError, match="unknown panel 'secrets': choose one of table, estim"):
        dash.prepare("secrets")
