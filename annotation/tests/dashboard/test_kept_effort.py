"""The effort panel after a click (issue 39): each system's minutes and each judge's pace
are kept by the version of their judgments, so a view after one judgment sums the judged
system's and the clicking judge's alone, and the panel it shows is the one summed afresh
from every judgment, to the bit.

A seeded random sequence of every write a campaign makes (the sequence of
``test_incremental.py``), on the test database (SQLite; PostgreSQL with
``DATABASE_URL``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from annotation.changes import judgments_changed
from annotation.dashboard.effort import Effort, effort
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.panels.effort import effort_panel
from annotation.dashboard.parts import Parts
from annotation.dashboard.sources import judgments, systems
from annotation.judging.changes import judgment_set_sser
from annotation.judging.start import next_judgment_for
from annotation.models import Corpus, Judgment, User
from annotation.tests.dashboard.test_incremental import WRITES, _judge, _write
from annotation.tests.factories import finish, sized_corpus

pytestmark = pytest.mark.django_db

SYSTEMS = ("system 0", "system 1", "system 2", "system 3")


def _shown(corpus_pk: int) -> tuple[Effort, Effort]:
    """The effort panel a view shows now, and the same summed afresh from its rows."""
    parts = Parts(DashboardInputs(Corpus.objects.get(pk=corpus_pk)))
    shown = parts.get(effort_panel)
    fresh = effort(parts.get(judgments), parts.get(systems), parts.corpus.protocol)
    return shown, fresh


def _timed(corpus: Corpus, rng: random.Random) -> None:
    """Give every done judgment an active time (and some an IER share) of its own."""
    for pk in Judgment.objects.filter(target__sentence__corpus=corpus).values_list("pk", flat=True):
        Judgment.objects.filter(pk=pk).update(
            active_seconds=rng.uniform(1, 90), ier_seconds=rng.choice([0.0, rng.uniform(0, 5)])
        )
    judgments_changed(corpus.pk)


def _click(rng: random.Random, corpus: Corpus, judges: list[User]) -> None:
    """A judge's click: a done judgment's score changed, or the judge's next candidate
    judged and finished, through the judging services (its active time counted)."""
    judge = rng.choice(judges)
    if rng.random() < 0.5 and (judgment := next_judgment_for(user=judge, corpus=corpus)):
        finish(judgment, judge, "a new reference .", rng.randint(0, 10))
        return
    mine = list(Judgment.objects.filter(target__sentence__corpus=corpus, state="done"))
    judgment = rng.choice(mine)
    judgment_set_sser(
        judgment=judgment, user=judgment.evaluator, version=judgment.version,
        sser=rng.randint(0, 10),
    )  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1])
def test_the_kept_effort_equals_every_judgment_summed_afresh_after_any_write(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    corpus = sized_corpus(tmp_path, f"effort {seed}", 24, systems=4)
    judges = [User.objects.create_user(f"judge {i}", role=User.Role.JUDGE) for i in range(3)]
    for judge in judges:
        for system in SYSTEMS:
            for _ in range(4):
                _judge(rng, corpus, judge, system)
    _timed(corpus, rng)
    writes = list(WRITES) + ["click"] * 24
    rng.shuffle(writes)
    for step, kind in enumerate(["none", *writes]):
        if kind == "click":
            _click(rng, Corpus.objects.get(pk=corpus.pk), judges)
        elif kind != "none":
            _write(rng, Corpus.objects.get(pk=corpus.pk), judges, kind, step)
            if kind == "rescore":
                _timed(corpus, rng)
        shown, fresh = _shown(corpus.pk)
        assert repr(shown) == repr(fresh), (step, kind)  # every float as written: the bits


def test_a_click_sums_again_only_its_systems_and_its_judges_effort(tmp_path: Path) -> None:
    """After a judge's click on a done judgment, the other systems' and judges' figures
    are the very ones the view before showed."""
    rng = random.Random(4)
    corpus = sized_corpus(tmp_path, "effort one more", 24, systems=4)
    judges = [User.objects.create_user(f"judge {i}", role=User.Role.JUDGE) for i in range(2)]
    for judge in judges:
        for system in SYSTEMS:
            for _ in range(4):
                _judge(rng, corpus, judge, system)
    before, _ = _shown(corpus.pk)
    clicked = Judgment.objects.filter(
        target__sentence__corpus=corpus, evaluator=judges[0], target__translator__name="system 2"
    ).first()
    assert clicked is not None
    judgment_set_sser(judgment=clicked, user=judges[0], version=clicked.version, sser=9)
    after, fresh = _shown(corpus.pk)
    assert repr(after) == repr(fresh)
    was = {row.system: row for row in before.systems}
    for row in after.systems:
        assert (row is was[row.system]) == (row.system != "system 2"), row.system
    assert after.judges[0] is not before.judges[0]
    assert after.judges[1] is before.judges[1]
