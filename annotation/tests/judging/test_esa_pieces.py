"""The ESA / MQM page's candidate in pieces (:func:`annotation.judging.esa_page.
candidate_pieces`), against its definition on random candidates and spans: the pieces
spell the candidate, every cut is a word's or a marked span's end, a piece's word is
the one holding its first character, and its severity the severest span over it."""

from __future__ import annotations

import random

import pytest

from annotation.judging.esa_page import candidate_pieces
from metrics.error_spans import MarkedSpan
from metrics.mqm import SEVERITIES

ALPHABET = "ab  é\U0001f600\t"  # blanks, a letter of two bytes, one beyond the BMP


def words_of(text: str) -> list[tuple[int, int]]:
    out, start = [], None
    for k, c in enumerate(text + " "):
        if not c.isspace() and start is None:
            start = k
        elif c.isspace() and start is not None:
            out.append((start, k))
            start = None
    return out


def random_case(rng: random.Random) -> tuple[str, list[MarkedSpan]]:
    text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40)))
    spans = []
    for _ in range(rng.randint(0, 4)):
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        missing = rng.random() < 0.2
        start, end = (len(text), len(text)) if missing else (a, b)
        spans.append(MarkedSpan(start, end, rng.choice(SEVERITIES), "", missing))
    return text, spans


@pytest.mark.parametrize("seed", range(200))
def test_the_pieces_follow_their_definition(seed: int) -> None:
    text, spans = random_case(random.Random(seed))
    words = words_of(text)
    marked = [s for s in spans if not s.missing]
    cuts = (
        {0, len(text)}
        | {e for w in words for e in w}
        | {e for s in marked for e in (s.start, s.end)}
    )

    pieces = candidate_pieces(text, spans)

    assert "".join(p.text for p in pieces) == text
    assert [p.start for p in pieces] == sorted(cuts)[:-1]
    for p in pieces:
        assert p.text == text[p.start : p.end]
        holding = [k for k, (a, b) in enumerate(words) if a <= p.start < b]
        assert p.word == (holding[0] if holding else None)
        over = [s.severity for s in marked if s.start <= p.start < s.end]
        assert p.severity == max(over, key=SEVERITIES.index, default="")
