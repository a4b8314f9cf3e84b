"""Moving a word across a boundary of a system imported as one document (seed 002): the
two neighbouring candidates change together, undo and redo move it back and forth, and
everything computed from the candidates follows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotation.corpora.imports import corpus_import
from annotation.corpora.systems import corpus_add_system
from annotation.judging.boundaries import ERR_CHANGED, ERR_NO_NEIGHBOUR, ERR_NOT_RESEGMENTED
from annotation.judging.changes import (
    judgment_move_word,
    judgment_redo,
    judgment_set_sser,
    judgment_undo,
)
from annotation.judging.errors import ChangeRefused, StaleJudgment
from annotation.judging.page import judging_context
from annotation.judging.severity import judgment_toggle_severity
from annotation.judging.start import judgment_open
from annotation.models import Corpus, CorpusStatistics, Judgment, Target, Translator, User
from annotation.resegmenting import entry_from_attrs, segment_entry
from annotation.statistics import (
    AUTOMATIC_METRICS,
    compute_statistics,
    corpus_texts,
    default_stored_statistics,
)
from annotation.tests.documents import unsegmented_document
from annotation.tests.factories import DEMO_XML, HTMX, sized_corpus, target_of
from annotation.tests.judging.test_queries import MAX_QUERIES_PAGE
from annotation.tests.stored import automatic_statistics
from annotation.text import new_ref_counts
from metrics.tokenize import Preprocessor

pytestmark = pytest.mark.django_db


@pytest.fixture
def speech(judge: User) -> Corpus:
    """The demo corpus with NiuTrans's output added again as one unsegmented document
    (not scored until something reads its figures)."""
    corpus = corpus_import(source=DEMO_XML, name="demo", score=False).corpus
    corpus.judges.add(judge)
    corpus_add_system(
        corpus=corpus,
        name="speech",
        lines=unsegmented_document(corpus),
        filename="speech.txt",
        unsegmented=True,
        score=False,
    )
    corpus.refresh_from_db()
    return corpus


def texts(corpus: Corpus, *positions: int) -> list[str]:
    return [target_of(corpus, "speech", k).text for k in positions]


def document(corpus: Corpus) -> list[str]:
    return " ".join(corpus_texts(corpus).systems["speech"]).split()


@pytest.mark.parametrize(
    "edge, move, expected",
    [
        ("start", "give", lambda p, c, n: (p + c[:1], c[1:], n)),
        ("start", "take", lambda p, c, n: (p[:-1], p[-1:] + c, n)),
        ("end", "give", lambda p, c, n: (p, c[:-1], c[-1:] + n)),
        ("end", "take", lambda p, c, n: (p, c + n[:1], n[1:])),
    ],
)
def test_a_word_crosses_the_boundary_and_the_document_keeps_every_word_in_order(
    speech: Corpus, judge: User, edge: str, move: str, expected: object
) -> None:
    whole = document(speech)
    before = [t.split() for t in texts(speech, 4, 5, 6)]
    judgment = judgment_open(user=judge, target=target_of(speech, "speech", 5))

    judgment_move_word(
        judgment=judgment, user=judge, version=judgment.version, edge=edge, move=move
    )

    assert [t.split() for t in texts(speech, 4, 5, 6)] == list(expected(*before))  # type: ignore[operator]
    assert document(speech) == whole


def test_undo_moves_the_word_back_and_redo_moves_it_again(speech: Corpus, judge: User) -> None:
    judgment = judgment_open(user=judge, target=target_of(speech, "speech", 5))
    before = texts(speech, 5, 6)
    judgment = judgment_move_word(
        judgment=judgment, user=judge, version=judgment.version, edge="end", move="give"
    )
    moved = texts(speech, 5, 6)

    judgment = judgment_undo(judgment=judgment, user=judge, version=judgment.version)
    assert texts(speech, 5, 6) == before
    assert judgment.target.text == before[0]

    judgment_redo(judgment=judgment, user=judge, version=judgment.version)
    assert texts(speech, 5, 6) == moved


def test_a_move_rescores_both_segments_and_forgets_what_was_computed_from_the_texts(
    speech: Corpus, judge: User
) -> None:
    automatic_statistics(speech)  # stored before the move
    assert CorpusStatistics.objects.filter(corpus=speech).exists()
    stamps = (speech.texts_stamp, speech.judgments_stamp)
    judgment = judgment_open(user=judge, target=target_of(speech, "speech", 5))

    judgment_move_word(
        judgment=judgment, user=judge, version=judgment.version, edge="end", move="take"
    )

    record = Translator.objects.get(corpus=speech, name="speech").segmentation
    refs = corpus_texts(speech).refs
    for k in (5, 6):
        assert record["segments"][k] == segment_entry(texts(speech, k)[0], refs[k])
    speech.refresh_from_db()
    assert speech.texts_stamp == stamps[0] + 1
    assert speech.judgments_stamp > stamps[1]
    stale = CorpusStatistics.objects.get(corpus=speech)  # kept, to be built on
    assert stale.texts_stamp < speech.texts_stamp
    moved = Target.objects.filter(sentence__corpus=speech, text_stamp=speech.texts_stamp)
    assert sorted(moved.values_list("sentence__position", flat=True)) == [5, 6]


def test_the_next_reader_scores_only_the_moved_candidates_with_the_figures_of_scoring_afresh(
    speech: Corpus, judge: User
) -> None:
    """Every row, score, signature and bootstrap result as scoring the whole corpus afresh
    (NIST and the weighted n-grams, whose weights are corpus-wide, score the moved system
    whole); the stale row is replaced."""
    automatic_statistics(speech)  # stored before the move, to be built on
    judgment = judgment_open(user=judge, target=target_of(speech, "speech", 5))
    judgment_move_word(
        judgment=judgment, user=judge, version=judgment.version, edge="end", move="take"
    )
    speech.refresh_from_db()

    updated = automatic_statistics(speech)
    afresh = compute_statistics(speech, Preprocessor(), "nearest")

    for m in AUTOMATIC_METRICS:
        for s in afresh.systems:
            assert updated.scores[m][s] == afresh.scores[m][s], (m, s)
            assert np.array_equal(updated.segment_stats(m, s), afresh.segment_stats(m, s)), (m, s)
    assert updated.significance == afresh.significance
    (row,) = CorpusStatistics.objects.filter(corpus=speech)
    assert row.texts_stamp == speech.texts_stamp
    assert default_stored_statistics(speech) is not None


def test_the_judgments_of_both_candidates_are_recounted_and_their_open_pages_go_stale(
    speech: Corpus, judge: User, user_factory: object
) -> None:
    other = user_factory("other")  # type: ignore[operator]
    speech.judges.add(other)
    theirs = judgment_open(user=other, target=target_of(speech, "speech", 6))
    mine = judgment_open(user=judge, target=target_of(speech, "speech", 5))

    judgment_move_word(judgment=mine, user=judge, version=mine.version, edge="end", move="give")

    fresh = Judgment.objects.get(pk=theirs.pk)
    assert fresh.version == theirs.version + 1
    assert fresh.edits == new_ref_counts(texts(speech, 6)[0], fresh.new_ref)["edits"]
    mine = Judgment.objects.get(pk=mine.pk)
    assert mine.edits == new_ref_counts(texts(speech, 5)[0], mine.new_ref)["edits"]
    with pytest.raises(StaleJudgment):
        judgment_set_sser(judgment=theirs, user=other, version=theirs.version, sser=5)


def test_a_move_is_refused_where_there_is_no_boundary_or_no_segmentation(
    speech: Corpus, judge: User
) -> None:
    first = judgment_open(user=judge, target=target_of(speech, "speech", 0))
    with pytest.raises(ChangeRefused) as refused:
        judgment_move_word(
            judgment=first, user=judge, version=first.version, edge="start", move="give"
        )
    assert refused.value.message == ERR_NO_NEIGHBOUR["start"]

    ordinary = judgment_open(user=judge, target=target_of(speech, "NiuTrans", 3))
    with pytest.raises(ChangeRefused) as refused:
        judgment_move_word(
            judgment=ordinary, user=judge, version=ordinary.version, edge="end", move="give"
        )
    assert refused.value.message == ERR_NOT_RESEGMENTED

    with pytest.raises(ChangeRefused):
        judgment_move_word(judgment=first, user=judge, version=first.version, edge="end", move="x")


def test_undo_is_refused_when_another_judge_moved_a_neighbouring_boundary_meanwhile(
    speech: Corpus, judge: User, user_factory: object
) -> None:
    other = user_factory("other")  # type: ignore[operator]
    speech.judges.add(other)
    mine = judgment_open(user=judge, target=target_of(speech, "speech", 5))
    mine = judgment_move_word(
        judgment=mine, user=judge, version=mine.version, edge="end", move="give"
    )
    theirs = judgment_open(user=other, target=target_of(speech, "speech", 7))
    judgment_move_word(
        judgment=theirs, user=other, version=theirs.version, edge="start", move="take"
    )
    after_theirs = texts(speech, 5, 6, 7)

    with pytest.raises(ChangeRefused) as refused:
        judgment_undo(judgment=mine, user=judge, version=mine.version)

    assert refused.value.message == ERR_CHANGED
    assert texts(speech, 5, 6, 7) == after_theirs
    assert Target.objects.filter(translator__name="speech").count() == 40


def move(client: Client, judgment: Judgment, edge: str, direction: str) -> HttpResponse:
    data = {
        "version": Judgment.objects.get(pk=judgment.pk).version,
        "edge": edge,
        "move": direction,
    }
    return client.post(
        reverse("annotation:judgment_change", args=[judgment.pk, "move"]), data, **HTMX
    )


def test_the_page_offers_the_moves_and_answers_a_move_with_the_moved_boundary(
    speech: Corpus, judge: User, judge_client: Client
) -> None:
    judgment = judgment_open(user=judge, target=target_of(speech, "speech", 5))
    page = judge_client.get(reverse("annotation:judgment", args=[judgment.pk])).content.decode()
    assert 'id="boundaries"' in page
    assert page.count('data-action="move-word"') == 4

    answer = move(judge_client, judgment, "end", "take")

    assert answer.status_code == 200
    moved = texts(speech, 5)[0].split()
    assert f"Give “{moved[-1]}” to the next sentence" in answer.content.decode()


def test_a_refused_move_is_a_422_with_the_reason_and_an_ordinary_system_shows_no_moves(
    speech: Corpus, judge: User, judge_client: Client
) -> None:
    first = judgment_open(user=judge, target=target_of(speech, "speech", 0))
    answer = move(judge_client, first, "start", "take")
    assert answer.status_code == 422
    assert ERR_NO_NEIGHBOUR["start"] in answer.content.decode()

    ordinary = judgment_open(user=judge, target=target_of(speech, "NiuTrans", 0))
    page = judge_client.get(reverse("annotation:judgment", args=[ordinary.pk])).content.decode()
    assert 'id="boundaries"' not in page


def resegmented_corpus(tmp_path: Path, judge: User, sentences: int) -> Corpus:
    corpus = sized_corpus(tmp_path, f"c{sentences}", sentences)
    corpus.judges.add(judge)
    document = corpus_texts(corpus).systems["system 0"]
    corpus_add_system(corpus=corpus, name="doc", lines=document, filename="d", unsegmented=True)
    return corpus


def test_the_page_and_a_move_cost_the_same_queries_on_any_corpus_size(
    tmp_path: Path, judge: User, judge_client: Client
) -> None:
    counts = []
    for sentences in (5, 50):
        corpus = resegmented_corpus(tmp_path, judge, sentences)
        judgment = judgment_open(user=judge, target=target_of(corpus, "doc", 2))
        url = reverse("annotation:judgment", args=[judgment.pk])
        with CaptureQueriesContext(connection) as page:
            judge_client.get(url)
        with CaptureQueriesContext(connection) as moved:
            assert move(judge_client, judgment, "end", "give").status_code == 200
        counts.append((len(page), len(moved)))

    assert counts[0] == counts[1]
    assert counts[0][0] <= MAX_QUERIES_PAGE + 1  # the neighbouring candidates: one query


def test_a_moved_word_clears_the_severities_and_undo_restores_them(
    speech: Corpus, judge: User
) -> None:
    """The move shifts the candidate's word positions, which name the severities."""
    judgment = judgment_open(user=judge, target=target_of(speech, "speech", 5))
    first_error = next(o for o in judging_context(judgment).ops if o.op != "match")
    judgment = judgment_toggle_severity(
        judgment=judgment, user=judge, version=judgment.version, op=first_error.token
    )
    marked = dict(judgment.severities)
    assert len(marked) == 1
    judgment = judgment_move_word(
        judgment=judgment, user=judge, version=judgment.version, edge="end", move="give"
    )
    assert Judgment.objects.get(pk=judgment.pk).severities == {}
    judgment = judgment_undo(judgment=judgment, user=judge, version=judgment.version)
    assert Judgment.objects.get(pk=judgment.pk).severities == marked


@pytest.mark.parametrize(
    "aswer, ref, expected",
    [
        ("1/4", "0", [0, 1, 4]),
        ("١/٤", "0", None),  # issue 36: Arabic-Indic digits, which Python's int reads
        ("1/4", "٠", None),
        ("1/²", "0", None),  # passes str.isdigit, breaks int
    ],
)
def test_a_segment_record_is_read_in_the_digits_0_to_9_only(
    aswer: str, ref: str, expected: list[int] | None
) -> None:
    assert entry_from_attrs([["aswer", aswer], ["aswerRef", ref]]) == expected
