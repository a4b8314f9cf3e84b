"""A scoring in shares computed apart (:mod:`annotation.apart`): the same bytes as in the
server process, and the metric shares it is split into
(:func:`annotation.statistics.metric_set.work_shares`)."""

from __future__ import annotations

from typing import Any

import pytest

from annotation.corpora.imports import corpus_import
from annotation.statistics.compute import compute_statistics
from annotation.statistics.encoding import encode_statistics
from annotation.statistics.metric_set import AUTOMATIC_METRICS, WORK_GROUPS, work_shares
from annotation.tests.factories import DEMO_XML
from metrics.tokenize import Preprocessor


@pytest.mark.django_db
def test_statistics_computed_apart_are_those_computed_in_the_server(settings: Any) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    pp = Preprocessor(tokenize="char", lowercase=True)

    apart = encode_statistics(compute_statistics(corpus, pp, "average"))
    settings.EVALTOOL_COMPUTE_APART = False
    alone = encode_statistics(compute_statistics(corpus, pp, "average"))

    assert apart == alone


def test_shares_keep_metrics_that_share_work_together_and_balance_the_rest() -> None:
    shares = work_shares(AUTOMATIC_METRICS)

    assert len(shares) == 2
    assert sorted(m for s in shares for m in s) == sorted(AUTOMATIC_METRICS)
    for group, _ in WORK_GROUPS:
        assert sum(bool(set(group) & set(s)) for s in shares) == 1
    loads = [sum(c for group, c in WORK_GROUPS if set(group) & set(s)) for s in shares]
    assert abs(loads[0] - loads[1]) <= max(c for _, c in WORK_GROUPS)
    assert work_shares(("wer", "ser")) == [("wer", "ser")]  # no empty share
    assert work_shares(()) == []
