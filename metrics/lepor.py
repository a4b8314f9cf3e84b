"""LEPOR (Han, Wong and Chao 2012, "LEPOR: A Robust Evaluation Metric for Machine
Translation with Augmented Factors", COLING; seed 003, "LEPOR").

Seed 003 states the metric of one candidate sentence against one reference:

    LEPOR     := LP × NPosPenal × Harmonic(αR, βP)
    LP        := exp(1 − r/c) if c < r;  1 if c = r;  exp(1 − c/r) if c > r
    NPosPenal := exp(−NPD),   NPD := (1/c) Σ_{i=1..c} |PD_i|
    P := common/c,  R := common/r

with c and r the candidate's and the reference's length in words, ``common`` the number
of aligned words, and ``PD_i`` the difference of the normalised positions (position
divided by the sentence length) of candidate word i and the reference word it is aligned
to (0 for a word aligned to nothing). "Every word from both output translation and
reference should be aligned only once."

Choices where the seed is silent or garbled (``docs/metrics.md``, "LEPOR"):

* **LP for c < r**: the seed prints ``exp(1 − c/r)`` in both branches, which is above 1
  for a short candidate, against its own next sentence ("LP will be less than 1"); this
  is the paper's Eq. 2 and its authors' script: ``exp(1 − r/c)``, and 0 for c = 0.
* **Harmonic(αR, βP)** is the paper's weighted harmonic mean of R and P,
  ``(α + β) / (α/R + β/P)`` (its authors' script: ``(1 + a)PR/(R + aP)`` for α = a,
  β = 1), which equals the plain harmonic mean ``2PR/(P + R)`` at α = β = 1 (the
  default) and stays in 0–1 for any weights; 0 when no word is aligned.
* **The context-dependent n-gram alignment** (:func:`align`), the seed's "Context-dependent
  n-gram word alignment" in the paper's terms: candidate words are aligned left to right;
  a word with no free equal word in the reference is aligned to nothing; one with a
  single free candidate position takes it; with several, the positions whose *context*
  matches are preferred — the n-gram of ``context`` words (default 2) ending at the word,
  or starting at it, equals the reference's n-gram at the same offsets — and among the
  preferred ones (or among all, when none or several are) the *nearest* is taken: the
  smallest ``|x/c − y/r|`` (the PD it costs), the leftmost on ties. A reference word
  already aligned is not free ("aligned only once").
* **Several references**: the best sentence score over the references (as METEOR in the
  same seed does); the paper scores against one.
* **Corpus score**: the mean of the sentence scores, as in the paper (and its authors'
  script's "mean value LEPOR of all single sentence") — not a score of summed counts as
  every other metric here. The rows are ``[sentence LEPOR, 1]``, so the corpus score is
  still a function of summed rows (Σ score / Σ count) and the bootstrap resamples them.
* **Empty sentences**: an empty candidate scores 0 (LP = 0), an empty reference 0 unless
  the candidate is empty too, which scores 1 (identical texts).

Words are the preprocessor's tokens (its tokenizer and case choice); sentence
boundaries do not apply (``<s>`` would align with ``<s>`` in every sentence). Scores are
in percent (0–100), higher is better.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from metrics.facts import facts_of
from metrics.stats import (
    FloatArray,
    Metric,
    References,
    check_prepared_for,
    format_signature,
    nrefs_label,
)
from metrics.tokenize import Preprocessor

Words = Sequence[str]
#: n of the context-dependent n-gram alignment: 2-grams, one neighbouring word.
CONTEXT = 2


def length_penalty(c: int, r: int) -> float:
    """LP (seed 003; the paper's Eq. 2): below 1 for a candidate shorter or longer than
    its reference, 0 for an empty candidate or reference (its limit as c or r → 0)."""
    if c == r:
        return 1.0
    if c == 0 or r == 0:
        return 0.0
    return math.exp(1.0 - r / c) if c < r else math.exp(1.0 - c / r)


def _context_matches(hyp: Words, ref: Words, x: int, y: int, n: int) -> bool:
    """Whether the n-gram ending at ``x`` equals the one ending at ``y``, or the n-gram
    starting at ``x`` the one starting at ``y`` (0-based positions, whole n-grams only)."""
    if n < 2:
        return False
    before = x >= n - 1 and y >= n - 1
    if before and all(hyp[x - d] == ref[y - d] for d in range(1, n)):
        return True
    after = x + n <= len(hyp) and y + n <= len(ref)
    return after and all(hyp[x + d] == ref[y + d] for d in range(1, n))


def align(hyp: Words, ref: Words, context: int = CONTEXT) -> list[int]:
    """The reference position (0-based) each candidate word is aligned to, -1 for none
    (module docstring: left to right, context first, then the nearest)."""
    c, r = len(hyp), len(ref)
    positions: dict[str, list[int]] = {}
    for y, word in enumerate(ref):
        positions.setdefault(word, []).append(y)
    taken = [False] * r
    out = []
    for x, word in enumerate(hyp):
        free = [y for y in positions.get(word, ()) if not taken[y]]
        if len(free) > 1:
            confirmed = [y for y in free if _context_matches(hyp, ref, x, y, context)]
            free = confirmed or free
            # nearest normalised position, |x/c − y/r| compared exactly as |x·r − y·c|
            free = [min(free, key=lambda y: (abs((x + 1) * r - (y + 1) * c), y))]
        if free:
            taken[free[0]] = True
            out.append(free[0])
        else:
            out.append(-1)
    return out


@dataclass(frozen=True)
class LeporParts:
    """One sentence pair's factors (seed 003): ``lp``, ``npd``, ``common``, and the
    lengths ``c`` and ``r``; :attr:`score` combines them with the weights α and β."""

    lp: float
    npd: float
    common: int
    c: int
    r: int

    def score(self, alpha: float = 1.0, beta: float = 1.0) -> float:
        """LP × exp(−NPD) × Harmonic(αR, βP), in 0–1."""
        if self.c == 0 and self.r == 0:
            return 1.0
        if self.common == 0:
            return 0.0
        p, r = self.common / self.c, self.common / self.r
        harmonic = (alpha + beta) / (alpha / r + beta / p)
        return self.lp * math.exp(-self.npd) * harmonic


def score_bound(c: int, r: int, common: int, alpha: float = 1.0, beta: float = 1.0) -> float:
    """An upper bound of :meth:`LeporParts.score` for lengths ``c``, ``r`` and ``common``
    aligned words, known before aligning: :func:`align` aligns exactly the multiset
    intersection of the two sentences (:meth:`WordCounts.common`); LP depends on the
    lengths alone; and NPD ≥ 0, so exp(−NPD) ≤ 1. The bound is the score's own float
    operations with that factor 1.0: IEEE rounding is monotone, so ``lp × e ≤ lp`` and
    then ``(lp × e) × h ≤ lp × h`` hold for the computed values too, and a reference
    whose bound is at most the best score so far cannot raise the maximum. The special
    cases (both empty, nothing aligned) are :meth:`LeporParts.score`'s exact values."""
    if c == 0 and r == 0:
        return 1.0
    if common == 0:
        return 0.0
    p, rec = common / c, common / r
    harmonic = (alpha + beta) / (alpha / rec + beta / p)
    return length_penalty(c, r) * harmonic


class WordCounts:
    """One segment's references as word counts, ``counts[r, column[word]]``, counted once
    for every system: :meth:`common` of a candidate against all of them is one numpy
    ``minimum``."""

    def __init__(self, refs: Sequence[Words]) -> None:
        self.column: dict[str, int] = {}
        for ref in refs:
            for w in ref:
                self.column.setdefault(w, len(self.column))
        self.counts = np.zeros((len(refs), len(self.column)), dtype=np.int64)
        for r, ref in enumerate(refs):
            for w, n in Counter(ref).items():
                self.counts[r, self.column[w]] = n

    def common(self, hyp: Words) -> list[int]:
        """``Σ_w min(count in hyp, count in ref)`` for each reference: the number of
        words :func:`align` aligns (a candidate word's k-th occurrence finds a free equal
        reference word iff the reference has k of them)."""
        column = self.column
        cols = [k for k in map(column.get, hyp) if k is not None]
        mine = np.bincount(np.asarray(cols, dtype=np.int64), minlength=len(column))
        common: list[int] = np.minimum(self.counts, mine[None, :]).sum(axis=1).tolist()
        return common


def lepor_parts(hyp: Words, ref: Words, context: int = CONTEXT) -> LeporParts:
    """LP, NPD and the aligned-word count of a candidate against one reference."""
    c, r = len(hyp), len(ref)
    aligned = align(hyp, ref, context)
    pd = sum(abs((x + 1) / c - (y + 1) / r) for x, y in enumerate(aligned) if y >= 0)
    common = sum(1 for y in aligned if y >= 0)
    return LeporParts(length_penalty(c, r), pd / c if c else 0.0, common, c, r)


@dataclass(frozen=True, eq=False)
class LeporRefs:
    """The references as tokens, segment by segment, and their :class:`WordCounts`
    (``counts``, for :func:`score_bound`, counted once for every system); ``memo`` maps
    (segment, candidate text) to its sentence score (an output several systems share is
    aligned once)."""

    config: tuple[object, ...]
    refs: list[tuple[tuple[str, ...], ...]]
    counts: list[WordCounts] = field(compare=False, repr=False)
    memo: dict[tuple[int, str], float] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.refs)


class LEPOR(Metric):
    """LEPOR in percent, the mean of sentence scores (module docstring)."""

    info = facts_of("lepor").info

    def __init__(
        self,
        preprocessor: Preprocessor | None = None,
        *,
        alpha: float = 1.0,
        beta: float = 1.0,
        context: int = CONTEXT,
    ) -> None:
        for what, value in (("alpha", alpha), ("beta", beta)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{what}={value!r} must be a number")
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{what}={value!r} must be a positive number")
        if isinstance(context, bool) or not isinstance(context, int) or context < 1:
            raise ValueError(f"context={context!r} must be a whole number ≥ 1")
        self.preprocessor = preprocessor or Preprocessor()
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.context = context

    def _config(self) -> tuple[object, ...]:
        # every option: ``memo`` keeps sentence scores made with them
        return ("LEPOR", self.preprocessor, self.alpha, self.beta, self.context)

    def prepare_references(self, refs: References) -> LeporRefs:
        out = []
        for k, seg in enumerate(refs):
            if len(seg) == 0:
                raise ValueError(f"segment {k + 1} has no reference")
            out.append(tuple(self.preprocessor.tokens(r) for r in seg))
        counts = [WordCounts(seg) for seg in out]
        return LeporRefs(self._config(), out, counts)

    def sentence_lepor(
        self,
        hyp: Words,
        refs: Sequence[Words],
        counts: WordCounts | None = None,
    ) -> float:
        """The best LEPOR (0–1) of a tokenized candidate over its tokenized references
        (``counts``: their :class:`WordCounts`, if made).

        Only the references that could beat the best so far are aligned: they are tried
        from the highest :func:`score_bound` down, and once a bound is at most the best
        score, no later reference (their bounds are no higher) can raise the maximum, so
        it is the maximum over all of them, to the bit."""
        if len(refs) == 1:
            return lepor_parts(hyp, refs[0], self.context).score(self.alpha, self.beta)
        common = (counts or WordCounts(refs)).common(hyp)
        c = len(hyp)
        known: dict[tuple[int, int], float] = {}
        bounds = []
        for ref, n in zip(refs, common, strict=True):
            key = (len(ref), n)  # references of one length and overlap: one bound
            bound = known.get(key)
            if bound is None:
                bound = known[key] = score_bound(c, len(ref), n, self.alpha, self.beta)
            bounds.append(bound)
        best = -1.0
        for k in sorted(range(len(refs)), key=bounds.__getitem__, reverse=True):
            if bounds[k] <= best:
                break
            score = lepor_parts(hyp, refs[k], self.context).score(self.alpha, self.beta)
            best = max(best, score)
        return best

    def segment_stats(self, hyps: Sequence[str], prepared: Any) -> FloatArray:
        """``[sentence LEPOR (0–1), 1]`` per segment."""
        check_prepared_for(prepared, LeporRefs, self._config(), hyps)
        out = np.ones((len(hyps), 2), dtype=np.float64)
        memo = prepared.memo
        for k, text in enumerate(hyps):
            score = memo.get((k, text))
            if score is None:
                tokens = self.preprocessor.tokens(text)
                score = self.sentence_lepor(tokens, prepared.refs[k], prepared.counts[k])
                memo[(k, text)] = score
            out[k, 0] = score
        return out

    def score_from_stats(self, stats: FloatArray) -> Any:
        """100 × Σ sentence scores / Σ sentences; (..., 2) → (...), 0 for no sentence."""
        arr = np.asarray(stats, dtype=np.float64)
        if arr.ndim == 0 or arr.shape[-1] != 2:
            raise ValueError(f"stats of shape {arr.shape}: LEPOR needs rows of 2 values")
        total, count = arr[..., 0], arr[..., 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(count > 0, 100.0 * total / count, 0.0)
        return float(out) if out.ndim == 0 else out

    def signature(self, refs: References) -> str:
        parts = self.preprocessor.signature_parts()
        return format_signature(
            {
                "nrefs": nrefs_label(refs),
                "case": parts["case"],
                "tok": parts["tok"],
                "alpha": f"{self.alpha:g}",
                "beta": f"{self.beta:g}",
                "ctx": self.context,
                "mref": "best",
                "avg": "sent",
            }
        )
