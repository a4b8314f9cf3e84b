"""The human figures' tests brought up to date, not computed afresh (issue 39, point 2):
after every write a campaign makes (a judgment finished, a score changed, a judgment
taken back, a judge left out, a system added) the dashboard's paired bootstrap of the
human metrics and its clusters, computed from the tests the view before kept
(:func:`~annotation.statistics.kept_pairs`), equal a full computation to the bit, and
only what the write touched is computed again.

A seeded random sequence of writes, through the app's own services and models, on the
test database (SQLite; PostgreSQL with ``DATABASE_URL``)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from annotation.campaigns.judges import corpus_leave_out_judge
from annotation.changes import judgments_changed
from annotation.corpora.systems import corpus_add_system
from annotation.dashboard import figures
from annotation.dashboard.figures import HumanPart, judged
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.parts import Parts
from annotation.dashboard.sources import (
    bootstrap,
    human_rows,
    judgments,
    judgments_read,
    n_segments,
    systems,
)
from annotation.dashboard.table import human_significance
from annotation.dashboard.verdicts import sser_clusters
from annotation.models import Corpus, Judgment, User
from annotation.statistics import CACHE, judge_aware_figures, kept_pairs
from annotation.tests.factories import done_judgment, sized_corpus
from metrics.reuse import PairMemo
from metrics.significance import MetricSignificance

pytestmark = pytest.mark.django_db

SENTENCES = 24


def _same(kept: dict[str, MetricSignificance], full: dict[str, MetricSignificance]) -> None:
    assert list(kept) == list(full)
    for metric, found in kept.items():
        assert repr(found) == repr(full[metric]), metric  # NaN p-values equal too
        assert np.array_equal(found.samples, full[metric].samples, equal_nan=True), metric


def _view(corpus_pk: int) -> tuple[HumanPart, Parts]:
    """The table's human part as a view computes it now (the tests of the view before
    kept), and the parts it read."""
    parts = Parts(DashboardInputs(Corpus.objects.get(pk=corpus_pk)))
    return parts.get(judged), parts


def _full(parts: Parts) -> tuple[dict[str, MetricSignificance], object]:
    """The same tests and clusters computed afresh (a memo of nothing)."""
    rows, by_system = parts.get(judgments), parts.get(human_rows)
    names, n, drawn = parts.get(systems), parts.get(n_segments), parts.get(bootstrap)
    assert drawn is not None
    tests = human_significance(rows, names, n, drawn, by_system, PairMemo())
    plain = human_significance(rows, names, n, drawn, by_system)
    for metric, found in tests.items():  # and as compare computes them, to rounding
        np.testing.assert_allclose(found.p_values, plain[metric].p_values, rtol=1e-9)
        assert [f.group for f in found.figures] == [f.group for f in plain[metric].figures]
    return tests, sser_clusters(rows, names, n, memo=PairMemo())


#: The writes of a sequence, shuffled: every kind of write a campaign makes.
WRITES = ["judge"] * 12 + ["rescore"] * 4 + ["undo"] * 4 + ["system"] * 2 + ["leave out"] * 2


def _write(rng: random.Random, corpus: Corpus, judges: list[User], kind: str, step: int) -> None:
    """One write of a campaign, of ``kind`` (one of :data:`WRITES`) where it can be."""
    done = list(Judgment.objects.filter(target__sentence__corpus=corpus, state="done"))
    if kind == "rescore" and done:
        judgment = rng.choice(done)
        Judgment.objects.filter(pk=judgment.pk).update(
            sser=rng.randint(0, 10), edits=rng.randint(0, 6), ter_edits=None
        )
        judgments_changed(corpus.pk)
    elif kind == "undo" and done:
        rng.choice(done).delete()
        judgments_changed(corpus.pk)
    elif kind == "leave out":
        corpus_leave_out_judge(corpus=corpus, judge=judges[step % 2], left_out=True)
    elif kind == "system":
        lines = [f"added {step} says sentence {k} ." for k in range(SENTENCES)]
        name = f"added {step}"
        corpus_add_system(corpus=corpus, name=name, lines=lines, filename="s", unsegmented=False)
    else:
        systems_now = list(corpus.translators.filter(role="system").values_list("name", flat=True))
        _judge(rng, corpus, rng.choice(judges), rng.choice(systems_now))


def _judge(rng: random.Random, corpus: Corpus, judge: User, system: str) -> None:
    taken = set(
        Judgment.objects.filter(
            target__sentence__corpus=corpus, evaluator=judge, target__translator__name=system
        ).values_list("target__sentence__position", flat=True)
    )
    free = [k for k in range(SENTENCES) if k not in taken]
    if free:
        done_judgment(
            corpus, judge, system, rng.choice(free), sser=rng.randint(0, 10),
            edits=rng.randint(0, 6), length=6, new_ref="reference of the sentence .",
        )  # fmt: skip


def _counted(parts: Parts, memo: PairMemo) -> int:
    """How many tests the human metrics' bootstrap computes with ``memo``."""
    drawn = parts.get(bootstrap)
    assert drawn is not None
    human_significance(
        parts.get(judgments), parts.get(systems), parts.get(n_segments), drawn,
        parts.get(human_rows), memo,
    )  # fmt: skip
    return memo.computed


@pytest.mark.parametrize("seed", [0, 1])
def test_kept_tests_equal_a_full_computation_after_any_write(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    corpus = sized_corpus(tmp_path, f"incremental {seed}", SENTENCES, systems=4)
    judges = [User.objects.create_user(f"judge {i}", role=User.Role.JUDGE) for i in range(3)]
    for judge in judges:  # a campaign under way: every system judged on a few sentences
        for system in ("system 0", "system 1", "system 2", "system 3"):
            for _ in range(6):
                _judge(rng, corpus, judge, system)
    _view(corpus.pk)  # the first view: every test computed, kept for the next one
    writes = list(WRITES)
    rng.shuffle(writes)
    for step, kind in enumerate(writes):
        _write(rng, Corpus.objects.get(pk=corpus.pk), judges, kind, step)
        prior = kept_pairs(Corpus.objects.get(pk=corpus.pk), "human")  # what the view finds
        part, parts = _view(corpus.pk)
        tests, clusters = _full(parts)
        _same(part.significance, tests)
        assert repr(part.clusters) == repr(clusters)  # NaN p-values (no common sentence) too
        if kind == "judge":  # one system's tests computed again, not all
            assert _counted(parts, prior) < _counted(parts, PairMemo())


def test_one_judgment_computes_only_its_systems_tests(tmp_path: Path) -> None:
    """After one more judgment, the view computes again the tests of the judged
    system alone: its own figure and sums, and its pairs, per human metric it enters."""
    rng = random.Random(5)
    corpus = sized_corpus(tmp_path, "one more", SENTENCES, systems=4)
    judge = User.objects.create_user("judge", role=User.Role.JUDGE)
    for system in ("system 0", "system 1", "system 2", "system 3"):
        for _ in range(8):
            _judge(rng, corpus, judge, system)
    _view(corpus.pk)
    _judge(rng, corpus, judge, "system 2")
    prior = kept_pairs(Corpus.objects.get(pk=corpus.pk), "human")
    part, parts = _view(corpus.pk)
    entered = [m for m, found in part.significance.items() if found.figures[2].n]
    assert entered
    assert _counted(parts, prior) == len(entered) * (2 + 3)  # figure, sums, 3 pairs
    # the view kept what it computed: the next one computes nothing
    assert _counted(parts, kept_pairs(parts.corpus, "human")) == 0


def test_judge_aware_figures_with_each_judges_kept_sums_equal_a_full_computation(
    tmp_path: Path,
) -> None:
    """After every write, the judge-aware SSER figures the view computes with each
    judge's normalisation and sums on the resamples kept from the views before (only the
    judges whose rows changed computed again) equal those computed afresh, to the bit
    (the judges' effects too); and the view keeps every judge's for the next one."""
    rng = random.Random(3)
    corpus = sized_corpus(tmp_path, "judge-aware kept", SENTENCES, systems=4)
    judges = [User.objects.create_user(f"judge {i}", role=User.Role.JUDGE) for i in range(3)]
    for judge in judges:
        for system in ("system 0", "system 1", "system 2", "system 3"):
            for _ in range(6):
                _judge(rng, corpus, judge, system)
    writes = list(WRITES)
    rng.shuffle(writes)
    for step, kind in enumerate(["none", *writes]):
        if kind != "none":
            _write(rng, Corpus.objects.get(pk=corpus.pk), judges, kind, step)
        parts = Parts(DashboardInputs(Corpus.objects.get(pk=corpus.pk)))
        view = parts.get(figures.judge_aware)
        drawn = parts.get(bootstrap)
        assert view is not None
        assert drawn is not None
        rows, names, n = parts.get(judgments), parts.get(systems), parts.get(n_segments)
        full = judge_aware_figures(rows, names, n, drawn)
        assert repr(view.figures) == repr(full), kind  # every float as written: the same bits
        for found, want in ((view.figures.raw, full.raw), (view.figures.z, full.z)):
            assert found.samples is not None
            assert want.samples is not None
            assert found.samples.tobytes() == want.samples.tobytes(), kind
        versions = parts.get(judgments_read).versions
        resampling = (drawn.n_segments, drawn.n_samples, drawn.seed)
        for name in {r.evaluator for r in rows if r.sser is not None}:
            key = (corpus.pk, resampling, name, versions.of_judge(name))
            assert CACHE.get(figures.JUDGE_NORMALISATION.key(None, *key)) is not None
            assert CACHE.get(figures.JUDGE_EFFECT_SUMS.key(None, *key)) is not None
