"""BLEU and BLEU-S (seed 000 §2.1.3; seed 003), identical to sacreBLEU 2.6 by default.

    BLEU := lp · gm_m { (s_m + Σ_k Σ_e min(n_{e,k}, ñ_{e,k})) / (s_m + n̄_m) },
    lp   := min(1, exp(1 − Ī*/Ī))

with clipping counts ``ñ_{e,k} = max_r ñ_{e,r,k}`` (see :mod:`metrics.ngrams`), the
geometric mean over m = 1…4 and the reference length Ī* chosen per segment (§3.3).
With the defaults — 13a tokenization, mixed case, ``exp`` smoothing, the closest
reference length, order 4 — scores and statistics equal sacreBLEU's ``corpus_bleu``;
every other sacreBLEU smoothing (``none``, ``floor``, ``add-k``) and ``effective_order``
behave as in ``sacrebleu.metrics.bleu.BLEU.compute_bleu``, rule for rule.

BLEU-S (Lin and Och 2004, as seed 000 §2.1.3 states it): ``s_1 := 1``, ``s_{m>1} := 0``,
i.e. one is added to the numerator and the denominator of the unigram precision only.
It is ``smooth_method="bleu-s"``, or the :class:`BLEUS` metric (name ``bleu_s``).

Statistics rows are sacreBLEU's: ``[hyp_len, ref_len, correct_1..N, total_1..N]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from metrics.bleu_nltk import NLTK_METHODS, counted_order, nltk_bleu
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
    MetricInfo,
    References,
    format_signature,
    nrefs_label,
)
from metrics.tokenize import Preprocessor

MAX_NGRAM_ORDER = 4

#: sacreBLEU's defaults (Chen and Cherry 2014: floor 0.1, add-k 1); ``None``: no value.
#: ``nltk0`` … ``nltk7``: NLTK's smoothing methods, as NLTK computes BLEU
#: (:mod:`metrics.bleu_nltk`).
SMOOTH_DEFAULTS: dict[str, float | None] = {
    "none": None,
    "floor": 0.1,
    "add-k": 1.0,
    "exp": None,
    "bleu-s": None,
    **dict.fromkeys(NLTK_METHODS),
}

#: sacreBLEU's ``my_log(0)``: a finite floor, so a zero precision gives exp(−huge) = 0.
LOG_ZERO = -9999999999.0


def bleu_from_stats(
    stats: FloatArray,
    *,
    max_ngram_order: int = MAX_NGRAM_ORDER,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
    weights: Sequence[float] | None = None,
) -> FloatArray:
    """BLEU (percent) of each row of ``stats`` (shape (B, 2 + 2N)), vectorised.

    Follows ``sacrebleu.BLEU.compute_bleu`` step for step, on whole columns:

    * the brevity penalty is ``exp(1 − ref_len/hyp_len)`` when the hypothesis is shorter,
      0 for an empty one (seed 000 §2.1.3 ``lp_BLEU``);
    * no correct n-gram of any order at all → 0 (checked before ``add-k`` adds its k);
    * orders are processed from 1 up and stop at the first order with no hypothesis
      n-grams; ``effective_order`` averages over the processed orders only;
    * a zero count gets ``exp`` (mteval's 1/2^k, k counting zero orders so far),
      ``floor`` (smooth_value/total) or nothing (log 0 := −9999999999, as sacreBLEU);
    * the log precisions are summed left to right, as Python's ``sum`` does;
    * ``weights`` (one per order, NLTK's): the log precisions weighed by them instead
      of averaged (with ``effective_order``, the weights of the orders used, rescaled
      to the sum of all: the mean over them, for uniform weights).
    """
    stats = np.asarray(stats, dtype=np.float64)
    n = max_ngram_order
    value = SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value
    sys_len, ref_len = stats[:, 0], stats[:, 1]
    correct = stats[:, 2 : 2 + n].copy()
    total = stats[:, 2 + n : 2 + 2 * n].copy()
    if smooth_method == "bleu-s":
        correct[:, 0] += 1.0
        total[:, 0] += 1.0
    any_correct = (correct != 0).any(axis=1)
    if smooth_method == "add-k" and value is not None:
        correct[:, 1:] += value
        total[:, 1:] += value

    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(
            sys_len < ref_len,
            np.where(sys_len > 0, np.exp(1.0 - ref_len / sys_len), 0.0),
            1.0,
        )
        active = np.cumprod(total != 0, axis=1).astype(np.bool_)
        zero = (correct == 0) & active
        precision = 100.0 * correct / total
        if smooth_method == "exp":
            factor = 2.0 ** np.cumsum(zero, axis=1)
            precision = np.where(zero, 100.0 / (factor * total), precision)
        elif smooth_method == "floor" and value is not None:
            precision = np.where(zero, 100.0 * value / total, precision)
        else:
            precision = np.where(zero, 0.0, precision)
        precision = np.where(active, precision, 0.0)
        logs = np.where(precision > 0, np.log(precision), LOG_ZERO)

    n_active = active.sum(axis=1)
    eff = np.where(n_active > 0, n_active, n) if effective_order else np.full(len(stats), n)
    if weights is not None:
        return np.where(any_correct, bp * np.exp(_weighted_logs(logs, eff, weights)), 0.0)
    acc = np.zeros(len(stats), dtype=np.float64)
    for m in range(n):
        acc = acc + np.where(m < eff, logs[:, m], 0.0)
    score = bp * np.exp(acc / eff)
    return np.where(any_correct, score, 0.0)


def _weighted_logs(logs: FloatArray, eff: Any, weights: Sequence[float]) -> FloatArray:
    """``Σ w_m · log p_m`` over the first ``eff`` orders of each row, the weights of those
    orders rescaled to the sum of all where ``eff`` leaves some out."""
    w = np.asarray(weights, dtype=np.float64)
    used = np.arange(len(w))[None, :] < np.asarray(eff)[:, None]
    share = np.where(used, w[None, :], 0.0)
    kept = share.sum(axis=1, keepdims=True)
    share = share * np.where(kept > 0, w.sum() / np.where(kept > 0, kept, 1.0), 1.0)
    out: FloatArray = (share * logs).sum(axis=1)
    return out


class BLEU(Metric):
    """Corpus BLEU in percent, sacreBLEU's by default (see the module docstring)."""

    info = facts_of("bleu").info

    def __init__(
        self,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        sentence_boundaries: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        ref_length: str = "closest",
        weights: Sequence[float] | None = None,
    ) -> None:
        if weights is not None:
            max_ngram_order = _check_weights(weights, max_ngram_order)
        if smooth_method not in SMOOTH_DEFAULTS:
            raise ValueError(
                f"smooth_method={smooth_method!r}: choose one of {', '.join(SMOOTH_DEFAULTS)}"
            )
        if smooth_value is not None:
            if SMOOTH_DEFAULTS[smooth_method] is None:
                raise ValueError(
                    f"smooth_value={smooth_value!r} has no effect with "
                    f"smooth_method={smooth_method!r} (only floor and add-k take a value)"
                )
            if smooth_value < 0:
                raise ValueError(f"smooth_value={smooth_value!r} must not be negative")
        check_options(max_ngram_order, ref_length)
        self.preprocessor = Preprocessor(
            tokenize=tokenize, lowercase=lowercase, sentence_boundaries=sentence_boundaries
        )
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        self.ref_length = ref_length
        self.weights = None if weights is None else tuple(float(w) for w in weights)
        self.nltk = smooth_method in NLTK_METHODS
        #: The orders a row counts: NLTK's method 5 reads 5-grams whatever the weights.
        self.counted_order = (
            counted_order(smooth_method, max_ngram_order) if self.nltk else max_ngram_order
        )

    @property
    def n_stats(self) -> int:
        """Width of a statistics row: lengths, then correct and total per order."""
        return 2 + 2 * self.counted_order

    def prepare_references(self, refs: References) -> ReferenceNgrams:
        """Reference n-gram clipping counts and lengths, once for every system (§2.1.3)."""
        return index_references(refs, self.preprocessor, self.counted_order)

    def segment_stats(self, hyps: Sequence[str], prepared: Any) -> FloatArray:
        """``[hyp_len, ref_len, correct_1..N, total_1..N]`` per segment."""
        ref = check_prepared(prepared, self.preprocessor, self.counted_order)
        return self.stats_of(match_hypotheses(hyps, ref))

    def stats_of(self, matches: HypothesisMatches) -> FloatArray:
        """The rows of matched hypotheses (matched up to this order or beyond: the orders
        above this metric's are not read). NLTK's totals are at least 1 a segment."""
        n = self.counted_order
        stats = np.empty((len(matches.lengths), self.n_stats), dtype=np.float64)
        stats[:, 0] = matches.lengths
        stats[:, 1] = reference_lengths(matches.lengths, matches.ref, self.ref_length)
        stats[:, 2 : 2 + n] = matches.clipped_sums(orders=n)
        stats[:, 2 + n :] = matches.totals[:, :n]
        if self.nltk:
            np.maximum(stats[:, 2 + n :], 1.0, out=stats[:, 2 + n :])
        return stats

    def _scores(self, stats: FloatArray, effective_order: bool) -> Any:
        def rows(arr: FloatArray) -> FloatArray:
            if self.nltk:
                weights = self.weights or (1 / self.max_ngram_order,) * self.max_ngram_order
                return np.array([nltk_bleu(row, weights, self.smooth_method) for row in arr])
            return bleu_from_stats(
                arr,
                max_ngram_order=self.max_ngram_order,
                smooth_method=self.smooth_method,
                smooth_value=self.smooth_value,
                effective_order=effective_order,
                weights=self.weights,
            )

        return score_rows(stats, self.n_stats, f"BLEU of order {self.max_ngram_order}", rows)

    def score_from_stats(self, stats: FloatArray) -> Any:
        """BLEU of summed statistics; (..., k) → (...), a (k,) row → a float."""
        return self._scores(stats, self.effective_order)

    def sentence_score_from_stats(self, stats: FloatArray) -> Any:
        """Sentence BLEU as ``sacrebleu.sentence_bleu``: always with effective order; with
        NLTK's methods as NLTK's ``sentence_bleu``, which has none."""
        return self._scores(stats, not self.nltk)

    def signature(self, refs: References) -> str:
        parts = self.preprocessor.signature_parts()
        smooth = self.smooth_method
        default = SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = default if self.smooth_value is None else self.smooth_value
            smooth += f"[{value:.2f}]"
        sig: dict[str, object] = {
            "nrefs": nrefs_label(refs),
            "case": parts["case"],
            "eff": "yes" if self.effective_order else "no",
            "tok": parts["tok"],
            "smooth": smooth,
            "reflen": self.ref_length,
            "bounds": parts["bounds"],
        }
        if self.max_ngram_order != MAX_NGRAM_ORDER:
            sig["order"] = self.max_ngram_order
        if self.weights is not None:
            sig["weights"] = ",".join(f"{w:g}" for w in self.weights)
        return format_signature(sig)


def _check_weights(weights: Sequence[float], max_ngram_order: int) -> int:
    """The n-gram order of ``weights`` (one weight per order, NLTK's), or a ValueError."""
    if len(weights) == 0 or any(not 0 <= w < float("inf") for w in weights):
        raise ValueError(f"weights={tuple(weights)!r}: one finite, non-negative weight per order")
    if max_ngram_order not in (MAX_NGRAM_ORDER, len(weights)):
        raise ValueError(f"weights of {len(weights)} orders but max_ngram_order={max_ngram_order}")
    return len(weights)


class BLEUS(BLEU):
    """BLEU-S (Lin and Och 2004; seed 000 §2.1.3): s_1 := 1, s_{m>1} := 0."""

    info = MetricInfo("bleu_s", "BLEU-S", higher_is_better=True, family="ngram")

    def __init__(
        self,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        sentence_boundaries: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        ref_length: str = "closest",
    ) -> None:
        super().__init__(
            tokenize=tokenize,
            lowercase=lowercase,
            sentence_boundaries=sentence_boundaries,
            smooth_method="bleu-s",
            max_ngram_order=max_ngram_order,
            effective_order=effective_order,
            ref_length=ref_length,
        )
