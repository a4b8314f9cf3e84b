"""mt-metrics-eval's human-score files: written with None for unrated segments, the
system file read back, and a system line that is not its segments' mean refused; a
system file read alone gives its lines as the figures, written back the same."""

from __future__ import annotations

import math

import numpy as np
import pytest

from metrics.mtme import (
    check_system_scores,
    figures_sys_score_text,
    published_system_scores,
    read_system_scores,
    seg_score_text,
    sys_score_text,
    system_mean,
)
from metrics.segment_scores import read_segment_scores
from metrics.textfiles import SegmentFileError

SCORES = {"A": np.array([-1.0, np.nan, -5.5]), "B": np.array([0.0, -25.0, np.nan])}


def test_a_seg_score_writes_none_for_an_unrated_segment_and_reads_back() -> None:
    text = seg_score_text(SCORES)

    assert text == "A\t-1.0\nA\tNone\nA\t-5.5\nB\t0.0\nB\t-25.0\nB\tNone\n"
    back = read_segment_scores(text.encode(), layout="mtme", systems=["A", "B"], n_segments=3)
    assert seg_score_text(back) == text


def test_none_is_no_score_only_in_human_scores() -> None:
    with pytest.raises(SegmentFileError, match="line 2: score 'None' is not a number"):
        read_segment_scores(b"A 1\nA None\n", layout="wmt", systems=["A"], n_segments=2)


def test_a_sys_score_is_the_mean_of_the_rated_segments() -> None:
    assert sys_score_text(SCORES) == "A\t-3.25\nB\t-12.5\n"
    assert math.isnan(system_mean([math.nan, math.nan]))
    read = read_system_scores(b"A\t-3.25\nB None\n")
    assert read["A"] == (-3.25, 1)
    assert math.isnan(read["B"][0])


@pytest.mark.parametrize(
    "text, reason",
    [
        (b"A\t-3.25\nB\t-12.4\n", "sys.score line 2: system 'B': -12.4 is not the mean"),
        (b"A\t-3.25\nC\t0\n", "sys.score line 2: unknown system 'C'"),
        (b"A\t-3.25\n", "sys.score: no score for system 'B'"),
        (b"A\t-3.25\nA\t-3.25\n", "sys.score line 2: system 'A' has a score already (line 1)"),
        (b"A\t-3.25\tx\n", "sys.score line 1: 3 columns, expected 2 (system, score)"),
        (b"A\tnan\n", "sys.score line 1: score 'nan' is not a finite number"),
    ],
)
def test_a_sys_score_that_does_not_match_is_refused_with_its_line(text: bytes, reason: str) -> None:
    with pytest.raises(SegmentFileError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        check_system_scores(SCORES, read_system_scores(text))


def test_a_sys_score_read_alone_is_its_figures_in_the_systems_order() -> None:
    text = b"B\tNone\nA -3.6285714285714286\n"

    figures = published_system_scores(text, ["A", "B"])

    assert list(figures) == ["A", "B"]
    assert figures["A"] == -3.6285714285714286
    assert math.isnan(figures["B"])
    assert figures_sys_score_text(figures) == "A\t-3.6285714285714286\nB\tNone\n"


@pytest.mark.parametrize(
    "text, reason",
    [
        (b"A\t-3.25\nC\t0\n", "sys.score line 2: unknown system 'C'"),
        (b"A\t-3.25\n", "sys.score: no score for system 'B'"),
        (b"A\t1\nB\t2\nA\t3\n", "sys.score line 3: system 'A' has a score already (line 1)"),
        (b"A\t1\nB\n", "sys.score line 2: 1 columns, expected 2 (system, score)"),
        (b"A\t1\nB\t1e400\n", "sys.score line 2: score '1e400' is too large for a number"),
    ],
)
def test_a_sys_score_read_alone_is_refused_with_its_line(text: bytes, reason: str) -> None:
    with pytest.raises(SegmentFileError) as refused:
        published_system_scores(text, ["A", "B"])

    assert str(refused.value) == reason
