"""A prepared query (:mod:`annotation.models.prepared`) answers what its queryset answers,
for every kind of row and for each call's own values, in one query; a builder that does
not hand its values to the ORM as they are is refused on the first run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.models import Exists, F, OuterRef, QuerySet, Value
from django.test.utils import CaptureQueriesContext

from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User
from annotation.models.prepared import Prepared
from annotation.tests.factories import done_judgment, seed_corpus

pytestmark = pytest.mark.django_db


def _targets(sentence_id: int, role: str, *, shape: str) -> QuerySet[Any]:
    """One builder, a shape per kind of row."""
    qs = Target.objects.filter(sentence_id=sentence_id, translator__role=role).order_by("pk")
    if shape == "named":
        return qs.annotate(one=Value(1)).values_list("pk", "one", "text", named=True)
    if shape == "flat":
        return qs.values_list("pk", flat=True)
    if shape == "tuples":
        return qs.values_list("pk", "translator__name")
    return qs.values("pk", "text", "translator__position")


ROWS = Prepared(_targets)


@pytest.mark.parametrize("shape", ["named", "flat", "tuples", "dicts"])
def test_each_kind_of_row_is_the_querysets_for_each_calls_values(shape: str) -> None:
    corpus = seed_corpus()
    sentences = list(Sentence.objects.filter(corpus=corpus).order_by("position"))
    assert len(sentences) >= 2
    for sentence in sentences:
        for role in ("system", "reference"):
            with CaptureQueriesContext(connection) as queries:
                rows = ROWS(sentence.pk, role, shape=shape)
            assert rows == list(_targets(sentence.pk, role, shape=shape))
            assert rows  # not vacuous: the seed has both roles in every sentence
            assert len(queries.captured_queries) == 1


def _judgments(user_id: int, corpus_id: int, *, shape: object) -> QuerySet[Judgment]:
    mine = Judgment.objects.filter(evaluator_id=user_id, target_id=OuterRef("pk"))
    return (
        Judgment.objects.filter(evaluator_id=user_id, target__translator__corpus_id=corpus_id)
        .select_related("target__sentence__corpus", "evaluator")
        .annotate(twice=F("sser") * 2, own=Exists(mine.values("pk")))
        .order_by("pk")
    )


JUDGMENTS = Prepared(_judgments)


def test_model_instances_carry_their_related_rows_and_annotations(
    judge: User, user_factory: Callable[..., User]
) -> None:
    corpus = seed_corpus()
    other = user_factory("other-judge")
    for position, user in ((0, judge), (1, judge), (0, other)):
        done_judgment(corpus, user, "a translator", position, sser=position + 3)
    for user in (judge, other):
        with CaptureQueriesContext(connection) as queries:
            found = JUDGMENTS(user.pk, corpus.pk)
            seen = [
                (j.pk, j.sser, j.twice, j.own, j.evaluator.username, j.target.sentence.corpus.name)
                for j in found
            ]
        assert len(queries.captured_queries) == 1  # the related rows came with it
        expected = [
            (j.pk, j.sser, j.twice, j.own, j.evaluator.username, j.target.sentence.corpus.name)
            for j in _judgments(user.pk, corpus.pk, shape=None)
        ]
        assert seen == expected
        assert len(seen) == (2 if user == judge else 1)


def _by_name(name: str, *, shape: object) -> QuerySet[Any]:
    return Corpus.objects.filter(name=name).values_list("pk", flat=True)


def test_a_text_value_is_a_parameter_too() -> None:
    first, second = seed_corpus("first"), seed_corpus("second")
    by_name = Prepared(_by_name)
    assert by_name("first") == [first.pk]
    assert by_name("second") == [second.pk]
    assert by_name("third") == []


def _next_one(sentence_id: int, *, shape: object) -> QuerySet[Any]:
    return Target.objects.filter(sentence_id=sentence_id + 1).values_list("pk", flat=True)


def test_a_builder_that_changes_a_value_is_refused() -> None:
    corpus = seed_corpus()
    sentence = Sentence.objects.filter(corpus=corpus).first()
    assert sentence is not None
    with pytest.raises(ValueError, match="did not keep each value"):
        Prepared(_next_one)(sentence.pk)


def _systems_before(corpus_id: int, position: int, *, shape: object) -> QuerySet[Any]:
    return (
        Translator.objects.filter(corpus_id=corpus_id, position__lt=position)
        .order_by("position")
        .values_list("name", flat=True)
    )


def test_a_comparison_keeps_its_value() -> None:
    """A stand-in past the column's range would have Django drop the condition
    (``position < huge`` is every row) without a word: the stand-ins are in range."""
    corpus = seed_corpus()
    before = Prepared(_systems_before)
    positions = sorted(Translator.objects.filter(corpus=corpus).values_list("position", flat=True))
    for position in [*positions, positions[-1] + 1]:
        assert before(corpus.pk, position) == list(_systems_before(corpus.pk, position, shape=()))
    assert before(corpus.pk, positions[0]) == []
