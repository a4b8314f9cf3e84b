"""What a figure may claim from the sentences it rests on: one rule for every interval,
rank group, correlation and estimate the project shows or writes.

A system's figure from n judged sentences is a fact about those n sentences, and every
page and download shows it with its n. Anything said *beyond* them — a 95 % interval, a
correlation, an estimate of the whole corpus, a difference between two systems — needs
at least :data:`MIN_SENTENCES` (10) sentences; below that the page, its charts and every
download say "too few judged sentences (n = 2)" (:func:`too_few_note`) where the number
would be: the JSON files a ``null`` beside a ``too_few`` note, the CSV the words "too
few" (:data:`TOO_FEW`) in the cell.

Why ten, and why one threshold for all. It is the rank groups' rule, which the dashboard
has stated since it had rank groups: two systems are told apart only on 10 sentences in
common (:data:`metrics.ranking.MIN_COMMON` is this number). Below it every inference
the project makes fails in its own way: a percentile bootstrap of one sentence gives the
figure back on every sample (an interval of no width, read as certainty); of two, only
the two scores and their mean, so the "95 %" interval covers the truth about half as
often as it says; Student's t on one degree of freedom multiplies the standard error by
12.7 and leaves the metric's range; a correlation of two points is ±1 whatever they are,
and the estimate's regression on three covariates has fewer points than it needs to
learn its slopes. One number for all of them means a lead meets one rule ("10 sentences
before anything is claimed") on every panel, chart and file, and no panel can claim what
another one on the same page calls too few.

The rule reads the sentences a claim rests on: a system's figure, its own judged
sentences (automatic metrics: every sentence of the corpus); a pair of systems, the
sentences both have (:func:`~metrics.ranking.rank_groups`); a system-level correlation,
the fewest judged sentences of any of its systems; a sentence-level one, its points.

Ranges (:func:`within`): an interval is also never shown outside the range of the
metric's scores (:attr:`~metrics.stats.MetricInfo.bounds`). Cutting it there is honest,
not cosmetic: the true value lies in that range, so the cut interval contains it exactly
when the uncut one does, and it keeps its 95 % coverage.
"""

from __future__ import annotations

import math

#: The fewest sentences a figure must rest on before anything is inferred from it (module
#: doc): an interval, a correlation, an estimate of the corpus, a difference between two
#: systems.
MIN_SENTENCES = 10

#: What a CSV cell says where a number would claim more than its sentences allow.
TOO_FEW = "too few"

#: The range of a value nothing bounds (:func:`within` leaves every interval as it is).
UNBOUNDED = (-math.inf, math.inf)


def too_few(n: int) -> bool:
    """Whether ``n`` sentences are too few to infer anything from (module doc)."""
    return n < MIN_SENTENCES


def too_few_note(n: int, what: str = "judged sentences") -> str:
    """The one wording of "too few to claim anything": "too few judged sentences (n = 2)"
    (``what``: "sentences" for an automatic metric, "judged segments" on the command
    line)."""
    return f"too few {what} (n = {n})"


def shortfall(n: int, what: str = "judged sentences") -> str:
    """:func:`too_few_note` where ``n`` is :func:`too_few`, else "": the ``too_few`` field of
    every JSON file and the note beside a figure on the page."""
    return too_few_note(n, what) if too_few(n) else ""


def within(low: float, high: float, bounds: tuple[float, float]) -> tuple[float, float]:
    """The interval ``[low, high]`` cut to ``bounds``, the range the metric's scores lie in
    (module doc); NaN ends stay NaN (no interval)."""
    lowest, highest = bounds
    if not lowest <= highest:
        raise ValueError(f"bounds {bounds!r}: the lowest must not be above the highest")

    def cut(v: float) -> float:
        return v if math.isnan(v) else min(max(v, lowest), highest)

    return cut(low), cut(high)
