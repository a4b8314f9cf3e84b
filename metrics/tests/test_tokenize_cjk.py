"""Chinese, Japanese and Korean BLEU as WMT publishes it: sacreBLEU 2.6's ``zh``,
``ja-mecab`` and ``ko-mecab`` tokenizers, and the target language that picks them.

The real text is 300 lines of NTREX-128's Chinese, Japanese and Korean references with
a system output made from each by seeded character edits (metrics/tests/data/README.md
says where from and how). Every line, and BLEU of corpus and sentence, must be
sacreBLEU's exactly: the same tokens, the same statistics, the same signature.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab
from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from metrics import __version__
from metrics.bleu import BLEU
from metrics.tokenize import (
    DEFAULT_TOKENIZER,
    Preprocessor,
    get_tokenizer,
    tokenizer_for_language,
)
from metrics.tokenize_cjk import _ZH_CHAR

DATA = Path(__file__).parent / "data" / "cjk"
#: The tokenizer of each language of the test data, and sacreBLEU's.
PEERS = {
    "zh": ("zh", TokenizerZh),
    "ja": ("ja-mecab", TokenizerJaMecab),
    "ko": ("ko-mecab", TokenizerKoMecab),
}
LANGUAGES = list(PEERS)

#: Lines that make the rules meet: ASCII inside CJK text, marks at the ends, spaces.
TRICKY = [
    "",
    "   ",
    ".5と5.",
    ",中,",
    "中.5",
    "5.中",
    "&quot;引号&quot; <skipped> a-\nb",
    "“引用”——《书名》…… 1,000.50元，3-4天。",
    "Ｆｕｌｌ－ｗｉｄｔｈ　ＡＳＣＩＩ，１２３．４５",
    "𠀀𪜀 astral ideographs, ⺀ radicals, ㈠ ㍿",
    "東京都は2020年に五輪を開催した。iPhone 12 Pro を買った！",
    '서울특별시는 2023년 1월 1일부터 "새 정책"을 시행했다...',
    "tab\tseparated\u00a0nbsp\u3000ideographic space",
]


def lines(lang: str, side: str) -> list[str]:
    return (DATA / f"ntrex128.{side}.{lang}").read_text(encoding="utf-8").splitlines()


def test_the_data_is_three_hundred_lines_per_language_and_not_identical() -> None:
    for lang in LANGUAGES:
        refs, hyps = lines(lang, "ref"), lines(lang, "sys")
        assert len(refs) == len(hyps) == 300
        assert 200 < sum(r != h for r, h in zip(refs, hyps, strict=True)) < 300


# ------------------------------------------------------------------ the tokens


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_tokenizes_as_sacrebleu(lang: str) -> None:
    name, peer = PEERS[lang]
    ours, theirs = get_tokenizer(name), peer()
    text = lines(lang, "ref") + lines(lang, "sys") + TRICKY
    assert [ours(line) for line in text] == [theirs(line) for line in text]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_tokenizer_reads_the_other_languages_as_sacrebleu(lang: str) -> None:
    name, peer = PEERS[lang]
    ours, theirs = get_tokenizer(name), peer()
    text = [line for other in LANGUAGES if other != lang for line in lines(other, "ref")[:50]]
    assert [ours(line) for line in text] == [theirs(line) for line in text]


def test_zh_takes_for_chinese_the_very_characters_sacrebleu_takes() -> None:
    """Every code point: sacreBLEU's table compares with strings, two of whose bounds are
    two characters long, and ours spells out the ranges that gives."""
    is_chinese = TokenizerZh._is_chinese_char.__wrapped__  # type: ignore[attr-defined]
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    theirs = "".join(c for c in every if is_chinese(c))
    ours = "".join(_ZH_CHAR.findall(every))
    assert ours == theirs
    assert "\u2014" in ours  # the em dash: in U+2001–U+2A6D, as sacreBLEU reads its table
    assert "\U00020000" not in ours  # and no astral ideograph, for the same reason


def test_zh_on_all_short_strings_over_marks_digits_and_chinese() -> None:
    """Up to 4 characters: 13a's rules where a mark begins or ends the line (``zh`` does
    not put the line between spaces, as 13a does)."""
    ours, theirs = get_tokenizer("zh"), TokenizerZh()
    mismatches = [
        s
        for length in range(1, 5)
        for s in map("".join, itertools.product("中a5.,- &", repeat=length))
        if ours(s) != theirs(s)
    ]
    assert mismatches == []


@pytest.mark.parametrize(
    "name, line, expected",
    [
        ("zh", "我们来自于光，1990年。", "我 们 来 自 于 光 ， 1990 年 。"),
        ("zh", "&quot;x&quot;", "& quot ; x & quot ;"),  # no unescaping, unlike 13a
        ("ja-mecab", "今日は良い天気ですね。", "今日 は 良い 天気 です ね 。"),
        ("ko-mecab", "오늘 날씨가 좋네요.", "오늘 날씨 가 좋 네요 ."),
    ],
)
def test_hand_checked_outputs(name: str, line: str, expected: str) -> None:
    assert get_tokenizer(name)(line) == expected
    assert Preprocessor(tokenize=name).tokens(line) == tuple(expected.split())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lowercase", [False, True])
def test_preprocessor_gives_the_tokens_sacrebleus_bleu_counts(lang: str, lowercase: bool) -> None:
    name, _ = PEERS[lang]
    bleu = sacrebleu.BLEU(tokenize=name, lowercase=lowercase)
    pp = Preprocessor(tokenize=name, lowercase=lowercase)
    text = lines(lang, "sys") + TRICKY
    assert [pp.tokens(line) for line in text] == [
        tuple(bleu._preprocess_segment(line).split()) for line in text
    ]


# ------------------------------------------------------------------ BLEU


@pytest.mark.parametrize("lang", LANGUAGES)
def test_corpus_bleu_is_sacrebleus_on_real_text(lang: str) -> None:
    name, _ = PEERS[lang]
    refs, hyps = lines(lang, "ref"), lines(lang, "sys")
    theirs = sacrebleu.BLEU(tokenize=name)
    want = theirs.corpus_score(hyps, [refs])
    got = BLEU(tokenize=name).corpus_score(hyps, [(r,) for r in refs])
    assert got.score == pytest.approx(want.score, abs=1e-9, rel=0)
    assert 80 < got.score < 95  # the edits cost something
    stats = np.array(theirs._extract_corpus_statistics(hyps, [refs]), dtype=np.float64)
    np.testing.assert_array_equal(got.stats, stats)
    # the signature: sacreBLEU's facts (tokenizer with MeCab's version and dictionary)
    # and evaltool's own two
    theirs_signature = str(theirs.get_signature()).rsplit("|version:", 1)[0]
    assert got.signature == (f"{theirs_signature}|reflen:closest|bounds:no|version:{__version__}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sentence_bleu_is_sacrebleus_on_real_text(lang: str) -> None:
    name, _ = PEERS[lang]
    refs, hyps = lines(lang, "ref"), lines(lang, "sys")
    got = BLEU(tokenize=name).sentence_scores(hyps, [(r,) for r in refs])
    want = [
        sacrebleu.sentence_bleu(h, [r], tokenize=name).score
        for h, r in zip(hyps, refs, strict=True)
    ]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)


@pytest.mark.parametrize(
    "name, signature",
    [("zh", "zh"), ("ja-mecab", "ja-mecab-0.996-IPA"), ("ko-mecab", "ko-mecab-0.996/ko-0.9.2-KO")],
)
def test_signatures_are_sacrebleus(name: str, signature: str) -> None:
    peer = dict(PEERS.values())[name]
    assert get_tokenizer(name).signature() == peer().signature() == signature
    assert Preprocessor(tokenize=name).signature_parts()["tok"] == signature


# ------------------------------------------------------------------ the language


@pytest.mark.parametrize(
    "language, tokenizer",
    [
        ("zh", "zh"),
        ("zh-CN", "zh"),
        ("zh_TW", "zh"),
        ("zho", "zh"),
        ("cmn", "zh"),
        ("ja", "ja-mecab"),
        ("JA-jp", "ja-mecab"),
        ("jpn", "ja-mecab"),
        ("ko", "ko-mecab"),
        ("kor", "ko-mecab"),
        ("en", DEFAULT_TOKENIZER),
        ("de-CH", DEFAULT_TOKENIZER),
        ("", DEFAULT_TOKENIZER),
        ("zhx", DEFAULT_TOKENIZER),
    ],
)
def test_the_target_language_picks_sacrebleus_tokenizer(language: str, tokenizer: str) -> None:
    assert tokenizer_for_language(language) == tokenizer
    short = language.split("-")[0].split("_")[0].lower()
    if short in {"zh", "ja", "ko"}:  # sacreBLEU's own map, for the codes it knows
        assert sacrebleu.BLEU(trg_lang=short).tokenizer.signature().startswith(tokenizer)
