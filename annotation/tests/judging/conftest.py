"""Fixtures of the judging tests (plain helpers are in :mod:`annotation.tests.factories`)."""

from __future__ import annotations

import pytest

from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import target_of


@pytest.fixture
def figure_1(seed: Corpus, judge: User) -> Judgment:
    """The judge's judgment of seed 001 Figure 1's candidate, as the services open it."""
    return judgment_open(user=judge, target=target_of(seed, "a translator"))
