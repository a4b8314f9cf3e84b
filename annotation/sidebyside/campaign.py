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
from annotation.sidebyside.queue import SideBySideRefused, new_seed, side_by_side_check

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
    :data:`OWN` (its own setting overrides it), :data:`LEFT` (its protocol is not
    judged side by side: ``reason``) or :data:`OFF` (neither has a setting); and the
    setting it is judged by, where it is."""

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
            out.append(CorpusReach(corpus, OWN, "", stored.per_screen, stored.asks_preference))
        elif corpus.side_by_side_refusal:
            out.append(CorpusReach(corpus, LEFT, corpus.side_by_side_refusal))
        elif stored is not None:
            out.append(CorpusReach(corpus, FOLLOWS, "", stored.per_screen, stored.asks_preference))
        elif campaign.side_by_side_per_screen is not None:
            per_screen, asks = (
                campaign.side_by_side_per_screen,
                campaign.side_by_side_asks_preference,
            )
            out.append(CorpusReach(corpus, FOLLOWS, "", per_screen, asks))
        else:
            out.append(CorpusReach(corpus, OFF))
    return out


def campaign_side_by_side_set(
    *, campaign: Campaign, per_screen: int, asks_preference: bool = True
) -> int:
    """Judge ``campaign``'s corpora side by side, ``per_screen`` systems a screen (the
    module's rules): the setting saved on the campaign, and on every corpus that follows
    it or has none and whose protocol allows it. The number of corpora it reaches.
    Refused (:class:`~annotation.sidebyside.queue.SideBySideRefused`) out of range, or
    changed once side-by-side judging started under it."""
    side_by_side_check(corpus=None, per_screen=per_screen)
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)  # one save at a time
        following = SideBySide.objects.filter(corpus__campaign=locked, from_campaign=True)
        was = (locked.side_by_side_per_screen, locked.side_by_side_asks_preference)
        if was != (per_screen, asks_preference):
            started = following.filter(comparisons__isnull=False).values_list("corpus__name")
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


def side_by_side_of(corpus: Corpus) -> SideBySide | None:
    """The setting ``corpus`` is judged side by side by, or None: its own, or its
    campaign's, stored for it the first time it is asked for (a corpus that joined the
    campaign since its setting was saved). A corpus that follows a campaign's setting
    and has no queue drawn yet takes its campaign's as it is now (it may have moved in
    from another campaign)."""
    setting = SideBySide.objects.filter(corpus=corpus).first()
    campaign = corpus.campaign
    per_screen, asks = campaign.side_by_side_per_screen, campaign.side_by_side_asks_preference
    if setting is not None:
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
