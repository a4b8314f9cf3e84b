"""Segment scores computed elsewhere (COMET, xCOMET, MetricX, GEMBA, …) as the app keeps
and reads them: a lead imports a file of them as a named metric with its direction
(:func:`external_metric_import`; a program that computes one stores its arrays with
:func:`external_metric_store`), and from then on the metric stands beside the app's own
in the dashboard's table, rank groups, charts, meta-evaluation and downloads, and in
``manage.py scores``.

**The figure.** A system's figure is the mean of its segment scores (each segment's row
is ``[score, 1]``: :mod:`metrics.segment_scores`), so its interval and rank group come
from the same paired bootstrap as every other metric's (the same index matrix, 1,000
samples from seed 12345: :func:`~annotation.statistics.compute.paired_bootstrap`), and
the meta-evaluation correlates it with the judges' figures as it does the automatic
metrics. Its range is unbounded (a COMET score may be negative, a MetricX one above 25),
its unit none: the figure is shown as the file gave it.

**Kept whole or not at all.** A file whose systems, segments or numbers do not match the
corpus is refused with its line and reason (:class:`ScoresRefused`), and nothing of it is
stored; a stored metric is replaced or deleted in one transaction. A number past
:data:`~metrics.segment_scores.SCORE_LIMIT` either way is refused too (the sum of a
system's scores must stay a number); one stored before that rule is read as no score.

**Read in one query, or none.** A system's scores are one row of float64 bytes in
sentence order (:class:`~annotation.models.ExternalScores`); the corpus's
``external_stamp`` moves with every store, replacement or deletion
(:func:`annotation.changes.imported_scores_changed`), and when a candidate's text
changes, its scores with it (:func:`annotation.changes.candidates_changed`). So a corpus
that never had one costs no query at all, and the figures made of them are remembered
under the stamp (:data:`~annotation.statistics.memo.FIGURES`).

**Human scores.** A file in a layout of human scores (mt-metrics-eval's ``.seg.score``:
:data:`~metrics.segment_scores.HUMAN_LAYOUTS`) is a human figure
(:attr:`ExternalMetricScores.human`): its column is a human one, and the
meta-evaluation correlates the automatic and the other imported metrics with it
(:func:`annotation.dashboard.meta_human.with_imported_human`) rather than with the
judges' figures. Its ``.sys.score`` comes with it or alone. With the ``.seg.score`` it is
a check: each line must be its system's mean of rated segments (within 10⁻⁶), and that
mean is the figure shown, so the two never disagree: the segments' mean wins, in full
precision where the file printed fewer digits. Alone (a release that publishes
system-level human scores only), its lines are the figures
(:attr:`ExternalMetricScores.published`, layout :data:`~metrics.segment_scores.
SYSTEM_LAYOUT`, one float per system stored): a human column without intervals or rank
groups, correlated with at system level only, written back as read.

**For the estimates.** :func:`external_segment_scores` gives a named metric's scores per
system as arrays, one per sentence in corpus order: a covariate any figure can read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from django.db import IntegrityError, transaction

from annotation.changes import imported_scores_changed
from annotation.models import SCORES_DTYPE, Corpus, ExternalMetric, ExternalScores, Translator
from annotation.statistics.memo import remembered
from metrics.mtme import check_system_scores, published_system_scores, read_system_scores
from metrics.segment_scores import (
    ERR_NAME_TAKEN,
    HUMAN_LAYOUTS,
    MISSING_ALLOWED,
    SYSTEM_LAYOUT,
    check_metric_name,
    check_scores,
    mean_from_stats,
    mean_rows,
    out_of_range,
    read_segment_scores,
)
from metrics.significance import Bootstrap, MetricSignificance
from metrics.stats import FloatArray, MetricInfo, Score, format_signature
from metrics.textfiles import SegmentFileError

#: What every imported metric's figure is, in words (pages, ``--help``, the docs).
AGGREGATE = "the mean of its segment scores"

ERR_NO_SYSTEM = "the corpus {corpus!r} has no MT system to score"
ERR_UNKNOWN_SYSTEM = "unknown system {system!r}: not an MT system of the corpus {corpus!r}"
ERR_MISSING_SYSTEM = (
    "no score for system {system!r} (every system of the corpus needs one per sentence)"
)
ERR_NO_SUCH_METRIC = "the corpus {corpus!r} has no imported metric named {name!r}"
ERR_DESCRIPTION = "the description is {length} characters long; at most {limit} fit"
ERR_NO_FILE = "no file: the segment scores, or with layout mtme a .sys.score alone"
ERR_SYSTEM_ALONE = (
    "a .sys.score alone is read as mt-metrics-eval's human scores (layout mtme), not {layout}"
)
ERR_SYSTEM_LEVEL_ONLY = (
    "the scores {name!r} of the corpus {corpus!r} are system-level only (a .sys.score "
    "imported alone): there is no segment score"
)


class ScoresRefused(ValueError):
    """Nothing was stored, and why (the message: the file's line and reason, or the
    name's or the systems' problem)."""


@dataclass(frozen=True)
class ExternalMetricScores:
    """One imported metric of a corpus as every figure reads it: ``scores[system]`` is
    one float per sentence in corpus order (``NaN``: no score, the candidate's text
    changed since the import), the systems in the corpus's order."""

    name: str
    higher_is_better: bool
    description: str
    signature: str
    scores: dict[str, FloatArray]
    #: Human scores made elsewhere (imported in a layout of
    #: :data:`~metrics.segment_scores.HUMAN_LAYOUTS`): a human figure, which the
    #: meta-evaluation correlates the metrics with.
    human: bool = False
    #: Human system-level figures as published (a ``.sys.score`` imported alone), per
    #: system (NaN: none): the figures; every segment then has no score. None: the
    #: figures are the segments' means.
    published: dict[str, float] | None = None

    @property
    def segment_level(self) -> bool:
        """Whether it has segment scores (False: system-level figures only)."""
        return self.published is None

    @property
    def info(self) -> MetricInfo:
        """Its facts, as a column, chart or line shows them: its name as the label, no
        unit and no bound (:mod:`metrics.segment_scores`)."""
        return external_info(
            self.name, self.higher_is_better, human=self.human, system_level=not self.segment_level
        )

    @property
    def judged(self) -> dict[str, int]:
        """Per system, how many sentences have a score (a human score: were rated)."""
        return {s: int((~np.isnan(v)).sum()) for s, v in self.scores.items()}

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.scores)

    def rows(self, system: str) -> FloatArray:
        """A system's statistics rows (segments × 2): ``[score, 1]``, ``[0, 0]`` where none."""
        return mean_rows(self.scores[system])

    @cached_property
    def figures(self) -> dict[str, Score]:
        """Each system's figure, :data:`AGGREGATE`, with the signature and its rows; of
        system-level scores alone, each published figure (no rows), none where NaN."""
        if self.published is not None:
            return {
                system: Score(self.name, value, self.signature)
                for system, value in self.published.items()
                if not math.isnan(value)
            }
        out = {}
        for system in self.scores:
            rows = self.rows(system)
            out[system] = Score(
                self.name, float(mean_from_stats(rows.sum(axis=0))), self.signature, rows
            )
        return out

    def significance(self, bootstrap: Bootstrap) -> MetricSignificance:
        """Intervals and rank groups by ``bootstrap``, the paired test every metric of
        the dashboard is run through; a system compared on the segments it has a score
        for (all of them, unless a candidate's text changed since the import)."""
        stats = {s: self.rows(s) for s in self.scores}
        masks = None
        if any(np.isnan(v).any() for v in self.scores.values()):
            masks = {s: ~np.isnan(v) for s, v in self.scores.items()}
        info = self.info
        return bootstrap.compare(
            stats,
            mean_from_stats,
            higher_is_better=info.higher_is_better,
            masks=masks,
            metric=self.name,
            bounds=info.bounds,
        )


def external_info(
    name: str, higher_is_better: bool, *, human: bool = False, system_level: bool = False
) -> MetricInfo:
    """An imported metric's :class:`~metrics.stats.MetricInfo` (``human``: human scores;
    ``system_level``: published system-level figures alone)."""
    return MetricInfo(
        name,
        name,
        higher_is_better=higher_is_better,
        human=human,
        unit="",
        lowest=-math.inf,
        highest=math.inf,
        family="external",
        system_level=system_level,
    )


@dataclass(frozen=True)
class ExternalFigures:
    """Every imported metric of a corpus with its paired bootstrap (none without a
    system): what the dashboard's table, charts and meta-evaluation read."""

    metrics: tuple[ExternalMetricScores, ...] = ()
    significance: dict[str, MetricSignificance] = field(default_factory=dict)

    @property
    def infos(self) -> dict[str, MetricInfo]:
        """Each metric's facts by name, in the order they were imported."""
        return {m.name: m.info for m in self.metrics}

    def figures(self) -> dict[str, dict[str, Score]]:
        """Per metric, each system's figure (the table's columns)."""
        return {m.name: dict(m.figures) for m in self.metrics}

    def get(self, name: str) -> ExternalMetricScores | None:
        return next((m for m in self.metrics if m.name == name), None)


# ---- reading


def external_metrics(corpus: Corpus) -> tuple[ExternalMetricScores, ...]:
    """The corpus's imported metrics in the order they were imported: no query when it
    never had one, else one, remembered until they change."""
    if not corpus.external_stamp:
        return ()
    return remembered(corpus, ("external",), lambda: _read(corpus))


def external_segment_scores(corpus: Corpus, name: str) -> dict[str, FloatArray]:
    """The scores of the imported metric ``name`` per system: one float per sentence in
    corpus order, ``NaN`` where the candidate's text changed since the import (a
    covariate for any figure, e.g. the estimates). A ``LookupError`` naming it when the
    corpus has no such metric, or saying it has none per segment (system-level human
    scores imported alone)."""
    for metric in external_metrics(corpus):
        if metric.name == name and not metric.segment_level:
            raise LookupError(ERR_SYSTEM_LEVEL_ONLY.format(corpus=corpus.name, name=name))
        if metric.name == name:
            return {s: v.copy() for s, v in metric.scores.items()}
    raise LookupError(ERR_NO_SUCH_METRIC.format(corpus=corpus.name, name=name))


def external_figures(corpus: Corpus, bootstrap: Bootstrap | None) -> ExternalFigures:
    """The corpus's imported metrics with their paired bootstrap by ``bootstrap`` (None: a
    corpus without sentences or systems, nothing to test), remembered as
    :func:`external_metrics` are."""
    metrics = external_metrics(corpus)
    if not metrics or bootstrap is None:
        return ExternalFigures(metrics)

    def tested() -> ExternalFigures:
        # system-level scores alone have no segments to resample: no interval, no group
        significance = {
            m.name: m.significance(bootstrap) for m in metrics if m.scores and m.segment_level
        }
        return ExternalFigures(metrics, significance)

    key = ("external-figures", bootstrap.n_samples, bootstrap.seed)
    return remembered(corpus, key, tested)


def _read(corpus: Corpus) -> tuple[ExternalMetricScores, ...]:
    """Every imported metric of the corpus with its scores, in one query (system-level
    scores alone: each system's published figure, and no segment score)."""
    rows = (
        ExternalScores.objects.filter(metric__corpus=corpus)
        .order_by("metric__imported_at", "metric_id", "translator__position")
        .values_list(
            "metric__name",
            "metric__higher_is_better",
            "metric__description",
            "metric__imported_at",
            "metric__layout",
            "translator__name",
            "values",
            named=True,
        )
    )
    found: dict[str, tuple[Any, dict[str, FloatArray], dict[str, float]]] = {}
    for row in rows:
        _, scores, published = found.setdefault(row.metric__name, (row, {}, {}))
        values = np.frombuffer(bytes(row.values), dtype=SCORES_DTYPE).astype(np.float64)
        # A score past the limit was stored before the limit was the rule: no score, as
        # its sum would be no number (metrics.segment_scores.SCORE_LIMIT).
        values[out_of_range(values)] = np.nan
        if row.metric__layout == SYSTEM_LAYOUT:
            published[row.translator__name] = float(values[0])
            values = np.full(corpus.n_sentences, np.nan)
        scores[row.translator__name] = values
    return tuple(
        ExternalMetricScores(
            name=name,
            higher_is_better=first.metric__higher_is_better,
            description=first.metric__description,
            signature=external_signature(
                name,
                first.metric__higher_is_better,
                first.metric__imported_at,
                published=first.metric__layout == SYSTEM_LAYOUT,
            ),
            scores=scores,
            human=first.metric__layout in HUMAN_LAYOUTS,
            published=published if first.metric__layout == SYSTEM_LAYOUT else None,
        )
        for name, (first, scores, published) in found.items()
    )


def external_signature(
    name: str, higher_is_better: bool, imported_at: Any, *, published: bool = False
) -> str:
    """``ext:COMET-22|agg:mean|higher:yes|imported:2025-06-01T10:00Z``: which import of
    which metric a figure is, and how it was made of the segment scores (``agg:published``:
    system-level figures imported as they were published)."""
    return format_signature(
        {
            "ext": name,
            "agg": "published" if published else "mean",
            "higher": "yes" if higher_is_better else "no",
            "imported": imported_at.strftime("%Y-%m-%dT%H:%MZ"),
        },
        version=False,
    )


# ---- storing, replacing, deleting


def external_metric_import(
    *,
    corpus: Corpus,
    data: bytes | None,
    layout: str,
    name: str,
    higher_is_better: bool,
    filename: str = "scores",
    description: str = "",
    replace: bool = False,
    imported_by: Any = None,
    system_scores: bytes | None = None,
    system_filename: str = "sys.score",
) -> ExternalMetric:
    """Store a file of segment scores (``layout``: :data:`metrics.segment_scores.LAYOUTS`)
    as the corpus's metric ``name``: all of it, or nothing and :class:`ScoresRefused`
    with the line and reason (:func:`metrics.segment_scores.read_segment_scores`).
    ``replace``: a metric of that name is replaced (else a name taken is refused).
    ``system_scores``: the system-level file that comes with human scores
    (mt-metrics-eval's ``.sys.score``), checked against the segments' means
    (:func:`metrics.mtme.check_system_scores`) so the figures shown are the published.
    ``data`` None: the ``system_scores`` alone, stored as the published figures
    (:func:`_published_values`)."""
    check_external_name(corpus, name, replace=replace)
    if data is None:
        systems, values = _published_values(corpus, system_scores, layout, system_filename)
        return _stored(
            corpus=corpus,
            name=name,
            higher_is_better=higher_is_better,
            systems=systems,
            values=values,
            description=_checked_description(description),
            layout=SYSTEM_LAYOUT,
            source=system_filename,
            replace=replace,
            imported_by=imported_by,
        )
    systems = _systems(corpus)
    try:
        scores = read_segment_scores(
            data,
            layout=layout,
            systems=list(systems),
            n_segments=corpus.n_sentences,
            filename=filename,
        )
        if system_scores is not None:
            published = read_system_scores(system_scores, system_filename)
            check_system_scores(scores, published, system_filename)
    except SegmentFileError as refused:
        raise ScoresRefused(str(refused)) from None
    return external_metric_store(
        corpus=corpus,
        name=name,
        higher_is_better=higher_is_better,
        scores=scores,
        description=description,
        layout=layout,
        source=filename,
        replace=replace,
        imported_by=imported_by,
    )


def _published_values(
    corpus: Corpus, data: bytes | None, layout: str, filename: str
) -> tuple[dict[str, int], dict[str, bytes]]:
    """The corpus's systems and each one's stored value of mt-metrics-eval's
    ``.sys.score`` of human scores read alone: its published figure (``None``: NaN, no
    figure) as one float (:data:`~metrics.segment_scores.SYSTEM_LAYOUT`), written back
    as read. :class:`ScoresRefused` naming the line and reason otherwise
    (:func:`metrics.mtme.published_system_scores`: a system the corpus does not have,
    one twice or left out, anything but a number or ``None``, other than two columns),
    or saying the file is missing or not in layout ``mtme``."""
    if data is None:
        raise ScoresRefused(ERR_NO_FILE)
    if layout != "mtme":
        raise ScoresRefused(ERR_SYSTEM_ALONE.format(layout=layout))
    systems = _systems(corpus)
    try:
        published = published_system_scores(data, list(systems), filename)
    except SegmentFileError as refused:
        raise ScoresRefused(str(refused)) from None
    values = {s: np.asarray([v], dtype=SCORES_DTYPE).tobytes() for s, v in published.items()}
    return systems, values


def external_metric_store(
    *,
    corpus: Corpus,
    name: str,
    higher_is_better: bool,
    scores: Mapping[str, Sequence[float] | FloatArray],
    description: str = "",
    layout: str = "",
    source: str = "",
    replace: bool = False,
    imported_by: Any = None,
) -> ExternalMetric:
    """Store ``scores`` (per system of the corpus, one finite float per sentence in
    order) as the corpus's metric ``name`` in one transaction, replacing a metric of
    that name when ``replace``; :class:`ScoresRefused` and nothing stored otherwise.
    What a program that computes a metric itself calls (a file goes through
    :func:`external_metric_import`)."""
    check_external_name(corpus, name, replace=replace)
    description = _checked_description(description)
    systems = _systems(corpus)
    for system in scores:
        if system not in systems:
            raise ScoresRefused(ERR_UNKNOWN_SYSTEM.format(system=system, corpus=corpus.name))
    for system in systems:
        if system not in scores:
            raise ScoresRefused(ERR_MISSING_SYSTEM.format(system=system))
    try:
        check_scores(scores, corpus.n_sentences, missing_allowed=layout in MISSING_ALLOWED)
    except ValueError as refused:
        raise ScoresRefused(str(refused)) from None
    return _stored(
        corpus=corpus,
        name=name,
        higher_is_better=higher_is_better,
        systems=systems,
        values={s: np.asarray(scores[s], dtype=SCORES_DTYPE).tobytes() for s in systems},
        description=description,
        layout=layout,
        source=source,
        replace=replace,
        imported_by=imported_by,
    )


def _checked_description(description: str) -> str:
    """``description`` without surrounding blanks, or :class:`ScoresRefused` when it is
    longer than the column holds."""
    description = description.strip()
    limit = ExternalMetric._meta.get_field("description").max_length or 0
    if len(description) > limit:
        raise ScoresRefused(ERR_DESCRIPTION.format(length=len(description), limit=limit))
    return description


def _stored(
    *,
    corpus: Corpus,
    name: str,
    higher_is_better: bool,
    systems: Mapping[str, int],
    values: Mapping[str, bytes],
    description: str,
    layout: str,
    source: str,
    replace: bool,
    imported_by: Any,
) -> ExternalMetric:
    """The metric ``name`` with each system's ``values`` (checked, one row per system of
    ``systems``, name → primary key) stored in one transaction, replacing one of that
    name when ``replace``; ``description`` as :func:`_checked_description` gives it."""
    source_limit = ExternalMetric._meta.get_field("source").max_length or 0
    try:
        with transaction.atomic():
            if replace:
                ExternalMetric.objects.filter(corpus=corpus, name=name).delete()
            metric = ExternalMetric.objects.create(
                corpus=corpus,
                name=name,
                higher_is_better=higher_is_better,
                description=description,
                layout=layout,
                source=source[-source_limit:],
                imported_by=imported_by,
            )
            ExternalScores.objects.bulk_create(
                ExternalScores(metric=metric, translator_id=systems[system], values=values[system])
                for system in systems
            )
            imported_scores_changed(corpus)
    except IntegrityError:  # stored meanwhile by another lead under that name
        raise ScoresRefused(ERR_NAME_TAKEN.format(taken=name)) from None
    return metric


def external_metric_delete(*, corpus: Corpus, name: str) -> None:
    """Delete the corpus's imported metric ``name`` with its scores (:class:`ScoresRefused`
    if there is none)."""
    with transaction.atomic():
        deleted, _ = ExternalMetric.objects.filter(corpus=corpus, name=name).delete()
        if not deleted:
            raise ScoresRefused(ERR_NO_SUCH_METRIC.format(corpus=corpus.name, name=name))
        imported_scores_changed(corpus)


def check_external_name(corpus: Corpus, name: str, *, replace: bool) -> None:
    """Whether ``name`` may name a new metric of ``corpus`` (:class:`ScoresRefused` if
    not), told before a long computation as well as when it is stored:
    :func:`metrics.segment_scores.check_metric_name` against the corpus's other
    imported metrics (the one of the same name among them, unless it is replaced)."""
    names = corpus.external_metrics.values_list("name", flat=True)
    taken = [n for n in names if not (replace and n == name)]
    try:
        check_metric_name(name, taken)
    except ValueError as refused:
        raise ScoresRefused(str(refused)) from None


def _systems(corpus: Corpus) -> dict[str, int]:
    """The corpus's MT systems (name → primary key) in the corpus's order."""
    systems = corpus.translators.filter(role=Translator.Role.SYSTEM).order_by("position")
    found = dict(systems.values_list("name", "pk"))
    if not found:
        raise ScoresRefused(ERR_NO_SYSTEM.format(corpus=corpus.name))
    return found
