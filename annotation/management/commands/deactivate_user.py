"""``manage.py deactivate_user USERNAME [--reactivate]`` — an account that can no longer
log in (its sessions end at their next request), or can again. Its judgments stay and
count as before: leaving a judge out of the figures is the campaign's decision."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.accounts import user_set_active
from annotation.models import User


class Command(BaseCommand):
    help = "Deactivate an account (it can no longer log in), or reactivate it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--reactivate", action="store_true", help="Let it log in again.")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no account named {options['username']!r}")
        active = options["reactivate"]
        user_set_active(user=user, active=active)
        self.stdout.write(f"{user.username}: {'reactivated' if active else 'deactivated'}.")
