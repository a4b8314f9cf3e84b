"""The order of work (annotation/judging/order.py): sentence by sentence, the systems
shuffled per judge."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.order import next_target_for, previous_target_for, system_order
from annotation.judging.start import judgment_open, next_judgment_for
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import DEMO_XML, finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(judge: User) -> Corpus:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    corpus.judges.add(judge)
    return corpus


def test_work_goes_sentence_by_sentence_in_the_judges_order(demo: Corpus, judge: User) -> None:
    walked = []
    for _ in range(12):
        target = next_target_for(user=judge, corpus=demo)
        walked.append(target)
        finish(judgment_open(user=judge, target=target), judge, target.text, 10)

    sentences = [t.sentence.position for t in walked]
    first = demo.sentences.get(position=0)
    assert sentences == [0] * 5 + [1] * 5 + [2] * 2
    assert walked[:5] == system_order(user=judge, sentence=first)
    assert sorted(t.translator.position for t in walked[:5]) == sorted(
        t.translator.position for t in first.targets.filter(translator__role="system")
    )


def test_the_shuffle_is_stable_per_judge_and_differs_between_judges(
    demo: Corpus, judge: User, user_factory: Callable[..., User]
) -> None:
    other = user_factory("other")
    sentences = list(demo.sentences.all())

    def orders(user: User) -> list[list[int]]:
        return [[t.pk for t in system_order(user=user, sentence=s)] for s in sentences]

    mine = orders(judge)
    assert orders(judge) == mine
    assert orders(other) != mine
    assert any(order != sorted(order) for order in mine)


def test_previous_goes_back_across_sentences(demo: Corpus, judge: User) -> None:
    second = demo.sentences.get(position=1)
    first_of_second = system_order(user=judge, sentence=second)[0]
    judgment = judgment_open(user=judge, target=first_of_second)

    previous = previous_target_for(judgment=judgment)

    assert previous == system_order(user=judge, sentence=demo.sentences.get(position=0))[-1]


def test_the_corpus_is_finished_when_every_candidate_is_done(seed: Corpus, judge: User) -> None:
    while (judgment := next_judgment_for(user=judge, corpus=seed)) is not None:
        judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=5)
        judgment_finish(judgment=judgment, user=judge, version=judgment.version)

    assert Judgment.objects.filter(evaluator=judge, state="done").count() == 2
