"""IER (seed 001 Table 1) as sufficient statistics: rows [items not OK, items], summed."""

from __future__ import annotations

import numpy as np

from metrics.human import IER, ier_stats


def test_ier_is_the_share_of_bad_items_over_all_items_not_a_mean_of_sentences() -> None:
    stats = ier_stats([1, 0, 3], [2, 1, 4])  # 50 %, 0 %, 75 % per sentence
    assert stats.tolist() == [[1, 2], [0, 1], [3, 4]]
    score = IER.corpus_score(stats)
    assert score.score == 100 * 4 / 7  # not (50 + 0 + 75) / 3
    assert score.signature.startswith("judgments:3|items:judge|tok:13a")


def test_no_items_give_zero_not_a_division_by_zero() -> None:
    assert IER.corpus_score(np.zeros((0, 2))).score == 0.0
