"""Fixtures of the dashboard's tests: the judged corpora they share with the
statistics' tests (:mod:`annotation.tests.judged_corpora`), with their statistics
stored, as once their import's scoring job is done: every page of the dashboard reads
them (:func:`annotation.tests.stored.scored`)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from annotation.models import Corpus, User
from annotation.tests.judged_corpora import (
    demo_judged_by,
    demo_pool_grown_by,
    hand_corpus_in,
    judged_hand,
    split_judged_in,
)
from annotation.tests.stored import scored

__all__ = ["demo", "hand_corpus", "judged_demo", "judged_hand", "split"]


@pytest.fixture
def hand_corpus(tmp_path: Path) -> Corpus:
    return scored(hand_corpus_in(tmp_path))


@pytest.fixture
def demo(user_factory: Callable[..., User]) -> Corpus:
    """The demo corpus with 40 done judgments by "ann" and "bob"."""
    return scored(demo_judged_by(user_factory("ann"), user_factory("bob")))


@pytest.fixture
def judged_demo(user_factory: Callable[..., User]) -> Corpus:
    """The demo corpus whose reference pool the judges grew
    (:func:`~annotation.tests.pools.grow_demo_pool`)."""
    return scored(demo_pool_grown_by(user_factory("ann"), user_factory("bob")))


@pytest.fixture
def split(tmp_path: Path, user_factory: Callable[..., User]) -> Corpus:
    """A split campaign judged by "ann", "bob" and "cy" in turn, a share twice
    (:func:`~annotation.tests.judged_corpora.split_judged_in`)."""
    judges = [user_factory(name) for name in ("ann", "bob", "cy")]
    return scored(split_judged_in(tmp_path, judges))
