"""The estimates panel: per system and human metric, the estimate of the mean over every
sentence of the corpus beside the plain mean of the judged ones (issue 28)."""

from __future__ import annotations

from annotation.dashboard.estimates import Estimates
from annotation.dashboard.figures import estimates
from annotation.dashboard.parts import Parts, Pending, panel


@panel("estimates", title="Estimates")
def estimates_panel(parts: Parts) -> Estimates | Pending:
    return parts.get(estimates)
