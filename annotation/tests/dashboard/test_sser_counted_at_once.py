"""SSER's clusters count every judgment's values at once (issue 39): each row's SSER
error and each system's segment means of its z-scores are those counted row by row, to
the bit (unscored judgments, a system no judge saw and rows of a system not ranked
included)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from annotation.dashboard.judges import normalized_sser, sser_errors
from annotation.dashboard.verdicts import _segment_means
from annotation.statistics import JudgmentRow
from annotation.tests.factories import judgment_row
from metrics.ranksum import segment_means

N_SEGMENTS = 30


def _rows(seed: int) -> list[JudgmentRow]:
    rng = random.Random(seed)
    return [
        judgment_row(
            f"s{rng.randint(0, 4)}",
            rng.randint(0, N_SEGMENTS - 1),
            rng.choice(["ann", "bob", "cy"]),
            sser=None if rng.random() < 0.1 else rng.randint(0, 10),
        )
        for _ in range(400)
    ]


@pytest.mark.parametrize("seed", range(3))
def test_each_rows_sser_error_is_its_own(seed: int) -> None:
    rows = _rows(seed)
    one_by_one = [math.nan if r.sser_error is None else r.sser_error for r in rows]
    assert np.asarray(one_by_one).tobytes() == sser_errors(rows).tobytes()


@pytest.mark.parametrize("seed", range(3))
def test_each_systems_segment_means_are_those_of_its_rows_alone(seed: int) -> None:
    rows = _rows(seed)
    z = normalized_sser(rows)
    ranked = ["s0", "s1", "s2", "s3", "unseen"]  # s4's rows are not ranked
    found = _segment_means(rows, z, ranked, N_SEGMENTS)
    assert list(found) == ranked
    for system in ranked:
        mine = [(r.segment, v) for r, v in zip(rows, z, strict=True) if r.system == system]
        segments = [k for k, v in mine if not math.isnan(v)]
        values = [v for _, v in mine if not math.isnan(v)]
        alone = segment_means(segments, values, N_SEGMENTS)
        assert found[system].tobytes() == alone.tobytes(), system
    assert np.isnan(found["unseen"]).all()
