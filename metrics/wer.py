"""The edit-distance family: WER, SER, mWER and PER (seed 000 §2.1.1, §2.1.2, §3.3;
seed 001 §2.1).

Every metric here yields one row per segment, ``[errors, reference length]``, and a
corpus score is ``Σ errors / Σ reference lengths × 100`` (seed 000 §2.1.1: the corpus
WER is *not* a mean of sentence WERs). A sentence score is the same formula on one row.

A segment whose reference is empty (length 0; or a corpus whose references all are) is
the one case the formula leaves open; ``empty_reference`` chooses the rule, and the
signature says which (``empty:…``):

``ins`` (default)
    the errors over 1 (against one empty reference, the candidate's words: all
    insertions), as jiwer and mweralign compute it: 0 for an empty candidate, 300 % for
    three words.
``100``
    0 % without an error, 100 % with any: sacreBLEU's rule for TER (which keeps it) and
    evaltool's before it followed jiwer.

* :class:`WER` — Levenshtein distance to the **first** reference, normalised by its
  length (seed 001 §2.1, Table 1: one reference).
* :class:`SER` — share of segments whose tokens differ from the first reference's
  (row ``[0 or 1, 1]``).
* :class:`MWER` — ``min_r d_L`` over all references (seed 000 §2.1.1 formula), with the
  reference length chosen by ``ref_length`` (seed 000 §3.3, see below).
* :class:`PER` — the position-independent distance of seed 000 §2.1.2,
  ``d_PER = ½(|I − Ĩ| + Σ_e |n_e − ñ_e|)``, minimised over references like mWER.
  Since ``Σ_e |n_e − ñ_e| = I + Ĩ − 2c`` with ``c = Σ_e min(n_e, ñ_e)`` (the multiset
  intersection), ``d_PER = max(I, Ĩ) − c``, which is how it is computed.

Reference-length methods (seed 000 §3.3), for a candidate of length ``I`` whose
references have lengths ``Ĩ_r`` and distances ``d_r``:

``average``
    mean of all ``Ĩ_r``; errors ``min_r d_r``.
``closest``
    BLEU's rule: the ``Ĩ_r`` nearest to ``I``, ties to the shorter; errors ``min_r d_r``.
``nearest`` (default)
    "average nearest-sentence length": mean ``Ĩ_r`` over the references at the
    minimum distance; errors ``min_r d_r``.
``best``
    "best length": the reference with the lowest *relative* error ``d_r / Ĩ_r``, and
    *its* distance (which may exceed ``min_r d_r``). An empty reference has relative
    error 0 if the candidate is empty too, else +∞ (never preferred over a non-empty
    one). Ties in relative error go to the smaller distance (1/10 beats 2/20: the
    reference needing fewer edits is the better explanation of the candidate), then
    to the earlier reference. Equal ratios of small integers are equal floats
    (division is correctly rounded), so ties are exact.

Preprocessing is one :class:`~metrics.tokenize.Preprocessor` (default 13a, mixed
case); ``sentence_boundaries`` does not apply (edit distances and unigram counts do not
use boundary words; seed 000 §3.4 restricts them to m-gram measures).

Speed: :meth:`prepare_references` tokenizes the references once, as token ids
(:mod:`metrics.encode`); every corpus of candidates then costs one batched bit-parallel
pass (:func:`metrics.align.levenshtein`, numpy) or one sort (PER's multiset
intersections, :func:`per_commons`), and the reference-length rules are applied to whole
columns (:func:`reduce_distances`, the vectorised :func:`reduce_references`). The
prepared object also memoizes each (segment, candidate text) row, so a sentence that
several systems output identically is scored once. A prepared object belongs to the
metric configuration that made it; passing it to another raises ``ValueError``.
:mod:`metrics.corpus` shares one tokenization and one distance matrix between WER, SER,
mWER and PER when a whole corpus is scored.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

import numpy as np
import numpy.typing as npt

from metrics.align import levenshtein
from metrics.encode import IntArray, Lines, encode
from metrics.facts import facts_of
from metrics.stats import (
    FloatArray,
    Metric,
    References,
    check_prepared_for,
    format_signature,
    nrefs_label,
)
from metrics.tokenize import Preprocessor

RefLength = Literal["average", "closest", "nearest", "best"]
REF_LENGTH_METHODS: tuple[RefLength, ...] = ("average", "closest", "nearest", "best")
DEFAULT_REF_LENGTH: RefLength = "nearest"

#: The rate of errors against an empty reference (module docstring): the insertions over
#: 1 (jiwer's and mweralign's) or 0 / 100 % (sacreBLEU's TER's).
EmptyReference = Literal["ins", "100"]
EMPTY_REFERENCE_RULES: tuple[EmptyReference, ...] = ("ins", "100")
DEFAULT_EMPTY_REFERENCE: EmptyReference = "ins"

Row = tuple[float, float]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class EditRefs:
    """References prepared once for one metric configuration and reused for every system.

    ``refs`` holds the references the metric reads as token ids of ``vocab`` (WER and
    SER keep only the first reference of a segment), segment after segment: segment
    ``k``'s are lines ``seg_start[k]`` to ``seg_start[k + 1]``. ``memo`` maps
    ``(segment, candidate text)`` to its row.
    """

    config: tuple[object, ...]
    vocab: dict[str, int]
    refs: Lines
    seg_start: IntArray
    memo: dict[tuple[int, str], Row] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.seg_start) - 1

    @property
    def n_refs(self) -> IntArray:
        counts: IntArray = np.diff(self.seg_start)
        return counts


@dataclass(frozen=True, eq=False)
class SegmentPairs:
    """Every (candidate, reference) pair of candidates scored against their segment's
    references: pair ``p`` compares candidate ``cand[p]`` with reference line ``ref[p]``,
    the ``slot[p]``-th reference of its segment. ``width`` is the most references of a
    segment: the padded (candidates × width) layout of :func:`reduce_distances`."""

    cand: IntArray
    ref: IntArray
    slot: IntArray
    width: int

    @classmethod
    def of(cls, segments: IntArray, seg_start: IntArray) -> SegmentPairs:
        counts = seg_start[1:][segments] - seg_start[:-1][segments]
        cand = np.repeat(np.arange(len(segments), dtype=np.int64), counts)
        first = np.zeros(len(segments), dtype=np.int64)
        np.cumsum(counts[:-1], out=first[1:])
        slot = np.arange(len(cand), dtype=np.int64) - np.repeat(first, counts)
        ref = np.repeat(seg_start[:-1][segments], counts) + slot
        return cls(cand, ref, slot, int(counts.max(initial=0)))

    def padded(self, values: IntArray, n_cands: int, fill: int) -> IntArray:
        """``values`` (one per pair) as a (candidates × width) array, ``fill`` elsewhere."""
        out = np.full((n_cands, self.width), fill, dtype=np.int64)
        out[self.cand, self.slot] = values
        return out


def rate(stats: FloatArray, empty_reference: str = DEFAULT_EMPTY_REFERENCE) -> FloatArray:
    """``errors / length × 100`` over the last axis; a length of 0 by ``empty_reference``'s
    rule (module docstring): the errors over 1 (``ins``), or 0 without errors and 100
    with any (``100``)."""
    stats = np.asarray(stats, dtype=np.float64)
    errors = stats[..., 0]
    length = stats[..., 1]
    safe = np.where(length > 0, length, 1.0)
    if empty_reference == "ins":
        out = errors / safe
    else:
        out = np.where(length > 0, errors / safe, np.where(errors > 0, 1.0, 0.0))
    return cast(FloatArray, np.asarray(out * 100.0, dtype=np.float64))


def check_empty_reference(rule: str) -> EmptyReference:
    """``rule`` if it is one of :data:`EMPTY_REFERENCE_RULES`, else a ``ValueError``."""
    if rule not in EMPTY_REFERENCE_RULES:
        raise ValueError(
            f"unknown empty_reference {rule!r}: choose one of {', '.join(EMPTY_REFERENCE_RULES)}"
        )
    return rule


def reduce_references(
    distances: Sequence[int], lengths: Sequence[int], hyp_length: int, method: RefLength
) -> Row:
    """(errors, reference length) of one segment by a seed 000 §3.3 method (module doc).

    The rule in plain Python; :func:`reduce_distances` applies it to many segments at
    once (the tests hold the two equal)."""
    best = min(distances)
    if method == "average":
        return float(best), sum(lengths) / len(lengths)
    if method == "closest":
        closest = min(lengths, key=lambda n: (abs(n - hyp_length), n))
        return float(best), float(closest)
    if method == "nearest":
        at_min = [n for d, n in zip(distances, lengths, strict=True) if d == best]
        return float(best), sum(at_min) / len(at_min)
    if method == "best":

        def key(r: int) -> tuple[float, int, int]:
            d, n = distances[r], lengths[r]
            relative = d / n if n > 0 else (0.0 if d == 0 else float("inf"))
            return relative, d, r

        r = min(range(len(distances)), key=key)
        return float(distances[r]), float(lengths[r])
    raise ValueError(f"unknown ref_length {method!r}: choose one of {REF_LENGTH_METHODS}")


def reduce_distances(
    distances: IntArray, lengths: IntArray, valid: BoolArray, hyp_length: IntArray, method: str
) -> FloatArray:
    """:func:`reduce_references` of many segments: ``distances``, ``lengths`` and
    ``valid`` are (segments × most references), a row's invalid cells standing for the
    references its segment does not have; returns the (segments × 2) rows
    ``[errors, reference length]``.

    The same IEEE operations as the plain rule (an integer sum divided by an integer
    count, ``d / n`` for the relative error), so the rows are equal to the last bit.
    """
    big = np.iinfo(np.int64).max
    d = np.where(valid, distances, big)
    best = d.min(axis=1)
    out = np.empty((len(d), 2), dtype=np.float64)
    if method == "best":
        with np.errstate(divide="ignore", invalid="ignore"):
            relative = np.where(
                lengths > 0,
                distances / np.where(lengths > 0, lengths, 1),
                np.where(distances == 0, 0.0, np.inf),
            )
        relative = np.where(valid, relative, np.inf)
        tied = valid & (relative == relative.min(axis=1, keepdims=True))
        fewest = np.where(tied, distances, big).min(axis=1, keepdims=True)
        r = np.argmax(tied & (distances == fewest), axis=1)
        rows = np.arange(len(d))
        out[:, 0] = distances[rows, r]
        out[:, 1] = lengths[rows, r]
        return out
    out[:, 0] = best
    if method == "average":
        out[:, 1] = np.where(valid, lengths, 0).sum(axis=1) / valid.sum(axis=1)
    elif method == "closest":
        gap = np.where(valid, np.abs(lengths - hyp_length[:, None]), big)
        nearest = valid & (gap == gap.min(axis=1, keepdims=True))
        out[:, 1] = np.where(nearest, lengths, big).min(axis=1)
    elif method == "nearest":
        at_min = valid & (d == best[:, None])
        out[:, 1] = np.where(at_min, lengths, 0).sum(axis=1) / at_min.sum(axis=1)
    else:
        raise ValueError(f"unknown ref_length {method!r}: choose one of {REF_LENGTH_METHODS}")
    return out


def per_distance(
    hyp_counts: Counter[str], hyp_length: int, ref: Counter[str], ref_length: int
) -> int:
    """Seed 000 §2.1.2: ``½(|I − Ĩ| + Σ_e |n_e − ñ_e|) = max(I, Ĩ) − Σ_e min(n_e, ñ_e)``.

    The rule for one pair; :func:`per_commons` computes the intersections of many."""
    small, large = (hyp_counts, ref) if len(hyp_counts) <= len(ref) else (ref, hyp_counts)
    get = large.get
    common = 0
    for word, n in small.items():
        other = get(word)
        if other is not None:
            common += n if n < other else other
    return max(hyp_length, ref_length) - common


def _line_counts(lines: Lines, span: int) -> tuple[IntArray, IntArray]:
    """Sorted keys ``line × span + id`` of each line's distinct tokens (not -1), and
    how often each occurs in its line (a few thousand lines at a time: the keys of
    later lines are larger, so the pieces stay sorted)."""
    keys, counts = [], []
    for k in range(0, len(lines), PAIRS_AT_ONCE):
        lo, hi = int(lines.starts[k]), int(lines.starts[min(k + PAIRS_AT_ONCE, len(lines))])
        line = np.repeat(
            np.arange(k, min(k + PAIRS_AT_ONCE, len(lines)), dtype=np.int64),
            lines.lengths[k : k + PAIRS_AT_ONCE],
        )
        ids = lines.ids[lo:hi]
        known = ids >= 0
        some, how_many = np.unique(line[known] * span + ids[known], return_counts=True)
        keys.append(some)
        counts.append(how_many.astype(np.int64))
    if not keys:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(keys), np.concatenate(counts)


def per_commons(hyps: Lines, refs: Lines, pair_hyp: IntArray, pair_ref: IntArray) -> IntArray:
    """``Σ_e min(n_e, ñ_e)`` of each (candidate, reference) pair: the size of the two
    token multisets' intersection (seed 000 §2.1.2), by sorting, for all pairs at once
    (a few thousand pairs at a time, which bounds the memory it takes)."""
    span = int(max(hyps.ids.max(initial=-1), refs.ids.max(initial=-1))) + 1
    hyp_keys, hyp_counts = _line_counts(hyps, span)
    ref_keys, ref_counts = _line_counts(refs, span)
    out = np.zeros(len(pair_hyp), dtype=np.int64)
    if len(ref_keys) == 0:
        return out
    for k in range(0, len(pair_hyp), PAIRS_AT_ONCE):
        part = slice(k, k + PAIRS_AT_ONCE)
        out[part] = _commons(
            hyp_keys, hyp_counts, ref_keys, ref_counts, span, pair_hyp[part], pair_ref[part]
        )
    return out


#: Pairs whose intersections are computed at once (what bounds :func:`per_commons`'s memory).
PAIRS_AT_ONCE = 8192


def _commons(
    hyp_keys: IntArray,
    hyp_counts: IntArray,
    ref_keys: IntArray,
    ref_counts: IntArray,
    span: int,
    pair_hyp: IntArray,
    pair_ref: IntArray,
) -> IntArray:
    # every (pair, distinct candidate token): look its count up in the pair's reference
    start = np.searchsorted(hyp_keys, pair_hyp * span)
    stop = np.searchsorted(hyp_keys, (pair_hyp + 1) * span)
    sizes = stop - start
    pair = np.repeat(np.arange(len(pair_hyp), dtype=np.int64), sizes)
    first = np.zeros(len(sizes), dtype=np.int64)
    np.cumsum(sizes[:-1], out=first[1:])
    entry = np.arange(int(sizes.sum()), dtype=np.int64) + np.repeat(start - first, sizes)
    wanted = pair_ref[pair] * span + hyp_keys[entry] % span
    pos = np.minimum(np.searchsorted(ref_keys, wanted), len(ref_keys) - 1)
    common = np.where(ref_keys[pos] == wanted, np.minimum(hyp_counts[entry], ref_counts[pos]), 0)
    counts: IntArray = np.bincount(pair, weights=common, minlength=len(pair_hyp)).astype(np.int64)
    return counts


class _EditRate(Metric):
    """Shared machinery: preprocessing, memoized rows, rates and signatures."""

    uses_all_references = False

    def __init__(
        self,
        preprocessor: Preprocessor | None = None,
        *,
        empty_reference: str = DEFAULT_EMPTY_REFERENCE,
    ) -> None:
        self.preprocessor = preprocessor if preprocessor is not None else Preprocessor()
        self.empty_reference = check_empty_reference(empty_reference)

    def _config(self) -> tuple[object, ...]:
        return (type(self).__name__, self.preprocessor)

    def prepare_references(self, refs: References) -> EditRefs:
        """The references this metric reads, tokenized once as ids (module doc)."""
        chosen: list[str] = []
        counts: list[int] = []
        for k, seg in enumerate(refs):
            if len(seg) == 0:
                raise ValueError(f"segment {k + 1} has no reference")
            kept = seg if self.uses_all_references else seg[:1]
            chosen.extend(kept)
            counts.append(len(kept))
        vocab: dict[str, int] = {}
        lines = encode(self.preprocessor, chosen, vocab, grow=True)
        seg_start = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(np.asarray(counts, dtype=np.int64), out=seg_start[1:])
        return EditRefs(config=self._config(), vocab=vocab, refs=lines, seg_start=seg_start)

    @abstractmethod
    def rows_of(self, hyps: Lines, segments: IntArray, prepared: EditRefs) -> FloatArray:
        """Rows (candidates × 2) of candidates given as token ids of ``prepared.vocab``,
        candidate ``j`` belonging to segment ``segments[j]``."""

    def segment_stats(self, hyps: Sequence[str], prepared: EditRefs) -> FloatArray:
        check_prepared_for(prepared, EditRefs, self._config(), hyps)
        memo = prepared.memo
        rows: list[Row | None] = [memo.get((k, text)) for k, text in enumerate(hyps)]
        todo = [k for k, row in enumerate(rows) if row is None]
        if todo:
            lines = encode(self.preprocessor, [hyps[k] for k in todo], prepared.vocab, grow=False)
            new = self.rows_of(lines, np.asarray(todo, dtype=np.int64), prepared)
            for k, (errors, length) in zip(todo, new.tolist(), strict=True):
                rows[k] = (errors, length)
                memo[(k, hyps[k])] = (errors, length)
        out = np.empty((len(rows), 2), dtype=np.float64)
        out[:] = cast(list[Row], rows) if rows else np.zeros((0, 2))
        return out

    def score_from_stats(self, stats: FloatArray) -> FloatArray:
        return rate(stats, self.empty_reference)

    def _signature_parts(self, refs: References) -> dict[str, object]:
        return {"nrefs": "1", **self.preprocessor.signature_parts(), "empty": self.empty_reference}

    def signature(self, refs: References) -> str:
        return format_signature(self._signature_parts(refs))


def _distances(
    hyps: Lines, segments: IntArray, prepared: EditRefs
) -> tuple[SegmentPairs, IntArray]:
    """Every candidate against every reference of its segment: the pairs and distances."""
    pairs = SegmentPairs.of(segments, prepared.seg_start)
    ref_group = np.repeat(np.arange(len(prepared), dtype=np.int64), prepared.n_refs)
    distances = levenshtein(hyps, prepared.refs, pairs.cand, pairs.ref, segments, ref_group)
    return pairs, distances


class WER(_EditRate):
    """Word error rate against the first reference (seed 000 §2.1.1, seed 001 §2.1)."""

    info = facts_of("wer").info

    def rows_of(self, hyps: Lines, segments: IntArray, prepared: EditRefs) -> FloatArray:
        pairs, distances = _distances(hyps, segments, prepared)
        return wer_rows(distances, prepared.refs.lengths[pairs.ref])


def wer_rows(distances: IntArray, ref_lengths: IntArray) -> FloatArray:
    """WER rows ``[edits, first reference's length]``."""
    out = np.empty((len(distances), 2), dtype=np.float64)
    out[:, 0] = distances
    out[:, 1] = ref_lengths
    return out


def ser_rows(identical: BoolArray) -> FloatArray:
    """SER rows ``[0 if the tokens equal the first reference's else 1, 1]``."""
    out = np.ones((len(identical), 2), dtype=np.float64)
    out[identical, 0] = 0.0
    return out


class SER(_EditRate):
    """Sentence error rate: candidates not identical to the first reference (seed 001 §2.1)."""

    info = facts_of("ser").info

    def _signature_parts(self, refs: References) -> dict[str, object]:
        """Without the empty reference's rule: a segment counts 1 sentence whatever its
        reference, so SER never divides by a length of 0."""
        parts = super()._signature_parts(refs)
        del parts["empty"]
        return parts

    def rows_of(self, hyps: Lines, segments: IntArray, prepared: EditRefs) -> FloatArray:
        first = prepared.seg_start[:-1][segments]
        identical = np.fromiter(
            (
                hyps.line(j).tobytes() == prepared.refs.line(int(r)).tobytes()
                for j, r in enumerate(first.tolist())
            ),
            dtype=np.bool_,
            count=len(first),
        )
        return ser_rows(identical)


class _MultiRef(_EditRate):
    """mWER and PER: every reference counts, with a seed 000 §3.3 reference length."""

    uses_all_references = True

    def __init__(
        self,
        preprocessor: Preprocessor | None = None,
        ref_length: str = DEFAULT_REF_LENGTH,
        *,
        empty_reference: str = DEFAULT_EMPTY_REFERENCE,
    ) -> None:
        super().__init__(preprocessor, empty_reference=empty_reference)
        if ref_length not in REF_LENGTH_METHODS:
            raise ValueError(
                f"unknown ref_length {ref_length!r}: choose one of {', '.join(REF_LENGTH_METHODS)}"
            )
        self.ref_length: RefLength = ref_length

    def _config(self) -> tuple[object, ...]:
        return (*super()._config(), self.ref_length)

    def _signature_parts(self, refs: References) -> dict[str, object]:
        return {
            "nrefs": nrefs_label(refs),
            **self.preprocessor.signature_parts(),
            "reflen": self.ref_length,
            "empty": self.empty_reference,
        }

    def reduce(
        self, pairs: SegmentPairs, distances: IntArray, ref_lengths: IntArray, hyp_lengths: IntArray
    ) -> FloatArray:
        """Rows of the candidates from their distances to each reference (one per pair)."""
        n = len(hyp_lengths)
        valid = pairs.padded(np.ones(len(distances), dtype=np.int64), n, 0).astype(np.bool_)
        return reduce_distances(
            pairs.padded(distances, n, 0),
            pairs.padded(ref_lengths[pairs.ref], n, 0),
            valid,
            hyp_lengths,
            self.ref_length,
        )


class MWER(_MultiRef):
    """Multi-reference WER: ``Σ_k min_r d_L / Σ_k I*_k`` (seed 000 §2.1.1, §3.3)."""

    info = facts_of("mwer").info

    def rows_of(self, hyps: Lines, segments: IntArray, prepared: EditRefs) -> FloatArray:
        pairs, distances = _distances(hyps, segments, prepared)
        return self.reduce(pairs, distances, prepared.refs.lengths, hyps.lengths)


class PER(_MultiRef):
    """Position-independent error rate, minimised over references (seed 000 §2.1.2, §3.3)."""

    info = facts_of("per").info

    def rows_of(self, hyps: Lines, segments: IntArray, prepared: EditRefs) -> FloatArray:
        pairs = SegmentPairs.of(segments, prepared.seg_start)
        common = per_commons(hyps, prepared.refs, pairs.cand, pairs.ref)
        return self.reduce(
            pairs,
            per_distances(common, hyps.lengths[pairs.cand], prepared.refs.lengths[pairs.ref]),
            prepared.refs.lengths,
            hyps.lengths,
        )


def per_distances(common: IntArray, hyp_lengths: IntArray, ref_lengths: IntArray) -> IntArray:
    """:func:`per_distance` of many pairs: ``max(I, Ĩ) − common``."""
    out: IntArray = np.maximum(hyp_lengths, ref_lengths) - common
    return out
