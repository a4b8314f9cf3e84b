"""Segment scores computed elsewhere, read from a file: both layouts, each refusal with its
line and reason, the names a metric may take, and the figure (the mean) the paired
bootstrap resamples."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from metrics.segment_scores import (
    ERR_OUT_OF_RANGE,
    SCORE_LIMIT,
    check_metric_name,
    check_scores,
    mean_from_stats,
    mean_rows,
    read_segment_scores,
    segment_scores_tsv,
)
from metrics.significance import bootstrap_indices, paired_bootstrap
from metrics.textfiles import SegmentFileError

SYSTEMS = ["sys A", "B"]
N = 3


def read(text: str, layout: str = "tsv") -> dict[str, list[float]]:
    found = read_segment_scores(
        text.encode(), layout=layout, systems=SYSTEMS, n_segments=N, filename="s.tsv"
    )
    return {system: values.tolist() for system, values in found.items()}


def refusal(text: str | bytes, layout: str = "tsv") -> tuple[int | None, str]:
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(SegmentFileError) as refused:
        read_segment_scores(data, layout=layout, systems=SYSTEMS, n_segments=N, filename="s.tsv")
    return refused.value.line, refused.value.reason


EXPECTED = {"sys A": [0.5, 0.25, -1.0], "B": [0.75, 1e-3, 2.0]}


def test_tsv_reads_system_segment_score_in_any_order_with_or_without_a_header() -> None:
    rows = "B\t2\t1e-3\nsys A\t1\t0.5\nsys A\t3\t-1\nB\t1\t.75\nsys A\t2\t0.25\nB\t3\t+2.0\n"

    assert read(rows) == EXPECTED
    assert read("System\tSegment\tScore\n" + rows) == EXPECTED
    assert read(rows + "\n\n") == EXPECTED  # blank lines end the file


def test_scores_written_as_tsv_are_read_back_to_the_same_floats() -> None:
    scores = {"sys A": [0.1 + 0.2, -1e-7, 2.0 / 3], "B": [1e12 / 3, -0.0, 5e-300]}

    text = segment_scores_tsv(scores)

    assert text.splitlines()[:2] == ["system\tsegment\tscore", "sys A\t1\t0.30000000000000004"]
    assert read(text) == scores
    cut = re.escape("system 'a\\tb': a name a tsv line cannot hold")
    with pytest.raises(ValueError, match=cut):
        segment_scores_tsv({"a\tb": [1.0]})


def test_wmt_reads_each_systems_block_in_segment_order_tab_or_blanks_between() -> None:
    """mt-metrics-eval's ``.seg.score``: SYSTEM SCORE per line, a block per system; a line's
    segment is the count of its system's lines before it (its reader's rule)."""
    text = "sys A\t0.5\nsys A\t0.25\nsys A\t-1\nB   0.75\nB 1e-3\nB\t2\n"
    assert read(text, "wmt") == EXPECTED
    interleaved = "B 0.75\nsys A\t0.5\nB 1e-3\nsys A\t0.25\nB 2\nsys A\t-1\n"
    assert read(interleaved, "wmt") == EXPECTED


def test_utf8_bom_and_crlf_line_ends_are_read_as_every_text_file_is() -> None:
    lines = [
        "sys A\t1\t0.5",
        "sys A\t2\t0.25",
        "sys A\t3\t-1",
        "B\t1\t.75",
        "B\t2\t1e-3",
        "B\t3\t2",
    ]
    text = "\ufeff" + "\r\n".join(lines) + "\r\n"
    assert read(text) == EXPECTED


GOOD_B = "B\t1\t1\nB\t2\t1\nB\t3\t1\n"
GOOD_A = "sys A\t1\t1\nsys A\t2\t1\nsys A\t3\t1\n"

TSV_REFUSALS = [
    ("", 1, "the file is empty: no score to import"),
    ("\n\n", 1, "the file is empty: no score to import"),
    (
        GOOD_A + "C\t1\t0.5\n",
        4,
        "unknown system 'C' (the corpus's systems: 'sys A', 'B')",
    ),
    (
        GOOD_A + "B\t1\t1\nB\t2\n",
        5,
        "2 columns, expected 3 (system, segment, score) separated by tabs",
    ),
    (GOOD_A + "B 1 1\n", 4, "1 column, expected 3 (system, segment, score) separated by tabs"),
    (
        GOOD_A + "B\t1\t1\t0\n",
        4,
        "4 columns, expected 3 (system, segment, score) separated by tabs",
    ),
    (GOOD_A + "B\tone\t1\n", 4, "segment 'one' is not a whole number (1 to 3)"),
    (GOOD_A + "B\t-1\t1\n", 4, "segment '-1' is not a whole number (1 to 3)"),
    (GOOD_A + "B\t0\t1\n", 4, "segment 0 is out of range: the corpus has 3 sentences (1 to 3)"),
    (GOOD_A + "B\t4\t1\n", 4, "segment 4 is out of range: the corpus has 3 sentences (1 to 3)"),
    (GOOD_A + "B\t1\t1\nB\t1\t2\n", 5, "system 'B' has a score for segment 1 already (line 4)"),
    (GOOD_A + "B\t1\tgood\n", 4, "score 'good' is not a number"),
    (GOOD_A + "B\t1\tNone\n", 4, "score 'None' is not a number"),
    (GOOD_A + "B\t1\t1_000\n", 4, "score '1_000' is not a number"),
    (GOOD_A + "B\t1\t0,5\n", 4, "score '0,5' is not a number"),
    (GOOD_A + "B\t1\t١٢\n", 4, "score '١٢' is not a number"),  # Arabic-Indic 12: issue 36
    (GOOD_A + "B\t1\t０.５\n", 4, "score '０.５' is not a number"),  # full-width 0.5
    (GOOD_A + "B\t1\tnan\n", 4, "score 'nan' is not a finite number"),
    (GOOD_A + "B\t1\t-Infinity\n", 4, "score '-Infinity' is not a finite number"),
    (GOOD_A + "B\t1\t1e999\n", 4, "score '1e999' is too large for a number"),
    (GOOD_A + "B\t1\t1e308\n", 4, f"score '1e308' {ERR_OUT_OF_RANGE}"),
    (GOOD_A + "B\t1\t-1000000000001\n", 4, f"score '-1000000000001' {ERR_OUT_OF_RANGE}"),
    (GOOD_A + "\nB\t1\t1\n", 4, "empty line (one score per line)"),
    (
        GOOD_A + "B\t1\t1\nB\t3\t1\n",
        None,
        "system 'B' has no score for segment 2 (the corpus has 3 sentences)",
    ),
    (GOOD_A, None, "no score for system 'B' (every system of the corpus needs one per sentence)"),
]


@pytest.mark.parametrize("text, line, reason", TSV_REFUSALS)
def test_a_tsv_file_that_does_not_match_is_refused_with_its_line_and_reason(
    text: str, line: int | None, reason: str
) -> None:
    assert refusal(text) == (line, reason)


WMT_A = "sys A\t1\nsys A\t2\nsys A\t3\n"  # a name with a blank needs the tab
WMT_REFUSALS = [
    ("", 1, "the file is empty: no score to import"),
    (WMT_A + "C\t0.5\n", 4, "unknown system 'C' (the corpus's systems: 'sys A', 'B')"),
    (WMT_A + "B 1 1\n", 4, "3 columns, expected 2 (system, score) separated by a tab or blanks"),
    (WMT_A + "B\n", 4, "1 column, expected 2 (system, score) separated by a tab or blanks"),
    (
        WMT_A + "B\t1\nB\t1\nB\t1\nB\t1\n",
        7,
        "system 'B' has a score for more than the corpus's 3 sentences",
    ),
    (WMT_A + "B\tNone\n", 4, "score 'None' is not a number"),
    (WMT_A + "B\t٠.٥\n", 4, "score '٠.٥' is not a number"),
    (WMT_A + "B\tinf\n", 4, "score 'inf' is not a finite number"),
    (WMT_A + "B\t1e308\nB\t1e308\nB\t1e308\n", 4, f"score '1e308' {ERR_OUT_OF_RANGE}"),
    (
        WMT_A + "B 1\nB 2\n",
        None,
        "system 'B' has no score for segment 3 (the corpus has 3 sentences)",
    ),
]


@pytest.mark.parametrize("text, line, reason", WMT_REFUSALS)
def test_a_wmt_file_that_does_not_match_is_refused_with_its_line_and_reason(
    text: str, line: int | None, reason: str
) -> None:
    assert refusal(text, "wmt") == (line, reason)


def test_a_refusal_reads_file_line_reason_and_the_end_of_the_file_without_a_line() -> None:
    with pytest.raises(SegmentFileError) as refused:
        read_segment_scores(
            b"B\t1\tx\n", layout="tsv", systems=["B"], n_segments=1, filename="c.tsv"
        )
    assert str(refused.value) == "c.tsv line 1: score 'x' is not a number"
    with pytest.raises(SegmentFileError) as missing:
        read_segment_scores(
            b"B\t1\t1\n", layout="tsv", systems=["B"], n_segments=2, filename="c.tsv"
        )
    assert (
        str(missing.value)
        == "c.tsv: system 'B' has no score for segment 2 (the corpus has 2 sentences)"
    )


def test_invalid_utf8_is_refused_with_its_line() -> None:
    assert refusal(GOOD_A.encode() + b"B\t1\t\xff\n") == (
        4,
        "invalid UTF-8 (byte 0xff at offset 34)",
    )


def test_many_missing_segments_are_counted_not_listed() -> None:
    with pytest.raises(SegmentFileError) as refused:
        read_segment_scores(b"B\t1\t1\n", layout="tsv", systems=["B"], n_segments=13)
    assert refused.value.reason == (
        "system 'B' has no score for segments 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2 more "
        "(the corpus has 13 sentences)"
    )


def test_an_unknown_layout_is_a_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="layout='csv': choose one of tsv, wmt"):
        read_segment_scores(b"", layout="csv", systems=SYSTEMS, n_segments=N)


@pytest.mark.parametrize("name", ["COMET-22", "xCOMET-XL", "MetricX-23", "GEMBA-MQM", "c2.1+qe"])
def test_metric_names_as_people_write_them_are_accepted(name: str) -> None:
    check_metric_name(name)


NAME_REFUSALS = [
    ("", "is not a metric name"),
    ("COMET 22", "is not a metric name"),
    ("COMET_22", "is not a metric name"),
    ("-comet", "is not a metric name"),
    ("22", "is not a metric name"),
    ("a|b", "is not a metric name"),
    ("<b>x</b>", "is not a metric name"),
    ("x" * 51, "is not a metric name"),
    ("bleu", "is taken by a metric evaltool computes"),
    ("BLEU", "is taken by a metric evaltool computes"),
    ("chrF++", "is taken by a metric evaltool computes"),
    ("AS-WER", "is taken by a metric evaltool computes"),
    ("sser", "is taken by a metric evaltool computes"),
    ("System", "is taken by a metric evaltool computes"),
]


@pytest.mark.parametrize("name, reason", NAME_REFUSALS)
def test_a_name_that_is_not_a_metric_name_or_a_built_in_ones_is_refused(
    name: str, reason: str
) -> None:
    with pytest.raises(ValueError, match=reason):
        check_metric_name(name)


def test_a_name_taken_in_another_case_is_refused_naming_the_one_taken() -> None:
    with pytest.raises(ValueError, match="named 'COMET' already"):
        check_metric_name("comet", ["MetricX", "COMET"])
    check_metric_name("comet-da", ["COMET"])


def test_scores_from_a_program_follow_the_files_rules() -> None:
    check_scores({"A": [0.1, 0.2]}, 2)
    with pytest.raises(ValueError, match="system 'A': 1 scores for 2 sentences"):
        check_scores({"A": [0.1]}, 2)
    with pytest.raises(ValueError, match="system 'A': segment 2's score nan"):
        check_scores({"A": [0.1, math.nan]}, 2)
    # issue 36: accepted, and a system's mean of such scores overflowed to infinity; at
    # the limit, a million scores and their squares sum to numbers
    with pytest.raises(ValueError, match=re.escape(f"segment 2's score 1e+308 {ERR_OUT_OF_RANGE}")):
        check_scores({"A": [0.1, 1e308]}, 2)
    check_scores({"A": [SCORE_LIMIT, -SCORE_LIMIT]}, 2)
    assert math.isfinite((np.full(1_000_000, SCORE_LIMIT) ** 2).sum())


def test_the_figure_is_the_mean_and_a_segment_without_a_score_is_left_out() -> None:
    rows = mean_rows(np.array([0.5, math.nan, 1.0, -0.3]))

    assert rows.tolist() == [[0.5, 1.0], [0.0, 0.0], [1.0, 1.0], [-0.3, 1.0]]
    assert float(mean_from_stats(rows.sum(axis=0))) == pytest.approx(1.2 / 3)
    assert math.isnan(float(mean_from_stats(np.zeros(2))))


def test_the_bootstrap_of_the_mean_resamples_the_segment_scores_themselves() -> None:
    """Each sample's figure is the mean of the resampled segments' scores (the rows sum as
    the drawn scores do), and a system better on every segment is alone in group 1."""
    rng = np.random.default_rng(0)
    a = rng.normal(0.8, 0.05, 40)
    b = a - 0.1
    tested = paired_bootstrap(
        {"a": mean_rows(a), "b": mean_rows(b)},
        mean_from_stats,
        higher_is_better=True,
        n_samples=200,
        seed=3,
    )
    idx = bootstrap_indices(40, 200, 3)
    assert tested.samples is not None
    assert np.allclose(tested.samples[0], a[idx].mean(axis=1))
    assert tested.figure("a").score == pytest.approx(a.mean())
    assert [tested.figure(s).group for s in ("a", "b")] == [1, 2]
