"""What a process remembers (``annotation/statistics/memo.py``, the one cache): each value
on a shelf, under the corpus's stamps its shelf depends on; a judgment changed through the
judge's services shows on the very next view, and a warm view reads no judgment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.changes import Stamp, judgments_changed
from annotation.dashboard import figures
from annotation.dashboard.board import dashboard_page
from annotation.dashboard.panels.judges import judges_with_controls
from annotation.dashboard.panels.meta import meta_panel
from annotation.dashboard.parts import Parts
from annotation.judging.changes import judgment_set_sser
from annotation.judging.stack import judgment_for
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, Target, User
from annotation.statistics import memo
from annotation.tests.boards import page_viewed, view_of
from annotation.tests.factories import done_judgment

pytestmark = pytest.mark.django_db


def fresh(corpus: Corpus) -> Corpus:
    """The corpus as a view loads it (its stamp as stored now)."""
    return Corpus.objects.get(pk=corpus.pk)


def judgment_queries(dash: Parts, part: Callable[[Parts], Any]) -> int:
    """How many queries of the judgment table computing ``part`` takes."""
    with CaptureQueriesContext(connection) as queries:
        dash.get(part)
    return sum('"annotation_judgment"' in q["sql"] for q in queries.captured_queries)


def test_a_second_view_reads_no_judgment(judged_hand: Corpus) -> None:
    first = page_viewed(fresh(judged_hand))
    again = view_of(fresh(judged_hand))

    assert judgment_queries(again, judges_with_controls) == 0
    assert judgment_queries(again, figures.table) == 0
    dashboard_page(again)
    assert again.get(figures.table) == first.get(figures.table)
    assert again.get(judges_with_controls) == first.get(judges_with_controls)
    assert again.get(meta_panel) == first.get(meta_panel)


def test_a_done_judgment_changed_by_its_judge_shows_on_the_next_view(
    judged_hand: Corpus,
) -> None:
    """The judge's services move the stamp in the transaction of the change."""
    before = page_viewed(fresh(judged_hand))
    stamp = before.corpus.judgments_stamp
    ann = User.objects.get(username="ann")
    judged_hand.judges.add(ann)
    done = Judgment.objects.filter(target__translator__name="one-off").first()
    assert done is not None
    loaded = judgment_for(pk=done.pk, user=ann)
    judgment_set_sser(judgment=loaded, user=ann, version=loaded.version, sser=2)

    after = page_viewed(fresh(judged_hand))

    cell = {d: d.get(figures.table).row("one-off").cell("sser").score for d in (before, after)}
    assert cell[before] == 25.0
    assert cell[after] == 40.0
    judges = {d: d.get(judges_with_controls).judges[0].mean_score for d in (before, after)}
    assert judges[after] != judges[before]
    assert fresh(judged_hand).judgments_stamp == stamp + 1


def test_a_judgment_in_progress_does_not_move_the_stamp(
    judged_hand: Corpus, user_factory: Callable[..., User]
) -> None:
    """Figures count done judgments only: opening and scoring a new one changes none."""
    bob = user_factory("bob")
    judged_hand.judges.add(bob)
    target = Target.objects.select_related("sentence__corpus", "translator").get(
        sentence__corpus=judged_hand, sentence__position=0, translator__name="bad"
    )
    opened = judgment_for(pk=judgment_open(user=bob, target=target).pk, user=bob)
    stamp = fresh(judged_hand).judgments_stamp

    judgment_set_sser(judgment=opened, user=bob, version=opened.version, sser=4)

    assert fresh(judged_hand).judgments_stamp == stamp


def test_a_key_names_the_corpus_its_creation_and_the_stamps_its_shelf_depends_on(
    judged_hand: Corpus,
) -> None:
    corpus = fresh(judged_hand)
    corpus.judgments_stamp, corpus.texts_stamp, corpus.external_stamp = 7, 3, 2

    key = memo.FIGURES.key(corpus, "human")
    assert key == memo.Key(
        memo.FIGURES,
        memo.CorpusState(
            pk=corpus.pk,
            created=corpus.created_at.isoformat(),
            depends=memo.FIGURES.depends,
            stamps=(7, 3, 2),
        ),
        ("human",),
    )
    assert memo.AUTOMATIC.key(corpus, "meta-sides").corpus == memo.CorpusState.of(
        corpus, Stamp.TEXTS
    )
    assert memo.BY_CONTENT.key(None, b"digest").corpus is None


def test_a_state_made_for_other_stamps_is_refused(judged_hand: Corpus) -> None:
    texts_only = memo.CorpusState.of(fresh(judged_hand), Stamp.TEXTS)
    with pytest.raises(ValueError, match="figures"):
        memo.FIGURES.key(texts_only, "human")


def test_a_shelf_is_bounded_and_forgets_a_corpus_s_earlier_stamps(judged_hand: Corpus) -> None:
    bounded = memo.Shelf("test", Stamp.JUDGMENTS, 3)
    corpus = fresh(judged_hand)
    for k in range(5):
        assert memo.CACHE.get_or_set(bounded.key(corpus, k), lambda k=k: k * 10) == k * 10
    computed: list[int] = []

    def compute() -> int:
        computed.append(1)
        return -1

    assert memo.CACHE.get_or_set(bounded.key(corpus, 4), compute) == 40  # the latest three
    assert memo.CACHE.get_or_set(bounded.key(corpus, 0), compute) == -1  # gone: again
    assert len(computed) == 1
    other = memo.Shelf("other", Stamp.JUDGMENTS, 3)
    memo.CACHE.put(other.key(corpus, "kept"), 1)
    memo.CACHE.put(memo.FIGURES.key(corpus, "past"), "the past")
    corpus.judgments_stamp += 1

    memo.CACHE.put(bounded.key(corpus, 9), 90)

    assert memo.CACHE.get(bounded.key(corpus, 9)) == 90
    assert memo.earlier(corpus, ("past",)) == "the past"  # built on, never shown
    corpus.judgments_stamp -= 1
    assert memo.CACHE.get(bounded.key(corpus, 4)) is None  # the earlier stamp's: dropped
    assert memo.CACHE.get(other.key(corpus, "kept")) == 1  # another shelf's: kept


def test_a_value_read_under_earlier_stamps_drops_no_later_one(judged_hand: Corpus) -> None:
    """A request that read the corpus before a judgment keeps its value, and the next
    view's (newer) stays."""
    corpus = fresh(judged_hand)
    later = fresh(judged_hand)
    later.judgments_stamp += 1
    memo.remembered(later, ("part",), lambda: "new")

    memo.remembered(corpus, ("part",), lambda: "old")

    assert memo.recalled(later, ("part",)) == "new"
    assert memo.recalled(corpus, ("part",)) == "old"


def test_one_cache_for_every_shelf_and_forget_empties_it(judged_hand: Corpus) -> None:
    corpus = fresh(judged_hand)
    memo.remembered(corpus, ("a",), lambda: None)
    memo.remembered_for_texts(corpus, ("b",), lambda: 2)
    memo.remembered_by_content(b"c", lambda: 3)
    assert memo.CACHE.get(memo.FIGURES.key(corpus, "a"), "gone") is None  # None is kept

    memo.forget()

    assert memo.recalled(corpus, ("a",)) is None
    assert memo.CACHE.get(memo.AUTOMATIC.key(corpus, "b")) is None
    assert memo.CACHE.get(memo.BY_CONTENT.key(None, b"c")) is None


def test_a_done_judgment_written_by_the_test_helper_shows_too(
    hand_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    """A test's direct writes stamp too (``done_judgment``): the helper mirrors the app."""
    page_viewed(fresh(hand_corpus))
    done_judgment(hand_corpus, user_factory("cy"), "bad", 1, sser=1, edits=4, length=4)

    dash = page_viewed(fresh(hand_corpus))

    assert dash.get(figures.n_judgments) == 1
    assert dash.get(figures.table).row("bad").cell("sser").score == 90.0


def test_what_derives_from_the_texts_alone_outlives_a_judgment_not_a_moved_word(
    judged_hand: Corpus,
) -> None:
    """Kept under the texts stamp: computed once whatever the judgments do, again once a
    candidate's text changed (the texts stamp moved)."""
    computed: list[int] = []

    def compute() -> int:
        computed.append(len(computed))
        return len(computed)

    first = memo.remembered_for_texts(fresh(judged_hand), ("part",), compute)
    judgments_changed(judged_hand.pk)
    after_a_judgment = memo.remembered_for_texts(fresh(judged_hand), ("part",), compute)
    Corpus.objects.filter(pk=judged_hand.pk).update(texts_stamp=judged_hand.texts_stamp + 1)
    after_a_moved_word = memo.remembered_for_texts(fresh(judged_hand), ("part",), compute)

    assert (first, after_a_judgment, after_a_moved_word) == (1, 1, 2)
    assert computed == [0, 1]


def test_a_value_kept_by_its_inputs_is_found_again_by_the_same_inputs_only() -> None:
    made: list[str] = []

    def compute(name: str) -> Callable[[], str]:
        return lambda: made.append(name) or name

    key = memo.content_digest("estimate", b"\x00\x01", 3, 0.5)
    assert memo.remembered_by_content(key, compute("first")) == "first"
    assert memo.remembered_by_content(key, compute("again")) == "first"
    other = memo.content_digest("estimate", b"\x00\x02", 3, 0.5)
    assert memo.remembered_by_content(other, compute("other")) == "other"
    assert made == ["first", "other"]
    # parts are kept apart: no two different sequences of parts share a digest
    assert memo.content_digest("ab", "c") != memo.content_digest("a", "bc")
    assert memo.content_digest(b"1") != memo.content_digest("1") != memo.content_digest(1)
    memo.forget()
    assert memo.remembered_by_content(key, compute("anew")) == "anew"
