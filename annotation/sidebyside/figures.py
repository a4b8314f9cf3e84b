"""The figures of a side-by-side corpus (:func:`side_by_side_figures`): per pair of
systems the win rate with its interval and the comparisons that would tell it from even
(:func:`pair_plans`, the power plan of scores applied to preferences), the Bradley–Terry
ranking with bootstrap
intervals, and the annotators' agreement on preferences (:mod:`metrics.pairwise`, where
the choices are explained: ties half a win, Bradley–Terry rather than TrueSkill).

An outcome is a done screen with a preference, read by the systems of its A (left) and
B (right) candidates, so the order a pair was shown in never matters. On a screen of 3
or 4 the preference is a pick of the best, broken into the pairs it implies (the best
beat each other shown), which share the screen as their group so the ranking's
bootstrap resamples them together; "none stands out" gives no outcome. A control screen's
preference (:mod:`annotation.sidebyside.queue`: a copy with injected errors beside its
original) is no outcome of two systems, and is left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from annotation.campaigns.power import TOO_FEW, VERDICTS
from annotation.models import Comparison, Corpus, Sentence, SideBySide, Target, Translator
from annotation.sidebyside.screen import LETTERS
from annotation.statistics import content_digest, remembered_by_content
from metrics.pairwise import (
    Agreement,
    Outcome,
    PairRate,
    bradley_terry,
    comparisons_needed,
    outcome_groups,
    preference_agreement,
    win_rates,
)
from metrics.power import NEEDED
from metrics.ranking import MIN_COMMON

#: A preference as an outcome of A against B.
RESULTS = {
    Comparison.Preference.A: 1.0,
    Comparison.Preference.SAME: 0.5,
    Comparison.Preference.B: 0.0,
}


@dataclass(frozen=True)
class ShownRate:
    first: str
    second: str
    rate: PairRate


@dataclass(frozen=True)
class ShownPlan:
    """What it takes to tell a pair's win rate from ½ (:func:`metrics.pairwise.
    comparisons_needed`): ``verdict`` as the campaign page's plan names it
    (``data-verdict``: separated, needed, not-separable, too-few), the comparisons in all
    and still to come where some are needed."""

    first: str
    second: str
    n: int
    verdict: str
    needed: int | None = None
    more: int | None = None


@dataclass(frozen=True)
class Ranked:
    rank: int
    system: str
    theta: float
    low: float
    high: float
    compared: int


@dataclass(frozen=True)
class SideBySideFigures:
    rates: list[ShownRate]
    plans: list[ShownPlan]
    ranking: list[Ranked]
    agreement: Agreement
    outcomes: int
    signature: str


def corpus_outcomes(setting: SideBySide) -> tuple[list[str], list[Outcome]]:
    """The corpus's systems (in file order) and every preference given, as outcomes of
    system numbers into that list (one query; one more for the candidates of picks of
    the best)."""
    systems = dict(
        Translator.objects.filter(corpus_id=setting.corpus_id, role=Translator.Role.SYSTEM)
        .order_by("position")
        .values_list("pk", "name")
    )
    number = {pk: k for k, pk in enumerate(systems)}
    query = (
        setting.comparisons.filter(state=Comparison.State.DONE, control__isnull=True)
        .exclude(preference=Comparison.Preference.NONE)
        .values_list(
            "pk",
            "left__translator_id",
            "right__translator_id",
            "preference",
            "judge_id",
            "sentence_id",
            "picks_best",
            "targets",
            named=True,
        )
    )
    rows = list(query)
    picked = [pk for r in rows if r.picks_best for pk in r.targets]
    system_of = dict(Target.objects.filter(pk__in=picked).values_list("pk", "translator_id"))
    outcomes: list[Outcome] = []
    for r in rows:
        if not r.picks_best:
            result = RESULTS[Comparison.Preference(r.preference)]
            outcomes.append(
                Outcome(
                    number[r.left__translator_id],
                    number[r.right__translator_id],
                    result,
                    judge=r.judge_id,
                    item=r.sentence_id,
                )
            )
            continue
        if r.preference == Comparison.Preference.SAME:
            continue  # none stands out: no pair's outcome (docs/side-by-side.md)
        best = r.targets[LETTERS.index(r.preference)]
        outcomes.extend(
            Outcome(
                number[system_of[best]],
                number[system_of[other]],
                1.0,
                judge=r.judge_id,
                item=r.sentence_id,
                group=r.pk,
            )
            for other in r.targets
            if other != best
        )
    return list(systems.values()), outcomes


def side_by_side_figures(setting: SideBySide, *, resamples: int = 1000) -> SideBySideFigures:
    """The panel's figures. The outcomes are read at every view (one query); the
    ranking's thousand bootstrap fits are kept by the outcomes they read
    (:func:`~annotation.statistics.remembered_by_content`), so a view after no new
    preference, in any process, reuses them."""
    names, outcomes = corpus_outcomes(setting)
    table = np.array([(o.first, o.second, o.result) for o in outcomes], dtype=float)
    groups = outcome_groups(outcomes).tobytes()
    key = content_digest("sbs-bt", len(names), table.tobytes(), groups, resamples, setting.seed)
    fit = remembered_by_content(
        key, lambda: bradley_terry(outcomes, len(names), resamples=resamples, seed=setting.seed)
    )
    compared = [0] * len(names)
    for o in outcomes:
        compared[o.first] += 1
        compared[o.second] += 1
    ranking = [
        Ranked(
            k + 1, names[i], float(fit.theta[i]), float(fit.low[i]), float(fit.high[i]), compared[i]
        )
        for k, i in enumerate(i for i in fit.ranking if compared[i])
    ]
    rates = win_rates(outcomes)
    return SideBySideFigures(
        rates=[ShownRate(names[r.first], names[r.second], r) for r in rates],
        plans=pair_plans(setting, names, rates),
        ranking=ranking,
        agreement=preference_agreement(outcomes),
        outcomes=len(outcomes),
        signature=fit.signature,
    )


def pair_plans(setting: SideBySide, names: list[str], rates: list[PairRate]) -> list[ShownPlan]:
    """Each pair's plan (:class:`ShownPlan`), the campaign page's power plan applied to
    preferences. A pair meets at most once a source and judge, so it can have at most
    sources × the corpus's judges comparisons: a plan past that is not separable. Under
    :data:`~metrics.ranking.MIN_COMMON` comparisons no verdict is claimed, as there."""
    most = (
        Sentence.objects.filter(corpus_id=setting.corpus_id).count()
        * Corpus.judges.through.objects.filter(corpus_id=setting.corpus_id).count()
    )
    plans = []
    for r in rates:
        first, second = names[r.first], names[r.second]
        if r.n < MIN_COMMON:
            plans.append(ShownPlan(first, second, r.n, TOO_FEW))
            continue
        plan = comparisons_needed(r, most)
        needed = plan.needed if plan.verdict == NEEDED else None
        more = plan.more if plan.verdict == NEEDED else None
        plans.append(ShownPlan(first, second, r.n, VERDICTS[plan.verdict], needed, more))
    return plans
