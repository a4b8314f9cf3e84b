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

The methods live in one module a family, each deriving from
:class:`metrics.tokenizer_base.Tokenizer`: 13a and 13a+contractions in
:mod:`metrics.tokenize_13a`, nopunct and intl (which read Unicode's categories) in
:mod:`metrics.tokenize_unicode`, char, zh and the MeCab tokenizers in
:mod:`metrics.tokenize_cjk`; this module names them all (:data:`TOKENIZERS`) and holds
the two plainest, the caches and the :class:`Preprocessor`.

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
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from metrics.tokenize_13a import Tokenizer13a, Tokenizer13aContractions
from metrics.tokenize_cjk import TokenizerChar, TokenizerJaMecab, TokenizerKoMecab, TokenizerZh
from metrics.tokenize_unicode import TokenizerIntl, TokenizerNoPunct
from metrics.tokenizer_base import Tokenizer, Tokens

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper  # the type of an lru_cache'd function

BOS = "<s>"
EOS = "</s>"

#: Entries kept per preprocessing configuration: sacreBLEU's ``lru_cache(maxsize=2**16)``.
CACHE_SIZE = 2**16


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
