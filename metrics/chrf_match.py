"""The clipped n-gram matches of chrF (:mod:`metrics.chrf`): for every candidate line
and every reference of its segment, ``Σ_g min(count in the candidate, count in the
reference)`` per order, all segments at once.

Every n-gram occurrence is packed into one integer with its segment and its line, and
one ``np.sort`` per order groups equal n-grams line by line (:func:`matches`). The sums
then follow the (candidate, reference) pairs that share an n-gram (:func:`_pair_sums`),
not every reference slot of every line: with a grown pool of references (60 a segment)
that is what the time follows. Segments of many references are summed as matrix
products (:func:`_segment_products`), the others one reference slot at a time over all
of them (:func:`_slot_sums`, as fast as it gets with a few references).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from metrics.encode import IntArray

BoolArray = npt.NDArray[np.bool_]


def _bits(n: int) -> int:
    return max(int(n).bit_length(), 1)


def matches(
    ids: IntArray,
    lengths: IntArray,
    line_seg: IntArray,
    line_local: IntArray,
    seg_first_line: IntArray,
    n_refs: IntArray,
    orders: int,
) -> IntArray:
    """``out[line, slot, n − 1]``: ``Σ_g min(count in line, count in reference slot)`` of
    the n-grams g of order n, for every line and every reference slot of its segment.

    Lines are grouped by segment, its references (slots 0…R−1) first; ``line_local`` is
    a line's place in its segment. Each n-gram occurrence becomes one integer
    ``(segment, n-gram, line_local)``; sorted, equal integers are one line's count of one
    n-gram, and the references' counts lead each (segment, n-gram) group, whose
    (candidate, reference) pairs are summed (:func:`_pair_sums`)."""
    n_lines = len(lengths)
    width = int(n_refs.max(initial=0))
    out = np.zeros((n_lines, width, orders), dtype=np.int64)
    if len(ids) == 0 or width == 0:
        return out
    starts = np.zeros(n_lines, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    line_of = np.repeat(np.arange(n_lines, dtype=np.int64), lengths)
    room = lengths[line_of] - (np.arange(len(ids), dtype=np.int64) - starts[line_of])
    b = _bits(int(ids.max()))
    seg_bits = _bits(len(seg_first_line))
    local_bits = _bits(int(line_local.max(initial=0)))
    padded = np.concatenate([ids, np.zeros(orders, dtype=np.int64)])
    gram = np.zeros(len(ids), dtype=np.int64)
    gram_bits = 0
    seg_of, local_of = line_seg[line_of], line_local[line_of]
    for n in range(1, orders + 1):
        if gram_bits + b + seg_bits + local_bits > 62:  # renumber the (n−1)-grams densely
            _, inverse = np.unique(gram, return_inverse=True)
            gram = inverse.astype(np.int64)
            gram_bits = _bits(int(gram.max(initial=0)))
        gram = (gram << b) | padded[n - 1 : n - 1 + len(ids)]
        gram_bits += b
        valid = room >= n
        shift = gram_bits + local_bits
        if shift + seg_bits > 62:
            raise ValueError("chrF: too many distinct n-grams to pack")  # pragma: no cover
        keys = np.sort(((seg_of << shift) | (gram << local_bits) | local_of)[valid])
        if len(keys) == 0:  # no line is this long
            break
        run_start = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
        run_len = np.diff(np.append(run_start, len(keys)))
        run_key = keys[run_start]
        group_key = run_key >> local_bits
        group = np.cumsum(np.concatenate([[True], group_key[1:] != group_key[:-1]])) - 1
        local = run_key & ((1 << local_bits) - 1)
        seg = run_key >> shift
        is_ref = local < n_refs[seg]
        out[:, :, n - 1] = _pair_sums(
            group, is_ref, run_len, seg, local, seg_first_line, n_refs, (n_lines, width)
        )
    return out


def _segment_products(
    group: IntArray,
    is_ref: BoolArray,
    run_len: IntArray,
    seg: IntArray,
    local: IntArray,
    seg_first_line: IntArray,
    n_refs: IntArray,
    shape: tuple[int, int],
) -> IntArray:
    """:func:`_pair_sums` by matrix products, for segments of many references: the work
    follows the groups that a candidate and a reference share, one loop step per
    segment rather than per reference. In each segment those groups' counts form a
    (lines × groups) matrix, and ``min(a, b) = Σ_{t ≥ 1} [a ≥ t]·[b ≥ t]`` makes the
    sums products of 0/1 matrices (candidates × references): the presence of each
    n-gram, then for each count t ≥ 2 over the groups where a candidate and a reference
    both reach it (few: most n-grams occur once in a line). The products are exact
    integers: sums of 0/1 terms, float32 (faster) while no sum can reach 2**24 (all the
    n-gram occurrences together stay below it), else float64."""
    n_lines, width = shape
    out = np.zeros((n_lines, width), dtype=np.int64)
    n_groups = int(group[-1]) + 1
    has_ref = np.zeros(n_groups, dtype=np.bool_)
    has_ref[group[is_ref]] = True
    has_cand = np.zeros(n_groups, dtype=np.bool_)
    has_cand[group[~is_ref]] = True
    keep = (has_ref & has_cand)[group]  # an n-gram only one side has matches nothing
    if not keep.any():
        return out
    group, run_len, seg, local = group[keep], run_len[keep], seg[keep], local[keep]
    real: type[np.floating[Any]] = np.float32 if int(run_len.sum()) < 2**24 else np.float64
    dense = np.cumsum(np.concatenate([[0], group[1:] != group[:-1]]))
    cuts = np.flatnonzero(np.concatenate([[True], seg[1:] != seg[:-1], [True]]))
    starts, ends = cuts[:-1], cuts[1:]
    lines = (np.maximum.reduceat(local, starts) + 1).tolist()
    columns = (dense[ends - 1] - dense[starts] + 1).tolist()
    peaks = np.maximum.reduceat(run_len, starts).tolist()
    for i, (a, b) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
        k = int(seg[a])
        refs, first = int(n_refs[k]), int(seg_first_line[k])
        rows, cols = local[a:b], dense[a:b] - dense[a]
        present = np.zeros((lines[i], columns[i]), dtype=real)
        present[rows, cols] = 1.0
        total = np.matmul(present[refs:], present[:refs].T)
        if peaks[i] > 1:  # a count t ≥ 2 adds where a candidate and a reference reach it
            counts = np.zeros((lines[i], columns[i]), dtype=np.int32)
            counts[rows, cols] = run_len[a:b]
            cand, ref = counts[refs:], counts[:refs]
            peak = np.minimum(cand.max(axis=0), ref.max(axis=0))
            for t in range(2, int(peak.max()) + 1):
                wide = np.flatnonzero(peak >= t)
                cand, ref, peak = cand[:, wide], ref[:, wide], peak[wide]
                total += np.matmul((cand >= t).astype(real), (ref >= t).astype(real).T)
        out[first + refs : first + lines[i], :refs] = total
    return out


def _slot_sums(
    group: IntArray,
    is_ref: BoolArray,
    run_len: IntArray,
    line: IntArray,
    local: IntArray,
    shape: tuple[int, int],
) -> IntArray:
    """:func:`_pair_sums` one reference slot at a time: each slot's counts spread over
    the groups, every candidate run's ``min`` with its group's, summed per line by one
    ``bincount`` (exact integers, far below 2**53, although it adds float weights). A
    few numpy calls per slot for all segments: the cheapest where segments have a few
    references."""
    n_lines, width = shape
    out = np.zeros((n_lines, width), dtype=np.int64)
    n_groups = int(group.max()) + 1
    has_ref = np.zeros(n_groups, dtype=np.bool_)
    has_ref[group[is_ref]] = True
    cand = ~is_ref & has_ref[group]  # an n-gram no reference has matches nothing
    cand_line, cand_group, cand_len = line[cand], group[cand], run_len[cand]
    for slot in range(int(local[is_ref].max(initial=-1)) + 1):
        mine = is_ref & (local == slot)
        ref_count = np.zeros(n_groups, dtype=np.int64)
        ref_count[group[mine]] = run_len[mine]
        common = np.minimum(cand_len, ref_count[cand_group])
        out[:, slot] = np.bincount(cand_line, weights=common, minlength=n_lines)
    return out


#: From this many references a segment's matches are matrix products
#: (:func:`_segment_products`), below it slot by slot (:func:`_slot_sums`).
_MANY_REFS = 12


def _pair_sums(
    group: IntArray,
    is_ref: BoolArray,
    run_len: IntArray,
    seg: IntArray,
    local: IntArray,
    seg_first_line: IntArray,
    n_refs: IntArray,
    shape: tuple[int, int],
) -> IntArray:
    """``out[line, slot] = Σ_g min(count of g in line, count of g in reference slot)``
    over the groups ``g`` (one n-gram of one segment) from the runs (one line's count of
    one group, sorted by group then place in segment, so that a segment's references
    lead each group), for every candidate line and reference slot of its segment; the
    work follows the groups a candidate shares with a reference, by matrix products in
    segments of many references, slot by slot in the others (the same integers)."""
    many = n_refs[seg] >= _MANY_REFS
    if many.all():
        return _segment_products(group, is_ref, run_len, seg, local, seg_first_line, n_refs, shape)
    if not many.any():
        line = seg_first_line[seg] + local
        return _slot_sums(group, is_ref, run_len, line, local, shape)
    few = ~many
    line = seg_first_line[seg[few]] + local[few]
    out = _slot_sums(group[few], is_ref[few], run_len[few], line, local[few], shape)
    if many.any():
        out += _segment_products(
            group[many],
            is_ref[many],
            run_len[many],
            seg[many],
            local[many],
            seg_first_line,
            n_refs,
            shape,
        )
    return out
