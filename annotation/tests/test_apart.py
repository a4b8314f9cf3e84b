"""Work done apart in forked children: every share back in its place, a failed child's
share computed by the parent (the statistics so computed and the shares a scoring is split
into: ``statistics/test_shares.py``)."""

from __future__ import annotations

import os
import signal
from typing import Any

from annotation.apart import computed_apart


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
