"""mteval-v13a tokenization (``13a``, seed 000 Table 1 row 3, identical to sacreBLEU
2.6's) and ``13a+contractions`` (Table 1 row 4), which runs 13a's rules after
protecting abbreviations and then expands English contractions.

Its own module because 13a's rules are the most worked-on code of the tokenizers (the
``split`` + ``join`` rewriting of sacreBLEU's ``sub`` calls, see :func:`tokens_regexp`)
and are shared: ``zh`` (:mod:`metrics.tokenize_cjk`) runs them on what is not Chinese.
"""

from __future__ import annotations

import re

from metrics.tokenizer_base import Tokenizer, Tokens

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
    part here) + ``TokenizerRegexp`` (:func:`tokens_regexp`, on the line between spaces)."""
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
    return tokens_regexp(f" {line} ")


def tokens_regexp(line: str) -> Tokens:
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
