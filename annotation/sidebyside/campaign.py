"""A campaign's side-by-side setting (issue 42, point 1): set once on the campaign's page,
it reaches every corpus of the campaign whose protocol is judged side by side.

What it holds is what a corpus's own setting holds (:class:`~annotation.models.
SideBySide`: systems a screen, whether the preference is asked), and it reaches a corpus
as a setting of the corpus's own marked ``from_campaign``, with a seed of its own, so
queues, screens and figures read one kind of setting whichever page made it. The rules:

* **A corpus's own setting overrides the campaign's.** Saved on the corpus's
  side-by-side panel (:func:`~annotation.sidebyside.queue.side_by_side_set`), it is no
  longer the campaign's (``from_campaign`` false), and the campaign's changes leave it
  as it is.
* **A corpus that joins later follows it.** Uploaded into the campaign, moved into it,
  or switched to a protocol judged side by side: its judges are offered side by side at
  once (:attr:`~annotation.models.Corpus.judged_side_by_side`), and its setting is
  stored from the campaign's the first time someone opens it (:func:`side_by_side_of`).
  So no path that brings a corpus in needs to know of side by side.
* **Fixed once side-by-side judging started under it.** A change is refused
  (:data:`ERR_STARTED`, naming the corpora) once a judge's queue was drawn in a corpus
  that follows it. The corpus's own setting, changed on its panel, leaves the queues
  drawn as they were and draws later judges' by the new one, so one corpus can mix
  screen sizes; a campaign's change would do that in every corpus at once, where no
  panel says so, so it is refused instead. A lead who must change a started corpus
  changes it on that corpus's panel (which then overrides the campaign's).
* **Either can be turned off** (:func:`campaign_side_by_side_off`, and a corpus's own
  :func:`~annotation.sidebyside.queue.side_by_side_off`), never refused, and **a
  corpus can follow the campaign's again** (:func:`side_by_side_follow`). Nothing is
  deleted that a judge made: a setting with queues drawn is kept, off, with its
  preferences and its figures; a following corpus is off while its campaign's is.
* **Corpora whose protocol is not judged side by side are left one at a time**, each
  listed on the campaign's page with the reason
  (:attr:`~annotation.models.Corpus.side_by_side_refusal`, the one rule of which
  protocols are).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from annotation.models import Campaign, Corpus, SideBySide
from annotation.sidebyside.queue import (
    SideBySideRefused,
    new_seed,
    side_by_side_check,
    side_by_side_off,
    side_by_side_set,
)

ERR_STARTED = (
    "Side-by-side judging has started under the campaign's setting in {corpora}, so the "
    "campaign's setting can no longer change (a corpus's own setting, on its side-by-side "
    "page, still can)."
)

#: How the campaign's setting reaches a corpus (:attr:`CorpusReach.state`).
FOLLOWS, OWN, LEFT, OFF = "follows", "own", "left", "off"


@dataclass(frozen=True)
class CorpusReach:
    """One corpus of a campaign as the campaign's side-by-side setting reaches it:
    ``state`` :data:`FOLLOWS` (judged side by side by the campaign's setting),
    :data:`OWN` (its own setting overrides it; ``per_screen`` None where that is off),
    :data:`LEFT` (its protocol is not judged side by side: ``reason``) or :data:`OFF`
    (it follows the campaign's, which has none or is off); and the setting it is judged
    by, where it is."""

    corpus: Corpus
    state: str
    reason: str = ""
    per_screen: int | None = None
    asks_preference: bool | None = None


def campaign_reach(campaign: Campaign, corpora: Iterable[Corpus]) -> list[CorpusReach]:
    """How ``campaign``'s setting reaches each of ``corpora`` (its corpora, read with
    their ``side_by_side`` selected: no query here)."""
    out = []
    for corpus in corpora:
        stored: SideBySide | None = getattr(corpus, "side_by_side", None)
        if stored is not None and not stored.from_campaign:
            if stored.off:
                out.append(CorpusReach(corpus, OWN))  # its own setting: one at a time
            else:
                values = (stored.per_screen, stored.asks_preference)
                out.append(CorpusReach(corpus, OWN, "", *values))
        elif corpus.side_by_side_refusal:
            out.append(CorpusReach(corpus, LEFT, corpus.side_by_side_refusal))
        elif campaign.side_by_side_per_screen is None:
            out.append(CorpusReach(corpus, OFF))
        elif stored is not None:
            out.append(CorpusReach(corpus, FOLLOWS, "", stored.per_screen, stored.asks_preference))
        else:
            values = (campaign.side_by_side_per_screen, campaign.side_by_side_asks_preference)
            out.append(CorpusReach(corpus, FOLLOWS, "", *values))
    return out


def campaign_side_by_side_set(
    *, campaign: Campaign, per_screen: int, asks_preference: bool = True
) -> int:
    """Judge ``campaign``'s corpora side by side, ``per_screen`` systems a screen (the
    module's rules): the setting saved on the campaign, and on every corpus that follows
    it or has none and whose protocol allows it. The number of corpora it reaches.
    Refused (:class:`~annotation.sidebyside.queue.SideBySideRefused`) out of range, or
    changed once side-by-side judging started under it: a corpus that follows it has a
    judge's queue drawn by other values (turned off and on again with the same values
    is no change)."""
    side_by_side_check(corpus=None, per_screen=per_screen)
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)  # one save at a time
        following = SideBySide.objects.filter(corpus__campaign=locked, from_campaign=True)
        started = (
            following.filter(comparisons__isnull=False)
            .exclude(per_screen=per_screen, asks_preference=asks_preference)
            .values_list("corpus__name")
        )
        names = sorted({name for (name,) in started})
        if names:
            raise SideBySideRefused(ERR_STARTED.format(corpora=", ".join(names)))
        Campaign.objects.filter(pk=locked.pk).update(
            side_by_side_per_screen=per_screen, side_by_side_asks_preference=asks_preference
        )
        reached = following.update(per_screen=per_screen, asks_preference=asks_preference)
        without = Corpus.all_objects.filter(campaign=locked, side_by_side__isnull=True)
        new = [
            SideBySide(
                corpus=corpus,
                per_screen=per_screen,
                asks_preference=asks_preference,
                seed=new_seed(),
                from_campaign=True,
            )
            for corpus in without
            if not corpus.side_by_side_refusal
        ]
        SideBySide.objects.bulk_create(new)
    campaign.side_by_side_per_screen = per_screen
    campaign.side_by_side_asks_preference = asks_preference
    return reached + len(new)


def campaign_side_by_side_off(*, campaign: Campaign) -> int:
    """Judge ``campaign``'s corpora one candidate a page again, but for those with a
    setting of their own: the campaign's setting emptied. Never refused, since it mixes
    no screen sizes. The corpora that followed it keep their stored settings, with the
    queues drawn and the preferences given (their panels still show the figures), and
    are no longer offered side by side (:attr:`~annotation.models.SideBySide.judged`
    reads the campaign's). The number of corpora that followed it."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        Campaign.objects.filter(pk=locked.pk).update(side_by_side_per_screen=None)
        following = SideBySide.objects.filter(corpus__campaign=locked, from_campaign=True)
        reached = following.count()
    campaign.side_by_side_per_screen = None
    return reached


def side_by_side_follow(*, corpus: Corpus) -> SideBySide | None:
    """``corpus`` follows its campaign's setting again: its own setting (on or off) is
    given up. With no queue drawn under it, it is deleted, and the corpus is as one
    that never had a setting (:func:`side_by_side_of` stores the campaign's, if any).
    With queues drawn it is kept, marked the campaign's and given the campaign's values,
    so the queues and preferences stay, later judges' queues are drawn by the campaign's
    setting (as after a change of a corpus's own), and the campaign's later changes are
    refused while the two differ. The setting the corpus is now judged by, or None."""
    with transaction.atomic():
        setting = SideBySide.objects.select_for_update().filter(corpus=corpus).first()
        if setting is not None and not setting.comparisons.exists():
            setting.delete()
        elif setting is not None:
            campaign = Campaign.objects.get(pk=corpus.campaign_id)
            if campaign.side_by_side_per_screen is not None:
                setting.per_screen = campaign.side_by_side_per_screen
                setting.asks_preference = campaign.side_by_side_asks_preference
            setting.from_campaign, setting.off = True, False
            setting.save()
    return side_by_side_of(corpus)


#: A corpus's choices besides a number of systems a screen (:func:`corpus_side_by_side_choose`).
OFF_CHOICE, CAMPAIGN_CHOICE = "off", "campaign"
ERR_CHOICE = (
    "Choose 2, 3 or 4 systems a screen, off (one at a time), or campaign (follow the "
    "campaign's setting), not {value!r}."
)


def corpus_side_by_side_choose(
    *, corpus: Corpus, choice: str, asks_preference: bool = True
) -> SideBySide | None:
    """The corpus's setting as chosen on its panel or by the command (one parser for
    both): a number of systems a screen (its own setting, :func:`~annotation.sidebyside.
    queue.side_by_side_set`), :data:`OFF_CHOICE` (its own, off: :func:`~annotation.
    sidebyside.queue.side_by_side_off`) or :data:`CAMPAIGN_CHOICE`
    (:func:`side_by_side_follow`). Anything else is refused with the reason. The setting
    stored, or None (following a campaign without one)."""
    value = choice.strip()
    if value == OFF_CHOICE:
        return side_by_side_off(corpus=corpus)
    if value == CAMPAIGN_CHOICE:
        return side_by_side_follow(corpus=corpus)
    if not value.isdigit():
        raise SideBySideRefused(ERR_CHOICE.format(value=value))
    return side_by_side_set(corpus=corpus, per_screen=int(value), asks_preference=asks_preference)


def side_by_side_of(corpus: Corpus) -> SideBySide | None:
    """The setting ``corpus`` is judged side by side by, or None: its own, or its
    campaign's, stored for it the first time it is asked for (a corpus that joined the
    campaign since its setting was saved). A corpus that follows a campaign's setting
    and has no queue drawn yet takes its campaign's as it is now (it may have moved in
    from another campaign). A setting is returned whether it is on or off
    (:attr:`~annotation.models.SideBySide.judged`): an off one still has its figures."""
    setting = SideBySide.objects.filter(corpus=corpus).first()
    campaign = corpus.campaign
    per_screen, asks = campaign.side_by_side_per_screen, campaign.side_by_side_asks_preference
    if setting is not None:
        setting.corpus = corpus  # its campaign read once (SideBySide.judged)
        if (
            setting.from_campaign
            and per_screen is not None
            and (setting.per_screen, setting.asks_preference) != (per_screen, asks)
            and not setting.comparisons.exists()
        ):
            setting.per_screen, setting.asks_preference = per_screen, asks
            setting.save(update_fields=["per_screen", "asks_preference"])
        return setting
    if per_screen is None or corpus.side_by_side_refusal:
        return None
    try:
        with transaction.atomic():
            return SideBySide.objects.create(
                corpus=corpus,
                per_screen=per_screen,
                asks_preference=asks,
                seed=new_seed(),
                from_campaign=True,
            )
    except IntegrityError:  # another request stored it first
        return SideBySide.objects.get(corpus=corpus)
