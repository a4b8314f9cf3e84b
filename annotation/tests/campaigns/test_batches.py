"""The planning of a corpus's batches (:mod:`annotation.campaigns.batches`), over many
random corpora: documents of random lengths (some sentences without a document),
sentences of random candidate counts, any batch size, 1–3 annotators per item, any
overlap share."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotation.campaigns.batches import (
    Batch,
    PlannedTask,
    SentenceSize,
    dealing_order,
    documents,
    overlap_count,
    overlap_items,
    plan_batches,
    plan_tasks,
)

#: Many examples: these are plain functions, a few milliseconds each.
MANY = settings(max_examples=300, deadline=None, derandomize=True, database=None)


@st.composite
def corpora(draw: st.DrawFn, *, equal: bool = False) -> list[SentenceSize]:
    """Sentences in file order: documents of 1–40 sentences (a run without a document
    now and then), each sentence of 1–25 candidates (the same count everywhere if
    ``equal``, as a corpus where every system translated every sentence)."""
    sizes = draw(st.lists(st.integers(1, 40), min_size=1, max_size=12))
    without = draw(st.sets(st.integers(0, len(sizes) - 1), max_size=2))
    if equal:
        counts = [draw(st.integers(1, 25))] * sum(sizes)
    else:
        counts = draw(st.lists(st.integers(1, 25), min_size=sum(sizes), max_size=sum(sizes)))
    docs = [None if d in without else f"doc {d}" for d, n in enumerate(sizes) for _ in range(n)]
    return [SentenceSize(p, doc, n) for p, (doc, n) in enumerate(zip(docs, counts, strict=True))]


batch_sizes = st.integers(1, 300)


def pieces_of_long_documents(
    sentences: list[SentenceSize], batches: list[Batch], batch_size: int
) -> dict[int, list[Batch]]:
    """Per document longer than ``batch_size`` (its index), the batches it was cut in."""
    where = {s.position: b for b in batches for s in b.sentences}
    cut = {}
    for d, document in enumerate(documents(sentences)):
        if sum(s.candidates for s in document) > batch_size and len(document) > 1:
            cut[d] = sorted({where[s.position].number for s in document})
    return {d: [batches[b] for b in numbers] for d, numbers in cut.items()}


@MANY
@given(sentences=corpora(), batch_size=batch_sizes)
def test_batches_are_whole_sentences_in_file_order_and_fit_their_size(
    sentences: list[SentenceSize], batch_size: int
) -> None:
    batches = plan_batches(sentences, batch_size)

    assert [s for b in batches for s in b.sentences] == sentences
    assert [b.number for b in batches] == list(range(len(batches)))
    for b in batches:
        assert b.sentences
        assert b.size <= batch_size or len(b.sentences) == 1
        assert (b.start, b.end) == (b.sentences[0].position, b.sentences[-1].position + 1)


@MANY
@given(sentences=corpora(), batch_size=batch_sizes)
def test_a_document_that_fits_a_batch_is_never_cut_and_a_longer_one_is_cut_alone(
    sentences: list[SentenceSize], batch_size: int
) -> None:
    batches = plan_batches(sentences, batch_size)
    where = {s.position: b.number for b in batches for s in b.sentences}
    long_ones = pieces_of_long_documents(sentences, batches, batch_size)

    for d, document in enumerate(documents(sentences)):
        if d not in long_ones:
            assert len({where[s.position] for s in document}) == 1
        else:  # its pieces hold nothing else, and follow each other
            pieces = long_ones[d]
            assert sum(len(b.sentences) for b in pieces) == len(document)
            numbers = [b.number for b in pieces]
            assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))


@MANY
@given(sentences=corpora(), batch_size=batch_sizes)
def test_documents_are_packed_while_they_fit(
    sentences: list[SentenceSize], batch_size: int
) -> None:
    """Greedy in file order: a batch of whole documents is closed only when the next
    document would not fit in it."""
    batches = plan_batches(sentences, batch_size)
    cut = {
        b.number
        for pieces in pieces_of_long_documents(sentences, batches, batch_size).values()
        for b in pieces
    }

    for before, after in zip(batches, batches[1:], strict=False):
        if before.number in cut or after.number in cut:
            continue
        first_document = documents(list(after.sentences))[0]
        assert before.size + sum(s.candidates for s in first_document) > batch_size


@MANY
@given(sentences=corpora(equal=True), batch_size=batch_sizes)
def test_a_long_document_is_cut_in_as_few_pieces_as_fit_as_even_as_sentences_allow(
    sentences: list[SentenceSize], batch_size: int
) -> None:
    batches = plan_batches(sentences, batch_size)
    per_sentence = sentences[0].candidates
    fit = max(1, batch_size // per_sentence)  # sentences a piece can hold

    for d, pieces in pieces_of_long_documents(sentences, batches, batch_size).items():
        lengths = [len(b.sentences) for b in pieces]
        assert len(pieces) == math.ceil(sum(lengths) / fit), d
        assert max(lengths) - min(lengths) <= 1


def test_a_corpus_without_documents_is_one_document_cut_evenly() -> None:
    sentences = [SentenceSize(p, None, 3) for p in range(25)]

    batches = plan_batches(sentences, 30)  # 10 sentences a batch at most: 3 batches

    assert [len(b.sentences) for b in batches] == [8, 9, 8]


@MANY
@given(n=st.integers(0, 200), seed=st.text(max_size=20))
def test_the_dealing_order_is_a_permutation_drawn_from_the_corpus_name(n: int, seed: str) -> None:
    order = dealing_order(n, seed=seed)

    assert sorted(order) == list(range(n))
    assert dealing_order(n, seed=seed) == order


def test_the_dealing_order_differs_between_corpora() -> None:
    assert dealing_order(30, seed="wmt de-en") != dealing_order(30, seed="wmt en-de")
    assert dealing_order(30, seed="wmt de-en") != list(range(30))


@MANY
@given(
    sentences=corpora(),
    batch_size=batch_sizes,
    percent=st.integers(0, 100),
    seed=st.text(max_size=10),
)
def test_the_overlap_of_a_batch_is_its_share_whole_sentences_first(
    sentences: list[SentenceSize], batch_size: int, percent: int, seed: str
) -> None:
    for batch in plan_batches(sentences, batch_size):
        items = overlap_items(batch, percent, seed=seed)

        assert abs(len(items) - round(percent / 100 * batch.size)) <= 1
        assert len(items) == overlap_count(batch.size, percent)
        assert len(set(items)) == len(items)
        sizes = {s.position: s.candidates for s in batch.sentences}
        assert all(p in sizes and 0 <= k < sizes[p] for p, k in items)
        taken = Counter(p for p, _ in items)
        assert sum(n < sizes[p] for p, n in taken.items()) <= 1  # one sentence in part at most
        assert overlap_items(batch, percent, seed=seed) == items


@st.composite
def plans(draw: st.DrawFn) -> tuple[list[SentenceSize], int, int, list[PlannedTask]]:
    sentences = draw(corpora())
    k = draw(st.integers(1, 3))
    percent = draw(st.integers(0, 100))
    tasks = plan_tasks(
        sentences,
        batch_size=draw(batch_sizes),
        judges_per_item=k,
        overlap_percent=percent,
        seed=draw(st.text(max_size=10)),
    )
    return sentences, k, percent, tasks


def items_of(task: PlannedTask, sentences: list[SentenceSize]) -> list[tuple[int, int]]:
    """The items a planned task holds: its batch's and its overlap's."""
    own = [
        (s.position, c)
        for s in sentences
        if task.batch is not None and task.start <= s.position < task.end
        for c in range(s.candidates)
    ]
    return own + list(task.extra)


@MANY
@given(plan=plans())
def test_every_item_is_planned_as_often_as_the_rules_say(
    plan: tuple[list[SentenceSize], int, int, list[PlannedTask]],
) -> None:
    """k times each; with one annotator per item, twice for the overlap's items."""
    sentences, k, percent, tasks = plan
    times = Counter(item for t in tasks for item in items_of(t, sentences))
    overlap = {item for t in tasks for item in t.extra}

    for s in sentences:
        for c in range(s.candidates):
            assert times[(s.position, c)] == (2 if (s.position, c) in overlap else k)
    assert not overlap or (k == 1 and percent > 0)
    assert all(t.size == len(items_of(t, sentences)) for t in tasks)


@MANY
@given(plan=plans())
def test_tasks_follow_the_dealing_order_with_copies_together_and_overlap_on_the_next(
    plan: tuple[list[SentenceSize], int, int, list[PlannedTask]],
) -> None:
    _, k, _, tasks = plan
    assert [t.order for t in tasks] == list(range(len(tasks)))
    with_batch = [t for t in tasks if t.batch is not None]
    for i in range(0, len(with_batch), k):
        copies = with_batch[i : i + k]
        assert {t.batch for t in copies} == {copies[0].batch}
        assert [t.copy for t in copies] == list(range(k))
    if k == 1 and len(with_batch) > 1:
        for i, t in enumerate(with_batch):
            if t.extra:
                assert t.extra_batch == with_batch[i - 1].batch  # the previous (cyclic)
    extras_only = [t for t in tasks if t.batch is None]
    assert len(extras_only) <= 1
    if extras_only:
        assert len(with_batch) == 1
        assert extras_only[0].extra_batch == 0


def test_a_corpus_of_one_batch_gets_a_task_of_its_overlap_alone() -> None:
    sentences = [SentenceSize(p, "d", 4) for p in range(5)]

    tasks = plan_tasks(sentences, batch_size=100, judges_per_item=1, overlap_percent=10, seed="x")

    assert [(t.batch, t.copy, t.order, t.extra_batch, t.size) for t in tasks] == [
        (0, 0, 0, None, 20),
        (None, 0, 1, 0, 2),
    ]


@pytest.mark.parametrize("k, percent", [(0, 10), (4, 10)])
def test_annotators_per_item_beyond_one_to_three_are_refused(k: int, percent: int) -> None:
    with pytest.raises(ValueError, match="1, 2 or 3"):
        plan_tasks([], batch_size=10, judges_per_item=k, overlap_percent=percent, seed="x")
