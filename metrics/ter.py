"""TER, the translation edit rate with shifts (Snover et al. 2006, "A Study of Translation
Edit Rate with Targeted Human Annotation", AMTA), as sacreBLEU 2.6 computes it.

TER is the fewest edits — insertions, deletions, substitutions of one word and *shifts*
of a contiguous block of words, each costing 1 — that turn the candidate into a
reference, divided by the reference length. With several references, a segment's edits
are the fewest over its references and its length the *average* reference length
(Snover et al. §2); the corpus score is ``Σ edits / Σ average lengths × 100``, so one
row per segment, ``[edits, average reference length]``, is its sufficient statistic
(summed for the corpus, resampled by the bootstrap). An empty reference side scores 0
when the candidate is empty too, else 100 (sacreBLEU's rule, :func:`metrics.wer.rate`).

Finding the fewest edits with shifts is NP-hard; TER uses tercom's greedy search, which
sacreBLEU reimplements and this module follows step for step, so that the figures agree:

* repeatedly apply the shift that lowers the edit distance the most (ties: the longer
  block, then the earlier block, then the earlier target position), until none lowers it;
* a shift moves a block of at most 10 words (``MAX_SHIFT_SIZE``) that matches the
  reference somewhere at most 50 positions (``MAX_SHIFT_DIST``) away, only if the block
  is misaligned in the candidate and the reference words it matches are misaligned too;
* the edit distance is a "beam" Levenshtein distance that looks at 25 cells
  (``BEAM_WIDTH``) either side of the (length-scaled) diagonal, and its alignment breaks
  ties as tercom does (match or substitution, then deletion, then insertion);
* at most 1,000 shift candidates (``MAX_SHIFT_CANDIDATES``) are tried per sentence pair
  (sacreBLEU's own bound; once reached, the shift found in that round is dropped, as
  sacreBLEU drops it).

Normalisation is sacreBLEU's TER default, not the dashboard's preprocessing choice:
``tok:tercom`` — the text lowercased (``case:lc``; ``case_sensitive=True`` keeps case)
and split at whitespace, without its ``normalized``/``no_punct``/``asian_support``
options. ``docs/metrics.md`` says why.

Speed (the same results as sacreBLEU's code, computed with less work): words are token
ids; a candidate shift's distance is computed without the alignment (only the current
words' alignment is traced) from the first row the shift changes, the rows above it kept
in a prefix tree as sacreBLEU keeps them; shift blocks are found from each word's
positions in the reference rather than by comparing every pair of positions; and
:class:`TERRefs` memoizes each (segment, candidate text) row, so a sentence that several
systems output is scored once.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from metrics.stats import (
    FloatArray,
    Metric,
    MetricInfo,
    References,
    check_prepared_for,
    format_signature,
    nrefs_label,
)
from metrics.wer import rate

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
#: sacreBLEU's bound on the rows its prefix tree keeps (only the speed depends on it).
MAX_CACHE_ROWS = 10000
_INF = 10**16

Words = Sequence[int]
Row = tuple[float, float]


def ter_words(text: str, case_sensitive: bool = False) -> list[str]:
    """sacreBLEU's default TER tokenization (``TercomTokenizer`` without options, then a
    split at whitespace): lowercase unless ``case_sensitive``."""
    return (text if case_sensitive else text.lower()).split()


class _BeamDistance:
    """The beam edit distance of candidates of one length to one reference.

    sacreBLEU's ``BeamEditDistance``: every row of the matrix depends only on the words
    of the candidate up to it (and on the candidate's length, the same for every shift of
    one candidate), so rows are kept in a prefix tree of candidate words and a new
    candidate's distance starts from the longest prefix already computed. Rows hold
    costs only; the alignment of the current words is read back from their rows
    (:meth:`align`)."""

    __slots__ = ("ref", "n_ref", "spans", "root", "size", "first", "costs", "ones")

    def __init__(self, ref: Words, n_hyp: int) -> None:
        self.ref = ref
        n_ref = self.n_ref = len(ref)
        ratio = n_ref / n_hyp if n_hyp else 1
        beam = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
        self.spans = [(0, 0)]
        for i in range(1, n_hyp + 1):
            diag = math.floor(i * ratio)
            hi = n_ref + 1 if i == n_hyp else min(n_ref + 1, diag + beam)
            self.spans.append((max(0, diag - beam), hi))
        self.first = list(range(n_ref + 1))
        self.root: dict[int, tuple[dict[int, Any], list[int]]] = {}
        self.size = 0
        # substitution cost of a word against each reference position
        self.ones = [1] * n_ref
        self.costs: dict[int, list[int]] = {}
        for w in set(ref):
            self.costs[w] = [0 if r == w else 1 for r in ref]

    def rows(self, words: Words, all_rows: bool) -> list[list[int]]:
        """The matrix rows of ``words`` (all of them, or only the last), from the prefix
        tree where known."""
        node = self.root
        row = self.first
        out = [row] if all_rows else []
        i = 0
        n = len(words)
        while i < n:
            found = node.get(words[i])
            if found is None:
                break
            node, row = found
            if all_rows:
                out.append(row)
            i += 1
        if i == n:
            return out if all_rows else [row]
        keep = self.size < MAX_CACHE_ROWS
        n_ref1 = self.n_ref + 1
        spans = self.spans
        costs = self.costs
        ones = self.ones
        while i < n:
            w = words[i]
            i += 1
            lo, hi = spans[i]
            cur = [_INF] * n_ref1
            if lo == 0:
                cur[0] = left = row[0] + 1
                lo = 1
            else:
                left = _INF
            sub = costs.get(w, ones)
            vals: list[int] = []
            add = vals.append
            for diag, up, s in zip(
                row[lo - 1 : hi - 1], row[lo:hi], sub[lo - 1 : hi - 1], strict=True
            ):
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
            if all_rows:
                out.append(cur)
            if keep:
                child = node.get(w)
                if child is None:
                    child = node[w] = ({}, cur)
                    self.size += 1
                    keep = self.size < MAX_CACHE_ROWS
                node = child[0]
        return out if all_rows else [row]

    def distance(self, words: Words) -> int:
        """The distance of ``words``."""
        return self.rows(words, False)[0][-1]

    def align(self, words: Words) -> tuple[int, list[int], list[int], list[int]]:
        """(distance, alignment, reference errors, candidate errors) of ``words``:
        sacreBLEU's ``trace_to_alignment`` of its flipped trace. ``alignment[r]`` is the
        candidate position reference word ``r`` is aligned with (or follows).

        The trace is read back from the cost rows: a cell's operation is the first of
        (match or substitution, deletion, insertion) that reaches its cost, which is
        the one sacreBLEU records (it keeps an operation only when it is cheaper than
        those before it)."""
        ref = self.ref
        rows = self.rows(words, True)
        steps: list[int] = []  # 0 match/substitution, 1 candidate word, 2 reference word
        i, j = len(words), self.n_ref
        while i > 0 or j > 0:
            cur = rows[i][j]
            if j == 0:
                o = 1
            elif i == 0:
                o = 2
            else:
                prev = rows[i - 1]
                if prev[j - 1] + (words[i - 1] != ref[j - 1]) == cur:
                    o = 0
                elif prev[j] + 1 == cur:
                    o = 1
                else:
                    o = 2
            steps.append(o)
            if o == 0:
                i -= 1
                j -= 1
            elif o == 2:
                j -= 1
            else:
                i -= 1
        steps.reverse()
        alignment: list[int] = []
        ref_err: list[int] = []
        hyp_err: list[int] = []
        pos_hyp = -1
        pos_ref = 0
        for o in steps:
            if o == 0:
                pos_hyp += 1
                bad = 0 if words[pos_hyp] == ref[pos_ref] else 1
                pos_ref += 1
                alignment.append(pos_hyp)
                hyp_err.append(bad)
                ref_err.append(bad)
            elif o == 1:  # a candidate word the reference lacks
                pos_hyp += 1
                hyp_err.append(1)
            else:  # a reference word the candidate lacks
                pos_ref += 1
                alignment.append(pos_hyp)
                ref_err.append(1)
        return rows[-1][-1], alignment, ref_err, hyp_err


def _prefix_sums(values: list[int]) -> list[int]:
    out = [0]
    total = 0
    for v in values:
        total += v
        out.append(total)
    return out


def _shifted(words: Words, start: int, length: int, target: int) -> tuple[int, ...]:
    """sacreBLEU's ``_perform_shift``: the block ``words[start:start+length]`` moved so
    that it begins before position ``target`` of the original words."""
    w = tuple(words)
    if target < start:
        return w[:target] + w[start : start + length] + w[target:start] + w[start + length :]
    if target > start + length:
        return w[:start] + w[start + length : target] + w[start : start + length] + w[target:]
    return (
        w[:start]
        + w[start + length : length + target]
        + w[start : start + length]
        + w[length + target :]
    )


def _best_shift(
    words: tuple[int, ...],
    ref: Words,
    where: dict[int, list[int]],
    beam: _BeamDistance,
    checked: int,
) -> tuple[int, tuple[int, ...], int]:
    """sacreBLEU's ``_shift``: (distance gained, shifted words, candidates checked so far)
    of the best shift of ``words``, or (0, ``words``, …) when no shift is tried."""
    pre_score, alignment, ref_err, hyp_err = beam.align(words)
    ref_bad = _prefix_sums(ref_err)
    hyp_bad = _prefix_sums(hyp_err)
    n_h, n_r = len(words), len(ref)
    best: tuple[int, int, int, int] | None = None
    best_words = words
    for start_h in range(n_h):
        for start_r in where.get(words[start_h], ()):
            if abs(start_r - start_h) > MAX_SHIFT_DIST:
                continue
            length = 0
            while words[start_h + length] == ref[start_r + length] and length < MAX_SHIFT_SIZE:
                length += 1
                end_h, end_r = start_h + length, start_r + length
                if (
                    hyp_bad[end_h] != hyp_bad[start_h]
                    and ref_bad[end_r] != ref_bad[start_r]
                    and not start_h <= alignment[start_r] < end_h
                ):
                    prev = -1
                    for offset in range(-1, length):
                        idx = 0 if start_r + offset == -1 else alignment[start_r + offset] + 1
                        if idx == prev:
                            continue
                        prev = idx
                        moved = _shifted(words, start_h, length, idx)
                        key = (pre_score - beam.distance(moved), length, -start_h, -idx)
                        checked += 1
                        if best is None or key > best:
                            best, best_words = key, moved
                    if checked >= MAX_SHIFT_CANDIDATES:
                        return _result(best, best_words, words, checked)
                if end_h == n_h or end_r == n_r:
                    break
    return _result(best, best_words, words, checked)


def _result(
    best: tuple[int, int, int, int] | None,
    best_words: tuple[int, ...],
    words: tuple[int, ...],
    checked: int,
) -> tuple[int, tuple[int, ...], int]:
    if best is None:
        return 0, words, checked
    return best[0], best_words, checked


def ter_edits(hyp: Words, ref: Words) -> int:
    """The TER edits (shifts + beam edit distance after them) of one candidate against
    one reference, both as token ids: sacreBLEU's ``translation_edit_rate``."""
    if not ref:
        return len(hyp)
    words = tuple(hyp)
    if words == tuple(ref):
        return 0
    beam = _BeamDistance(ref, len(words))
    where: dict[int, list[int]] = {}
    for r, w in enumerate(ref):
        where.setdefault(w, []).append(r)
    shifts = 0
    checked = 0
    while True:
        gain, moved, checked = _best_shift(words, ref, where, beam, checked)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            break
        shifts += 1
        words = moved
    return shifts + beam.distance(words)


def ter_row(hyp: Words, refs: Sequence[Words]) -> Row:
    """One segment's row ``[fewest edits over the references, average reference length]``.

    A reference is searched only if it could beat the best so far: shifts keep the
    candidate's multiset of words, and no edit distance is below the position-independent
    one, ``max(I, Ĩ) − |common words|``, so that is a lower bound of its TER edits. The
    references are tried from the lowest bound up, and the minimum is the same."""
    length = sum(len(r) for r in refs) / len(refs)
    if len(refs) == 1:
        return float(ter_edits(hyp, refs[0])), length
    counts = Counter(hyp)
    bounds = []
    for ref in refs:
        common = sum(min(n, counts[w]) for w, n in Counter(ref).items() if w in counts)
        bounds.append(max(len(hyp), len(ref)) - common)
    best = -1
    for r in sorted(range(len(refs)), key=bounds.__getitem__):
        if best >= 0 and bounds[r] >= best:
            break
        edits = ter_edits(hyp, refs[r])
        if best < 0 or edits < best:
            best = edits
    return float(best), length


@dataclass(frozen=True, eq=False)
class TERRefs:
    """References tokenized once as ids of ``vocab``; ``refs[k]`` are segment ``k``'s;
    ``memo`` maps ``(segment, candidate text)`` to its row."""

    config: tuple[object, ...]
    vocab: dict[str, int]
    refs: list[tuple[tuple[int, ...], ...]]
    memo: dict[tuple[int, str], Row] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.refs)


class TER(Metric):
    """Translation edit rate with shifts (Snover et al. 2006; module doc)."""

    info = MetricInfo("ter", "TER", higher_is_better=False, highest=math.inf, family="edit")

    def __init__(self, case_sensitive: bool = False) -> None:
        self.case_sensitive = case_sensitive

    def _config(self) -> tuple[object, ...]:
        return ("TER", self.case_sensitive)

    def _ids(self, text: str, vocab: dict[str, int]) -> tuple[int, ...]:
        get = vocab.setdefault
        return tuple(get(w, len(vocab)) for w in ter_words(text, self.case_sensitive))

    def prepare_references(self, refs: References) -> TERRefs:
        vocab: dict[str, int] = {}
        out = []
        for k, seg in enumerate(refs):
            if len(seg) == 0:
                raise ValueError(f"segment {k + 1} has no reference")
            out.append(tuple(self._ids(r, vocab) for r in seg))
        return TERRefs(self._config(), vocab, out)

    def segment_stats(self, hyps: Sequence[str], prepared: TERRefs) -> FloatArray:
        check_prepared_for(prepared, TERRefs, self._config(), hyps)
        memo = prepared.memo
        out = np.empty((len(hyps), 2), dtype=np.float64)
        vocab = dict(prepared.vocab)  # candidates' new words get ids no reference has
        for k, text in enumerate(hyps):
            row = memo.get((k, text))
            if row is None:
                row = memo[(k, text)] = ter_row(self._ids(text, vocab), prepared.refs[k])
            out[k] = row
        return out

    def score_from_stats(self, stats: FloatArray) -> FloatArray:
        return rate(stats)

    def signature_parts(self) -> dict[str, object]:
        """The normalisation and search choices (sacreBLEU's TER signature keys, and the
        shift limits it leaves implicit)."""
        return {
            "case": "mixed" if self.case_sensitive else "lc",
            "tok": "tercom",
            "norm": "no",
            "punct": "yes",
            "asian": "no",
            "shift": MAX_SHIFT_SIZE,
            "dist": MAX_SHIFT_DIST,
            "beam": BEAM_WIDTH,
        }

    def signature(self, refs: References) -> str:
        return format_signature({"nrefs": nrefs_label(refs), **self.signature_parts()})
