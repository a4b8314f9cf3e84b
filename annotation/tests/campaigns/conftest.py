"""Fixtures of the campaign pages' tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from annotation.models import Corpus, User
from annotation.tests.factories import add_judgments, sized_corpus
from annotation.tests.judged_corpora import split_judged_in


@pytest.fixture
def small_and_large(tmp_path: Path, user_factory: Callable[..., User]) -> tuple[Corpus, Corpus]:
    """A small campaign barely started (5 sentences × 2 systems, one judge, 2 judgments)
    and a larger one far along (60 × 6, four judges, 300 judgments): a query count that
    grows with the corpus differs between the two."""
    judges = [user_factory(f"judge{k}") for k in range(4)]
    small = sized_corpus(tmp_path, "small", 5, systems=2)
    small.judges.add(judges[0])
    add_judgments(small, judges[:1], 2)
    large = sized_corpus(tmp_path, "large", 60, systems=6)
    large.judges.add(*judges)
    add_judgments(large, judges, 300)
    return small, large


@pytest.fixture
def split(tmp_path: Path, user_factory: Callable[..., User]) -> Corpus:
    """A campaign that splits the work, judged by "ann", "bob" and "cy" in turn (the
    strict ones last), a share of the sentences twice
    (:func:`~annotation.tests.judged_corpora.split_judged_in`)."""
    return split_judged_in(tmp_path, [user_factory(name) for name in ("ann", "bob", "cy")])
