"""The order of work (annotation/queue_order.py, walked for a judge by
annotation/judging/order.py): the sentences in one stratified random order per corpus
(documents interleaved in proportion, sentences shuffled within each), the systems of a
sentence shuffled per judge."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import ceil, floor
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.order import next_target_for, previous_target_for, system_order
from annotation.judging.start import judgment_open, next_judgment_for
from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User
from annotation.queue_order import interleaved, queue_positions
from annotation.tests.factories import DEMO_XML, finish, write_corpus

pytestmark = pytest.mark.django_db

#: Four documents of different sizes ("b" in two places of the file) and sentences
#: without a document.
DOCS: list[str | None] = ["a"] * 12 + ["b"] * 3 + [None] * 5 + ["c"] * 7 + ["d"] + ["b"] * 2


def in_queue(docs: Sequence[str | None], *, seed: str) -> list[int]:
    """The file positions of the sentences in the order the queue gives them."""
    positions = queue_positions(docs, seed=seed)
    return sorted(range(len(docs)), key=positions.__getitem__)


def off_quota(strata: Sequence[object]) -> list[tuple[int, object]]:
    """The (prefix length, stratum) where a prefix of ``strata`` (one stratum per
    place) holds neither ⌊k·n/N⌋ nor ⌈k·n/N⌉ of a stratum of n places out of N."""
    sizes = Counter(strata)
    seen: Counter[object] = Counter()
    off = []
    for k, stratum in enumerate(strata, 1):
        seen[stratum] += 1
        for name, size in sizes.items():
            share = Fraction(k * size, len(strata))
            if not floor(share) <= seen[name] <= ceil(share):
                off.append((k, name))
    return off


# --- the order, drawn ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["news", "talks", "42"])
def test_every_prefix_of_the_queue_holds_each_document_in_proportion(seed: str) -> None:
    order = in_queue(DOCS, seed=seed)

    assert sorted(order) == list(range(len(DOCS)))
    assert off_quota([DOCS[i] for i in order]) == []


def test_the_share_holds_whatever_the_documents_sizes() -> None:
    rng = random.Random(28)
    for _ in range(300):
        sizes = [rng.choice([0, 1, 1, 2, 3, 5, 9, 17, 40]) for _ in range(rng.randint(1, 9))]

        strata = interleaved(sizes)

        assert Counter(strata) == {d: n for d, n in enumerate(sizes) if n}
        assert off_quota(strata) == [], sizes


def test_documents_of_one_size_take_turns_in_a_drawn_order() -> None:
    docs = [d for d in "pqrs" for _ in range(3)]

    turns = {seed: [docs[i] for i in in_queue(docs, seed=seed)] for seed in ("x", "y", "z")}

    for order in turns.values():
        assert order[:4] == order[4:8] == order[8:]
        assert sorted(order[:4]) == list("pqrs")
    assert len({tuple(order[:4]) for order in turns.values()}) > 1


def test_a_documents_sentences_are_shuffled_within_it() -> None:
    def sentences_of_a(seed: str) -> list[int]:
        return [i for i in in_queue(DOCS, seed=seed) if DOCS[i] == "a"]

    assert sorted(sentences_of_a("x")) == list(range(12))
    assert sentences_of_a("x") != list(range(12))
    assert sentences_of_a("x") != sentences_of_a("y")


def test_the_same_seed_draws_the_same_order() -> None:
    assert queue_positions(DOCS, seed="news") == queue_positions(DOCS, seed="news")
    assert queue_positions(DOCS, seed="news") != queue_positions(DOCS, seed="talks")


def test_a_corpus_without_documents_is_one_stratum_in_a_random_order() -> None:
    order = in_queue([None] * 10, seed="x")

    assert sorted(order) == list(range(10))
    assert order != list(range(10))
    assert queue_positions([""] * 10, seed="x") == queue_positions([None] * 10, seed="x")


def test_sentences_without_a_document_get_their_share_as_a_group() -> None:
    docs: list[str | None] = [None] * 10 + ["a"] * 10

    order = [docs[i] for i in in_queue(docs, seed="x")]

    assert all(order[k : k + 2].count(None) == 1 for k in range(0, 20, 2))


def test_a_size_below_zero_is_refused() -> None:
    with pytest.raises(ValueError, match=r"\[2, -1\]"):
        interleaved([2, -1])


# --- the judge's queue -----------------------------------------------------------------------


def finished_walk(user: User, corpus: Corpus) -> list[Target]:
    """The candidates ``user`` meets, judging each one on the way, to the corpus's end."""
    walked = []
    while (judgment := next_judgment_for(user=user, corpus=corpus)) is not None:
        walked.append(judgment.target)
        judgment_set_sser(judgment=judgment, user=user, version=judgment.version, sser=5)
        judgment_finish(judgment=judgment, user=user, version=judgment.version)
    return walked


def test_the_import_stores_the_order_drawn_with_the_corpus_name(
    documents: Callable[[list[str | None]], Corpus],
) -> None:
    corpus = documents(DOCS)

    stored = corpus.sentences.order_by("position").values_list("queue_position", flat=True)

    assert list(stored) == queue_positions(DOCS, seed=corpus.name)


def test_a_judge_meets_the_documents_interleaved_and_each_in_proportion(
    documents: Callable[[list[str | None]], Corpus], judge: User
) -> None:
    corpus = documents(DOCS)  # one candidate a sentence

    walked = finished_walk(judge, corpus)

    assert [t.sentence.position for t in walked] == in_queue(DOCS, seed=corpus.name)
    assert off_quota([t.sentence.doc for t in walked]) == []


def test_every_judge_meets_the_sentences_in_the_same_order(
    documents: Callable[[list[str | None]], Corpus], judge: User, user_factory: Callable[..., User]
) -> None:
    corpus = documents(DOCS)
    other = user_factory("other")
    corpus.judges.add(other)

    mine = [t.sentence_id for t in finished_walk(judge, corpus)]

    assert [t.sentence_id for t in finished_walk(other, corpus)] == mine


def test_a_campaign_stopped_anywhere_has_judged_a_stratified_prefix(
    documents: Callable[[list[str | None]], Corpus], judge: User, user_factory: Callable[..., User]
) -> None:
    corpus = documents(DOCS)
    slow = user_factory("slow")
    corpus.judges.add(slow)
    for user, sentences in ((judge, 11), (slow, 4)):
        for _ in range(sentences):
            judgment = next_judgment_for(user=user, corpus=corpus)
            assert judgment is not None
            finish(judgment, user, judgment.target.text, 5)

    judged = Sentence.objects.filter(targets__judgments__state="done", corpus=corpus).distinct()

    queue = in_queue(DOCS, seed=corpus.name)
    assert sorted(s.position for s in judged) == sorted(queue[:11])
    shares = Counter(s.doc for s in judged)
    assert all(abs(shares[d] - 11 * n / len(DOCS)) < 1 for d, n in Counter(DOCS).items())


@pytest.fixture
def demo(judge: User) -> Corpus:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus  # one talk, five systems
    corpus.judges.add(judge)
    return corpus


def test_work_goes_sentence_by_sentence_in_the_judges_order(demo: Corpus, judge: User) -> None:
    walked = []
    for _ in range(12):
        target = next_target_for(user=judge, corpus=demo)
        assert next_target_for(user=judge, corpus=demo) == target  # the same on each visit
        walked.append(target)
        finish(judgment_open(user=judge, target=target), judge, target.text, 10)

    first, second, third = demo.sentences.order_by("queue_position")[:3]
    assert [t.sentence for t in walked] == [first] * 5 + [second] * 5 + [third] * 2
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


def test_previous_goes_back_along_the_queue(demo: Corpus, judge: User) -> None:
    first, second = demo.sentences.order_by("queue_position")[:2]
    judgment = judgment_open(user=judge, target=system_order(user=judge, sentence=second)[0])

    previous = previous_target_for(judgment=judgment)

    assert previous == system_order(user=judge, sentence=first)[-1]


def test_previous_at_the_queues_first_candidate_is_none(demo: Corpus, judge: User) -> None:
    first = demo.sentences.get(queue_position=0)
    judgment = judgment_open(user=judge, target=system_order(user=judge, sentence=first)[0])

    assert previous_target_for(judgment=judgment) is None


def test_the_corpus_is_finished_when_every_candidate_is_done(seed: Corpus, judge: User) -> None:
    while (judgment := next_judgment_for(user=judge, corpus=seed)) is not None:
        judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=5)
        judgment_finish(judgment=judgment, user=judge, version=judgment.version)

    assert Judgment.objects.filter(evaluator=judge, state="done").count() == 2


# --- its cost ------------------------------------------------------------------------------


def half_judged(tmp_path: Path, judge: User, sentences: int) -> Corpus:
    """A corpus of ``sentences`` sentences in documents of five and two systems, whose
    queue's first half ``judge`` has judged."""
    refs = [[f"reference of sentence {k} ."] for k in range(sentences)]
    hyps = {f"system {s}": [f"system {s} on {k} ." for k in range(sentences)] for s in range(2)}
    docs = [f"doc {k // 5}" for k in range(sentences)]
    path = write_corpus(tmp_path / f"{sentences}.xml", refs, hyps, docs=docs)
    corpus = corpus_import(source=path, name=path.stem, score=False).corpus
    corpus.judges.add(judge)
    first_half = Target.objects.filter(
        sentence__corpus=corpus,
        sentence__queue_position__lt=sentences // 2,
        translator__role=Translator.Role.SYSTEM,
    )
    Judgment.objects.bulk_create(
        Judgment(target=t, evaluator=judge, state=Judgment.State.DONE, sser=5) for t in first_half
    )
    return corpus


def test_next_and_previous_cost_the_same_queries_on_any_corpus_size(
    tmp_path: Path, judge: User
) -> None:
    counts = []
    for size in (10, 120):
        corpus = half_judged(tmp_path, judge, size)
        with CaptureQueriesContext(connection) as next_queries:
            target = next_target_for(user=judge, corpus=corpus)
        assert target is not None
        assert target.sentence.queue_position == size // 2
        judgment = judgment_open(
            user=judge, target=system_order(user=judge, sentence=target.sentence)[0]
        )
        with CaptureQueriesContext(connection) as previous_queries:
            previous = previous_target_for(judgment=judgment)
        assert previous is not None
        assert previous.sentence == Sentence.objects.get(
            corpus=corpus, queue_position=size // 2 - 1
        )
        counts.append((len(next_queries), len(previous_queries)))

    assert counts[0] == counts[1]
    assert counts[0][0] == 2
