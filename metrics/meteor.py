"""METEOR (Banerjee and Lavie 2005; seed 003), as NLTK 3.10's ``meteor_score`` computes
it, on this package's tokens.

A candidate is aligned with a reference word for word in three stages, each on the
words the stages before left unmatched:

1. *exact*: the same (lowercased) word;
2. *stem*: the same Porter stem (NLTK's ``PorterStemmer()``, :mod:`metrics.porter`);
3. *synonym*: a reference word among the WordNet synonyms of the candidate word
   (:mod:`metrics.wordnet`, NLTK's ``wordnet.synsets`` on WordNet 3.0) — as NLTK does
   it, the *stems* of both: NLTK hands this stage the stem stage's stemmed words
   (:func:`align`).

Within a stage NLTK's order decides which of several equal words pair up: the
candidate's words are taken from the last to the first, each with the last reference
word still free that matches it. With m matched words, a candidate of h words, a
reference of r, and the matches grouped into the fewest chunks (runs adjacent in both
sentences, counted in candidate order)::

    P = m/h    R = m/r    Fmean = P·R / (α·P + (1 − α)·R) = 10·P·R / (R + 9·P)
    Penalty = γ · (chunks/m)^β = 0.5 · (chunks/m)³
    METEOR = 100 · Fmean · (1 − Penalty)         (0 when m, h or r is 0)

with NLTK's defaults α = 0.9, β = 3, γ = 0.5 (the seed prints the penalty without the
cube, as the 2005 paper's text; its formula and NLTK's have it). Several references:
the best segment score, as NLTK's ``meteor_score`` (the first of equal ones keeps its
statistics).

Statistics rows are ``[m, h, r, chunks]`` of that reference (chunks 0 when m is 0).
The corpus score, which NLTK does not have, is the formula above on the summed rows:
P = Σm/Σh, R = Σm/Σr, fragmentation Σchunks/Σm, as the Meteor reference implementation
aggregates its statistics over a test set; so a long segment weighs more than a short
one, and bootstrap samples are scored from their summed rows as every metric here.

Preprocessing: the tokenizer's words (``tok:``), each lowercased with ``str.lower`` as
NLTK does; the case choice and sentence boundaries do not apply (``case:lc``).

Speed: the texts are tokenized once, each word's stem and synonyms computed once
(:func:`metrics.porter.stem`, :meth:`metrics.wordnet.WordNet.synonyms`), a sentence
that several systems output in a segment aligned once (:func:`corpus_rows`), the
stem and synonym stages run only on the words left over, and of many references only
those that could score best are aligned (:meth:`METEOR.aligned`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from metrics.facts import facts_of
from metrics.porter import stem
from metrics.stats import (
    FloatArray,
    Metric,
    References,
    check_parallel,
    check_prepared_for,
    format_signature,
    nrefs_label,
)
from metrics.tokenize import Preprocessor
from metrics.wordnet import WordNet, load_wordnet, wordnet_version

ALPHA = 0.9
BETA = 3.0
GAMMA = 0.5
Words = tuple[str, ...]
#: Relative slack of the score bound's comparison (:meth:`METEOR.aligned`): far above the
#: few ulps by which the same formula can differ between Python and numpy, far below
#: any difference one more matched word makes.
_MARGIN = 1e-9


class Line:
    """A tokenized, lowercased sentence ready for alignment. Each word has a *key*: the
    word itself at its last occurrence, ``(word, k)`` where it occurs k more times
    after; NLTK's exact stage (the last candidate occurrence of a word takes the last
    reference occurrence, the one before takes the one before, …) pairs equal keys, and a
    reference's keys index its positions (``where``)."""

    __slots__ = ("_stem_counts", "_stems", "keys", "where", "words")

    def __init__(self, words: Words) -> None:
        self.words = words
        keys: list[str | tuple[str, int]] = list(words)
        if len(set(words)) < len(words):  # a word repeats
            later: dict[str, int] = {}
            for i in range(len(words) - 1, -1, -1):
                w = words[i]
                k = later.get(w, 0)
                later[w] = k + 1
                if k:
                    keys[i] = (w, k)
        self.keys = keys
        self.where = dict(zip(keys, range(len(keys)), strict=True))
        self._stems: tuple[str, ...] | None = None
        self._stem_counts: Counter[str] | None = None

    @property
    def stems(self) -> tuple[str, ...]:
        """The Porter stem of each word (computed when first asked for)."""
        if self._stems is None:
            self._stems = tuple(map(stem, self.words))
        return self._stems

    @property
    def stem_counts(self) -> Counter[str]:
        """How often each Porter stem occurs (computed when first asked for)."""
        if self._stem_counts is None:
            self._stem_counts = Counter(self.stems)
        return self._stem_counts

    def __len__(self) -> int:
        return len(self.words)


def align(hyp: Line, ref: Line, wordnet: WordNet) -> tuple[int, int]:
    """(matches, chunks) of NLTK's alignment of two sentences (module docstring):
    exact, then stem, then synonym matches, NLTK's choices among equals.

    NLTK hands the synonym stage the stem stage's *stemmed* word lists, so synonyms are
    looked up for the Porter stem of a candidate word and compared with the stems of
    the reference words ("naked" → "nake" has no synsets: it never meets "bare"); so
    here too."""
    where = ref.where
    ref_of = [where.get(key, -1) for key in hyp.keys]
    n, r = len(ref_of), len(ref)
    matched = n - ref_of.count(-1)
    if matched < n and matched < r:
        hyp_stems, ref_stems = hyp.stems, ref.stems
        left = [i for i in range(n - 1, -1, -1) if ref_of[i] < 0]  # the last first
        used = set(ref_of)
        by_stem: dict[str, list[int]] = {}
        for j in range(r):
            if j not in used:
                by_stem.setdefault(ref_stems[j], []).append(j)
        still: list[int] = []
        for i in left:
            ps = by_stem.get(hyp_stems[i])
            if ps:
                ref_of[i] = ps.pop()
            else:
                still.append(i)
        if still and any(by_stem.values()):
            for i in still:
                synonyms = wordnet.synonyms(hyp_stems[i])
                if synonyms.isdisjoint(by_stem):
                    continue
                best, word = -1, ""
                for w, ps in by_stem.items():
                    if ps and ps[-1] > best and w in synonyms:
                        best, word = ps[-1], w
                if best >= 0:
                    ref_of[i] = by_stem[word].pop()
    matches = n - ref_of.count(-1)
    # a match continues a chunk when the word before it is matched to the reference
    # word before its own
    continued = sum(1 for a, b in zip(ref_of, ref_of[1:], strict=False) if b > 0 and a == b - 1)
    return matches, matches - continued


def meteor_from_stats(
    stats: FloatArray, *, alpha: float = ALPHA, beta: float = BETA, gamma: float = GAMMA
) -> FloatArray:
    """METEOR (percent) of rows ``[m, h, r, chunks]`` (shape (..., 4)), vectorised, in
    NLTK's ``single_meteor_score`` operations."""
    stats = np.asarray(stats, dtype=np.float64)
    m, h, r, c = (stats[..., k] for k in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = m / h
        recall = m / r
        fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
        penalty = gamma * (c / m) ** beta
        score = (1 - penalty) * fmean
    return np.asarray(np.where((m > 0) & (h > 0) & (r > 0), 100 * score, 0.0), dtype=np.float64)


class StemTable:
    """One segment's references as counts of their stems (``counts[r, column[stem]]``)
    and lengths, for :meth:`bounds`."""

    def __init__(self, seg: Sequence[Line]) -> None:
        self.column: dict[str, int] = {}
        for ref in seg:
            for s in ref.stem_counts:
                self.column.setdefault(s, len(self.column))
        self.counts = np.zeros((len(seg), len(self.column)), dtype=np.int64)
        for r, ref in enumerate(seg):
            for s, n in ref.stem_counts.items():
                self.counts[r, self.column[s]] = n
        self.lengths = np.fromiter(map(len, seg), dtype=np.int64, count=len(seg))
        self._synonym: dict[str, bool] = {}

    def bounds(self, hyp: Line, wordnet: WordNet) -> npt.NDArray[np.int64]:
        """An upper bound of the matches :func:`align` finds against each reference:
        the exact and stem stages pair equal stems one to one, so together they match
        at most ``Σ_s min(count in hyp, count in ref)``; the synonym stage matches only
        a word left over by them, whose stem no free reference word has (the stem
        stage would have taken it), so only a candidate word with a synonym of
        *another* stem among the references' stems, at most ``syn`` of them; and
        m ≤ min(h, r)."""
        column, synonym = self.column, self._synonym
        cols, syn = [], 0
        for s in hyp.stems:
            k = column.get(s)
            if k is not None:
                cols.append(k)
            has = synonym.get(s)
            if has is None:
                others = wordnet.synonyms(s) - {s}
                has = synonym[s] = not others.isdisjoint(column)
            syn += has
        mine = np.bincount(np.asarray(cols, dtype=np.int64), minlength=len(column))
        common = np.minimum(self.counts, mine[None, :]).sum(axis=1)
        out: npt.NDArray[np.int64] = np.minimum(np.minimum(self.lengths, len(hyp)), common + syn)
        return out


@dataclass(frozen=True)
class MeteorRefs:
    """References prepared for METEOR: each segment's references as :class:`Line`."""

    config: tuple[object, ...]
    segments: tuple[tuple[Line, ...], ...]

    def __len__(self) -> int:
        return len(self.segments)


class METEOR(Metric):
    """METEOR in percent, NLTK's ``meteor_score`` per segment (module docstring)."""

    info = facts_of("meteor").info

    def __init__(
        self,
        preprocessor: Preprocessor | None = None,
        *,
        alpha: float = ALPHA,
        beta: float = BETA,
        gamma: float = GAMMA,
        wordnet_dir: str | None = None,
    ) -> None:
        if not 0 < alpha <= 1:
            raise ValueError(f"alpha={alpha!r} must be in (0, 1]")
        if not beta > 0:
            raise ValueError(f"beta={beta!r} must be positive")
        if not 0 <= gamma <= 1:
            raise ValueError(f"gamma={gamma!r} must be in [0, 1]")
        pp = preprocessor or Preprocessor()
        # The case choice does not apply (every word is lowercased after tokenizing, as
        # NLTK does), nor do sentence boundaries: one computation, one signature.
        self.preprocessor = Preprocessor(tokenize=pp.tokenize)
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self.wordnet_dir = wordnet_dir

    @property
    def config(self) -> tuple[object, ...]:
        return (self.preprocessor.tokenize, self.wordnet_dir)

    @property
    def wordnet(self) -> WordNet:
        """WordNet, read once per process (:class:`~metrics.wordnet.WordNetMissing`, a
        one-line ``ValueError``, if its files are not installed)."""
        return load_wordnet(self.wordnet_dir)

    def words(self, text: str) -> Words:
        """The words METEOR aligns: the tokenizer's, each lowercased (``str.lower``)."""
        return tuple(map(str.lower, self.preprocessor.tokens(text)))

    def prepare_references(self, refs: References) -> MeteorRefs:
        self.wordnet  # noqa: B018 -- fail here, before any work, if WordNet is missing
        lines: dict[str, Line] = {}
        return MeteorRefs(
            self.config,
            tuple(
                tuple(lines.get(r) or lines.setdefault(r, Line(self.words(r))) for r in seg)
                for seg in refs
            ),
        )

    def candidate_rows(self, cands: Sequence[str], refs: Sequence[Sequence[Line]]) -> FloatArray:
        """``[m, h, r, chunks]`` of each candidate ``cands[c]`` against the reference of
        ``refs[c]`` with the best score (the first of equal ones)."""
        wordnet = self.wordnet
        width = max(map(len, refs), default=0)
        stats = np.zeros((len(cands), max(width, 1), 4), dtype=np.float64)
        valid = np.zeros((len(cands), max(width, 1)), dtype=np.bool_)
        tables: dict[int, StemTable] = {}  # by segment (its tuple of references)
        for c, (text, seg) in enumerate(zip(cands, refs, strict=True)):
            hyp = Line(self.words(text))
            table = tables.get(id(seg))
            if table is None and len(seg) > 1:
                table = tables[id(seg)] = StemTable(seg)
            for slot, (m, chunks) in self.aligned(hyp, seg, wordnet, table).items():
                stats[c, slot] = (m, chunks, len(hyp), len(seg[slot]))
                valid[c, slot] = True
        stats = stats[..., [0, 2, 3, 1]]  # (m, chunks, h, r) → (m, h, r, chunks)
        scores = np.where(valid, self.score_from_stats(stats), -1.0)
        best = np.argmax(scores, axis=1)
        return np.asarray(stats[np.arange(len(cands)), best], dtype=np.float64)

    def aligned(
        self, hyp: Line, seg: Sequence[Line], wordnet: WordNet, table: StemTable | None
    ) -> dict[int, tuple[int, int]]:
        """(matches, chunks) of the candidate against the references of ``seg`` that
        could have the best score (``table``: their :class:`StemTable`); the others
        cannot be the first best reference, so their statistics are never needed.

        The score is ``(1 − Penalty) · Fmean`` with ``0 ≤ Penalty ≤ 1``, and Fmean is
        ``m / (α·r + (1 − α)·h)``, rising with m by a factor of at least ``1 + 1/m``
        per matched word; so 100 × Fmean of a bound of m (:meth:`StemTable.bounds`) is
        at least the score, up to a few ulps of rounding. The references are aligned
        from the highest bound down, until a bound is below the best score so far by
        more than ``_MARGIN`` (relative): such a reference's score is below the best,
        not even equal to it, and so are those after it; the first best reference is
        among those aligned."""
        h = len(hyp)
        if table is None or h == 0:
            return {j: align(hyp, ref, wordnet) for j, ref in enumerate(seg)}
        m_max = table.bounds(hyp, wordnet)
        r = table.lengths
        with np.errstate(divide="ignore", invalid="ignore"):
            ps, recs = m_max / h, m_max / r
            fmeans = 100 * ((ps * recs) / (self.alpha * ps + (1 - self.alpha) * recs))
        bounds = np.where((m_max > 0) & (r > 0), fmeans, 0.0).tolist()
        found: dict[int, tuple[int, int]] = {}
        best = -1.0
        for j in sorted(range(len(seg)), key=lambda j: -bounds[j]):
            if bounds[j] < best * (1 - _MARGIN):
                break
            m, chunks = found[j] = align(hyp, seg[j], wordnet)
            score = 0.0
            if m:
                p, rec = m / h, m / len(seg[j])
                fmean = 100 * ((p * rec) / (self.alpha * p + (1 - self.alpha) * rec))
                score = (1 - self.gamma * (chunks / m) ** self.beta) * fmean
            best = max(best, score)
        return found

    def segment_stats(self, hyps: Sequence[str], prepared: Any) -> FloatArray:
        check_prepared_for(prepared, MeteorRefs, self.config, hyps)
        return self.candidate_rows(hyps, prepared.segments)

    def score_from_stats(self, stats: FloatArray) -> Any:
        """METEOR of summed statistics; (..., 4) → (...), a (4,) row → a float."""
        stats = np.asarray(stats, dtype=np.float64)
        if stats.shape[-1] != 4:
            raise ValueError(f"METEOR rows have 4 columns, not {stats.shape[-1]}")
        out = meteor_from_stats(stats, alpha=self.alpha, beta=self.beta, gamma=self.gamma)
        return float(out) if out.ndim == 0 else out

    def signature(self, refs: References) -> str:
        return format_signature(
            {
                "nrefs": nrefs_label(refs),
                "case": "lc",
                "tok": self.preprocessor.tokenize,
                "mods": "exact+stem+syn",
                "stem": "porter",
                "wn": wordnet_version(self.wordnet_dir),
                "alpha": f"{self.alpha:g}",
                "beta": f"{self.beta:g}",
                "gamma": f"{self.gamma:g}",
            }
        )


def corpus_rows(
    metric: METEOR, refs: References, systems: Mapping[str, Sequence[str]]
) -> dict[str, FloatArray]:
    """``out[system]``: the METEOR rows of every system, a sentence that several systems
    output in one segment aligned once."""
    prepared = metric.prepare_references(refs)
    cand_of: dict[tuple[int, str], int] = {}
    own: dict[str, list[int]] = {}
    for name, hyps in systems.items():
        check_parallel(hyps, refs)
        own[name] = [cand_of.setdefault((k, t), len(cand_of)) for k, t in enumerate(hyps)]
    rows = metric.candidate_rows(
        [t for _, t in cand_of], [prepared.segments[k] for k, _ in cand_of]
    )
    return {name: rows[np.asarray(idx, dtype=np.int64)].reshape(-1, 4) for name, idx in own.items()}
