"""Automatic re-segmentation of an unsegmented candidate document, and AS-WER (seed 002).

A speech translation system's output need not have the reference's sentence boundaries.
:func:`resegment` splits the candidate document ``e_1 … e_I`` into exactly ``K``
segments, one per reference segment, by a Levenshtein alignment against the reference
documents (seed 002, "Alignment algorithm"); every segment-level metric then applies to
the result, and the alignment's own edit count gives AS-WER.

The algorithm (seed 002, "Dealing with multiple references" to "Automatic segmentation
word error rate"):

* References ``r = 1 … R`` of segment ``k`` are padded at their end with the empty word
  ``$`` to the segment's longest reference, so reference word position ``n`` is the same
  in every reference; deleting ``$`` costs 0.
* ``D(i, n, r)`` is the recursion of seed 002 "Within-segment alignment": substitution
  or match from ``D(i−1, n−1, r)``, insertion of ``e_i`` from ``D(i−1, n, r)``, deletion
  of ``w_nr`` from ``D(i, n−1, r)``; each cell carries the backpointer ``B(i, n, r)``, the
  candidate position where the path's previous segment ended.
* At the end ``n_k`` of every reference segment the references recombine
  ("Recombination at reference segment boundaries"): ``D(i, n_k) = min_r D(i, n_k − 1,
  r)``, and the boundary backpointer ``BP(i, k)`` is the winner's ``B``. The next
  segment starts from that cell with ``B = i``.
* ``d_L = D(I, N)``; the boundaries ``i_1 … i_K`` come from following ``BP`` back from
  ``(I, K)``. The reference of segment ``k`` (the seed's ``BR(i, k)``) is recomputed after
  the backtrace: the first reference with the fewest edits to the candidate's segment
  ``k`` (this is the reference the recombination picked: see :func:`resegment`).
  ``N̂`` is the summed length of those references, and AS-WER ``= d_L / N̂``.

Ties (deterministic; the same as RWTH's mwerSegmenter and its C++ port ``mweralign``,
so that both split a document identically):

1. within a segment, a cell whose three predecessors give the same cost takes the
   **deletion** first, then the **insertion**, then the substitution (or match);
2. at a recombination, the **first** reference (in the order given) among those with
   the lowest ``D``;
3. the reference of a segment: the first among those with the fewest edits.

mwerSegmenter's charge before the first word, reproduced by default (``mweralign=True``;
``mweralign:yes`` in AS-WER's signature): it starts its DP with ``D(0, n) = n`` over
*every* position of its reference stream, the padding ``$`` and each segment's end marker
included, so a path that deletes whole segments before the candidate's first word pays
one edit more for each segment end it crosses (and, with several references, the longest
reference's length, ``$`` included). Each such leading empty segment then costs its
longest reference's length + 1 and is scored against the first reference (the one its
recombination picks when every reference costs the same); where the definition leaves
the first segments empty, mwerSegmenter's split often gives them a word instead. The DP
reproduces it by setting candidate position 0 of each row to mwerSegmenter's position
in its stream (:class:`_Grid`). ``mweralign=False``
(``mweralign:no``) is seed 002's recursion as written: a deleted reference word costs 1,
padding and segment ends nothing. Only documents whose best split leaves its first
segments empty can differ. An empty candidate is aligned like any other either way
(every reference word deleted, as defined; ``mweralign`` returns 0 edits and no
segmentation).

Complexity (seed 002, "Complexity"): time ``O(N·I·R)``, memory ``O(N·R + I·K)`` — never
an ``I × N`` matrix. The DP runs row by row over reference word positions ``n``; a row
is a numpy vector over candidate positions ``i`` (for all ``R`` references at once):
substitutions and deletions are elementwise, insertions a running minimum
(``D(i) = min_{i' ≤ i} (t(i') + i − i') = cummin(t − i) + i``), and the backpointers
follow by a forward fill of the positions where the cell did not come from an insertion.
Only the cells that can lie on an optimal path are computed (:func:`resegment`: a
window of candidate positions per row), and the only table is ``BP``, one row per segment
as wide as that segment's last window: at most ``K × (I + 1)`` positions, 2 bytes each
while ``I < 65,536``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from metrics.align import distance

Int32Array = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Segmentation:
    """The result of :func:`resegment`.

    ``boundaries[k]`` is the candidate position where segment ``k`` ends (exclusive:
    segment ``k`` is words ``boundaries[k − 1] … boundaries[k] − 1``, with
    ``boundaries[−1] = 0``), so ``boundaries[-1]`` is the candidate's length. A segment
    may be empty. ``reference_per_segment[k]`` is the index (0-based, in the order given)
    of the reference segment ``k`` is scored against; ``segment_edits[k]`` and
    ``segment_ref_lengths[k]`` are its edits and that reference's length, whose sums are
    ``edits`` (``d_L``) and ``ref_length`` (``N̂``).
    """

    boundaries: tuple[int, ...]
    reference_per_segment: tuple[int, ...]
    segment_edits: tuple[int, ...]
    segment_ref_lengths: tuple[int, ...]

    @property
    def edits(self) -> int:
        """``d_L``: the fewest edits of any segmentation and choice of references."""
        return sum(self.segment_edits)

    @property
    def ref_length(self) -> int:
        """``N̂``: the length of the chosen single-reference document."""
        return sum(self.segment_ref_lengths)

    @property
    def rate(self) -> float:
        """AS-WER ``d_L / N̂`` as a fraction (0 when both are 0; +∞ for edits against an
        empty reference document)."""
        if self.ref_length == 0:
            return 0.0 if self.edits == 0 else float("inf")
        return self.edits / self.ref_length

    def split(self, words: Sequence[str]) -> list[list[str]]:
        """``words`` (the candidate's words) cut at the boundaries: one list per segment."""
        if len(words) != self.boundaries[-1]:
            raise ValueError(
                f"{len(words)} words but the segmentation covers {self.boundaries[-1]}"
            )
        starts = (0, *self.boundaries[:-1])
        return [list(words[a:b]) for a, b in zip(starts, self.boundaries, strict=True)]

    def segments(self, words: Sequence[str]) -> list[str]:
        """The candidate's segments as strings (words joined by one space)."""
        return [" ".join(seg) for seg in self.split(words)]


def resegment(
    hyp_words: Sequence[str],
    refs_per_segment: Sequence[Sequence[Sequence[str]]],
    *,
    beam: int = 192,
    mweralign: bool = True,
) -> Segmentation:
    """Split ``hyp_words`` into one segment per reference segment (seed 002).

    ``refs_per_segment[k]`` holds segment ``k``'s references, each a sequence of words;
    words are compared exactly (case-fold or tokenize before calling). A segment with
    fewer references than the others is scored against those it has. ``mweralign``:
    charge the deletions before the first candidate word as mwerSegmenter does (the
    module docstring).

    Two passes, both the DP of the module docstring on a window of candidate positions
    per reference row. The cost still to come from a cell is at least the difference
    between the words left in the candidate and in the references (the bound). A beam
    pass keeps the cells within ``beam`` edits of the row's cheapest, with and without
    the bound (a cost window, not a width: a hypothesis that inserts or drops whole
    sentences moves its best cells far in one row); its result, the cost of a real
    segmentation, is an upper bound ``T`` of ``d_L``. The exact pass then keeps every
    cell whose cost plus the bound is at most ``T``. No cell of an optimal path is
    dropped, so the result is the full DP's, ties included; the windows only save the
    cells that cannot matter, and a tight ``T`` makes them narrow.
    """
    if not refs_per_segment:
        raise ValueError("no reference segments: nothing to segment against")
    for k, refs in enumerate(refs_per_segment):
        if len(refs) == 0:
            raise ValueError(f"segment {k + 1} has no reference")
    if beam < 1:
        raise ValueError(f"beam={beam}: must be at least 1")
    vocab: dict[str, int] = {}
    hyp = np.fromiter(
        (vocab.setdefault(w, len(vocab)) for w in hyp_words), dtype=np.int32, count=len(hyp_words)
    )
    ref_ids = [
        [[vocab.setdefault(w, len(vocab)) for w in ref] for ref in refs]
        for refs in refs_per_segment
    ]
    charged = mweralign and len(hyp) > 0
    dp = _Grid(hyp, ref_ids, mweralign=charged)
    bound, _ = dp.run(threshold=None, beam=beam)
    cost, bp_rows = dp.run(threshold=bound, beam=0)
    ends = _backtrace(bp_rows, len(hyp))
    starts = (0, *ends[:-1])
    segments = [hyp_words[a:b] for a, b in zip(starts, ends, strict=True)]
    chosen, edits, lengths = score_segments(segments, refs_per_segment, mweralign=charged)
    seg = Segmentation(tuple(ends), tuple(chosen), tuple(edits), tuple(lengths))
    if seg.edits != cost:  # the backtrace re-scored must give the DP's own total
        raise RuntimeError(f"re-segmentation lost its way: {seg.edits} edits != DP {cost}")
    return seg


_INF = 2**30
_PRUNE_EVERY = 4  # rows between two shrinkings of the window (a wider window is safe)
BPRow = tuple[int, npt.NDArray[np.unsignedinteger]]


class _Grid:
    """The references as padded id rows, and the DP run over them (see :func:`resegment`).

    A row of the DP is a window ``[lo, hi]`` of candidate positions in a buffer of
    ``I + 2`` columns (the last one stays +∞: the pruned cells right of a window);
    two buffers alternate as the previous and the current row.
    """

    def __init__(
        self, hyp: Int32Array, ref_ids: list[list[list[int]]], *, mweralign: bool = False
    ) -> None:
        self.hyp = hyp
        self.mweralign = mweralign
        self.n_refs = max(len(refs) for refs in ref_ids)
        self.segments: list[tuple[Int32Array, npt.NDArray[np.int64]]] = []
        shortest, longest = [], []
        for refs in ref_ids:
            # a segment with fewer references repeats its first: never preferred (ties)
            refs = [*refs, *[refs[0]] * (self.n_refs - len(refs))]
            lengths = np.array([len(r) for r in refs], dtype=np.int64)
            padded = np.full((self.n_refs, int(lengths.max())), -1, dtype=np.int32)
            for r, ref in enumerate(refs):
                padded[r, : len(ref)] = ref
            self.segments.append((padded, lengths))
            shortest.append(int(lengths.min()))
            longest.append(int(lengths.max()))
        # reference words left after segment k, at least and at most
        self.min_after = [*np.cumsum(shortest[::-1])[::-1][1:].tolist(), 0]
        self.max_after = [*np.cumsum(longest[::-1])[::-1][1:].tolist(), 0]
        # mwerSegmenter's position of segment k's end marker in its reference stream
        self.marker = np.cumsum(np.asarray(longest, dtype=np.int64) + 1).tolist()
        self.bp_dtype = np.uint16 if len(hyp) < 2**16 else np.uint32
        n = len(hyp)
        self.ar = np.arange(n + 2, dtype=np.int32)
        # flat offsets of the reference rows in a (R, window) array, for np.take
        self.offsets = np.arange(self.n_refs, dtype=np.int32)[:, None]

    def run(self, *, threshold: int | None, beam: int) -> tuple[int, list[BPRow]]:
        """``(D(I, N), BP rows)``: with ``threshold``, exact; else a beam search (cells
        within ``beam`` edits of the row's cheapest) whose cost is an upper bound of
        ``d_L``."""
        n_hyp, n_refs, ar = len(self.hyp), self.n_refs, self.ar
        costs = [np.full((n_refs, n_hyp + 2), _INF, np.int32) for _ in range(2)]
        backs = [np.zeros((n_refs, n_hyp + 2), np.int32) for _ in range(2)]
        costs[0][:, : n_hyp + 1] = ar[: n_hyp + 1]  # D(i, 0) = i: i insertions
        cur, lo, hi = 0, 0, n_hyp
        bp_rows: list[BPRow] = []
        row_count = 0
        for k, (padded, lengths) in enumerate(self.segments):
            longest, shortest = padded.shape[1], int(lengths.min())
            for n in range(longest):
                prev_c, prev_b, new_c, new_b = (
                    costs[cur],
                    backs[cur],
                    costs[1 - cur],
                    backs[1 - cur],
                )
                prev_c[:, hi + 1] = _INF
                hi2 = min(hi + 1, n_hyp)
                view = slice(lo, hi2 + 1)
                if n < shortest:
                    self._row(
                        prev_c[:, view],
                        prev_b[:, view],
                        padded[:, n],
                        lo,
                        hi2,
                        new_c[:, view],
                        new_b[:, view],
                    )
                else:  # deleting $ costs 0: the other references' rows stay as they are
                    rows = np.flatnonzero(lengths > n)
                    c, b = prev_c[rows, view], prev_b[rows, view]
                    oc, ob = np.empty_like(c), np.empty_like(b)
                    self._row(c, b, padded[rows, n], lo, hi2, oc, ob)
                    new_c[:, view], new_b[:, view] = prev_c[:, view], prev_b[:, view]
                    new_c[rows, view], new_b[rows, view] = oc, ob
                cur = 1 - cur
                if self.mweralign and lo == 0:  # deleting before the first word
                    new_c[:, 0] = self.marker[k] - longest + n
                low = max(0, shortest - n - 1) + self.min_after[k]
                high = max(0, longest - n - 1) + self.max_after[k]
                hi = self._extend(new_c, new_b, hi2, low, high, threshold, beam)
                row_count += 1
                if row_count % _PRUNE_EVERY == 0 or n == longest - 1:
                    lo, hi = self._shrink(new_c[:, lo : hi + 1], lo, low, high, threshold, beam)
            # recombination at the segment end: the first reference with the lowest cost
            c, b = costs[cur][:, lo : hi + 1], backs[cur][:, lo : hi + 1]
            if n_refs > 1:
                best = c.argmin(axis=0)
                cols = np.arange(hi + 1 - lo)
                bp_rows.append((lo, b[best, cols].astype(self.bp_dtype)))
                c[:] = c[best, cols]
            else:
                bp_rows.append((lo, b[0].astype(self.bp_dtype)))
            if self.mweralign and lo == 0:  # the end marker deleted too
                c[:, 0] = self.marker[k]
            b[:] = ar[lo : hi + 1]
        final = costs[cur]
        if hi < n_hyp:  # only a beam can lose the end: insert the rest (an upper bound)
            if threshold is not None:
                raise RuntimeError(f"threshold {threshold} is below the alignment's cost")
            return int(final[0, hi]) + n_hyp - hi, bp_rows
        return int(final[0, n_hyp]), bp_rows

    def _row(
        self,
        prev: Int32Array,
        prev_back: Int32Array,
        words: Int32Array,
        lo: int,
        hi: int,
        out: Int32Array,
        out_back: Int32Array,
    ) -> None:
        """One reference word position for every reference row: ``D(·, n, r)`` and ``B``
        on columns ``lo … hi`` from ``D(·, n − 1, r)``, with the tie rule of the module
        docstring. Column ``lo`` has only its deletion (the cells left of the window are
        pruned)."""
        ar = self.ar[: hi - lo + 1]
        mismatch = self.hyp[None, lo:hi] != words[:, None]
        sub = prev[:, :-1] + mismatch  # D(i−1, n−1) + 1 − δ(e_i, w_n)
        np.add(prev, 1, out=out)  # deletion: D(i, n−1) + 1
        deleted = out[:, 1:] <= sub  # a deletion wins over a substitution at equal cost
        np.minimum(out[:, 1:], sub, out=out[:, 1:])
        t_back = prev_back.copy()
        np.copyto(t_back[:, 1:], prev_back[:, :-1], where=~deleted)
        out -= ar  # insertions: D(i) = min(t(i), D(i−1) + 1) = cummin(t − i) + i
        low = np.minimum.accumulate(out, axis=1)
        # A cell keeps its own t (not an insertion) when t is strictly cheaper than the
        # insertion, or equally cheap and a deletion (deletion before insertion before
        # substitution); otherwise it inherits the backpointer of its left neighbour.
        own = np.empty(out.shape, dtype=bool)
        own[:, 0] = True
        np.less(out[:, 1:], low[:, :-1] + deleted, out=own[:, 1:])
        source = np.where(own, ar, 0)
        np.maximum.accumulate(source, axis=1, out=source)
        if len(source) > 1:
            source += self.offsets[: len(source)] * source.shape[1]
        t_back.take(source, out=out_back)
        np.add(low, ar, out=out)

    def _extend(
        self,
        cost: Int32Array,
        back: Int32Array,
        hi: int,
        low: int,
        high: int,
        threshold: int | None,
        beam: int,
    ) -> int:
        """Insertions right of the window's last cell, as far as they can matter; the new
        ``hi``. ``[low, high]`` bounds the reference words left after this row."""
        n_hyp = len(self.hyp)
        if hi >= n_hyp:
            return hi
        last = int(cost[0, hi]) if self.n_refs == 1 else int(cost[:, hi].min())
        if last >= _INF:
            return hi
        if threshold is None:  # a beam follows up to ``beam`` insertions in one row
            extra = min(beam, n_hyp - hi)
        else:
            extra = _insertions_within(last, n_hyp - hi, low, high, threshold)
        if extra:
            cost[:, hi + 1 : hi + 1 + extra] = cost[:, hi : hi + 1] + self.ar[1 : extra + 1]
            back[:, hi + 1 : hi + 1 + extra] = back[:, hi : hi + 1]
        return hi + extra

    def _shrink(
        self,
        cost: Int32Array,
        lo: int,
        low: int,
        high: int,
        threshold: int | None,
        beam: int,
    ) -> tuple[int, int]:
        """The part of the window ``cost`` (starting at ``lo``) that can still matter."""
        width = cost.shape[1]
        left = (len(self.hyp) - lo) - self.ar[:width]  # candidate words still to come
        bound = np.maximum(np.maximum(left - high, low - left), 0)
        best = cost.min(axis=0) if self.n_refs > 1 else cost[0]
        score = best + bound
        if threshold is None:
            # the beam: cells within ``beam`` edits of the cheapest so far, and of the
            # cheapest with the bound of what is left (else the beam drifts to where
            # fewer candidate words are aligned)
            near = (best <= best.min() + beam) | (score <= score.min() + beam)
            keep = np.flatnonzero(near)
            return lo + int(keep[0]), lo + int(keep[-1])
        keep = np.flatnonzero(score <= threshold)
        if len(keep) == 0:
            raise RuntimeError(f"threshold {threshold} is below the alignment's cost")
        return lo + int(keep[0]), lo + int(keep[-1])


def _insertions_within(cost: int, left: int, low: int, high: int, threshold: int) -> int:
    """How many insertions after a cell of ``cost`` with ``left`` candidate words to its
    right keep ``cost + m + bound`` within ``threshold`` (the bound is non-decreasing along
    insertions, so a binary search finds the last one)."""

    def within(m: int) -> bool:
        rest = left - m
        return cost + m + max(0, rest - high, low - rest) <= threshold

    if not within(1):
        return 0
    a, b = 1, left  # within(a) holds; find the largest
    while a < b:
        mid = (a + b + 1) // 2
        if within(mid):
            a = mid
        else:
            b = mid - 1
    return a


def _backtrace(bp_rows: list[BPRow], n_hyp: int) -> list[int]:
    """``i_1 … i_K`` from ``BP``, following it back from ``(I, K)``."""
    ends = [0] * len(bp_rows)
    end = n_hyp
    for k in range(len(bp_rows) - 1, -1, -1):
        ends[k] = end
        lo, row = bp_rows[k]
        end = int(row[end - lo])
    return ends


def score_segments(
    segments: Sequence[Sequence[str]],
    refs_per_segment: Sequence[Sequence[Sequence[str]]],
    *,
    mweralign: bool = True,
) -> tuple[list[int], list[int], list[int]]:
    """``(reference, edits, reference length)`` of each candidate segment: the first
    reference with the fewest edits. With ``mweralign`` and a candidate that has a word,
    each empty segment before its first word costs the longest reference's length + 1
    and is scored against the first reference (mwerSegmenter's charge, module doc)."""
    chosen, edits, lengths = [], [], []
    leading = mweralign and any(segments)
    for segment, refs in zip(segments, refs_per_segment, strict=True):
        leading = leading and not segment
        if leading:
            chosen.append(0)
            edits.append(max(len(ref) for ref in refs) + 1)
            lengths.append(len(refs[0]))
            continue
        dists = [distance(segment, ref) for ref in refs]
        best = int(np.argmin(dists))  # the first of the fewest edits
        chosen.append(best)
        edits.append(dists[best])
        lengths.append(len(refs[best]))
    return chosen, edits, lengths
