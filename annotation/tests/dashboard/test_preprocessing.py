"""Seed 000's preprocessing choices (``annotation/dashboard/preprocessing.py``): query
parameters, their signature, and what they change."""

from __future__ import annotations

import pytest

from annotation.dashboard import figures
from annotation.dashboard.preprocessing import Preprocessing
from annotation.models import Corpus
from annotation.tests.boards import view_of
from metrics.stats import format_signature

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "params, message",
    [
        ({"tok": "spaces"}, "tok='spaces'"),
        ({"case": "upper"}, "case='upper'"),
        ({"reflen": "longest"}, "reflen='longest'"),
        ({"bounds": "maybe"}, "bounds='maybe'"),
        ({"refs": "grown"}, "refs='grown'"),
    ],
)
def test_bad_preprocessing_choices_are_named(params: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Preprocessing.from_params(params)


def test_preprocessing_changes_the_figures_and_their_signatures(hand_corpus: Corpus) -> None:
    plain = view_of(hand_corpus).get(figures.table).rows
    lower = (
        view_of(hand_corpus, Preprocessing(tokenize="none", ref_length="best"))
        .get(figures.table)
        .rows
    )

    assert "tok:none" in lower[0].cell("mwer").signature
    assert "reflen:best" in lower[0].cell("mwer").signature
    assert "tok:13a" in plain[0].cell("mwer").signature


@pytest.mark.parametrize(
    "params",
    [{}, {"tok": "intl", "case": "lc"}, {"reflen": "best", "bounds": "yes", "refs": "pool"}],
)
def test_the_choices_signature_is_the_one_signature_format(params: dict[str, str]) -> None:
    choices = Preprocessing.from_params(params)

    assert choices.signature == format_signature(choices.params(), version=False)
    assert Preprocessing.from_params(choices.params()) == choices
