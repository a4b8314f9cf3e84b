"""Where control items go in a judge's queue, and which ones (the judging package opens
them: :func:`annotation.judging.start.next_judgment_for`).

**Where.** A judge's queue is the corpus's candidates in the judge's order
(:mod:`annotation.judging.order`) with control items mixed in. Its items are numbered
from 0, real and control alike; the judge stands at item *done real judgments + done
control items*. The queue is cut into runs of ``rate`` items (``Corpus.control_rate``),
and each run holds one control at a place drawn at random (:func:`control_place`), so the
share is one in ``rate`` from the first item to the last: never a block at the end (a
known complaint about Appraise, whose checks come in fixed places of a batch), and never
two in a row. The draw is seeded with the judge, the corpus and the run: another judge
gets other places, the same judge the same places every time (reproducible, and nothing
has to be stored). A place where no control can be made yet (nothing judged to repeat or
to take a reference from) passes: the run has no control.

**Which.** At a control's place, one of the two kinds, in a seeded random order, the
other one if the first cannot be made:

* a *reference* control (``Judgment.Control.REFERENCE``): a reference translation of the
  sentence the judge has got to, shown as a candidate under a system's label ("System
  N"). Only in blind corpora: in a corpus that shows the systems' names, the label would
  put a named system's name on a human translation (and any other label would give the
  control away), so such corpora get repeat controls only. A reference other than the
  first reference is preferred (the first one is what every pool shows first);
* a *repeat* control (``Judgment.Control.REPEAT``): a candidate the judge has accepted,
  shown again after at least :data:`REPEAT_DISTANCE` more of the judge's judgments, once
  per candidate.

Nothing here is read while controls are off: the corpus row (loaded anyway) says so, and
the judge's page costs what it always did.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db.models import Count, Exists, Max, OuterRef, Q

from annotation.models import (
    CONTROL_RATE_MIN,
    COUNTED,
    Corpus,
    Judgment,
    Target,
    Translator,
    User,
)
from annotation.text import REFERENCE_ROLES

#: A candidate comes back as a repeat control only after this many more of the judge's
#: judgments (so the judge answers it afresh rather than from memory of a moment ago).
REPEAT_DISTANCE = 10


@dataclass(frozen=True)
class ControlPlan:
    """A control item to open: judge ``target`` as ``kind``, under the label of
    ``shown_as`` (reference controls)."""

    target: Target
    kind: str
    shown_as: Translator | None = None


def _drawn_place(user_id: int, corpus_id: int, rate: int, run: int) -> int:
    return random.Random(f"control-place:{user_id}:{corpus_id}:{rate}:{run}").randrange(rate)


def control_place(*, user_id: int, corpus_id: int, rate: int, run: int) -> int:
    """Where (0 … ``rate`` − 1) the control of run ``run`` of this judge's queue stands.

    Drawn with a seeded random, so the same every time. When the run before ends with its
    control, this one's moves from the first place to the second: never two controls in
    a row (with at least three items a run, the second place is never a run's last)."""
    if rate < CONTROL_RATE_MIN:
        raise ValueError(f"rate {rate!r}: one control in every {CONTROL_RATE_MIN} items at most")
    place = _drawn_place(user_id, corpus_id, rate, run)
    if place == 0 and run > 0 and _drawn_place(user_id, corpus_id, rate, run - 1) == rate - 1:
        return 1
    return place


def is_control_item(*, user_id: int, corpus_id: int, rate: int, item: int) -> bool:
    """Whether item ``item`` (0-based, real and control items alike) of the judge's
    queue is a control's place (:func:`control_place`)."""
    run, place = divmod(item, rate)
    return place == control_place(user_id=user_id, corpus_id=corpus_id, rate=rate, run=run)


def due_control(*, user: User, corpus: Corpus) -> Judgment | ControlPlan | None:
    """The control item the judge sees now, if any: the judge's pending one (an open
    control is finished before anything else), else a new one when the judge stands at a
    control's place (:func:`is_control_item`). None while the corpus has controls off
    (no query), and where the judge's item is a real one.

    Called only while the judge has real work left in the corpus, so a judge's last
    item is always a real one. One query, plus two or three when a control is made.
    """
    if not corpus.controls_enabled:
        return None
    mine = Judgment.objects.filter(evaluator_id=user.pk, target__translator__corpus_id=corpus.pk)
    control_done = Q(state=Judgment.State.DONE) & ~Q(control=Judgment.Control.NONE)
    control_pending = Q(state=Judgment.State.PENDING) & ~Q(control=Judgment.Control.NONE)
    found = mine.order_by().aggregate(
        real=Count("pk", filter=COUNTED),
        controls=Count("pk", filter=control_done),
        pending=Max("pk", filter=control_pending),
        furthest=Max("target__sentence__position", filter=COUNTED),
    )
    if found["pending"] is not None:
        return (
            Judgment.objects.select_related(
                "target__sentence__corpus", "target__translator", "evaluator", "shown_as"
            )
            .filter(pk=found["pending"])
            .first()
        )
    item = found["real"] + found["controls"]
    if not is_control_item(
        user_id=user.pk, corpus_id=corpus.pk, rate=corpus.control_rate, item=item
    ):
        return None
    rng = random.Random(f"control-item:{user.pk}:{corpus.pk}:{item}")
    kinds = [Judgment.Control.REFERENCE, Judgment.Control.REPEAT]
    rng.shuffle(kinds)
    for kind in kinds:
        if kind == Judgment.Control.REFERENCE:
            plan = _reference_control(user, corpus, found["furthest"], rng)
        else:
            plan = _repeat_control(user, corpus, rng)
        if plan is not None:
            return plan
    return None


def _reference_control(
    user: User, corpus: Corpus, furthest: int | None, rng: random.Random
) -> ControlPlan | None:
    """A reference of the sentence the judge has got to (the furthest one with a done
    judgment, whose pool holds the judge's new references), not shown to this judge
    before, under the label of one of the sentence's systems, drawn at random (one
    query: the sentence's targets). None in a corpus that shows names."""
    if not corpus.blind or furthest is None:
        return None
    used = Judgment.objects.filter(
        evaluator_id=user.pk, control=Judgment.Control.REFERENCE, target_id=OuterRef("pk")
    )
    targets = list(
        Target.objects.filter(sentence__corpus_id=corpus.pk, sentence__position=furthest)
        .annotate(used=Exists(used))
        .select_related("translator", "sentence__corpus")
        .order_by("position")
    )
    systems = sorted(
        {t.translator for t in targets if t.translator.role == Translator.Role.SYSTEM},
        key=lambda s: s.position,
    )
    references = [t for t in targets if t.translator.role in REFERENCE_ROLES and not t.used]
    preferred = [t for t in references if t.translator.role != Translator.Role.FIRST_REFERENCE]
    choices = preferred or references
    if not choices or not systems:
        return None
    return ControlPlan(rng.choice(choices), Judgment.Control.REFERENCE, rng.choice(systems))


def _repeat_control(user: User, corpus: Corpus, rng: random.Random) -> ControlPlan | None:
    """A candidate the judge has accepted, not among the judge's latest
    :data:`REPEAT_DISTANCE` judgments and not repeated before (one query for both)."""
    rows = (
        Judgment.objects.filter(evaluator_id=user.pk, target__translator__corpus_id=corpus.pk)
        .filter(COUNTED | Q(control=Judgment.Control.REPEAT))
        .order_by()
        .values_list("pk", "target_id", "control", named=True)
    )
    real, repeated = [], set()
    for row in rows:
        if row.control:
            repeated.add(row.target_id)
        else:
            real.append(row)
    real.sort(key=lambda r: r.pk)  # the order the judge reached them
    eligible = [r.target_id for r in real[: max(0, len(real) - REPEAT_DISTANCE)]]
    eligible = [t for t in eligible if t not in repeated]
    if not eligible:
        return None
    target = Target.objects.select_related("translator", "sentence__corpus").get(
        pk=rng.choice(eligible)
    )
    return ControlPlan(target, Judgment.Control.REPEAT)
