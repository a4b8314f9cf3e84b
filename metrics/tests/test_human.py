"""IER (seed 001 Table 1) as sufficient statistics: rows [items not OK, items], summed."""

from __future__ import annotations

import numpy as np
import pytest

from metrics import human
from metrics.human import IER, ier_stats


def test_ier_is_the_share_of_bad_items_over_all_items_not_a_mean_of_sentences() -> None:
    stats = ier_stats([1, 0, 3], [2, 1, 4])  # 50 %, 0 %, 75 % per sentence
    assert stats.tolist() == [[1, 2], [0, 1], [3, 4]]
    score = IER.corpus_score(stats)
    assert score.score == 100 * 4 / 7  # not (50 + 0 + 75) / 3
    assert score.signature.startswith("judgments:3|items:judge|tok:13a")


def test_no_items_give_zero_not_a_division_by_zero() -> None:
    assert IER.corpus_score(np.zeros((0, 2))).score == 0.0


def test_candidate_mean_rows_sum_to_the_mean_over_candidates_of_their_means() -> None:
    """ESA's rule (WMT): a candidate's judges are averaged first, then its system's
    candidates; a mean over judgments would weigh a twice-judged candidate double."""
    rows = human.candidate_mean_stats(["a", "a", "b", "c"], [80, 70, 60, 100])
    assert rows.sum(axis=0) == pytest.approx([75 + 60 + 100, 3])
    assert human.ESA.corpus_score(rows).score == pytest.approx((75 + 60 + 100) / 3)
    assert human.candidate_mean_stats([], []).shape == (0, 2)
    with pytest.raises(ValueError, match="2 candidates for 1 values"):
        human.candidate_mean_stats(["a", "b"], [1])
