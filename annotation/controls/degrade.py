"""The bad-reference control's candidate (WMT's "bad reference", Appraise): a real
candidate with injected errors, which a careful judge must not accept.

About one word in :data:`WORDS_PER_ERROR` (at least one) gets an error, each a seeded
choice of: the word dropped, the word duplicated, the word replaced by a word of another
sentence of the corpus (``foreign``: a candidate of that sentence). A candidate of a
single word is never dropped whole; an empty candidate gets a foreign word inserted.
Pure and seeded: the same candidate, words and seed give the same errors.

The aWER page shows a candidate's 13a words, so its bad reference is made of them. The
ESA / MQM page shows the candidate's own characters and its judges mark spans of them,
so there a bad reference is made of the text's own words (:func:`degraded_text`: split
at blanks, punctuation kept on its word, in a language written without blanks its
characters) and the words left alone read exactly as in the original: a candidate of
13a tokens ("said , that") would tell a control from every real candidate.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

#: One injected error per this many words of the candidate (at least one error).
WORDS_PER_ERROR = 6

DROP, DUPLICATE, REPLACE = "drop", "duplicate", "replace"


def injected_errors(
    candidate: Sequence[str], foreign: Sequence[str], rng: random.Random
) -> tuple[str, ...]:
    """``candidate`` (its words) with errors injected (see the module); ``foreign`` are
    words of another sentence to replace words with (none: drops and duplicates only)."""
    words = list(candidate)
    if not words:
        return (rng.choice(foreign),) if foreign else ()
    n = max(1, round(len(words) / WORDS_PER_ERROR))
    at = set(rng.sample(range(len(words)), n))
    out: list[str] = []
    for k, word in enumerate(words):
        if k not in at:
            out.append(word)
            continue
        others = [w for w in foreign if w != word]
        kinds = [DUPLICATE, *([DROP] if len(words) > 1 else []), *([REPLACE] if others else [])]
        kind = rng.choice(kinds)
        if kind == DROP:
            continue
        out.append(rng.choice(others) if kind == REPLACE else word)
        if kind == DUPLICATE:
            out.append(word)
    return tuple(out)  # never empty: at most one word in six is dropped, a lone word never


#: Languages written without blanks between words (their primary subtags): their bad
#: references are made of characters.
UNSPACED_LANGUAGES = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo"})


def text_words(text: str, language: str) -> tuple[str, ...]:
    """The units of ``text`` a bad reference on the ESA / MQM page drops, repeats or
    replaces: its characters but blanks in a language written without blanks, else its
    blank-separated words."""
    if language.split("-")[0] in UNSPACED_LANGUAGES:
        return tuple(c for c in text if not c.isspace())
    return tuple(text.split())


def degraded_text(text: str, foreign: str, language: str, rng: random.Random) -> str:
    """``text`` with errors injected (:func:`injected_errors` over :func:`text_words`),
    ``foreign`` the text of another sentence to take replacing words from."""
    unspaced = language.split("-")[0] in UNSPACED_LANGUAGES
    out = injected_errors(text_words(text, language), text_words(foreign, language), rng)
    return ("" if unspaced else " ").join(out)


def added_words(original: Sequence[str], degraded: Sequence[str]) -> dict[str, int]:
    """The words the errors added (duplicated or brought from another sentence), with
    how many copies: the degraded candidate's counts above the original's."""
    counts: dict[str, int] = {}
    for w in degraded:
        counts[w] = counts.get(w, 0) + 1
    for w in original:
        if w in counts:
            counts[w] -= 1
    return {w: c for w, c in counts.items() if c > 0}
