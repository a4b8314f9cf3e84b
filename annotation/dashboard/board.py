"""The dashboard of one corpus: :class:`Dashboard` computes each part of the page on first
use, and :data:`PANELS` is the page's one list of panels (see the package docstring for
what the page shows and why it is fast)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from django.db.models import BooleanField, ExpressionWrapper, Q

from annotation.controls.api import JudgeControls, corpus_controls
from annotation.dashboard.effort import Effort, effort
from annotation.dashboard.estimates import (
    Estimates,
    JudgedScores,
    corpus_estimates,
    covariate_scores,
    judged_scores,
)
from annotation.dashboard.judges import Agreement, JudgesPanel, agreement, judges_panel
from annotation.dashboard.meta import MetaEvaluation, meta_evaluation, metric_sides
from annotation.dashboard.meta_human import HumanSide, human_side
from annotation.dashboard.pool import PoolPart, pool_part
from annotation.dashboard.preprocessing import Preprocessing, metric_objects
from annotation.dashboard.table import (
    SORT_KEYS,
    MetricsTable,
    Row,
    check_sort,
    human_significance,
    metrics_table,
    table_columns,
    table_figures,
)
from annotation.dashboard.table_charts import metric_bar_chart, rank_groups_chart
from annotation.dashboard.verdicts import (
    ClusterView,
    JudgeAwareView,
    Line,
    sser_clusters,
    verdict_line,
)
from annotation.jobs import Job
from annotation.models import Corpus, Translator
from annotation.statistics import (
    AutomaticStats,
    Backlog,
    ExternalFigures,
    HumanRows,
    JudgeAware,
    JudgmentRow,
    PoolInputs,
    ScoredPool,
    earlier,
    external_figures,
    external_metrics,
    human_figures,
    human_rows_by_system,
    judge_aware_figures,
    judgment_rows,
    live_pool_job,
    paired_bootstrap,
    pool_backlog,
    pool_base,
    pool_inputs,
    pool_job,
    recalled,
    remembered,
    remembered_for_texts,
    sentence_documents,
    statistics_choice,
    statistics_or_job,
)
from metrics.meta import PairwiseSide
from metrics.ranksum import Clusters
from metrics.significance import Bootstrap, MetricSignificance
from metrics.stats import Metric, MetricInfo, Score

T = TypeVar("T")

#: The page's panels (``panel/<name>/``, each a ``dashboard/_<name>.html`` fragment) and
#: the parts of :class:`Dashboard` each one shows.
PANELS: dict[str, tuple[str, ...]] = {
    "table": ("table", "verdicts", "clusters", "judge_aware"),
    "estimates": ("estimates",),
    "charts": ("table", "charts"),
    "judges": ("judges", "controls", "agreement", "judge_aware"),
    "effort": ("effort",),
    "meta": ("meta",),
}


class FiguresPending(LookupError):
    """A figure the page needs is being computed by a worker: ``jobs`` are the jobs
    computing it (queued, running, or failed and waiting for the lead's retry)."""

    def __init__(self, jobs: tuple[Job, ...]) -> None:
        super().__init__(", ".join(job.label for job in jobs))
        self.jobs = jobs


@dataclass(frozen=True)
class HumanPart:
    """What the table needs of the judgments: ``manage.py scores``'s human figures per
    system, how many done judgments there are, the human metrics' paired bootstrap and
    WMT's clusters of SSER (None: no judgment)."""

    figures: dict[str, dict[str, Score]]
    judgments: int
    significance: dict[str, MetricSignificance]
    clusters: Clusters | None = None


class Dashboard:
    """Everything the dashboard shows about one corpus, each part computed on first use.

    Panels read the same few things — the stored automatic statistics (one query), the
    parts derived from the judgments (remembered under the judgments stamp: no query,
    unless a judgment changed since, then one query of judgments for all of them) — so a
    panel request (htmx) costs only what that panel needs, and the full page computes
    each thing once.
    """

    def __init__(
        self,
        corpus: Corpus,
        preprocessing: Preprocessing | None = None,
        *,
        normalize: bool = False,
        sort: str = "",
        by_estimate: bool = False,
    ) -> None:
        self.corpus = corpus
        self.preprocessing = preprocessing or Preprocessing()
        self.normalize = normalize
        self.sort = sort
        #: ``?rank=estimate``: the table's human columns show the estimates of the whole
        #: corpus and rank by them (:mod:`~annotation.dashboard.estimates`).
        self.by_estimate = by_estimate
        if sort and sort not in SORT_KEYS:  # an imported metric's column, else refused
            check_sort(sort, self.columns)

    #: What a dashboard is made with; everything else is computed (see :meth:`release`).
    INPUTS = ("corpus", "preprocessing", "normalize", "sort", "by_estimate")

    def release(self) -> None:
        """Forget every part computed so far (the page is rendered): the template context
        keeps this object in a reference cycle until Python's cycle collector runs, and
        its statistics and judgments are tens of megabytes."""
        for name in [n for n in vars(self) if n not in self.INPUTS]:
            delattr(self, name)

    # ---- inputs

    @property
    def auto(self) -> AutomaticStats:
        """The automatic statistics of the choice: against the original references as
        stored (one query), or against the grown pool (:attr:`pool`); while a worker
        computes them, :class:`FiguresPending` with its jobs (:attr:`waiting`)."""
        found = self._auto_or_jobs
        if isinstance(found, tuple):
            raise FiguresPending(found)
        return found

    @property
    def waiting(self) -> tuple[Job, ...]:
        """The jobs computing what this choice shows (empty: every figure is at hand):
        the page shows their progress instead of the panels (:class:`FiguresPending`)."""
        found = self._auto_or_jobs
        return found if isinstance(found, tuple) else ()

    @cached_property
    def _auto_or_jobs(self) -> AutomaticStats | tuple[Job, ...]:
        """:attr:`auto`, or the jobs computing it: found once per dashboard, so the page,
        its panels and their waiting answer ask for the pending jobs once."""
        try:
            return self.original_auto if self.pool is None else self.pool.stats
        except FiguresPending as pending:
            return pending.jobs

    @property
    def original_auto(self) -> AutomaticStats:
        """The original references' statistics of the choice as stored (one query); when
        they are not, their job is queued (:mod:`annotation.statistics.jobs`; a failed
        one stays, for the lead to retry) and :class:`FiguresPending` raised."""
        found = self._original_or_job
        if isinstance(found, Job):
            raise FiguresPending((found,))
        return found

    @cached_property
    def _original_or_job(self) -> AutomaticStats | Job:
        pp = self.preprocessing
        return statistics_or_job(self.corpus, pp.preprocessor(), pp.ref_length)

    @cached_property
    def pool(self) -> PoolPart | None:
        """The grown pool's statistics, reference counts and ranking shifts (None: the
        original references are chosen), remembered under the judgments stamp: the new
        references are the judgments' (:mod:`~annotation.statistics.pool`)."""
        pp = self.preprocessing
        if not pp.pool:
            return None
        if recalled(self.corpus, self._pool_key) is None:
            self._raise_while_the_pool_job_runs()
        if recalled(self.corpus, self._pool_key) is None and not self.pool_backlog.on_the_page:
            backlog = (self.pool_backlog.sentences, self.pool_backlog.pairs)
            job = pool_job(self.corpus, pp.preprocessor(), pp.ref_length, backlog=backlog)
            if job.status != Job.Status.DONE:
                raise FiguresPending((job,))
            for built_on_the_old_base in ("_pool_base", "pool_backlog"):
                del self.__dict__[built_on_the_old_base]
        return remembered(
            self.corpus,
            self._pool_key,
            lambda: pool_part(
                self.corpus,
                pp.preprocessor(),
                pp.ref_length,
                self.original_auto,
                inputs=self._pool_inputs,
                base=self._pool_base,
            ),
        )

    def _raise_while_the_pool_job_runs(self) -> None:
        """:class:`FiguresPending` with the choice's pool job while it is queued or running:
        the page (and each of its polls) shows its progress at the cost of one query."""
        pp = self.preprocessing
        live = live_pool_job(self.corpus, pp.preprocessor(), pp.ref_length)
        if live is not None:
            sentences, pairs = live.payload.get("backlog", (0, 0))
            self.__dict__["pool_backlog"] = Backlog(sentences, pairs)  # as it was queued
            raise FiguresPending((live,))

    @cached_property
    def pool_backlog(self) -> Backlog:
        """What the pool choice must score before its figures can be shown: nothing when
        they are remembered or stored up to date, or the original references are chosen;
        else the sentences whose pool changed since it was last scored."""
        if not self.preprocessing.pool or recalled(self.corpus, self._pool_key) is not None:
            return Backlog()
        return pool_backlog(self._pool_base, self._pool_inputs, len(self.original_auto.systems))

    @cached_property
    def _pool_key(self) -> tuple[Hashable, ...]:
        return ("pool", self.preprocessing.signature)

    @cached_property
    def _pool_inputs(self) -> PoolInputs:
        return pool_inputs(self.corpus)

    @cached_property
    def _pool_base(self) -> ScoredPool:
        pp = self.preprocessing
        return pool_base(
            self.corpus,
            statistics_choice(pp.preprocessor(), pp.ref_length),
            self._pool_inputs,
            self.original_auto,
            earlier(self.corpus, self._pool_key),
        )

    @cached_property
    def systems(self) -> tuple[str, ...]:
        if self.waiting:  # as the figures will have them
            return tuple(name for name, _, _ in self._system_rows)
        return self.auto.systems

    @property
    def n_segments(self) -> int:
        if self.waiting:
            return self.corpus.n_sentences
        return self.auto.n_segments

    @cached_property
    def translator_pks(self) -> dict[str, int]:
        return {name: pk for name, pk, _ in self._system_rows}

    @cached_property
    def resegmented(self) -> frozenset[str]:
        """The systems imported as one document and re-segmented (seed 002): read with
        their primary keys, so an ordinary system's drill-down asks nothing more."""
        return frozenset(name for name, _, cut in self._system_rows if cut)

    @cached_property
    def _system_rows(self) -> list[tuple[str, int, bool]]:
        cut = ExpressionWrapper(Q(segmentation__isnull=False), output_field=BooleanField())
        systems = self.corpus.translators.filter(role=Translator.Role.SYSTEM)
        return list(systems.annotate(cut=cut).values_list("name", "pk", "cut"))

    @cached_property
    def rows(self) -> list[JudgmentRow]:
        """Every done judgment, read (one query) only when a part derived from them is not
        remembered for the current judgments stamp."""
        return judgment_rows(self.corpus)

    def rows_of(self, *systems: str) -> list[JudgmentRow]:
        """The done judgments of ``systems`` only: one query whatever the size of the
        corpus (the drill-down), or those already read."""
        if "rows" in self.__dict__:
            return [r for r in self.rows if r.system in systems]
        return judgment_rows(self.corpus, systems=systems)

    def _remembered(self, part: str, compute: Callable[[], T], *params: Hashable) -> T:
        """``part`` of this corpus as of its judgments stamp (:mod:`~annotation.dashboard.
        cache`), computed by ``compute`` when not remembered."""
        return remembered(self.corpus, (part, *params), compute)

    @cached_property
    def judged(self) -> HumanPart:
        return self._remembered("human", self._human_part)

    @cached_property
    def _by_system(self) -> HumanRows:
        """The judgments' statistics per system and human metric (for this request)."""
        return human_rows_by_system(self.rows)

    def _human_part(self) -> HumanPart:
        rows = self.rows
        by_system = self._by_system
        significance = {}
        clusters = None
        bootstrap = self.bootstrap
        if rows and bootstrap is not None:
            n = self.n_segments
            significance = human_significance(rows, self.systems, n, bootstrap, by_system)
            clusters = sser_clusters(rows, self.systems, n)
        figures = recalled(self.corpus, ("human-figures",))
        if figures is None:
            figures = human_figures(rows, by_system)
        return HumanPart(figures, len(rows), significance, clusters)

    @property
    def human(self) -> dict[str, dict[str, Score]]:
        """``manage.py scores``'s human figures (:func:`human_figures`): the table's part's
        when it is at hand, else computed alone and remembered (the meta-evaluation needs
        the figures, not the table's bootstrap of the human metrics)."""
        if "judged" in self.__dict__ or recalled(self.corpus, ("human",)) is not None:
            return self.judged.figures
        return self._remembered("human-figures", lambda: human_figures(self.rows, self._by_system))

    @property
    def left_out(self) -> tuple[str, ...]:
        """The judges the lead left out of every figure (``Corpus.excluded_judges``), by
        name, for the page's header: one query, remembered under the judgments stamp
        (which leaving a judge out moves), read only by the page that names them."""

        def names() -> tuple[str, ...]:
            judges = self.corpus.excluded_judges.order_by("username")
            return tuple(judges.values_list("username", flat=True))

        return self._remembered("left_out", names)

    @property
    def n_judgments(self) -> int:
        """Done judgments (the page header counts them): the table's part's count when
        it is at hand, else remembered on its own (a panel that needs no table does not
        compute the table's bootstrap of the human metrics to count them)."""
        if "judged" in self.__dict__ or recalled(self.corpus, ("human",)) is not None:
            return self.judged.judgments
        return self._remembered("judgments", lambda: len(self.rows))

    @cached_property
    def bootstrap(self) -> Bootstrap | None:
        """The index matrix of the human metrics' bootstrap: the automatic metrics' one
        (stored with their statistics) drawn again from the same seed, so the test is
        paired across metrics too."""
        n = self.n_segments
        return paired_bootstrap(n) if n and self.systems else None

    @cached_property
    def metrics(self) -> dict[str, Metric]:
        return metric_objects(self.preprocessing)

    @cached_property
    def columns(self) -> dict[str, MetricInfo]:
        """The table's columns with their facts: the app's metrics, then the metrics a
        lead imported for the corpus (no query when it has none)."""
        return table_columns({m.name: m.info for m in external_metrics(self.corpus)})

    @cached_property
    def imported(self) -> ExternalFigures:
        """The metrics a lead imported (COMET, MetricX, …) with their paired bootstrap,
        the same resampling as every other metric's (:attr:`bootstrap`); remembered
        until they or the judgments change (:mod:`annotation.statistics.external`)."""
        return external_figures(self.corpus, self.bootstrap)

    # ---- significance and the table

    @cached_property
    def significance(self) -> dict[str, MetricSignificance]:
        """Paired bootstrap of every metric; human metrics on common judged sentences.

        The automatic part is stored with the statistics; the human part is remembered
        under the judgments stamp (:attr:`judged`), the imported metrics' with them
        (:attr:`imported`).
        """
        return {**self.auto.significance, **self.judged.significance, **self.imported.significance}

    @cached_property
    def table(self) -> MetricsTable:
        return metrics_table(
            self.corpus.name,
            self.preprocessing,
            self.systems,
            table_figures(self.auto, self.human, self.imported),
            self.significance,
            self.translator_pks,
            sort=self.sort,
            shifts=None if self.pool is None else self.pool.shifts,
            n_samples=None if self.bootstrap is None else self.bootstrap.n_samples,
            columns=self.columns,
            estimates=self.estimates if self.by_estimate else None,
        )

    @cached_property
    def estimates(self) -> Estimates:
        """Every system's estimate of every human metric over the whole corpus, with the
        automatic metrics as covariates (:mod:`~annotation.dashboard.estimates`): always
        those of the original references (the grown pool's new references are the
        judges' own, known on judged sentences only). Remembered under the judgments
        stamp, the choice and the imported metrics' stamp; what they read of the
        judgments and the sentences' documents is shared by every choice
        (:attr:`_judged_scores`)."""
        pp = self.preprocessing
        choice = statistics_choice(pp.preprocessor(), pp.ref_length)
        return self._remembered("estimates", self._estimates, choice, self.corpus.external_stamp)

    def _estimates(self) -> Estimates:
        auto = self.original_auto
        return corpus_estimates(
            self._judged_scores,
            auto.systems,
            auto.n_segments,
            covariate_scores(auto, self.metrics, external_metrics(self.corpus)),
        )

    @property
    def _judged_scores(self) -> JudgedScores:
        """The human sentence scores and the sentences' documents, remembered under the
        judgments stamp: a view after a judgment reads the documents (one query) with
        the judgments; a new preprocessing choice reads neither."""
        return self._remembered(
            "judged-scores",
            lambda: judged_scores(
                self._by_system, self.n_segments, sentence_documents(self.corpus)
            ),
        )

    @cached_property
    def verdicts(self) -> tuple[Line, ...]:
        """One line per metric that has a test (:func:`verdict_line`), table order."""
        return tuple(
            verdict_line(self.significance[m], info)
            for m, info in self.columns.items()
            if m in self.significance
        )

    @cached_property
    def clusters(self) -> ClusterView | None:
        """WMT's clusters of SSER (None until a judgment is done)."""
        found = self.judged.clusters
        return None if found is None else ClusterView(found)

    @cached_property
    def judge_aware(self) -> JudgeAwareView | None:
        """SSER raw and z-normalised per judge with their intervals and rank groups, and
        each judge's effect (:mod:`~annotation.statistics.annotators`): what the figures
        say where items have different judges. None until an SSER score is given.
        Remembered under the judgments stamp, as the table's human part."""
        found = self._remembered("judge-aware", self._judge_aware)
        return None if found is None else JudgeAwareView(found)

    def _judge_aware(self) -> JudgeAware | None:
        if self.bootstrap is None or not any(r.sser is not None for r in self.rows):
            return None
        return judge_aware_figures(self.rows, self.systems, self.n_segments, self.bootstrap)

    @cached_property
    def table_by_system(self) -> dict[str, Row]:
        return {r.system: r for r in self.table.rows}

    # ---- charts

    def bar_chart(self, metric: str) -> str:
        if metric not in self.columns:
            raise ValueError(f"unknown metric {metric!r}")
        cells = [self.table_by_system[s].cell(metric) for s in self.systems]
        note = self.table.tests[metric].note
        return metric_bar_chart(self.columns[metric], self.systems, cells, note)

    def rank_chart(self) -> str:
        return rank_groups_chart(self.table, self.columns, self.systems)

    def chart(self, name: str) -> str:
        """The SVG of one chart: ``ranks`` or a metric's bar chart (a ``ValueError`` naming
        any other ``name``)."""
        if name == "ranks":
            return self.rank_chart()
        if name not in self.columns:
            known = ", ".join(self.columns)
            raise ValueError(f"unknown chart {name!r}: ranks or one of {known}")
        return self.bar_chart(name)

    @cached_property
    def charts(self) -> list[tuple[str, str, str]]:
        """(name, title, svg) of the rank chart and one bar chart per metric."""
        out = [("ranks", "Rank groups", self.rank_chart())]
        out += [(m, info.label, self.bar_chart(m)) for m, info in self.columns.items()]
        return out

    # ---- judges, agreement, effort, meta-evaluation

    @cached_property
    def judges(self) -> JudgesPanel:
        panel = self._remembered(
            "judges",
            lambda: judges_panel(self.rows, self.systems, normalize=self.normalize),
            self.normalize,
        )
        found = self.judge_aware
        effects = () if found is None else found.figures.effects
        return panel.with_controls(self.controls, on=self.corpus.controls_enabled).with_effects(
            effects
        )

    @cached_property
    def controls(self) -> tuple[JudgeControls, ...]:
        """Each judge's control items (:mod:`annotation.controls.quality`): read apart
        from the counted judgments (one query), remembered under the same stamp (a
        control item finished moves it too) and the threshold."""
        threshold = self.corpus.control_pass_threshold
        return self._remembered("controls", lambda: corpus_controls(self.corpus), threshold)

    @cached_property
    def agreement(self) -> Agreement:
        return self._remembered(
            "agreement",
            lambda: agreement(self.rows, normalize=self.normalize, bootstrap=self.bootstrap),
            self.normalize,
        )

    @cached_property
    def effort(self) -> Effort:
        return self._remembered("effort", lambda: effort(self.rows, self.systems))

    @cached_property
    def meta(self) -> MetaEvaluation:
        """Remembered per preprocessing choice too (the automatic side depends on it); its
        human side is shared by every choice, so a new choice reads no judgment."""
        return self._remembered(
            "meta",
            lambda: meta_evaluation(
                self.auto,
                self.metrics,
                self._meta_human,
                normalize=self.normalize,
                bootstrap=self.bootstrap,
                metric_sides=self._meta_metric_sides,
                imported=self.imported,
            ),
            self.preprocessing.signature,
            self.normalize,
            self.corpus.external_stamp,
        )

    @property
    def _meta_metric_sides(self) -> dict[str, PairwiseSide] | None:
        """The automatic side of the meta-evaluation's pairwise figures, which depends on
        the stored statistics alone: kept under the texts stamp, so a judgment does not
        compute it again (against the grown pool, whose statistics move with the
        judgments, the meta-evaluation computes it each time)."""
        if self.preprocessing.pool:
            return None
        return remembered_for_texts(
            self.corpus,
            ("meta-sides", self.preprocessing.signature),
            lambda: metric_sides(self.auto, self.metrics, self.bootstrap),
        )

    @property
    def _meta_human(self) -> HumanSide:
        return self._remembered(
            "meta-human",
            lambda: human_side(
                self.rows,
                self.human,
                normalize=self.normalize,
                bootstrap=self.bootstrap,
                by_system=self._by_system,
            ),
            self.normalize,
        )

    # ---- for the views

    def prepare(self, *panels: str) -> Dashboard:
        """Compute what ``panels`` (names in :data:`PANELS`) show now, so templates only
        read (no query runs while a template renders). No argument: every panel. An
        unknown name is a ``ValueError`` naming it."""
        for name in panels or tuple(PANELS):
            if name not in PANELS:
                raise ValueError(f"unknown panel {name!r}: choose one of {', '.join(PANELS)}")
            for part in PANELS[name]:
                getattr(self, part)
        self.n_judgments  # noqa: B018 (the page header counts them)
        return self
