"""Work done apart in forked children: the same bytes as in the server process, every
share back in its place, a failed child's share computed by the parent; and the metric
shares a scoring is split into."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from annotation.apart import computed_apart
from annotation.corpora.imports import corpus_import
from annotation.metric_set import AUTOMATIC_METRICS, WORK_GROUPS, work_shares
from annotation.scoring import compute_statistics, encode_statistics
from annotation.tests.factories import DEMO_XML
from metrics.tokenize import Preprocessor


def test_each_share_comes_back_in_its_place_computed_in_a_child() -> None:
    parent = os.getpid()
    big = b"x" * (5 << 20)  # more than a pipe holds: the parent reads all pipes at once

    found = computed_apart([lambda: str(os.getpid() != parent).encode(), lambda: big, lambda: b""])

    assert found == [b"True", big, b""]


def test_a_share_whose_child_fails_is_computed_by_the_parent() -> None:
    parent = os.getpid()

    def share() -> bytes:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return b"computed by the parent"

    assert computed_apart([share, lambda: b"fine"]) == [b"computed by the parent", b"fine"]


def test_with_the_setting_off_everything_is_computed_in_the_server(settings: Any) -> None:
    settings.EVALTOOL_COMPUTE_APART = False
    parent = os.getpid()

    assert computed_apart([lambda: str(os.getpid() == parent).encode()]) == [b"True"]


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


def test_children_reaped_by_the_system_still_give_their_share() -> None:
    """A server that ignores SIGCHLD has its children reaped for it: the share read from
    the pipe still counts, and a failed child's is still computed by the server."""
    parent = os.getpid()
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        found = computed_apart(
            [lambda: b"share", lambda: b"" if os.getpid() != parent else b"by the server"]
        )
    finally:
        signal.signal(signal.SIGCHLD, before)

    assert found == [b"share", b"by the server"]
