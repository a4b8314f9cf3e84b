"""The protocols bench's closing figures: the campaign's recorded effort per protocol,
printed by ``manage.py shell`` as the bench runs it, are the campaign page's."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.core.management import call_command

from annotation.campaigns.membership import campaign_create
from annotation.models import Corpus, Judgment, Span, Target, User
from annotation.tests.factories import seed_corpus
from bench.protocols import RECORDED

pytestmark = pytest.mark.django_db


def test_the_bench_prints_the_recorded_effort_of_its_campaign(
    capsys: pytest.CaptureFixture[str], user_factory: Callable[..., User]
) -> None:
    campaign = campaign_create(name="protocols-3")
    corpus = seed_corpus("bench-esa", campaign=campaign)
    Corpus.objects.filter(pk=corpus.pk).update(protocol="esa")
    target = Target.objects.filter(sentence__corpus=corpus, translator__role="system").first()
    assert target is not None
    judgment = Judgment.objects.create(
        target=target, evaluator=user_factory("esa-keyboard"), state="done", active_seconds=12.0
    )
    Span.objects.create(judgment=judgment, start=0, end=1, severity="minor", seconds=2.0)
    Span.objects.create(judgment=judgment, start=2, end=3, severity="major", seconds=4.0)
    capsys.readouterr()

    call_command("shell", command=RECORDED.format(campaign="protocols-3"))

    (row,) = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (row["protocol"], row["judgments"], row["spans"]) == ("esa", 1, 2)
    assert (row["seconds_per_segment"], row["seconds_per_span"]) == (12.0, 6.0)
    assert row["marking_seconds_per_span"] == 3.0
