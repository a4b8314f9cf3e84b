"""The beam edit distances TER's shift search asks for (:mod:`metrics.ter_search`),
computed for many sentence pairs at once.

The beam edit distance is sacreBLEU's ``BeamEditDistance``: cell ``(i, j)`` (``i``
candidate words, ``j`` reference words) is computed only within ``BEAM_WIDTH`` cells of
the length-scaled diagonal, the others are infinite, and a row is ``min(diagonal +
substitution, up + 1, left + 1)``. Here a step of the search asks for the matrices of
all its pairs together (:func:`answer_all`): candidates of similar lengths form a chunk
(:func:`_plan` weighs numpy's per-call cost against the padding), and each row of a
chunk is a handful of array operations across all its candidates — the chain of
``left + 1`` as a running minimum, ``cur[j] = min_{k ≤ j}(t[k] + j − k)``. Only each
request's chosen candidate's matrix is handed back, with its alignment traced (many at
once with numpy, :func:`_traces`). What is left over when few candidates remain is
computed in plain Python. Either way the cells and the traces are sacreBLEU's, to the
last tie.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from metrics.ter_band import BEAM_WIDTH, Band, band_distances, band_matrix, band_trace, beam_spans

Words = tuple[int, ...]
IntArray = npt.NDArray[np.int64]
CellArray = npt.NDArray[np.signedinteger[Any]]
#: Cells of one chunk's matrices (rows × reference positions × candidates): the memory.
_CHUNK_CELLS = 1 << 23
#: Estimated seconds: the numpy calls of one row of a chunk; a cell of a chunk (about
#: half the padded cells are computed, at a few nanoseconds each); a cell in Python.
_ROW_COST = 25e-6
_CELL_COST = 6e-9
_PLAIN_CELL_COST = 40e-9
#: Rows smaller than this take a running minimum by numpy's accumulate, larger by
#: doubling steps (fewer elements per call but vectorised).
_SMALL_ROW = 2048
_INF = 10**16
#: From this many matrices to trace in a chunk, they are traced together with numpy.
_MANY_TRACES = 64
#: Matrices of more cells than this (a line of about 180 words against as many) are
#: kept as their bands (:mod:`metrics.ter_band`): a step's candidates, each a whole
#: matrix, would take gigabytes on a long line. Below it whole matrices are faster (a
#: corpus of 150-word lines: 2.6 s against 4.3 s; of 200-word lines, 5.7 s against
#: 5.3 s; of 300-word lines, 26 s against 8.2 s) and stay within sacreBLEU's memory.
LONG_CELLS = 1 << 15


@dataclass(frozen=True, eq=False)
class Request:
    """What a search asks for: the matrix of its current words (``base`` None, ``words``
    those words alone), or the best of its candidate shifts ``words``.

    The answer to the first is the matrix and its :func:`_trace`; to the second,
    ``(index, distance, found)`` of the best candidate, the first of the highest
    ``(score − distance, *keys[c])`` (sacreBLEU's order), ``found`` its matrix and
    trace only when it lowers ``score`` (it is the next round's current words).
    Candidate ``c``'s rows up to ``starts[c]`` are those of ``base`` (the current
    words' matrix), as a shift changes no word before it."""

    ref: Words
    words: list[Words]
    starts: list[int]
    base: CellArray | Band | None
    keys: list[Key]
    score: int

    @property
    def full_base(self) -> CellArray:
        """``base`` of a request whose matrices are whole (not :func:`_is_long`)."""
        assert isinstance(self.base, np.ndarray)  # noqa: S101 (short requests' bases)
        return self.base


Key = tuple[int, int, int]
Matrix = list[list[int]]
#: (distance, alignment, reference errors, candidate errors): :func:`_trace`.
Trace = tuple[int, list[int], list[int], list[int]]
#: A matrix of the current words (whole, or its band for a long line) and its trace.
Found = tuple[CellArray | Band, Trace]
Best = tuple[int, int, Found | None]
Answer = Found | Best


def _spans(n: IntArray, m: IntArray, rows: int) -> tuple[IntArray, IntArray]:
    """:func:`~metrics.ter_band.beam_spans` of many candidates at once, rows ``0 … rows``
    (the same float arithmetic, so the same cells; rows past a candidate's end are whole)."""
    ratio = np.where(n > 0, m / np.maximum(n, 1), 1.0)
    half = ratio / 2
    beam = np.where(half > BEAM_WIDTH, np.ceil(half + BEAM_WIDTH), BEAM_WIDTH).astype(np.int64)
    grid = np.arange(rows + 1)[None, :]
    diag = np.floor(grid * ratio[:, None]).astype(np.int64)
    lo = np.where(grid > n[:, None], 0, np.maximum(0, diag - beam[:, None]))
    last = grid >= n[:, None]
    hi = np.where(last, m[:, None] + 1, np.minimum(m[:, None] + 1, diag + beam[:, None]))
    lo[:, 0] = 0
    hi[:, 0] = m + 1
    return lo, hi


def answer_all(requests: list[Request]) -> list[Answer]:
    """The answers to ``requests`` (one step of many searches): those of long lines one
    by one, in the memory of their beams (:func:`_band_request`), the others together
    (:func:`_answer_together`)."""
    out: list[Any] = [None] * len(requests)
    together: list[int] = []
    for q, r in enumerate(requests):
        if _is_long(r):
            out[q] = _band_request(r)
        else:
            together.append(q)
    if together:
        for q, answer in zip(
            together, _answer_together([requests[q] for q in together]), strict=True
        ):
            out[q] = answer
    return out


def _is_long(r: Request) -> bool:
    """Whether ``r``'s matrices are kept as their bands (:mod:`metrics.ter_band`): more than
    ``LONG_CELLS`` cells each. A shift keeps the candidate's length, so every request of
    one search is long or none is."""
    n = len(r.words[0])
    return n > 0 and (n + 1) * (len(r.ref) + 1) > LONG_CELLS


def _band_request(r: Request) -> Answer:
    """:class:`Request`'s answer for a long line: the candidates' distances one band row at
    a time, then the chosen one's band, whole, to trace."""
    if r.base is None:
        band = band_matrix(r.ref, r.words[0], 0, None)
        return band, band_trace(band, r.words[0], r.ref)
    base = r.base
    assert isinstance(base, Band)  # noqa: S101 (a long line's matrices are bands)
    distances = band_distances(r.ref, r.words, r.starts, base)
    best = _select(r, distances)
    if distances[best] >= r.score:
        return best, distances[best], None
    band = band_matrix(r.ref, r.words[best], r.starts[best], base)
    return best, distances[best], (band, band_trace(band, r.words[best], r.ref))


def _answer_together(requests: list[Request]) -> list[Answer]:
    """The answers to ``requests``, cut into chunks of
    consecutive candidate lengths (all candidates of one request have the same), each
    computed row by row across all its candidates, or one by one in Python when that is
    cheaper (:func:`_plan`)."""
    by_length: dict[int, list[int]] = {}
    for q, r in enumerate(requests):
        by_length.setdefault(len(r.words[0]), []).append(q)
    lengths = sorted(by_length)
    groups = [by_length[n] for n in lengths]
    jobs = [sum(len(requests[q].words) for q in g) for g in groups]
    widths = [max(len(requests[q].ref) + 1 for q in g) for g in groups]
    out: list[Any] = [None] * len(requests)
    for a, b, vectorised in _plan(lengths, jobs, widths):
        chunk = [q for g in groups[a:b] for q in g]
        if not vectorised:
            for q in chunk:
                out[q] = _python_request(requests[q])
            continue
        # at most _CHUNK_CELLS cells at once, even in one length group of a big corpus
        cells_per_job = max(widths[a:b]) * (lengths[b - 1] + 1)
        step = max(1, _CHUNK_CELLS // cells_per_job)
        pos = 0
        while pos < len(chunk):
            end, count = pos, 0
            while end < len(chunk) and (
                count == 0 or count + len(requests[chunk[end]].words) <= step
            ):
                count += len(requests[chunk[end]].words)
                end += 1
            part = chunk[pos:end]
            for q, answer in zip(part, _chunk([requests[q] for q in part]), strict=True):
                out[q] = answer
            pos = end
    return out


def _plan(lengths: list[int], jobs: list[int], widths: list[int]) -> list[tuple[int, int, bool]]:
    """The cheapest cut of the length groups ``0 … len(lengths)`` into chunks ``[a, b)``,
    each vectorised or not. A vectorised chunk costs its rows (numpy calls) and its
    cells (padded to its longest reference); a plain one, its cells. The costs are
    estimates (``_ROW_COST`` and the cell costs, in seconds) and only change the speed."""
    count = len(lengths)
    best = [0.0] * (count + 1)
    choice: list[tuple[int, bool]] = [(0, False)] * (count + 1)
    for b in range(1, count + 1):
        best[b] = math.inf
        n_rows = lengths[b - 1] + 1
        total, w_max, plain = 0, 0, 0.0
        for a in range(b - 1, -1, -1):
            total += jobs[a]
            w_max = max(w_max, widths[a])
            plain += jobs[a] * (lengths[a] + 1) * min(widths[a], 2 * BEAM_WIDTH + 1)
            cells = total * w_max * n_rows
            if cells > _CHUNK_CELLS and a < b - 1:
                break
            vector = n_rows * _ROW_COST + cells * _CELL_COST
            cost, vectorised = min((vector, True), (plain * _PLAIN_CELL_COST, False))
            if best[a] + cost < best[b]:
                best[b] = best[a] + cost
                choice[b] = (a, vectorised)
    plan = []
    b = count
    while b > 0:
        a, vectorised = choice[b]
        plan.append((a, b, vectorised))
        b = a
    return plan[::-1]


def _trace(
    rows: list[list[int]], words: Words, ref: Words
) -> tuple[int, list[int], list[int], list[int]]:
    """(distance, alignment, reference errors, candidate errors) of ``words``:
    sacreBLEU's ``trace_to_alignment`` of its flipped trace. ``alignment[r]`` is the
    candidate position reference word ``r`` is aligned with (or follows).

    The trace is read back from the cost rows: a cell's operation is the first of
    (match or substitution, deletion, insertion) that reaches its cost, which is the one
    sacreBLEU records (it keeps an operation only when it is cheaper than those before
    it)."""
    i, j = len(words), len(ref)
    alignment = [0] * j
    ref_err = [1] * j
    hyp_err = [1] * i
    while i and j:  # back from the end, the operations in reverse
        prev = rows[i - 1]
        cur = rows[i][j]
        w = words[i - 1]
        if prev[j - 1] + (w != ref[j - 1]) == cur:  # match or substitution
            i -= 1
            j -= 1
            alignment[j] = i
            if w == ref[j]:
                ref_err[j] = hyp_err[i] = 0
        elif prev[j] + 1 == cur:  # a candidate word the reference lacks
            i -= 1
        else:  # a reference word the candidate lacks: it follows candidate word i - 1
            j -= 1
            alignment[j] = i - 1
    while j:  # reference words before the first candidate word
        j -= 1
        alignment[j] = -1
    return rows[-1][-1], alignment, ref_err, hyp_err


def _select(r: Request, distances: list[int]) -> int:
    """The index of ``r``'s best candidate (:class:`Request`)."""
    score, keys = r.score, r.keys
    best = (score - distances[0], *keys[0])
    index = 0
    for c in range(1, len(distances)):
        key = (score - distances[c], *keys[c])
        if key > best:
            best, index = key, c
    return index


def _python_request(r: Request) -> Answer:
    if r.base is None:
        return _found(_python_rows(r.ref, r.words[0], 0, None), r.words[0], r.ref)
    base = r.full_base
    found = [
        _python_rows(r.ref, w, s, base[s].tolist()) for w, s in zip(r.words, r.starts, strict=True)
    ]
    distances = [rows[-1][-1] for rows in found]
    best = _select(r, distances)
    if distances[best] >= r.score:
        return best, distances[best], None
    rows = base[: r.starts[best]].tolist() + found[best]
    return best, distances[best], _found(rows, r.words[best], r.ref)


def _found(rows: Matrix, words: Words, ref: Words) -> Found:
    return np.array(rows, np.int64), _trace(rows, words, ref)


@lru_cache(maxsize=4096)
def _costs(ref: Words) -> dict[int, list[int]]:
    return {w: [0 if r == w else 1 for r in ref] for w in set(ref)}


def _python_rows(ref: Words, words: Words, start: int, base: list[int] | None) -> Matrix:
    """One candidate's rows ``start …`` in plain Python, from row ``start`` (``base``)."""
    n_ref1 = len(ref) + 1
    row = list(range(n_ref1)) if base is None else base
    out = [row]
    spans = beam_spans(len(words), len(ref))
    costs = _costs(ref)
    ones = [1] * len(ref)
    for i in range(start + 1, len(words) + 1):
        lo, hi = spans[i]
        cur = [_INF] * n_ref1
        if lo == 0:
            cur[0] = left = row[0] + 1
            lo = 1
        else:
            left = _INF
        sub = costs.get(words[i - 1], ones)
        vals: list[int] = []
        add = vals.append
        for diag, up, s in zip(row[lo - 1 : hi - 1], row[lo:hi], sub[lo - 1 : hi - 1], strict=True):
            c = diag + s
            up += 1
            if up < c:
                c = up
            left += 1
            if left < c:
                c = left
            left = c
            add(c)
        cur[lo:hi] = vals
        row = cur
        out.append(cur)
    return out


def _chunk(requests: list[Request]) -> list[Answer]:
    """The answers to ``requests``, all their candidates computed together. The matrix
    is laid out (row, reference position, candidate) so that each operation on a row
    runs across all candidates (:func:`_lay_out`); the candidates are sorted by their
    first changed row, so at row ``i`` only a prefix of them is computed, each from its
    ``base`` row (:func:`_rows`); each request's chosen matrix is then handed back with
    its trace (:func:`_answers`)."""
    layout = _lay_out(requests)
    matrices, distances = _rows(layout)
    return _answers(requests, layout, matrices, distances)


@dataclass(frozen=True, eq=False)
class _Layout:
    """A chunk's candidates, one a column (:func:`_lay_out`), in the order of their first
    changed row (``starts``, sorted): lengths ``n``, reference lengths ``m``, words
    ``hyp`` and reference words ``ref`` (rows × columns, padded with ids no word has),
    each column's first row ``init``, and each request's columns (``owned``). ``inf``
    stands for the cells outside the beam; ``dtype`` holds every cell."""

    n: IntArray
    m: IntArray
    hyp: npt.NDArray[np.int32]
    ref: npt.NDArray[np.int32]
    init: CellArray
    starts: IntArray
    owned: list[IntArray]
    n_max: int
    m_max: int
    inf: int
    dtype: type[np.signedinteger[Any]]


def _lay_out(requests: list[Request]) -> _Layout:
    """``requests``' candidates as the columns of one chunk (:class:`_Layout`)."""
    starts = [s for r in requests for s in r.starts]
    size = len(starts)
    order = sorted(range(size), key=starts.__getitem__)
    slot = np.empty(size, np.int64)  # the column of each candidate
    slot[order] = np.arange(size)
    n_max = max(len(r.words[0]) for r in requests)
    m_max = max(len(r.ref) for r in requests)
    # no distance reaches n_max + m_max; cells outside the beam hold ``inf`` (or a little
    # more, in the beam but reached only from outside it), as sacreBLEU's hold 10**16
    inf = n_max + m_max + 2
    dtype = np.int16 if 3 * inf < np.iinfo(np.int16).max else np.int32
    n = np.empty(size, np.int64)
    m = np.empty(size, np.int64)
    hyp = np.full((max(n_max, 1), size), -1, np.int32)
    refm = np.full((max(m_max, 1), size), -2, np.int32)
    init = np.full((size, m_max + 1), inf, dtype)
    cols = np.arange(m_max + 1, dtype=dtype)
    owned: list[IntArray] = []
    pos = 0
    for r in requests:
        columns = slot[pos : pos + len(r.words)]
        owned.append(columns)
        pos += len(r.words)
        n_q, m_q = len(r.words[0]), len(r.ref)
        n[columns] = n_q
        m[columns] = m_q
        if n_q:
            hyp[:n_q, columns] = np.array(r.words, np.int32).T
        if m_q:
            refm[:m_q, columns] = np.array(r.ref, np.int32)[:, None]
        if r.base is None:
            init[columns, : m_q + 1] = cols[: m_q + 1]
        else:  # its infinite cells (however they came) are this chunk's
            init[columns, : m_q + 1] = np.minimum([r.full_base[s] for s in r.starts], inf)
    start_arr = np.asarray(starts)[order]
    return _Layout(n, m, hyp, refm, init, start_arr, owned, n_max, m_max, inf, dtype)


def _rows(layout: _Layout) -> tuple[CellArray, list[int]]:
    """Every column's matrix, rows from its first changed one on, row by row across the
    columns that have reached it, and each column's distance (its last cell)."""
    n, m, n_max, m_max, inf = layout.n, layout.m, layout.n_max, layout.m_max, layout.inf
    size = len(n)
    lo, hi = _spans(n, m, n_max)
    full = bool(((lo == 0) & (hi == m[:, None] + 1)).all())
    lo_t: CellArray = lo.T.astype(layout.dtype)
    hi_t: CellArray = hi.T.astype(layout.dtype)
    col = cast(CellArray, np.arange(m_max + 1, dtype=layout.dtype).reshape(-1, 1))
    start_arr = layout.starts
    first = int(start_arr[0])
    active = np.searchsorted(start_arr, np.arange(n_max + 1), side="left")
    matrices = np.empty((n_max + 1, m_max + 1, size), layout.dtype)
    matrices[start_arr, :, np.arange(size)] = layout.init
    ending: dict[int, list[int]] = {}
    for column in range(size):
        ending.setdefault(int(n[column]), []).append(column)
    dist = np.zeros(size, np.int64)
    if first in ending:
        idx = np.asarray(ending[first])
        dist[idx] = matrices[first, m[idx], idx]
    # substitution costs and cells outside the beam, of all rows at once
    subs = layout.hyp[first:, None, :] != layout.ref[None, :, :]
    if not full:
        outsides = (col < lo_t[first + 1 :, None, :]) | (col >= hi_t[first + 1 :, None, :])
    for i in range(first + 1, n_max + 1):
        p = int(active[i])
        prev, out = matrices[i - 1, :, :p], matrices[i, :, :p]
        np.add(prev[:-1], subs[i - 1 - first, :, :p], out=out[1:])
        np.minimum(out[1:], prev[1:] + 1, out=out[1:])
        np.add(prev[0], 1, out=out[0])
        if not full:
            outside = outsides[i - 1 - first, :, :p]
            np.copyto(out, inf, where=outside)
        if p * m_max < _SMALL_ROW:
            out -= col
            np.minimum.accumulate(out, axis=0, out=out)
            out += col
        else:
            shift = 1  # the running minimum, in log2(m) steps of whole rows
            while shift <= m_max:
                np.minimum(out[shift:], out[:-shift] + shift, out=out[shift:])
                shift *= 2
        if not full:
            np.copyto(out, inf, where=outside)
        if i in ending:
            idx = np.asarray(ending[i])
            dist[idx] = out[m[idx], idx]
    return matrices, dist.tolist()


def _answers(
    requests: list[Request], layout: _Layout, matrices: CellArray, distances: list[int]
) -> list[Answer]:
    """Each request's answer (:class:`Request`) from its columns' ``distances``, with the
    matrix of its chosen candidate and its trace where it has one."""
    answers: list[Any] = []
    wanted: list[tuple[int, int, int]] = []  # (request, column, first row) of matrices
    for q, (r, owned_columns) in enumerate(zip(requests, layout.owned, strict=True)):
        columns = owned_columns.tolist()
        if r.base is None:
            answers.append(None)
            wanted.append((q, columns[0], 0))
            continue
        got = [distances[c] for c in columns]
        best = _select(r, got)
        answers.append((best, got[best], None))
        if got[best] < r.score:
            wanted.append((q, columns[best], r.starts[best]))
    if not wanted:
        return answers
    # the matrices handed back, candidate-major, their first rows from the bases
    picked = np.ascontiguousarray(matrices[:, :, [c for _, c, _ in wanted]].transpose(2, 0, 1))
    for k, (q, _, start) in enumerate(wanted):
        if start:
            base = requests[q].full_base
            picked[k, :start, : base.shape[1]] = np.minimum(base[:start], layout.inf)
    w_cols = [c for _, c, _ in wanted]
    n_w, m_w = layout.n[w_cols], layout.m[w_cols]
    if len(wanted) >= _MANY_TRACES:
        traces = _traces(picked, n_w, m_w, layout.hyp[:, w_cols].T, layout.ref[:, w_cols].T)
    else:
        traces = []
        for k, (q, _, _) in enumerate(wanted):
            r = requests[q]
            best = 0 if r.base is None else answers[q][0]
            rows = picked[k, : n_w[k] + 1, : m_w[k] + 1].tolist()
            traces.append(_trace(rows, r.words[best], r.ref))
    for k, (q, _, _) in enumerate(wanted):
        found = (picked[k, : n_w[k] + 1, : m_w[k] + 1], traces[k])
        if requests[q].base is None:
            answers[q] = found
        else:
            best, distance, _ = answers[q]
            answers[q] = (best, distance, found)
    return answers


def _traces(
    picked: CellArray,
    n: IntArray,
    m: IntArray,
    hyp: npt.NDArray[np.int32],
    ref: npt.NDArray[np.int32],
) -> list[Trace]:
    """:func:`_trace` of many matrices ``picked[k]`` at once, the walk back from the last
    cell taken by all of them in step (each ``hyp[k]``, ``ref[k]`` padded)."""
    size = len(n)
    alignment = np.zeros(ref.shape, np.int64)
    ref_err = np.ones(ref.shape, np.int8)
    hyp_err = np.ones(hyp.shape, np.int8)
    i, j = n.copy(), m.copy()
    scores = picked[np.arange(size), n, m].tolist()
    walking = np.flatnonzero((i > 0) & (j > 0))
    while walking.size:
        ii, jj = i[walking], j[walking]
        cur = picked[walking, ii, jj]
        same = hyp[walking, ii - 1] == ref[walking, jj - 1]
        diag = picked[walking, ii - 1, jj - 1] + ~same == cur
        up = ~diag & (picked[walking, ii - 1, jj] + 1 == cur)
        left = ~diag & ~up
        at = walking[diag]  # match or substitution
        alignment[at, jj[diag] - 1] = ii[diag] - 1
        matched = diag & same
        ref_err[walking[matched], jj[matched] - 1] = 0
        hyp_err[walking[matched], ii[matched] - 1] = 0
        alignment[walking[left], jj[left] - 1] = ii[left] - 1  # follows candidate word i − 1
        i[walking] = ii - (diag | up)
        j[walking] = jj - (diag | left)
        walking = walking[(i[walking] > 0) & (j[walking] > 0)]
    alignment[np.arange(ref.shape[1])[None, :] < j[:, None]] = -1  # before the first word
    return [
        (
            scores[k],
            alignment[k, : m[k]].tolist(),
            ref_err[k, : m[k]].tolist(),
            hyp_err[k, : n[k]].tolist(),
        )
        for k in range(size)
    ]
