"""Weighted n-gram precision, recall and F-score (Babych and Hartley 2004, "Extending
BLEU MT Evaluation Method with Frequency Weighting", ACL; seed 004).

Each word of a *document* of the reference gets a salience weight, computed per document
from **one** reference translation (seed 004 §2, first stage), by one of two formulas:

    tf.idf(i, j) := (1 + ln tf_{i,j}) · ln(N / df_i)                  (tf_{i,j} ≥ 1)
    S(i, j)      := ln( (P_doc(i,j) − P_corp-doc(i)) · (N − df_i)/N / P_corp(i) )

with ``tf_{i,j}`` the count of word i in document j, ``df_i`` the number of documents it
occurs in, N the number of documents, ``P_doc`` its relative frequency in document j
(count / tokens of j), ``P_corp-doc`` in the rest of the corpus without j, ``P_corp`` in
the whole corpus. Then n-grams are counted as in BLEU's script, except that "if for a
lexical item in a text the S-score > 1, all counts for the N-grams containing this item
are increased by the S-score (not just by 1)"; a weight ≤ 1 leaves the count 1 (§2,
second stage; tf.idf weights alike). Precision, recall and F-score of the weighted
n-grams against the one reference follow, "no modifications to standard Precision and
Recall" (§3), F with "Precision and Recall weighted equally":

    P := Σ_n Σ_g min(h_g, r_g)·w_g / Σ_n Σ_g h_g·w_g
    R := Σ_n Σ_g min(h_g, r_g)·w_g / Σ_n Σ_g r_g·w_g,      F := 2PR / (P + R)

over the n-grams g of orders n = 1…4 (the paper's "N-gram size = 4"), ``h_g`` and ``r_g``
the candidate's and the reference's counts of g in the segment, ``w_g`` its weight.

Choices where the seed is silent (``docs/metrics.md``, "Weighted n-grams"):

* **logarithms are natural** (Perl's ``log``, the language of the authors' toolkit); the
  base matters, since the threshold 1 is absolute;
* **an n-gram's weight** is the largest weight > 1 among its words, else 1
  (``ngw:max``: "all N-grams containing this item" are counted with its weight, one
  count per occurrence); ``ngram_rule="last"`` takes its last word's instead, as the
  paper's Perl fragment does (it adds ``$WEIGHT`` of the word just appended to the
  growing n-gram);
* **the orders are pooled**: matched, candidate and reference counts are summed over the
  orders before dividing, as a count over the BLEU script's one hash of all n-grams of
  size 1…N is (the paper does not say how orders combine);
* **an undefined S-score** (a word no more frequent in its document than in the rest of
  the corpus, one found in every document, or a corpus of one document) gives no weight:
  the count stays 1. With one document every tf.idf is ``ln 1 = 0`` and every S-score is
  undefined, so both weightings reduce to unweighted n-gram P, R, F — weights need
  several documents;
* the reference is each segment's **first** one (the paper's method uses one; ``nrefs:1``);
* documents are given as one id per segment (``documents``); without ids the corpus is one
  document. Weights are computed from the reference side only; a candidate word the
  document's reference lacks has weight 1.

Rows (summed over segments for the corpus; resampled by the bootstrap) are
``[matched_n, candidate_n, reference_n]`` per order n, weighted. Scores are in percent.
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
)
from metrics.tokenize import Preprocessor

WEIGHTINGS = ("tfidf", "sscore")
NGRAM_RULES = ("max", "last")
MAX_ORDER = 4
Weights = dict[str, float]


def tfidf_weights(documents: Sequence[Sequence[str]]) -> list[Weights]:
    """``tf.idf(i, j)`` of every word of every document (seed 004 §2)."""
    counts = [Counter(doc) for doc in documents]
    n = len(counts)
    df: Counter[str] = Counter()
    for tf in counts:
        df.update(tf.keys())
    return [{w: (1.0 + math.log(t)) * math.log(n / df[w]) for w, t in tf.items()} for tf in counts]


def sscore_weights(documents: Sequence[Sequence[str]]) -> list[Weights]:
    """``S(i, j)`` of every word of every document where it is defined (seed 004 §2): the
    logarithm's argument must be positive."""
    counts = [Counter(doc) for doc in documents]
    n = len(counts)
    sizes = [len(doc) for doc in documents]
    total_tokens = sum(sizes)
    corpus: Counter[str] = Counter()
    df: Counter[str] = Counter()
    for tf in counts:
        corpus.update(tf)
        df.update(tf.keys())
    out: list[Weights] = []
    for tf, size in zip(counts, sizes, strict=True):
        rest = total_tokens - size
        weights: Weights = {}
        for w, t in tf.items():
            p_doc = t / size
            p_rest = (corpus[w] - t) / rest if rest else 0.0
            p_corp = corpus[w] / total_tokens
            arg = (p_doc - p_rest) * (n - df[w]) / n / p_corp
            if arg > 0:
                weights[w] = math.log(arg)
        out.append(weights)
    return out


def word_weights(documents: Sequence[Sequence[str]], weighting: str) -> list[Weights]:
    """The weights of ``weighting`` (``tfidf`` or ``sscore``), per document."""
    if weighting == "tfidf":
        return tfidf_weights(documents)
    if weighting == "sscore":
        return sscore_weights(documents)
    raise ValueError(f"weights={weighting!r}: choose one of {', '.join(WEIGHTINGS)}")


def ngram_weight(gram: tuple[str, ...], weights: Weights, rule: str = "max") -> float:
    """The count one occurrence of ``gram`` adds: the weight of its words (``max``: the
    largest, ``last``: its last word's) where that exceeds 1, else 1."""
    if rule == "last":
        w = weights.get(gram[-1], 1.0)
    else:
        w = max(weights.get(word, 1.0) for word in gram)
    return w if w > 1.0 else 1.0


Grams = Counter[tuple[str, ...]]


def weighted_ngrams(
    tokens: Sequence[str], weights: Weights, max_order: int, rule: str = "max"
) -> list[tuple[Grams, dict[tuple[str, ...], float] | None]]:
    """Per order (index n − 1): each n-gram's count, and its :func:`ngram_weight` (None:
    every weight is 1). The same as calling :func:`ngram_weight` per n-gram, with each
    word's weight looked up once: an n-gram's weight is the largest (``max``) or the last
    (``last``) of its words' weights floored at 1."""
    own = [weights.get(t, 1.0) for t in tokens]
    own = [w if w > 1.0 else 1.0 for w in own]
    heavy = any(w > 1.0 for w in own)
    out: list[tuple[Grams, dict[tuple[str, ...], float] | None]] = []
    for n in range(1, max_order + 1):
        grams = list(zip(*(tokens[i:] for i in range(n)), strict=False))
        if not heavy:
            out.append((Counter(grams), None))
            continue
        if rule == "last" or n == 1:
            gram_w = own[n - 1 :]
        else:
            gram_w = [max(own[i : i + n]) for i in range(len(grams))]
        out.append((Counter(grams), dict(zip(grams, gram_w, strict=False))))
    return out


def _total(counts: Grams, gram_w: dict[tuple[str, ...], float] | None) -> float:
    if gram_w is None:
        return float(sum(counts.values()))
    return sum(c * gram_w[g] for g, c in counts.items())


@dataclass(frozen=True, eq=False)
class WeightedRefs:
    """Each segment's first reference as n-gram counts per order and weighted totals
    (segments × orders), the word weights of its document, and ``memo``: the row of each
    (segment, candidate text) scored so far (an output several systems share is
    counted once)."""

    config: tuple[object, ...]
    counts: list[list[Grams]]
    totals: FloatArray
    weights: list[Weights]
    n_documents: int
    memo: dict[tuple[int, str], FloatArray] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.counts)


def check_documents(documents: Sequence[str] | None, n_segments: int) -> list[str]:
    """One document id per segment (all ``""`` — one document — when none are given)."""
    if documents is None:
        return [""] * n_segments
    if len(documents) != n_segments:
        raise ValueError(
            f"documents: {len(documents)} ids for {n_segments} segments: give one id per segment"
        )
    return [str(d) for d in documents]


class WeightedNgram(Metric):
    """The statistics of weighted n-gram P, R and F (module docstring); the three metrics
    differ only in :meth:`score_from_stats`."""

    _measure: str

    def __init__(
        self,
        preprocessor: Preprocessor | None = None,
        *,
        weights: str = "tfidf",
        max_order: int = MAX_ORDER,
        ngram_rule: str = "max",
        documents: Sequence[str] | None = None,
    ) -> None:
        if weights not in WEIGHTINGS:
            raise ValueError(f"weights={weights!r}: choose one of {', '.join(WEIGHTINGS)}")
        if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
            raise ValueError(f"max_order={max_order!r} must be a whole number ≥ 1")
        if ngram_rule not in NGRAM_RULES:
            raise ValueError(f"ngram_rule={ngram_rule!r}: choose one of {', '.join(NGRAM_RULES)}")
        self.preprocessor = preprocessor or Preprocessor()
        self.weights = weights
        self.max_order = max_order
        self.ngram_rule = ngram_rule
        if isinstance(documents, str):
            raise ValueError(f"documents={documents!r}: give one id per segment, not a string")
        self.documents = None if documents is None else tuple(str(d) for d in documents)

    @property
    def n_stats(self) -> int:
        return 3 * self.max_order

    def rows_key(self) -> tuple[object, ...]:
        """What this metric's rows depend on: P, R and F of equal keys have the same rows
        (they differ only in :meth:`score_from_stats`), so a corpus counts them once."""
        return self._config()

    def _config(self) -> tuple[object, ...]:
        return (
            "wngram",
            self.preprocessor,
            self.weights,
            self.max_order,
            self.ngram_rule,
            self.documents,
        )

    def prepare_references(self, refs: References) -> WeightedRefs:
        """Word weights per document from the first references, and their n-gram counts."""
        for k, seg in enumerate(refs):
            if len(seg) == 0:
                raise ValueError(f"segment {k + 1} has no reference")
        docs = check_documents(self.documents, len(refs))
        index: dict[str, int] = {}
        words: list[list[str]] = []
        for doc, seg in zip(docs, refs, strict=True):
            j = index.setdefault(doc, len(index))
            if j == len(words):
                words.append([])
            words[j].extend(self.preprocessor.tokens(seg[0]))
        table = word_weights(words, self.weights)
        seg_weights = [table[index[doc]] for doc in docs]
        counts, totals = [], np.zeros((len(refs), self.max_order), dtype=np.float64)
        for k, seg in enumerate(refs):
            tokens = self.preprocessor.ngram_tokens(seg[0])
            orders = weighted_ngrams(tokens, seg_weights[k], self.max_order, self.ngram_rule)
            counts.append([grams for grams, _ in orders])
            totals[k] = [_total(grams, gram_w) for grams, gram_w in orders]
        return WeightedRefs(self._config(), counts, totals, seg_weights, len(words))

    def segment_stats(self, hyps: Sequence[str], prepared: Any) -> FloatArray:
        """``[matched_n, candidate_n, reference_n]`` per order n, weighted, per segment."""
        check_prepared_for(prepared, WeightedRefs, self._config(), hyps)
        out = np.zeros((len(hyps), self.n_stats), dtype=np.float64)
        memo = prepared.memo
        for k, text in enumerate(hyps):
            row = memo.get((k, text))
            if row is None:
                row = memo[(k, text)] = self._row(text, prepared, k)
            out[k] = row
        return out

    def _row(self, text: str, prepared: WeightedRefs, k: int) -> FloatArray:
        row = np.zeros(self.n_stats, dtype=np.float64)
        tokens = self.preprocessor.ngram_tokens(text)
        orders = weighted_ngrams(tokens, prepared.weights[k], self.max_order, self.ngram_rule)
        for n, ((grams, gram_w), ref) in enumerate(zip(orders, prepared.counts[k], strict=True)):
            get = ref.get
            if gram_w is None:
                matched = float(sum(min(c, get(g, 0)) for g, c in grams.items()))
            else:
                matched = sum(min(c, get(g, 0)) * gram_w[g] for g, c in grams.items())
            row[3 * n : 3 * n + 3] = (matched, _total(grams, gram_w), prepared.totals[k, n])
        return row

    def precision_recall(self, stats: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(P, R) in 0–1 of summed rows, (..., 3N) → (...); 0 where a total is 0."""
        arr = np.asarray(stats, dtype=np.float64)
        if arr.ndim == 0 or arr.shape[-1] != self.n_stats:
            raise ValueError(
                f"stats of shape {arr.shape}: weighted n-grams of order {self.max_order} "
                f"need rows of {self.n_stats} values"
            )
        matched = arr[..., 0::3].sum(axis=-1)
        hyp = arr[..., 1::3].sum(axis=-1)
        ref = arr[..., 2::3].sum(axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(hyp > 0, matched / hyp, 0.0)
            r = np.where(ref > 0, matched / ref, 0.0)
        return p, r

    def score_from_stats(self, stats: FloatArray) -> Any:
        """The metric's measure in percent; (..., 3N) → (...), a (3N,) row → a float."""
        p, r = self.precision_recall(stats)
        if self._measure == "p":
            out = p
        elif self._measure == "r":
            out = r
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                out = np.where(p + r > 0, 2 * p * r / (p + r), 0.0)
        out = 100.0 * np.asarray(out, dtype=np.float64)
        return float(out) if out.ndim == 0 else out

    def signature(self, refs: References) -> str:
        parts = self.preprocessor.signature_parts()
        docs = 1 if self.documents is None else len(set(self.documents))
        return format_signature(
            {
                "nrefs": 1,
                "case": parts["case"],
                "tok": parts["tok"],
                "bounds": parts["bounds"],
                "wt": self.weights,
                "order": self.max_order,
                "ngw": self.ngram_rule,
                "docs": docs,
                "log": "e",
            }
        )


class WNGramP(WeightedNgram):
    """Weighted n-gram precision (Babych and Hartley 2004's "Prec. (w)")."""

    info = facts_of("wngram-p").info
    _measure = "p"


class WNGramR(WeightedNgram):
    """Weighted n-gram recall (Babych and Hartley 2004's "Recall (w)")."""

    info = facts_of("wngram-r").info
    _measure = "r"


class WNGramF(WeightedNgram):
    """Weighted n-gram F-score, P and R weighted equally ("Fscore (w)")."""

    info = facts_of("wngram-f").info
    _measure = "f"
