"""The side-by-side tests' shared fixtures."""

from __future__ import annotations

import pytest

from annotation.campaigns.membership import campaign_create
from annotation.models import Campaign, User
from annotation.models.corpus import Protocol
from annotation.tests.sidebyside.corpora import corpus_in


@pytest.fixture
def wmt(judge: User) -> Campaign:
    """A campaign of an ESA, an MQM and an aWER corpus with IER on, judged by
    ``judge``."""
    wmt = campaign_create(name="WMT25")
    corpus_in(wmt, "esa", Protocol.ESA, judge)
    corpus_in(wmt, "mqm", Protocol.MQM, judge)
    corpus_in(wmt, "awer", Protocol.AWER, judge, ier=True)
    return wmt
