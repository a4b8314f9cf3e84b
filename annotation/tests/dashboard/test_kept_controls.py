"""The judges panel's control items after a click (issue 39): each judge's control
results are kept by the version of the judge's judgments, so a view after one judge's
click reads again that judge's control items alone, and the results it shows are those
of every control item read afresh (:func:`~annotation.controls.api.corpus_controls`).

Judges walk their queues of a corpus with control items on (real judgments and control
items of every kind), through the judging services, in a seeded random order, with
scores changed on done judgments and judgments taken back between; on the test
database (SQLite; PostgreSQL with ``DATABASE_URL``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from annotation.changes import judgments_changed
from annotation.controls.api import JudgeControls, corpus_controls
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.panels.judges import control_items
from annotation.dashboard.parts import Parts
from annotation.judging.changes import judgment_set_sser
from annotation.judging.start import next_judgment_for
from annotation.models import Corpus, Judgment, User
from annotation.tests.controls.factories import queue_corpus, right_answer, with_every_kind
from annotation.tests.factories import finish

pytestmark = pytest.mark.django_db


def _shown(corpus_pk: int) -> tuple[JudgeControls, ...]:
    """The control results a dashboard view shows now."""
    return Parts(DashboardInputs(Corpus.objects.get(pk=corpus_pk))).get(control_items)


def _careless(judgment: Judgment) -> tuple[str, int]:
    return judgment.new_ref, 3


def _step(rng: random.Random, corpus: Corpus, judges: list[User], kind: str) -> None:
    """One write: a judge's next item answered (rightly or carelessly) and finished, a
    done judgment's score changed by its judge's click, or a judgment taken back."""
    judge = rng.choice(judges)
    done = list(Judgment.objects.filter(target__sentence__corpus=corpus, state="done"))
    if kind == "rescore" and done:
        judgment = rng.choice(done)
        judgment_set_sser(
            judgment=judgment, user=judgment.evaluator, version=judgment.version,
            sser=rng.randint(0, 10),
        )  # fmt: skip
    elif kind == "undo" and done:
        rng.choice(done).delete()
        judgments_changed(corpus.pk)
    elif (judgment := next_judgment_for(user=judge, corpus=corpus)) is not None:
        answer: Callable[[Judgment], tuple[str, int]] = rng.choice([right_answer, _careless])
        finish(judgment, judge, *answer(judgment))


@pytest.mark.parametrize("seed", [0, 1])
def test_kept_control_results_equal_every_control_read_afresh_after_any_write(
    tmp_path: Path, user_factory: Callable[..., User], seed: int
) -> None:
    rng = random.Random(seed)
    judges = [user_factory(f"judge {k}") for k in range(3)]
    corpus = queue_corpus(tmp_path, f"kept controls {seed}", judges, sentences=5, rate=3)
    corpus = with_every_kind(corpus, judges[0])
    writes = ["judge"] * 40 + ["rescore"] * 6 + ["undo"] * 3
    rng.shuffle(writes)
    for step, kind in enumerate(writes):
        _step(rng, Corpus.objects.get(pk=corpus.pk), judges, kind)
        fresh = corpus_controls(Corpus.objects.get(pk=corpus.pk))
        assert _shown(corpus.pk) == fresh, (step, kind)
    assert any(c.done for c in fresh)


def test_a_click_reads_again_only_the_clicking_judges_controls(
    tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """The other judges' results are the very ones the view before showed."""
    judges = [user_factory("first"), user_factory("second")]
    corpus = with_every_kind(
        queue_corpus(tmp_path, "one click", judges, sentences=5, rate=3), judges[0]
    )
    for judge in judges:
        for _ in range(12):
            judgment = next_judgment_for(user=judge, corpus=corpus)
            assert judgment is not None
            finish(judgment, judge, *right_answer(judgment))
    before = {c.name: c for c in _shown(corpus.pk)}
    assert set(before) == {"first", "second"}
    judgment = next_judgment_for(user=judges[0], corpus=corpus)
    assert judgment is not None
    finish(judgment, judges[0], *right_answer(judgment))
    after = {c.name: c for c in _shown(corpus.pk)}
    assert after["second"] is before["second"]
    assert after == {c.name: c for c in corpus_controls(Corpus.objects.get(pk=corpus.pk))}
