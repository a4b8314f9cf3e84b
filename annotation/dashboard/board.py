"""The dashboard's read logic: plain functions over one corpus, and :class:`Dashboard`,
which computes each part of the page on first use (see the package docstring for what
the page shows and why it is fast)."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
from django.db.models import Q

from annotation.dashboard.cache import (
    AutomaticStats,
    automatic_stats,
    cache_key,
    cached_significance,
    human_cache_key,
)
from annotation.dashboard.charts import bar_chart_svg, rank_chart_svg
from annotation.dashboard.effort import Effort, effort
from annotation.dashboard.judges import Agreement, JudgesPanel, agreement, judges_panel
from annotation.dashboard.meta import MetaEvaluation, meta_evaluation
from annotation.dashboard.preprocessing import Preprocessing, metric_objects
from annotation.formatting import number
from annotation.models import Corpus, Target, Translator
from annotation.scoring import (
    AUTOMATIC_METRICS,
    HUMAN_METRICS,
    JudgmentRow,
    human_figures,
    human_metric_rows,
    judgment_rows,
)
from annotation.text import REFERENCE_ROLES, nearest, reference_order, words
from metrics import human
from metrics.align import Alignment, Op, align, distance
from metrics.registry import metric_info
from metrics.significance import (
    DEFAULT_ALPHA,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    UNRANKED,
    Bootstrap,
    Interval,
    MetricSignificance,
    rows_by_segment,
)
from metrics.stats import FloatArray, Score

#: The table's columns, in seed 001 Table 1's order of families: automatic, then human.
METRICS: tuple[str, ...] = (*AUTOMATIC_METRICS, *HUMAN_METRICS)
#: Sentences per drill-down page (each is aligned when shown, never all at once).
PAGE_SIZE = 50

# --------------------------------------------------------------------------- judgments


def human_segment_stats(
    rows: Sequence[JudgmentRow], systems: Sequence[str], metric: str, n_segments: int
) -> tuple[dict[str, FloatArray], dict[str, Any]]:
    """Per system: (segments × 2 statistics, judged-segment mask) of one human metric.

    Two judgments of the same candidate are summed into its segment's row
    (:func:`metrics.significance.rows_by_segment`): the rate over both.
    """
    by_system: dict[str, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        by_system[r.system].append(r)
    stats: dict[str, FloatArray] = {}
    masks: dict[str, Any] = {}
    for s in systems:
        segments, rows_of_s = human_metric_rows(by_system.get(s, []), metric)
        if segments:
            stats[s], masks[s] = rows_by_segment(rows_of_s, segments, n_segments)
        else:
            stats[s] = np.zeros((n_segments, 2), dtype=np.float64)
            masks[s] = np.zeros(n_segments, dtype=np.bool_)
    return stats, masks


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Cell:
    """One figure of the table: ``score`` is ``manage.py scores``'s, ``rank`` the earned
    group (0 = not ranked), ``interval`` the 95% bootstrap interval, ``n`` the sentences
    it rests on (human figures: judged sentences; automatic: all) and ``judgments``."""

    metric: str
    score: float | None
    signature: str
    rank: int
    interval: Interval | None
    n: int
    judgments: int | None
    best: bool
    bootstrap: str

    @property
    def is_human(self) -> bool:
        return metric_info(self.metric).human

    @property
    def has_score(self) -> bool:
        return self.score is not None and math.isfinite(self.score)

    @property
    def display(self) -> str:
        """The figure as the table prints it: two decimals."""
        return number(self.score)

    @property
    def value_attr(self) -> str:
        """Full precision for ``data-value`` (what the page's sorting reads)."""
        return repr(float(self.score)) if self.has_score and self.score is not None else ""

    @property
    def half_width(self) -> str:
        iv = self.interval
        ok = iv is not None and math.isfinite(iv.half_width)
        return f"{iv.half_width:.2f}" if ok and iv is not None else ""

    @property
    def title(self) -> str:
        """What hovering shows: the signature, the interval and the test."""
        if not self.has_score:
            return f"{metric_info(self.metric).label}: no judgments yet"
        parts = [self.signature]
        if self.interval is not None and math.isfinite(self.interval.mean):
            parts.append(
                f"95% interval {self.interval.low:.2f}–{self.interval.high:.2f} "
                f"(mean {self.interval.mean:.2f} ± {self.interval.half_width:.2f})"
            )
        if self.rank:
            parts.append(f"rank group {self.rank}")
        if self.is_human:
            parts.append(f"{self.n} judged sentences, {self.judgments} judgments")
        parts.append(self.bootstrap)
        return " · ".join(parts)


@dataclass(frozen=True)
class Row:
    system: str
    translator_pk: int | None
    cells: tuple[Cell, ...]

    def cell(self, metric: str) -> Cell:
        for c in self.cells:
            if c.metric == metric:
                return c
        raise ValueError(f"unknown metric {metric!r}")


@dataclass(frozen=True)
class MetricsTable:
    """What the table, its CSV and its JSON show: rows in the requested order, and the
    test's recorded settings."""

    corpus: str
    preprocessing: Preprocessing
    metrics: tuple[str, ...]
    rows: tuple[Row, ...]
    n_samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED
    alpha: float = DEFAULT_ALPHA

    def ranks(self) -> dict[tuple[str, str], int]:
        return {(r.system, c.metric): c.rank for r in self.rows for c in r.cells}


SORT_KEYS = frozenset(METRICS) | {f"-{m}" for m in METRICS}


def sort_rows(rows: Sequence[Row], sort: str) -> tuple[Row, ...]:
    """``metric`` sorts best first, ``-metric`` worst first; no score last; ties and ""
    keep the corpus order. (``static/js/dashboard.js`` sorts the same way in the page.)"""
    if not sort:
        return tuple(rows)
    if sort not in SORT_KEYS:
        raise ValueError(f"sort={sort!r}: a metric ({', '.join(METRICS)}), '-' for worst first")
    metric = sort.lstrip("-")
    flip = metric_info(metric).higher_is_better != sort.startswith("-")

    def key(row: Row) -> tuple[bool, float]:
        c = row.cell(metric)
        if not c.has_score or c.score is None:
            return (True, 0.0)
        return (False, -c.score if flip else c.score)

    return tuple(sorted(rows, key=key))


# --------------------------------------------------------------------------- the whole page


def _finite_or_none(v: float) -> float | None:
    return v if math.isfinite(v) else None


class Dashboard:
    """Everything the dashboard shows about one corpus, each part computed on first use.

    Panels read the same few things — the cached automatic statistics, one query of
    judgments, one bootstrap index matrix — so a panel request (htmx) costs only what
    that panel needs, and the full page computes each thing once.
    """

    def __init__(
        self,
        corpus: Corpus,
        preprocessing: Preprocessing | None = None,
        *,
        normalize: bool = False,
        sort: str = "",
    ) -> None:
        if sort and sort not in SORT_KEYS:
            raise ValueError(f"sort={sort!r}: a metric ({', '.join(METRICS)}), '-' for worst")
        self.corpus = corpus
        self.preprocessing = preprocessing or Preprocessing()
        self.normalize = normalize
        self.sort = sort

    # ---- inputs

    @cached_property
    def auto(self) -> AutomaticStats:
        return automatic_stats(self.corpus, self.preprocessing)

    @cached_property
    def systems(self) -> tuple[str, ...]:
        return self.auto.systems

    @cached_property
    def translator_pks(self) -> dict[str, int]:
        return dict(
            self.corpus.translators.filter(role=Translator.Role.SYSTEM).values_list("name", "pk")
        )

    @cached_property
    def rows(self) -> list[JudgmentRow]:
        return judgment_rows(self.corpus)

    @cached_property
    def human(self) -> dict[str, dict[str, Score]]:
        """``manage.py scores``'s human figures, from the judgments already read
        (:func:`human_figures`; not a second query of the same rows)."""
        return human_figures(self.rows)

    @cached_property
    def bootstrap(self) -> Bootstrap | None:
        """One index matrix for every metric (the test is paired across metrics too)."""
        n = self.auto.n_segments
        return Bootstrap(n, DEFAULT_SAMPLES, DEFAULT_SEED) if n and self.systems else None

    @cached_property
    def metrics(self) -> dict[str, Any]:
        return metric_objects(self.preprocessing)

    # ---- significance and the table

    @cached_property
    def significance(self) -> dict[str, MetricSignificance]:
        """Paired bootstrap of every metric; human metrics on common judged sentences.

        Both halves are kept in the file cache: the automatic one under the statistics'
        key, the human one under a fingerprint of the judgments' statistics (a changed
        judgment changes the fingerprint, so a stale result is never found).
        """
        if not self.auto.n_segments or not self.systems:
            return {}
        out = cached_significance(
            cache_key(self.corpus, self.preprocessing) + ":significance",
            self._automatic_significance,
        )
        if self.rows:
            key = human_cache_key(self.corpus, self.systems, self.auto.n_segments, self.rows)
            out.update(cached_significance(key, self._human_significance))
        return out

    def _automatic_significance(self) -> dict[str, MetricSignificance]:
        bootstrap = self.bootstrap
        if bootstrap is None:  # no segment or no system: ``significance`` returns first
            return {}
        return {
            m: bootstrap.compare(
                self.auto.stats(m),
                self.metrics[m].score_from_stats,
                higher_is_better=metric_info(m).higher_is_better,
                metric=m,
            )
            for m in AUTOMATIC_METRICS
        }

    def _human_significance(self) -> dict[str, MetricSignificance]:
        bootstrap = self.bootstrap
        if bootstrap is None:
            return {}
        out = {}
        for m in HUMAN_METRICS:
            stats, masks = human_segment_stats(self.rows, self.systems, m, self.auto.n_segments)
            out[m] = bootstrap.compare(
                stats,
                human.HUMAN_METRICS[m].score_from_stats,
                higher_is_better=metric_info(m).higher_is_better,
                masks=masks,
                metric=m,
            )
        return out

    @cached_property
    def table(self) -> MetricsTable:
        judgments: dict[tuple[str, str], int] = defaultdict(int)
        for r in self.rows:
            if r.sser is not None:
                judgments[(r.system, "sser")] += 1
            if r.counted:
                judgments[(r.system, "awer")] += 1
                judgments[(r.system, "aser")] += 1
        scores: dict[str, dict[str, Score]] = {m: self.auto.scores[m] for m in AUTOMATIC_METRICS}
        for m in HUMAN_METRICS:
            scores[m] = {s: f[m] for s, f in self.human.items() if m in f}
        best: dict[str, float] = {}
        for m in METRICS:
            finite = [sc.score for sc in scores[m].values() if math.isfinite(sc.score)]
            if finite:
                best[m] = max(finite) if metric_info(m).higher_is_better else min(finite)
        rows = []
        for s in self.systems:
            cells = []
            for m in METRICS:
                score = scores[m].get(s)
                sig = self.significance.get(m)
                fig = sig.figure(s) if sig is not None else None
                value = score.score if score is not None else None
                cells.append(
                    Cell(
                        metric=m,
                        score=value,
                        signature=score.signature if score is not None else "",
                        rank=fig.group if fig is not None and value is not None else UNRANKED,
                        interval=fig.interval if fig is not None and value is not None else None,
                        n=fig.n if fig is not None else 0,
                        judgments=judgments.get((s, m), 0) if m in HUMAN_METRICS else None,
                        best=value is not None and m in best and value == best[m],
                        bootstrap=sig.signature if sig is not None else "",
                    )
                )
            rows.append(Row(s, self.translator_pks.get(s), tuple(cells)))
        return MetricsTable(
            corpus=self.corpus.name,
            preprocessing=self.preprocessing,
            metrics=METRICS,
            rows=sort_rows(rows, self.sort),
        )

    # ---- charts

    def bar_chart(self, metric: str) -> str:
        if metric not in METRICS:
            raise ValueError(f"unknown metric {metric!r}")
        bars = []
        signatures = []
        for s in self.systems:
            c = self.table_by_system[s].cell(metric)
            signatures.append(c.signature)
            iv = c.interval
            ok = iv is not None and math.isfinite(iv.mean)
            bars.append(
                (
                    s,
                    c.score if c.score is not None else math.nan,
                    iv.low if ok and iv is not None else None,
                    iv.high if ok and iv is not None else None,
                    c.rank if c.rank else None,
                )
            )
        info = metric_info(metric)
        unit = "percent" if info.unit == "%" else ""
        return bar_chart_svg(info.label, bars, unit, info.higher_is_better, signatures=signatures)

    def rank_chart(self) -> str:
        ranks = {(s, metric_info(m).label): rank for (s, m), rank in self.table.ranks().items()}
        return rank_chart_svg(
            self.systems, [metric_info(m).label for m in METRICS], ranks, "Rank groups per metric"
        )

    @cached_property
    def table_by_system(self) -> dict[str, Row]:
        return {r.system: r for r in self.table.rows}

    @cached_property
    def charts(self) -> list[tuple[str, str, str]]:
        """(name, title, svg) of the rank chart and one bar chart per metric."""
        out = [("ranks", "Rank groups", self.rank_chart())]
        out += [(m, metric_info(m).label, self.bar_chart(m)) for m in METRICS]
        return out

    # ---- judges, agreement, effort, meta-evaluation

    @cached_property
    def judges(self) -> JudgesPanel:
        return judges_panel(self.rows, self.systems, normalize=self.normalize)

    @cached_property
    def agreement(self) -> Agreement:
        return agreement(self.rows, normalize=self.normalize)

    @cached_property
    def effort(self) -> Effort:
        return effort(self.rows, self.systems)

    @cached_property
    def meta(self) -> MetaEvaluation:
        return meta_evaluation(
            self.auto, self.metrics, self.rows, self.human, normalize=self.normalize
        )

    # ---- for the views

    PANEL_PARTS: ClassVar[dict[str, tuple[str, ...]]] = {
        "table": ("table",),
        "charts": ("table", "charts"),
        "judges": ("judges", "agreement"),
        "effort": ("effort",),
        "meta": ("meta",),
    }

    def prepare(self, *panels: str) -> Dashboard:
        """Compute what ``panels`` show now, so templates only read (no query runs while
        a template renders). No argument: every panel."""
        for name in panels or tuple(self.PANEL_PARTS):
            if name not in self.PANEL_PARTS:
                raise ValueError(
                    f"unknown panel {name!r}: choose one of {', '.join(self.PANEL_PARTS)}"
                )
            for part in self.PANEL_PARTS[name]:
                getattr(self, part)
        self.rows  # noqa: B018 (the page header counts them)
        return self


# --------------------------------------------------------------------------- downloads


def table_json(table: MetricsTable) -> dict[str, Any]:
    """``manage.py scores --json``'s shape — ``{"corpus", "translators": {system: {metric:
    {"score", "signature"}}}}``, the same numbers — plus per figure its ``rank``, 95%
    ``ci`` [low, high], the sentences ``n`` it rests on and the ``bootstrap`` signature,
    and at the top the preprocessing and the test. Missing figures are left out, as
    ``manage.py scores`` does; undefined numbers are ``null``."""
    translators: dict[str, dict[str, Any]] = {}
    for row in table.rows:
        figures: dict[str, Any] = {}
        for c in row.cells:
            if c.score is None:
                continue
            iv = c.interval
            figures[c.metric] = {
                "score": c.score,
                "signature": c.signature,
                "rank": c.rank,
                "ci": [
                    _finite_or_none(iv.low) if iv else None,
                    _finite_or_none(iv.high) if iv else None,
                ],
                "n": c.n,
                "bootstrap": c.bootstrap,
            }
        translators[row.system] = figures
    return {
        "corpus": table.corpus,
        "preprocessing": table.preprocessing.params(),
        "significance": {
            "test": "paired-bs",
            "samples": table.n_samples,
            "seed": table.seed,
            "alpha": table.alpha,
        },
        "translators": translators,
    }


def json_text(table: MetricsTable) -> str:
    return json.dumps(table_json(table), indent=2, ensure_ascii=False, allow_nan=False)


def table_csv(table: MetricsTable) -> str:
    """One row per system; per metric its score (full precision), rank, interval, the
    sentences it rests on and its signature. Empty where there is no figure."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["system"]
    for m in table.metrics:
        header += [m, f"{m}_rank", f"{m}_ci_low", f"{m}_ci_high", f"{m}_n", f"{m}_signature"]
    writer.writerow(header)

    def num(v: float | None) -> str:
        return "" if v is None or not math.isfinite(v) else repr(float(v))

    for row in table.rows:
        line = [row.system]
        for c in row.cells:
            iv = c.interval
            if c.score is None:
                line += ["", "", "", "", "", ""]
                continue
            line += [
                num(c.score),
                str(c.rank),
                num(iv.low if iv else None),
                num(iv.high if iv else None),
                str(c.n),
                c.signature,
            ]
        writer.writerow(line)
    return out.getvalue()


# --------------------------------------------------------------------------- drill-down


@dataclass(frozen=True)
class ShownWord:
    """One position of an alignment as the drill-down draws it (``op`` is the
    :class:`metrics.align.Op` value; ``ref_word`` is what the reference has there)."""

    op: str
    hyp_word: str | None
    ref_word: str | None

    @property
    def title(self) -> str:
        if self.op == Op.SUBSTITUTION:
            return f"substitution: the reference has “{self.ref_word}”"
        if self.op == Op.EXTRA:
            return "extra: the reference has no word here"
        if self.op == Op.MISSING:
            return f"missing: the reference has “{self.ref_word}”"
        return ""


def shown_words(alignment: Alignment) -> tuple[ShownWord, ...]:
    return tuple(ShownWord(e.op.value, e.hyp_word, e.ref_word) for e in alignment.ops)


@dataclass(frozen=True)
class NewRefView:
    evaluator: str
    new_ref: str
    sser: int | None
    edits: int | None
    length: int | None
    words: tuple[ShownWord, ...]


@dataclass(frozen=True)
class SentenceView:
    segment: int
    source: str
    candidate: str
    other_candidate: str | None
    scores: dict[str, float | None]
    sort_value: float | None
    reference_label: str
    reference: str
    distance: int
    words: tuple[ShownWord, ...]
    new_refs: tuple[NewRefView, ...]

    @property
    def number(self) -> int:
        return self.segment + 1


@dataclass(frozen=True)
class DrillDown:
    system: str
    other: str | None
    metric: str
    order: str
    page: int
    pages: int
    total: int
    sentences: tuple[SentenceView, ...]
    signature: str
    #: Per automatic metric the signature of its sentence scores (shown on hover).
    signatures: dict[str, str] = field(default_factory=dict)

    @property
    def metric_label(self) -> str:
        return metric_info(self.metric).label


DRILL_ORDERS = ("worst", "best", "position")


def sentence_metric_values(
    auto: AutomaticStats,
    metrics: Mapping[str, Any],
    rows: Sequence[JudgmentRow],
    system: str,
) -> dict[str, FloatArray]:
    """Every metric's sentence score of one system over all segments (NaN: not judged)."""
    n = auto.n_segments
    out: dict[str, FloatArray] = {}
    for m in AUTOMATIC_METRICS:
        stats = auto.segment_stats(m, system)
        out[m] = np.asarray(metrics[m].sentence_score_from_stats(stats), dtype=np.float64)
    mine = [r for r in rows if r.system == system]
    for m in HUMAN_METRICS:
        arr = np.full(n, math.nan)
        segments, rows_of_m = human_metric_rows(mine, m)
        if segments:
            stats, mask = rows_by_segment(rows_of_m, segments, n)
            arr[mask] = human.HUMAN_METRICS[m].score_from_stats(stats[mask])
        out[m] = arr
    return out


def drill_down(
    dash: Dashboard,
    system: str,
    *,
    metric: str = "wer",
    order: str = "worst",
    other: str | None = None,
    page: int = 1,
) -> DrillDown:
    """One system's sentences sorted by ``metric`` (or by its difference to ``other``),
    ``PAGE_SIZE`` per page, each aligned (13a or the chosen preprocessing) against its
    nearest reference — the one at the smallest edit distance, the first on ties, as
    seed 001 §3's tool proposes it — and against each judge's new reference (13a words,
    the aWER alignment).

    ``worst`` puts the sentences where the system does worst (or falls furthest behind
    ``other``) first; sentences without a value (an unjudged sentence for a human
    metric) come last in every order.
    """
    if system not in dash.systems:
        raise ValueError(f"unknown system {system!r}")
    if other is not None and (other not in dash.systems or other == system):
        raise ValueError(f"other={other!r} must be another system of the corpus")
    if metric not in METRICS:
        raise ValueError(f"metric={metric!r}: choose one of {', '.join(METRICS)}")
    if order not in DRILL_ORDERS:
        raise ValueError(f"order={order!r}: choose one of {', '.join(DRILL_ORDERS)}")
    n = dash.auto.n_segments
    mine = sentence_metric_values(dash.auto, dash.metrics, dash.rows, system)
    key = mine[metric]
    if other is not None:
        theirs = sentence_metric_values(dash.auto, dash.metrics, dash.rows, other)
        key = key - theirs[metric]
    segments = np.arange(n)
    if order == "position":
        ordered = segments
    else:
        # worst first: high error / low BLEU; NaN last in both orders
        worse_is_higher = not metric_info(metric).higher_is_better
        sign = -1.0 if (order == "worst") == worse_is_higher else 1.0
        nan = np.isnan(key)
        ordered = np.lexsort((segments, np.where(nan, 0.0, sign * key), nan))
    pages = max(1, math.ceil(n / PAGE_SIZE))
    page = min(max(page, 1), pages)
    shown = [int(k) for k in ordered[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]]
    texts = _page_texts(dash.corpus, shown, system, other)
    pp = dash.preprocessing.preprocessor()
    by_candidate: dict[int, list[JudgmentRow]] = defaultdict(list)
    for r in dash.rows:
        if r.system == system:
            by_candidate[r.segment].append(r)
    sentences = []
    for seg in shown:
        source, refs, candidate, other_candidate = texts[seg]
        hyp = pp.tokens(candidate)
        distances = [distance(hyp, pp.tokens(ref)) for _, ref in refs]
        ref_label, ref_text, ref_distance = "", "", 0
        if refs:
            k = nearest(distances)[0]
            ref_label, ref_text, ref_distance = refs[k][0], refs[k][1], distances[k]
        new_refs = tuple(
            NewRefView(
                evaluator=r.evaluator,
                new_ref=r.new_ref,
                sser=r.sser,
                edits=r.edits,
                length=r.ref_length,
                words=shown_words(align(words(candidate), words(r.new_ref))),
            )
            for r in by_candidate.get(seg, [])
        )
        value = float(key[seg])
        sentences.append(
            SentenceView(
                segment=seg,
                source=source,
                candidate=candidate,
                other_candidate=other_candidate,
                scores={
                    m: (None if math.isnan(v[seg]) else float(v[seg])) for m, v in mine.items()
                },
                sort_value=None if math.isnan(value) else value,
                reference_label=ref_label,
                reference=ref_text,
                distance=ref_distance,
                words=shown_words(align(hyp, pp.tokens(ref_text))),
                new_refs=new_refs,
            )
        )
    return DrillDown(
        system=system,
        other=other,
        metric=metric,
        order=order,
        page=page,
        pages=pages,
        total=n,
        sentences=tuple(sentences),
        signature=dash.preprocessing.signature,
        signatures={m: dash.auto.scores[m][system].signature for m in AUTOMATIC_METRICS},
    )


def _page_texts(
    corpus: Corpus, segments: Iterable[int], system: str, other: str | None
) -> dict[int, tuple[str, list[tuple[str, str]], str, str | None]]:
    """(source, [(reference name, text)] first reference first, candidate, other's
    candidate) of the shown segments, in one query."""
    wanted = list(segments)
    names = [system] if other is None else [system, other]
    qs = Target.objects.filter(sentence__corpus=corpus, sentence__position__in=wanted).filter(
        Q(translator__role__in=REFERENCE_ROLES) | Q(translator__name__in=names)
    )
    values = qs.order_by().values_list(
        "sentence__position",
        "sentence__source",
        "translator__name",
        "translator__role",
        "position",
        "text",
    )
    sources: dict[int, str] = {}
    refs: dict[int, list[tuple[tuple[bool, int], str, str]]] = defaultdict(list)
    cands: dict[tuple[int, str], str] = {}
    for seg, source, name, role, position, text in values:
        sources[seg] = source
        if role == Translator.Role.SYSTEM:
            cands[(seg, name)] = text
        else:
            refs[seg].append((reference_order(role, position), name, text))
    return {
        seg: (
            sources.get(seg, ""),
            [(name, text) for _, name, text in sorted(refs[seg])],
            cands.get((seg, system), ""),
            None if other is None else cands.get((seg, other), ""),
        )
        for seg in wanted
    }
