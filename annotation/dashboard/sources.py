"""What every panel reads: the automatic statistics of the choice (stored, or against the
grown pool), the corpus's systems, the done judgments, the bootstrap, the imported
metrics and the header's counts. Each is a part (:mod:`~annotation.dashboard.parts`):
asked for through :meth:`~annotation.dashboard.parts.Parts.get`, read once per view.

The automatic statistics are read from the database (one query); while a worker
computes them they are :class:`~annotation.dashboard.parts.Pending`. The judgments are
read (one query) only by a part that is not remembered under the current judgments
stamp (:mod:`~annotation.statistics.memo`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from django.db.models import BooleanField, ExpressionWrapper, Q

from annotation.changes import Stamp
from annotation.dashboard.inputs import corpus_columns
from annotation.dashboard.parts import Parts, Pending
from annotation.dashboard.pool import PoolPart, pool_part
from annotation.dashboard.preprocessing import metric_objects
from annotation.jobs import Job
from annotation.models import Translator
from annotation.statistics import (
    CACHE,
    STATISTICS_ENGINE,
    AutomaticStats,
    Backlog,
    CountedJudgments,
    ExternalFigures,
    HumanRows,
    JudgmentRow,
    PoolInputs,
    ScoredPool,
    Shelf,
    SystemRows,
    counted_judgments,
    earlier,
    external_figures,
    human_rows_by_system,
    judgment_rows,
    live_pool_job,
    paired_bootstrap,
    pool_backlog,
    pool_base,
    pool_inputs,
    pool_job,
    recalled,
    remembered,
    statistics_choice,
    statistics_or_job,
)
from metrics.significance import Bootstrap
from metrics.stats import Metric, MetricInfo

T = TypeVar("T")


#: The stored statistics of a choice as decoded, in this process's memory (tens of MB
#: each at real size: a few, not shared; decoding costs a view 30–45 ms), under the
#: texts stamp: a stored row is written once per choice and texts stamp, and every
#: change that deletes or replaces one moves that stamp (:mod:`annotation.changes`,
#: :func:`~annotation.statistics.store.store_statistics`), so the row a key names never
#: changes. The key names the engine too (a row of another is never read).
DECODED = Shelf("decoded-statistics", Stamp.TEXTS, 2)


def original_statistics(parts: Parts) -> AutomaticStats | Pending:
    """The original references' statistics of the choice as stored (one query, none
    when this process decoded them under the same texts stamp: :data:`DECODED`); when
    they are not, their job is queued (:mod:`annotation.statistics.jobs`; a failed one
    stays, for the lead to retry) and pending."""
    pp = parts.preprocessing
    choice = statistics_choice(pp.preprocessor(), pp.ref_length)
    key = DECODED.key(parts.corpus, choice, STATISTICS_ENGINE)
    kept: AutomaticStats | None = CACHE.get(key)
    if kept is not None:
        return kept
    found = statistics_or_job(parts.corpus, pp.preprocessor(), pp.ref_length)
    if isinstance(found, Job):
        return Pending((found,))
    CACHE.put(key, found)
    return found


def grown_pool(parts: Parts) -> PoolPart | Pending | None:
    """The grown pool's statistics, reference counts and ranking shifts (None: the
    original references are chosen), remembered under the judgments stamp: the new
    references are the judgments' (:mod:`~annotation.statistics.pool`).

    Not remembered, it is pending while the choice's pool job is queued or running (one
    query: the page, and each of its polls, show its progress with the backlog it was
    queued with), or when the sentences whose pool changed since it was last scored are
    too many to score on the page (the job is queued); else it is scored here."""
    pp = parts.preprocessing
    if not pp.pool:
        return None
    corpus, key = parts.corpus, _pool_key(parts)
    found: PoolPart | None = recalled(corpus, key)
    if found is not None:
        return found
    live = live_pool_job(corpus, pp.preprocessor(), pp.ref_length)
    if live is not None:
        sentences, pairs = live.payload.get("backlog", (0, 0))
        return Pending((live,), Backlog(sentences, pairs))
    original = parts.get(original_statistics)
    if isinstance(original, Pending):
        return original
    inputs = pool_inputs(corpus)
    base = _pool_base(parts, inputs, original)
    backlog = pool_backlog(base, inputs, len(original.systems))
    if not backlog.on_the_page:
        job = pool_job(
            corpus, pp.preprocessor(), pp.ref_length, backlog=(backlog.sentences, backlog.pairs)
        )
        if job.status != Job.Status.DONE:
            return Pending((job,), backlog)
        base = _pool_base(parts, inputs, original)  # the job stored a newer one
    return remembered(
        corpus,
        key,
        lambda: pool_part(
            corpus, pp.preprocessor(), pp.ref_length, original, inputs=inputs, base=base
        ),
    )


def _pool_key(parts: Parts) -> tuple[Hashable, ...]:
    return ("pool", parts.preprocessing.signature)


def _pool_base(parts: Parts, inputs: PoolInputs, original: AutomaticStats) -> ScoredPool:
    """The scored pool to build on (:func:`~annotation.statistics.pool.pool_base`)."""
    pp = parts.preprocessing
    choice = statistics_choice(pp.preprocessor(), pp.ref_length)
    return pool_base(
        parts.corpus, choice, inputs, original, earlier(parts.corpus, _pool_key(parts))
    )


def chosen_statistics(parts: Parts) -> AutomaticStats | Pending:
    """The automatic statistics of the choice: against the original references as
    stored, or against the grown pool; pending while a worker computes them."""
    pool = parts.get(grown_pool)
    if pool is None:
        return parts.get(original_statistics)
    return pool if isinstance(pool, Pending) else pool.stats


def remembered_from_statistics(
    parts: Parts,
    key: tuple[Hashable, ...],
    statistics: Callable[[Parts], AutomaticStats | Pending],
    compute: Callable[[AutomaticStats], T],
) -> T | Pending:
    """``key``'s value (never None) remembered under the judgments stamp; else computed
    from ``statistics`` (:func:`original_statistics` or :func:`chosen_statistics`) and
    remembered, or pending while they are. A view that finds it remembered reads no
    statistics."""
    found: T | None = recalled(parts.corpus, key)
    if found is not None:
        return found
    auto = parts.get(statistics)
    if isinstance(auto, Pending):
        return auto
    return remembered(parts.corpus, key, lambda: compute(auto))


@dataclass(frozen=True)
class CorpusSystems:
    """The corpus's MT systems as its rows have them (one query): names in corpus
    order, primary keys (the drill-down's links), and those imported as one document
    and re-segmented (seed 002), so an ordinary system's drill-down asks nothing more."""

    names: tuple[str, ...]
    pks: dict[str, int]
    resegmented: frozenset[str]


def corpus_systems(parts: Parts) -> CorpusSystems:
    cut = ExpressionWrapper(Q(segmentation__isnull=False), output_field=BooleanField())
    systems = parts.corpus.translators.filter(role=Translator.Role.SYSTEM)
    rows = list(systems.annotate(cut=cut).values_list("name", "pk", "cut"))
    return CorpusSystems(
        tuple(name for name, _, _ in rows),
        {name: pk for name, pk, _ in rows},
        frozenset(name for name, _, cut in rows if cut),
    )


def systems(parts: Parts) -> tuple[str, ...]:
    """The systems of the figures: the statistics', or while they are pending, the
    corpus's (as the figures will have them)."""
    auto = parts.get(chosen_statistics)
    if isinstance(auto, Pending):
        return parts.get(corpus_systems).names
    return auto.systems


def n_segments(parts: Parts) -> int:
    auto = parts.get(chosen_statistics)
    return parts.corpus.n_sentences if isinstance(auto, Pending) else auto.n_segments


def judgments_read(parts: Parts) -> CountedJudgments:
    """Every done judgment the figures count, read (one query: of those changed since
    this process last read them, :func:`~annotation.statistics.counted_judgments`) only
    by a part that is not remembered for the current judgments stamp, and which of them
    changed since this process last read them all (for the parts that keep a figure of
    one judge's or one system's rows)."""
    return counted_judgments(parts.corpus)


def judgments(parts: Parts) -> list[JudgmentRow]:
    """Every done judgment the figures count (:func:`judgments_read`)."""
    return parts.get(judgments_read).rows


def kept_by_rows(
    parts: Parts, shelf: Shelf, by: str, *part: Hashable
) -> Callable[[str, Callable[[], T]], T]:
    """A judge's (``by="judge"``) or a system's (``"system"``) value of ``part`` on
    ``shelf``, kept in this process by the version of that judge's or system's rows
    (:class:`~annotation.statistics.Versions`), else computed and kept: a view after a
    click computes the clicking judge's or the judged system's alone."""
    corpus, versions = parts.corpus, parts.get(judgments_read).versions
    version = versions.of_judge if by == "judge" else versions.of_system

    def kept(name: str, compute: Callable[[], T]) -> T:
        key = shelf.key(None, corpus.pk, *part, name, version(name))
        found: T = CACHE.get_or_set(key, compute)
        return found

    return kept


def judgments_of(parts: Parts, *systems: str) -> list[JudgmentRow]:
    """The done judgments of ``systems`` only: one query whatever the size of the corpus
    (the drill-down), or those this view read already."""
    if parts.has(judgments):
        return [r for r in parts.get(judgments) if r.system in systems]
    return judgment_rows(parts.corpus, systems=systems)


#: Each system's statistics of its judgments (:data:`~annotation.statistics.human.
#: SystemRows`), in this process's memory, by the version of the system's rows
#: (:class:`~annotation.statistics.Versions`): a view after a click groups those of the
#: judged system alone. A few corpora's systems (about 120 KB each at real size).
SYSTEM_ROWS = Shelf("system-rows", Stamp.NONE, 128)


def human_rows(parts: Parts) -> HumanRows:
    """The judgments' statistics per system and human metric (for this view)."""
    kept: Callable[[str, Callable[[], SystemRows]], SystemRows]
    kept = kept_by_rows(parts, SYSTEM_ROWS, "system")
    return human_rows_by_system(parts.get(judgments), kept)


def bootstrap(parts: Parts) -> Bootstrap | None:
    """The index matrix of the human metrics' bootstrap: the automatic metrics' one
    (stored with their statistics) drawn again from the same seed, so the test is
    paired across metrics too. None: no sentence or no system to test."""
    n = parts.get(n_segments)
    return paired_bootstrap(n) if n and parts.get(systems) else None


def metrics(parts: Parts) -> dict[str, Metric]:
    """The automatic metrics as the choice configures them."""
    return metric_objects(parts.preprocessing)


def columns(parts: Parts) -> dict[str, MetricInfo]:
    """The table's columns with their facts (:func:`~annotation.dashboard.inputs.
    corpus_columns`)."""
    return corpus_columns(parts.corpus)


def imported(parts: Parts) -> ExternalFigures:
    """The metrics a lead imported (COMET, MetricX, …) with their paired bootstrap, the
    same resampling as every other metric's (:func:`bootstrap`); remembered until they
    or the judgments change (:mod:`annotation.statistics.external`)."""
    return external_figures(parts.corpus, parts.get(bootstrap))
