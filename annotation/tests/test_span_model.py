"""The stored form of ESA and MQM judgments (:class:`~annotation.models.Span`, the 0–100
``esa_score``): what the database refuses on its own, what was suggested and what was
kept both kept, and the spans going with their judgment."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from annotation.corpora.imports import corpus_import
from annotation.corpora.removal import delete_corpus_rows
from annotation.models import Corpus, Judgment, Span, Target, User
from annotation.tests.factories import SEED_XML
from metrics.error_spans import MarkedSpan, span_problems
from metrics.mqm import segment_points

pytestmark = pytest.mark.django_db


@pytest.fixture
def judgment(judge: User) -> Judgment:
    corpus = corpus_import(source=SEED_XML, name="seed", protocol="esa").corpus
    target = Target.objects.filter(sentence__corpus=corpus, translator__role="system").first()
    assert target is not None
    return Judgment.objects.create(target=target, evaluator=judge)


def refused(**fields: Any) -> bool:
    """Whether the database refuses the row."""
    try:
        with transaction.atomic():
            Span.objects.create(**fields)
    except IntegrityError:
        return True
    return False


def test_a_judgment_holds_its_score_and_spans_and_they_score_as_mqm(judgment: Judgment) -> None:
    text = judgment.candidate_text
    judgment.esa_score = 66
    judgment.save(update_fields=["esa_score"])
    Span.objects.create(judgment=judgment, start=0, end=len(text.split()[0]), severity="major")
    Span.objects.create(judgment=judgment, start=len(text), end=len(text), missing=True,
                        severity="minor", seconds=4.5)  # fmt: skip

    spans = [s.marked for s in judgment.spans.all()]

    assert Judgment.objects.get(pk=judgment.pk).esa_score == 66
    assert span_problems(spans, text) == []
    assert segment_points((s.severity, s.category) for s in spans) == 6.0


@pytest.mark.parametrize("score", [-1, 101])
def test_the_database_refuses_an_esa_score_outside_0_to_100(judgment: Judgment, score: int) -> None:
    judgment.esa_score = score
    with pytest.raises(IntegrityError), transaction.atomic():
        judgment.save(update_fields=["esa_score"])


@pytest.mark.parametrize(
    "fields",
    [
        {"start": 5, "end": 5},  # an empty span that is no marker
        {"start": 6, "end": 5},
        {"start": 3, "end": 5, "missing": True},  # a marker is one place
        {"start": 0, "end": 5, "severity": "critical"},
        {"start": 0, "end": 5, "seconds": -1},
    ],
)
def test_the_database_refuses_a_span_that_cannot_be(
    judgment: Judgment, fields: dict[str, Any]
) -> None:
    assert refused(judgment=judgment, **{"severity": "minor", **fields})
    assert not refused(judgment=judgment, start=0, end=5, severity="minor")


def test_what_was_suggested_and_what_was_kept_are_both_stored(judgment: Judgment) -> None:
    kept, edited, removed = (
        Span.objects.create(judgment=judgment, start=a, end=b, severity="major",
                            origin=Span.Origin.SUGGESTED, source=Span.Source.AWER)
        for a, b in ((0, 5), (6, 9), (10, 12))
    )  # fmt: skip
    Span.objects.create(judgment=judgment, start=0, end=5, severity="major", suggestion=kept)
    Span.objects.create(judgment=judgment, start=6, end=9, severity="minor", suggestion=edited)

    suggested = judgment.spans.filter(origin=Span.Origin.SUGGESTED)
    assert suggested.count() == 3
    assert [s.kept_as.count() for s in suggested] == [1, 1, 0]  # the last one removed
    assert judgment.spans.filter(origin=Span.Origin.JUDGE).count() == 2
    assert removed.kept_as.count() == 0
    # a suggestion never names another
    assert refused(judgment=judgment, start=0, end=5, severity="minor",
                   origin=Span.Origin.SUGGESTED, source=Span.Source.AWER,
                   suggestion=kept)  # fmt: skip


def test_a_suggestion_says_where_it_came_from_and_a_judges_span_does_not(
    judgment: Judgment,
) -> None:
    assert refused(judgment=judgment, start=0, end=5, severity="minor",
                   origin=Span.Origin.SUGGESTED)  # fmt: skip
    assert refused(judgment=judgment, start=0, end=5, severity="minor",
                   source=Span.Source.IMPORTED)  # fmt: skip
    assert not refused(judgment=judgment, start=0, end=5, severity="minor",
                       origin=Span.Origin.SUGGESTED, source=Span.Source.IMPORTED)  # fmt: skip


def test_spans_go_with_their_judgment_and_corpus(judgment: Judgment) -> None:
    Span.objects.create(judgment=judgment, start=0, end=5, severity="minor")
    corpus = Corpus.objects.get(name="seed")

    delete_corpus_rows(corpus)

    assert not Span.objects.exists()
    assert MarkedSpan(0, 5, "minor") == Span(start=0, end=5, severity="minor").marked
