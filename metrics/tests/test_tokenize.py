"""Tokenization methods of seed 000 §3.1 (Table 1), case (§3.2), sentence boundaries (§3.4).

13a, intl and char must give exactly sacreBLEU 2.6's tokens: checked on every line of
the TED demo corpus, on hand-picked tricky strings and on every short string over a
small alphabet (which exercises the order and overlap rules of the regexes).
"""

from __future__ import annotations

import dataclasses
import itertools
import pickle
import sys
import unicodedata

import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacreTokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar as SacreTokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer

from metrics.tests.demo import demo_lines
from metrics.tokenize import (
    BOS,
    EOS,
    TOKENIZERS,
    Preprocessor,
    clear_token_caches,
    get_tokenizer,
)

SACREBLEU = {
    "13a": SacreTokenizer13a(),
    "intl": TokenizerV14International(),
    "char": SacreTokenizerChar(),
}

TABLE1 = "Powell said: \"We'd not be alone; that's for sure.\""


TRICKY = [
    "",
    "   ",
    " \t \n ",
    "He said &quot;no&quot; &amp; left &lt;quickly&gt;.",
    "&QUOT;shouting&QUOT; &amp;amp; &#39;numeric&#39;",
    "a well-\nknown fact",
    "ends with a hyphen-\n",
    "line one\nline two",
    "<skipped> words <skipped>",
    "1,000,000 people paid $3.50, or 3.5% (i.e. 1.234,56 €) in 1990.",
    "Version 2.6.0-rc1, pages 10-20, -5 degrees, 3-4 days.",
    "a.,5 a..5 5., .5 ,5 5,. x,.y",
    "The end...",
    "我们对宇宙的大部分了解都来自于光。",
    "你好，世界！“引号”（括号）《书名》、顿号：冒号；",
    "Ｆｕｌｌ－ｗｉｄｔｈ　ＡＳＣＩＩ，１２３．４５",
    "Prices: £5, ¥600, ₹70, €1.5, $2 — and ½ off²!",
    "Emoji 😀👍🏽 and flags 🇩🇪 ❤️ ok?",
    "٣٫١٤ is π; ١٢٣ Arabic-Indic digits",
    "Mr. Smith didn't say \u201cwe'll\u201d \u2014 it\u2019s U.S. policy, e.g. here.",
    "tab\tseparated\u00a0nbsp\u3000ideographic space",
    "(parens) [brackets] {braces} <angles> @at #hash ^caret `tick` |pipe| ~tilde",
    "A sentence ending in a year 2021.",
    "_underscore_ *stars* +plus+ =equals= /slash/ \\backslash\\",
]


# ---------------------------------------------------------------------- Table 1

TABLE1_CASES = [
    ("none", "Powell said: \"We'd not be alone; that's for sure.\""),
    ("nopunct", "Powell said We d not be alone that s for sure"),
    # Table 1 as printed shows `"We'd` joined; mteval-v13a (and sacreBLEU) pads `"`.
    ("13a", "Powell said : \" We'd not be alone ; that's for sure . \""),
    ("13a+contractions", 'Powell said : " we would not be alone ; that is for sure . "'),
]


@pytest.mark.parametrize("name, expected", TABLE1_CASES)
def test_table1_sentence(name: str, expected: str) -> None:
    tokenizer = get_tokenizer(name)
    assert tokenizer(TABLE1) == expected
    assert Preprocessor(tokenize=name).tokens(TABLE1) == tuple(expected.split())


# ------------------------------------------------------------ sacreBLEU parity


@pytest.mark.parametrize("name", ["13a", "intl", "char"])
def test_parity_with_sacrebleu_on_demo_corpus(name: str) -> None:
    lines = demo_lines()
    assert len(lines) == 40 * 8  # source, two references, five systems
    ours = get_tokenizer(name)
    theirs = SACREBLEU[name]
    assert [ours(line) for line in lines] == [theirs(line) for line in lines]


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", ["none", "13a", "intl", "char"])
def test_preprocessor_matches_sacrebleu_bleu_preprocessing(name: str, lowercase: bool) -> None:
    """The tokens BLEU counts: sacreBLEU lowercases, rstrips, tokenizes, splits."""
    bleu = BLEU(tokenize=name, lowercase=lowercase)
    pp = Preprocessor(tokenize=name, lowercase=lowercase)
    lines = demo_lines() + TRICKY
    expected = [tuple(bleu._preprocess_segment(line).split()) for line in lines]
    assert [pp.tokens(line) for line in lines] == expected


@pytest.mark.parametrize("line", TRICKY)
@pytest.mark.parametrize("name", ["13a", "intl", "char"])
def test_parity_with_sacrebleu_on_tricky_strings(name: str, line: str) -> None:
    assert get_tokenizer(name)(line) == SACREBLEU[name](line)


@pytest.mark.parametrize(
    "name, alphabet",
    [
        ("13a", "a5.,- ('&\n"),
        ("intl", "a5.,- $٣，€"),
    ],
)
def test_parity_with_sacrebleu_on_all_short_strings(name: str, alphabet: str) -> None:
    """Every string of up to 4 characters: the regexes' overlap rules, case by case."""
    ours, theirs = get_tokenizer(name), SACREBLEU[name]
    mismatches = [
        s
        for length in range(1, 5)
        for s in map("".join, itertools.product(alphabet, repeat=length))
        if ours(s) != theirs(s)
    ]
    assert mismatches == []


@pytest.mark.parametrize(
    "name, line, expected",
    [
        # rule 2 consumes the "." and the "," is then followed by a digit: kept on the 5
        ("13a", "a.,5", "a . ,5"),
        ("13a", "1,000.50 and 3.", "1,000.50 and 3 ."),
        ("13a", "pages 10-20", "pages 10 - 20"),
        ("13a", "well-known", "well-known"),
        ("13a", "&quot;x&quot; &amp; y", '" x " & y'),
        ("13a", "well-\nknown", "wellknown"),
        ("intl", "in 2021.", "in 2021."),  # mteval-v14's quirk, kept by sacreBLEU
        ("intl", "$3.50，ok", "$ 3.50 ， ok"),
        ("char", "中 文", "中   文"),
        ("none", "  a  b ", "  a  b "),
    ],
)
def test_hand_checked_outputs(name: str, line: str, expected: str) -> None:
    assert get_tokenizer(name)(line) == expected


# ------------------------------------------------ intl: the current Unicode's classes


def characters_newer_than_pythons_tables() -> list[str]:
    """Every character the ``regex`` module puts in N, P or S while Python's own
    :mod:`unicodedata` (Unicode 14.0 in Python 3.11) has it in no such class."""
    import regex

    in_class = regex.compile(r"[\p{N}\p{P}\p{S}]")
    return [
        chr(code)
        for code in range(sys.maxunicode + 1)
        if not 0xD800 <= code < 0xE000
        and unicodedata.category(chr(code))[0] not in "NPS"
        and in_class.match(chr(code))
    ]


@pytest.mark.parametrize(
    "line, expected",
    [
        ("great🫨news", ("great", "🫨", "news")),  # U+1FAE8 SHAKING FACE, Unicode 15
        # Nag Mundari digits (Unicode 15): a comma between them is a thousands separator
        ("\U0001e4f1,\U0001e4f5 x", ("\U0001e4f1,\U0001e4f5", "x")),
        ("a\U0001fae8\U0001fae8b", ("a", "\U0001fae8", "\U0001fae8", "b")),
    ],
)
def test_intl_splits_symbols_newer_than_pythons_unicode_as_sacrebleu(
    line: str, expected: tuple[str, ...]
) -> None:
    assert get_tokenizer("intl").tokens(line) == expected
    assert get_tokenizer("intl")(line) == SACREBLEU["intl"](line)


def test_intl_equals_sacrebleu_on_every_character_newer_than_pythons_tables() -> None:
    newer = characters_newer_than_pythons_tables()
    assert len(newer) > 1000  # digits, marks and symbols of Unicode 15 and later
    lines = [f"a{c}b 1{c}2 {c}. x.{c} {c}{c}" for c in newer]
    ours, theirs = get_tokenizer("intl"), SACREBLEU["intl"]
    assert [ours(line) for line in lines] == [theirs(line) for line in lines]


def test_intl_bleu_of_a_new_emoji_is_sacrebleus() -> None:
    """The emoji is a word of its own on both sides: the candidate equals its reference
    (100; with the emoji read as a letter, "great🫨news" was one word and no 4-gram
    matched)."""
    from metrics.bleu import BLEU as OurBLEU

    hyp, ref = "that is great🫨news for us", "that is great 🫨 news for us"
    theirs = BLEU(tokenize="intl").corpus_score([hyp], [[ref]]).score
    ours = OurBLEU(tokenize="intl").corpus_score([hyp], [(ref,)]).score
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert ours == pytest.approx(100.0)


def test_nopunct_reads_punctuation_from_the_same_classes() -> None:
    """U+2E5D OBLIQUE HYPHEN (Unicode 14) and U+1B4E (Unicode 16, punctuation to the
    ``regex`` module's tables) separate words like any other mark."""
    assert Preprocessor(tokenize="nopunct").tokens("a\u1b4eb c\u2e5dd") == ("a", "b", "c", "d")


# ------------------------------------------------------------------- nopunct


@pytest.mark.parametrize(
    "line, expected",
    [
        ("well-known 3.5 U.S.", ("well", "known", "3", "5", "U", "S")),
        ("你好，世界。「引号」", ("你好", "世界", "引号")),
        ("\u201cquoted\u201d \u2014 dash\u2026", ("quoted", "dash")),
        # symbols are not punctuation: they stay in their words
        ("$5 + 3€ = 😀", ("$5", "+", "3€", "=", "😀")),
        ("", ()),
        ("!?.,;:", ()),
    ],
)
def test_nopunct_removes_unicode_punctuation_only(line: str, expected: tuple[str, ...]) -> None:
    assert Preprocessor(tokenize="nopunct").tokens(line) == expected


# ---------------------------------------------------------- 13a+contractions


@pytest.mark.parametrize(
    "line, expected",
    [
        ("I'm sure they're here.", "i am sure they are here ."),
        ("We've seen it, you'll see, she'd go.", "we have seen it , you will see , she would go ."),
        ("Don't, isn't, couldn't.", "do not , is not , could not ."),
        ("Can't. Won't. Shan't. Let's go.", "can not . will not . shall not . let us go ."),
        ("CAN'T WON'T", "can not will not"),
        ("It's there's what's", "it is there is what is"),
        ("couldn't've", "could not have"),
        ("it\u2019s don\u2019t", "it is do not"),  # typographic apostrophe
        # possessive 's is left alone: only pronouns and wh-words get "is"
        ("Powell's book and John's car", "Powell's book and John's car"),
        ("o'clock rock'n'roll the '90s 's 'd", "o'clock rock'n'roll the '90s 's 'd"),
        # abbreviations keep their periods, in any case, inside punctuation too
        ("Mr. Smith met Dr. Jones.", "Mr. Smith met Dr. Jones ."),
        ("mrs. jones vs. MS. lee", "mrs. jones vs. MS. lee"),
        ("(e.g., this) i.e. that", "( e.g. , this ) i.e. that"),
        ("in the U.S. and U.K.", "in the U.S. and U.K."),
        ("at 5 p.m. sharp", "at 5 p.m. sharp"),
        # not abbreviations: inside a word, or glued to the next word
        ("HMr. x", "HMr . x"),
        ("Mr.Smith", "Mr . Smith"),
        ("", ""),
    ],
)
def test_contractions_and_abbreviations(line: str, expected: str) -> None:
    assert get_tokenizer("13a+contractions")(line) == expected


def test_contractions_leave_other_lines_as_13a_has_them() -> None:
    """Lines without an apostrophe or a listed abbreviation come out exactly as in 13a."""
    lines = [
        line
        for line in demo_lines() + TRICKY
        if "'" not in line
        and "\u2019" not in line
        and not any(a in line.lower() for a in ("mr.", "e.g.", "i.e.", "u.s."))
    ]
    assert len(lines) > 250
    plain, extended = get_tokenizer("13a"), get_tokenizer("13a+contractions")
    assert [extended.tokens(line) for line in lines] == [plain.tokens(line) for line in lines]


# ------------------------------------------------------ Preprocessor options


@pytest.mark.parametrize(
    "name, line, expected",
    [
        ("13a", "Hello, WORLD.", ("hello", ",", "world", ".")),
        ("13a", "&QUOT;x&QUOT;", ('"', "x", '"')),  # lowercased before the entities
        ("13a+contractions", "MR. SMITH'S IT'S", ("mr.", "smith's", "it", "is")),
        ("intl", "ÉCOLE Straße", ("école", "straße")),
        ("char", "AB", ("a", "b")),
    ],
)
def test_lowercase_applies_before_tokenizing(
    name: str, line: str, expected: tuple[str, ...]
) -> None:
    assert Preprocessor(tokenize=name, lowercase=True).tokens(line) == expected


@pytest.mark.parametrize(
    "bounds, line, tokens, ngram_tokens",
    [
        (False, "A cat.", ("A", "cat", "."), ("A", "cat", ".")),
        (True, "A cat.", ("A", "cat", "."), (BOS, "A", "cat", ".", EOS)),
        (True, "", (), (BOS, EOS)),
        (False, "", (), ()),
    ],
)
def test_sentence_boundaries_only_in_ngram_tokens(
    bounds: bool, line: str, tokens: tuple[str, ...], ngram_tokens: tuple[str, ...]
) -> None:
    pp = Preprocessor(sentence_boundaries=bounds)
    assert pp.tokens(line) == tokens
    assert pp.ngram_tokens(line) == ngram_tokens


@pytest.mark.parametrize("name", ["13b", "", "NONE", "sacrebleu"])
def test_unknown_tokenizer_is_a_value_error_naming_it(name: str) -> None:
    with pytest.raises(ValueError, match=rf"unknown tokenizer {name!r}.*13a.*intl"):
        get_tokenizer(name)
    with pytest.raises(ValueError, match=rf"unknown tokenizer {name!r}"):
        Preprocessor(tokenize=name)


# ---------------------------------------------------------------- signatures


@pytest.mark.parametrize("name", [n for n in TOKENIZERS if not n.endswith("-mecab")])
def test_tokenizer_signature_is_its_registry_name(name: str) -> None:
    """All but MeCab's, whose signature adds its version and dictionary (sacreBLEU's)."""
    assert get_tokenizer(name).signature() == name
    assert TOKENIZERS[name]().signature() == name


@pytest.mark.parametrize(
    "name, theirs",
    [("none", NoneTokenizer()), *SACREBLEU.items()],
)
def test_signature_matches_sacrebleu(name: str, theirs: NoneTokenizer) -> None:
    assert get_tokenizer(name).signature() == theirs.signature()


@pytest.mark.parametrize(
    "pp, parts",
    [
        (Preprocessor(), {"tok": "13a", "case": "mixed", "bounds": "no"}),
        (
            Preprocessor(tokenize="13a+contractions", lowercase=True, sentence_boundaries=True),
            {"tok": "13a+contractions", "case": "lc", "bounds": "yes"},
        ),
        (Preprocessor(tokenize="char"), {"tok": "char", "case": "mixed", "bounds": "no"}),
    ],
)
def test_signature_parts(pp: Preprocessor, parts: dict[str, object]) -> None:
    assert pp.signature_parts() == parts


# -------------------------------------------------- frozen, hashable, cached


def test_preprocessor_is_frozen_hashable_and_picklable() -> None:
    a, b = Preprocessor("intl", True, True), Preprocessor("intl", True, True)
    assert a == b
    assert hash(a) == hash(b)
    assert a != Preprocessor("intl", False, True)
    assert len({a, b, Preprocessor()}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.lowercase = False  # type: ignore[misc]
    copy = pickle.loads(pickle.dumps(a))  # noqa: S301 (our own bytes, just written)
    assert copy == a
    assert copy.tokens("Hi, there!") == ("hi", ",", "there", "!")
    assert repr(a) == "Preprocessor(tokenize='intl', lowercase=True, sentence_boundaries=True)"


def test_tokens_are_cached_and_shared_by_equal_preprocessors() -> None:
    line = "A line that every metric and every system tokenizes again."
    first = Preprocessor().tokens(line)
    assert Preprocessor().tokens(line) is first  # another, equal preprocessor
    lowered = Preprocessor(lowercase=True).tokens(line)
    assert lowered is not first
    assert lowered[0] == "a"
    clear_token_caches()
    again = Preprocessor().tokens(line)
    assert again == first
    assert again is not first
