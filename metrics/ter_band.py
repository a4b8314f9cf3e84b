"""TER's beam edit distance on long lines (:mod:`metrics.ter_beam`), in the memory of its
beam alone.

sacreBLEU's ``BeamEditDistance`` computes, in row ``i`` (``i`` candidate words), only the
cells ``lo_i ≤ j < hi_i`` within ``BEAM_WIDTH`` of the length-scaled diagonal; every other
cell is infinite. A full matrix of a line of ``n`` words against ``m`` holds ``(n + 1)(m +
1)`` cells, and the search tries many candidate shifts at once: for a 2,000-word line
that took gigabytes (issue 40), and 5,000 words ended in a ``MemoryError``. Here a
matrix is its *band* (:class:`Band`): each row's beam cells from its own first column
``lo_i``, ``width`` cells a row, about ``2 · BEAM_WIDTH``, whatever the length.

Only distances are computed for the candidate shifts, with one band row of each in
memory (:func:`band_distances`); the chosen candidate's band is computed again whole
(:func:`band_matrix`) to read its alignment from (:func:`band_trace`). The cells, the
infinite ones included, are sacreBLEU's: a cell reached only from infinite ones stays
infinite, as sacreBLEU's keeps its initial ``10**16``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

BEAM_WIDTH = 25

Words = tuple[int, ...]
IntArray = npt.NDArray[np.int64]
Cells = npt.NDArray[np.signedinteger[Any]]
#: Candidates whose band rows are computed together: the memory of their words, as one
#: array (candidates × words), stays a few megabytes for any line.
GROUP_CELLS = 1 << 21


def spans_of(n_hyp: int, n_ref: int) -> list[tuple[int, int]]:
    """sacreBLEU's ``BeamEditDistance`` bounds: row ``i``'s cells ``lo ≤ j < hi``."""
    ratio = n_ref / n_hyp if n_hyp else 1
    beam = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
    spans = [(0, n_ref + 1)]
    for i in range(1, n_hyp + 1):
        diag = math.floor(i * ratio)
        hi = n_ref + 1 if i == n_hyp else min(n_ref + 1, diag + beam)
        spans.append((max(0, diag - beam), hi))
    return spans


#: :func:`spans_of` remembered, for the short lines of whole matrices (a long line's
#: spans are its :func:`geometry`'s, which keeps few: they are as long as the line).
beam_spans = lru_cache(maxsize=4096)(spans_of)


@dataclass(frozen=True, eq=False)
class Geometry:
    """The band of every matrix of ``n`` candidate words against ``ref`` (``m`` words): row
    ``i``'s band cell ``k`` is column ``lo[i] + k``, a beam cell while ``k < size[i]``.
    Row 0 (all of it is sacreBLEU's first row) keeps the columns row 1 reads.
    ``ref_at[i, k]`` is the reference word the cell's column follows (``-2``: none);
    ``inf`` stands for the infinite cells (no distance reaches it); ``dtype`` holds
    every cell (int16 while it can: half the memory to stream through)."""

    n: int
    m: int
    lo: IntArray
    size: IntArray
    width: int
    ref_at: npt.NDArray[np.int32]
    inf: int
    dtype: type[np.signedinteger[Any]]

    @property
    def pad(self) -> int:
        """The widest step of ``lo`` from one row to the next (the band's left edge moves
        right by at most this many columns a row)."""
        return int(np.diff(self.lo).max(initial=0))


@lru_cache(maxsize=8)
def geometry(n: int, ref: Words) -> Geometry:
    """The :class:`Geometry` of ``n`` candidate words against ``ref`` (``n ≥ 1``)."""
    m = len(ref)
    spans = spans_of(n, m)
    lo = np.array([s[0] for s in spans], np.int64)
    hi = np.array([s[1] for s in spans], np.int64)
    lo[0] = max(0, int(lo[1]) - 1)  # row 1 reads row 0 from column lo[1] − 1
    width = int((hi[1:] - lo[1:]).max()) + 1
    hi[0] = min(m + 1, int(lo[0]) + width)
    size = hi - lo
    columns = lo[:, None] + np.arange(width)[None, :]  # each band cell's column j
    words = np.asarray(ref, np.int32)
    follows = columns - 1  # the reference word of column j is ref[j − 1]
    inside = (follows >= 0) & (follows < m)
    ref_at = np.where(inside, words[np.clip(follows, 0, max(m - 1, 0))], -2).astype(np.int32)
    inf = n + m + 2
    dtype = np.int16 if 3 * inf < np.iinfo(np.int16).max else np.int32
    return Geometry(n, m, lo, size, width, ref_at, inf, dtype)


@dataclass(frozen=True, eq=False)
class Band:
    """A matrix stored as its band (:class:`Geometry`): ``cells[i, k]`` is cell ``(i,
    lo[i] + k)``; cells past a row's beam hold ``geometry.inf``."""

    geometry: Geometry
    cells: Cells


def _first_row(g: Geometry) -> Cells:
    """sacreBLEU's first row (``j`` insertions for column ``j``) within row 0's band."""
    row = np.full(g.width, g.inf, g.dtype)
    row[: g.size[0]] = np.arange(g.lo[0], g.lo[0] + g.size[0])
    return row


def _next_row(g: Geometry, i: int, prev: Cells, words: Cells, out: Cells) -> None:
    """Row ``i`` of every candidate (rows of ``out``) from its row ``i − 1`` (``prev``, laid
    out as ``out``: one infinite column on the left, the band, ``pad`` infinite columns
    on the right) and its word ``i − 1`` (``words``): ``min(diagonal + substitution,
    up + 1)``, then the chain of insertions as a running minimum, then the cells past
    the beam infinite again."""
    width, inf = g.width, g.inf
    d = int(g.lo[i] - g.lo[i - 1])
    diag = prev[:, d : d + width]  # column j − 1 of row i − 1
    up = prev[:, d + 1 : d + 1 + width]  # column j of row i − 1
    cur = out[:, 1 : 1 + width]
    np.not_equal(words[:, None], g.ref_at[i][None, :], out=cur)
    cur += diag
    np.minimum(cur, up + 1, out=cur)
    steps = np.arange(width, dtype=g.dtype)
    cur -= steps
    np.minimum.accumulate(cur, axis=1, out=cur)
    cur += steps
    np.minimum(cur, inf, out=cur)
    cur[:, g.size[i] :] = inf


def _work(g: Geometry, count: int) -> Cells:
    out: Cells = np.full((count, g.width + 2 + g.pad), g.inf, g.dtype)
    return out


def band_matrix(ref: Words, words: Words, start: int, base: Band | None) -> Band:
    """The band of ``words``, rows ``start + 1 …`` computed, those up to ``start`` taken
    from ``base`` (``start`` 0 and no base: from sacreBLEU's first row)."""
    g = geometry(len(words), ref)
    cells = np.empty((g.n + 1, g.width), g.dtype)
    if base is None:
        cells[0] = _first_row(g)
    else:
        cells[: start + 1] = base.cells[: start + 1]
    hyp = np.asarray(words, np.int32)
    prev, cur = _work(g, 1), _work(g, 1)
    prev[0, 1 : 1 + g.width] = cells[start]
    for i in range(start + 1, g.n + 1):
        _next_row(g, i, prev, hyp[i - 1 : i], cur)
        cells[i] = cur[0, 1 : 1 + g.width]
        prev, cur = cur, prev
    return Band(g, cells)


def band_distances(
    ref: Words, candidates: Sequence[Words], starts: Sequence[int], base: Band
) -> list[int]:
    """The beam edit distance of each candidate (all of ``n`` words), whose rows up to
    ``starts[c]`` are ``base``'s: the candidates in groups, each group row by row from
    its earliest start, a candidate joining when its first changed row comes, with one
    band row of each in memory."""
    g = base.geometry
    order = sorted(range(len(candidates)), key=starts.__getitem__)
    found = [0] * len(candidates)
    group = max(1, GROUP_CELLS // max(g.n, 1))
    last = int(g.m - g.lo[g.n]) + 1  # the distance's cell in the work rows
    for a in range(0, len(order), group):
        members = order[a : a + group]
        first = [starts[c] for c in members]
        hyp = np.array([candidates[c] for c in members], np.int32).T.copy()
        prev, cur = _work(g, len(members)), _work(g, len(members))
        joined = 0
        for i in range(first[0] + 1, g.n + 1):
            while joined < len(members) and first[joined] < i:  # rows from the base's
                prev[joined, 1 : 1 + g.width] = base.cells[i - 1]
                joined += 1
            _next_row(g, i, prev[:joined], hyp[i - 1, :joined], cur[:joined])
            prev, cur = cur, prev
        for k, c in enumerate(members):
            found[c] = int(prev[k, last])
    return found


def band_trace(band: Band, words: Words, ref: Words) -> tuple[int, list[int], list[int], list[int]]:
    """(distance, alignment, reference errors, candidate errors) of ``words`` from its band:
    :func:`metrics.ter_beam._trace`'s walk, each cell looked up in its row's band."""
    g = band.geometry
    rows = band.cells.tolist()
    lo = g.lo.tolist()
    inf = g.inf

    def cell(i: int, j: int) -> int:
        k = j - lo[i]
        return rows[i][k] if 0 <= k < g.width else inf

    i, j = len(words), len(ref)
    alignment = [0] * j
    ref_err = [1] * j
    hyp_err = [1] * i
    while i and j:
        here = cell(i, j)
        w = words[i - 1]
        if cell(i - 1, j - 1) + (w != ref[j - 1]) == here:  # match or substitution
            i -= 1
            j -= 1
            alignment[j] = i
            if w == ref[j]:
                ref_err[j] = hyp_err[i] = 0
        elif cell(i - 1, j) + 1 == here:  # a candidate word the reference lacks
            i -= 1
        else:  # a reference word the candidate lacks: it follows candidate word i − 1
            j -= 1
            alignment[j] = i - 1
    while j:
        j -= 1
        alignment[j] = -1
    return cell(g.n, g.m), alignment, ref_err, hyp_err
