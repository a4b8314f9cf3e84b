"""The judges panel (``annotation/dashboard/judges.py``): judges' figures, the (0, 1)
normalization and the agreement, by hand."""

from __future__ import annotations

import math

import pytest

from annotation.dashboard.judges import agreement, judges_panel, normalized_sser
from annotation.tests.factories import judgment_row


def test_agreement_on_candidates_judged_twice_by_hand() -> None:
    """SSER pairs (2, 4), (6, 6), (10, 8): mean 6, Σ(a−b)² = 8, Σ(v−6)² = 40, so the
    both-orders Pearson r = 1 − 8/40 = 0.8; Krippendorff's α over the six values:
    D_o = 16/6, D_e = 480/30 = 16, α = 1 − 1/6. Sentence aWER pairs (10 %, 20 %),
    (0, 0), (30 %, 30 %): r = 1 − 100/950 = 17/19. New references identical in 2 of 3
    pairs. A candidate judged once does not count."""
    rows = [
        judgment_row("S", 0, "A", sser=2, edits=1, length=10, new_ref="x y", target=1),
        judgment_row("S", 0, "B", sser=4, edits=2, length=10, new_ref="x z", target=1),
        judgment_row("S", 1, "A", sser=6, edits=0, length=5, new_ref="p q", target=2),
        judgment_row("S", 1, "B", sser=6, edits=0, length=5, new_ref="p  q", target=2),
        judgment_row("T", 1, "A", sser=10, edits=3, length=10, new_ref="r", target=3),
        judgment_row("T", 1, "B", sser=8, edits=3, length=10, new_ref="r", target=3),
        judgment_row("T", 2, "A", sser=0, edits=9, length=9, new_ref="alone", target=4),
    ]

    a = agreement(rows, normalize=False)

    assert (a.candidates, a.pairs) == (3, 3)
    assert a.sser_pearson.value == pytest.approx(0.8, abs=1e-12)
    assert a.sser_pearson.n == 3
    assert a.sser_alpha.value == pytest.approx(5 / 6, abs=1e-12)
    assert a.sser_alpha.n == 6
    assert a.awer_pearson.value == pytest.approx(17 / 19, abs=1e-12)
    assert a.identical_new_refs == pytest.approx(2 / 3)


def test_agreement_without_candidates_judged_twice_is_undefined() -> None:
    a = agreement(
        [judgment_row("S", 0, "A", sser=5), judgment_row("S", 1, "B", sser=5)], normalize=False
    )

    assert (a.candidates, a.pairs, a.identical_new_refs) == (0, 0, None)
    assert math.isnan(a.sser_pearson.value) and a.sser_pearson.n == 0
    assert math.isnan(a.sser_alpha.value)


def test_normalization_by_hand() -> None:
    """Judge A scores 10, 5, 0 → errors 0, 50, 100 %: mean 50, population std
    √(5000/3), z = ∓√1.5, 0. Judge B's single score carries no spread: z = 0."""
    rows = [
        judgment_row("S", 0, "A", sser=10),
        judgment_row("S", 1, "A", sser=5),
        judgment_row("T", 0, "A", sser=0),
        judgment_row("T", 1, "B", sser=3),
        judgment_row("T", 2, "B"),  # no score: stays NaN
    ]

    z = normalized_sser(rows)

    assert z[:4] == pytest.approx([-math.sqrt(1.5), 0.0, math.sqrt(1.5), 0.0], abs=1e-12)
    assert math.isnan(z[4])
    panel = judges_panel(rows, ["S", "T"], normalize=True)
    assert [(s.system, s.n) for s in panel.normalized] == [("S", 2), ("T", 2)]
    assert panel.normalized[0].value == pytest.approx(-math.sqrt(1.5) / 2, abs=1e-12)
    assert panel.normalized[1].value == pytest.approx(math.sqrt(1.5) / 2, abs=1e-12)


def test_judges_panel_by_hand() -> None:
    rows = [
        judgment_row("S", 0, "ann", sser=10, edits=0, length=4, seconds=90),
        judgment_row("S", 1, "ann", sser=6, edits=2, length=6, seconds=30),
        judgment_row("T", 0, "bob", sser=None, edits=1, length=5, seconds=0),
    ]

    panel = judges_panel(rows, ["S", "T"], normalize=False)
    ann, bob = panel.judges

    assert (ann.name, ann.judgments, ann.scored) == ("ann", 2, 2)
    assert ann.mean_score == 8.0 and ann.std == 2.0
    assert ann.sser == pytest.approx(20.0)  # errors 0 % and 40 %
    assert ann.awer == pytest.approx(20.0)  # 2 edits / 10 words
    assert ann.minutes == 2.0 and ann.per_hour == pytest.approx(60.0)
    assert (bob.mean_score, bob.sser, bob.per_hour) == (None, None, None)
    assert bob.awer == pytest.approx(20.0)
    assert panel.normalized == ()
