"""The hits, substitutions, deletions and insertions of one alignment of a reference
and a candidate, as jiwer counts them: its ``process_words`` takes them from rapidfuzz's
``Levenshtein.opcodes(reference, hypothesis)``, and this module follows rapidfuzz's
``editops`` step for step (issue 40, point 2).

Any fewest-edits alignment gives the same edit count (WER, CER), but not the same split
of it: "a b" against "b c" is two substitutions (no hit) or a deletion, a hit and an
insertion. MER, WIL and WIP (:mod:`metrics.wil`) read the hits, so they need *the*
alignment jiwer reads, whose ties are rapidfuzz's:

* the common prefix and then the common suffix are hits, and set aside;
* the rest is Hyyrö's bit-parallel Levenshtein (2004), the reference's positions as
  the bits, one row per candidate word, each row's vertical deltas kept (``VP``: +1,
  ``VN``: −1);
* the walk back from the last cell prefers a deletion (the cell is one more than the
  one above it in the reference), then an insertion (after stepping back a candidate
  word, the cell is one less than the one above), then the diagonal (a hit or a
  substitution).

(rapidfuzz's C++ splits a very large matrix in two, Hirschberg's way, where its ties
may differ; jiwer's sentences never come near that size.)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple


class EditCounts(NamedTuple):
    """One alignment's operations: hits + substitutions + deletions is the reference's
    length, hits + substitutions + insertions the candidate's."""

    hits: int
    substitutions: int
    deletions: int
    insertions: int


def _vertical_deltas(
    ref: Sequence[Hashable], hyp: Sequence[Hashable]
) -> tuple[list[int], list[int]]:
    """Hyyrö's ``VP`` and ``VN`` after each candidate word (bit ``i``: reference word
    ``i``), as rapidfuzz's ``_matrix`` computes them (masked to the reference's bits, which
    changes no bit below them: carries run upwards)."""
    full = (1 << len(ref)) - 1
    positions: dict[Hashable, int] = {}
    for i, word in enumerate(ref):
        positions[word] = positions.get(word, 0) | (1 << i)
    vp, vn = full, 0
    rows_vp: list[int] = []
    rows_vn: list[int] = []
    for word in hyp:
        x = positions.get(word, 0)
        d0 = ((((x & vp) + vp) ^ vp) | x | vn) & full
        hp = (vn | ~(d0 | vp)) & full
        hn = d0 & vp
        hp = ((hp << 1) | 1) & full
        hn = (hn << 1) & full
        vp = (hn | ~(d0 | hp)) & full
        vn = hp & d0
        rows_vp.append(vp)
        rows_vn.append(vn)
    return rows_vp, rows_vn


def edit_counts(ref: Sequence[Hashable], hyp: Sequence[Hashable]) -> EditCounts:
    """The operations of rapidfuzz's ``Levenshtein.editops(ref, hyp)`` (module doc)."""
    n_ref, n_hyp = len(ref), len(hyp)
    prefix = 0
    while prefix < min(n_ref, n_hyp) and ref[prefix] == hyp[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(n_ref, n_hyp) - prefix and ref[n_ref - 1 - suffix] == hyp[n_hyp - 1 - suffix]
    ):
        suffix += 1
    s1 = ref[prefix : n_ref - suffix]
    s2 = hyp[prefix : n_hyp - suffix]
    subs = dels = ins = 0
    col, row = len(s1), len(s2)
    if col and row:
        vp, vn = _vertical_deltas(s1, s2)
        while row and col:
            if vp[row - 1] >> (col - 1) & 1:  # the reference word col − 1 is deleted
                dels += 1
                col -= 1
                continue
            row -= 1
            if row and vn[row - 1] >> (col - 1) & 1:  # the candidate word row is inserted
                ins += 1
                continue
            col -= 1
            subs += s1[col] != s2[row]
    dels += col
    ins += row
    return EditCounts(n_ref - subs - dels, subs, dels, ins)
