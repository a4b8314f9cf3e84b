"""The weighted estimates panel (issue 43, point 2): where the campaign deals adaptively,
every system's estimate of the mean over the corpus weighted by the chances its batches
were drawn with, the rank groups from them, and which pairs of systems are resolved (with
the test and its error rate) or still open (:mod:`annotation.adaptive.status`). Where it
does not, the panel says so and the Estimates panel's figures stand as they are."""

from __future__ import annotations

from annotation.adaptive.status import AdaptiveStatus, remembered_status
from annotation.dashboard.figures import scores_judged
from annotation.dashboard.parts import Parts, panel


@panel("adaptive", title="Weighted estimates")
def adaptive_panel(parts: Parts) -> AdaptiveStatus:
    """No query where the campaign does not deal adaptively (the view reads the corpus
    with its campaign)."""
    return remembered_status(parts.corpus, lambda: parts.get(scores_judged))
