"""The estimates brought up to date, not computed afresh (issue 39): a view after a write
takes the estimates and rank tests of the systems the write left unchanged from the
view before (:attr:`~annotation.dashboard.estimates.Estimates.by_inputs`, by the digest
of their inputs) and its covariates as kept, and equals a full computation in a fresh
process after any sequence of writes: judgments added, edited and deleted, and an
imported metric's scores (a covariate) imported again.

A seeded random sequence of writes, through the app's own services and models, on the
test database (SQLite; PostgreSQL with ``DATABASE_URL``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from annotation.changes import judgments_changed
from annotation.dashboard import figures
from annotation.dashboard.estimates import Estimates
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.parts import Parts
from annotation.dashboard.sources import human_rows, n_segments
from annotation.judging.changes import judgment_set_sser
from annotation.models import Corpus, Judgment, User
from annotation.statistics import CACHE, forget, segment_rows
from annotation.tests.dashboard.test_estimates import COMET, EDITS, LENGTH, REFS, corpus_in
from annotation.tests.factories import done_judgment
from annotation.tests.imported import import_scores
from metrics.significance import rows_by_segment

pytestmark = pytest.mark.django_db

#: The writes of a sequence, shuffled.
WRITES = ["add"] * 6 + ["edit"] * 6 + ["delete"] * 4 + ["import"] * 2


def _estimates(corpus_pk: int) -> Estimates:
    found = Parts(DashboardInputs(Corpus.objects.get(pk=corpus_pk))).get(figures.estimates)
    assert isinstance(found, Estimates)
    return found


def _write(rng: random.Random, corpus: Corpus, judge: User, kind: str, step: int) -> str:
    """One write of ``kind``; the system it changed ("" for every system)."""
    done = list(Judgment.objects.filter(target__sentence__corpus=corpus, state="done"))
    judgment = rng.choice(done)
    system = judgment.target.translator.name
    if kind == "edit":
        sser = (judgment.sser + rng.randint(1, 10)) % 11
        judgment_set_sser(judgment=judgment, user=judgment.evaluator, version=judgment.version,
                          sser=sser)  # fmt: skip
    elif kind == "delete":
        judgment.delete()
        judgments_changed(corpus.pk)
    elif kind == "import":
        scores = {s: [v + 0.001 * step for v in values] for s, values in COMET.items()}
        import_scores(corpus, "COMET", scores, replace=step > 0)
        return ""
    else:
        taken = set(
            Judgment.objects.filter(
                target__sentence__corpus=corpus, evaluator=judge, target__translator__name=system
            ).values_list("target__sentence__position", flat=True)
        )
        free = [k for k in range(len(REFS)) if k not in taken]
        k = rng.choice(free)
        done_judgment(corpus, judge, system, k, sser=rng.randint(0, 10),
                      edits=EDITS[system][k], length=LENGTH, new_ref=REFS[k])  # fmt: skip
    return system


@pytest.mark.parametrize("seed", [0, 1])
def test_kept_estimates_equal_a_full_computation_after_any_write(
    tmp_path: Path, user_factory: Callable[..., User], seed: int
) -> None:
    rng = random.Random(seed)
    ann, other = user_factory("ann"), user_factory("other")
    corpus = corpus_in(tmp_path, ann, name=f"kept {seed}")
    import_scores(corpus, "COMET", COMET)
    _estimates(corpus.pk)  # the first view: every estimate computed, kept for the next one
    writes = list(WRITES)
    rng.shuffle(writes)
    for step, kind in enumerate(writes):
        changed = _write(rng, Corpus.objects.get(pk=corpus.pk), other, kind, step)
        computed = CACHE.computations["by-content"]
        kept = _estimates(corpus.pk)
        computed = CACHE.computations["by-content"] - computed
        forget()  # a fresh process: nothing kept, in its memory or the shared store
        full = _estimates(corpus.pk)
        assert repr(kept) == repr(full), kind  # every figure as written: the same bits
        assert kept.by_inputs.keys() == full.by_inputs.keys(), kind
        if changed:  # the changed system's estimates and tests alone computed again
            assert computed < CACHE.computations["by-content"], kind  # the full computation's


def test_a_view_after_one_judgment_computes_its_systems_estimates_alone(
    tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """After one more SSER score, the next view computes again the judged system's
    estimates and the rank tests it enters, nothing of the other systems: the others are
    taken from the view before, without a look-up in the shared store."""
    ann = user_factory("ann")
    corpus = corpus_in(tmp_path, ann, name="one more")
    before = _estimates(corpus.pk)
    judgment = Judgment.objects.get(
        target__sentence__corpus=corpus, target__translator__name="fair",
        target__sentence__position=0,
    )  # fmt: skip
    judgment_set_sser(judgment=judgment, user=ann, version=judgment.version, sser=0)
    computed, found = CACHE.computations["by-content"], CACHE.shared.counts["found"]
    after = _estimates(corpus.pk)
    assert CACHE.shared.counts["found"] == found  # nothing read back from the store
    fresh = CACHE.computations["by-content"] - computed
    assert 0 < fresh < len(before.by_inputs) / 2
    for m in after.metrics:
        for e in m.systems:
            if e.system != "fair":
                was = before.get(m.metric, e.system)
                assert was is not None
                assert e.found is was.found  # the very value of the view before


def test_each_systems_rows_by_sentence_are_counted_once_and_always_afresh(
    tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    """A view counts each system's rows by sentence once for the table, the estimates
    and the meta-evaluation (:func:`~annotation.statistics.segment_rows`), and later
    views those of the systems whose rows were read again: after any write, what it
    gives is what counting the view's rows afresh gives, to the bit."""
    rng = random.Random(7)
    ann, other = user_factory("ann"), user_factory("other")
    corpus = corpus_in(tmp_path, ann, name="rows by sentence")
    writes = [w for w in WRITES if w != "import"]
    rng.shuffle(writes)
    for step, kind in enumerate(["none", *writes]):
        if kind != "none":
            _write(rng, Corpus.objects.get(pk=corpus.pk), other, kind, step)
        parts = Parts(DashboardInputs(Corpus.objects.get(pk=corpus.pk)))
        parts.get(figures.estimates)
        n = parts.get(n_segments)
        for system, mine in parts.get(human_rows).items():
            for metric, found in mine.items():
                stats, mask = segment_rows(found, n)
                fresh_stats, fresh_mask = rows_by_segment(found[1], found[0], n)
                assert stats.tobytes() == fresh_stats.tobytes(), (kind, system, metric)
                assert mask.tobytes() == fresh_mask.tobytes(), (kind, system, metric)
                assert segment_rows(found, n)[0] is stats  # counted once
