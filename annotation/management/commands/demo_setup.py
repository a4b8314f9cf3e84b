"""Prepare the demo `make run` serves: corpora and accounts, idempotently."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from annotation.accounts import user_upsert
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, User

DEMO_CORPORA = (
    ("ted-zhen-demo", "ted-zhen-demo.evaltrans.xml"),
    ("seed-001-example", "seed-example.evaltrans.xml"),
)
DEMO_ACCOUNTS = (
    ("demo-lead", "demo-lead-pw", User.Role.LEAD),
    ("demo-judge", "demo-judge-pw", User.Role.JUDGE),
)


class Command(BaseCommand):
    help = "Import the demo corpora and create the demo accounts (once), then print the logins."

    def handle(self, *args: Any, **options: Any) -> None:
        fixtures = settings.BASE_DIR / "fixtures"
        for name, filename in DEMO_CORPORA:
            if not Corpus.objects.filter(name=name).exists():
                summary = corpus_import(source=fixtures / filename, name=name)
                self.stdout.write(summary.lines()[0])
        corpora = list(Corpus.objects.filter(name__in=[n for n, _ in DEMO_CORPORA]))
        for username, password, role in DEMO_ACCOUNTS:
            user, _ = user_upsert(username=username, password=password, role=role, corpora=corpora)
            if role == User.Role.LEAD:
                user.led_corpora.add(*corpora)
        self.stdout.write("")
        self.stdout.write("evaltool runs on http://127.0.0.1:8000/")
        for username, password, role in DEMO_ACCOUNTS:
            self.stdout.write(f"  {role:<5}  user {username:<11} password {password}")
