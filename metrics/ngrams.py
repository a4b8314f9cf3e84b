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
of its last word)* among all such pairs in the references, words numbered in order of
first appearance), and keeps per order a *table* of the (segment, m-gram) pairs of the
references, sorted by segment then id, with their clipping counts. A candidate m-gram
can only match an entry of its own segment, and an entry's prefix is an entry of the
order below, so a candidate is matched order by order with one binary search per
position: the code *(entry of its prefix, last word)* is looked up among the table's
codes (:func:`match_hypotheses`). Its counts per entry are then one ``bincount``, and
clipping is ``min`` with the entry's clipping count — no Python loop over n-grams, no
sort per candidate corpus. An m-gram that is not a reference m-gram of its segment
cannot match, so it needs no entry: it only counts in the totals. All of the reference
work happens once and is reused for every system (and shared by BLEU and NIST when
:mod:`metrics.corpus` scores a whole corpus: BLEU's orders are the first four of NIST's).

Sums per segment run over a segment's entries in the table's order (ascending id), the
order in which the matched n-grams were always summed, so NIST's information sums are
the same floating-point sums to the last bit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from metrics.encode import IntArray, Lines, encode
from metrics.stats import FloatArray, References
from metrics.tokenize import BOS, EOS, Preprocessor

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


@dataclass(frozen=True, eq=False)
class ReferenceNgrams:
    """Everything reference-side that BLEU and NIST need, computed once per corpus.

    Words have ids ``0 … n_words − 1`` in order of first appearance in the references;
    ``vocab`` gives a token its id in the encoding (:mod:`metrics.encode`), and
    ``word_of_id`` turns such an id into its word id (-1: no reference word).

    Per order m (index m − 1): ``pair_codes`` holds the sorted distinct codes
    ``prefix_id × n_words + word_id`` of the reference m-grams (m ≥ 2); an m-gram's id is
    its index there (for m = 1 the id is the word id). ``corpus_counts[id]`` is ``ñ_e``
    over all references (seed 000 §2.1.4). ``segment_keys`` are the sorted keys
    ``segment × n_ids(m) + id`` of each segment's reference m-grams — the table's
    entries — and ``segment_max`` their clipping counts ``max_r ñ_{e,r,k}`` (§2.1.3);
    ``chain_codes`` (sorted) and ``chain_entry`` find an entry from the code *(entry of
    its (m−1)-gram prefix, word id)* (for m = 1: *(segment, word id)*);
    ``direct`` holds, for the orders whose codes span a small range, the same as a
    direct table (one look-up per candidate position instead of a binary search; -1 where
    no entry): for unigrams when segments × words is small, for bigrams when also the
    reference unigram entries × words is (``tok:char``: a few dozen characters). ``lengths`` is
    (segments × most references), in words, NaN where a segment has fewer references.
    """

    preprocessor: Preprocessor
    max_order: int
    vocab: dict[str, int]
    word_of_id: IntArray
    n_words: int
    pair_codes: tuple[IntArray, ...]
    corpus_counts: tuple[IntArray, ...]
    segment_keys: tuple[IntArray, ...]
    segment_max: tuple[IntArray, ...]
    chain_codes: tuple[IntArray, ...]
    chain_entry: tuple[IntArray, ...]
    direct: tuple[npt.NDArray[np.int32] | None, ...]
    lengths: FloatArray
    n_refs: IntArray
    total_tokens: int

    @property
    def n_segments(self) -> int:
        return len(self.n_refs)

    def n_ids(self, order: int) -> int:
        """How many distinct reference n-grams of this order there are."""
        return self.n_words if order == 1 else len(self.pair_codes[order - 1])

    def prefix_ids(self, order: int) -> IntArray:
        """For each reference n-gram of ``order`` ≥ 2, the id of its (order-1)-gram prefix."""
        if order < 2:
            raise ValueError(f"order={order}: only n-grams of order 2 or more have a prefix")
        prefixes: IntArray = self.pair_codes[order - 1] // max(self.n_words, 1)
        return prefixes

    def entry_segment(self, order: int) -> IntArray:
        """The segment of each table entry of ``order``."""
        return self._entries[order - 1][0]

    def entry_ngram(self, order: int) -> IntArray:
        """The n-gram id of each table entry of ``order``."""
        return self._entries[order - 1][1]

    @cached_property
    def _entries(self) -> tuple[tuple[IntArray, IntArray], ...]:
        out = []
        for m, keys in enumerate(self.segment_keys, start=1):
            n_ids = max(self.n_ids(m), 1)
            out.append((keys // n_ids, keys % n_ids))
        return tuple(out)

    def word_ids_of(self, ids: IntArray) -> IntArray:
        """Ids of ``vocab`` (-1: unknown) as word ids (-1: no reference word)."""
        table = self.word_of_id  # its last entry is -1: where an id of -1 lands
        inside = (ids >= 0) & (ids < len(table) - 1)
        found: IntArray = table[np.where(inside, ids, -1)]
        return found


@dataclass(frozen=True)
class HypothesisMatches:
    """A corpus of hypotheses (one per segment) matched against :class:`ReferenceNgrams`.

    ``lengths`` are in words, ``totals[k, m-1]`` is the number of m-grams of candidate k
    (``n̄_m`` summed over k gives seed 000's total m-gram count). ``clipped[m-1]`` holds,
    for every table entry of order m, ``min(n_{e,k}, ñ_{e,k})`` of its segment's
    candidate (0 where the candidate lacks the n-gram).
    """

    ref: ReferenceNgrams
    lengths: IntArray
    totals: IntArray
    clipped: tuple[IntArray, ...]

    def clipped_sums(
        self, weights: Sequence[FloatArray] | None = None, orders: int | None = None
    ) -> FloatArray:
        """Per segment and order (the first ``orders``, default all), Σ_e min(n_{e,k},
        ñ_{e,k}), each term times ``weights[m-1][id]`` if given (NIST's information
        weights); summed over a segment's entries in ascending id (module doc)."""
        n_seg = len(self.lengths)
        n_orders = len(self.clipped) if orders is None else orders
        out = np.zeros((n_seg, n_orders), dtype=np.float64)
        for m in range(1, n_orders + 1):
            clip = self.clipped[m - 1]
            w = (
                clip.astype(np.float64)
                if weights is None
                else clip * weights[m - 1][self.ref.entry_ngram(m)]
            )
            out[:, m - 1] = np.bincount(self.ref.entry_segment(m), weights=w, minlength=n_seg)
        return out


#: Largest direct table of an order's codes (entries of int32; 8 MB).
DIRECT_TABLE_SIZE = 1 << 21
#: Orders above 1 get a direct table only over a small alphabet (``tok:char``): over words
#: it is mostly empty, and filling it costs more than the binary searches it saves on
#: the few segments of a judge's click (``docs/performance.md``).
DIRECT_TABLE_WORDS = 256


def _lookup(table: IntArray, keys: IntArray) -> IntArray:
    """Index of each key in the sorted ``table``, -1 where it is not there."""
    if len(table) == 0:
        return np.full(len(keys), -1, dtype=np.int64)
    pos = np.minimum(np.searchsorted(table, keys), len(table) - 1)
    found: IntArray = np.where(table[pos] == keys, pos, -1)
    return found


def _tails(lines: Lines) -> tuple[IntArray, IntArray]:
    """Each position's line, and the tokens left in its line from there (1 on the last
    token): an m-gram starts where that is ≥ m."""
    n = len(lines)
    lengths = lines.lengths
    line = np.repeat(np.arange(n, dtype=np.int64), lengths)
    remaining = np.repeat(lines.starts[1:], lengths) - np.arange(len(lines.ids), dtype=np.int64)
    return line, remaining


def _first_seen(ids: IntArray) -> tuple[IntArray, IntArray]:
    """Renumber ``ids`` in order of first appearance (``dict.fromkeys`` order): the new
    ids, and the old id of each new one."""
    distinct, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[order] = np.arange(len(distinct), dtype=np.int64)
    renumbered: IntArray = rank[inverse.reshape(-1)]
    old: IntArray = distinct[order]
    return renumbered, old


def check_references(refs: References) -> None:
    for k, seg in enumerate(refs):
        if len(seg) == 0:
            raise ValueError(f"segment {k + 1} has no reference")


def index_references(refs: References, pp: Preprocessor, max_order: int) -> ReferenceNgrams:
    """Tokenize the references once and precompute ids, clipping and corpus counts."""
    if max_order < 1:
        raise ValueError(f"max_order={max_order}: n-grams need an order of at least 1")
    check_references(refs)
    vocab: dict[str, int] = {}
    lines = encode(pp, [r for seg in refs for r in seg], vocab, grow=True)
    n_refs = np.fromiter(map(len, refs), dtype=np.int64, count=len(refs))
    return index_lines(lines, n_refs, pp, max_order, vocab)


def with_boundaries(lines: Lines, pp: Preprocessor, vocab: dict[str, int]) -> Lines:
    """``lines`` as n-gram tokens: inside ``<s>`` … ``</s>`` when ``pp`` asks for sentence
    boundaries (ids of ``vocab``, added to it if new), else unchanged."""
    if not pp.sentence_boundaries:
        return lines
    bos = vocab.setdefault(BOS, len(vocab))
    eos = vocab.setdefault(EOS, len(vocab))
    return lines.wrapped(bos, eos)


def index_lines(
    lines: Lines, n_refs: IntArray, pp: Preprocessor, max_order: int, vocab: dict[str, int]
) -> ReferenceNgrams:
    """:func:`index_references` of references already encoded (ids of ``vocab``,
    segment after segment, ``n_refs[k]`` of them for segment k; no boundaries yet)."""
    if max_order < 1:
        raise ValueError(f"max_order={max_order}: n-grams need an order of at least 1")
    n_seg = len(n_refs)
    lengths = _reference_lengths(lines.lengths, n_refs)
    lines = with_boundaries(lines, pp, vocab)
    sentence_segment = np.repeat(np.arange(n_seg, dtype=np.int64), n_refs)

    ids, word_ids = _first_seen(lines.ids)
    v = len(word_ids)
    sentence, remaining = _tails(lines)
    n_flat = len(ids)

    pair_codes: list[IntArray] = [np.zeros(0, dtype=np.int64)]
    corpus_counts: list[IntArray] = []
    segment_keys: list[IntArray] = []
    segment_max: list[IntArray] = []
    chain_codes: list[IntArray] = []
    chain_entry: list[IntArray] = []
    gid = ids
    for m in range(1, max_order + 1):
        starts = np.flatnonzero(remaining >= m)
        if m > 1:
            codes = gid[starts] * v + ids[starts + m - 1]
            table, inverse = np.unique(codes, return_inverse=True)
            gid = np.full(n_flat, -1, dtype=np.int64)
            gid[starts] = inverse.reshape(-1)
            pair_codes.append(table.astype(np.int64))
        n_ids = v if m == 1 else len(pair_codes[-1])
        g = gid[starts]
        corpus_counts.append(np.bincount(g, minlength=n_ids).astype(np.int64))
        # counts per (reference sentence, n-gram), then the max over a segment's references
        per_sentence, counts = np.unique(sentence[starts] * n_ids + g, return_counts=True)
        seg_key = sentence_segment[per_sentence // n_ids] * n_ids + per_sentence % n_ids
        keys, inverse = np.unique(seg_key, return_inverse=True)
        best = np.zeros(len(keys), dtype=np.int64)
        np.maximum.at(best, inverse.reshape(-1), counts)
        segment_keys.append(keys.astype(np.int64))
        segment_max.append(best)
        # how a candidate finds an entry: (segment, word) for unigrams, else (entry of
        # the prefix, last word); an entry's prefix is an entry of the order below
        segment, ngram = keys // max(n_ids, 1), keys % max(n_ids, 1)
        if m == 1:
            chain = keys
        else:
            pair = pair_codes[-1][ngram]
            n_below = v if m == 2 else len(pair_codes[-2])
            below = segment * n_below + pair // max(v, 1)
            chain = _lookup(segment_keys[-2], below) * v + pair % max(v, 1)
        order = np.argsort(chain, kind="stable")
        chain_codes.append(chain[order])
        chain_entry.append(order.astype(np.int64))

    direct = _direct_tables(n_seg, v, segment_keys, chain_codes, chain_entry)
    word_of_id = np.full(max(len(vocab), int(word_ids.max(initial=-1)) + 1) + 1, -1)
    word_of_id[word_ids] = np.arange(v, dtype=np.int64)
    return ReferenceNgrams(
        preprocessor=pp,
        max_order=max_order,
        vocab=vocab,
        word_of_id=word_of_id.astype(np.int64),
        n_words=v,
        pair_codes=tuple(pair_codes),
        corpus_counts=tuple(corpus_counts),
        segment_keys=tuple(segment_keys),
        segment_max=tuple(segment_max),
        chain_codes=tuple(chain_codes),
        chain_entry=tuple(chain_entry),
        direct=direct,
        lengths=lengths,
        n_refs=n_refs,
        total_tokens=n_flat,
    )


def _reference_lengths(word_lengths: IntArray, n_refs: IntArray) -> FloatArray:
    """Each reference's length in words, a row per segment (``n_refs[k]`` of segment k
    filled, NaN past them)."""
    n_seg = len(n_refs)
    lengths = np.full((n_seg, int(n_refs.max(initial=0))), np.nan)
    slot = np.arange(len(word_lengths), dtype=np.int64) - np.repeat(
        np.cumsum(n_refs) - n_refs, n_refs
    )
    lengths[np.repeat(np.arange(n_seg, dtype=np.int64), n_refs), slot] = word_lengths
    return lengths


def _direct_tables(
    n_seg: int,
    v: int,
    segment_keys: list[IntArray],
    chain_codes: list[IntArray],
    chain_entry: list[IntArray],
) -> tuple[npt.NDArray[np.int32] | None, ...]:
    """Per order, the entries by chain code in one array where its code space is small
    enough (:data:`DIRECT_TABLE_SIZE`, :data:`DIRECT_TABLE_WORDS`), else None (looked up
    by search in ``chain_codes``)."""
    direct: list[npt.NDArray[np.int32] | None] = []
    for m in range(1, len(chain_codes) + 1):
        space = (n_seg if m == 1 else len(segment_keys[m - 2])) * v
        table = None
        if space <= DIRECT_TABLE_SIZE and (m == 1 or v <= DIRECT_TABLE_WORDS):
            table = np.full(space, -1, dtype=np.int32)
            table[chain_codes[m - 1]] = chain_entry[m - 1]
        direct.append(table)
    return tuple(direct)


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
    return match_lines(encode(ref.preprocessor, hyps, ref.vocab, grow=False), ref)


def match_lines(lines: Lines, ref: ReferenceNgrams) -> HypothesisMatches:
    """:func:`match_hypotheses` of hypotheses already encoded with ``ref.vocab`` (no
    boundaries yet)."""
    if len(lines) != ref.n_segments:
        raise ValueError(
            f"{len(lines)} hypotheses but the references were prepared for "
            f"{ref.n_segments} segments"
        )
    pp = ref.preprocessor
    top = ref.max_order
    word_lengths = lines.lengths
    if pp.sentence_boundaries:
        # the boundaries' ids, as the references got them (never -1: they are in ref.vocab)
        lines = lines.wrapped(ref.vocab[BOS], ref.vocab[EOS])
    lens = lines.lengths
    orders = np.arange(1, top + 1, dtype=np.int64)
    totals = np.maximum(lens[:, None] - orders[None, :] + 1, 0)
    ids = ref.word_ids_of(lines.ids)
    segment, remaining = _tails(lines)
    v = ref.n_words
    clipped: list[IntArray] = []
    # the positions where a reference m-gram of the segment starts, and its entry
    starts = np.flatnonzero(ids >= 0)
    entry = _chain(ref, 1, segment[starts] * v + ids[starts])
    for m in range(1, top + 1):
        if m > 1:  # an m-gram is a matched (m−1)-gram and one more word
            longer = remaining[starts] >= m
            starts, entry = starts[longer], entry[longer]
            word = ids[starts + m - 1]
            known = word >= 0
            entry = _chain(ref, m, entry[known] * v + word[known])
            starts = starts[known]
        found = entry >= 0
        starts, entry = starts[found], entry[found]
        table = ref.segment_max[m - 1]
        clipped.append(np.minimum(np.bincount(entry, minlength=len(table)), table))
    return HypothesisMatches(
        ref=ref,
        lengths=word_lengths,
        totals=totals,
        clipped=tuple(clipped),
    )


def _chain(ref: ReferenceNgrams, order: int, codes: IntArray) -> IntArray:
    """The table entry of each code of ``order`` (see :class:`ReferenceNgrams`), -1 if none."""
    table = ref.direct[order - 1]
    if table is not None:
        found_directly: IntArray = table[codes].astype(np.int64)
        return found_directly
    pos = _lookup(ref.chain_codes[order - 1], codes)
    found: IntArray = np.where(pos >= 0, ref.chain_entry[order - 1][pos], -1)
    return found


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
