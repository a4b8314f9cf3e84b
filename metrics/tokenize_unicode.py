"""The tokenizers that need Unicode's general categories N, P and S: ``nopunct`` (seed
000 Table 1 row 2) and ``intl`` (mteval-v14, as sacreBLEU's).

Their own module because the categories come from the third-party ``regex`` module, read
once and only when one of these two is used (:func:`_category_ranges`): a run with any
other tokenizer never pays for it (``metrics/tests/test_lazy_imports.py``).
"""

from __future__ import annotations

import re
import sys
from functools import cache

from metrics.tokenizer_base import Tokenizer, Tokens


@cache
def _category_ranges() -> dict[str, tuple[tuple[int, int], ...]]:
    """The code point ranges of the general categories N, P and S, as the ``regex``
    module's ``\\p{N}``, ``\\p{P}`` and ``\\p{S}`` know them.

    sacreBLEU's ``intl`` matches those classes with the third-party ``regex`` module,
    whose Unicode tables follow the current standard; the standard library's
    :mod:`unicodedata` is the Unicode of the Python release (14.0 in Python 3.11), in
    which about 1,500 newer symbols, digits and marks (the emoji 🫨 U+1FAE8, the som
    sign U+20C1 …) are unassigned. So the classes are read from ``regex``, once: every
    code point is written into one string, and the runs each class matches there are
    its ranges. The tokenizers then match them with the standard ``re`` (faster per line,
    see :func:`_char_class`). Imported here, not at the top: only ``intl`` and
    ``nopunct`` need it, and start-up is most of a command's time.
    """
    import numpy as np
    import regex

    ranges: dict[str, list[tuple[int, int]]] = {"N": [], "P": [], "S": []}
    # every code point but the surrogates (category Cs, in no class here)
    for lo, hi in ((0, 0xD800), (0xE000, sys.maxunicode + 1)):
        text = np.arange(lo, hi, dtype="<u4").tobytes().decode("utf-32-le")
        for major, spans in ranges.items():
            pattern = regex.compile(f"\\p{{{major}}}+")  # type: ignore[no-untyped-call]
            spans.extend((lo + m.start(), lo + m.end() - 1) for m in pattern.finditer(text))
    return {major: tuple(spans) for major, spans in ranges.items()}


def _char_class(major: str, below: int) -> str:
    """The body of a ``re`` character class for category ``major``, code points < ``below``.

    ``re`` tests the code points above U+FFFF of a class one range at a time, so a full
    class makes every character test slow. Lines that are ASCII (most English) or stay
    in the Basic Multilingual Plane use a class cut to that plane, which gives the same
    matches on such a line and is a single bitmap lookup.
    """
    spans = [(lo, min(hi, below - 1)) for lo, hi in _category_ranges()[major] if lo < below]
    return "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in spans)


_ASTRAL = re.compile(r"[\U00010000-\U0010ffff]")
#: The planes a line may be confined to: ASCII, the BMP, everything.
_PLANE_LIMITS = (0x80, 0x10000, sys.maxunicode + 1)


def _plane(line: str) -> int:
    """Index into :data:`_PLANE_LIMITS` of the smallest plane that holds ``line``."""
    if line.isascii():
        return 0
    return 1 if _ASTRAL.search(line) is None else 2


class TokenizerNoPunct(Tokenizer):
    """Punctuation marks separate words and are then removed (Table 1, row 2).

    ``Powell said: "We'd not be alone; that's for sure."`` →
    ``Powell said We d not be alone that s for sure``.

    "Punctuation" is Unicode general category P (``Pc Pd Ps Pe Pi Pf Po``, the ``regex``
    module's ``\\p{P}`` as for ``intl``: :func:`_category_ranges`): the ASCII
    marks ``! " # % & ' ( ) * , - . / : ; ? @ [ \\ ] _ { }``, full-width and CJK marks
    such as ``，。「」``, typographic quotes and dashes. Symbols (category S: ``$ + < = >
    ^ ` | ~``, currency signs, emoji) are not punctuation and stay in their words. The
    seed removes *all* punctuation, so decimal points and hyphens go too:
    ``3.5`` → ``3 5``, ``well-known`` → ``well known``.
    """

    name = "nopunct"

    def __init__(self) -> None:
        self._punct = [re.compile(f"[{_char_class('P', below)}]+") for below in _PLANE_LIMITS]

    def tokens(self, line: str) -> Tokens:
        return tuple(self._punct[_plane(line)].sub(" ", line).split())


# --------------------------------------------------------------------------- intl


class TokenizerIntl(Tokenizer):
    """mteval-v14 international tokenization, as sacreBLEU 2.6's ``intl``.

    Punctuation (category P) is split off unless it sits between digits, symbols
    (category S) always are. sacreBLEU keeps mteval-v14's quirk that a number followed
    by a full stop at the end of a line stays one word (``1990.``). The classes are the
    ``regex`` module's, as sacreBLEU's (:func:`_category_ranges`), so a symbol newer than
    Python's own Unicode tables is split off too (``great🫨news`` → ``great 🫨 news``).
    """

    name = "intl"

    def __init__(self) -> None:
        self._patterns = [self._compile(below) for below in _PLANE_LIMITS]

    @staticmethod
    def _compile(below: int) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
        n, p, s = (_char_class(major, below) for major in "NPS")
        return (
            re.compile(f"([^{n}])([{p}])"),  # (\P{N})(\p{P}) → "\1 \2 "
            re.compile(f"([{p}])([^{n}])"),  # (\p{P})(\P{N}) → " \1 \2"
            re.compile(f"([{s}])"),  # (\p{S}) → " \1 "
        )

    def tokens(self, line: str) -> Tokens:
        punct_after, punct_before, symbol = self._patterns[_plane(line)]
        # The same split + join rewriting of ``sub`` as in 13a (see :mod:`metrics.tokenize_13a`).
        parts = punct_after.split(line)
        if len(parts) > 1:
            parts[2::3] = [f" {mark} " for mark in parts[2::3]]
            line = "".join(parts)
        parts = punct_before.split(line)
        if len(parts) > 1:
            parts[1::3] = [f" {mark} " for mark in parts[1::3]]
            line = "".join(parts)
        return tuple(" ".join(symbol.split(line)).split())
