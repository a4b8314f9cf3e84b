"""What a corpus dealt adaptively recorded, read as :mod:`metrics.adaptive` reads it: its
batches (each a run of sentences, every system judged on them), its rounds (each batch's
chance of being drawn in each, and which were), the judged sentence scores of one human
metric per system, and the automatic and imported scores as covariates.

A few queries whatever the corpus's size: its tasks, its rounds, and what the
dashboard's estimates read (the judgments, the stored statistics, the imported metrics,
the sentences' documents), or those figures when the caller has them already.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from annotation.dashboard.estimates import Covariates, JudgedScores, covariate_scores, judged_scores
from annotation.dashboard.preprocessing import Preprocessing, metric_objects
from annotation.models import Corpus, DealingRound, Task, Translator
from annotation.statistics import (
    HUMAN_METRICS,
    external_metrics,
    human_rows_by_system,
    judgment_rows,
    sentence_documents,
    stored_statistics,
)
from metrics.adaptive import DealtRound
from metrics.correlation import IntArray
from metrics.stats import FloatArray
from metrics.strata import document_codes


@dataclass(frozen=True)
class Batch:
    """A batch of a corpus: its number, its sentences (file positions) and its
    candidates (what dealing it costs, one annotator's share)."""

    number: int
    segments: IntArray
    candidates: int


@dataclass(frozen=True, eq=False)
class Design:
    """A corpus's adaptive dealing as recorded, with its judged scores: ``human`` (the
    ``systems`` × sentences scores of ``metric``, NaN where not judged), ``covariates``
    (systems × sentences × ``covariate_names``), the batches by number, the rounds in
    order (:class:`metrics.adaptive.DealtRound`), the batches drawn in any round and
    the sentences' document codes (None: fewer than two documents)."""

    systems: tuple[str, ...]
    metric: str | None
    human: FloatArray
    covariates: FloatArray
    covariate_names: tuple[str, ...]
    batches: dict[int, Batch]
    rounds: tuple[DealtRound, ...]
    drawn: frozenset[int]
    codes: IntArray | None = None
    open_pairs: tuple[tuple[str, str], ...] = field(default=())

    @property
    def size(self) -> int:
        return int(self.human.shape[1])

    @property
    def clusters(self) -> IntArray:
        """Each sentence's batch (the draws' unit: a batch's sentences are drawn
        together); a sentence in no batch its own, numbered below 0."""
        out = -1 - np.arange(self.size, dtype=np.int64)
        for number, batch in self.batches.items():
            out[batch.segments] = number
        return out

    @property
    def left(self) -> list[Batch]:
        """The batches no round has drawn yet, by number."""
        return [b for n, b in sorted(self.batches.items()) if n not in self.drawn]


def policy_metric(judged: JudgedScores) -> str | None:
    """The human metric the policy and the weighted estimates follow: the first of
    :data:`~annotation.statistics.HUMAN_METRICS` (SSER first) with a judged score."""
    for metric in HUMAN_METRICS:
        scores = judged.scores.get(metric, {})
        if any(np.any(~np.isnan(y)) for y in scores.values()):
            return metric
    return None


def corpus_judged(corpus: Corpus) -> JudgedScores:
    """The judged sentence scores of ``corpus`` (the dashboard's rule), read afresh."""
    by_system = human_rows_by_system(judgment_rows(corpus))
    return judged_scores(by_system, corpus.n_sentences, sentence_documents(corpus))


def corpus_covariates(corpus: Corpus) -> Covariates | None:
    """The estimates' covariates of ``corpus`` from its stored statistics of the default
    choice and its imported metrics; None while the statistics are not stored."""
    auto = stored_statistics(corpus)
    if auto is None:
        return None
    return covariate_scores(
        auto, metric_objects(Preprocessing.for_corpus(corpus)), external_metrics(corpus)
    )


def corpus_systems(corpus: Corpus) -> tuple[str, ...]:
    """The corpus's MT systems in its order (one query)."""
    rows = corpus.translators.filter(role=Translator.Role.SYSTEM).order_by("position")
    return tuple(rows.values_list("name", flat=True))


def read_design(
    corpus: Corpus,
    *,
    systems: Sequence[str] | None = None,
    judged: JudgedScores | None = None,
    covariates: Covariates | None = None,
) -> Design:
    """``corpus``'s :class:`Design`; the figures the caller has (the dashboard's) are
    used, the others read. Covariates that some system lacks on some sentence are left
    out for all (the policy compares systems on the same covariates)."""
    names = tuple(systems) if systems is not None else corpus_systems(corpus)
    judged = judged if judged is not None else corpus_judged(corpus)
    if covariates is None:
        covariates = corpus_covariates(corpus)
    size = corpus.n_sentences
    metric = policy_metric(judged)
    scores = judged.scores.get(metric, {}) if metric else {}
    human = np.full((len(names), size), np.nan)
    for k, name in enumerate(names):
        if name in scores:
            human[k] = scores[name]
    columns = _shared_covariates(covariates, names, size)
    matrix = np.stack([np.column_stack(c) if c else np.zeros((size, 0)) for c in columns[1]])
    batches, drawn_in = _batches(corpus)
    rounds, open_pairs = _rounds(corpus, batches, drawn_in, size)
    codes = None if judged.documents is None else document_codes(judged.documents)
    return Design(
        names,
        metric,
        human,
        matrix if len(names) else np.zeros((0, size, 0)),
        columns[0],
        batches,
        rounds,
        frozenset(drawn_in),
        codes,
        open_pairs,
    )


def _shared_covariates(
    covariates: Covariates | None, names: Sequence[str], size: int
) -> tuple[tuple[str, ...], list[list[FloatArray]]]:
    """The covariates every system has on every sentence, and each system's columns."""
    if covariates is None:
        return (), [[] for _ in names]
    shared = [
        c
        for c in covariates.labels
        if all(
            c in covariates.scores.get(s, {})
            and len(covariates.scores[s][c]) == size
            and np.all(np.isfinite(covariates.scores[s][c]))
            for s in names
        )
    ]
    return tuple(shared), [[covariates.scores[s][c] for c in shared] for s in names]


def _batches(corpus: Corpus) -> tuple[dict[int, Batch], dict[int, int]]:
    """The corpus's batches by number, and the round each drawn one was drawn in. One
    query of its tasks (a batch's copies share their round)."""
    rows = (
        Task.objects.filter(corpus_id=corpus.pk, batch__isnull=False, copy=0)
        .order_by("batch")
        .values_list("batch", "start", "end", "size", "extra", "round", named=True)
    )
    batches: dict[int, Batch] = {}
    drawn_in: dict[int, int] = {}
    for row in rows:
        number = row.batch or 0  # batch__isnull=False above
        segments = np.arange(row.start, row.end, dtype=np.int64)
        batches[number] = Batch(number, segments, row.size - len(row.extra))
        if row.round is not None:
            drawn_in[number] = row.round
    return batches, drawn_in


def _rounds(
    corpus: Corpus, batches: dict[int, Batch], drawn_in: dict[int, int], size: int
) -> tuple[tuple[DealtRound, ...], tuple[tuple[str, str], ...]]:
    """Each recorded round as :class:`~metrics.adaptive.DealtRound` (one query), and the
    pairs the last one favoured."""
    out = []
    open_pairs: tuple[tuple[str, str], ...] = ()
    for row in DealingRound.objects.filter(corpus_id=corpus.pk).order_by("number"):
        chance = np.zeros(size)
        drawn = np.zeros(size, dtype=bool)
        for number, p in row.probabilities.items():
            batch = batches.get(int(number))
            if batch is not None:
                chance[batch.segments] = float(p)
        for number, r in drawn_in.items():
            if r == row.number:
                drawn[batches[number].segments] = True
        out.append(DealtRound(chance, drawn, warm_up=row.number == 0))
        open_pairs = tuple((a, b) for a, b in row.open_pairs)
    return tuple(out), open_pairs
