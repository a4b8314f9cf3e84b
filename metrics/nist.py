"""NIST (Doddington 2002; seed 000 §2.1.4), identical to ``mteval-v13a.pl -c``.

    Info(e_1^m) := log2( ñ_{e_1^{m-1}} / ñ_{e_1^m} ),   ñ_e := Σ_{k,r} ñ_{e,k,r}
    NIST := lp_NIST · Σ_{m=1..5} (1/n̄_m) Σ_k Σ_e min(n_{e,k}, ñ_{e,k}) · Info(e)
    lp_NIST := exp(β · log² min(1, Ī/Ī*)),  β chosen so that lp = 0.5 at Ī/Ī* = 2/3

What mteval-v13a.pl does, and so do we:

* the information weights are a property of the *whole reference corpus*: counts over
  every reference of every segment; for unigrams the denominator is the total number of
  reference words (``compute_ngram_info``), computed as ``-log(ñ_e/ñ_prefix) / log 2``;
* matches are clipped by the max count over the segment's references, each matched
  n-gram contributing ``Info · min(n, ñ)`` (``score_segment``);
* the precision of order m divides by ``max(n̄_m, 1)``, so an order without hypothesis
  n-grams adds 0 (``nist_score``);
* the penalty uses the *average* reference length (``ref words / number of reference
  sets``), is 1 at ratio ≥ 1 and 0 at ratio ≤ 0, and ``β = −ln 0.5 / ln² 1.5``
  (``nist_length_penalty``; natural logs, which give the same value as seed 000's log2
  form since β and the squared log change base together).

mteval's quirk, reproduced by default (``mteval=True``, ``mteval:yes`` in the signature):
``compute_ngram_info`` tests the prefix string for truth (``$mgram ? … : …``), and in Perl
the string "0" is false, so a bigram whose first word is the token ``0`` (the "0 :" of
"0:4") takes its information from the total number of reference words instead of the
count of "0". ``mteval=False`` (``mteval:no``) is the definition as written (seed 000
§2.1.4): the prefix count for every n-gram. Only bigrams differ (a longer prefix such as
"0 0" is a true string).

mteval lowercases unless run with ``-c``; here ``lowercase=False`` is ``-c``. The
reference length rule can be changed (``ref_length``, seed 000 §3.3) and sentence
boundaries added (§3.4); the defaults are mteval's.

Statistics rows: ``[hyp_len, ref_len, info_1..N, total_1..N]`` — matched information
and hypothesis n-gram count per order — so corpus, sentence and bootstrap scores all
come from summed rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from metrics.facts import facts_of
from metrics.ngrams import (
    HypothesisMatches,
    ReferenceNgrams,
    check_options,
    check_prepared,
    index_references,
    match_hypotheses,
    reference_lengths,
    score_rows,
)
from metrics.stats import (
    FloatArray,
    Metric,
    References,
    format_signature,
    nrefs_label,
)
from metrics.tokenize import Preprocessor

MAX_NGRAM_ORDER = 5

#: mteval's ``nist_length_penalty``: the penalty is 0.5 when the hypothesis is 2/3 as long
#: as the reference (ratio_x = 1.5, score_x = 0.5).
BETA = -math.log(0.5) / math.log(1.5) / math.log(1.5)


@dataclass(frozen=True, eq=False)
class PreparedNIST:
    """Reference n-grams and their information weights ``info[m-1][id]``."""

    ngrams: ReferenceNgrams
    info: tuple[FloatArray, ...]


#: The token whose prefix test is false in mteval's Perl (module docstring).
PERL_FALSE_TOKEN = "0"  # noqa: S105 (a word token, not a secret)


def information_weights(ref: ReferenceNgrams, *, mteval: bool = True) -> tuple[FloatArray, ...]:
    """Info(e) for every reference n-gram, order by order (seed 000 §2.1.4).

    ``-log(ñ_e / ñ_prefix) / log 2`` as mteval computes it; the prefix of a unigram is
    the whole reference corpus (its number of words), and with ``mteval`` so is the
    prefix of a bigram whose first word is ``0`` (the module docstring says why).
    """
    weights: list[FloatArray] = []
    total = np.float64(ref.total_tokens)
    zero = ref.vocab.get(PERL_FALSE_TOKEN, -1)
    zero_word = int(ref.word_of_id[zero]) if mteval and zero >= 0 else -1
    for m in range(1, ref.max_order + 1):
        counts = ref.corpus_counts[m - 1].astype(np.float64)
        prefix: FloatArray | np.float64
        if m == 1:
            prefix = total
        else:
            prefix_ids = ref.prefix_ids(m)
            prefix = ref.corpus_counts[m - 2][prefix_ids].astype(np.float64)
            if m == 2 and zero_word >= 0:
                prefix = np.where(prefix_ids == zero_word, total, prefix)
        weights.append(-np.log(counts / prefix) / math.log(2))
    return tuple(weights)


def nist_from_stats(stats: FloatArray, *, max_ngram_order: int = MAX_NGRAM_ORDER) -> FloatArray:
    """NIST of each row of ``stats`` (shape (B, 2 + 2N)), vectorised (mteval's
    ``nist_score`` and ``nist_length_penalty``)."""
    stats = np.asarray(stats, dtype=np.float64)
    n = max_ngram_order
    hyp_len, ref_len = stats[:, 0], stats[:, 1]
    info = stats[:, 2 : 2 + n]
    total = stats[:, 2 + n : 2 + 2 * n]
    score = np.zeros(len(stats), dtype=np.float64)
    for m in range(n):
        score = score + info[:, m] / np.maximum(total[:, m], 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(ref_len > 0, hyp_len / ref_len, np.inf)
        log_ratio = np.log(np.where(ratio > 0, ratio, 1.0))
        penalty = np.where(
            ratio >= 1, 1.0, np.where(ratio <= 0, 0.0, np.exp(-BETA * log_ratio * log_ratio))
        )
    return score * penalty


class NIST(Metric):
    """Corpus NIST (raw, not percent), mteval-v13a's with ``-c`` by default."""

    info = facts_of("nist").info

    def __init__(
        self,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        sentence_boundaries: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        ref_length: str = "average",
        mteval: bool = True,
    ) -> None:
        check_options(max_ngram_order, ref_length)
        self.mteval = mteval
        self.preprocessor = Preprocessor(
            tokenize=tokenize, lowercase=lowercase, sentence_boundaries=sentence_boundaries
        )
        self.max_ngram_order = max_ngram_order
        self.ref_length = ref_length

    @property
    def n_stats(self) -> int:
        """Width of a statistics row: lengths, then information and total per order."""
        return 2 + 2 * self.max_ngram_order

    def prepare_references(self, refs: References) -> PreparedNIST:
        """Reference n-grams, clipping counts, lengths and information weights, once."""
        ngrams = index_references(refs, self.preprocessor, self.max_ngram_order)
        return PreparedNIST(ngrams, information_weights(ngrams, mteval=self.mteval))

    def segment_stats(self, hyps: Sequence[str], prepared: Any) -> FloatArray:
        """``[hyp_len, ref_len, info_1..N, total_1..N]`` per segment."""
        if not isinstance(prepared, PreparedNIST):
            raise ValueError(
                f"prepared={type(prepared).__name__}: pass what NIST.prepare_references returned"
            )
        ref = check_prepared(prepared.ngrams, self.preprocessor, self.max_ngram_order)
        return self.stats_of(match_hypotheses(hyps, ref), prepared.info)

    def stats_of(self, matches: HypothesisMatches, info: Sequence[FloatArray]) -> FloatArray:
        """The rows of matched hypotheses, ``info`` the references' information weights."""
        n = self.max_ngram_order
        stats = np.empty((len(matches.lengths), self.n_stats), dtype=np.float64)
        stats[:, 0] = matches.lengths
        stats[:, 1] = reference_lengths(matches.lengths, matches.ref, self.ref_length)
        stats[:, 2 : 2 + n] = matches.clipped_sums(info, orders=n)
        stats[:, 2 + n :] = matches.totals[:, :n]
        return stats

    def score_from_stats(self, stats: FloatArray) -> Any:
        """NIST of summed statistics; (..., k) → (...), a (k,) row → a float."""

        def rows(arr: FloatArray) -> FloatArray:
            return nist_from_stats(arr, max_ngram_order=self.max_ngram_order)

        return score_rows(stats, self.n_stats, f"NIST of order {self.max_ngram_order}", rows)

    def signature(self, refs: References) -> str:
        parts = self.preprocessor.signature_parts()
        sig: dict[str, object] = {
            "nrefs": nrefs_label(refs),
            "case": parts["case"],
            "tok": parts["tok"],
            "reflen": self.ref_length,
            "bounds": parts["bounds"],
            "mteval": "yes" if self.mteval else "no",
        }
        if self.max_ngram_order != MAX_NGRAM_ORDER:
            sig["order"] = self.max_ngram_order
        return format_signature(sig)
