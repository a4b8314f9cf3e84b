"""The dashboard's Estimates panel (and ``?rank=estimate``, ``table.json``) under adaptive
dealing: the human metric the dealing follows gets each system's weighted estimate and
rank group (:mod:`annotation.adaptive.status`) in place of the control-variate estimate,
whose interval assumes a random sample of judged sentences; the plain mean of the judged
sentences stays beside it, as it is. Other human metrics keep their estimates, and the
panel says that those do not hold. Without adaptive dealing nothing changes."""

from __future__ import annotations

from dataclasses import replace

from annotation.adaptive.status import AdaptiveStatus
from annotation.dashboard.estimates import Estimates, MetricEstimates, SystemEstimate
from metrics.estimate import Interval
from metrics.ranking import UNRANKED

#: The method a weighted estimate is shown with.
WEIGHTED = "weighted (adaptive dealing)"
#: The note the Estimates panel adds.
NOTE = (
    "Dealing is adaptive: {metric}'s estimates and rank groups are weighted by the chances "
    "the batches were drawn with (the Weighted estimates panel); the other metrics' "
    "assume a random sample and do not hold."
)
#: Degrees of freedom of a weighted estimate's interval: a normal one.
NORMAL_DF = 1e9


def weighted_in(estimates: Estimates, status: AdaptiveStatus) -> Estimates:
    """``estimates`` with the followed metric's systems weighted (module doc)."""
    if not status.adaptive or not status.metric:
        return estimates
    metrics = tuple(
        _reweighed(m, status, estimates.confidence) if m.metric == status.metric else m
        for m in estimates.metrics
    )
    note = NOTE.format(metric=status.metric)
    return replace(estimates, metrics=metrics, notes=(*estimates.notes, note))


def _reweighed(
    found: MetricEstimates, status: AdaptiveStatus, confidence: float
) -> MetricEstimates:
    by_system = {s.system: s for s in status.systems}
    systems = []
    for e in found.systems:
        weighted = by_system.get(e.system)
        if weighted is None or weighted.estimate is None:
            systems.append(replace(e, rank=UNRANKED))
            continue
        w = weighted.estimate
        low, high = w.bounds(confidence)
        interval = Interval(w.mean, low, high, e.found.estimate.n, w.variance, NORMAL_DF)
        plain = e.found.plain.variance
        ratio = w.variance / plain if plain > 0 else 1.0
        systems.append(
            replace(
                e,
                found=replace(e.found, estimate=interval, method=WEIGHTED, variance_ratio=ratio),
                rank=weighted.rank,
            )
        )
    systems.sort(key=lambda e: (e.rank == UNRANKED, e.rank, _best_first(e, status)))
    return replace(found, systems=tuple(systems))


def _best_first(e: SystemEstimate, status: AdaptiveStatus) -> float:
    return -e.mean if status.higher_is_better else e.mean
