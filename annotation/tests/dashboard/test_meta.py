"""Meta-evaluation (``annotation/dashboard/meta.py``): Pearson's r and Kendall's τ-b of the
automatic metrics against the human figures, by hand."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pytest

from annotation.dashboard.board import Dashboard
from annotation.models import Corpus

pytestmark = pytest.mark.django_db


def kendall_brute(x: Sequence[float], y: Sequence[float]) -> float:
    """τ-b by its definition, over all pairs (for checking)."""
    c = d = tx = ty = 0
    for i, j in combinations(range(len(x)), 2):
        sx, sy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        if sx == 0 and sy == 0:
            continue
        if sx == 0:
            tx += 1
        elif sy == 0:
            ty += 1
        elif sx == sy:
            c += 1
        else:
            d += 1
    return (c - d) / math.sqrt((c + d + tx) * (c + d + ty))


def test_meta_evaluation_by_hand(judged_hand: Corpus) -> None:
    """System level: WER 0, 25, 100 against SSER 0, 25, 100 and aWER 0, 25, 100 — one
    line, r = τ = 1 on 3 points. Sentence level: one point per judged candidate (12)."""
    meta = Dashboard(judged_hand).meta

    for human_metric in ("sser", "awer"):
        system = meta.get("wer", human_metric, "system")
        assert system.pearson.value == pytest.approx(1.0, abs=1e-12)
        assert system.kendall.value == pytest.approx(1.0, abs=1e-12)
        assert system.pearson.n == system.kendall.n == 3
        assert meta.get("bleu", human_metric, "system").kendall.value == pytest.approx(-1.0)

    x = [0.0] * 4 + [25.0] * 4 + [100.0] * 4  # sentence WER, in judgment order
    y = [0.0] * 4 + [20.0, 30.0, 20.0, 30.0] + [100.0] * 4  # sentence SSER errors
    sentence = meta.get("wer", "sser", "sentence")
    assert sentence.pearson.n == 12
    assert sentence.pearson.value == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
    assert sentence.kendall.value == pytest.approx(kendall_brute(x, y), abs=1e-12)


def test_normalized_meta_evaluation_uses_normalized_sser(judged_hand: Corpus) -> None:
    raw = Dashboard(judged_hand).meta.get("wer", "sser", "sentence")
    normalized = Dashboard(judged_hand, normalize=True).meta.get("wer", "sser", "sentence")

    # one judge: normalization is an affine map of its scores, r does not change …
    assert normalized.pearson.value == pytest.approx(raw.pearson.value, abs=1e-12)
    assert normalized.pearson.n == raw.pearson.n
    # … but the system-level human figures are now relative (mean z per system)
    sys_level = Dashboard(judged_hand, normalize=True).meta.get("wer", "sser", "system")
    assert sys_level.kendall.value == pytest.approx(1.0)
