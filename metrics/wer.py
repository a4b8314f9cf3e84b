"""The edit-distance family: WER, SER, mWER and PER (seed 000 §2.1.1, §2.1.2, §3.3;
seed 001 §2.1).

Every metric here yields one row per segment, ``[errors, reference length]``, and a
corpus score is ``Σ errors / Σ reference lengths × 100`` (seed 000 §2.1.1: the corpus
WER is *not* a mean of sentence WERs). A sentence score is the same formula on one row;
a segment whose reference length is 0 scores 0 when it has no errors and 100 otherwise
(the same rule applies to a corpus whose references are all empty).

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

Speed: :meth:`prepare_references` tokenizes the references once and builds their bit
masks (:class:`metrics.align.PreparedRef`) or word counts; every candidate then costs
one batched bit-parallel pass (:func:`metrics.align.distances_prepared`). The prepared
object also memoizes each (segment, candidate text) row, so a sentence that several
systems output identically is scored once. A prepared object belongs to the metric
configuration that made it; passing it to another raises ``ValueError``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Literal, cast

import numpy as np

from metrics.align import PreparedRef, distances_prepared
from metrics.stats import (
    FloatArray,
    Metric,
    MetricInfo,
    References,
    format_signature,
    nrefs_label,
)
from metrics.tokenize import Preprocessor

RefLength = Literal["average", "closest", "nearest", "best"]
REF_LENGTH_METHODS: tuple[RefLength, ...] = ("average", "closest", "nearest", "best")
DEFAULT_REF_LENGTH: RefLength = "nearest"

Tokens = tuple[str, ...]
Row = tuple[float, float]


@dataclass(frozen=True)
class EditRefs:
    """References prepared once for one metric configuration and reused for every system.

    ``tokens[k][r]`` / ``lengths[k][r]`` for segment ``k``, reference ``r`` (WER and SER
    keep only the first reference); ``bits`` holds the Levenshtein bit masks (WER,
    mWER) and ``counts`` the word counts (PER), empty when the metric does not need
    them. ``memo`` maps ``(segment, candidate text)`` to its row.
    """

    config: tuple[object, ...]
    tokens: tuple[tuple[Tokens, ...], ...]
    lengths: tuple[tuple[int, ...], ...]
    bits: tuple[tuple[PreparedRef, ...], ...] = ()
    counts: tuple[tuple[Counter[str], ...], ...] = ()
    memo: dict[tuple[int, str], Row] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.tokens)


def rate(stats: FloatArray) -> FloatArray:
    """``errors / length × 100`` over the last axis; length 0 → 0 if no errors, else 100."""
    stats = np.asarray(stats, dtype=np.float64)
    errors = stats[..., 0]
    length = stats[..., 1]
    safe = np.where(length > 0, length, 1.0)
    out = np.where(length > 0, errors / safe, np.where(errors > 0, 1.0, 0.0))
    return cast(FloatArray, np.asarray(out * 100.0, dtype=np.float64))


def reduce_references(
    distances: Sequence[int], lengths: Sequence[int], hyp_length: int, method: RefLength
) -> Row:
    """(errors, reference length) of one segment by a seed 000 §3.3 method (module doc)."""
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


def per_distance(
    hyp_counts: Counter[str], hyp_length: int, ref: Counter[str], ref_length: int
) -> int:
    """Seed 000 §2.1.2: ``½(|I − Ĩ| + Σ_e |n_e − ñ_e|) = max(I, Ĩ) − Σ_e min(n_e, ñ_e)``."""
    small, large = (hyp_counts, ref) if len(hyp_counts) <= len(ref) else (ref, hyp_counts)
    get = large.get
    common = 0
    for word, n in small.items():
        other = get(word)
        if other is not None:
            common += n if n < other else other
    return max(hyp_length, ref_length) - common


class _EditRate(Metric):
    """Shared machinery: preprocessing, memoized rows, rates and signatures."""

    uses_all_references = False

    def __init__(self, preprocessor: Preprocessor | None = None) -> None:
        self.preprocessor = preprocessor if preprocessor is not None else Preprocessor()

    def _config(self) -> tuple[object, ...]:
        return (type(self).__name__, self.preprocessor)

    def _tokenized(self, refs: References) -> tuple[tuple[Tokens, ...], ...]:
        tokens = self.preprocessor.tokens
        out: list[tuple[Tokens, ...]] = []
        for k, seg in enumerate(refs):
            if len(seg) == 0:
                raise ValueError(f"segment {k + 1} has no reference")
            chosen = seg if self.uses_all_references else seg[:1]
            out.append(tuple(tokens(text) for text in chosen))
        return tuple(out)

    def _check_prepared(self, hyps: Sequence[str], prepared: EditRefs) -> None:
        if not isinstance(prepared, EditRefs) or prepared.config != self._config():
            raise ValueError(
                f"references were prepared for {getattr(prepared, 'config', prepared)!r}, "
                f"not for {self._config()!r}: call this metric's prepare_references"
            )
        if len(hyps) != len(prepared):
            raise ValueError(
                f"{len(hyps)} hypotheses but {len(prepared)} reference segments: "
                "they must be parallel"
            )

    @abstractmethod
    def _rows(self, todo: list[tuple[int, Tokens]], prepared: EditRefs) -> list[Row]:
        """Rows of the (segment, candidate tokens) pairs not found in the memo."""

    def segment_stats(self, hyps: Sequence[str], prepared: EditRefs) -> FloatArray:
        self._check_prepared(hyps, prepared)
        memo = prepared.memo
        rows: list[Row | None] = [memo.get((k, text)) for k, text in enumerate(hyps)]
        todo_keys = [k for k, row in enumerate(rows) if row is None]
        if todo_keys:
            tokens = self.preprocessor.tokens
            todo = [(k, tokens(hyps[k])) for k in todo_keys]
            for k, row in zip(todo_keys, self._rows(todo, prepared), strict=True):
                rows[k] = row
                memo[(k, hyps[k])] = row
        flat = chain.from_iterable(cast(list[Row], rows))
        return np.fromiter(flat, dtype=np.float64, count=2 * len(rows)).reshape(len(rows), 2)

    def score_from_stats(self, stats: FloatArray) -> FloatArray:
        return rate(stats)

    def _signature_parts(self, refs: References) -> dict[str, object]:
        return {"nrefs": "1", **self.preprocessor.signature_parts()}

    def signature(self, refs: References) -> str:
        return format_signature(self._signature_parts(refs))


class WER(_EditRate):
    """Word error rate against the first reference (seed 000 §2.1.1, seed 001 §2.1)."""

    info = MetricInfo("wer", "WER", higher_is_better=False)

    def prepare_references(self, refs: References) -> EditRefs:
        tokens = self._tokenized(refs)
        return EditRefs(
            config=self._config(),
            tokens=tokens,
            lengths=tuple((len(seg[0]),) for seg in tokens),
            bits=tuple((PreparedRef.from_tokens(seg[0]),) for seg in tokens),
        )

    def _rows(self, todo: list[tuple[int, Tokens]], prepared: EditRefs) -> list[Row]:
        bits = prepared.bits
        distances = distances_prepared([h for _, h in todo], [bits[k][0] for k, _ in todo])
        lengths = prepared.lengths
        return [(float(d), float(lengths[k][0])) for (k, _), d in zip(todo, distances, strict=True)]


class SER(_EditRate):
    """Sentence error rate: candidates not identical to the first reference (seed 001 §2.1)."""

    info = MetricInfo("ser", "SER", higher_is_better=False)

    def prepare_references(self, refs: References) -> EditRefs:
        tokens = self._tokenized(refs)
        return EditRefs(
            config=self._config(),
            tokens=tokens,
            lengths=tuple((len(seg[0]),) for seg in tokens),
        )

    def _rows(self, todo: list[tuple[int, Tokens]], prepared: EditRefs) -> list[Row]:
        refs = prepared.tokens
        return [(0.0 if h == refs[k][0] else 1.0, 1.0) for k, h in todo]


class _MultiRef(_EditRate):
    """mWER and PER: every reference counts, with a seed 000 §3.3 reference length."""

    uses_all_references = True

    def __init__(
        self, preprocessor: Preprocessor | None = None, ref_length: str = DEFAULT_REF_LENGTH
    ) -> None:
        super().__init__(preprocessor)
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
        }


class MWER(_MultiRef):
    """Multi-reference WER: ``Σ_k min_r d_L / Σ_k I*_k`` (seed 000 §2.1.1, §3.3)."""

    info = MetricInfo("mwer", "mWER", higher_is_better=False)

    def prepare_references(self, refs: References) -> EditRefs:
        tokens = self._tokenized(refs)
        return EditRefs(
            config=self._config(),
            tokens=tokens,
            lengths=tuple(tuple(len(t) for t in seg) for seg in tokens),
            bits=tuple(tuple(PreparedRef.from_tokens(t) for t in seg) for seg in tokens),
        )

    def _rows(self, todo: list[tuple[int, Tokens]], prepared: EditRefs) -> list[Row]:
        pair_hyps: list[Tokens] = []
        pair_refs: list[PreparedRef] = []
        for k, h in todo:
            seg = prepared.bits[k]
            pair_hyps.extend([h] * len(seg))
            pair_refs.extend(seg)
        distances = distances_prepared(pair_hyps, pair_refs)
        rows: list[Row] = []
        start = 0
        method = self.ref_length
        for k, h in todo:
            lengths = prepared.lengths[k]
            stop = start + len(lengths)
            rows.append(reduce_references(distances[start:stop], lengths, len(h), method))
            start = stop
        return rows


class PER(_MultiRef):
    """Position-independent error rate, minimised over references (seed 000 §2.1.2, §3.3)."""

    info = MetricInfo("per", "PER", higher_is_better=False)

    def prepare_references(self, refs: References) -> EditRefs:
        tokens = self._tokenized(refs)
        return EditRefs(
            config=self._config(),
            tokens=tokens,
            lengths=tuple(tuple(len(t) for t in seg) for seg in tokens),
            counts=tuple(tuple(Counter(t) for t in seg) for seg in tokens),
        )

    def _rows(self, todo: list[tuple[int, Tokens]], prepared: EditRefs) -> list[Row]:
        rows: list[Row] = []
        method = self.ref_length
        for k, h in todo:
            lengths = prepared.lengths[k]
            counts = Counter(h)
            n = len(h)
            distances = [
                per_distance(counts, n, ref, m)
                for ref, m in zip(prepared.counts[k], lengths, strict=True)
            ]
            rows.append(reduce_references(distances, lengths, n, method))
        return rows
