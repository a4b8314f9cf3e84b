"""``manage.py annotator_links CAMPAIGN --base-url URL (--all | --user NAME …) [--days N]``:
per-annotator links, as a campaign's links page makes them
(:mod:`annotation.campaigns.links`). Prints a CSV of the links (the only time they are
shown: only their hash is stored); nothing is made when one annotator is refused."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.campaigns.handover import links_csv
from annotation.campaigns.links import (
    LINK_DAYS_DEFAULT,
    LinkRefused,
    campaign_annotators,
    links_create,
)
from annotation.models import Campaign, User


class Command(BaseCommand):
    help = "Make per-annotator links of a campaign; prints them as CSV, once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="The campaign's name.")
        parser.add_argument(
            "--base-url",
            required=True,
            help="Where the site is served, e.g. https://eval.example.org (the links' start).",
        )
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--all", action="store_true", help="Every annotator of the campaign.")
        who.add_argument(
            "--user", action="append", metavar="NAME", help="An annotator (repeatable)."
        )
        parser.add_argument(
            "--days", type=int, default=LINK_DAYS_DEFAULT, help="Days a link opens."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(name=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign named {options['campaign']!r}")
        if options["all"]:
            users = list(campaign_annotators(campaign))
        else:
            names = options["user"]
            users = list(User.objects.filter(username__in=names).order_by("username"))
            missing = sorted(set(names) - {u.username for u in users})
            if missing:
                raise CommandError(f"no account named {', '.join(map(repr, missing))}")
        try:
            made = links_create(campaign=campaign, users=users, days=options["days"])
        except LinkRefused as refused:
            raise CommandError(f"no link made: {refused}") from None
        self.stdout.write(links_csv(made, options["base_url"].rstrip("/")), ending="")
        self.stderr.write(f"Made {len(made)} link{'s' if len(made) != 1 else ''}.")
