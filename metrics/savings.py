"""How many judgments one policy saves against another for the same share of pairs
decided, read off the other's replayed curve (:mod:`metrics.simulate` replays them).
Apart from the replays because it needs nothing of them: a curve of (share of all
judgments, agreement) points and one point to place against it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def judgments_saved(
    curve: Sequence[tuple[float, float]], share: float, agreement: float
) -> tuple[float | None, bool]:
    """The share of judgments saved by a policy that reached ``agreement`` with
    ``share`` of all judgments, against a policy whose (share, agreement) points are
    ``curve``: the share the curve needs for that agreement, by linear interpolation
    along its running maximum (a replayed curve can dip by noise; more judgments never
    decide less in expectation), and whether the curve never reaches it (then the
    saving is at least the one against the curve's last point)."""
    points = sorted(curve)
    shares = np.array([s for s, _ in points])
    reached = np.maximum.accumulate(np.array([a for _, a in points]))
    if agreement > reached[-1]:
        return 1.0 - share / shares[-1], True
    k = int(np.argmax(reached >= agreement))
    if k == 0:
        needed = shares[0]
    else:
        s0, s1, a0, a1 = shares[k - 1], shares[k], reached[k - 1], reached[k]
        needed = s0 + (s1 - s0) * (agreement - a0) / (a1 - a0) if a1 > a0 else s1
    return (1.0 - share / needed if needed > 0 else None), False
