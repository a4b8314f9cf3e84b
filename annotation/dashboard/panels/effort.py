"""The effort panel: seed 001 Table 3, minutes per system and method, and each judge's
pace (:mod:`annotation.dashboard.effort`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from annotation.changes import Stamp
from annotation.dashboard.effort import Effort, effort
from annotation.dashboard.parts import Parts, panel
from annotation.dashboard.sources import judgments, judgments_read, systems
from annotation.statistics import CACHE, Shelf, remembered

#: Each system's and each judge's effort, in this process's memory, by the version of
#: their rows (:class:`~annotation.statistics.Versions`): a view after a click sums the
#: judged system's and the clicking judge's rows alone. A few corpora's.
EFFORT = Shelf("effort-rows", Stamp.NONE, 2048)

T = TypeVar("T")


@panel("effort", title="Effort")
def effort_panel(parts: Parts) -> Effort:
    """Remembered under the judgments stamp (and the protocol, which names the pass): a
    later view reads nothing; each system's and judge's figures kept by the version of
    their rows."""
    corpus = parts.corpus

    def compute() -> Effort:
        versions = parts.get(judgments_read).versions

        def per_system(name: str, compute: Callable[[], T]) -> T:
            key = EFFORT.key(None, corpus.pk, "system", name, versions.of_system(name))
            return CACHE.get_or_set(key, compute)

        def per_judge(name: str, compute: Callable[[], T]) -> T:
            key = EFFORT.key(None, corpus.pk, "judge", name, versions.of_judge(name))
            return CACHE.get_or_set(key, compute)

        rows, names = parts.get(judgments), parts.get(systems)
        return effort(rows, names, corpus.protocol, kept=(per_system, per_judge))

    return remembered(corpus, ("effort", corpus.protocol), compute)
