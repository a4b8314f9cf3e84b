"""The system figures of ESA and MQM campaigns, as WMT reports them: ``esa``, ``esa_z``
and ``mqm``, each with WMT's rank clusters.

**ESA** (Error Span Annotation; Kocmi, Zouhar, Avramidis, Grundkiewicz, Karpinska,
Popović, Sachan & Shmatova 2024, "Error Span Annotation: A Balanced Approach for Human
Evaluation of Machine Translation", WMT 2024; the protocol of the WMT24 general task's
human evaluation): after marking error spans, the annotator gives the segment a score
from 0 to 100. The findings report per system the mean score (``esa``) and the mean of
the scores z-normalised per annotator (``esa_z``), each annotator's scores standardised
by that annotator's own mean and standard deviation (:func:`metrics.annotators.
z_scores`: the population deviation, the project's one rule; an annotator whose scores
never vary gets z = 0).

**MQM** (:mod:`metrics.mqm`): the segment's penalty points under the corpus's taxonomy,
the system's figure their mean (``mqm``, lower is better).

All three are computed alike (:func:`metrics.annotators.system_means`): a candidate
judged by several annotators is averaged first, then a system's figure is the mean
over its candidates; so the raw and the normalised figure differ by the normalisation
alone. The same per-candidate means feed the rank clusters (:meth:`SystemFigures.
clusters`): WMT's one-sided Wilcoxon rank-sum test between every two systems on the
segments both have, and the cut between clusters where every system above beats every
system below (:func:`metrics.ranksum.wmt_clusters`, Appraise's rule since WMT21).

Nothing here knows about the app: judgments come in as :class:`~metrics.annotators.
Ratings` (system, segment, annotator, value), an ESA score or an MQM score each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.facts import facts_of
from metrics.human import ESA_MAX as ESA_MAX
from metrics.human import ESA_MIN as ESA_MIN
from metrics.human import MQM_SPANS
from metrics.ranksum import Clusters, wmt_clusters
from metrics.ratings import Ratings, item_means, system_means, z_scores
from metrics.significance import DEFAULT_ALPHA, MIN_COMMON
from metrics.stats import FloatArray, MetricInfo

#: The mean ESA score per system, on the annotators' 0–100 scale; and the mean of the
#: ESA scores z-normalised per annotator: relative (0 is the annotators' average
#: candidate), without bounds. Their facts are the project's ``esa`` and ``esa_z``
#: (:data:`metrics.facts.METRIC_FACTS`), which the app shows.
ESA = facts_of("esa").info
ESA_Z = facts_of("esa_z").info
#: MQM's penalty points per segment, mean per system: the project's ``mqm`` figure, as
#: an MQM corpus shows it (:data:`metrics.human.MQM_SPANS`).
MQM = MQM_SPANS.info


def check_esa_scores(values: Sequence[float] | FloatArray) -> FloatArray:
    """``values`` as floats, or a ``ValueError`` naming the first outside 0–100 (NaN, no
    score yet, passes: :func:`metrics.annotators.ratings` leaves it out)."""
    v = np.asarray(values, dtype=np.float64)
    outside = (v < ESA_MIN) | (v > ESA_MAX)
    if outside.any():
        raise ValueError(f"ESA score {v[outside][0]:g} is outside {ESA_MIN}–{ESA_MAX}")
    return v


@dataclass(frozen=True, eq=False)
class SystemFigures:
    """One figure of every system: ``values`` (NaN for a system without a judged
    candidate) over ``items`` judged candidates, and ``per_segment`` (systems ×
    segments) each candidate's mean, which the clusters rank. (``eq=False``: it holds
    an array.)"""

    info: MetricInfo
    systems: tuple[str, ...]
    values: tuple[float, ...]
    items: tuple[int, ...]
    per_segment: FloatArray

    def of(self, system: str) -> float:
        """The figure of ``system`` (a ``ValueError`` for a system it does not know)."""
        try:
            return self.values[self.systems.index(system)]
        except ValueError:
            raise ValueError(f"unknown system {system!r}") from None

    def clusters(self, *, alpha: float = DEFAULT_ALPHA, min_common: int = MIN_COMMON) -> Clusters:
        """WMT's rank clusters of the systems by this figure (module doc)."""
        rows = {s: self.per_segment[k] for k, s in enumerate(self.systems)}
        return wmt_clusters(
            rows, higher_is_better=self.info.higher_is_better, alpha=alpha, min_common=min_common
        )


def _figures(info: MetricInfo, r: Ratings, values: FloatArray | None = None) -> SystemFigures:
    means, n = system_means(r, values)
    return SystemFigures(
        info,
        r.systems,
        tuple(float(m) for m in means),
        tuple(int(k) for k in n),
        item_means(r, values),
    )


def esa(r: Ratings) -> SystemFigures:
    """``esa``: each system's mean ESA score (0–100; scores outside are refused)."""
    check_esa_scores(r.value)
    return _figures(ESA, r)


def esa_z(r: Ratings) -> SystemFigures:
    """``esa_z``: each system's mean ESA score z-normalised per annotator."""
    check_esa_scores(r.value)
    return _figures(ESA_Z, r, z_scores(r))


def mqm(r: Ratings) -> SystemFigures:
    """``mqm``: each system's mean MQM score (``r``'s values: each judgment's penalty
    points, :func:`metrics.mqm.segment_points`; negative ones are refused)."""
    if (r.value < 0).any():
        raise ValueError(f"MQM score {r.value[r.value < 0][0]:g} is negative: penalty points")
    return _figures(MQM, r)
