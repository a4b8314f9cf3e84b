"""A side-by-side corpus's setting and each judge's queue of screens.

The queue is drawn once, the first time the judge opens side-by-side judging in the
corpus, by :func:`metrics.pairing.draw_screens` over the systems each sentence has a
candidate of, from a seed of the judge's own (:func:`judge_seed`, the corpus's seed and
the judge): every pair of systems meets equally often in it, sentences in a random
order, left and right swapped at random. The screens are stored
(:class:`~annotation.models.Comparison`) with that seed, so the draw can be repeated and
checked, and a queue never changes under a judge who already started it.

**Control screens.** Where the lead has control items on (``Corpus.controls_enabled``),
some screens of each queue are control screens (:func:`control_screens`): one of their
candidates is replaced by a copy of another of them with injected errors (WMT's bad
reference, made as the single page makes one: :func:`annotation.controls.api.
degraded_copy`), so the copy stands beside its original. Nothing else changes: the
screen has as many candidates, its source is new to the judge, and its panels are drawn
as any. The copy passes by the rule of every ESA / MQM control
(:mod:`annotation.controls.scored`: its score at least the lead's drop worse than the
judge's own score of the original, here on the same screen), and is counted in the
judge's pass rate with the others. A control screen's preference is not an outcome of
two systems: the figures leave it out (:mod:`annotation.sidebyside.figures`), and the
replaced system's meeting on that screen is lost to the balance (one screen in about
``control_rate`` / ``per_screen``). On an aWER corpus a control screen may instead show
a reference in place of a candidate (:func:`shows_reference`), passed by aWER's rule
(no edit, SSER 9 or 10: :mod:`annotation.controls.quality`), as the copy is by aWER's.
"""

from __future__ import annotations

import random
import secrets

from django.db import IntegrityError, transaction

from annotation.controls.api import control_kinds, hidden_reference
from annotation.models import Comparison, Corpus, Judgment, SideBySide, Target, Translator, User
from annotation.models.corpus import ERR_SIDE_BY_SIDE_IER
from annotation.text import REFERENCE_ROLES, reference_order
from metrics.pairing import MAX_PER_SCREEN, MIN_PER_SCREEN, draw_screens

#: Kept for what it said before aWER was judged side by side (no protocol is refused now).
ERR_NOT_SPANS = "Side by side judges ESA or MQM spans: this corpus is judged by aWER."
ERR_IER = ERR_SIDE_BY_SIDE_IER
ERR_OFF = (
    "Side-by-side judging is off for this corpus: judge it one candidate a page (Start, on "
    "the home page). What you judged side by side is kept."
)
ERR_PER_SCREEN = f"A screen shows {MIN_PER_SCREEN} to {MAX_PER_SCREEN} systems, not {{value}}."

#: Seeds stay below this (a PositiveIntegerField on every database).
_SEED_LIMIT = 2**31
#: Spreads judges' seeds apart (a prime above any judge's key of a realistic campaign).
_JUDGE_STRIDE = 1_000_003


class SideBySideRefused(ValueError):
    """A setting the corpus cannot have; the message says why."""


def side_by_side_set(
    *, corpus: Corpus, per_screen: int, asks_preference: bool = True, seed: int | None = None
) -> SideBySide:
    """Judge ``corpus`` side by side, ``per_screen`` systems a screen: the corpus's own
    setting, which overrides its campaign's from then on
    (:mod:`annotation.sidebyside.campaign`). A new setting draws its seed at random
    unless given one; a changed setting keeps its seed, and queues already drawn stay as
    they are."""
    side_by_side_check(corpus=corpus, per_screen=per_screen)
    setting = SideBySide.objects.filter(corpus=corpus).first()
    if setting is None:
        setting = SideBySide(corpus=corpus, seed=new_seed())
    if seed is not None:
        setting.seed = seed
    setting.per_screen, setting.asks_preference = per_screen, asks_preference
    setting.from_campaign = setting.off = False
    setting.save()
    return setting


def side_by_side_off(*, corpus: Corpus) -> SideBySide:
    """Judge ``corpus`` one candidate a page again: the corpus's own setting, off, which
    overrides its campaign's from then on. The setting is kept, not deleted: the queues
    drawn and the preferences given stay, and the panel's figures still read them; a
    setting turned on again later (:func:`side_by_side_set`) takes up each judge's queue
    where it was. Nothing is refused: turning off mixes no screen sizes."""
    setting = SideBySide.objects.filter(corpus=corpus).first()
    if setting is None:
        setting = SideBySide(corpus=corpus, seed=new_seed())
    setting.from_campaign, setting.off = False, True
    setting.save()
    return setting


def side_by_side_check(*, corpus: Corpus | None, per_screen: int) -> None:
    """Refuse (:class:`SideBySideRefused`, the reason its message) a number of systems a
    screen out of range, or a ``corpus`` whose protocol is not judged side by side
    (:attr:`~annotation.models.Corpus.side_by_side_refusal`)."""
    refusal = "" if corpus is None else corpus.side_by_side_refusal
    if refusal:
        raise SideBySideRefused(refusal)
    if not MIN_PER_SCREEN <= per_screen <= MAX_PER_SCREEN:
        raise SideBySideRefused(ERR_PER_SCREEN.format(value=per_screen))


def new_seed() -> int:
    """A new setting's seed, drawn at random."""
    return secrets.randbelow(_SEED_LIMIT)


def judge_seed(setting: SideBySide, user: User) -> int:
    """The seed of ``user``'s draw: the corpus's seed and the judge's key."""
    return setting.seed * _JUDGE_STRIDE + user.pk


def queue_drawn(*, setting: SideBySide, user: User) -> None:
    """Draw and store ``user``'s queue, unless it is stored already (module docstring).
    Two requests drawing at once store one queue: the same seed draws the same screens,
    and the second's rows are refused by the unique place."""
    if setting.comparisons.filter(judge=user).exists():
        return
    rows = Target.objects.filter(
        sentence__corpus_id=setting.corpus_id, translator__role=Translator.Role.SYSTEM
    ).values_list("sentence_id", "translator_id", "pk", named=True)
    available: dict[int, list[int]] = {}
    target_of: dict[tuple[int, int], int] = {}
    for row in rows.order_by("sentence__position", "translator__position"):
        available.setdefault(row.sentence_id, []).append(row.translator_id)
        target_of[(row.sentence_id, row.translator_id)] = row.pk
    seed = judge_seed(setting, user)
    screens = draw_screens(available, per_screen=setting.per_screen, seed=seed)
    corpus = setting.corpus
    controls = (
        control_screens(len(screens), setting.per_screen, corpus.control_rate, seed)
        if corpus.controls_enabled
        else {}
    )
    comparisons = []
    for position, screen in enumerate(screens):
        targets = [target_of[(screen.sentence, system)] for system in screen.systems]
        control = controls.get(position)
        if control is not None and not shows_reference(setting, user, screen.sentence, position):
            original, copy = control
            targets[copy] = targets[original]
        comparisons.append(
            Comparison(
                setting=setting,
                judge=user,
                sentence_id=screen.sentence,
                position=position,
                targets=targets,
                left_id=targets[0],
                right_id=targets[1],
                swapped=screen.swapped,
                seed=seed,
                control=None if control is None else control[1],
                picks_best=setting.per_screen > MIN_PER_SCREEN,
            )
        )
    try:
        with transaction.atomic():
            Comparison.objects.bulk_create(comparisons)
    except IntegrityError:
        pass  # another request stored the same queue first


def control_screens(
    screens: int, per_screen: int, rate: int, seed: int
) -> dict[int, tuple[int, int]]:
    """Which of a queue's ``screens`` are control screens (module docstring), each with
    the place of the original and of its copy: one control item in every ``rate``
    candidates shown (at least one), at places drawn from the judge's ``seed``."""
    if not screens:
        return {}
    rng = random.Random(f"sbs-controls:{seed}")
    count = min(screens, max(1, round(screens * per_screen / rate)))
    out = {}
    for position in sorted(rng.sample(range(screens), count)):
        original = rng.randrange(per_screen)
        out[position] = (original, rng.choice([k for k in range(per_screen) if k != original]))
    return out


def shows_reference(setting: SideBySide, user: User, sentence_id: int, position: int) -> bool:
    """Whether the control screen at ``position`` of an aWER corpus's queue shows a
    reference as a candidate (in place of the candidate at the control's place, which
    keeps its system's target in ``Comparison.targets``) rather than a copy with injected
    errors beside its original: drawn between aWER's two kinds (:data:`annotation.
    controls.runs.AWER_KINDS`) where the judge's run of the sentence has a reference to
    show (:func:`reference_to_show`), else always the copy. An ESA / MQM corpus has no
    reference control. One query, on aWER control screens only."""
    corpus = setting.corpus
    if corpus.marks_spans or reference_to_show(corpus, user, sentence_id) is None:
        return False
    kinds = control_kinds(corpus)
    kind = random.Random(f"sbs-control-kind:{judge_seed(setting, user)}:{position}")
    return kind.choice(kinds) == Judgment.Control.REFERENCE


def reference_to_show(corpus: Corpus, user: User, sentence_id: int) -> Target | None:
    """The reference target a reference control of ``sentence_id`` shows this judge: the
    one the single page's run would show, hidden from every pool of the sentence for this
    judge (:func:`annotation.controls.runs.hidden_reference`), so the other candidates
    of the screen never start from it; None where none is (controls off, a corpus that
    shows names, fewer than two references). One query."""
    references = sorted(
        Target.objects.filter(
            sentence_id=sentence_id, translator__role__in=REFERENCE_ROLES
        ).select_related("translator"),
        key=lambda t: reference_order(t.translator.role, t.position),
    )
    return hidden_reference(corpus, user_id=user.pk, sentence_id=sentence_id, references=references)


def next_comparison(*, setting: SideBySide, user: User) -> Comparison | None:
    """The judge's first screen not done, its queue drawn first if need be; None when
    the judge has done them all."""
    queue_drawn(setting=setting, user=user)
    return (
        setting.comparisons.filter(judge=user, state=Comparison.State.PENDING)
        .order_by("position")
        .first()
    )
