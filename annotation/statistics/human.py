"""The judgments as the human figures read them: one row per counted judgment
(:class:`JudgmentRow`, one query for a whole corpus) and the SSER, aWER, aSER, HTER,
MQM-style, IER, ESA, ESA z and MQM statistics rows and figures per system, as
:mod:`metrics.human` defines them.

**Which figures a judgment feeds depends on its corpus's protocol.** An aWER corpus's
judgments feed SSER, aWER, aSER, HTER, the MQM-style figure (every aWER operation an
error) and IER, as they always did. A judgment of a corpus judged by error spans (ESA,
ESA with pre-filled spans, MQM: ``Corpus.marks_spans``) starts from the nearest
reference as its new reference, which its page never shows nor edits: its aWER counts
say nothing of the judge's verdict, so they are not read (:func:`span_protocol_rows`).
It feeds ``esa`` and ``esa_z`` (ESA) or ``mqm`` from its spans (MQM) instead."""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from django.db.models import TextField, Value
from django.db.models.functions import Cast, NullIf

from annotation.models import Corpus, Judgment, JudgmentQuerySet, Span
from annotation.spans import major_count
from annotation.statistics.hter import hter_counts_stored
from annotation.statistics.metric_set import HUMAN_METRICS
from metrics import human
from metrics.correlation import z_normalize
from metrics.mqm import segment_points
from metrics.significance import rows_by_segment
from metrics.stats import FloatArray, Score


class JudgmentRow(NamedTuple):
    """One done judgment as the human figures read it (one query for all of them).

    A named tuple rather than a frozen dataclass: the dashboard reads every judgment of a
    corpus at once (18,000 in a real campaign), and a tuple is made and read several
    times faster."""

    system: str
    segment: int
    target_id: int
    evaluator: str
    sser: int | None
    edits: int | None
    ref_length: int | None
    new_ref: str
    active_seconds: float
    #: HTER's counts (:func:`annotation.text.hter_counts`), filled once the judgment is done
    #: (:mod:`~annotation.statistics.hter`; :func:`judgment_rows` fills any still missing).
    ter_edits: int | None = None
    ter_length: int | None = None
    #: The operations the judge marked major (:mod:`annotation.spans`), for MQM-style.
    severities: dict[str, str] | None = None
    ier_errors: int | None = None  # IER's counts (annotation.ier), and its share of
    ier_length: int | None = None  # the active time and its clicks (seed 001 Table 3)
    ier_seconds: float = 0.0
    ier_clicks: int = 0
    #: The judgment's primary key (its HTER counts are filled by it).
    pk: int | None = None
    #: An ESA corpus's 0–100 score, and the same z-normalised among its judge's scores
    #: in the corpus (:func:`span_protocol_rows`).
    esa_score: int | None = None
    esa_z: float | None = None
    #: An MQM corpus's penalty points of the judge's spans under the corpus's taxonomy.
    mqm_points: float | None = None

    @property
    def sser_error(self) -> float | None:
        """The judgment's SSER row as a percentage: (10 − score)/10 × 100 (seed 001 §2.2)."""
        return None if self.sser is None else (human.SSER_MAX - self.sser) * 100 / human.SSER_MAX

    @property
    def counted(self) -> bool:
        """Whether it enters aWER and aSER (it has an edit count)."""
        return self.edits is not None and self.ref_length is not None


def judgment_rows(corpus: Corpus, *, systems: Sequence[str] = ()) -> list[JudgmentRow]:
    """Every judgment the corpus's figures count (done, no control item, no judge left
    out: :meth:`~annotation.models.JudgmentQuerySet.in_figures`; of ``systems`` only, if
    given) in one query: all that the human figures and the dashboard read of them
    (figures, bootstrap, judges, agreement, effort, drill-down). HTER's counts that no
    worker has filled yet are filled first (:func:`with_hter_counts`): a figure never
    leaves out a done judgment. (The dashboard keeps them and reads only those changed
    since: :mod:`~annotation.statistics.judgment_read`.)"""
    qs = Judgment.objects.in_figures(corpus.pk)
    if systems:
        qs = qs.filter(target__translator__name__in=systems)
    rows, _ = read_rows(qs)
    return figures_read(corpus, rows, qs, whole=not systems)


def figures_read(
    corpus: Corpus, rows: list[JudgmentRow], qs: JudgmentQuerySet, *, whole: bool
) -> list[JudgmentRow]:
    """``rows`` of ``corpus`` (:func:`read_rows` of ``qs``, the judgments the figures
    count, all of them if ``whole``) as the figures read them: a span corpus's figures
    filled (:func:`span_protocol_rows`), else HTER's counts (:func:`with_hter_counts`)."""
    if corpus.marks_spans:
        return span_protocol_rows(corpus, rows, qs, whole=whole)
    return with_hter_counts(rows)


#: The order the judgments are read in, which the sums of the figures follow: the
#: model's without its first key, the corpus's name (one corpus here: one join fewer for
#: every judgment), then the primary key (two rows never tie).
ORDER = ("target__sentence__position", "target__position", "evaluator_id", "pk")


def read_rows(qs: JudgmentQuerySet, *extra: str) -> tuple[list[JudgmentRow], list[tuple[Any, ...]]]:
    """``qs``'s judgments in :data:`ORDER` (one query) as rows, their figures not yet
    filled (:func:`figures_read`), and each one's values of the columns ``extra``
    (fields or annotations of ``qs``; none: an empty list)."""
    # most judgments mark no severity: read as text, NULL when empty, and only the others
    # decoded (decoding 18,000 empty objects was a quarter or more of reading them)
    empty = Value("{}", output_field=TextField())
    values = (
        qs.annotate(severities_text=NullIf(Cast("severities", TextField()), empty))
        .order_by(*ORDER)
        .values_list(*_READ, *extra)
    )
    # the fields filled later (span_protocol_rows) added here, not read as NULL columns:
    # the database's converter of each, on every row, cost more than the tuple
    later = (None,) * len(_FILLED_LATER)
    if extra:
        n, found = len(_READ), list(values)
        return _rows(v[:n] + later for v in found), [v[n:] for v in found]
    return _rows(v + later for v in values), []


def _rows(values: Iterable[tuple[Any, ...]]) -> list[JudgmentRow]:
    """The rows of ``values`` (:data:`_READ`'s, then :data:`_FILLED_LATER`'s), the few
    severities marked decoded."""
    return [
        JudgmentRow._make(v)
        if v[_SEVERITIES] is None
        else JudgmentRow._make(v)._replace(severities=_decoded(v[_SEVERITIES]))
        for v in values
    ]


#: What :func:`judgment_rows` reads of each judgment, in :class:`JudgmentRow`'s order (the
#: rows are made straight from the query's tuples, ``_make``), then the fields it leaves
#: None for :func:`span_protocol_rows` to fill.
_READ = (
    "target__translator__name",
    "target__sentence__position",
    "target_id",
    "evaluator__username",
    "sser",
    "edits",
    "ref_length",
    "new_ref",
    "active_seconds",
    "ter_edits",
    "ter_length",
    "severities_text",
    "ier_errors",
    "ier_length",
    "ier_seconds",
    "ier_clicks",
    "pk",
    "esa_score",
)
_FILLED_LATER = ("esa_z", "mqm_points")
_SEVERITIES = _READ.index("severities_text")


def _not_read(row: JudgmentRow, **figures: float | None) -> JudgmentRow:
    """``row`` of a span corpus's judgment: its aWER, HTER, SSER, MQM-style and IER
    counts not read, its ``figures`` filled."""
    return row._replace(
        sser=None,
        edits=None,
        ref_length=None,
        ter_edits=None,
        ter_length=None,
        severities=None,
        ier_errors=None,
        ier_length=None,
        **figures,  # type: ignore[arg-type]
    )


def span_protocol_rows(
    corpus: Corpus, rows: list[JudgmentRow], qs: JudgmentQuerySet, *, whole: bool
) -> list[JudgmentRow]:
    """``rows`` of a corpus judged by error spans (module doc), their aWER counts left
    out and their figures filled: in ESA each score z-normalised among its judge's
    scores in the corpus (the judge's whole corpus even when ``rows`` are some systems'
    only, ``whole`` False: one query more); in MQM each judgment's penalty points from
    its judge's spans (one query, however many judgments), a span of a category no
    longer in the taxonomy weighed as one without a category (its severity's points)."""
    if corpus.scores_esa:
        if whole:
            scored = [(r.pk, r.evaluator, r.esa_score) for r in rows]
        else:
            every = Judgment.objects.in_figures(corpus.pk).filter(esa_score__isnull=False)
            scored = list(every.values_list("pk", "evaluator__username", "esa_score"))
        z = _z_by_judgment(scored)
        return [_not_read(r, esa_z=None if r.pk is None else z.get(r.pk)) for r in rows]
    taxonomy = corpus.taxonomy
    known = set(taxonomy.names)
    errors: dict[int, list[tuple[str, str]]] = defaultdict(list)
    spans = Span.objects.filter(origin=Span.Origin.JUDGE, judgment__in=qs.values("pk"))
    for judgment, severity, category in spans.values_list("judgment_id", "severity", "category"):
        # a category the lead has since taken out of the taxonomy: its severity's points
        errors[judgment].append((severity, category if category in known else ""))
    return [
        _not_read(r, esa_score=None, mqm_points=segment_points(errors.get(r.pk or 0, ()), taxonomy))
        for r in rows
    ]


def _z_by_judgment(scored: Sequence[tuple[int | None, str, int | None]]) -> dict[int, float]:
    """Each judgment's ESA score z-normalised among its judge's, from (judgment, judge,
    score) of every judgment (none without a score)."""
    kept = [(pk, judge, v) for pk, judge, v in scored if pk is not None and v is not None]
    if not kept:
        return {}
    pks, judges, values = zip(*kept, strict=True)
    z = z_normalize(np.asarray(values, dtype=np.float64), judges).values
    return dict(zip(pks, z.tolist(), strict=True))


def with_hter_counts(rows: list[JudgmentRow]) -> list[JudgmentRow]:
    """``rows`` (done judgments, :func:`judgment_rows`) with the HTER counts a worker has
    not filled yet computed (from each row's own new reference) and stored now
    (:func:`~annotation.statistics.hter.hter_counts_stored`): no query when none is
    missing."""
    missing = {
        r.pk: r.new_ref for r in rows if r.pk is not None and r.counted and r.ter_edits is None
    }
    if not missing:
        return rows
    filled = hter_counts_stored(missing)
    return [
        r._replace(ter_edits=filled[r.pk][0], ter_length=filled[r.pk][1]) if r.pk in filled else r
        for r in rows
    ]


def _decoded(text: object) -> dict[str, str]:
    """Severities read as JSON text (:func:`judgment_rows`)."""
    found: dict[str, str] = json.loads(str(text))
    return found


def human_metric_rows(rows: Sequence[JudgmentRow], metric: str) -> tuple[list[int], FloatArray]:
    """(segment of each row, statistics rows) of the judgments that enter ``metric``, as
    :mod:`metrics.human` defines them (SSER: scored ones; aWER, aSER: counted ones)."""
    if metric not in HUMAN_METRICS:
        raise ValueError(f"unknown human metric {metric!r}")
    return _human_rows(rows, (metric,))[metric]


def _human_rows(
    rows: Sequence[JudgmentRow], metrics: Sequence[str] = HUMAN_METRICS
) -> dict[str, tuple[list[int], FloatArray]]:
    """:func:`human_metric_rows` of several metrics, the judgments listed once for all
    of them (the dashboard lists 18,000, after every judgment)."""
    c = _Columns(rows)
    segments, edits, lengths, majors = c.counted
    out = {}
    if "sser" in metrics:
        out["sser"] = c.sser[0], human.sser_stats(c.sser[1])
    if "awer" in metrics:
        out["awer"] = segments, human.awer_stats(edits, lengths)
    if "aser" in metrics:
        out["aser"] = segments, human.aser_stats(edits)
    if "hter" in metrics:  # the same rows [edits, length], of TER's counts
        out["hter"] = c.ter[0], human.awer_stats(c.ter[1], c.ter[2])
    if "mqm" in metrics:
        spans = [r for r in rows if r.mqm_points is not None]
        if spans:  # an MQM corpus: the judge's spans, a mean per candidate
            out["mqm"] = _candidate_means(spans, [r.mqm_points or 0.0 for r in spans])
        else:  # every aWER edit an error, minor unless marked major
            out["mqm"] = list(segments), human.mqm_stats(edits, majors)
    if "esa" in metrics:
        esa = [r for r in rows if r.esa_score is not None]
        out["esa"] = _candidate_means(esa, [r.esa_score or 0 for r in esa])
    if "esa_z" in metrics:
        esa_z = [r for r in rows if r.esa_z is not None]
        out["esa_z"] = _candidate_means(esa_z, [r.esa_z or 0.0 for r in esa_z])
    if "ier" in metrics:  # judgments with information items only
        out["ier"] = c.ier[0], human.ier_stats(c.ier[1], c.ier[2])
    return out


class _Columns:
    """The columns :func:`_human_rows` reads of ``rows``, in one pass over them: each
    figure's judgments (SSER: scored; aWER, aSER, MQM-style: counted; HTER and IER: with
    both their counts), in the rows' order, as (segments, values…) lists."""

    def __init__(self, rows: Sequence[JudgmentRow]) -> None:
        #: (segments, scores) of the scored judgments
        self.sser: tuple[list[int], list[int]] = ([], [])
        #: (segments, edits, reference lengths, majors) of the counted judgments
        self.counted: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
        #: (segments, edits, lengths) of TER's counts; (segments, errors, items) of IER's
        self.ter: tuple[list[int], list[int], list[int]] = ([], [], [])
        self.ier: tuple[list[int], list[int], list[int]] = ([], [], [])
        sser_segments, scores = self.sser
        segments, edits, lengths, majors = self.counted
        for r in rows:
            if r.sser is not None:
                sser_segments.append(r.segment)
                scores.append(r.sser)
            if r.edits is not None and r.ref_length is not None:
                segments.append(r.segment)
                edits.append(r.edits)
                lengths.append(r.ref_length)
                majors.append(major_count(r.severities) if r.severities else 0)
            _both(self.ter, r.segment, r.ter_edits, r.ter_length)
            _both(self.ier, r.segment, r.ier_errors, r.ier_length)


def _both(
    found: tuple[list[int], list[int], list[int]], segment: int, a: int | None, b: int | None
) -> None:
    """(segment, a, b) appended to ``found``'s lists when ``a`` and ``b`` are both given."""
    if a is not None and b is not None:
        found[0].append(segment)
        found[1].append(a)
        found[2].append(b)


def _candidate_means(
    rows: Sequence[JudgmentRow], values: Sequence[float]
) -> tuple[list[int], FloatArray]:
    """(segments, rows) of a figure that is a mean per candidate, then per system
    (:func:`metrics.human.candidate_mean_stats`): ESA, ESA z and an MQM corpus's MQM."""
    return [r.segment for r in rows], human.candidate_mean_stats(
        [r.target_id for r in rows], values
    )


#: Per human metric: ``human_metric_rows`` of one system's judgments (only the metrics
#: some judgment enters).
SystemRows = dict[str, tuple[list[int], FloatArray]]
#: Per system (first-appearance order), its :data:`SystemRows`.
HumanRows = dict[str, SystemRows]


def human_rows_by_system(
    rows: Sequence[JudgmentRow],
    kept: Callable[[str, Callable[[], SystemRows]], SystemRows] | None = None,
) -> HumanRows:
    """:func:`human_metric_rows` of each system's judgments, the rows grouped once (the
    figures and the bootstrap read the same statistics). ``kept``: a system's as kept by
    the system's name, else computed (the callable given) and kept (read-only)."""
    by_system: dict[str, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        by_system[r.system].append(r)

    def of(mine: list[JudgmentRow]) -> SystemRows:
        return {m: found for m, found in _human_rows(mine).items() if found[0]}

    if kept is None:
        return {system: of(mine) for system, mine in by_system.items()}
    return {system: kept(system, partial(_frozen, of, mine)) for system, mine in by_system.items()}


def _frozen(of: Callable[[list[JudgmentRow]], SystemRows], mine: list[JudgmentRow]) -> SystemRows:
    """``of(mine)`` with its arrays read-only: a value kept for later views."""
    found = of(mine)
    for _, stats in found.values():
        stats.flags.writeable = False
    return found


#: :func:`segment_rows` of frozen rows, by the identity of the (segments, rows) pair
#: they came in while this process holds it (each entry holds its pair): a view counts
#: each system's rows once for the table's bootstrap, the estimates and the
#: meta-evaluation, and a later view only the systems whose rows were read again
#: (:func:`~annotation.dashboard.sources.human_rows` keeps the others' pairs).
_SEGMENT_ROWS: OrderedDict[tuple[int, int], tuple[object, tuple[FloatArray, Any]]] = OrderedDict()
#: Twenty systems' rows of eight metrics in a few corpora (about 17 KB each at 1,000
#: sentences).
SEGMENT_ROWS_KEPT = 512
_SEGMENT_ROWS_LOCK = threading.Lock()


def segment_rows(
    found: tuple[Sequence[int], FloatArray], n_segments: int
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """:func:`~metrics.significance.rows_by_segment` of one system's rows of a metric
    (``found``: each row's segment and the rows). Of frozen rows (kept for later views:
    never changed), counted once and shared, read-only (:data:`_SEGMENT_ROWS`)."""
    segments, rows = found
    if rows.flags.writeable:
        return rows_by_segment(rows, segments, n_segments)
    key = (id(found), n_segments)
    with _SEGMENT_ROWS_LOCK:
        hit = _SEGMENT_ROWS.get(key)
        if hit is not None and hit[0] is found:
            _SEGMENT_ROWS.move_to_end(key)
            return hit[1]
    stats, mask = rows_by_segment(rows, segments, n_segments)
    stats.flags.writeable = mask.flags.writeable = False
    with _SEGMENT_ROWS_LOCK:
        _SEGMENT_ROWS[key] = (found, (stats, mask))
        while len(_SEGMENT_ROWS) > SEGMENT_ROWS_KEPT:
            _SEGMENT_ROWS.popitem(last=False)
    return stats, mask


def sentence_scores(
    found: tuple[Sequence[int], FloatArray], metric: str, n_segments: int
) -> FloatArray:
    """One system's score of every sentence in the human ``metric``, from its judgments'
    rows (:func:`human_metric_rows`: each judgment's segment and row); NaN where none
    was judged. A sentence judged more than once has its rows summed and the rate over
    them (:func:`metrics.significance.rows_by_segment`, the figures' own rule): the mean
    of its judgments for SSER, aSER and MQM-style (one unit each), the judges' rates
    weighted by their reference lengths or items for aWER, HTER and IER, as the
    system's figure weighs them. The drill-down's sentence figures, the estimates'
    human scores and the campaign's power read this one rule."""
    out = np.full(n_segments, math.nan)
    if len(found[0]):
        stats, mask = segment_rows(found, n_segments)
        out[mask] = human.HUMAN_METRICS[metric].score_from_stats(stats[mask])
    return out


def sentence_scores_by_system(
    by_system: HumanRows, metric: str, n_segments: int
) -> dict[str, FloatArray]:
    """:func:`sentence_scores` of every system that has a judgment entering ``metric``."""
    return {
        system: sentence_scores(mine[metric], metric, n_segments)
        for system, mine in by_system.items()
        if metric in mine
    }


def human_figures(
    rows: Sequence[JudgmentRow], by_system: HumanRows | None = None
) -> dict[str, dict[str, Score]]:
    """Per system its SSER, aWER and aSER :class:`~metrics.stats.Score` (``metrics.human``
    definitions) from rows already read (or their :func:`human_rows_by_system`), so the
    dashboard reads the judgments once per view. A system has a figure only where a
    judgment enters it."""
    grouped = human_rows_by_system(rows) if by_system is None else by_system
    figure = dict(human.HUMAN_METRICS)
    if any(r.mqm_points is not None for r in rows):
        figure["mqm"] = human.MQM_SPANS  # its signature says: from the judge's spans
    return {
        system: {m: figure[m].corpus_score(stats) for m, (_, stats) in mine.items()}
        for system, mine in grouped.items()
    }


def human_scores(corpus: Corpus) -> dict[str, dict[str, Score]]:
    """SSER, aWER and aSER per system over done judgments (``manage.py scores``)."""
    return human_figures(judgment_rows(corpus))
