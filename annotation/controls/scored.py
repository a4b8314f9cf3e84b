"""When an ESA or MQM judge passes a control item (issue 41, point 4): the lead's drop and
tolerance, and the rule that reads them.

A judge of error spans gives no new reference to compare, only a score: ESA's 0–100
(higher is better), or MQM's penalty points of the judge's spans under the corpus's
taxonomy (lower is better, :func:`metrics.mqm.segment_points`). So a control passes by
how its score stands to the judge's own score of the original candidate:

* a candidate with injected errors (a "bad reference", :mod:`annotation.controls.
  degrade`) passes when it scores at least the lead's **drop** worse than the original:
  ESA points below it (``Corpus.control_esa_drop``), MQM penalty points above it
  (``control_mqm_drop``). Exactly the drop passes, and so does ESA's 0 (as aWER's
  SSER 0): below an original scored under the drop, nothing is left to score;
* a repeat (the same candidate shown again) passes when it scores within the lead's
  **tolerance** of the first (``control_esa_tolerance``, ``control_mqm_tolerance``).
  Exactly the tolerance passes. Repeats passed are the judge's consistency;
* a reference shown as a candidate (Appraise's ``REF`` items, imported: the app's ESA
  and MQM runs draw none) has no original to compare with: it passes when it scores
  less than the **drop** below a perfect candidate (ESA above 100 − drop, MQM fewer
  penalty points than the drop). Exactly the drop fails, as it passes a bad reference:
  no score is both a perfect candidate's and one with injected errors.

Neither is decided before the judge has accepted the original: a bad reference may be
drawn from a candidate that comes later in the same run (:mod:`annotation.controls.
runs`). Until then the control is *awaiting*, counted in no pass rate; the original
comes a few items later, so it seldom waits long. Pure: the rows are read by
:func:`annotation.controls.quality.control_rows`.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotation.models import Corpus, Judgment
from metrics.protocols import ESA_MAX, ESA_MIN

#: Scores nearer than this are equal: MQM's points are sums of decimals (0.1 + 0.2 is
#: not 0.3 in floating point), and a drop of exactly the lead's must pass.
EPSILON = 1e-9


@dataclass(frozen=True)
class ScoreRule:
    """A corpus's drop and tolerance, in its protocol's points; ``lower_is_better`` for
    MQM's penalty points."""

    drop: float
    tolerance: float
    lower_is_better: bool

    @property
    def unit(self) -> str:
        """How the settings page names the points."""
        return "penalty points" if self.lower_is_better else "points"


def score_rule(corpus: Corpus) -> ScoreRule | None:
    """The rule of ``corpus``'s control items, by its protocol: ESA's or MQM's; None for
    aWER, whose controls compare new references (:func:`annotation.controls.quality.
    control_passed`)."""
    if corpus.scores_esa:
        return ScoreRule(corpus.control_esa_drop, corpus.control_esa_tolerance, False)
    if corpus.span_taxonomy is not None:
        return ScoreRule(corpus.control_mqm_drop, corpus.control_mqm_tolerance, True)
    return None


def scored_control_passed(
    kind: str, score: float | None, original: float | None, rule: ScoreRule
) -> bool | None:
    """Whether a done control of ``kind`` scored ``score`` passes against the judge's
    ``original`` score of the candidate (see the module; a reference needs none); None
    while it awaits the original (or, for a row that should not be, has no score)."""
    if kind == Judgment.Control.REFERENCE and score is not None:
        below_perfect = score if rule.lower_is_better else ESA_MAX - score
        return below_perfect < rule.drop - EPSILON
    if score is None or original is None:
        return None
    if kind == Judgment.Control.DEGRADED:
        if rule.lower_is_better:
            return score - original >= rule.drop - EPSILON
        return original - score >= rule.drop - EPSILON or score == ESA_MIN
    if kind == Judgment.Control.REPEAT:
        return abs(score - original) <= rule.tolerance + EPSILON
    raise ValueError(f"{kind!r} is not a kind of control item an ESA or MQM corpus draws")
