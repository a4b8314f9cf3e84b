"""The figures more than one panel or download shows, each a part
(:mod:`~annotation.dashboard.parts`): the human figures and their bootstrap, the
paired bootstrap of every metric, the metrics table, the estimates of the whole corpus
and the judge-aware view of SSER.

Everything derived from the judgments is remembered under the corpus's judgments stamp
(:func:`~annotation.statistics.remembered`), and asks for the judgments inside its
``compute``: a later view reads none.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

import numpy as np

from annotation.adaptive.reweighed import weighted_in
from annotation.adaptive.status import remembered_status
from annotation.changes import Stamp
from annotation.dashboard.estimates import (
    Covariates,
    Estimates,
    JudgedScores,
    corpus_estimates,
    covariate_scores,
    judged_scores,
)
from annotation.dashboard.judges import KeptZ
from annotation.dashboard.parts import Parts, Pending
from annotation.dashboard.sources import (
    bootstrap,
    chosen_statistics,
    columns,
    corpus_systems,
    grown_pool,
    human_rows,
    imported,
    judgments,
    kept_by_rows,
    metrics,
    n_segments,
    original_statistics,
    remembered_from_statistics,
    systems,
)
from annotation.dashboard.table import (
    MetricsTable,
    human_significance,
    metrics_table,
    table_figures,
)
from annotation.dashboard.verdicts import (
    ClusterView,
    JudgeAwareView,
    protocol_clusters,
    sser_clusters,
)
from annotation.models import Corpus
from annotation.statistics import (
    CACHE,
    STATISTICS_ENGINE,
    AutomaticStats,
    JudgeAware,
    Shelf,
    external_metrics,
    human_figures,
    judge_aware_figures,
    keep_pairs,
    kept_pairs,
    protocol_figures,
    recalled,
    remembered,
    sentence_documents,
    statistics_choice,
)
from metrics.ranksum import Clusters
from metrics.significance import Bootstrap, MetricSignificance
from metrics.stats import FloatArray, Score


@dataclass(frozen=True)
class HumanPart:
    """What the table needs of the judgments: ``manage.py scores``'s human figures per
    system, how many done judgments there are, the human metrics' paired bootstrap and
    WMT's clusters of SSER (None: no judgment)."""

    figures: dict[str, dict[str, Score]]
    judgments: int
    significance: dict[str, MetricSignificance]
    clusters: Clusters | None = None
    #: A corpus judged by error spans: WMT's clusters of each of its human figures
    #: (``esa`` and ``esa_z``, or ``mqm``) instead of SSER's.
    protocol_clusters: tuple[ClusterView, ...] = ()


def judged(parts: Parts) -> HumanPart:
    """The table's part of the judgments, remembered under the judgments stamp."""
    return remembered(parts.corpus, ("human",), lambda: _human_part(parts))


def _human_part(parts: Parts) -> HumanPart:
    rows = parts.get(judgments)
    by_system = parts.get(human_rows)
    significance = {}
    clusters = None
    by_protocol: tuple[ClusterView, ...] = ()
    found, corpus = parts.get(bootstrap), parts.corpus
    if rows and found is not None:
        names, n = parts.get(systems), parts.get(n_segments)
        # the tests of the view before, by their inputs: only a judgment's pairs anew
        memo = kept_pairs(corpus, "human")
        significance = human_significance(rows, names, n, found, by_system, memo)
        if corpus.marks_spans:
            shown = protocol_figures(corpus.protocol)
            by_protocol = protocol_clusters(by_system, names, n, shown, memo=memo)
        else:
            clusters = sser_clusters(rows, names, n, memo=memo, kept_z=_kept_z(parts))
        keep_pairs(corpus, "human", memo)
    figures = recalled(corpus, ("human-figures",))
    if figures is None:
        figures = human_figures(rows, by_system)
    significance = {m: _by_system_rows(tests) for m, tests in significance.items()}
    return HumanPart(figures, len(rows), significance, clusters, by_protocol)


def _by_system_rows(tests: MetricSignificance) -> MetricSignificance:
    """``tests`` with each system's samples one after the other in memory (the same
    figures): the shared store keeps a value's arrays in pieces, and a judgment then
    rewrites the piece of the judged system's row alone, not every piece of an array laid
    out sample by sample (:mod:`~annotation.statistics.pieces`)."""
    samples = tests.samples
    if samples is None or samples.flags.c_contiguous:
        return tests
    return replace(tests, samples=np.ascontiguousarray(samples))


#: Each judge's z-scored SSER (:func:`~annotation.dashboard.judges.normalized_sser`), in
#: this process's memory, by the version of the judge's rows (:class:`~annotation.
#: statistics.Versions`): a view after a click normalizes the judge's who clicked alone.
JUDGE_Z = Shelf("judge-z", Stamp.NONE, 1024)


def _kept_z(parts: Parts) -> KeptZ:
    return kept_by_rows(parts, JUDGE_Z, "judge")


def human(parts: Parts) -> dict[str, dict[str, Score]]:
    """``manage.py scores``'s human figures (:func:`~annotation.statistics.human_figures`):
    the table's part's when it is at hand, else computed alone and remembered (the
    meta-evaluation needs the figures, not the table's bootstrap of the human metrics)."""
    corpus = parts.corpus
    if parts.has(judged) or recalled(corpus, ("human",)) is not None:
        return parts.get(judged).figures
    return remembered(
        corpus,
        ("human-figures",),
        lambda: human_figures(parts.get(judgments), parts.get(human_rows)),
    )


def n_judgments(parts: Parts) -> int:
    """Done judgments (the page header counts them): the table's part's count when it
    is at hand, else remembered on its own (a panel that needs no table does not compute
    the table's bootstrap of the human metrics to count them)."""
    if parts.has(judged) or recalled(parts.corpus, ("human",)) is not None:
        return parts.get(judged).judgments
    return remembered(parts.corpus, ("judgments",), lambda: len(parts.get(judgments)))


def left_out(parts: Parts) -> tuple[str, ...]:
    """The judges the lead left out of every figure (``Corpus.excluded_judges``), by
    name, for the page's header: one query, remembered under the judgments stamp (which
    leaving a judge out moves)."""

    def names() -> tuple[str, ...]:
        judges = parts.corpus.excluded_judges.order_by("username")
        return tuple(judges.values_list("username", flat=True))

    return remembered(parts.corpus, ("left_out",), names)


def significance(parts: Parts) -> dict[str, MetricSignificance] | Pending:
    """Paired bootstrap of every metric; human metrics on common judged sentences.

    The automatic part is stored with the statistics; the human part is remembered
    under the judgments stamp (:func:`judged`), the imported metrics' with them
    (:func:`~annotation.dashboard.sources.imported`).
    """
    auto = parts.get(chosen_statistics)
    if isinstance(auto, Pending):
        return auto
    human_part, external = parts.get(judged), parts.get(imported)
    return {**auto.significance, **human_part.significance, **external.significance}


def table(parts: Parts) -> MetricsTable | Pending:
    """The metrics table of the choice, sorted as the view asks; its human columns by
    the estimates of the whole corpus with ``?rank=estimate``."""
    auto = parts.get(chosen_statistics)
    if isinstance(auto, Pending):
        return auto
    tests = parts.get(significance)
    if isinstance(tests, Pending):
        return tests
    inputs, pool, found = parts.inputs, parts.get(grown_pool), parts.get(bootstrap)
    by_estimate = parts.get(estimates) if inputs.by_estimate else None
    if isinstance(by_estimate, Pending):
        return by_estimate
    names = parts.get(systems)
    return metrics_table(
        parts.corpus.name,
        inputs.preprocessing,
        names,
        table_figures(auto, parts.get(human), parts.get(imported)),
        tests,
        parts.get(corpus_systems).pks,
        sort=inputs.sort,
        shifts=None if pool is None or isinstance(pool, Pending) else pool.shifts,
        n_samples=None if found is None else found.n_samples,
        columns=parts.get(columns),
        estimates=by_estimate,
    )


def estimates(parts: Parts) -> Estimates | Pending:
    """Every system's estimate of every human metric over the whole corpus, with the
    automatic metrics as covariates (:mod:`~annotation.dashboard.estimates`): always
    those of the original references (the grown pool's new references are the judges'
    own, known on judged sentences only). Remembered under the judgments stamp, the
    choice and the imported metrics' stamp; what they read of the judgments and the
    sentences' documents is shared by every choice (:func:`scores_judged`)."""
    corpus = parts.corpus
    found = _estimates(parts)
    if isinstance(found, Pending) or not corpus.campaign.adaptive:
        return found
    # adaptive dealing: its metric weighted by the recorded chances (annotation/adaptive)
    return weighted_in(found, remembered_status(corpus, lambda: parts.get(scores_judged)))


def _estimates(parts: Parts) -> Estimates | Pending:
    pp, corpus = parts.preprocessing, parts.corpus
    choice = statistics_choice(pp.preprocessor(), pp.ref_length)
    key = ("estimates", choice, corpus.external_stamp)
    last = ESTIMATES_BY_INPUTS.key(None, corpus.pk, corpus.created_at.isoformat(), choice)
    found = remembered_from_statistics(
        parts,
        key,
        original_statistics,
        lambda auto: corpus_estimates(
            parts.get(scores_judged),
            auto.systems,
            auto.n_segments,
            _covariates(parts, auto, choice),
            kept=CACHE.get(last),
        ),
    )
    if not isinstance(found, Pending):
        CACHE.put(last, found.by_inputs)
    return found


#: The estimates and rank tests of each corpus and choice last viewed in this process,
#: by the digests of their inputs (:attr:`~annotation.dashboard.estimates.Estimates.
#: by_inputs`, whether computed here or read from the shared store): after a judgment
#: the estimates of the systems it left unchanged are taken from them, not looked up
#: one by one in the shared store (a round trip each: about 20 ms at real size).
ESTIMATES_BY_INPUTS = Shelf("estimates-by-inputs", Stamp.NONE, 8)

#: The estimates' covariates (:func:`~annotation.dashboard.estimates.covariate_scores`)
#: of each choice, under the texts and imported metrics' stamps, which every change of
#: what they are computed from moves: a judgment leaves them. Every system's sentence
#: scores of three metrics cost about 8 ms at real size, reading them from the shared
#: store (about 0.5 MB) about 1 ms: a process that found the estimates there reads them.
COVARIATES = Shelf("estimate-covariates", Stamp.TEXTS | Stamp.EXTERNAL, 4, shared=True)


def _covariates(parts: Parts, auto: AutomaticStats, choice: Hashable) -> Covariates:
    corpus = parts.corpus
    found: Covariates = CACHE.get_or_set(
        COVARIATES.key(corpus, choice, STATISTICS_ENGINE),
        lambda: covariate_scores(auto, parts.get(metrics), external_metrics(corpus)),
    )
    return found


def scores_judged(parts: Parts) -> JudgedScores:
    """The human sentence scores and the sentences' documents, remembered under the
    judgments stamp: a view after a judgment reads neither the documents (kept under
    the texts stamp: :data:`DOCUMENTS`) nor the judgments again; a new preprocessing
    choice reads neither."""
    return remembered(
        parts.corpus,
        ("judged-scores",),
        lambda: judged_scores(
            parts.get(human_rows), parts.get(n_segments), _documents(parts.corpus)
        ),
    )


#: Each corpus's sentences' documents (:func:`~annotation.statistics.
#: sentence_documents`), in this process's memory under the texts stamp, which every
#: change of a sentence moves: a judgment changes none, so a view after one does not
#: read every sentence's row again (one query, about 1.5 ms at 1,000 sentences).
DOCUMENTS = Shelf("sentence-documents", Stamp.TEXTS, 8)


def _documents(corpus: Corpus) -> tuple[str, ...] | None:
    found: tuple[str, ...] | None = CACHE.get_or_set(
        DOCUMENTS.key(corpus), lambda: sentence_documents(corpus)
    )
    return found


def judge_aware(parts: Parts) -> JudgeAwareView | None:
    """SSER raw and z-normalised per judge with their intervals and rank groups, and
    each judge's effect (:mod:`~annotation.statistics.annotators`): what the figures
    say where items have different judges. None until an SSER score is given.
    Remembered under the judgments stamp, as the table's human part."""
    found = remembered(parts.corpus, ("judge-aware",), lambda: _judge_aware(parts))
    return None if found is None else JudgeAwareView(found)


def _judge_aware(parts: Parts) -> JudgeAware | None:
    rows, found = parts.get(judgments), parts.get(bootstrap)
    if found is None or not any(r.sser is not None for r in rows):
        return None
    kept = _kept_per_judge(parts, found, JUDGE_NORMALISATION)
    sums = _kept_per_judge(parts, found, JUDGE_EFFECT_SUMS)
    return judge_aware_figures(rows, parts.get(systems), parts.get(n_segments), found, kept, sums)


#: Each judge's normalisation of their SSER errors on every resample of the judge-aware
#: figures (:func:`~metrics.judge_aware.annotator_normalisation`: two arrays of the
#: bootstrap's samples, 16 KB), in this process's memory, by the version of the judge's
#: rows (:class:`~annotation.statistics.Versions`) and the resampling: a view after a
#: click resamples the sums of the judge who clicked alone (about 13 of its 15 ms).
JUDGE_NORMALISATION = Shelf("judge-normalisation", Stamp.NONE, 1024)

#: Each judge's sums of their own scores on every resample, for their effect against
#: the others (:meth:`~metrics.annotator_effects._SentenceSums.annotator_drawn`), kept
#: as :data:`JUDGE_NORMALISATION` is: a view after a click sums the clicking judge's alone.
JUDGE_EFFECT_SUMS = Shelf("judge-effect-sums", Stamp.NONE, 1024)

#: Two arrays of one judge's, one figure per resample (:data:`~metrics.judge_aware.
#: Normalisation`, :data:`~metrics.annotator_effects.DrawnSums`).
PerSample = tuple[FloatArray, FloatArray]


def _kept_per_judge(
    parts: Parts, found: Bootstrap, shelf: Shelf
) -> Callable[[str, Callable[[], PerSample]], PerSample]:
    """Each judge's :data:`PerSample` on ``shelf`` by the resampling and the version of
    their rows, else computed and kept (:data:`~metrics.judge_aware.KeptNormalisation`,
    :data:`~metrics.annotator_effects.KeptSums`)."""
    return kept_by_rows(parts, shelf, "judge", (found.n_segments, found.n_samples, found.seed))
