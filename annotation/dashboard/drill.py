"""The drill-down: one system's sentences sorted by a metric or by the difference to
another system, each with the edit operations against its nearest reference and against
every judge's new reference."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from html import escape

import numpy as np
import numpy.typing as npt
from django.db.models import Q
from django.utils.safestring import SafeString, mark_safe

from annotation.dashboard.parts import Parts, Pending
from annotation.dashboard.segments import Segmentation, SegmentCut, page_segmentation
from annotation.dashboard.sources import corpus_systems, grown_pool, judgments_of, metrics, systems
from annotation.dashboard.table import ALL_METRICS
from annotation.models import Corpus, Target, Translator
from annotation.statistics import (
    AUTOMATIC_METRICS,
    HUMAN_METRICS,
    AutomaticStats,
    JudgmentRow,
    SentencePool,
    human_metric_rows,
    sentence_scores,
)
from annotation.text import REFERENCE_ROLES, nearest, reference_order, words
from metrics.align import Alignment, Op, align, distance
from metrics.registry import metric_info
from metrics.stats import FloatArray, Metric
from metrics.tokenize import Preprocessor

#: Sentences per drill-down page (each is aligned when shown, never all at once).
PAGE_SIZE = 50


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


def words_markup(shown: Sequence[ShownWord]) -> SafeString:
    """The words of an alignment as the page marks them up: a match as plain text, an
    operation with its class, ``data-op`` and the reference word on hover (every word
    followed by a space and a line end).

    Built here in one string, not by a template per word: a drill-down page shows
    thousands of words (fifty sentences, each against its nearest reference and every
    judge's new reference), and a template include per word costs more than the rest of
    the page together. Every text is escaped as templates escape it (:func:`html.escape`,
    which :func:`django.utils.html.escape` is)."""
    out = []
    for w in shown:
        if w.op == Op.MATCH:
            out.append(f'<span class="w">{escape(str(w.hyp_word))}</span> \n')
            continue
        title = escape(w.title)
        hyp_word, ref_word = escape(str(w.hyp_word)), escape(str(w.ref_word))
        if w.op == Op.MISSING:
            body = f"–<sub>{ref_word}</sub>"
        elif w.op == Op.EXTRA:
            body = hyp_word
        else:
            body = f"{hyp_word}<sub>{ref_word}</sub>"
        out.append(f'<span class="e e-{w.op}" data-op="{w.op}" title="{title}">{body}</span> \n')
    return mark_safe("".join(out))  # noqa: S308 (every text escaped above)


@dataclass(frozen=True)
class NewRefView:
    evaluator: str
    new_ref: str
    sser: int | None
    edits: int | None
    length: int | None
    words: tuple[ShownWord, ...]

    @property
    def markup(self) -> SafeString:
        return words_markup(self.words)


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
    #: Where a re-segmented system's segment begins and ends (None: an ordinary system).
    cut: SegmentCut | None = None
    #: The sentence's references when the grown pool is chosen (None: the original ones).
    references: int | None = None

    @property
    def number(self) -> int:
        return self.segment + 1

    @property
    def markup(self) -> SafeString:
        return words_markup(self.words)


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
    #: A system imported as one document: its cost and boundaries (seed 002).
    segmentation: Segmentation | None = None

    @property
    def metric_label(self) -> str:
        return metric_info(self.metric).label


DRILL_ORDERS = ("worst", "best", "position")


def sentence_metric_values(
    auto: AutomaticStats,
    metrics: Mapping[str, Metric],
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
        out[m] = sentence_scores(human_metric_rows(mine, m), m, n)
    return out


def drill_down(
    parts: Parts,
    auto: AutomaticStats,
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
    metric) come last in every order. ``auto``: the choice's automatic statistics (the
    view shows their jobs' progress instead while they are pending).
    """
    _check_arguments(parts.get(systems), system, metric=metric, order=order, other=other)
    n = auto.n_segments
    rows = judgments_of(parts, system) if other is None else judgments_of(parts, system, other)
    mine = sentence_metric_values(auto, parts.get(metrics), rows, system)
    key = mine[metric]
    if other is not None:
        key = key - sentence_metric_values(auto, parts.get(metrics), rows, other)[metric]
    pages = max(1, math.ceil(n / PAGE_SIZE))
    page = min(max(page, 1), pages)
    ordered = sentence_order(key, metric, order)
    shown = [int(k) for k in ordered[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]]
    texts = _page_texts(parts.corpus, shown, system, other)
    judged: dict[int, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        if r.system == system:
            judged[r.segment].append(r)
    pp = parts.preprocessing.preprocessor()
    segmentation = None
    found = parts.get(corpus_systems)
    if system in found.resegmented:  # read with the systems: an ordinary one asks no more
        references = {seg: text.references for seg, text in texts.items()}
        segmentation = page_segmentation(found.pks[system], shown, n, references)
    cuts = {} if segmentation is None else segmentation.cuts
    pool = parts.get(grown_pool)
    counts = None if pool is None or isinstance(pool, Pending) else pool.counts
    if counts is not None:  # the pool's references, as its figures read them (the
        # segmentation above was cut against the corpus's own)
        texts = {seg: _in_pool(t, counts.pools[seg]) for seg, t in texts.items()}
    return DrillDown(
        system=system,
        other=other,
        metric=metric,
        order=order,
        page=page,
        pages=pages,
        total=n,
        sentences=tuple(
            _sentence_view(
                texts[seg],
                pp,
                mine,
                key,
                judged.get(seg, []),
                cuts.get(seg),
                len(texts[seg].references) if counts is not None else None,
            )
            for seg in shown
        ),
        signature=parts.preprocessing.signature,
        signatures={m: auto.scores[m][system].signature for m in AUTOMATIC_METRICS},
        segmentation=segmentation,
    )


def _check_arguments(
    systems: Sequence[str], system: str, *, metric: str, order: str, other: str | None
) -> None:
    """A ``ValueError`` naming the first bad argument (the view answers 400)."""
    if system not in systems:
        raise ValueError(f"unknown system {system!r}")
    if other is not None and (other not in systems or other == system):
        raise ValueError(f"other={other!r} must be another system of the corpus")
    if metric not in ALL_METRICS:
        raise ValueError(f"metric={metric!r}: choose one of {', '.join(ALL_METRICS)}")
    if order not in DRILL_ORDERS:
        raise ValueError(f"order={order!r}: choose one of {', '.join(DRILL_ORDERS)}")


def sentence_order(key: FloatArray, metric: str, order: str) -> npt.NDArray[np.intp]:
    """The segments in the drill-down's ``order`` of the sort values ``key``: ``worst``
    first (a high error rate, a low BLEU), ``best`` first or ``position``; ties keep the
    corpus order and NaN (no value) comes last in both sorted orders."""
    segments = np.arange(len(key))
    if order == "position":
        return segments
    worse_is_higher = not metric_info(metric).higher_is_better
    sign = -1.0 if (order == "worst") == worse_is_higher else 1.0
    nan = np.isnan(key)
    return np.lexsort((segments, np.where(nan, 0.0, sign * key), nan))


def _value(v: float) -> float | None:
    return None if math.isnan(v) else float(v)


def _sentence_view(
    text: PageText,
    pp: Preprocessor,
    scores: Mapping[str, FloatArray],
    key: FloatArray,
    judgments: Sequence[JudgmentRow],
    cut: SegmentCut | None = None,
    references: int | None = None,
) -> SentenceView:
    """One sentence as the page shows it: its figures, the alignment against its nearest
    reference (``pp``'s tokens) and against each judge's new reference (13a words).

    Tokenized uncached: a page's texts rarely come back, and tokens kept in a cache
    between a request's large temporary arrays pin the heap they sit in, so a server
    process would grow by megabytes with every drill-down."""
    seg = text.segment
    hyp = pp.tokens_uncached(text.candidate)
    label, reference, edits = nearest_reference(hyp, text.references, pp)
    candidate = words(text.candidate, cache=False)
    against: dict[str, tuple[ShownWord, ...]] = {}  # judges often agree on a new reference
    for r in judgments:
        if r.new_ref not in against:
            new_ref = words(r.new_ref, cache=False)
            against[r.new_ref] = shown_words(align(candidate, new_ref))
    return SentenceView(
        segment=seg,
        source=text.source,
        candidate=text.candidate,
        other_candidate=text.other_candidate,
        scores={m: _value(v[seg]) for m, v in scores.items()},
        sort_value=_value(key[seg]),
        reference_label=label,
        reference=reference,
        distance=edits,
        words=shown_words(align(hyp, pp.tokens_uncached(reference))),
        new_refs=tuple(
            NewRefView(
                evaluator=r.evaluator,
                new_ref=r.new_ref,
                sser=r.sser,
                edits=r.edits,
                length=r.ref_length,
                words=against[r.new_ref],
            )
            for r in judgments
        ),
        cut=cut,
        references=references,
    )


def _in_pool(text: PageText, pool: SentencePool) -> PageText:
    """A page's sentence with the references of its pool: those of the corpus it keeps
    (a repeated one once: the pool's are the page's, in the same order, less repeats) and
    the new references after them."""
    kept = iter(pool.references)
    wanted = next(kept, None)
    references = []
    for name, ref in text.references:
        if ref == wanted:
            references.append((name, ref))
            wanted = next(kept, None)
    references += [("new reference", ref) for ref in pool.added]
    return replace(text, references=references)


def nearest_reference(
    hyp: Sequence[str], references: Sequence[tuple[str, str]], pp: Preprocessor
) -> tuple[str, str, int]:
    """(name, text, edit distance) of the reference nearest the tokens ``hyp`` among
    ``references`` (name, text) in reference order — :func:`annotation.text.nearest`, ties
    to the earlier; ("", "", 0) when there is none."""
    if not references:
        return "", "", 0
    distances = [distance(hyp, pp.tokens_uncached(ref)) for _, ref in references]
    k = nearest(distances)[0]
    return references[k][0], references[k][1], distances[k]


@dataclass(frozen=True)
class PageText:
    """What the drill-down shows of one segment: the source, its references (name, text)
    first reference first, the system's candidate and the other system's."""

    segment: int
    source: str
    references: list[tuple[str, str]]
    candidate: str
    other_candidate: str | None


def _page_texts(
    corpus: Corpus, segments: Iterable[int], system: str, other: str | None
) -> dict[int, PageText]:
    """The texts of the shown segments, in one query."""
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
        seg: PageText(
            segment=seg,
            source=sources.get(seg, ""),
            references=[(name, text) for _, name, text in sorted(refs[seg])],
            candidate=cands.get((seg, system), ""),
            other_candidate=None if other is None else cands.get((seg, other), ""),
        )
        for seg in wanted
    }
