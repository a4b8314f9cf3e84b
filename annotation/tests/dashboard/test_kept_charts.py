"""The charts panel after a judgment (issue 39): each chart is kept by what it is drawn
from, so a view after a write draws again only the charts whose figures moved, and every
chart it shows is the one a view computing everything afresh draws, byte for byte.

A seeded random sequence of writes (judgments finished, rescored, taken back) on the
demo corpus, through the app's models, on the test database (SQLite; PostgreSQL with
``DATABASE_URL``)."""

from __future__ import annotations

import random

import pytest

from annotation.changes import judgments_changed
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.panels.charts import ChartsPanel, charts_panel
from annotation.dashboard.parts import Parts
from annotation.dashboard.sources import columns
from annotation.models import Corpus, Judgment, User
from annotation.statistics import forget
from annotation.tests.factories import done_judgment

pytestmark = pytest.mark.django_db


def _charts(corpus_pk: int) -> tuple[dict[str, str], Parts]:
    """Each chart's SVG by name as a view draws it now, and the parts it read."""
    parts = Parts(DashboardInputs(Corpus.objects.get(pk=corpus_pk)))
    panel = parts.get(charts_panel)
    assert isinstance(panel, ChartsPanel)
    return {chart.name: chart.svg for chart in panel.charts}, parts


def _write(rng: random.Random, corpus: Corpus, judges: list[User], kind: str) -> None:
    """One write: a judgment finished on a sentence its judge has not judged for that
    system, one rescored, or one taken back."""
    done = list(Judgment.objects.filter(target__sentence__corpus=corpus, state="done"))
    if kind == "rescore":
        judgment = rng.choice(done)
        Judgment.objects.filter(pk=judgment.pk).update(
            sser=rng.randint(0, 10), edits=rng.randint(0, 6), ter_edits=None
        )
        judgments_changed(corpus.pk)
    elif kind == "undo":
        rng.choice(done).delete()
        judgments_changed(corpus.pk)
    else:
        judge = rng.choice(judges)
        taken = {(j.target.translator.name, j.target.sentence.position) for j in done}
        free = [
            (system, position)
            for system in corpus.translators.filter(role="system").values_list("name", flat=True)
            for position in range(corpus.n_sentences)
            if (system, position) not in taken
        ]
        system, position = rng.choice(free)
        done_judgment(
            corpus, judge, system, position, sser=rng.randint(0, 10),
            edits=rng.randint(0, 6), length=6, new_ref="a new reference .",
        )  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1])
def test_each_kept_chart_is_the_one_drawn_afresh_after_any_write(demo: Corpus, seed: int) -> None:
    rng = random.Random(seed)
    judges = list(User.objects.filter(username__in=["ann", "bob"]))
    _charts(demo.pk)  # the first view: every chart drawn, kept for the next one
    writes = ["judge"] * 6 + ["rescore"] * 3 + ["undo"] * 3
    rng.shuffle(writes)
    for kind in writes:
        _write(rng, Corpus.objects.get(pk=demo.pk), judges, kind)
        kept, _ = _charts(demo.pk)  # the charts of the view before, where unchanged
        forget()  # nothing kept: every figure computed and every chart drawn again
        fresh, _ = _charts(demo.pk)
        assert list(kept) == list(fresh), kind
        for name, svg in kept.items():
            assert svg == fresh[name], (kind, name)


def test_a_judgment_draws_again_only_the_charts_whose_figures_moved(demo: Corpus) -> None:
    """The automatic metrics' charts (their figures do not depend on the judgments) are
    the very ones the view before drew; SSER's, whose figure moved, is drawn anew."""
    before, parts = _charts(demo.pk)
    automatic = [m for m, info in parts.get(columns).items() if not info.human]
    assert automatic
    ann = User.objects.get(username="ann")
    judged = set(
        Judgment.objects.filter(target__sentence__corpus=demo, evaluator=ann).values_list(
            "target__translator__name", "target__sentence__position"
        )
    )
    system, position = next(
        (s, p)
        for s in demo.translators.filter(role="system").values_list("name", flat=True)
        for p in range(demo.n_sentences)
        if (s, p) not in judged
    )
    done_judgment(demo, ann, system, position, sser=0, edits=6, length=6, new_ref="x y .")
    after, _ = _charts(demo.pk)
    for metric in automatic:
        assert after[metric] is before[metric], metric
    assert after["sser"] != before["sser"]
