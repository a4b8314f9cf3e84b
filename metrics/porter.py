"""The Porter stemmer as NLTK's ``PorterStemmer()`` runs it (its default mode,
``NLTK_EXTENSIONS``), for METEOR's stem stage (:mod:`metrics.meteor`).

Porter, M. "An algorithm for suffix stripping." Program 14.3 (1980): 130-137, with the
deviations NLTK's default mode makes (each marked "NLTK:" below): a pool of irregular
forms ("dying" → "die", "skies" → "sky", …), words of one or two letters left as they
are, "ies"/"ied" of four-letter words → "ie", "y" → "i" only after a consonant that is
not the whole stem, "alli" → "al" tried first, "fulli" → "ful", the "logi" rule
measured with its "l", and *o true for a two-letter stem vowel-consonant.

A port rather than a dependency: the runtime package stays pure Python and numpy, and
the tests hold :func:`stem` equal to NLTK's on every lemma of WordNet and every word of
the demo corpus. METEOR calls it once per distinct word (:func:`stem` is cached).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

VOWELS = frozenset("aeiou")

#: NLTK: irregular forms and the stem each one gets.
IRREGULAR = {
    form: key
    for key, forms in {
        "sky": ["sky", "skies"],
        "die": ["dying"],
        "lie": ["lying"],
        "tie": ["tying"],
        "news": ["news"],
        "inning": ["innings", "inning"],
        "outing": ["outings", "outing"],
        "canning": ["cannings", "canning"],
        "howe": ["howe"],
        "proceed": ["proceed"],
        "exceed": ["exceed"],
        "succeed": ["succeed"],
    }.items()
    for form in forms
}

Condition = Callable[[str], bool] | None
Rule = tuple[str, str, Condition]


def _is_consonant(word: str, i: int) -> bool:
    """A letter other than a vowel, and other than a "y" after a consonant."""
    if word[i] in VOWELS:
        return False
    if word[i] == "y":
        negate = False
        while i > 0 and word[i] == "y":
            negate = not negate
            i -= 1
        return (word[i] not in VOWELS) != negate
    return True


def _consonant_flags(word: str) -> list[bool]:
    flags: list[bool] = []
    for i, ch in enumerate(word):
        if ch in VOWELS:
            flags.append(False)
        elif ch == "y":
            flags.append(True if i == 0 else not flags[i - 1])
        else:
            flags.append(True)
    return flags


def measure(stem: str) -> int:
    """m of [C](VC)^m[V]."""
    return "".join("c" if c else "v" for c in _consonant_flags(stem)).count("vc")


def _positive(stem: str) -> bool:
    return measure(stem) > 0


def _above_one(stem: str) -> bool:
    return measure(stem) > 1


def _contains_vowel(stem: str) -> bool:
    return not all(_consonant_flags(stem))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _ends_cvc(word: str) -> bool:
    """*o: consonant-vowel-consonant, the last not w, x or y (NLTK: or a two-letter
    vowel-consonant stem)."""
    n = len(word)
    return (
        n >= 3
        and _is_consonant(word, n - 3)
        and not _is_consonant(word, n - 2)
        and _is_consonant(word, n - 1)
        and word[-1] not in ("w", "x", "y")
    ) or (n == 2 and not _is_consonant(word, 0) and _is_consonant(word, 1))


def _apply(word: str, rules: list[Rule]) -> str:
    """The first rule whose suffix the word has decides (its condition false: no change);
    the suffix ``*d`` stands for a double consonant."""
    for suffix, replacement, condition in rules:
        if suffix == "*d" and _ends_double_consonant(word):
            stem = word[:-2]
            return stem + replacement if condition is None or condition(stem) else word
        if word.endswith(suffix):
            stem = word[: -len(suffix)] if suffix else word
            return stem + replacement if condition is None or condition(stem) else word
    return word


def _step1a(word: str) -> str:
    if word.endswith("ies") and len(word) == 4:  # NLTK
        return word[:-3] + "ie"
    return _apply(
        word, [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)]
    )


def _step1b(word: str) -> str:
    if word.endswith("ied"):  # NLTK
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            if _contains_vowel(stem):
                break
    else:
        return word
    last = stem[-1]
    return _apply(
        stem,
        [
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", last, lambda _: last not in ("l", "s", "z")),
            ("", "e", lambda s: measure(s) == 1 and _ends_cvc(s)),
        ],
    )


def _step1c(word: str) -> str:
    # NLTK: y → i after a consonant, the stem longer than that one consonant
    return _apply(word, [("y", "i", lambda s: len(s) > 1 and _is_consonant(s, len(s) - 1))])


_STEP2 = [
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("fulli", "ful"),  # NLTK
]


def _step2(word: str) -> str:
    if word.endswith("alli") and _positive(word[:-4]):  # NLTK: first, then step 2 again
        return _step2(word[:-4] + "al")
    rules: list[Rule] = [(s, r, _positive) for s, r in _STEP2]
    rules.append(("logi", "log", lambda _: _positive(word[:-3])))  # NLTK: with the "l"
    return _apply(word, rules)


_STEP3: list[Rule] = [
    (s, r, _positive)
    for s, r in (
        ("icate", "ic"),
        ("ative", ""),
        ("alize", "al"),
        ("iciti", "ic"),
        ("ical", "ic"),
        ("ful", ""),
        ("ness", ""),
    )
]

_STEP4: list[Rule] = [
    *((s, "", _above_one) for s in ("al", "ance", "ence", "er", "ic", "able", "ible", "ant")),
    *((s, "", _above_one) for s in ("ement", "ment", "ent")),
    ("ion", "", lambda s: measure(s) > 1 and s[-1] in ("s", "t")),
    *((s, "", _above_one) for s in ("ou", "ism", "ate", "iti", "ous", "ive", "ize")),
]


def _step5a(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        m = measure(stem)
        if m > 1 or (m == 1 and not _ends_cvc(stem)):
            return stem
    return word


def _step5b(word: str) -> str:
    return _apply(word, [("ll", "l", lambda _: measure(word[:-1]) > 1)])


@lru_cache(maxsize=2**17)
def stem(word: str) -> str:
    """NLTK's ``PorterStemmer().stem(word)`` (lowercased first, as NLTK does)."""
    low = word.lower()
    if low in IRREGULAR:
        return IRREGULAR[low]
    if len(word) <= 2:  # NLTK measures the word as given, not lowercased
        return low
    out = _step1a(low)
    out = _step1b(out)
    out = _step1c(out)
    out = _step2(out)
    out = _apply(out, _STEP3)
    out = _apply(out, _STEP4)
    out = _step5a(out)
    return _step5b(out)
