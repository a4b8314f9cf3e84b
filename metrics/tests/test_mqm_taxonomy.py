"""MQM's weighted score of error spans (:mod:`metrics.mqm`): Freitag et al. (2021)'s
published weights by hand, the corpus's own taxonomy read back from JSON, and every
refusal of a taxonomy naming where it is wrong."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from metrics.mqm import (
    WMT_CATEGORIES,
    WMT_TAXONOMY,
    segment_points,
    taxonomy_from_json,
    wmt_taxonomy_json,
)
from metrics.protocols import mqm
from metrics.ratings import ratings


@pytest.mark.parametrize(
    "errors, points",
    [
        ([], 0.0),  # no error: a perfect candidate
        ([("minor", "Accuracy/Mistranslation")], 1.0),
        ([("minor", "Fluency/Punctuation")], 0.1),
        ([("major", "Fluency/Punctuation")], 5.0),  # the 0.1 is for minor ones only
        ([("major", "Accuracy/Omission")], 5.0),
        ([("major", "Non-translation")], 25.0),
        ([("minor", "")], 1.0),  # no category (an ESA span): the severity's points
        ([("major", "")], 5.0),
        # Freitag et al.'s Table 2 applied to one segment: 5 + 1 + 0.1 + 0.1 = 6.2
        (
            [
                ("major", "Accuracy/Mistranslation"),
                ("minor", "Fluency/Grammar"),
                ("minor", "Fluency/Punctuation"),
                ("minor", "Fluency/Punctuation"),
            ],
            6.2,
        ),
    ],
)
def test_the_published_weights_by_hand(errors: list[tuple[str, str]], points: float) -> None:
    assert segment_points(errors) == pytest.approx(points, abs=1e-12)


def test_a_systems_mqm_is_the_mean_over_its_segments_of_each_segments_mean() -> None:
    """System A: segment 0 judged by two raters, 6.1 (5 + 1 + 0.1) and 1, so 3.55;
    segment 1 a non-translation, 25; segment 2 perfect, 0: (3.55 + 25 + 0) / 3.
    System B: one minor punctuation error on segment 0 only: 0.1."""
    judged = [
        ("A", 0, "r1", [("major", "Accuracy/Mistranslation"), ("minor", "Style/Awkward"),
                        ("minor", "Fluency/Punctuation")]),
        ("A", 0, "r2", [("minor", "Accuracy/Omission")]),
        ("A", 1, "r1", [("major", "Non-translation")]),
        ("A", 2, "r2", []),
        ("B", 0, "r1", [("minor", "Fluency/Punctuation")]),
    ]  # fmt: skip
    r = ratings(
        [s for s, *_ in judged],
        [seg for _, seg, *_ in judged],
        [rater for _, _, rater, _ in judged],
        [segment_points(errors) for *_, errors in judged],
        3,
    )

    figures = mqm(r)

    assert figures.of("A") == pytest.approx((3.55 + 25 + 0) / 3, abs=1e-12)
    assert figures.of("B") == pytest.approx(0.1, abs=1e-12)
    assert figures.items == (3, 1)
    assert not figures.info.higher_is_better
    assert figures.info.name == "mqm"


def test_other_weights_and_categories_from_a_corpus() -> None:
    own = taxonomy_from_json(
        {
            "weights": {"minor": 2, "major": 10},
            "categories": [{"name": "Terminology"}, {"name": "Names", "weights": {"major": 50}}],
        }
    )

    assert segment_points([("minor", "Terminology"), ("major", "Names")], own) == 52.0
    assert segment_points([("minor", "Names"), ("major", "")], own) == 12.0
    with pytest.raises(ValueError, match="category 'Fluency/Grammar' is not in the taxonomy"):
        segment_points([("minor", "Fluency/Grammar")], own)
    with pytest.raises(ValueError, match="severity 'critical'"):
        segment_points([("critical", "Names")], own)


def test_the_default_is_wmts_taxonomy_and_reads_back_equal() -> None:
    stored = wmt_taxonomy_json()

    assert [c["name"] for c in stored["categories"]] == list(WMT_CATEGORIES)
    assert len(WMT_CATEGORIES) == 22
    assert stored["weights"] == {"minor": 1, "major": 5}
    assert taxonomy_from_json(stored) == WMT_TAXONOMY
    assert wmt_taxonomy_json() is not stored  # a new object each time: a field's default


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(wmt_taxonomy_json())
    change(data)
    return data


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "expected an object with weights and categories"),
        (_broken(lambda d: d.pop("weights")), "weights: missing"),
        (_broken(lambda d: d.update(colour=1)), "unknown key 'colour'"),
        (_broken(lambda d: d["weights"].pop("major")), "weights: no points for 'major'"),
        (_broken(lambda d: d["weights"].update(critical=10)), "unknown severity 'critical'"),
        (_broken(lambda d: d["weights"].update(major=-5)), r"weights.major: -5 .* not −5"),
        (_broken(lambda d: d["weights"].update(minor="1")), "weights.minor: '1' is not a number"),
        (_broken(lambda d: d["weights"].update(minor=True)), "weights.minor: True is not a number"),
        (_broken(lambda d: d["weights"].update(minor=float("inf"))), "weights.minor: inf"),
        (_broken(lambda d: d.update(categories=[])), "categories: expected a non-empty list"),
        (_broken(lambda d: d["categories"].append("Other")), r"categories\[22\]: expected"),
        (_broken(lambda d: d["categories"].append({"name": " "})), r"categories\[22\].name: a"),
        (_broken(lambda d: d["categories"].append({"name": "x" * 101})), "at most 100"),
        (_broken(lambda d: d["categories"].append({"name": "Other"})), "'Other' is listed twice"),
        (
            _broken(lambda d: d["categories"][4]["weights"].update(minor=-0.1)),
            r"categories\[4\].weights.minor: -0.1",
        ),
        (
            _broken(lambda d: d["categories"][0].update(points=3)),
            r"categories\[0\]: unknown key 'points'",
        ),
    ],
)
def test_a_wrong_taxonomy_is_refused_with_where_and_why(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        taxonomy_from_json(data)
