"""SSER's figure per judge (:data:`SSER_Z`) and the judge-aware intervals and tests
(:func:`judge_aware`): every annotator's normalisation re-estimated on every resample
of the corpus's sentences (:mod:`metrics.annotators` says why and what they claim).

Its own module because the resampled sums behind it (:class:`_JudgeRows`, one product
per block of samples) are the bulk of the annotator statistics and serve only this.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from metrics.claims import MIN_SENTENCES, UNBOUNDED
from metrics.ranking import DEFAULT_ALPHA, MetricSignificance
from metrics.ratings import BoolArray, IntArray, Ratings
from metrics.resampled_sums import blocks, group_sums, sums
from metrics.significance import Bootstrap, metric_significance, p_values_from_samples
from metrics.stats import FloatArray, MetricInfo, format_signature

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
    mean = sums(r.annotator, yc, n_annotators) / np.maximum(judged, 1)
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
        variance=sums(r.annotator, spread * spread, n_annotators) / np.maximum(judged, 1),
        n=np.bincount(row, minlength=size).astype(np.float64),
        s1=sums(row, yc, size),
        s2=sums(row, yc * yc, size),
        w=w,
        wy=wy,
    )


def _normalisation(rows: _JudgeRows, drawn: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per sample and annotator the centred mean and 1/std from how often each row's
    sentence was drawn (``drawn``: samples × rows): samples × annotators each."""
    n = group_sums(drawn * rows.n, rows.starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, group_sums(drawn * rows.s1, rows.starts) / n, 0.0)
        squares = np.where(n > 0, group_sums(drawn * rows.s2, rows.starts) / n, 0.0)
        variance = np.maximum(squares - mean * mean, 0.0)
        spread = variance > _NO_SPREAD * rows.variance
        inverse = np.where(spread, 1.0 / np.sqrt(np.where(spread, variance, 1.0)), 0.0)
    return mean, inverse


#: One annotator's normalisation on every resample (:func:`annotator_normalisation`):
#: the centred means and 1/std, one per sample.
Normalisation = tuple[FloatArray, FloatArray]
#: An annotator's :data:`Normalisation` as kept by the annotator's name, else computed
#: (the callable given) and kept: a caller that knows whose ratings changed since
#: (the dashboard, after one judge's click) computes that annotator's alone.
KeptNormalisation = Callable[[str, Callable[[], Normalisation]], Normalisation]


def annotator_normalisation(rows: _JudgeRows, counts: FloatArray, a: int) -> Normalisation:
    """Annotator ``a``'s column of :func:`_normalisation` on every sample of ``counts``,
    from their rows alone: the same figures to the bit (each annotator's sums add their
    own rows, in their order, whatever the others'). Read-only: kept for later views."""
    at = slice(int(rows.starts[a]), int(rows.starts[a + 1]))
    size = at.stop - at.start
    own = _JudgeRows(
        annotator=np.zeros(size, dtype=np.int64),
        sentence=rows.sentence[at],
        starts=np.array([0, size]),
        centre=rows.centre[a : a + 1],
        variance=rows.variance[a : a + 1],
        n=rows.n[at],
        s1=rows.s1[at],
        s2=rows.s2[at],
        w=rows.w[at],
        wy=rows.wy[at],
    )
    mean, inverse = np.empty(counts.shape[0]), np.empty(counts.shape[0])
    for block in blocks(counts.shape[0], size):
        found = _normalisation(own, counts[block][:, own.sentence])
        mean[block], inverse[block] = found[0][:, 0], found[1][:, 0]
    mean.flags.writeable = inverse.flags.writeable = False
    return mean, inverse


def _kept_normalisation(
    r: Ratings, rows: _JudgeRows, counts: FloatArray, kept: KeptNormalisation
) -> Normalisation:
    """Every annotator's :func:`annotator_normalisation` as ``kept`` keeps them:
    samples × annotators each, as :func:`_normalisation` gives them."""
    found = [
        kept(name, partial(annotator_normalisation, rows, counts, a))
        for a, name in enumerate(r.annotators)
    ]
    shape = (counts.shape[0], len(found))
    if not found:
        return np.zeros(shape), np.zeros(shape)
    return np.stack([m for m, _ in found], axis=1), np.stack([i for _, i in found], axis=1)


def _pair_sums(
    r: Ratings,
    rows: _JudgeRows,
    counts: FloatArray,
    missing: BoolArray,
    cut: IntArray,
    *,
    normalise: bool,
    kept: KeptNormalisation | None = None,
) -> FloatArray:
    """Σ over the drawn items of system s on the sentences where partner p has an item,
    of the item's mean value (z or raw), per sample: samples × systems × partners.
    ``missing`` is sentences × partners (True: the partner has no item there), ``cut``
    the sentences with an item that some partner misses.

    Each sum is the system's own over every sentence less the part on the sentences its
    partner misses, read from the rows of ``cut`` alone: most sentences have every
    system or none, so the restricted sums cost about what the own ones do.

    A row's term is ``(wy − mean · w) / std`` with its annotator's mean and std of the
    sample: the drawn rows scaled by 1/std and by mean/std, times ``wy`` and ``w``. Raw
    values do not depend on the sample: their sums are one product of the counts.
    ``kept``: each annotator's normalisation as kept (:data:`KeptNormalisation`)."""
    n_systems, n_partners = len(r.systems), missing.shape[1]
    if not normalise:  # each sentence's weighted values, uncentred, per system
        values = np.zeros((r.n_segments, n_systems))
        np.add.at(values, rows.sentence, rows.wy + rows.centre[rows.annotator, None] * rows.w)
        return _less_outside(counts @ values, counts[:, cut], values[cut], missing[cut])
    uneven = np.flatnonzero(np.isin(rows.sentence, cut))  # the rows of those sentences
    miss = missing[rows.sentence[uneven]][:, None, :]  # row, 1, partner
    wy_out = (rows.wy[uneven, :, None] * miss).reshape(uneven.size, n_systems * n_partners)
    w_out = (rows.w[uneven, :, None] * miss).reshape(uneven.size, n_systems * n_partners)
    total = np.zeros((counts.shape[0], n_systems, n_partners))
    every = None if kept is None else _kept_normalisation(r, rows, counts, kept)
    for block in blocks(counts.shape[0], len(rows.n)):
        drawn = np.take(counts[block], rows.sentence, axis=1)
        if every is None:
            mean, inverse = _normalisation(rows, drawn)
        else:
            mean, inverse = every[0][block], every[1][block]
        # each row's 1/std and mean/std, times how often it was drawn: the same products
        # as drawn * inverse[:, annotator], made in place (a third less time at real size)
        scaled = np.take(inverse, rows.annotator, axis=1)
        scaled *= drawn
        shifted = np.take(mean * inverse, rows.annotator, axis=1)
        shifted *= drawn
        own = scaled @ rows.wy - shifted @ rows.w
        outside = scaled[:, uneven] @ wy_out - shifted[:, uneven] @ w_out
        total[block] = own[:, :, None] - outside.reshape(-1, n_systems, n_partners)
    return total


def _less_outside(
    own: FloatArray, counts: FloatArray, values: FloatArray, missing: BoolArray
) -> FloatArray:
    """``own`` (samples × systems) on every partner, less Σ over the given sentences of
    ``counts`` (samples × sentences) times their ``values`` (sentences × systems) where
    ``missing`` (sentences × partners): samples × systems × partners."""
    n_systems, n_partners = own.shape[1], missing.shape[1]
    outside = values[:, :, None] * missing[:, None, :]
    outside = outside.reshape(len(values), n_systems * n_partners)
    less = (counts @ outside).reshape(own.shape[0], n_systems, n_partners)
    return own[:, :, None] - less


def uneven_sentences(judged: BoolArray, partners: BoolArray) -> IntArray:
    """The sentences whose rows the sums on each partner's sentences read (:func:`_pair_sums`):
    those with an item (``judged``: systems × sentences) that some partner misses
    (``partners``: sentences × partners). A corpus dealt by whole sentences has none, and
    one more judgment of a sentence no other system has adds that one."""
    return np.flatnonzero((~partners).any(axis=1) & judged.any(axis=0))


def _pair_scores(
    r: Ratings,
    rows: _JudgeRows,
    counts: FloatArray,
    partners: BoolArray,
    *,
    normalise: bool,
    kept: KeptNormalisation | None = None,
) -> FloatArray:
    """The mean item value (z or raw) of each system on the sentences where each partner
    has an item, per sample (samples × systems × partners); NaN where none was drawn.
    ``partners`` is sentences × partners (one column of True: every sentence).

    Each is a system's own sum and count less their part on the sentences the partner
    misses (:func:`_pair_sums`). The counts are whole numbers, so exact in any order;
    the sums differ from a direct sum over the partner's sentences by rounding alone."""
    judged = r.judged().T.astype(np.float64)  # sentences × systems
    missing = ~partners
    cut = uneven_sentences(r.judged(), partners)
    drawn = _less_outside(counts @ judged, counts[:, cut], judged[cut], missing[cut])
    sums = _pair_sums(r, rows, counts, missing, cut, normalise=normalise, kept=kept)
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
    kept: KeptNormalisation | None = None,
) -> MetricSignificance:
    """Every system's figure (z-scores when ``normalise``, else raw; items averaged
    first), its 95 % percentile interval, the pairs' p-values on their common sentences
    and the rank groups, with each annotator's normalisation re-estimated on every
    resample (:mod:`metrics.annotators`). ``bootstrap`` is the corpus's resampling (its
    sentences are ``r.n_segments``); ``info`` the figure's facts (its name, direction and
    range); ``kept``: each annotator's normalisation on the resamples as kept
    (:data:`KeptNormalisation`; the same figures to the bit)."""
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
    samples = _pair_scores(r, rows, bootstrap.counts, partners, normalise=normalise, kept=kept)
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
