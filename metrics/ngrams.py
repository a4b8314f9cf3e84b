"""N-gram counting and clipping shared by BLEU and NIST (seed 000 §2.1, §2.1.3, §2.1.4).

Both measures compare m-gram count vectors: ``n_{e,k}``, the count of the m-gram ``e``
in candidate ``k``; ``ñ_{e,r,k}``, its count in reference ``r`` of that segment; the
clipping count ``ñ_{e,k} := max_r ñ_{e,r,k}`` (§2.1.3); and, for NIST's information
weights, ``ñ_e := Σ_{k,r} ñ_{e,k,r}`` over the whole reference corpus (§2.1.4). This
module is the one place where those counts are defined:

* the m-grams of a token sequence are its runs of ``m`` consecutive tokens, every
  occurrence counted (:func:`ngram_counts` states the rule in plain Python);
* a candidate m-gram is correct at most ``ñ_{e,k}`` times: ``min(n_{e,k}, ñ_{e,k})``;
* n-grams are taken over ``Preprocessor.ngram_tokens`` (so ``<s>`` … ``</s>`` take part
  when sentence boundaries are on, seed 000 §3.4), while sentence *lengths* count words
  only: boundaries are artificial words and must not lengthen a sentence for the
  brevity penalty.

Why integer ids and numpy instead of a ``Counter`` of tuples per sentence (what sacreBLEU
does): :func:`index_references` gives each distinct reference m-gram an integer id, order
by order (the id of an m-gram is the rank of the pair *(id of its (m-1)-gram prefix, id
of its last word)* among all such pairs in the references), and stores per segment the
clipping counts under the key ``segment × (number of ids) + id``. A hypothesis is then
mapped onto those ids with one dict lookup per token and one binary search per position
and order, and the clipped counts of a whole corpus come out of a few sorts
(:func:`match_hypotheses`) — no Python loop over n-grams. An m-gram that is not a
reference m-gram anywhere cannot match, so it needs no id: it only counts in the totals.
All of that reference work happens once and is reused for every system.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any

import numpy as np
import numpy.typing as npt

from metrics.stats import FloatArray, References
from metrics.tokenize import Preprocessor

IntArray = npt.NDArray[np.int64]

#: The reference-length rules of seed 000 §3.3 that apply to n-gram measures.
#: ``closest``: the reference length closest to the candidate's, the shorter on ties
#: (BLEU's rule); ``shortest``: the shortest reference (mteval before v13);
#: ``average``: the mean reference length (NIST's rule).
REF_LENGTH_METHODS = ("closest", "shortest", "average")


def check_options(max_ngram_order: object, ref_length: str) -> None:
    """ValueError for an n-gram order or a reference-length rule no metric here knows."""
    if isinstance(max_ngram_order, bool) or not isinstance(max_ngram_order, int):
        raise ValueError(f"max_ngram_order={max_ngram_order!r} must be an integer")
    if max_ngram_order < 1:
        raise ValueError(f"max_ngram_order={max_ngram_order} must be at least 1")
    if ref_length not in REF_LENGTH_METHODS:
        raise ValueError(
            f"ref_length={ref_length!r}: choose one of {', '.join(REF_LENGTH_METHODS)}"
        )


def score_rows(
    stats: FloatArray, width: int, name: str, scores: Callable[[FloatArray], FloatArray]
) -> Any:
    """Apply ``scores`` (rows (B, width) → (B,)) over any leading axes of ``stats``:
    (..., width) → (...), and a single (width,) row → a float."""
    arr = np.asarray(stats, dtype=np.float64)
    if arr.ndim == 0 or arr.shape[-1] != width:
        raise ValueError(f"stats of shape {arr.shape}: {name} needs rows of {width} values")
    out = scores(arr.reshape(-1, width))
    if arr.ndim == 1:
        return float(out[0])
    return out.reshape(arr.shape[:-1])


def ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """Counts of every m-gram of ``tokens``, 1 ≤ m ≤ ``max_order`` (seed 000 §2.1).

    The plain-Python statement of the rule the vectorised code below implements; it is
    what the tests compare against.
    """
    counts: Counter[tuple[str, ...]] = Counter()
    for n in range(1, max_order + 1):
        counts.update(zip(*(tokens[i:] for i in range(n)), strict=False))
    return counts


def word_count(pp: Preprocessor, ngram_tokens: Sequence[str]) -> int:
    """Sentence length in words: ``ngram_tokens`` minus the two boundary words, if any."""
    return len(ngram_tokens) - (2 if pp.sentence_boundaries else 0)


@dataclass(frozen=True, eq=False)
class ReferenceNgrams:
    """Everything reference-side that BLEU and NIST need, computed once per corpus.

    ``pair_codes[m-1]`` (m ≥ 2) holds the sorted distinct codes
    ``prefix_id * len(vocab) + word_id`` of the reference m-grams; an m-gram's id is its
    index there (for m = 1 the id is the word id). ``corpus_counts[m-1][id]`` is ``ñ_e``
    over all references (seed 000 §2.1.4). ``segment_keys[m-1]`` are the sorted keys
    ``segment * n_ids(m) + id`` of the m-grams of each segment's references and
    ``segment_max[m-1]`` their clipping counts ``max_r ñ_{e,r,k}`` (§2.1.3).
    ``lengths`` is (segments × most references), in words, NaN where a segment has
    fewer references.
    """

    preprocessor: Preprocessor
    max_order: int
    vocab: dict[str, int]
    pair_codes: tuple[IntArray, ...]
    corpus_counts: tuple[IntArray, ...]
    segment_keys: tuple[IntArray, ...]
    segment_max: tuple[IntArray, ...]
    lengths: FloatArray
    n_refs: IntArray
    total_tokens: int

    @property
    def n_segments(self) -> int:
        return len(self.n_refs)

    def n_ids(self, order: int) -> int:
        """How many distinct reference n-grams of this order there are."""
        return len(self.vocab) if order == 1 else len(self.pair_codes[order - 1])

    def prefix_ids(self, order: int) -> IntArray:
        """For each reference n-gram of ``order`` ≥ 2, the id of its (order-1)-gram prefix."""
        if order < 2:
            raise ValueError(f"order={order}: only n-grams of order 2 or more have a prefix")
        return self.pair_codes[order - 1] // max(len(self.vocab), 1)


@dataclass(frozen=True)
class HypothesisMatches:
    """A corpus of hypotheses matched against :class:`ReferenceNgrams`.

    ``lengths`` are in words, ``totals[k, m-1]`` is the number of m-grams of candidate k
    (``n̄_m`` summed over k gives seed 000's total m-gram count). For each order,
    ``segment``/``ngram``/``clipped`` list every (segment, reference n-gram) pair that
    matched, with ``min(n_{e,k}, ñ_{e,k})``.
    """

    lengths: IntArray
    totals: IntArray
    segment: tuple[IntArray, ...]
    ngram: tuple[IntArray, ...]
    clipped: tuple[IntArray, ...]

    def clipped_sums(self, weights: Sequence[FloatArray] | None = None) -> FloatArray:
        """Per segment and order, Σ_e min(n_{e,k}, ñ_{e,k}), each term times
        ``weights[m-1][id]`` if given (NIST's information weights)."""
        n_seg = len(self.lengths)
        out = np.zeros((n_seg, len(self.segment)), dtype=np.float64)
        for m, (seg, ids, clip) in enumerate(
            zip(self.segment, self.ngram, self.clipped, strict=True)
        ):
            w = clip.astype(np.float64) if weights is None else clip * weights[m][ids]
            out[:, m] = np.bincount(seg, weights=w, minlength=n_seg)
        return out


def _flatten(
    token_lists: Sequence[Sequence[str]],
) -> tuple[list[str], IntArray, IntArray, IntArray]:
    """All tokens in one list, with each position's sentence and the number of tokens
    left in its sentence (1 on the last token): an m-gram starts where that is ≥ m."""
    flat = list(chain.from_iterable(token_lists))
    lens = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
    ends = np.cumsum(lens)
    sentence = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
    remaining = np.repeat(ends, lens) - np.arange(len(flat), dtype=np.int64)
    return flat, lens, sentence, remaining


def _lookup(
    table: IntArray, keys: IntArray, *, keys_sorted: bool = False
) -> tuple[IntArray, npt.NDArray[np.bool_]]:
    """Index of each key in the sorted ``table`` and whether it is there at all.

    Binary search over a large table is several times faster for sorted keys (numpy
    starts each search where the previous one ended, and memory is read in order), so
    unsorted keys are sorted first: the sort costs less than it saves.
    """
    if len(table) == 0:
        return np.zeros(len(keys), dtype=np.int64), np.zeros(len(keys), dtype=np.bool_)
    if keys_sorted:
        pos = np.searchsorted(table, keys)
    else:
        order = np.argsort(keys)
        pos = np.empty(len(keys), dtype=np.int64)
        pos[order] = np.searchsorted(table, keys[order])
    pos = np.minimum(pos, len(table) - 1)
    return pos, table[pos] == keys


def index_references(refs: References, pp: Preprocessor, max_order: int) -> ReferenceNgrams:
    """Tokenize the references once and precompute ids, clipping and corpus counts."""
    if max_order < 1:
        raise ValueError(f"max_order={max_order}: n-grams need an order of at least 1")
    for k, seg in enumerate(refs):
        if len(seg) == 0:
            raise ValueError(f"segment {k + 1} has no reference")
    segs = [[pp.ngram_tokens(r) for r in seg] for seg in refs]
    n_refs = np.fromiter(map(len, segs), dtype=np.int64, count=len(segs))
    sentences = list(chain.from_iterable(segs))
    sentence_segment = np.repeat(np.arange(len(segs), dtype=np.int64), n_refs)

    width = int(n_refs.max()) if len(segs) else 0
    lengths = np.full((len(segs), width), np.nan)
    for k, toks in enumerate(segs):
        lengths[k, : len(toks)] = [word_count(pp, t) for t in toks]

    flat, _, sentence, remaining = _flatten(sentences)
    vocab = {w: i for i, w in enumerate(dict.fromkeys(flat))}
    v = len(vocab)
    ids = np.fromiter(map(vocab.__getitem__, flat), dtype=np.int64, count=len(flat))

    pair_codes: list[IntArray] = [np.zeros(0, dtype=np.int64)]
    corpus_counts: list[IntArray] = []
    segment_keys: list[IntArray] = []
    segment_max: list[IntArray] = []
    gid = ids
    for m in range(1, max_order + 1):
        starts = np.flatnonzero(remaining >= m)
        if m > 1:
            codes = gid[starts] * v + ids[starts + m - 1]
            table, inverse = np.unique(codes, return_inverse=True)
            gid = np.full(len(flat), -1, dtype=np.int64)
            gid[starts] = inverse
            pair_codes.append(table.astype(np.int64))
        n_ids = v if m == 1 else len(pair_codes[-1])
        g = gid[starts]
        corpus_counts.append(np.bincount(g, minlength=n_ids).astype(np.int64))
        # counts per (reference sentence, n-gram), then the max over a segment's references
        per_sentence, counts = np.unique(sentence[starts] * n_ids + g, return_counts=True)
        seg_key = sentence_segment[per_sentence // n_ids] * n_ids + per_sentence % n_ids
        keys, inverse = np.unique(seg_key, return_inverse=True)
        best = np.zeros(len(keys), dtype=np.int64)
        np.maximum.at(best, inverse, counts)
        segment_keys.append(keys.astype(np.int64))
        segment_max.append(best)

    return ReferenceNgrams(
        preprocessor=pp,
        max_order=max_order,
        vocab=vocab,
        pair_codes=tuple(pair_codes),
        corpus_counts=tuple(corpus_counts),
        segment_keys=tuple(segment_keys),
        segment_max=tuple(segment_max),
        lengths=lengths,
        n_refs=n_refs,
        total_tokens=len(flat),
    )


def check_prepared(prepared: object, pp: Preprocessor, max_order: int) -> ReferenceNgrams:
    """``prepared`` as a :class:`ReferenceNgrams` made with this tokenization and order."""
    if not isinstance(prepared, ReferenceNgrams):
        raise ValueError(
            f"prepared={type(prepared).__name__}: pass what prepare_references returned"
        )
    if prepared.preprocessor != pp or prepared.max_order != max_order:
        raise ValueError(
            f"prepared references were made with {prepared.preprocessor} and order "
            f"{prepared.max_order}, not {pp} and order {max_order}"
        )
    return prepared


def match_hypotheses(hyps: Sequence[str], ref: ReferenceNgrams) -> HypothesisMatches:
    """Tokenize the hypotheses and clip their n-gram counts against ``ref`` (§2.1.3)."""
    if len(hyps) != ref.n_segments:
        raise ValueError(
            f"{len(hyps)} hypotheses but the references were prepared for {ref.n_segments} segments"
        )
    pp = ref.preprocessor
    token_lists = [pp.ngram_tokens(h) for h in hyps]
    flat, lens, sentence, remaining = _flatten(token_lists)
    boundary = 2 if pp.sentence_boundaries else 0
    orders = np.arange(1, ref.max_order + 1, dtype=np.int64)
    totals = np.maximum(lens[:, None] - orders[None, :] + 1, 0)

    v = len(ref.vocab)
    ids = np.fromiter(map(ref.vocab.get, flat, repeat(-1)), dtype=np.int64, count=len(flat))
    segments: list[IntArray] = []
    ngrams: list[IntArray] = []
    clipped: list[IntArray] = []
    gid = ids
    for m in range(1, ref.max_order + 1):
        if m > 1:
            starts = np.flatnonzero(remaining >= m)
            prefix = gid[starts]
            word = ids[starts + m - 1]
            known = (prefix >= 0) & (word >= 0)
            starts = starts[known]
            pos, hit = _lookup(ref.pair_codes[m - 1], prefix[known] * v + word[known])
            gid = np.full(len(flat), -1, dtype=np.int64)
            gid[starts[hit]] = pos[hit]
        n_ids = ref.n_ids(m)
        present = np.flatnonzero(gid >= 0)
        keys, counts = np.unique(sentence[present] * n_ids + gid[present], return_counts=True)
        pos, hit = _lookup(ref.segment_keys[m - 1], keys, keys_sorted=True)
        keys = keys[hit]
        segments.append(keys // max(n_ids, 1))
        ngrams.append(keys % max(n_ids, 1))
        clipped.append(np.minimum(counts[hit], ref.segment_max[m - 1][pos[hit]]))

    return HypothesisMatches(
        lengths=lens - boundary,
        totals=totals,
        segment=tuple(segments),
        ngram=tuple(ngrams),
        clipped=tuple(clipped),
    )


def reference_lengths(hyp_lengths: IntArray, ref: ReferenceNgrams, method: str) -> FloatArray:
    """Each segment's reference length I_k^* by one of seed 000 §3.3's rules."""
    if method not in REF_LENGTH_METHODS:
        raise ValueError(f"ref_length={method!r}: choose one of {', '.join(REF_LENGTH_METHODS)}")
    if ref.n_segments == 0:
        return np.zeros(0, dtype=np.float64)
    lengths = ref.lengths
    missing = np.isnan(lengths)
    out: FloatArray
    if method == "average":
        out = np.where(missing, 0.0, lengths).sum(axis=1) / ref.n_refs
        return out
    padded = np.where(missing, np.inf, lengths)
    if method == "shortest":
        out = padded.min(axis=1)
        return out
    # closest, the shorter one on ties (Papineni et al.; sacreBLEU's _get_closest_ref_len)
    diff = np.abs(hyp_lengths[:, None] - padded)
    best = diff.min(axis=1, keepdims=True)
    out = np.where(diff == best, padded, np.inf).min(axis=1)
    return out
