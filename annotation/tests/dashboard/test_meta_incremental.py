"""The meta-evaluation's sentence-level Kendall τ-b brought up to date after each change
of the judgments (:mod:`annotation.dashboard.meta_sentence`): after any sequence of
writes (a new judgment, a changed score, a judgment taken back, a judge left out of the
figures or counted again) every sentence-level coefficient is the same float as counting
them all afresh, as the meta-evaluation did before it kept its counts."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from annotation.campaigns.judges import corpus_leave_out_judge
from annotation.changes import judgments_changed
from annotation.dashboard import sources
from annotation.dashboard.meta import MetaEvaluation
from annotation.dashboard.meta_human import HumanSide
from annotation.dashboard.panels.meta import meta_human_side, meta_panel
from annotation.models import Corpus, Judgment, Target, User
from annotation.statistics import AUTOMATIC_METRICS, AutomaticStats
from annotation.tests.boards import view_of
from metrics.correlation import kendall_tau_b_against, pearson
from metrics.stats import Metric

pytestmark = pytest.mark.django_db


def afresh(
    auto: AutomaticStats, metrics: dict[str, Metric], side: HumanSide
) -> dict[tuple[str, str], str]:
    """Each sentence-level (metric, figure)'s r and τ-b as the meta-evaluation counted
    them before it kept its counts: every judged candidate's sentence score from its
    own statistics row, τ-b of all the points at once."""
    index = {s: i for i, s in enumerate(auto.systems)}
    out = {}
    for h in side.metrics:
        keys = list(side.sentence[h])
        y = list(side.sentence[h].values())
        cells = ([index[s] for s, _ in keys], [k for _, k in keys])
        xs = []
        for m in AUTOMATIC_METRICS:
            every = np.stack([auto.segment_stats(m, s) for s in auto.systems])
            xs.append(np.asarray(metrics[m].sentence_score_from_stats(every[cells])))
        for m, x, tau in zip(AUTOMATIC_METRICS, xs, kendall_tau_b_against(xs, y), strict=True):
            out[m, h] = repr((pearson(x, y), tau))  # repr: NaN equals NaN, to the bit
    return out


def shown(meta: MetaEvaluation) -> dict[tuple[str, str], str]:
    return {
        (r.metric, r.human): repr((r.pearson, r.kendall))
        for r in meta.rows
        if r.level == "sentence"
    }


def _write(corpus: Corpus, judges: list[User], rng: random.Random) -> str:
    """One random write of the judgments; returns what it was."""
    done = list(Judgment.objects.of_corpus(corpus.pk).filter(state=Judgment.State.DONE))
    what = rng.choice(["new", "new", "score", "score", "taken back", "left out"])
    if what == "new":
        judge = rng.choice(judges)
        target = rng.choice(
            list(
                Target.objects.filter(sentence__corpus=corpus, translator__role="system")
                .exclude(judgments__evaluator=judge)
                .order_by("pk")
            )
        )
        Judgment.objects.create(
            target=target,
            evaluator=judge,
            sser=rng.randint(0, 10),
            new_ref=target.text,
            edits=rng.randint(0, 4),
            ref_length=8,
            ter_edits=rng.randint(0, 3),
            ter_length=8,
            ier_errors=rng.randint(0, 2),
            ier_length=3,
            state=Judgment.State.DONE,
        )
    elif what == "score":
        judgment = rng.choice(done)
        Judgment.objects.filter(pk=judgment.pk).update(
            sser=rng.randint(0, 10), edits=rng.randint(0, 4), ier_errors=rng.randint(0, 2)
        )
    elif what == "taken back":
        Judgment.objects.filter(pk=rng.choice(done).pk).update(state=Judgment.State.PENDING)
    else:
        judge = rng.choice(judges)
        left_out = not corpus.excluded_judges.filter(pk=judge.pk).exists()
        corpus_leave_out_judge(corpus=corpus, judge=judge, left_out=left_out)
        return f"{judge.username} {'left out' if left_out else 'counted again'}"
    judgments_changed(corpus.pk)
    return what


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_counts_brought_up_to_date_equal_counting_afresh(
    demo: Corpus, user_factory: Callable[..., User], seed: int
) -> None:
    """Random writes, the dashboard viewed after each (raw and normalized SSER): its
    sentence-level r and τ-b are those counted afresh, to the bit, and the τ-b counts
    were brought up to date (not counted afresh) after most writes."""
    rng = random.Random(seed)
    judges = [*User.objects.filter(username__in=["ann", "bob"]), user_factory("cat")]
    for normalize in (False, True):  # the points kept by the first views
        view_of(demo, normalize=normalize).get(meta_panel)
    brought = 0
    for step in range(10):
        what = _write(demo, judges, rng)
        corpus = Corpus.objects.get(pk=demo.pk)
        for normalize in (False, True):
            dash = view_of(corpus, normalize=normalize)
            meta = dash.get(meta_panel)
            want = afresh(
                dash.get(sources.chosen_statistics),
                dash.get(sources.metrics),
                dash.get(meta_human_side),
            )
            assert shown(meta) == want, (step, what, normalize)
        brought += _brought_up_to_date(corpus)
    assert brought >= 5


def _brought_up_to_date(corpus: Corpus) -> bool:
    """Whether the raw SSER's counts of the last view were brought up to date."""
    from annotation.dashboard.panels.meta import SENTENCE_POINTS
    from annotation.statistics import CACHE

    dash = view_of(corpus)
    key = SENTENCE_POINTS.key(corpus, dash.preprocessing.signature, False)
    return bool(CACHE.get(key)["sser"].moved >= 0)


def test_a_crowds_judgments_between_two_views_are_counted_afresh() -> None:
    """Many points moved at once (a crowd's judgments between two views of the lead)
    cost more brought up to date than counted afresh: they are counted afresh, a few
    moved ones are brought up to date, and both give the counts of counting afresh."""
    from annotation.dashboard.meta_sentence import SentenceScores, _brought_up_to_date
    from metrics.correlation import tau_counts_against

    rng = np.random.default_rng(0)
    scores = SentenceScores(rng.normal(size=(3, 20, 100)).round(1), b"the metrics' scores")
    codes = np.arange(2000, dtype=np.int64)
    y = rng.integers(0, 11, 2000).astype(np.float64)
    before = _brought_up_to_date(None, scores, codes, y)
    for moved, changed in ((10, 20), (60, -1)):  # each point moved: taken out, put back
        now_y = y.copy()
        now_y[:moved] += 1.0

        now = _brought_up_to_date(before, scores, codes, now_y)

        assert now.moved == changed
        assert now.counts == tuple(tau_counts_against(scores.of(codes), now_y))


def _every_figure(meta: MetaEvaluation) -> str:
    """Every row of the meta-evaluation, sentence and system level, intervals and
    pairwise figures included: repr, so NaN equals NaN and floats compare to the bit."""
    return repr(meta.rows)


def _in_a_fresh_process(corpus: Corpus, normalize: bool) -> tuple[MetaEvaluation, Counter[str]]:
    """The meta-evaluation as a process that remembers nothing of its own computes it
    (a server's fresh worker): this process's memory emptied, the shared store kept;
    with what each shelf computed."""
    from annotation.statistics import CACHE

    CACHE._shelves.clear()  # noqa: SLF001 (the memory of this process, not the store)
    CACHE._latest.clear()  # noqa: SLF001
    CACHE.computations.clear()
    meta = view_of(corpus, normalize=normalize).get(meta_panel)
    return meta, Counter(CACHE.computations)


@pytest.mark.django_db(transaction=True)  # the store keeps what a transaction committed
@pytest.mark.parametrize("seed", [3, 4])
def test_a_fresh_process_reads_what_the_store_keeps_and_shows_the_same_figures(
    demo: Corpus, user_factory: Callable[..., User], seed: int
) -> None:
    """Random writes; after each, a fresh process's meta-evaluation reads every
    candidate's sentence scores and the metrics' pairwise sides from the shared store
    (computes neither) and shows every figure as a cold computation does (nothing kept
    anywhere), to the bit, raw and normalized SSER."""
    from annotation.statistics import forget

    rng = random.Random(seed)
    judges = [*User.objects.filter(username__in=["ann", "bob"]), user_factory("cat")]
    for normalize in (False, True):
        view_of(demo, normalize=normalize).get(meta_panel)
    for step in range(6):
        what = _write(demo, judges, rng)
        corpus = Corpus.objects.get(pk=demo.pk)
        for normalize in (False, True):
            fresh, computed = _in_a_fresh_process(corpus, normalize)
            forget()
            cold = view_of(corpus, normalize=normalize).get(meta_panel)

            assert computed["meta-scores"] == 0, (step, what, normalize)
            assert computed["automatic"] == 0, (step, what, normalize)
            assert _every_figure(fresh) == _every_figure(cold), (step, what, normalize)
