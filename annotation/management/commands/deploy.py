"""``manage.py deploy`` — what a server does before it serves (``make deploy`` and ``make
serve`` run it): the migrations applied and the static files published, one process at a
time, so that servers started at once from one checkout, or against one database, all
come up (:mod:`annotation.deployment`)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from annotation.deployment import migrations_apply, static_publish, static_root


class Command(BaseCommand):
    help = (
        "Apply the migrations and publish the static files (collected once per change, "
        "atomically); safe to run from several servers at once."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        migrations_apply(out=self.stdout, verbosity=options["verbosity"])
        published = static_publish()
        if published is None:
            self.stdout.write(f"Static files: {static_root()} is up to date.")
        else:
            self.stdout.write(f"Static files: {static_root()} → {published.name}.")
