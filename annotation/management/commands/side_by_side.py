"""``manage.py side_by_side CAMPAIGN [--per-screen N] [--no-preference] [--off]
[--corpus NAME [--follow-campaign]] [--json]`` — a campaign's side-by-side setting
(:mod:`annotation.sidebyside.campaign`): set it, then print how it reaches each corpus
of the campaign.

``--off`` turns the campaign's setting off. With ``--corpus NAME`` (a corpus of the
campaign) the options set that corpus's own setting instead, as its side-by-side page
does: ``--per-screen``/``--no-preference`` its own, ``--off`` its own off, and
``--follow-campaign`` gives its own up to follow the campaign's again
(:func:`~annotation.sidebyside.campaign.corpus_side_by_side_choose`, the page's parser).

The values go through the campaign page's form
(:class:`annotation.campaigns.forms.CampaignSideBySideForm`) and service, so the command
refuses exactly what the page refuses (a number of systems out of 2–4; a change once a
judge's side-by-side queue was drawn under it), naming the option and the reason.
Without ``--per-screen`` and ``--no-preference`` it only prints. ``--no-preference``
alone keeps the systems a screen stored. ``--json`` prints ``{"campaign", "per_screen",
"asks_preference", "corpora": {name: {"state", "per_screen", "asks_preference",
"reason"}}}`` (``state``: follows, own, left or off; ``per_screen`` null where the
campaign has no setting, and in a corpus's where it is one at a time: ``own`` with
``per_screen`` null is a corpus's own setting, off).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.campaigns.forms import CampaignSideBySideForm
from annotation.models import Campaign, Corpus, SideBySide
from annotation.sidebyside.campaign import (
    CAMPAIGN_CHOICE,
    OFF_CHOICE,
    CorpusReach,
    campaign_reach,
    corpus_side_by_side_choose,
)
from annotation.sidebyside.queue import SideBySideRefused
from metrics.json_out import json_dumps

#: The form's fields and the options that set them.
OPTIONS = {"per_screen": "--per-screen", "asks_preference": "--no-preference"}


class Command(BaseCommand):
    help = "Judge a campaign's corpora side by side (systems a screen, preference); print it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="The campaign's name.")
        parser.add_argument("--per-screen", help="Systems' candidates a screen shows (2–4).")
        parser.add_argument(
            "--no-preference", action="store_true", help="Do not ask which is better."
        )
        parser.add_argument(
            "--off", action="store_true", help="Judge one candidate a page (turn it off)."
        )
        parser.add_argument(
            "--corpus", help="Set this corpus's own setting (as its side-by-side page does)."
        )
        parser.add_argument(
            "--follow-campaign",
            action="store_true",
            help="With --corpus: give its own setting up, follow the campaign's again.",
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(name=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign named {options['campaign']!r}")
        choice = _choice(options)
        if options["corpus"] is not None:
            _set_corpus(campaign, options["corpus"], choice, not options["no_preference"])
        elif options["follow_campaign"]:
            raise CommandError("--follow-campaign: give the corpus (--corpus NAME).")
        elif choice is not None or options["no_preference"]:
            _set(campaign, choice, not options["no_preference"])
        corpora = Corpus.objects.filter(campaign=campaign).select_related("side_by_side")
        reach = campaign_reach(campaign, corpora.order_by("name"))
        if options["json"]:
            self.stdout.write(json_dumps(_payload(campaign, reach)))
            return
        self.stdout.write(_headline(campaign))
        for r in reach:
            said = f"{r.per_screen} a screen" if r.per_screen else "one at a time"
            reason = f": {r.reason}" if r.reason else ""
            self.stdout.write(f"{r.corpus.name}: {r.state}, {said}{reason}")


def _headline(campaign: Campaign) -> str:
    per_screen = campaign.side_by_side_per_screen
    if per_screen is None:
        return f"{campaign.name}: no side-by-side setting."
    asked = ", asking which is better" if campaign.side_by_side_asks_preference else ""
    return f"{campaign.name}: side by side, {per_screen} systems a screen{asked}."


def _choice(options: dict[str, Any]) -> str | None:
    """What the options choose (systems a screen, off, follow the campaign's), or None;
    refused where two of them are given."""
    given = [
        (name, value)
        for name, value in (
            ("--per-screen", options["per_screen"]),
            ("--off", OFF_CHOICE if options["off"] else None),
            ("--follow-campaign", CAMPAIGN_CHOICE if options["follow_campaign"] else None),
        )
        if value is not None
    ]
    if len(given) > 1:
        raise CommandError(f"{given[1][0]}: not with {given[0][0]}; give one of them.")
    return given[0][1] if given else None


def _set_corpus(campaign: Campaign, name: str, choice: str | None, asks: bool) -> None:
    """The corpus's own setting, through its page's parser, or the command's refusal."""
    corpus = Corpus.objects.filter(campaign=campaign, name=name).select_related("campaign")
    found = corpus.first()
    if found is None:
        raise CommandError(f"--corpus: no corpus named {name!r} in {campaign.name!r}")
    if choice is None:
        stored = SideBySide.objects.filter(corpus=found, off=False).first()
        choice = "" if stored is None else str(stored.per_screen)
    try:
        corpus_side_by_side_choose(corpus=found, choice=choice, asks_preference=asks)
    except SideBySideRefused as refused:
        raise CommandError(f"--per-screen: {refused}") from None


def _set(campaign: Campaign, per_screen: str | None, asks_preference: bool) -> None:
    """The setting saved through the page's form and service, or the command's refusal."""
    stored = campaign.side_by_side_per_screen
    data = {"sbs-per_screen": per_screen if per_screen is not None else stored or ""}
    if asks_preference:
        data["sbs-asks_preference"] = "on"
    form = CampaignSideBySideForm(data)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise CommandError(f"{OPTIONS.get(field, field)}: {' '.join(map(str, errors))}")
    try:
        form.save_setting(campaign)
    except SideBySideRefused as refused:
        raise CommandError(f"--per-screen: {refused}") from None


def _payload(campaign: Campaign, reach: list[CorpusReach]) -> dict[str, Any]:
    return {
        "campaign": campaign.name,
        "per_screen": campaign.side_by_side_per_screen,
        "asks_preference": campaign.side_by_side_asks_preference,
        "corpora": {
            r.corpus.name: {
                "state": r.state,
                "per_screen": r.per_screen,
                "asks_preference": r.asks_preference,
                "reason": r.reason,
            }
            for r in reach
        },
    }
