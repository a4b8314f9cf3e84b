"""Where a corpus dealt adaptively stands: every system's weighted estimate of its mean
over the corpus with its interval and rank group, every pair resolved or still open,
and the judgments a lead can expect to need before the open ones resolve: the
dashboard's "Weighted estimates" panel and the campaign page read it.

**The estimates** are :func:`metrics.adaptive.weighted_estimates`' (the warm-up by the
dashboard's control-variate estimator, each later round by augmented inverse-probability
weighting with the recorded chances, the rounds combined), of the human metric the
policy follows (:func:`~annotation.adaptive.design.policy_metric`), with the same
covariates as the dashboard's estimates.

**A pair is resolved** when its test separates it at the lead's confidence: :data:`TEST`,
the two-sided normal test of the weighted estimate of the two systems' mean difference
over the corpus (paired: from the sentences both were judged on), at level α = 1 − the
confidence. Its error rate: a pair of equal systems is called resolved with chance at
most α, and a resolved pair is ordered the wrong way round with chance at most α/2; each
pair is tested at α, with no correction for the number of pairs. That holds for one
reading: the test has no correction for being read again after every round either, so a
lead who stops at the first reading that resolves the pairs they care about errs more
often than α (the page says so; an always-valid test would need wider intervals).

**The pairs a lead cares about** (:mod:`~annotation.adaptive.focus`; none chosen: every
pair) are those the page lists as still open and the judgments left are counted for;
every pair keeps its estimate and test.

**Judgments left** (:func:`judgments_left`): for each open pair of interest, the sentences its
interval needs to exclude 0 at the observed difference with 80 % power, read off the
estimate's standard error (it falls as one over the root of the judged sentences); the
largest over the open pairs, in judgments (every system of a drawn batch is judged, by
each of the campaign's annotators per item), and never more than what is left to deal.
Like the campaign's power plan, a lower bound at the effect seen so far rather than a
promise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from annotation.adaptive.design import Design, read_design
from annotation.adaptive.focus import focus_of, pairs_of_interest
from annotation.dashboard.estimates import Covariates, JudgedScores
from annotation.formatting import full_precision, number
from annotation.models import Campaign, Corpus, DealingRound
from annotation.statistics import remembered
from metrics.adaptive import weighted_estimates
from metrics.distributions import normal_quantile
from metrics.ranking import UNRANKED, leader_groups
from metrics.registry import metric_info
from metrics.weighting import Weighted

#: What the page and the campaign page say of a pair's test.
TEST = (
    "two-sided normal test of the weighted (augmented inverse-probability) estimate of the "
    "two systems' mean difference over the corpus"
)
#: The power the judgments left are planned for.
POWER = 0.8


@dataclass(frozen=True)
class SystemStanding:
    """One system's weighted estimate (None: too few judged) and rank group."""

    system: str
    estimate: Weighted | None
    low: float
    high: float
    rank: int

    @property
    def text(self) -> str:
        if self.estimate is None:
            return "–"
        return f"{number(self.estimate.mean)} [{number(self.low)}, {number(self.high)}]"

    @property
    def attrs(self) -> dict[str, str]:
        mean = math.nan if self.estimate is None else self.estimate.mean
        return {
            "mean": full_precision(mean),
            "low": full_precision(self.low),
            "high": full_precision(self.high),
        }


@dataclass(frozen=True)
class PairStanding:
    """A pair of systems: its weighted difference (first − second; None: too few
    judged), the test's p-value, whether it is resolved at the lead's level, and the
    sentences it needs to resolve (None: resolved, or no estimate yet)."""

    first: str
    second: str
    difference: Weighted | None
    p_value: float
    resolved: bool
    sentences_needed: int | None = None
    higher_is_better: bool = True
    of_interest: bool = True

    @property
    def better(self) -> str:
        """The system the resolved order puts first ("" while open): the one whose
        metric is better (higher, or lower for an error rate)."""
        if not self.resolved or self.difference is None:
            return ""
        first_higher = self.difference.mean > 0
        return self.first if first_higher == self.higher_is_better else self.second

    @property
    def key(self) -> str:
        return f"{self.first}|{self.second}"


@dataclass(frozen=True)
class AdaptiveStatus:
    """A corpus's adaptive dealing as its pages show it (``adaptive`` False: the campaign
    does not deal adaptively, nothing else is set)."""

    adaptive: bool
    metric: str = ""
    confidence: int = 95
    rounds: int = 0
    batches_left: int = 0
    systems: tuple[SystemStanding, ...] = ()
    pairs: tuple[PairStanding, ...] = ()
    judgments_left: int | None = None
    higher_is_better: bool = True
    test: str = TEST
    notes: tuple[str, ...] = field(default=())
    chosen: bool = False

    @property
    def alpha(self) -> float:
        return round(1.0 - self.confidence / 100.0, 4)

    @property
    def open_pairs(self) -> tuple[PairStanding, ...]:
        return tuple(p for p in self.pairs if not p.resolved)

    @property
    def resolved_pairs(self) -> tuple[PairStanding, ...]:
        return tuple(p for p in self.pairs if p.resolved)

    @property
    def open_of_interest(self) -> tuple[PairStanding, ...]:
        """The open pairs the lead cares about (every open pair when none was chosen)."""
        return tuple(p for p in self.pairs if p.of_interest and not p.resolved)

    @property
    def of_interest(self) -> tuple[PairStanding, ...]:
        return tuple(p for p in self.pairs if p.of_interest)

    @property
    def error_rate(self) -> str:
        """The test's error rate in words."""
        return (
            f"α = {self.alpha:g} per pair: equal systems are called resolved at most "
            f"{self.alpha:.0%} of the time, a resolved order is wrong at most "
            f"{self.alpha / 2:.1%} of the time (no correction for the {len(self.pairs)} pairs), "
            "at one reading: a campaign stopped at the first reading that resolves a pair, "
            "after several, has a larger error rate"
        )


def corpus_status(
    corpus: Corpus,
    campaign: Campaign,
    *,
    systems: Sequence[str] | None = None,
    judged: JudgedScores | None = None,
    covariates: Covariates | None = None,
) -> AdaptiveStatus:
    """``corpus``'s :class:`AdaptiveStatus` under ``campaign``'s rules (its figures read
    as :func:`~annotation.adaptive.design.read_design` reads them)."""
    if not campaign.adaptive:
        return AdaptiveStatus(adaptive=False)
    design = read_design(corpus, systems=systems, judged=judged, covariates=covariates)
    return status_of(design, campaign, pairs_of_interest(corpus))


def remembered_status(
    corpus: Corpus, judged: Callable[[], JudgedScores] | None = None
) -> AdaptiveStatus:
    """``corpus``'s status for its pages: no query where its campaign (read with it)
    does not deal adaptively; else the count of its rounds and the pairs of interest,
    and the status remembered under the judgments stamp, the rounds drawn, the
    confidence, the imported metrics and the pairs of interest (``judged``: the
    dashboard's judged scores, when it has them)."""
    campaign = corpus.campaign
    if not campaign.adaptive:
        return AdaptiveStatus(adaptive=False)
    rounds = DealingRound.objects.filter(corpus_id=corpus.pk).count()
    chosen = pairs_of_interest(corpus)
    key = ("adaptive", rounds, campaign.confidence, corpus.external_stamp, *sorted(chosen or ()))

    def compute() -> AdaptiveStatus:
        design = read_design(corpus, judged=None if judged is None else judged())
        return status_of(design, campaign, chosen)

    return remembered(corpus, key, compute)


def status_of(
    design: Design, campaign: Campaign, chosen: frozenset[tuple[str, str]] | None = None
) -> AdaptiveStatus:
    """The :class:`AdaptiveStatus` of a read design (module doc), ``chosen``: the pairs
    the lead cares about (None: every pair)."""
    found = weighted_estimates(
        design.human, design.covariates, design.rounds, design.codes, design.clusters
    )
    focus = focus_of(design.systems, chosen)
    n = len(design.systems)
    alpha, z = campaign.alpha, normal_quantile(1.0 - campaign.alpha / 2.0)
    judged = ~np.isnan(design.human)
    info = metric_info(design.metric) if design.metric else None
    higher = True if info is None else info.higher_is_better
    pairs = []
    for k, (a, b) in enumerate(combinations(range(n), 2)):
        e = found[n + k]
        p = 1.0 if e is None else e.p_value()
        common = int(np.count_nonzero(judged[a] & judged[b]))
        needed = None if e is None or p < alpha else sentences_needed(e, common, z, design.size)
        names = design.systems
        wanted = focus is None or k in focus
        pairs.append(PairStanding(names[a], names[b], e, p, p < alpha, needed, higher, wanted))
    means = [math.nan if e is None else e.mean for e in found[:n]]
    by_pair = {(p.first, p.second): p for p in pairs}

    def differs(i: int, j: int) -> bool:
        a, b = design.systems[i], design.systems[j]
        pair = by_pair.get((a, b)) or by_pair[(b, a)]
        return pair.resolved

    ranks = leader_groups(means, differs, higher_is_better=higher) if n else ()
    standings = []
    for k, name in enumerate(design.systems):
        e = found[k]
        low, high = (math.nan, math.nan) if e is None else e.bounds(1.0 - alpha)
        standings.append(SystemStanding(name, e, low, high, ranks[k] if ranks else UNRANKED))
    standings.sort(key=lambda s: (s.rank == UNRANKED, s.rank, _best_first(s, higher)))
    per_sentence = n * (campaign.judges_per_item or 1)
    left_sentences = sum(len(b.segments) for b in design.left)
    return AdaptiveStatus(
        adaptive=True,
        metric=design.metric or "",
        confidence=campaign.confidence,
        rounds=len(design.rounds),
        batches_left=len(design.left),
        systems=tuple(standings),
        pairs=tuple(pairs),
        judgments_left=judgments_left(
            [p for p in pairs if p.of_interest], per_sentence, left_sentences
        ),
        higher_is_better=higher,
        chosen=chosen is not None,
    )


def _best_first(standing: SystemStanding, higher: bool) -> float:
    if standing.estimate is None:
        return math.inf
    return -standing.estimate.mean if higher else standing.estimate.mean


def sentences_needed(estimate: Weighted, judged: int, z: float, size: int) -> int:
    """The sentences more an open pair needs (module doc): its standard error must fall
    to |difference| / (z + z_power), and falls as one over the root of the judged
    sentences; at most the corpus's ``size`` (a level pair: the whole corpus)."""
    target = abs(estimate.mean) / (z + normal_quantile(POWER))
    if target <= 0.0 or estimate.variance <= 0.0:
        return size
    factor = estimate.variance / target**2
    return int(min(size, max(0, math.ceil(max(judged, 1) * (factor - 1.0)))))


def judgments_left(
    pairs: Sequence[PairStanding], per_sentence: int, left_sentences: int
) -> int | None:
    """The judgments the open ``pairs`` need (module doc): the most sentences any needs,
    times the judgments a sentence costs, at most what is left to deal. 0 when every
    pair is resolved; None while some open pair has no estimate yet."""
    open_pairs = [p for p in pairs if not p.resolved]
    if not open_pairs:
        return 0
    if any(p.sentences_needed is None for p in open_pairs):
        return None
    most = max(p.sentences_needed or 0 for p in open_pairs)
    return min(most, left_sentences) * per_sentence
