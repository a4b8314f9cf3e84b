"""Documents as strata (:mod:`metrics.strata`): numbered, merged until each stratum has
enough judged segments, and a judged set's allocation over them read as proportional or
not."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.strata import (
    MIN_JUDGED_FOR_VARIANCE,
    MIN_JUDGED_PER_STRATUM,
    by_level,
    collapse_strata,
    document_codes,
    min_judged_per_stratum,
    proportional_allocation,
)


@pytest.mark.parametrize(
    "judged, expected",
    [
        ([0, 1, 4, 6], True),  # shares 1.5, 1.5 and 1: 2, 1 and 1 judged
        ([0, 1, 3, 4], True),  # an unjudged document whose share is one
        ([0, 1, 2, 4], False),  # 3 judged for a share of 1.5
        ([4, 5, 6, 7], False),  # none for a share of 1.5
        ([0, 4, 6], True),  # shares 1.125, 1.125 and 0.75
    ],
)
def test_an_allocation_is_proportional_when_each_document_is_within_one_of_its_share(
    judged: list[int], expected: bool
) -> None:
    codes = np.array([0, 0, 0, 1, 1, 1, 2, 2])
    assert proportional_allocation(codes, np.array(judged)) is expected


def test_merged_documents_are_those_alike_in_the_first_covariate() -> None:
    """Documents whose automatic scores are alike merge, wherever they stand."""
    codes = np.repeat(np.arange(4), 2)
    chrf = np.array([0.9, 0.9, 0.1, 0.1, 0.8, 0.8, 0.2, 0.2])
    order = by_level(codes, chrf)
    assert order.tolist() == [1, 3, 2, 0]
    labels = collapse_strata(codes, np.array([0, 2, 4, 6]), min_judged=2, order=order)
    assert labels.tolist() == [1, 1, 0, 0, 1, 1, 0, 0]


@pytest.mark.parametrize(
    "codes, judged, expected",
    [
        # documents merge in corpus order until a stratum has two judged segments
        ([0, 0, 1, 1, 2, 2, 3, 3], [0, 1, 2, 6], [0, 0, 1, 1, 1, 1, 1, 1]),
        # an unjudged document's stratum has judged segments from two documents
        ([0, 0, 1, 1, 2, 2, 3, 3, 4, 4], [2, 3, 4, 6, 7], [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]),
        # a tail short of two judged segments joins the stratum before it
        ([0, 0, 1, 1, 2, 2], [0, 1, 2, 3, 4], [0, 0, 1, 1, 1, 1]),
        # every document with two judged segments stays a stratum of its own
        ([0, 0, 1, 1, 2, 2], [0, 1, 2, 3, 4, 5], [0, 0, 1, 1, 2, 2]),
        # fewer than two judged segments in all: one stratum
        ([0, 1, 2], [1], [0, 0, 0]),
    ],
)
def test_documents_merge_until_every_stratum_has_two_judged_segments(
    codes: list[int], judged: list[int], expected: list[int]
) -> None:
    labels = collapse_strata(np.array(codes), np.array(judged), min_judged=2)
    assert labels.tolist() == expected


def test_merged_strata_have_five_judged_segments() -> None:
    codes = np.repeat(np.arange(10), 4)
    labels = collapse_strata(codes, np.arange(0, 40, 2))  # two judged per document
    assert MIN_JUDGED_PER_STRATUM == 5
    assert labels.tolist() == [0] * 12 + [1] * 12 + [2] * 16  # 6, 6 and 8 judged


@pytest.mark.parametrize(
    "judged, variance_only, expected",
    [
        (np.arange(0, 40, 2), True, MIN_JUDGED_FOR_VARIANCE),  # two per document
        (np.arange(0, 40, 2), False, MIN_JUDGED_PER_STRATUM),  # the strata's weights count
        (np.arange(0, 40, 4), True, MIN_JUDGED_PER_STRATUM),  # one per document
        (np.arange(0, 38, 2), True, MIN_JUDGED_PER_STRATUM),  # 19 for 10 documents
    ],
)
def test_strata_of_two_judged_segments_only_carry_a_variance_of_documents_judged_twice(
    judged: np.ndarray, variance_only: bool, expected: int
) -> None:
    codes = np.repeat(np.arange(10), 4)
    assert min_judged_per_stratum(codes, judged, variance_only=variance_only) == expected
    assert MIN_JUDGED_FOR_VARIANCE == 2


def test_documents_are_numbered_in_the_order_they_first_appear() -> None:
    assert document_codes(["b", "a", "b", "c", "a"]).tolist() == [0, 1, 0, 2, 1]
