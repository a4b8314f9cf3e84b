"""The stored statistics as a process decoded them, kept under the texts stamp
(:data:`~annotation.dashboard.sources.DECODED`, issue 39, point 2): after every write a
campaign makes, the view's statistics equal those decoded afresh from the stored row,
to the bit; a judgment leaves them (the view after it reads no stored row), a changed
text or an added system has them read (and scored) again.

A seeded random sequence of writes, through the app's own services and models, on the
test database (SQLite; PostgreSQL with ``DATABASE_URL``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.changes import candidates_changed, judgments_changed
from annotation.corpora.systems import corpus_add_system
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.parts import Parts
from annotation.dashboard.sources import original_statistics
from annotation.models import Corpus, CorpusStatistics, Judgment, Target, User
from annotation.statistics import AutomaticStats, stored_statistics
from annotation.statistics.encoding import encode_statistics
from annotation.tests.factories import done_judgment, sized_corpus

pytestmark = pytest.mark.django_db

SENTENCES = 12

#: The writes of a sequence, shuffled: judgments, and the writes that change the texts.
WRITES = ["judge"] * 8 + ["rescore"] * 3 + ["undo"] * 3 + ["text"] * 3 + ["system"] * 2


def _viewed(corpus_pk: int) -> tuple[AutomaticStats, int]:
    """The statistics a view of the dashboard reads now, and how many of its queries
    read a stored statistics row."""
    table = CorpusStatistics._meta.db_table
    parts = Parts(DashboardInputs(Corpus.objects.get(pk=corpus_pk)))
    with CaptureQueriesContext(connection) as queries:
        found = parts.get(original_statistics)
    assert isinstance(found, AutomaticStats)
    return found, sum(table in q["sql"] for q in queries.captured_queries)


def _write(rng: random.Random, corpus: Corpus, judge: User, kind: str, step: int) -> None:
    done = list(Judgment.objects.filter(target__sentence__corpus=corpus, state="done"))
    systems = list(corpus.translators.filter(role="system").values_list("name", flat=True))
    if kind == "rescore" and done:
        Judgment.objects.filter(pk=rng.choice(done).pk).update(sser=rng.randint(0, 10))
        judgments_changed(corpus.pk)
    elif kind == "undo" and done:
        rng.choice(done).delete()
        judgments_changed(corpus.pk)
    elif kind == "text":  # a word moved: one candidate's text changed
        target = rng.choice(list(Target.objects.filter(sentence__corpus=corpus)))
        Target.objects.filter(pk=target.pk).update(text=f"{target.text} moved {step}")
        candidates_changed(corpus.pk, [Target.objects.get(pk=target.pk)])
    elif kind == "system":
        lines = [f"added {step} says sentence {k} ." for k in range(SENTENCES)]
        corpus_add_system(
            corpus=corpus, name=f"added {step}", lines=lines, filename="s", unsegmented=False
        )
    else:
        taken = set(
            Judgment.objects.filter(target__sentence__corpus=corpus).values_list(
                "target__sentence__position", "target__translator__name"
            )
        )
        free = [(k, s) for k in range(SENTENCES) for s in systems if (k, s) not in taken]
        if free:
            position, system = rng.choice(free)
            done_judgment(
                corpus, judge, system, position, sser=rng.randint(0, 10), edits=2, length=6,
                new_ref="reference of the sentence .",
            )  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1])
def test_kept_statistics_equal_the_stored_row_after_any_write(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    corpus = sized_corpus(tmp_path, f"decoded {seed}", SENTENCES, systems=3)
    judge = User.objects.create_user("judge", role=User.Role.JUDGE)
    _viewed(corpus.pk)  # the first view: scored, stored, decoded and kept
    writes = list(WRITES)
    rng.shuffle(writes)
    for step, kind in enumerate(writes):
        _write(rng, Corpus.objects.get(pk=corpus.pk), judge, kind, step)
        found, reads = _viewed(corpus.pk)
        fresh = stored_statistics(Corpus.objects.get(pk=corpus.pk))
        assert fresh is not None
        assert encode_statistics(found) == encode_statistics(fresh), (step, kind)
        if kind in ("judge", "rescore", "undo"):  # the texts did not move: nothing read
            assert reads == 0, (step, kind)
        else:
            assert reads > 0, (step, kind)
