"""TER's own normalisation, tercom's (``Normalizer.java``) as sacreBLEU 2.6's
``TercomTokenizer`` computes it, option for option (issue 40, point 2).

* by default the text is lowercased (unless ``case_sensitive``) and split at whitespace;
* ``normalized``: end-of-line hyphens and line breaks joined, the XML escapes ``&quot;
  &amp; &lt; &gt;`` read, ASCII punctuation and symbols split off, a possessive ``'s``
  split off, periods and commas split off except between digits, a dash after a digit
  split off; with ``asian_support`` also CJK ideographs (and the neighbouring blocks
  tercom names) one per token, runs of kana at the start of the line set apart, and
  CJK and full-width punctuation split off;
* ``no_punct``: the characters ``. , ? : ; ! " ( )`` removed (after the normalisation,
  if both), with ``asian_support`` CJK and full-width punctuation too.

``asian_support`` alone does nothing (it refines the other two), as in tercom. Every
pattern is tercom's as sacreBLEU writes it, quirks included: the kana patterns are
anchored at the start of the line (``(^|^[…])``), so only a run there is set apart, and
``'s$`` never matches the padded line. The Unicode blocks are sacreBLEU's code point
ranges.
"""

from __future__ import annotations

import re

_HYPHENATED_LINE_END = re.compile(r"\n-")
_LINE_BREAK = re.compile(r"\n")
_XML_ESCAPES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
#: ASCII { | } ~ [ \ ] ^ _ ` space ! " # $ % & ( ) * + : ; < = > ? @ /
_WESTERN_PUNCT = re.compile(r"([{-~[-` -&(-+:-@/])")
_POSSESSIVE = re.compile(r"'s ")
_POSSESSIVE_AT_END = re.compile(r"'s$")
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")

_CJK_SPLIT = tuple(
    re.compile(p)
    for p in (
        # CJK Unified Ideographs, and Extension A
        r"([\u4e00-\u9fff\u3400-\u4dbf])",
        # CJK Strokes, CJK Radicals Supplement
        r"([\u31c0-\u31ef\u2e80-\u2eff])",
        # CJK Compatibility, Compatibility Ideographs, Compatibility Forms
        r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])",
        # Enclosed CJK Letters and Months, and on (sacreBLEU's range)
        r"([\u3200-\u3f22])",
    )
)
_KANA_RUNS = tuple(
    re.compile(rf"(^|^[{block}])([{block}]+)(?=$|^[{block}])")
    for block in (r"\u3040-\u309f", r"\u30a0-\u30ff", r"\u31f0-\u31ff")
)
_ASIAN_PUNCT = re.compile(r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])")
_FULL_WIDTH_PUNCT = re.compile(r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])")
_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")


def _normalize_western(text: str) -> str:
    """tercom's language-independent and Western normalisation."""
    text = _LINE_BREAK.sub(" ", _HYPHENATED_LINE_END.sub("", text))
    for escaped, char in _XML_ESCAPES:
        text = text.replace(escaped, char)
    text = _WESTERN_PUNCT.sub(r" \1 ", f" {text} ")
    text = _POSSESSIVE_AT_END.sub(r" 's", _POSSESSIVE.sub(r" 's ", text))
    text = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def _normalize_asian(text: str) -> str:
    """tercom's CJK normalisation: ideographs apart, a leading kana run apart, CJK and
    full-width punctuation apart."""
    for pattern in _CJK_SPLIT:
        text = pattern.sub(r" \1 ", text)
    for pattern in _KANA_RUNS:
        text = pattern.sub(r"\1 \2 ", text)
    text = _ASIAN_PUNCT.sub(r" \1 ", text)
    return _FULL_WIDTH_PUNCT.sub(r" \1 ", text)


def _remove_punct(text: str, asian_support: bool) -> str:
    text = _PUNCT.sub("", text)
    if asian_support:
        text = _FULL_WIDTH_PUNCT.sub("", _ASIAN_PUNCT.sub("", text))
    return text


def tercom_words(
    text: str,
    case_sensitive: bool = False,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
) -> tuple[str, ...]:
    """The words TER compares (module doc): sacreBLEU's ``TercomTokenizer`` with these
    options, then a split at whitespace."""
    if not case_sensitive:
        text = text.lower()
    if normalized:
        text = _normalize_western(text)
        if asian_support:
            text = _normalize_asian(text)
    if no_punct:
        text = _remove_punct(text, asian_support)
    return tuple(text.split())
