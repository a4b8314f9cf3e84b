"""What a click on a side-by-side screen does beyond one candidate's own changes (those
are the single-candidate page's: :data:`annotation.judging.views.CHANGES`).

Accept & next (:func:`comparison_accept`) first saves what the judge typed and did not
save yet (a score in a field, the preference), each as its own change, and only then
finishes the candidates' judgments and the screen, in one transaction: a refusal (a
score missing) leaves the typed values saved, so nothing typed is lost to it.

**Active time on one screen.** The single-candidate page counts a judgment's active time
as the gaps between its own events (:mod:`annotation.judging.active_time`), starting at
the ``open`` event its page records. A screen shows several candidates at once, so it
records an ``open`` event for each (:func:`comparison_seen`), and every change made on
it counts the gap since the screen's latest event, whichever candidate that was
(:func:`screen_clock`): each stretch of the judge's time goes to the candidate whose
change ends it, once. Counted from each judgment's own events, the time spent reading
the source and the other candidates would be counted once per candidate (or, without
the ``open`` events, not at all); counted so, the candidates' active seconds add up to
the screen's time, which is what the effort figures sum.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from annotation.controls.api import ControlPlan, degraded_copy
from annotation.judging.changes import (
    judgment_edit_ref,
    judgment_finish,
    judgment_set_sser,
)
from annotation.judging.errors import ChangeRefused
from annotation.judging.esa import judgment_set_esa_score
from annotation.judging.stack import judgment_for
from annotation.judging.start import control_open, judgment_open, judgment_seen
from annotation.models import Comparison, Judgment, Target, User
from annotation.sidebyside.queue import reference_to_show
from annotation.sidebyside.screen import LETTERS, preferences_of

ERR_PREFERENCE = "This screen offers no preference {value!r}."
ERR_NO_SSERS = "Give {letters} an SSER score (0–10) before accepting this screen."


class PreferenceRefused(ValueError):
    """A preference the screen does not offer."""


def comparison_judgments(*, comparison: Comparison, user: User) -> list[Judgment]:
    """The judge's judgments of the screen's candidates, in the order shown, opened on
    the way as the single-candidate page opens them
    (:func:`~annotation.judging.start.judgment_open`), each loaded as a change needs it."""
    targets = Target.objects.select_related("sentence__corpus", "translator").in_bulk(
        comparison.targets
    )
    opened = [
        _control_open(comparison, user, targets[pk], k)
        if k == comparison.control
        else judgment_open(user=user, target=targets[pk])
        for k, pk in enumerate(comparison.targets)
    ]
    judgments = [judgment_for(pk=j.pk, user=user) for j in opened]
    screen_clock(judgments)
    return judgments


def _control_open(comparison: Comparison, user: User, target: Target, place: int) -> Judgment:
    """The control item at ``place`` of a control screen: a copy with injected errors of
    the candidate it repeats (its target is twice in ``Comparison.targets``), or, on an
    aWER corpus, the reference shown in place of ``target``'s system
    (:func:`~annotation.sidebyside.queue.shows_reference`), as the single page opens a
    reference control (:func:`~annotation.judging.start.control_open`). Where the
    reference is no longer to be shown (the lead turned controls off since, or made the
    corpus show names), the real candidate."""
    if comparison.targets.count(target.pk) > 1:
        return _copy_open(comparison, user, target, place)
    corpus = target.sentence.corpus
    reference = reference_to_show(corpus, user, target.sentence_id)
    if reference is None:
        return judgment_open(user=user, target=target)
    made = Judgment.objects.filter(
        target=reference, evaluator=user, control=Judgment.Control.REFERENCE
    ).first()
    if made is not None:
        return made
    plan = ControlPlan(reference, Judgment.Control.REFERENCE, shown_as=target.translator)
    return control_open(user=user, plan=plan)


def _copy_open(comparison: Comparison, user: User, target: Target, place: int) -> Judgment:
    """The control screen's copy with injected errors of ``target``: the judge's control
    item, made the first time the screen is shown
    (:func:`~annotation.controls.api.degraded_copy`, opened as the single page opens
    one: :func:`~annotation.judging.start.control_open`)."""
    made = Judgment.objects.filter(
        target=target, evaluator=user, control=Judgment.Control.DEGRADED
    ).first()
    if made is not None:
        return made
    corpus = target.sentence.corpus
    plan = degraded_copy(
        user=user, corpus=corpus, target=target, place=f"sbs:{comparison.pk}:{place}"
    )
    return control_open(user=user, plan=plan)


def screen_clock(judgments: list[Judgment]) -> None:
    """Make the screen's latest event every candidate's previous one, so the next change
    on any of them counts the gap since the judge last did anything on the screen (the
    module's docstring); the candidates' loaded ``stack_last_event_at`` is set, nothing
    is written."""
    times = [j.stack_last_event_at for j in judgments if j.stack_last_event_at is not None]
    latest = max(times, default=None)
    for judgment in judgments:
        judgment.stack_last_event_at = latest


def comparison_seen(*, judgments: list[Judgment], user: User, at: datetime | None = None) -> None:
    """Record that the screen of ``judgments`` was shown: an ``open`` event for each
    candidate, as the single-candidate page records one for its candidate
    (:func:`~annotation.judging.start.judgment_seen`), all at one time."""
    at = at or timezone.now()
    for judgment in judgments:
        judgment_seen(judgment=judgment, user=user, at=at)


def comparison_set_preference(*, comparison: Comparison, user: User, preference: str) -> None:
    """The judge's preference between the screen's first two candidates (A the left,
    B the right), or on a screen of 3 or 4 the best of them (a letter) or none ("same");
    "" takes it back (:func:`~annotation.sidebyside.screen.preferences_of`)."""
    offered = {value for value, _, _ in preferences_of(comparison)}
    if preference not in offered | {Comparison.Preference.NONE}:
        raise PreferenceRefused(ERR_PREFERENCE.format(value=preference))
    Comparison.objects.filter(pk=comparison.pk, judge=user).update(preference=preference)
    comparison.preference = preference


def comparison_accept(
    *,
    comparison: Comparison,
    user: User,
    scores: Mapping[int, int],
    preference: str | None,
    at: datetime | None = None,
    typed: Typed | None = None,
) -> None:
    """Accept & next (the module's docstring): ``scores`` (ESA) by judgment key, as
    typed; on an aWER corpus what ``typed`` holds (SSERs, new references' texts).
    Every change it saves is at one time, so the gap since the screen's latest event is
    counted once, on the first candidate it writes (:func:`screen_clock`). A candidate
    without its SSER (aWER) refuses the whole screen, naming every one that lacks it,
    after what was typed is saved."""
    at = at or timezone.now()
    judgments = comparison_judgments(comparison=comparison, user=user)
    for judgment in judgments:
        score = scores.get(judgment.pk)
        if score is not None and score != judgment.esa_score:
            screen_clock(judgments)
            judgment_set_esa_score(
                judgment=judgment, user=user, version=judgment.version, score=score, at=at
            )
    if typed is not None:
        _typed_saved(judgments, user, typed, at)
    if preference is not None:
        comparison_set_preference(comparison=comparison, user=user, preference=preference)
    if not comparison.setting.corpus.marks_spans:
        lacking = [LETTERS[k].upper() for k, j in enumerate(judgments) if j.sser is None]
        if lacking:
            raise ChangeRefused(ERR_NO_SSERS.format(letters=" and ".join(lacking)))
    with transaction.atomic():
        for judgment in judgments:
            if judgment.state != Judgment.State.DONE:
                screen_clock(judgments)
                judgment_finish(judgment=judgment, user=user, version=judgment.version, at=at)
        Comparison.objects.filter(pk=comparison.pk).update(
            state=Comparison.State.DONE, finished_at=at
        )
    comparison.state = Comparison.State.DONE


@dataclass(frozen=True)
class Typed:
    """What an aWER screen's accept carries of each candidate (by judgment key): the
    SSER pressed, and the new reference's text typed in its field and not saved."""

    ssers: Mapping[int, int]
    new_refs: Mapping[int, str]


def _typed_saved(judgments: list[Judgment], user: User, typed: Typed, at: datetime) -> None:
    """Save, each as its own change, the new references typed and the SSERs given that
    differ from what is stored (:func:`comparison_accept`)."""
    for judgment in judgments:
        text = typed.new_refs.get(judgment.pk)
        if text is not None and text.strip() and text.strip() != judgment.new_ref.strip():
            screen_clock(judgments)
            judgment_edit_ref(
                judgment=judgment, user=user, version=judgment.version, text=text, at=at
            )
        sser = typed.ssers.get(judgment.pk)
        if sser is not None and sser != judgment.sser:
            screen_clock(judgments)
            judgment_set_sser(
                judgment=judgment, user=user, version=judgment.version, sser=sser, at=at
            )
