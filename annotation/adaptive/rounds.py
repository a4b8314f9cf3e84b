"""The rounds of a corpus's adaptive dealing: which batches may be dealt, and with what
chance each was drawn.

**The warm-up** (round 0) is drawn with the tasks (:mod:`annotation.campaigns.drawing`):
the first ``warm_up_percent`` of the corpus's batches in its random dealing order, a
simple random sample of its batches: each had the chance m/B of being in it, recorded on
its tasks and in the round's row.

**Each next round** is drawn when a judge asks for work and no batch drawn so far is left
for them (:func:`draw_next_round`, from :func:`annotation.campaigns.dealing.deal_next`):
the policy (:func:`metrics.adaptive.batch_probabilities`, the simulation's, favouring
the open pairs among those the lead cares about: :mod:`~annotation.adaptive.focus`)
gives every batch not drawn yet a chance, each is drawn independently with it (Poisson), and the
chances are recorded: on the drawn batches' tasks (every item of a batch shares its
batch's chance, all its systems judged on it) and, for every batch, in the round's row,
which the weighted estimates read back. A round deals on average as many candidates as
the warm-up. A round that draws nothing is recorded too (the estimates must know that
those chances were given), and the next one is drawn at once.

Drawing reads the corpus's judgments and scores once per round (a few queries and a
fraction of a second for 1,000 sentences × 20 systems: ``bench/adaptive.py``), never per
deal; the deal itself only filters on the tasks' round.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from itertools import combinations

import numpy as np
from django.db import transaction
from django.db.models import Case, FloatField, QuerySet, Value, When

from annotation.adaptive.design import read_design
from annotation.adaptive.focus import focus_of, pairs_of_interest
from annotation.campaigns.batches import PlannedTask
from annotation.models import Campaign, Corpus, DealingRound, Task
from metrics.adaptive import batch_probabilities
from metrics.weighting import poisson_draw

#: Rounds drawn at most in one go while each draws nothing (each keeps every batch's
#: chance at least a fifth of the average, so one in a row is already rare).
MAX_EMPTY_ROUNDS = 20


def warm_up_batches(planned: Sequence[PlannedTask], percent: int) -> tuple[set[int], float]:
    """The batches of the warm-up (the first ``percent`` of the batches in dealing
    order, at least one) and the chance each batch had of being in it."""
    order: list[int] = []
    for task in sorted(planned, key=lambda t: t.order):
        if task.batch is not None and task.batch not in order:
            order.append(task.batch)
    if not order:
        return set(), 1.0
    m = max(1, math.ceil(percent * len(order) / 100))
    return set(order[:m]), m / len(order)


def record_warm_up(corpus: Corpus, planned: Sequence[PlannedTask], percent: int) -> None:
    """Round 0's row of ``corpus`` (its tasks carry their round as drawn): every batch's
    chance of being in the warm-up, and the candidates a round deals on average. The
    rounds of an earlier draw go (those of a draw without adaptive dealing stay, unread,
    until this one: no query more where the campaign does not deal adaptively)."""
    DealingRound.objects.filter(corpus_id=corpus.pk).delete()
    chosen, chance = warm_up_batches(planned, percent)
    batches = {t.batch: t.size - len(t.extra) for t in planned if t.batch is not None}
    DealingRound.objects.create(
        corpus=corpus,
        number=0,
        probabilities={str(b): chance for b in sorted(batches)},
        expected=float(sum(batches[b] for b in chosen)),
    )


def task_round(
    task: PlannedTask, chosen: set[int], chance: float
) -> tuple[int | None, float | None]:
    """A planned task's round and chance as drawn: the warm-up's for its batches (and
    for a task of overlap items alone, dealt with it), none yet for the others."""
    if task.batch is None:
        return 0, 1.0
    return (0, chance) if task.batch in chosen else (None, None)


def draw_next_round(corpus: Corpus, campaign: Campaign, waiting: QuerySet[Task]) -> bool:
    """Draw ``corpus``'s next round unless a task of ``waiting`` (the free tasks the
    asking judge may be dealt) became free meanwhile (another deal drew a round first):
    whether there is something to deal now. False once every batch was drawn."""
    with transaction.atomic():
        list(Corpus.objects.select_for_update().filter(pk=corpus.pk).values_list("pk"))
        if waiting.filter(corpus_id=corpus.pk).exists():
            return True
        for _ in range(MAX_EMPTY_ROUNDS):
            drawn = draw_round(corpus, campaign)
            if drawn is None:
                return False
            if drawn:
                return True
    return False


def draw_round(corpus: Corpus, campaign: Campaign) -> int | None:
    """One round (module doc): the batches it drew (0: none), None: none was left."""
    design = read_design(corpus)
    left = design.left
    if not left:
        return None
    number = len(design.rounds)
    first = DealingRound.objects.filter(corpus_id=corpus.pk, number=0).first()
    expected = first.expected if first is not None else float(left[0].candidates)
    chances, still_open = batch_probabilities(
        design.human,
        design.covariates,
        design.rounds,
        [b.segments for b in left],
        costs=np.array([max(b.candidates, 1) for b in left], dtype=np.float64),
        expected=expected,
        alpha=campaign.alpha,
        codes=design.codes,
        focus=focus_of(design.systems, pairs_of_interest(corpus)),
        clusters=design.clusters,
    )
    take = poisson_draw(chances, np.random.default_rng([zlib.crc32(corpus.name.encode()), number]))
    pairs = list(combinations(design.systems, 2))
    DealingRound.objects.create(
        corpus=corpus,
        number=number,
        probabilities={str(b.number): float(p) for b, p in zip(left, chances, strict=True)},
        open_pairs=[list(pairs[k]) for k in still_open],
        expected=expected,
    )
    drawn = {b.number: float(p) for b, p, t in zip(left, chances, take, strict=True) if t}
    if drawn:
        chance = Case(
            *(When(batch=b, then=Value(p)) for b, p in drawn.items()), output_field=FloatField()
        )
        Task.objects.filter(corpus_id=corpus.pk, batch__in=list(drawn)).update(
            round=number, probability=chance
        )
    return len(drawn)
