"""The judgments as the human figures read them: one row per counted judgment
(:class:`JudgmentRow`, one query for a whole corpus) and the SSER, aWER, aSER, HTER,
MQM-style and IER statistics rows and figures per system, as :mod:`metrics.human` defines
them."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from django.db.models import TextField, Value
from django.db.models.functions import Cast, NullIf

from annotation.models import Corpus, Judgment
from annotation.spans import major_count
from annotation.statistics.hter import hter_counts_stored
from annotation.statistics.metric_set import HUMAN_METRICS
from metrics import human
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
    leaves a done judgment out."""
    qs = Judgment.objects.in_figures(corpus.pk)
    if systems:
        qs = qs.filter(target__translator__name__in=systems)
    # most judgments mark no severity: read as text, NULL when empty, and only the others
    # decoded (decoding 18,000 empty objects was a quarter or more of reading them)
    empty = Value("{}", output_field=TextField())
    values = qs.annotate(
        severities_text=NullIf(Cast("severities", TextField()), empty)
    ).values_list(
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
    )
    rows = [
        row if row.severities is None else row._replace(severities=_decoded(row.severities))
        for row in map(JudgmentRow._make, values)
    ]
    return with_hter_counts(rows)


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
    """:func:`human_metric_rows` of several metrics, each kind of judgment listed once
    (the dashboard lists 18,000 of them)."""
    out = {}
    if "sser" in metrics:
        scored = [(r.segment, r.sser) for r in rows if r.sser is not None]
        segments, scores = (list(c) for c in zip(*scored, strict=True)) if scored else ([], [])
        out["sser"] = segments, human.sser_stats(scores)
    if "awer" in metrics or "aser" in metrics:
        segments, edits, lengths = _counts_of(rows, "edits", "ref_length")
        if "awer" in metrics:
            out["awer"] = segments, human.awer_stats(edits, lengths)
        if "aser" in metrics:
            out["aser"] = segments, human.aser_stats(edits)
    if "hter" in metrics:  # the same rows [edits, length], of TER's counts
        segments, edits, lengths = _counts_of(rows, "ter_edits", "ter_length")
        out["hter"] = segments, human.awer_stats(edits, lengths)
    if "mqm" in metrics:  # every aWER edit an error, minor unless marked major
        mine = [r for r in rows if r.counted]
        majors = [major_count(r.severities) for r in mine]
        edits = [r.edits for r in mine if r.edits is not None]  # all of them: counted
        out["mqm"] = [r.segment for r in mine], human.mqm_stats(edits, majors)
    if "ier" in metrics:  # judgments with information items only
        segments, errors, items = _counts_of(rows, "ier_errors", "ier_length")
        out["ier"] = segments, human.ier_stats(errors, items)
    return out


def _counts_of(
    rows: Sequence[JudgmentRow], edits: str, length: str
) -> tuple[list[int], list[int], list[int]]:
    """(segments, edits, lengths) of the rows that have both counts (named fields)."""
    found = [
        (r.segment, e, n)
        for r in rows
        if (e := getattr(r, edits)) is not None and (n := getattr(r, length)) is not None
    ]
    if not found:
        return [], [], []
    segments, counts, lengths = zip(*found, strict=True)
    return list(segments), list(counts), list(lengths)


#: Per system (first-appearance order), per human metric: ``human_metric_rows`` of the
#: system's judgments (only the metrics some judgment enters).
HumanRows = dict[str, dict[str, tuple[list[int], FloatArray]]]


def human_rows_by_system(rows: Sequence[JudgmentRow]) -> HumanRows:
    """:func:`human_metric_rows` of each system's judgments, the rows grouped once (the
    figures and the bootstrap read the same statistics)."""
    by_system: dict[str, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        by_system[r.system].append(r)
    return {
        system: {m: found for m, found in _human_rows(mine).items() if found[0]}
        for system, mine in by_system.items()
    }


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
    segments, rows = found
    out = np.full(n_segments, math.nan)
    if len(segments):
        stats, mask = rows_by_segment(rows, segments, n_segments)
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
    return {
        system: {m: human.HUMAN_METRICS[m].corpus_score(stats) for m, (_, stats) in mine.items()}
        for system, mine in grouped.items()
    }


def human_scores(corpus: Corpus) -> dict[str, dict[str, Score]]:
    """SSER, aWER and aSER per system over done judgments (``manage.py scores``)."""
    return human_figures(judgment_rows(corpus))
