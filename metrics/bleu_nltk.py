"""BLEU as NLTK's ``sentence_bleu`` and ``corpus_bleu`` compute it, with their smoothing
methods 0–7 (Chen and Cherry 2014, ``SmoothingFunction().method0`` … ``method7``) and
any n-gram weights (issue 40, point 2): ``smooth_method="nltk0"`` … ``"nltk7"`` of
:class:`metrics.bleu.BLEU`.

NLTK differs from sacreBLEU (the other methods of :mod:`metrics.bleu`) in more than the
smoothing: a segment's n-gram total of an order is at least 1 (``max(1, count)``, so a
hypothesis shorter than *n* has a precision of 0 / 1 there, which the method smooths),
every order is used (no effective order, none stops the others), the weighted sum of
logs skips precisions that are still 0, and the score is a fraction (here in percent,
as every BLEU). The statistics rows are :mod:`metrics.bleu`'s with those totals; with
``nltk5`` and ``nltk7`` they count 5-grams too, as NLTK's method 5 reads the 5-gram
precision whatever the weights (its "n + 1" of the last order).

Each row is computed as NLTK does it, with exact fractions where NLTK has them, so a
sentence's score equals ``sentence_bleu``'s to the last bit or nearly. A corpus score
is that of the summed rows, as ``corpus_bleu``'s are; where NLTK's method 5 and 6 read
the *last* sentence of the corpus (its 5-grams, its length), ours read the corpus's.
Method 6 needs three orders and a trigram match: without one NLTK stops with an
``AssertionError``; here the score is undefined (NaN), and fewer than three orders is
refused when the metric is made.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from fractions import Fraction

NLTK_METHODS = tuple(f"nltk{k}" for k in range(8))
#: NLTK's ``SmoothingFunction()`` defaults: epsilon of method 1, alpha of method 6, k of 4.
EPSILON = 0.1
ALPHA = 5
K = 5
#: The order NLTK's method 5 reads beyond the weights'.
METHOD5_ORDER = 5

Precision = Fraction | float


def counted_order(method: str, order: int) -> int:
    """How many n-gram orders a row counts for ``order`` weights with ``method``."""
    if method in ("nltk5", "nltk7"):
        return max(order, METHOD5_ORDER)
    if method == "nltk6" and order < 3:
        raise ValueError(f"smooth_method='nltk6' needs at least 3 n-gram orders, not {order}")
    return order


def _method4(p: list[Precision], totals: Sequence[int], hyp_len: int) -> list[Precision]:
    """Zero precisions get ``1 / (2^k · K / ln(len)) / total``, ``k`` counting them."""
    k = 1
    for i, p_i in enumerate(p):
        if p_i == 0 and hyp_len > 1:
            numerator = 1 / (2**k * K / math.log(hyp_len))
            p[i] = numerator / totals[i]
            k += 1
    return p


def _method5(p: list[Precision], fifth: Fraction) -> list[Precision]:
    """Each precision the mean of its own and its neighbours' (the next one as it was)."""
    following = [*p, fifth]
    before: Precision = p[0] + 1
    for i, p_i in enumerate(p):
        p[i] = (before + p_i + following[i + 1]) / 3
        before = p[i]
    return p


def _method6(p: list[Precision], correct: Sequence[int], hyp_len: int) -> list[Precision] | None:
    """From the third order on, the precision interpolated with the one the two before
    predict (Gao and He 2013); None without a trigram match."""
    if not p[2]:
        return None
    for i in range(2, len(p)):
        prior = 0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
        p[i] = (correct[i] + ALPHA * prior) / (max(0, hyp_len - i) + ALPHA)
    return p


def _smoothed(
    method: int, p: list[Precision], correct: Sequence[int], totals: Sequence[int], hyp_len: int
) -> list[Precision] | None:
    """The precisions after NLTK's ``SmoothingFunction().method<method>``."""
    n = len(p)
    if method == 0:
        return [p_i if p_i != 0 else sys.float_info.min for p_i in p]
    if method == 1:
        return [p_i if p_i != 0 else EPSILON / totals[i] for i, p_i in enumerate(p)]
    if method == 2:
        return [p[0]] + [Fraction(correct[i] + 1, totals[i] + 1) for i in range(1, n)]
    if method == 3:
        k = 1
        for i, p_i in enumerate(p):
            if p_i == 0:
                p[i] = 1 / (2**k * totals[i])
                k += 1
        return p
    if method == 6:
        return _method6(p, correct, hyp_len)
    if method in (4, 7):
        p = _method4(p, totals, hyp_len)
    if method in (5, 7):
        fifth = Fraction(correct[METHOD5_ORDER - 1], totals[METHOD5_ORDER - 1])
        p = _method5(p, fifth)
    return p


def nltk_bleu(row: Sequence[float], weights: Sequence[float], method: str) -> float:
    """BLEU in percent of one statistics row ``[hyp_len, ref_len, correct_1..K,
    total_1..K]`` (totals at least 1 per segment) with NLTK's ``method``."""
    orders = (len(row) - 2) // 2
    hyp_len, ref_len = int(row[0]), int(row[1])
    correct = [int(x) for x in row[2 : 2 + orders]]
    totals = [int(x) for x in row[2 + orders :]]
    if correct[0] == 0:
        return 0.0
    if hyp_len > ref_len:
        penalty = 1.0
    elif hyp_len == 0:
        penalty = 0.0
    else:
        penalty = math.exp(1 - ref_len / hyp_len)
    n = len(weights)
    p: list[Precision] = [Fraction(correct[i], totals[i]) for i in range(n)]
    smoothed = _smoothed(NLTK_METHODS.index(method), p, correct, totals, hyp_len)
    if smoothed is None:
        return math.nan
    terms = (w * math.log(p_i) for w, p_i in zip(weights, smoothed, strict=True) if p_i > 0)
    return 100.0 * penalty * math.exp(math.fsum(terms))
