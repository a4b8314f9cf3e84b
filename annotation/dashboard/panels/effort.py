"""The effort panel: seed 001 Table 3, minutes per system and method, and each judge's
pace (:mod:`annotation.dashboard.effort`)."""

from __future__ import annotations

from annotation.dashboard.effort import Effort, effort
from annotation.dashboard.parts import Parts, panel
from annotation.dashboard.sources import judgments, systems
from annotation.statistics import remembered


@panel("effort", title="Effort")
def effort_panel(parts: Parts) -> Effort:
    """Remembered under the judgments stamp (and the protocol, which names the pass): a
    later view reads nothing."""
    corpus = parts.corpus
    return remembered(
        corpus,
        ("effort", corpus.protocol),
        lambda: effort(parts.get(judgments), parts.get(systems), corpus.protocol),
    )
