"""Texts as token ids (``metrics/encode.py``): the ``tok:char`` path over code points
equals the tokenizer, and lines are cut, reordered and wrapped exactly."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.encode import Lines, encode
from metrics.tokenize import Preprocessor


@pytest.mark.parametrize("lowercase", [False, True])
def test_characters_as_ids_equal_the_char_tokenizer(lowercase: bool) -> None:
    """The code-point path of ``tok:char``: astral characters, every kind of white space,
    a lone surrogate, case folding that changes the length (İ)."""
    texts = [
        "Hello, World!",
        "  tabs\tand\u00a0no-break\u2003spaces  ",
        "汉字 和 emoji 🙂👍🏽 \U0001f9ea",
        "İstanbul ΣΟΦΟΣ",
        "lone \ud800 surrogate",
        "",
        "   ",
    ]
    pp = Preprocessor(tokenize="char", lowercase=lowercase)
    vocab: dict[str, int] = {}
    lines = encode(pp, texts[:3], vocab, grow=True, cached=False)
    others = encode(pp, texts, vocab, grow=False, cached=False)
    generic: dict[str, int] = {}
    for text in texts[:3]:
        for token in pp.tokens_uncached(text):
            generic.setdefault(token, len(generic))
    assert vocab == generic
    for k, text in enumerate(texts[:3]):
        assert lines.line(k).tolist() == [vocab[t] for t in pp.tokens_uncached(text)]
    for k, text in enumerate(texts):
        assert others.line(k).tolist() == [vocab.get(t, -1) for t in pp.tokens_uncached(text)]


def test_lines_take_and_wrap() -> None:
    lines = Lines.from_lists([[1, 2], [], [3]])
    assert [lines.take(np.array([2, 0, 2])).line(k).tolist() for k in range(3)] == [
        [3],
        [1, 2],
        [3],
    ]
    wrapped = lines.wrapped(8, 9)
    assert [wrapped.line(k).tolist() for k in range(3)] == [[8, 1, 2, 9], [8, 9], [8, 3, 9]]
