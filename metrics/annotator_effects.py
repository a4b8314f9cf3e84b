"""Each annotator's effect (:func:`annotator_effects`): judgments, sentences, mean raw
score, and offsets against the other annotators on the items they shared and against
the others' grand mean, each with a 95 % interval (:mod:`metrics.annotators` says how
far they can be trusted).

Its own module because the effects are a figure of their own (the judges panel, the
campaign page), with their own sums per annotator and sentence (:class:`_SentenceSums`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from metrics.claims import UNBOUNDED, shortfall
from metrics.ranking import NO_INTERVAL, Interval
from metrics.ratings import IntArray, Ratings
from metrics.resampled_sums import blocks, group_sums, sums
from metrics.significance import Bootstrap, percentile_interval
from metrics.stats import FloatArray


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
    r: Ratings,
    bootstrap: Bootstrap,
    *,
    bounds: tuple[float, float] = UNBOUNDED,
    kept: KeptSums | None = None,
) -> tuple[AnnotatorEffect, ...]:
    """Every annotator's effect (:mod:`metrics.annotators`), by name; intervals from
    ``bootstrap``'s resampled sentences, cut to ``bounds`` (the range a difference of two
    scores can take). Every annotator's sums are taken at once, over one row per annotator and
    sentence they judged (:class:`_SentenceSums`), and every interval in one sort: the
    work grows with the judgments, not with annotators × sentences, and no step loops
    over the annotators but the one that names them. ``kept``: each annotator's sums of
    their own scores on the bootstrap's samples as kept (:data:`KeptSums`; the same
    figures to the bit)."""
    if bootstrap.n_segments != r.n_segments:
        raise ValueError(
            f"a bootstrap of {bootstrap.n_segments} segments for {r.n_segments} sentences"
        )
    n_annotators = len(r.annotators)
    total_n = np.bincount(r.segment, minlength=r.n_segments).astype(np.float64)
    total_s = sums(r.segment, r.value, r.n_segments)
    own = _sentence_sums(r.annotator, r.segment, r.value, n_annotators, r.n_segments)
    gaps, shared_rows = _shared_gaps(r)
    shared = shared_rows >= 0
    common = _sentence_sums(
        r.annotator[shared], r.segment[shared], gaps[shared], n_annotators, r.n_segments
    )

    def overall(counts: FloatArray) -> FloatArray:
        if kept is not None and counts is bootstrap.counts:  # the samples: each kept
            mine_n, mine_s = _kept_drawn(r, own, counts, kept)
        else:
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
        means = sums(r.annotator, r.value, n_annotators) / judgments
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
        for block in blocks(counts.shape[0], len(self.n)):
            drawn = counts[block][:, self.sentence]
            n[block] = group_sums(drawn * self.n, self.starts)
            s[block] = group_sums(drawn * self.s, self.starts)
        return n, s

    def annotator_drawn(self, counts: FloatArray, a: int) -> tuple[FloatArray, FloatArray]:
        """Annotator ``a``'s column of :meth:`drawn`, from their rows alone: the same
        figures to the bit (each annotator's sums add their own rows, in their order,
        whatever the others'). Read-only: kept for later views."""
        at = slice(int(self.starts[a]), int(self.starts[a + 1]))
        size = at.stop - at.start
        alone = _SentenceSums(
            np.zeros(size, dtype=np.int64),
            self.sentence[at],
            np.array([0, size]),
            self.n[at],
            self.s[at],
        )
        n, s = alone.drawn(counts)
        n, s = n[:, 0].copy(), s[:, 0].copy()
        n.flags.writeable = s.flags.writeable = False
        return n, s


#: One annotator's sums on every resample (:meth:`_SentenceSums.annotator_drawn`): the
#: values drawn and their sum, one per sample.
DrawnSums = tuple[FloatArray, FloatArray]
#: An annotator's :data:`DrawnSums` of their own scores as kept by the annotator's name,
#: else computed (the callable given) and kept: a caller that knows whose ratings
#: changed since (the dashboard, after one judge's click) computes that annotator's alone.
KeptSums = Callable[[str, Callable[[], DrawnSums]], DrawnSums]


def _kept_drawn(
    r: Ratings, own: _SentenceSums, counts: FloatArray, kept: KeptSums
) -> tuple[FloatArray, FloatArray]:
    """``own.drawn(counts)`` with each annotator's column as ``kept`` keeps it."""
    found = [
        kept(name, partial(own.annotator_drawn, counts, a)) for a, name in enumerate(r.annotators)
    ]
    if not found:
        return own.drawn(counts)
    return np.stack([n for n, _ in found], axis=1), np.stack([s for _, s in found], axis=1)


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
        sums(row, values, len(keys)),
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
