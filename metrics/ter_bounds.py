"""Lower bounds of TER's edits (:mod:`metrics.ter`) of one candidate against each of its
segment's references, computed before any shift search, all references at once.

A segment's row is the fewest edits over its references, so a reference whose lower
bound is at least the best edits found so far need not be searched: skipping it cannot
change the minimum. Two bounds, the second never below the first:

* the *bag* bound ``max(I, J) − common`` (``I``, ``J`` the candidate's and the
  reference's lengths, ``common = Σ_w min(count in candidate, count in reference)``):
  shifts keep the candidate's multiset of words, and no edit distance is below
  ``max(I, J)`` minus the matches of an alignment, which are at most ``common``;
* the *order* bound: with ``L`` the longest common subsequence of the candidate and
  the reference, an alignment's matches are a common subsequence, so the edit distance
  (the beam one is never below the plain Levenshtein distance) is at least
  ``max(I, J) − LCS``. A shift moves one block of at most ``MAX_SHIFT_SIZE`` words; a
  common subsequence of the shifted words without the block's words is one of the
  words before the shift, so one shift raises the LCS by at most ``MAX_SHIFT_SIZE``,
  and the LCS never exceeds ``common``. After ``s`` shifts the edits are thus at least
  ``s + max(I, J) − min(common, L + MAX_SHIFT_SIZE · s)``, and the bound is the least
  of that over ``s ≥ 0``. It holds however the search ends (the shifts it made plus
  the distance after them), the cap of shift candidates included.

The references of a segment are counted once (:class:`SegmentTable`, shared by every
system); a candidate's bounds are then a few numpy operations: the counts as one
``minimum``, the LCS of all references at once by the bit-parallel algorithm (Hyyrö
2004) on one 64-bit word per reference, in Python integers for a longer reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from metrics.ter_search import MAX_SHIFT_SIZE

IntArray = npt.NDArray[np.int64]
WordArray = npt.NDArray[np.uint64]
#: References up to this many words keep their LCS state in one uint64.
_WORD_BITS = 64


@dataclass(frozen=True, eq=False)
class SegmentTable:
    """One segment's references as columns of its own vocabulary (``column``: word id →
    column): ``counts[r, col]`` the reference's count of a word, ``masks[r, col]`` the
    bits of its positions (position ``p`` is bit ``p``; references longer than
    ``_WORD_BITS`` words have 0 there and their masks in ``long``), ``lengths[r]``."""

    column: dict[int, int]
    counts: IntArray
    masks: WordArray
    lengths: IntArray
    long: dict[int, dict[int, int]]


def segment_table(refs: Sequence[Sequence[int]]) -> SegmentTable:
    """:class:`SegmentTable` of one segment's references (token ids)."""
    column: dict[int, int] = {}
    for ref in refs:
        for w in ref:
            column.setdefault(w, len(column))
    counts = np.zeros((len(refs), len(column)), dtype=np.int64)
    masks = np.zeros((len(refs), len(column)), dtype=np.uint64)
    long: dict[int, dict[int, int]] = {}
    for r, ref in enumerate(refs):
        bits: dict[int, int] = {}
        for p, w in enumerate(ref):
            col = column[w]
            counts[r, col] += 1
            bits[col] = bits.get(col, 0) | (1 << p)
        if len(ref) > _WORD_BITS:
            long[r] = bits
        else:
            for col, b in bits.items():
                masks[r, col] = b
    lengths = np.fromiter(map(len, refs), dtype=np.int64, count=len(refs))
    return SegmentTable(column, counts, masks, lengths, long)


def _lcs_long(cols: list[int], bits: dict[int, int], n_ref: int) -> int:
    """The LCS length of the candidate (its columns, −1 for a word the references lack)
    and one reference (its position bits per column), bit-parallel (Hyyrö 2004): bit
    ``p`` of ``v`` is 0 where the LCS of the candidate so far and the reference's first
    ``p + 1`` words grows, so the zeros of ``v`` count it."""
    full = (1 << n_ref) - 1
    v = full
    for col in cols:
        u = v & bits.get(col, 0)
        v = ((v + u) | (v - u)) & full
    return n_ref - v.bit_count()


def lcs_lengths(cols: list[int], table: SegmentTable) -> IntArray:
    """The LCS length of the candidate (its columns in ``table``, −1 for a word no
    reference has) and each reference: :func:`_lcs_long` for all of them at once, one
    uint64 of state each (a carry out of bit 63 is dropped, as the mask would drop it)."""
    n = table.lengths
    low = (np.uint64(1) << np.minimum(n, _WORD_BITS - 1).astype(np.uint64)) - np.uint64(1)
    full = np.where(n >= _WORD_BITS, np.uint64(2**64 - 1), low).astype(np.uint64)
    v = full.copy()
    masks = table.masks
    for col in cols:
        if col < 0:
            continue  # a word no reference has changes no bit
        u = v & masks[:, col]
        v = ((v + u) | (v - u)) & full
    out: IntArray = n - np.bitwise_count(v).astype(np.int64)
    for r, bits in table.long.items():
        out[r] = _lcs_long(cols, bits, int(n[r]))
    return out


def order_bound(size: Any, common: Any, lcs: Any) -> Any:
    """``min_{s ≥ 0} s + size − min(common, lcs + MAX_SHIFT_SIZE · s)`` (module doc),
    elementwise, ``size = max(I, J)``: for ``s`` below ``s* = ⌈(common − lcs) /
    MAX_SHIFT_SIZE⌉`` the term is ``size − lcs − (MAX_SHIFT_SIZE − 1) · s``, falling,
    from ``s*`` on ``s + size − common``, rising; so the least is at ``s*`` or
    ``s* − 1``."""
    common = np.asarray(common, dtype=np.int64)
    lcs = np.asarray(lcs, dtype=np.int64)
    size = np.asarray(size, dtype=np.int64)
    s = -((lcs - common) // MAX_SHIFT_SIZE)  # ⌈(common − lcs) / MAX_SHIFT_SIZE⌉ ≥ 0
    at = s + size - common
    before = size - lcs - (MAX_SHIFT_SIZE - 1) * (s - 1)
    return np.where(s > 0, np.minimum(at, before), at)


def position_bits(ref: Sequence[int]) -> dict[int, int]:
    """Each word's positions in ``ref`` as the bits of one integer (:func:`lcs_length`)."""
    bits: dict[int, int] = {}
    for p, w in enumerate(ref):
        bits[w] = bits.get(w, 0) | (1 << p)
    return bits


def lcs_length(words: Sequence[int], bits: dict[int, int], n_ref: int) -> int:
    """The LCS length of ``words`` and a reference of ``n_ref`` words (its
    :func:`position_bits`), bit-parallel (:func:`_lcs_long`, by word ids)."""
    full = (1 << n_ref) - 1
    v = full
    for w in words:
        u = v & bits.get(w, 0)
        v = ((v + u) | (v - u)) & full
    return n_ref - v.bit_count()


def edit_parts(hyp: Sequence[int], table: SegmentTable) -> tuple[IntArray, IntArray, IntArray]:
    """``(max(I, J), common, LCS)`` of the candidate and each of the segment's references,
    what :func:`order_bound` reads; the first two are the same for any shift of the
    candidate (shifts keep its length and its words)."""
    column = table.column
    cols = [column.get(w, -1) for w in hyp]
    known = [c for c in cols if c >= 0]
    hyp_counts = np.bincount(np.asarray(known, dtype=np.int64), minlength=len(column))
    common = np.minimum(table.counts, hyp_counts[None, :]).sum(axis=1)
    size: IntArray = np.maximum(table.lengths, len(hyp))
    return size, common, lcs_lengths(cols, table)


def edit_bounds(hyp: Sequence[int], table: SegmentTable) -> IntArray:
    """The order bound (module doc) of the candidate's TER edits against each of the
    segment's references; never below the bag bound."""
    result: IntArray = order_bound(*edit_parts(hyp, table))
    return result
