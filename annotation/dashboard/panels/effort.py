"""The effort panel: seed 001 Table 3, minutes per system and method, and each judge's
pace (:mod:`annotation.dashboard.effort`)."""

from __future__ import annotations

from annotation.changes import Stamp
from annotation.dashboard.effort import Effort, effort
from annotation.dashboard.parts import Parts, panel
from annotation.dashboard.sources import judgments, kept_by_rows, systems
from annotation.statistics import Shelf, remembered

#: Each system's and each judge's effort, in this process's memory, by the version of
#: their rows (:class:`~annotation.statistics.Versions`): a view after a click sums the
#: judged system's and the clicking judge's rows alone. A few corpora's.
EFFORT = Shelf("effort-rows", Stamp.NONE, 2048)


@panel("effort", title="Effort")
def effort_panel(parts: Parts) -> Effort:
    """Remembered under the judgments stamp (and the protocol, which names the pass): a
    later view reads nothing; each system's and judge's figures kept by the version of
    their rows."""
    corpus = parts.corpus

    def compute() -> Effort:
        kept = (
            kept_by_rows(parts, EFFORT, "system", "system"),
            kept_by_rows(parts, EFFORT, "judge", "judge"),
        )
        return effort(parts.get(judgments), parts.get(systems), corpus.protocol, kept=kept)

    return remembered(corpus, ("effort", corpus.protocol), compute)
