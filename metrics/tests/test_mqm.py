"""The MQM-style human figure (metrics/human.py): rows [penalty points, 1] per done
judgment, minor 1 and major 5 points, the corpus figure their mean (not a percentage)."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.human import MQM, mqm_stats


@pytest.mark.parametrize(
    "edits, majors, expected",
    [
        ([2, 1], [1, 0], [[6.0, 1.0], [1.0, 1.0]]),  # 5 + 1; 1
        ([0], [0], [[0.0, 1.0]]),  # a candidate left as it is
        ([1], [3], [[5.0, 1.0]]),  # never more majors than errors
        ([], [], np.zeros((0, 2))),
    ],
)
def test_rows_are_penalty_points(edits: list[int], majors: list[int], expected: object) -> None:
    assert mqm_stats(edits, majors).tolist() == np.asarray(expected).tolist()


def test_the_figure_is_the_mean_penalty_per_judgment() -> None:
    stats = mqm_stats([2, 1], [1, 0])
    assert MQM.corpus_score(stats).score == pytest.approx(3.5)
    samples = np.stack([stats.sum(axis=0), stats[:1].sum(axis=0)])
    assert np.asarray(MQM.score_from_stats(samples)).tolist() == [3.5, 6.0]  # vectorised
    assert MQM.score_from_stats(np.zeros(2)) == 0.0  # nothing judged
