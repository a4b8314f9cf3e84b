"""Figures when each item has its own judge: per-annotator z-scores, annotator effects,
and a bootstrap that carries the annotators' part of the error.

Where every judge judges every candidate, a system's human figure averages the same
judges everywhere, and a strict judge lowers every system alike. A split campaign (one
judge per item, a share judged twice) breaks that: a system whose items fell mostly to
a strict judge looks worse than it is. Three tools, pure numpy (no Django):

**z-scores, as WMT computes them** (:func:`z_scores`, :func:`system_means`). Each
annotator's scores are standardised by that annotator's own mean and standard deviation
over all their judgments of the corpus, ``z = (x − mean_a) / std_a`` (Graham, Baldwin,
Moffat & Zobel 2013, "Continuous measurement scales in human evaluation of machine
translation"; 2017, "Can machine translation systems be evaluated by the crowd alone?";
the WMT findings since 2016: Bojar et al. 2016, 2017; Barrault et al. 2019; Kocmi et al.
2022, 2023). The standard deviation is the population one (the seed 000 §3.5 rule of
:func:`metrics.correlation.z_normalize`, the one rule the whole project uses; Appraise
divides by n − 1, which rescales an annotator's z by a constant); an annotator whose
scores never vary carries no relative information and gets z = 0. A system's z is the
mean over its *items* (candidates) of each item's mean z: an item judged twice is
averaged first, so the overlap share does not weigh double. The raw figure beside it is
computed alike (items averaged first), so the two differ by the normalisation alone.

**Annotator effects** (:func:`annotator_effects`): per annotator the judgments, the
sentences, the mean raw score and two offsets, each with a 95 % interval: against the
other annotators *on the items they shared* (the overlap: each shared item's score minus
the mean of the other judges' scores of it, so item difficulty cancels), and against
the *grand mean* of the others' judgments (valid where the dealing gives each annotator
a fair sample of the items: whole sentences with every system, batches in random order).

**Intervals and tests that re-estimate the normalisation** (:func:`judge_aware`). The
resampling unit is the corpus sentence, the same index matrix as every other figure
(:class:`metrics.significance.Bootstrap`), so the test stays paired across systems and
metrics. On every resample each annotator's mean and standard deviation are computed
again from the judgments drawn, and every z with them: the interval of a system's z and
the p-value of a pair carry the error of the normalisation itself, not only that of the
items. Without normalisation (``normalise=False``) the same computation gives the raw
figure's interval; where items have different judges it includes the annotators' part
of the spread, since each item's judge comes with the item when it is drawn. Everything
else is :mod:`metrics.significance`'s rule: the percentile interval, sacreBLEU's p-value
of the centred sample differences, pairs compared on the sentences both systems have,
the leader rule for rank groups, no difference claimed on fewer than
:data:`~metrics.claims.MIN_SENTENCES` sentences in common.

Both the figure and every sample are one computation: the real figure is the resampled
one with every sentence drawn once, so the two can never follow different rules.

What the figures claim, and what not: the annotators are the campaign's own (a fixed
panel, as when every judge judges every item): the figures say what these annotators
would give on more sentences of the same kind, not what other annotators would. The
sentence is the unit resampled: an annotator's bias shared over a batch of consecutive
sentences is treated as if each sentence had been dealt on its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from metrics.claims import MIN_SENTENCES, UNBOUNDED, shortfall
from metrics.correlation import z_normalize
from metrics.ranking import DEFAULT_ALPHA, NO_INTERVAL, Interval, MetricSignificance
from metrics.significance import (
    Bootstrap,
    metric_significance,
    p_values_from_samples,
    percentile_interval,
)
from metrics.stats import FloatArray, MetricInfo, format_signature

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: SSER's figure after the per-annotator normalisation: a mean z of the SSER errors,
#: relative (0 is the annotators' average item), lower is better, no unit, no bound.
#: Not a column of the metrics table (:data:`metrics.facts.METRIC_FACTS`): a view of
#: SSER beside its raw figure.
SSER_Z = MetricInfo(
    "sser_z",
    "SSER error z (per judge)",
    higher_is_better=False,
    unit="",
    human=True,
    family="human",
    lowest=-math.inf,
    highest=math.inf,
)

#: An annotator's variance on a resample below this share of their variance over the
#: whole corpus counts as none (every drawn score alike): z = 0, as
#: :func:`~metrics.correlation.z_normalize` gives a judge whose scores never vary,
#: rather than a difference of rounding errors divided by another.
_NO_SPREAD = 1e-9


@dataclass(frozen=True, eq=False)
class Ratings:
    """Judgments as the annotator statistics read them, one entry per judgment: the
    system, the sentence (``segment``, 0 … ``n_segments`` − 1, the resampling unit) and
    the annotator (indices into ``systems`` and ``annotators``), and the ``value``.
    (``eq=False``: it holds arrays.)"""

    systems: tuple[str, ...]
    annotators: tuple[str, ...]
    n_segments: int
    system: IntArray
    segment: IntArray
    annotator: IntArray
    value: FloatArray

    def __len__(self) -> int:
        return len(self.value)

    @property
    def items(self) -> IntArray:
        """Each judgment's item (candidate): ``system · n_segments + segment``."""
        return self.system * self.n_segments + self.segment

    def judged(self) -> BoolArray:
        """Which (system, sentence) items have a judgment: systems × sentences."""
        out = np.zeros(len(self.systems) * self.n_segments, dtype=np.bool_)
        out[self.items] = True
        return out.reshape(len(self.systems), self.n_segments)


def ratings(
    systems: Sequence[str],
    segments: Sequence[int],
    annotators: Sequence[str],
    values: Sequence[float] | FloatArray,
    n_segments: int,
    *,
    order: Sequence[str] = (),
) -> Ratings:
    """:class:`Ratings` of parallel lists, one entry per judgment; a NaN value (no score)
    is left out. Systems in ``order`` first (the corpus's), then any other in order of
    first appearance; annotators by name."""
    v = np.asarray(values, dtype=np.float64)
    if not len(systems) == len(segments) == len(annotators) == v.size:
        raise ValueError(
            f"{len(systems)} systems, {len(segments)} segments, {len(annotators)} "
            f"annotators and {v.size} values: one of each per judgment"
        )
    seg = np.asarray(segments, dtype=np.int64).reshape(-1)
    if seg.size and (seg.min() < 0 or seg.max() >= n_segments):
        bad = seg[(seg < 0) | (seg >= n_segments)][0]
        raise ValueError(f"segment {bad} is outside 0…{n_segments - 1}")
    keep = ~np.isnan(v)
    names = list(dict.fromkeys([*order, *systems]))
    judges = sorted(set(annotators))
    where_s = {name: k for k, name in enumerate(names)}
    where_a = {name: k for k, name in enumerate(judges)}
    return Ratings(
        tuple(names),
        tuple(judges),
        n_segments,
        np.fromiter((where_s[s] for s in systems), np.int64, len(systems))[keep],
        seg[keep],
        np.fromiter((where_a[a] for a in annotators), np.int64, len(annotators))[keep],
        v[keep],
    )


def z_scores(r: Ratings) -> FloatArray:
    """Each judgment's z-score within its annotator's judgments (module doc)."""
    return z_normalize(r.value, r.annotator.tolist()).values


def item_means(r: Ratings, values: FloatArray | None = None) -> FloatArray:
    """Each item's mean of ``values`` (default: the ratings' own), systems × sentences;
    NaN where an item has no judgment."""
    v = r.value if values is None else np.asarray(values, dtype=np.float64)
    size = len(r.systems) * r.n_segments
    total = np.bincount(r.items, weights=v, minlength=size)
    count = np.bincount(r.items, minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return out.reshape(len(r.systems), r.n_segments)


def system_means(r: Ratings, values: FloatArray | None = None) -> tuple[FloatArray, IntArray]:
    """Each system's mean over its items of the item's mean (:func:`item_means`), and its
    number of items; NaN for a system without any."""
    per_item = item_means(r, values)
    n = (~np.isnan(per_item)).sum(axis=1).astype(np.int64)
    with np.errstate(invalid="ignore"):
        means = np.where(n > 0, np.nansum(per_item, axis=1) / np.maximum(n, 1), np.nan)
    return means, n


# ------------------------------------------------------------------ resampled sums


@dataclass(frozen=True, eq=False)
class _JudgeRows:
    """What the resampling needs of the annotators, one row per (annotator, sentence they
    judged), annotator by annotator (``starts``: each annotator's first row, then the
    number of rows): the sentence, the judgments (``n``), the sums of their values and
    squares centred on the annotator's first value (``s1``, ``s2``: exact for a judge
    who never varies), and per system the item weights (``w``: 1/k for an item judged k
    times) and the weighted centred values (``wy``); per annotator that first value
    (``centre``) and the variance of their values (``variance``).

    Every annotator's rows are held in one set of arrays, so that a resample computes
    every annotator's normalisation and sums at once: nothing loops over the annotators,
    and the work grows with the rows (at most the judgments), never with annotators ×
    sentences."""

    annotator: IntArray
    sentence: IntArray
    starts: IntArray
    centre: FloatArray
    variance: FloatArray
    n: FloatArray
    s1: FloatArray
    s2: FloatArray
    w: FloatArray
    wy: FloatArray


def _judge_rows(r: Ratings) -> _JudgeRows:
    """The annotators' :class:`_JudgeRows`, built once for the figure and its samples.
    Each sum adds a row's judgments in their order in ``r`` (``np.bincount``,
    ``np.add.at``), as a loop over each annotator's own judgments would."""
    n_systems, n_annotators = len(r.systems), len(r.annotators)
    items = r.items
    per_item = np.bincount(items, minlength=n_systems * r.n_segments)
    weight = 1.0 / per_item[items]
    keys, row = np.unique(r.annotator * r.n_segments + r.segment, return_inverse=True)
    row = row.reshape(-1)
    annotator = keys // r.n_segments
    judged = np.bincount(r.annotator, minlength=n_annotators)
    centre = np.zeros(n_annotators)
    present, first = np.unique(r.annotator, return_index=True)
    centre[present] = r.value[first]
    yc = r.value - centre[r.annotator]
    mean = _sums(r.annotator, yc, n_annotators) / np.maximum(judged, 1)
    spread = yc - mean[r.annotator]
    size = len(keys)
    w = np.zeros((size, n_systems))
    wy = np.zeros((size, n_systems))
    np.add.at(w, (row, r.system), weight)
    np.add.at(wy, (row, r.system), weight * yc)
    return _JudgeRows(
        annotator=annotator,
        sentence=keys % r.n_segments,
        starts=np.searchsorted(annotator, np.arange(n_annotators + 1)),
        centre=centre,
        variance=_sums(r.annotator, spread * spread, n_annotators) / np.maximum(judged, 1),
        n=np.bincount(row, minlength=size).astype(np.float64),
        s1=_sums(row, yc, size),
        s2=_sums(row, yc * yc, size),
        w=w,
        wy=wy,
    )


def _sums(ids: IntArray, weights: FloatArray, size: int) -> FloatArray:
    """Σ of ``weights`` per id 0 … ``size`` − 1 (``np.bincount``, typed as the floats it gives)."""
    return np.asarray(np.bincount(ids, weights=weights, minlength=size), dtype=np.float64)


def _group_sums(values: FloatArray, starts: IntArray) -> FloatArray:
    """Σ of ``values`` (samples × columns, the columns in groups) over each group's
    columns (``starts``: each group's first column, then the number of columns):
    samples × groups, 0 for a group without a column."""
    out = np.zeros((values.shape[0], len(starts) - 1))
    some = np.flatnonzero(starts[1:] > starts[:-1])
    if some.size:
        out[:, some] = np.add.reduceat(values, starts[some], axis=1)
    return out


def _normalisation(rows: _JudgeRows, drawn: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per sample and annotator the centred mean and 1/std from how often each row's
    sentence was drawn (``drawn``: samples × rows): samples × annotators each."""
    n = _group_sums(drawn * rows.n, rows.starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, _group_sums(drawn * rows.s1, rows.starts) / n, 0.0)
        squares = np.where(n > 0, _group_sums(drawn * rows.s2, rows.starts) / n, 0.0)
        variance = np.maximum(squares - mean * mean, 0.0)
        spread = variance > _NO_SPREAD * rows.variance
        inverse = np.where(spread, 1.0 / np.sqrt(np.where(spread, variance, 1.0)), 0.0)
    return mean, inverse


#: How many numbers a block of samples × rows may hold (8 bytes each): the samples are
#: taken in blocks, so that a corpus of many judgments never holds every sample's rows
#: at once.
_BLOCK = 1 << 21


def _blocks(samples: int, columns: int) -> list[slice]:
    """The blocks of samples taken at once (:data:`_BLOCK`)."""
    step = max(1, _BLOCK // max(columns, 1))
    return [slice(start, start + step) for start in range(0, samples, step)]


def _pair_sums(
    r: Ratings,
    rows: _JudgeRows,
    counts: FloatArray,
    partners: BoolArray,
    *,
    normalise: bool,
) -> FloatArray:
    """Σ over the drawn items of system s on the sentences where partner p has an item,
    of the item's mean value (z or raw), per sample: samples × systems × partners.
    ``partners`` is sentences × partners (one column of True: every sentence).

    A row's term is ``(wy − mean · w) / std`` with its annotator's mean and std of the
    sample: the drawn rows scaled by 1/std and by mean/std, times ``wy`` and ``w``. Raw
    values do not depend on the sample: their sums are one product of the counts."""
    n_systems, n_partners = len(r.systems), partners.shape[1]
    if not normalise:  # each sentence's weighted values, uncentred, per system and partner
        per_sentence = np.zeros((r.n_segments, n_systems))
        np.add.at(per_sentence, rows.sentence, rows.wy + rows.centre[rows.annotator, None] * rows.w)
        values = per_sentence[:, :, None] * partners[:, None, :]
        flat = values.reshape(r.n_segments, n_systems * n_partners)
        return (counts @ flat).reshape(counts.shape[0], n_systems, n_partners)
    every = n_partners == 1 and bool(partners.all())
    # each system's rows, and their weights and values on each partner's sentences
    by_system = [np.flatnonzero(rows.w[:, s] > 0) for s in range(n_systems)]
    masked = [
        (
            mine,
            rows.wy[mine, s, None] * partners[rows.sentence[mine]],
            rows.w[mine, s, None] * partners[rows.sentence[mine]],
        )
        for s, mine in enumerate(by_system)
    ]
    total = np.zeros((counts.shape[0], n_systems, n_partners))
    for block in _blocks(counts.shape[0], len(rows.n)):
        drawn = counts[block][:, rows.sentence]
        mean, inverse = _normalisation(rows, drawn)
        scaled = drawn * inverse[:, rows.annotator]
        shifted = drawn * (mean * inverse)[:, rows.annotator]
        if every:
            total[block, :, 0] = scaled @ rows.wy - shifted @ rows.w
            continue
        for s, (mine, wy, w) in enumerate(masked):
            total[block, s] = scaled[:, mine] @ wy - shifted[:, mine] @ w
    return total


def _pair_scores(
    r: Ratings,
    rows: _JudgeRows,
    counts: FloatArray,
    partners: BoolArray,
    *,
    normalise: bool,
) -> FloatArray:
    """The mean item value (z or raw) of each system on the sentences where each partner
    has an item, per sample (samples × systems × partners); NaN where none was drawn."""
    judged = r.judged().T.astype(np.float64)  # sentences × systems
    both = judged[:, :, None] * partners[:, None, :]
    flat = both.reshape(r.n_segments, both.shape[1] * both.shape[2])
    drawn = (counts @ flat).reshape(counts.shape[0], *both.shape[1:])
    sums = _pair_sums(r, rows, counts, partners, normalise=normalise)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(drawn > 0, sums / np.maximum(drawn, 1.0), np.nan)


# ------------------------------------------------------------------ the figures


def judge_aware(
    r: Ratings,
    bootstrap: Bootstrap,
    *,
    normalise: bool,
    info: MetricInfo,
    alpha: float = DEFAULT_ALPHA,
    min_common: int = MIN_SENTENCES,
) -> MetricSignificance:
    """Every system's figure (z-scores when ``normalise``, else raw; items averaged
    first), its 95 % percentile interval, the pairs' p-values on their common sentences
    and the rank groups, with each annotator's normalisation re-estimated on every
    resample (module doc). ``bootstrap`` is the corpus's resampling (its sentences are
    ``r.n_segments``); ``info`` the figure's facts (its name, direction and range)."""
    if bootstrap.n_segments != r.n_segments:
        raise ValueError(
            f"a bootstrap of {bootstrap.n_segments} segments for {r.n_segments} sentences"
        )
    judged = r.judged()
    same = bool((judged == judged[0]).all()) if len(judged) else True
    partners = np.ones((r.n_segments, 1), dtype=np.bool_) if same else judged.T
    rows = _judge_rows(r)
    once = np.ones((1, r.n_segments))
    real = _pair_scores(r, rows, once, partners, normalise=normalise)[0]
    samples = _pair_scores(r, rows, bootstrap.counts, partners, normalise=normalise)
    if same:  # every pair on the same sentences: a system's own figure is its pair figure
        real = np.repeat(real, len(r.systems), axis=1)
        samples = np.repeat(samples, len(r.systems), axis=2)
    own = np.diagonal(samples, axis1=1, axis2=2).T  # systems × samples
    scores = np.diagonal(real).copy()
    diffs = np.abs(samples - samples.transpose(0, 2, 1)).transpose(1, 2, 0)
    common = (judged.astype(np.int64) @ judged.T.astype(np.int64)).astype(np.int64)
    p = p_values_from_samples(diffs, np.abs(real - real.T))
    p = np.where(common > 0, p, np.nan)
    np.fill_diagonal(p, 1.0)
    return metric_significance(
        r.systems,
        scores,
        np.diagonal(common),
        own,
        p,
        common,
        bootstrap,
        metric=info.name,
        higher_is_better=info.higher_is_better,
        bounds=UNBOUNDED if normalise else info.bounds,
        alpha=alpha,
        min_common=min_common,
        signature=judge_aware_signature(bootstrap, normalise=normalise, alpha=alpha),
    )


def judge_aware_signature(
    bootstrap: Bootstrap, *, normalise: bool, alpha: float = DEFAULT_ALPHA
) -> str:
    """``test:paired-bs|bs:1000|seed:12345|alpha:0.05|ci:95%-pct|min-n:10|
    pairs:common-segments|items:mean-first|norm:z-per-judge|refit:each-sample|version:…``
    (``norm:none`` and no ``refit`` for the raw figure)."""
    parts: dict[str, object] = {
        "test": "paired-bs",
        "bs": bootstrap.n_samples,
        "seed": bootstrap.seed,
        "alpha": f"{alpha:g}",
        "ci": "95%-pct",
        "min-n": MIN_SENTENCES,
        "pairs": "common-segments",
        "items": "mean-first",
        "norm": "z-per-judge" if normalise else "none",
    }
    if normalise:
        parts["std"] = "population"
        parts["refit"] = "each-sample"
    return format_signature(parts)


# ------------------------------------------------------------------ annotator effects


@dataclass(frozen=True)
class Offset:
    """How far one annotator's scores lie from the others': ``value`` (positive: higher
    scores than the others), its 95 % percentile ``interval``, the judgments it rests on
    (``n``) and their sentences (``sentences``, the resampled unit); ``too_few`` the
    "too few sentences (n = 3)" note where they are fewer than
    :data:`~metrics.claims.MIN_SENTENCES` (then no interval is claimed), else ""."""

    value: float
    interval: Interval
    n: int
    sentences: int
    too_few: str

    @property
    def shown_interval(self) -> Interval | None:
        if self.too_few or not self.interval.defined:
            return None
        return self.interval


#: The offset of an annotator who shares nothing with the others.
NO_OFFSET = Offset(math.nan, NO_INTERVAL, 0, 0, shortfall(0, "sentences"))


@dataclass(frozen=True)
class AnnotatorEffect:
    """One annotator: judgments, sentences, mean raw score, and offsets against the other
    annotators on the items they shared (``shared``) and against the others' grand mean
    (``overall``)."""

    annotator: str
    judgments: int
    sentences: int
    mean: float
    shared: Offset
    overall: Offset


def annotator_effects(
    r: Ratings, bootstrap: Bootstrap, *, bounds: tuple[float, float] = UNBOUNDED
) -> tuple[AnnotatorEffect, ...]:
    """Every annotator's effect (module doc), by name; intervals from ``bootstrap``'s
    resampled sentences, cut to ``bounds`` (the range a difference of two scores can
    take). Every annotator's sums are taken at once, over one row per annotator and
    sentence they judged (:class:`_SentenceSums`), and every interval in one sort: the
    work grows with the judgments, not with annotators × sentences, and no step loops
    over the annotators but the one that names them."""
    if bootstrap.n_segments != r.n_segments:
        raise ValueError(
            f"a bootstrap of {bootstrap.n_segments} segments for {r.n_segments} sentences"
        )
    n_annotators = len(r.annotators)
    total_n = np.bincount(r.segment, minlength=r.n_segments).astype(np.float64)
    total_s = _sums(r.segment, r.value, r.n_segments)
    own = _sentence_sums(r.annotator, r.segment, r.value, n_annotators, r.n_segments)
    gaps, shared_rows = _shared_gaps(r)
    shared = shared_rows >= 0
    common = _sentence_sums(
        r.annotator[shared], r.segment[shared], gaps[shared], n_annotators, r.n_segments
    )

    def overall(counts: FloatArray) -> FloatArray:
        mine_n, mine_s = own.drawn(counts)
        all_n, all_s = (counts @ total_n)[:, None], (counts @ total_s)[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(mine_s / mine_n - (all_s - mine_s) / (all_n - mine_n))

    def shared_mean(counts: FloatArray) -> FloatArray:
        n, s = common.drawn(counts)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(s / n)

    judgments = np.bincount(r.annotator, minlength=n_annotators)
    sentences = own.sentences
    # the sentences nobody else judged
    alone = np.bincount(
        own.annotator, weights=total_n[own.sentence] == own.n, minlength=n_annotators
    )
    others = int(np.count_nonzero(total_n)) - alone.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = _sums(r.annotator, r.value, n_annotators) / judgments
    overall_offsets = _offsets(overall, bootstrap, bounds, judgments, sentences, others)
    shared_n = np.bincount(r.annotator[shared], minlength=n_annotators)
    shared_offsets = _offsets(
        shared_mean, bootstrap, bounds, shared_n, common.sentences, common.sentences
    )
    return tuple(
        AnnotatorEffect(
            name,
            int(judgments[a]),
            int(sentences[a]),
            float(means[a]) if judgments[a] else math.nan,
            shared_offsets[a] if shared_n[a] else NO_OFFSET,
            overall_offsets[a],
        )
        for a, name in enumerate(r.annotators)
    )


@dataclass(frozen=True, eq=False)
class _SentenceSums:
    """Values summed per annotator and sentence: one row per (annotator, sentence they
    have a value in), annotator by annotator (``starts``: each annotator's first row),
    with the values' count ``n`` and sum ``s``."""

    annotator: IntArray
    sentence: IntArray
    starts: IntArray
    n: FloatArray
    s: FloatArray

    @property
    def sentences(self) -> IntArray:
        """Each annotator's number of sentences."""
        return np.diff(self.starts)

    def drawn(self, counts: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Per sample of ``counts`` (samples × sentences: how often each was drawn) and
        annotator, the values drawn and their sum: two samples × annotators arrays."""
        n = np.zeros((counts.shape[0], len(self.starts) - 1))
        s = np.zeros_like(n)
        for block in _blocks(counts.shape[0], len(self.n)):
            drawn = counts[block][:, self.sentence]
            n[block] = _group_sums(drawn * self.n, self.starts)
            s[block] = _group_sums(drawn * self.s, self.starts)
        return n, s


def _sentence_sums(
    annotator: IntArray, segment: IntArray, values: FloatArray, annotators: int, sentences: int
) -> _SentenceSums:
    """The :class:`_SentenceSums` of ``values`` (one per judgment, with its annotator and
    sentence), each row's sum in the judgments' order."""
    keys, row = np.unique(annotator * sentences + segment, return_inverse=True)
    row = row.reshape(-1)
    owner = keys // sentences
    return _SentenceSums(
        owner,
        keys % sentences,
        np.searchsorted(owner, np.arange(annotators + 1)),
        np.bincount(row, minlength=len(keys)).astype(np.float64),
        _sums(row, values, len(keys)),
    )


def _shared_gaps(r: Ratings) -> tuple[FloatArray, IntArray]:
    """Each judgment of an item judged more than once: its value minus the mean of the
    other judges' values of the item, and the judgment's annotator (−1 for the others)."""
    items = r.items
    size = len(r.systems) * r.n_segments
    k = np.bincount(items, minlength=size)[items]
    total = np.bincount(items, weights=r.value, minlength=size)[items]
    with np.errstate(invalid="ignore", divide="ignore"):
        gaps = np.where(k > 1, r.value - (total - r.value) / np.maximum(k - 1, 1), np.nan)
    return gaps, np.where(k > 1, r.annotator, -1)


def _offsets(
    statistic: Callable[[FloatArray], FloatArray],
    bootstrap: Bootstrap,
    bounds: tuple[float, float],
    n: IntArray,
    sentences: IntArray,
    others: IntArray,
) -> list[Offset]:
    """Each annotator's :class:`Offset` of ``statistic`` (a function of the sentences
    drawn, samples × sentences, giving samples × annotators: each sentence once for the
    value, the bootstrap's samples for the interval), claimed on the fewer of
    ``sentences`` and ``others`` (the sentences of each side of the comparison)."""
    value = statistic(np.ones((1, bootstrap.n_segments)))[0]
    low, high, mid = percentile_interval(statistic(bootstrap.counts).T, bounds)
    claimed = np.minimum(sentences, others)
    return [
        Offset(
            float(value[a]),
            Interval(float(low[a]), float(high[a]), float(mid[a])),
            int(n[a]),
            int(sentences[a]),
            shortfall(int(claimed[a]), "sentences"),
        )
        for a in range(len(value))
    ]
