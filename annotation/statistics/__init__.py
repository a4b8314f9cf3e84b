"""The app's statistics, in one package: every figure of a corpus, automatic and human,
how it is computed, stored, brought up to date and remembered.

What the feature packages (dashboard, judging, corpora, campaigns, controls, the
management commands) use is imported from here, never from a submodule
(``annotation/tests/statistics/test_boundary.py`` checks), so the submodules can change
how they compute without their callers knowing. The submodules, by meaning:

* :mod:`~annotation.statistics.metric_set`: which metrics the app computes.
* :mod:`~annotation.statistics.texts`: a corpus's texts as the metrics read them.
* :mod:`~annotation.statistics.compute`: every automatic metric and its paired bootstrap.
* :mod:`~annotation.statistics.encoding`: :class:`AutomaticStats` and its stored bytes,
  and a corpus's default choice (:func:`default_preprocessor`: its target language's
  tokenizer), the one its import scores and every reader naming no choice reads.
* :mod:`~annotation.statistics.store` (and :mod:`~annotation.statistics.blobs`, the
  binary reads and writes): the stored statistics, read back by every page.
  The two models that keep them are :mod:`annotation.models.statistics`.
* :mod:`~annotation.statistics.jobs`: scoring as the task queue's jobs, the one way
  they are computed (in a worker, never in a web request).
* :mod:`~annotation.statistics.human`: the judgments as the human figures read them;
  :mod:`~annotation.statistics.judgment_read`, the dashboard's, brought up to date by
  reading the judgments changed since.
* :mod:`~annotation.statistics.annotators`: SSER raw and per-judge z, and each judge's
  effect, where items have different judges.
* :mod:`~annotation.statistics.hter`: HTER's counts of done judgments, filled off the
  judge's clicks (by workers, and by the figures that read them first).
* :mod:`~annotation.statistics.scores`: every figure per system, ``manage.py scores``'s.
* :mod:`~annotation.statistics.pool_references` and :mod:`~annotation.statistics.pool`:
  the grown reference pool and the statistics against it.
* :mod:`~annotation.statistics.memo`: the one cache of what a process remembers between
  requests, each value under the stamps it depends on (which :mod:`annotation.changes`
  moves); :mod:`~annotation.statistics.shared`, its second level, where every app
  process reads the figures another one computed (Redis, or a table of the database).
* :mod:`~annotation.statistics.live`: the judge's live figures and the rows they sum.
* :mod:`~annotation.statistics.external`: segment scores computed elsewhere (COMET,
  MetricX, …), imported as named metrics: stored, read, tested and made figures of.
"""

from annotation.statistics.annotators import (
    OFFSET_BOUNDS,
    SSER_RAW,
    JudgeAware,
    effects_json,
    judge_aware_figures,
    offset_json,
    sser_by_judge_json,
    sser_ratings,
)
from annotation.statistics.compute import compute_statistics, paired_bootstrap
from annotation.statistics.encoding import (
    STATISTICS_ENGINE,
    AutomaticStats,
    default_choice,
    default_preprocessor,
    statistics_choice,
)
from annotation.statistics.external import (
    AGGREGATE,
    ExternalFigures,
    ExternalMetricScores,
    ScoresRefused,
    check_external_name,
    external_figures,
    external_info,
    external_metric_delete,
    external_metric_import,
    external_metric_store,
    external_metrics,
    external_segment_scores,
)
from annotation.statistics.hter import fill_hter_counts, missing_hter_counts
from annotation.statistics.human import (
    HumanRows,
    JudgmentRow,
    SystemRows,
    human_figures,
    human_metric_rows,
    human_rows_by_system,
    human_scores,
    judgment_rows,
    segment_rows,
    sentence_scores,
    sentence_scores_by_system,
)
from annotation.statistics.jobs import live_pool_job, pool_job, scoring_job, statistics_or_job
from annotation.statistics.judgment_read import CountedJudgments, Versions, counted_judgments
from annotation.statistics.live import (
    CorpusKey,
    Judged,
    SegmentStats,
    TargetTexts,
    known_stats,
    live_scores,
    segment_stats,
    stored_stats,
    texts_key,
)
from annotation.statistics.memo import (
    CACHE,
    CorpusState,
    Shelf,
    content_digest,
    earlier,
    forget,
    keep_pairs,
    kept_pairs,
    recalled,
    remembered,
    remembered_across,
    remembered_by_content,
    remembered_for_texts,
)
from annotation.statistics.metric_set import (
    AUTOMATIC_METRICS,
    ESA_FIGURES,
    FIXED_PREPROCESSING,
    HUMAN_METRICS,
    PROTOCOL_FIGURES,
    app_metric,
    protocol_figures,
)
from annotation.statistics.pool import (
    SCORED_ON_THE_PAGE,
    Backlog,
    PoolInputs,
    ScoredPool,
    pool_backlog,
    pool_base,
    pool_inputs,
    scored_pool,
)
from annotation.statistics.pool_references import (
    SentencePool,
    new_references,
    sentence_pools,
    write_reference_files,
)
from annotation.statistics.scores import corpus_scores, scores_json
from annotation.statistics.shared import cache_table_created
from annotation.statistics.store import default_stored_statistics, stored_statistics
from annotation.statistics.texts import CorpusTexts, corpus_texts, sentence_documents

__all__ = [
    # the metrics
    "AUTOMATIC_METRICS",
    "ESA_FIGURES",
    "FIXED_PREPROCESSING",
    "HUMAN_METRICS",
    "PROTOCOL_FIGURES",
    "app_metric",
    "protocol_figures",
    # the automatic statistics: texts, computed, stored
    "AutomaticStats",
    "CorpusTexts",
    "compute_statistics",
    "paired_bootstrap",
    "corpus_texts",
    "sentence_documents",
    "default_choice",
    "default_preprocessor",
    "default_stored_statistics",
    "pool_job",
    "live_pool_job",
    "scoring_job",
    "statistics_or_job",
    "stored_statistics",
    "statistics_choice",
    "STATISTICS_ENGINE",
    # the human figures
    "HumanRows",
    "SystemRows",
    "JudgmentRow",
    "fill_hter_counts",
    "human_figures",
    "human_metric_rows",
    "human_rows_by_system",
    "human_scores",
    "judgment_rows",
    "counted_judgments",
    "CountedJudgments",
    "Versions",
    "missing_hter_counts",
    "segment_rows",
    "sentence_scores",
    "sentence_scores_by_system",
    # SSER where items have different judges
    "OFFSET_BOUNDS",
    "SSER_RAW",
    "JudgeAware",
    "effects_json",
    "judge_aware_figures",
    "offset_json",
    "sser_by_judge_json",
    "sser_ratings",
    # segment scores computed elsewhere, imported as named metrics
    "AGGREGATE",
    "ExternalFigures",
    "ExternalMetricScores",
    "ScoresRefused",
    "check_external_name",
    "external_figures",
    "external_info",
    "external_metric_delete",
    "external_metric_import",
    "external_metric_store",
    "external_metrics",
    "external_segment_scores",
    # every figure per system
    "corpus_scores",
    "scores_json",
    # the grown reference pool
    "SCORED_ON_THE_PAGE",
    "Backlog",
    "PoolInputs",
    "ScoredPool",
    "SentencePool",
    "new_references",
    "pool_backlog",
    "pool_base",
    "pool_inputs",
    "scored_pool",
    "sentence_pools",
    "write_reference_files",
    # the one cache
    "CACHE",
    "CorpusState",
    "Shelf",
    "content_digest",
    "keep_pairs",
    "kept_pairs",
    "earlier",
    "forget",
    "recalled",
    "remembered",
    "remembered_across",
    "remembered_by_content",
    "remembered_for_texts",
    "cache_table_created",
    # the judge's live figures
    "CorpusKey",
    "Judged",
    "SegmentStats",
    "TargetTexts",
    "known_stats",
    "live_scores",
    "segment_stats",
    "stored_stats",
    "texts_key",
]
