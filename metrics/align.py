"""Word-level Levenshtein distance and alignment (seed 000 §2.1.1; seed 001 §2.3, §3).

Two entry points with two jobs:

* :func:`align` returns the edit operations the annotation page colours and the judge
  clicks (seed 001 Figure 1). It is a full dynamic programme with a backtrace, so it
  costs ``len(hyp) × len(ref)`` cell updates; an 80-word sentence takes a few
  milliseconds.
* :func:`distance` / :func:`distance_prepared` return only the number of edits. They
  are what WER, mWER and "nearest reference" use, thousands of times per system, so
  they run the bit-parallel algorithm of Myers (1999) in Hyyrö's (2003) formulation on
  Python integers: one reference word position per bit, one handful of integer
  operations per *candidate word* instead of one Python step per DP cell.
  :class:`PreparedRef` holds the reference's bit masks so they are built once and
  reused for every system. :func:`distances_prepared` runs a whole corpus of pairs
  side by side in one big integer, so the per-word interpreter cost is a single
  dictionary look-up (the WER family uses it).

Direction and names. The edit operations turn the *candidate* (``hyp``) into the
*reference* (``ref``), as in seed 001: a candidate word is kept (``MATCH``), replaced
(``SUBSTITUTION``), deleted (``EXTRA``: the candidate has a word too many) or a reference
word is inserted (``MISSING``: the candidate lacks it). The :class:`Op` values are the
strings the annotation page writes into ``data-op``.

Tie-break rule of :func:`align` (several alignments often have the minimum distance):

1. minimum number of edits (the Levenshtein distance);
2. among those, the **most matches**: a word present in both sentences is shown as
   correct rather than as part of two substitutions. "x a" against "a y" is therefore
   ``EXTRA x, MATCH a, MISSING y``, not two substitutions. (With the number of edits
   fixed, more matches means fewer substitutions and more insertions/deletions, so
   "most matches" and "most substitutions" cannot both be the rule; we keep words.)
3. among those, insertions and deletions are placed **as early as possible**: the
   backtrace runs from the end of both sentences and prefers the diagonal step
   (match or substitution), then ``EXTRA``, then ``MISSING``. This gives seed 001
   Figure 1 exactly: "Diagram show the scan procedure for locate the archives ."
   against "This figure shows the scan procedure to find the archives ." is
   ``MISSING This`` before the first candidate word, then ``Diagram``→``figure`` and
   ``show``→``shows``: a reader sees the candidate lacks the opening word and pairs
   the nouns, not "Diagram"→"This" followed by a missing "figure".

Rules 1 and 2 are one integer cost per cell, ``edits × W − matches`` with
``W = min(len(hyp), len(ref)) + 1`` (matches never reach ``W``, so the order is
lexicographic), which keeps the DP a plain list-of-ints loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import repeat


class Op(StrEnum):
    """The kind of an edit operation.

    The values are used verbatim in the web page (``data-op="substitution"``); a
    ``StrEnum`` (a ``str`` and an ``Enum``) so ``str(op)`` and templates give the bare value.
    """

    MATCH = "match"
    SUBSTITUTION = "substitution"
    EXTRA = "extra"
    MISSING = "missing"


@dataclass(frozen=True)
class EditOp:
    """One step of an alignment.

    ``hyp_pos`` is the candidate word's index; for ``MISSING`` it is the candidate
    position *before which* the reference word is missing (``len(hyp)`` at the end).
    ``ref_pos`` is the reference word's index; for ``EXTRA`` it is the reference
    position before which the extra candidate word sits. ``hyp_word`` is ``None`` for
    ``MISSING`` and ``ref_word`` is ``None`` for ``EXTRA``.
    """

    op: Op
    hyp_pos: int
    ref_pos: int
    hyp_word: str | None
    ref_word: str | None


@dataclass(frozen=True)
class Alignment:
    """The operations in sentence order and their cost (every non-``MATCH`` op costs 1)."""

    ops: tuple[EditOp, ...]
    distance: int

    def count(self, op: Op) -> int:
        return sum(1 for e in self.ops if e.op is op)

    @property
    def matches(self) -> int:
        return self.count(Op.MATCH)

    @property
    def substitutions(self) -> int:
        return self.count(Op.SUBSTITUTION)

    @property
    def extras(self) -> int:
        """Candidate words to delete (jiwer's "insertions")."""
        return self.count(Op.EXTRA)

    @property
    def missing(self) -> int:
        """Reference words to insert (jiwer's "deletions")."""
        return self.count(Op.MISSING)

    @property
    def hyp_length(self) -> int:
        return sum(1 for e in self.ops if e.op is not Op.MISSING)

    @property
    def ref_length(self) -> int:
        return sum(1 for e in self.ops if e.op is not Op.EXTRA)


def align(hyp: Sequence[str], ref: Sequence[str]) -> Alignment:
    """The minimum-edit alignment of ``hyp`` to ``ref`` with the module's tie-break rule."""
    hyp = tuple(hyp)
    ref = tuple(ref)
    n, m = len(hyp), len(ref)
    # A common suffix is always matched by the backtrace (it prefers the diagonal and
    # matching equal last words is always optimal), so it can be cut before the DP.
    s = 0
    while s < n and s < m and hyp[n - 1 - s] == ref[m - 1 - s]:
        s += 1
    n -= s
    m -= s
    w = min(n, m) + 1
    # rows[i][j]: cost of aligning hyp[:i] with ref[:j], as edits * w - matches.
    prev = list(range(0, (m + 1) * w, w))
    rows = [prev]
    ref_head = ref[:m]
    for i in range(1, n + 1):
        h = hyp[i - 1]
        left = i * w
        cur = [left]
        append = cur.append
        for r, d, u in zip(ref_head, prev, prev[1:], strict=False):
            if r == h:
                c = d - 1
            else:
                c = (d if d < u else u) + w
                if left + w < c:
                    c = left + w
            append(c)
            left = c
        rows.append(cur)
        prev = cur

    ops: list[EditOp] = [
        EditOp(Op.MATCH, n + k, m + k, hyp[n + k], ref[m + k]) for k in range(s - 1, -1, -1)
    ]
    i, j = n, m
    while i > 0 or j > 0:
        here = rows[i][j]
        if i > 0 and j > 0:
            h, r = hyp[i - 1], ref[j - 1]
            if h == r:
                ops.append(EditOp(Op.MATCH, i - 1, j - 1, h, r))
                i -= 1
                j -= 1
                continue
            if rows[i - 1][j - 1] + w == here:
                ops.append(EditOp(Op.SUBSTITUTION, i - 1, j - 1, h, r))
                i -= 1
                j -= 1
                continue
        if i > 0 and rows[i - 1][j] + w == here:
            ops.append(EditOp(Op.EXTRA, i - 1, j, hyp[i - 1], None))
            i -= 1
        else:
            ops.append(EditOp(Op.MISSING, i, j - 1, None, ref[j - 1]))
            j -= 1
    ops.reverse()
    cost = rows[n][m]
    # cost = edits * w - matches with 0 <= matches < w, so edits = ceil(cost / w).
    return Alignment(tuple(ops), -(-cost // w))


@dataclass(frozen=True)
class PreparedRef:
    """A reference prepared for :func:`distance_prepared` and :func:`distances_prepared`.

    ``peq[word]`` is the bit mask of the reference positions holding ``word`` (bit ``j``
    for position ``j``), Myers' "pattern match vectors". The ``*_bytes`` fields are the
    same masks as little-endian byte strings of ``nbytes`` bytes (at least one spare
    bit above the reference), the building blocks :func:`distances_prepared` packs side
    by side. Build it once per reference with :meth:`from_tokens` and compare it with
    any number of candidates.
    """

    tokens: tuple[str, ...]
    peq: dict[str, int] = field(repr=False)
    length: int
    nbytes: int = field(repr=False)
    peq_bytes: dict[str, bytes] = field(repr=False)
    zero_bytes: bytes = field(repr=False)
    body_bytes: bytes = field(repr=False)
    low_bytes: bytes = field(repr=False)

    @classmethod
    def from_tokens(cls, ref: Sequence[str]) -> PreparedRef:
        tokens = tuple(ref)
        m = len(tokens)
        peq: dict[str, int] = {}
        bit = 1
        for word in tokens:
            peq[word] = peq.get(word, 0) | bit
            bit <<= 1
        nbytes = m // 8 + 1  # m + 1 bits at least: one spare bit stops the carries
        return cls(
            tokens=tokens,
            peq=peq,
            length=m,
            nbytes=nbytes,
            peq_bytes={w: v.to_bytes(nbytes, "little") for w, v in peq.items()},
            zero_bytes=bytes(nbytes),
            body_bytes=((1 << m) - 1).to_bytes(nbytes, "little"),
            low_bytes=(1).to_bytes(nbytes, "little"),
        )


def distance_prepared(hyp: Sequence[str], prepared: PreparedRef) -> int:
    """Levenshtein distance between ``hyp`` and a prepared reference, bit-parallel.

    Hyyrö (2003), "A bit-vector algorithm for computing Levenshtein and Damerau edit
    distances", global-distance variant (the one rapidfuzz's pure-Python fallback uses):
    the bits of ``vp``/``vn`` are the +1/−1 vertical differences ``D[j][i] − D[j−1][i]``
    of the current DP column, one bit per reference word, updated with a constant
    number of integer operations per candidate word. Python integers are unbounded, so
    any reference length works; bits above the reference length carry garbage that
    never flows downwards (carries and shifts only move up) and is masked off at the
    end. The distance is read off the last column:
    ``D[m][n] = n + Σ vertical differences = n + popcount(vp) − popcount(vn)``.
    """
    m = prepared.length
    if m == 0:
        return len(hyp)
    get = prepared.peq.get
    vp = (1 << m) - 1
    vn = 0
    for word in hyp:
        x = get(word, 0)
        d0 = (((x & vp) + vp) ^ vp) | x | vn
        hp = vn | ~(d0 | vp)
        hn = (d0 & vp) << 1
        hp = (hp << 1) | 1
        vp = hn | ~(d0 | hp)
        vn = hp & d0
    mask = (1 << m) - 1
    return len(hyp) + (vp & mask).bit_count() - (vn & mask).bit_count()


def distance(hyp: Sequence[str], ref: Sequence[str]) -> int:
    """Levenshtein distance (number of edits) between two word sequences."""
    if len(hyp) == 0:
        return len(ref)
    return distance_prepared(hyp, PreparedRef.from_tokens(ref))


def _block_layout(
    hyps: Sequence[Sequence[str]], refs: Sequence[PreparedRef], order: Sequence[int]
) -> tuple[list[tuple[int, list[int]]], list[int], list[list[bytes]], int, int]:
    """The blocks of :func:`distances_prepared`, laid out once before its loop.

    Returns the groups of equal candidate length, longest first, as (length, segment
    indices); each group's first byte (``offsets[-1]`` is the total size); per group and
    candidate word the bytes of its blocks' pattern masks; and the ``body`` and ``low``
    masks of all blocks as two integers.
    """
    groups: list[tuple[int, list[int]]] = []
    for k in order:
        if groups and groups[-1][0] == len(hyps[k]):
            groups[-1][1].append(k)
        else:
            groups.append((len(hyps[k]), [k]))
    offsets = [0]
    steps: list[list[bytes]] = []
    body_parts: list[bytes] = []
    low_parts: list[bytes] = []
    for _, members in groups:
        columns = []
        for k in members:
            prepared = refs[k]
            columns.append([*map(prepared.peq_bytes.get, hyps[k], repeat(prepared.zero_bytes))])
            body_parts.append(prepared.body_bytes)
            low_parts.append(prepared.low_bytes)
        steps.append([b"".join(column) for column in zip(*columns, strict=True)])
        offsets.append(offsets[-1] + sum(refs[k].nbytes for k in members))
    body = int.from_bytes(b"".join(body_parts), "little")
    low = int.from_bytes(b"".join(low_parts), "little")
    return groups, offsets, steps, body, low


def distances_prepared(hyps: Sequence[Sequence[str]], refs: Sequence[PreparedRef]) -> list[int]:
    """``[distance_prepared(h, r) for h, r in zip(hyps, refs)]``, all pairs at once.

    The per-word cost of :func:`distance_prepared` is a dozen interpreted integer
    operations; on a corpus that overhead, not the arithmetic, dominates. Here every
    pair gets its own block of bits in *one* big integer (its reference's masks, plus
    spare bits that absorb the carry of the addition), and the same dozen operations
    advance all pairs by one candidate word at a time, in C over the whole integer
    ("SIMD within a register"). Two details keep blocks independent:

    * the horizontal difference shifted into each block's lowest bit is the global
      boundary ``D[0][i] − D[0][i−1] = +1`` (``| low``) for ``hp`` and 0 for ``hn``
      (``hn`` has no bit in the spare bits, since ``vp`` has none);
    * pairs are laid out longest candidate first, in groups of equal candidate
      length, so the pairs whose candidate ends at word ``i`` are the highest blocks
      still running: their distance is read off (``len + popcount(vp) − popcount(vn)``
      per block) and the integers are cut below them, so later steps only pay for the
      pairs still running.

    The only per-word work in Python is one dictionary look-up (word → mask bytes);
    transposing the masks into one byte string per step is ``zip`` and ``join`` in C.
    """
    if len(hyps) != len(refs):
        raise ValueError(
            f"{len(hyps)} candidates but {len(refs)} references: they must be parallel"
        )
    out = [0] * len(hyps)
    order = sorted((k for k in range(len(hyps)) if len(hyps[k]) > 0), key=lambda k: -len(hyps[k]))
    for k in range(len(hyps)):
        if len(hyps[k]) == 0:
            out[k] = refs[k].length
    if not order:
        return out
    groups, offsets, steps, body, low = _block_layout(hyps, refs, order)
    vp = body
    vn = 0
    active = len(groups)  # groups 0 .. active-1 are still running
    for step in range(1, groups[0][0] + 1):
        i = step - 1
        x = int.from_bytes(b"".join([chunks[i] for chunks in steps[:active]]), "little")
        d0 = (((x & vp) + vp) ^ vp) | x | vn
        hp = vn | ~(d0 | vp)
        hn = (d0 & vp) << 1
        hp = (hp << 1) | low
        vp = (hn | ~(d0 | hp)) & body
        vn = hp & d0
        if groups[active - 1][0] != step:
            continue
        # The last running group ends here: read its distances, then cut it off.
        active -= 1
        start = offsets[active]
        vn &= body
        vp_bytes = (vp >> (start * 8)).to_bytes(offsets[active + 1] - start, "little")
        vn_bytes = (vn >> (start * 8)).to_bytes(offsets[active + 1] - start, "little")
        lo = 0
        for k in groups[active][1]:
            hi = lo + refs[k].nbytes
            out[k] = (
                step
                + int.from_bytes(vp_bytes[lo:hi], "little").bit_count()
                - int.from_bytes(vn_bytes[lo:hi], "little").bit_count()
            )
            lo = hi
        cut = (1 << (start * 8)) - 1
        vp &= cut
        vn &= cut
        body &= cut
        low &= cut
    return out
