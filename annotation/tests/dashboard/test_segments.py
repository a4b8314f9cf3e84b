"""The drill-down of a system imported as one document (``annotation/dashboard/
segments.py``, seed 002): the boundaries shown are where the candidates end and begin now,
the cost is the import's record, an ordinary system has neither; the page's queries do not
grow with the corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from annotation.dashboard import sources
from annotation.dashboard.drill import DrillDown, drill_down
from annotation.dashboard.segments import page_segmentation
from annotation.models import Corpus, Target
from annotation.resegmenting import CONTEXT_WORDS
from annotation.statistics import corpus_texts
from annotation.tests.boards import view_of
from annotation.tests.documents import add_speech, candidates_of
from annotation.tests.factories import sized_corpus, system_pk

pytestmark = pytest.mark.django_db


def reader_boundary(candidates: list[str], after: int) -> tuple[tuple[str, ...], ...]:
    """The words a reader of the whole document sees on either side of the boundary after
    candidate ``after``: the last words of all candidates up to it, the first of the rest."""
    before = [w for c in candidates[: after + 1] for w in c.split()]
    rest = [w for c in candidates[after + 1 :] for w in c.split()]
    return tuple(before[max(0, len(before) - CONTEXT_WORDS) :]), tuple(rest[:CONTEXT_WORDS])


def drilled(corpus: Corpus, system: str, **kwargs: Any) -> DrillDown:
    """``system``'s drill-down on a view of ``corpus``'s dashboard."""
    dash = view_of(corpus)
    return drill_down(dash, dash.get(sources.chosen_statistics), system, **kwargs)


def set_candidate(corpus: Corpus, position: int, text: str) -> None:
    Target.objects.filter(
        sentence__corpus=corpus, sentence__position=position, translator__name="speech"
    ).update(text=text)


def test_each_sentence_shows_the_boundaries_where_its_candidate_begins_and_ends(
    demo: Corpus,
) -> None:
    speech = add_speech(demo)
    candidates = candidates_of(demo, "speech")
    refs = corpus_texts(demo).refs

    drill = drilled(demo, "speech", order="worst")

    assert len(drill.sentences) == 40
    for s in drill.sentences:
        k = s.segment
        assert s.cut is not None
        if k == 0:
            assert s.cut.start is None
        else:
            assert s.cut.start is not None
            assert s.cut.start.after_sentence == k - 1
            start = (s.cut.start.before, s.cut.start.after)
            assert start == reader_boundary(candidates, k - 1)
        if k == 39:
            assert s.cut.end is None
        else:
            assert s.cut.end is not None
            assert s.cut.end.after_sentence == k
            assert (s.cut.end.before, s.cut.end.after) == reader_boundary(candidates, k)
        ref, edits, length = speech.segmentation["segments"][k]
        assert (s.cut.reference, s.cut.edits, s.cut.length) == (refs[k][ref], edits, length)


def test_the_cost_is_the_records_sums_with_a_boundary_between_each_two_sentences(
    demo: Corpus,
) -> None:
    entries = add_speech(demo).segmentation["segments"]

    seg = drilled(demo, "speech").segmentation

    assert seg is not None
    assert seg.boundaries == 39
    assert (seg.cost.edits, seg.cost.length) == (
        sum(e[1] for e in entries),
        sum(e[2] for e in entries),
    )
    assert seg.cost.percent == pytest.approx(100 * seg.cost.edits / seg.cost.length)


def test_a_word_moved_across_a_boundary_moves_the_boundary_shown(demo: Corpus) -> None:
    add_speech(demo)
    candidates = candidates_of(demo, "speech")
    *head, last = candidates[4].split()
    set_candidate(demo, 4, " ".join(head))
    set_candidate(demo, 5, f"{last} {candidates[5]}")

    drill = drilled(demo, "speech", order="position")

    fourth, fifth = drill.sentences[4].cut, drill.sentences[5].cut
    assert fourth is not None
    assert fifth is not None
    assert fourth.end is not None
    assert fourth.end.after[0] == last
    assert fifth.start == fourth.end
    moved = (fourth.end.before, fourth.end.after)
    assert moved == reader_boundary(candidates_of(demo, "speech"), 4)
    assert moved != reader_boundary(candidates, 4)


def test_the_words_of_a_boundary_skip_empty_and_short_neighbours(demo: Corpus) -> None:
    """Sentence 10 alone on a page: its neighbours are empty or one word, so the words on
    each side come from candidates further away, as a reader of the document sees them."""
    speech = add_speech(demo)
    for position, text in ((9, ""), (8, "one"), (11, ""), (12, "")):
        set_candidate(demo, position, text)
    candidates = candidates_of(demo, "speech")
    references = {10: [("first reference", "r0"), ("multi reference", "r1")]}

    seg = page_segmentation(speech.pk, [10], 40, references)

    assert seg is not None
    cut = seg.cuts[10]
    assert cut.start is not None
    assert cut.end is not None
    assert (cut.start.before, cut.start.after) == reader_boundary(candidates, 9)
    assert cut.start.before[-1] == "one"
    assert len(cut.start.before) == CONTEXT_WORDS
    assert (cut.end.before, cut.end.after) == reader_boundary(candidates, 10)
    assert cut.end.after[0] == candidates[13].split()[0]


def test_an_ordinary_system_has_no_segmentation(demo: Corpus) -> None:
    add_speech(demo)

    drill = drilled(demo, "NiuTrans")

    assert drill.segmentation is None
    assert all(s.cut is None for s in drill.sentences)


def drill_queries(client: Client, corpus: Corpus, system: str) -> int:
    url = f"/dashboard/{corpus.pk}/system/{system_pk(corpus, system)}/?order=position"
    client.get(url)  # statistics stored, sessions warm
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_drill_downs_queries_do_not_grow_with_the_corpus(
    lead_client: Client, tmp_path: Path
) -> None:
    """Two more for a re-segmented system (its record, its neighbouring candidates), none
    for an ordinary one, at 60 and 180 sentences alike."""
    counts = []
    for size in (60, 180):
        corpus = sized_corpus(tmp_path, f"c{size}", size)
        add_speech(corpus, "system 0")
        counts.append(
            (
                drill_queries(lead_client, corpus, "system 0"),
                drill_queries(lead_client, corpus, "speech"),
            )
        )

    (ordinary, resegmented), larger = counts
    assert larger == (ordinary, resegmented)
    assert resegmented == ordinary + 2
