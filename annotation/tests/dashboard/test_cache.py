"""The dashboard's file cache (``annotation/dashboard/cache.py``): cached figures are the
computed ones, a warm page never rescores, and the keys name everything they depend on."""

from __future__ import annotations

import numpy as np
import pytest

from annotation.dashboard import cache
from annotation.dashboard.board import Dashboard
from annotation.dashboard.cache import automatic_stats
from annotation.dashboard.preprocessing import Preprocessing
from annotation.models import Corpus
from annotation.scoring import AUTOMATIC_METRICS
from annotation.tests.factories import HAND_SYSTEMS

pytestmark = pytest.mark.django_db


def test_figures_read_from_the_cache_are_the_computed_ones(hand_corpus: Corpus) -> None:
    first = automatic_stats(hand_corpus, Preprocessing())
    again = automatic_stats(hand_corpus, Preprocessing())

    for metric in AUTOMATIC_METRICS:
        for system in HAND_SYSTEMS:
            assert again.scores[metric][system].score == first.scores[metric][system].score
            assert np.array_equal(
                again.scores[metric][system].stats, first.scores[metric][system].stats
            )


def test_a_page_view_never_retokenizes_once_the_statistics_are_cached(
    hand_corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    Dashboard(hand_corpus).prepare()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the corpus was read and scored again")

    monkeypatch.setattr(cache, "corpus_texts", refuse)
    monkeypatch.setattr(cache, "automatic_scores", refuse)
    table = Dashboard(hand_corpus).prepare().table

    assert table.rows[0].cell("wer").score == 0.0
    # another preprocessing choice is another cache entry: it must compute
    with pytest.raises(AssertionError, match="scored again"):
        automatic_stats(hand_corpus, Preprocessing(lowercase=True))


@pytest.mark.parametrize(
    "params, key_part",
    [
        ({}, "tok:13a|case:mixed|reflen:nearest|bounds:no"),
        ({"tok": "intl", "case": "lc"}, "tok:intl|case:lc|reflen:nearest|bounds:no"),
        ({"reflen": "best", "bounds": "yes"}, "tok:13a|case:mixed|reflen:best|bounds:yes"),
    ],
)
def test_the_cache_key_names_the_corpus_its_creation_and_every_choice(
    hand_corpus: Corpus, params: dict[str, str], key_part: str
) -> None:
    key = cache.cache_key(hand_corpus, Preprocessing.from_params(params))

    assert key.endswith(key_part)
    assert f":{hand_corpus.pk}:{hand_corpus.created_at.isoformat()}:" in key
    assert key.startswith(f"dashboard-auto:v{cache.CACHE_FORMAT}:")
