"""HTER's counts are filled after the judge's clicks, never on them
(:mod:`annotation.statistics.hter`): a click leaves them empty, a worker fills those of
done judgments, and a figure read before the worker got there fills them first, so no
HTER figure ever leaves a done judgment out or counts a new reference the judge
replaced."""

from __future__ import annotations

import pytest

from annotation.judging.changes import judgment_edit_ref
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.statistics import (
    fill_hter_counts,
    human_scores,
    judgment_rows,
    missing_hter_counts,
)
from annotation.statistics.human import with_hter_counts
from annotation.tests.factories import CATS, finish, import_xml, target_of
from annotation.text import hter_counts

MOVED_BLOCK = "on the mat the cat sat ."
RIGHT = "the cat sat on the mat ."


@pytest.fixture
def cats(judge: User) -> Corpus:
    return import_xml(CATS.format(b=MOVED_BLOCK), "cats", judge)


def done(corpus: Corpus, judge: User, system: str, new_ref: str) -> Judgment:
    judgment = judgment_open(user=judge, target=target_of(corpus, system))
    finish(judgment, judge, new_ref, 5)
    return Judgment.objects.get(pk=judgment.pk)


def test_a_done_judgment_leaves_its_hter_counts_to_the_workers(cats: Corpus, judge: User) -> None:
    judgment = done(cats, judge, "sys B", RIGHT)

    assert (judgment.edits, judgment.ref_length) == (6, 7)  # aWER: at once
    assert (judgment.ter_edits, judgment.ter_length) == (None, None)
    assert missing_hter_counts() == 1


def test_a_worker_fills_the_counts_of_done_judgments_and_only_those(
    cats: Corpus, judge: User
) -> None:
    """A moved block is one HTER edit (one shift) where aWER counts six; a pending
    judgment changes again before it counts: no TER search is spent on it."""
    finished = done(cats, judge, "sys B", RIGHT)
    pending = judgment_open(user=judge, target=target_of(cats, "sys A"))
    judgment_edit_ref(judgment=pending, user=judge, version=pending.version, text=RIGHT)

    assert fill_hter_counts() == 1

    finished.refresh_from_db()
    pending.refresh_from_db()
    assert (finished.ter_edits, finished.ter_length) == (1, 7)
    assert (pending.ter_edits, pending.ter_length) == (None, None)
    assert missing_hter_counts() == 0
    assert fill_hter_counts() == 0  # nothing left: one query, no search


def test_the_figure_read_before_any_worker_counts_every_done_judgment(
    cats: Corpus, judge: User
) -> None:
    done(cats, judge, "sys B", RIGHT)
    done(cats, judge, "sys A", RIGHT)

    hter = {system: figures["hter"].score for system, figures in human_scores(cats).items()}

    assert hter["sys B"] == pytest.approx(100 * 1 / 7)
    assert hter["sys A"] == pytest.approx(100 * 2 / 7)  # a → the, twice
    assert missing_hter_counts() == 0  # and stored, for the next reader


def test_counts_of_a_new_reference_the_judge_replaced_are_never_stored(
    cats: Corpus, judge: User
) -> None:
    """A figure that read a judgment just before its judge changed the new reference
    counts the judgment as it read it, and stores nothing: the counts of the new
    reference are computed by the next fill."""
    judgment = done(cats, judge, "sys B", RIGHT)
    (read_before,) = [r._replace(ter_edits=None, ter_length=None) for r in judgment_rows(cats)]
    Judgment.objects.filter(pk=judgment.pk).update(ter_edits=None, ter_length=None)
    judgment_edit_ref(judgment=judgment, user=judge, version=judgment.version, text=MOVED_BLOCK)

    (counted,) = with_hter_counts([read_before])

    assert (counted.ter_edits, counted.ter_length) == (1, 7)  # as read: RIGHT
    judgment.refresh_from_db()
    assert (judgment.ter_edits, judgment.ter_length) == (None, None)
    assert fill_hter_counts() == 1
    judgment.refresh_from_db()
    assert (
        (judgment.ter_edits, judgment.ter_length) == (0, 7) == hter_counts(MOVED_BLOCK, MOVED_BLOCK)
    )
