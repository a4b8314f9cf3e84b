"""Figures when each item has its own judge: per-annotator z-scores, annotator effects,
and a bootstrap that carries the annotators' part of the error.

Where every judge judges every candidate, a system's human figure averages the same
judges everywhere, and a strict judge lowers every system alike. A split campaign (one
judge per item, a share judged twice) breaks that: a system whose items fell mostly to
a strict judge looks worse than it is. Three tools, pure numpy (no Django):

**z-scores, as WMT computes them** (:func:`z_scores`, :func:`system_means`). Each
annotator's scores are standardised by that annotator's own mean and standard deviation
over all their judgments of the corpus, ``z = (x − mean_a) / std_a`` (Graham, Baldwin,
Moffat & Zobel 2013, "Continuous measurement scales in human evaluation of machine
translation"; 2017, "Can machine translation systems be evaluated by the crowd alone?";
the WMT findings since 2016: Bojar et al. 2016, 2017; Barrault et al. 2019; Kocmi et al.
2022, 2023). The standard deviation is the population one (the seed 000 §3.5 rule of
:func:`metrics.correlation.z_normalize`, the one rule the whole project uses; Appraise
divides by n − 1, which rescales an annotator's z by a constant); an annotator whose
scores never vary carries no relative information and gets z = 0. A system's z is the
mean over its *items* (candidates) of each item's mean z: an item judged twice is
averaged first, so the overlap share does not weigh double. The raw figure beside it is
computed alike (items averaged first), so the two differ by the normalisation alone.

**Annotator effects** (:func:`annotator_effects`): per annotator the judgments, the
sentences, the mean raw score and two offsets, each with a 95 % interval: against the
other annotators *on the items they shared* (the overlap: each shared item's score minus
the mean of the other judges' scores of it, so item difficulty cancels), and against
the *grand mean* of the others' judgments (valid where the dealing gives each annotator
a fair sample of the items: whole sentences with every system, batches in random order).

**Intervals and tests that re-estimate the normalisation** (:func:`judge_aware`). The
resampling unit is the corpus sentence, the same index matrix as every other figure
(:class:`metrics.significance.Bootstrap`), so the test stays paired across systems and
metrics. On every resample each annotator's mean and standard deviation are computed
again from the judgments drawn, and every z with them: the interval of a system's z and
the p-value of a pair carry the error of the normalisation itself, not only that of the
items. Without normalisation (``normalise=False``) the same computation gives the raw
figure's interval; where items have different judges it includes the annotators' part
of the spread, since each item's judge comes with the item when it is drawn. Everything
else is :mod:`metrics.significance`'s rule: the percentile interval, sacreBLEU's p-value
of the centred sample differences, pairs compared on the sentences both systems have,
the leader rule for rank groups, no difference claimed on fewer than
:data:`~metrics.claims.MIN_SENTENCES` sentences in common.

Both the figure and every sample are one computation: the real figure is the resampled
one with every sentence drawn once, so the two can never follow different rules.

What the figures claim, and what not: the annotators are the campaign's own (a fixed
panel, as when every judge judges every item): the figures say what these annotators
would give on more sentences of the same kind, not what other annotators would. The
sentence is the unit resampled: an annotator's bias shared over a batch of consecutive
sentences is treated as if each sentence had been dealt on its own.

The work is done in one module a part: :mod:`metrics.ratings` (the judgments read, the
z-scores and means), :mod:`metrics.judge_aware` (the intervals and tests with the
normalisation re-estimated) and :mod:`metrics.annotator_effects` (the annotators'
effects); this module keeps the account above and the names it has always given.
"""

from metrics.annotator_effects import AnnotatorEffect, Offset, annotator_effects
from metrics.judge_aware import SSER_Z, judge_aware
from metrics.ratings import Ratings, ratings, system_means, z_scores

__all__ = [
    "SSER_Z",
    "AnnotatorEffect",
    "Offset",
    "Ratings",
    "annotator_effects",
    "judge_aware",
    "ratings",
    "system_means",
    "z_scores",
]
