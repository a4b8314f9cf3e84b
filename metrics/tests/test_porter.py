"""The Porter stemmer: NLTK's ``PorterStemmer()`` (NLTK_EXTENSIONS mode) on every word
WordNet lists, every word of the demo corpus and random letter strings."""

from __future__ import annotations

import random

import pytest
from nltk.stem.porter import PorterStemmer

from metrics.porter import measure, stem
from metrics.tests.demo import demo_lines
from metrics.tokenize import Preprocessor
from metrics.wordnet import PARTS, wordnet_dir


def wordnet_words() -> list[str]:
    """Every one-word lemma of WordNet's indexes and every form of its exception lists
    (a METEOR token has no "_")."""
    root = wordnet_dir()
    words: set[str] = set()
    for _, suffix in PARTS:
        for line in (root / f"index.{suffix}").read_text(encoding="utf-8").splitlines():
            if not line.startswith(" "):
                words.add(line.split(" ", 1)[0])
        for line in (root / f"{suffix}.exc").read_text(encoding="utf-8").splitlines():
            words.update(line.split())
    return sorted(w for w in words if "_" not in w)


@pytest.mark.slow
def test_every_wordnet_word_stems_as_nltk() -> None:
    theirs = PorterStemmer()
    words = wordnet_words()
    assert len(words) > 80_000
    differ = [w for w in words if stem(w) != theirs.stem(w)]
    assert differ == []


def test_every_demo_word_stems_as_nltk() -> None:
    theirs = PorterStemmer()
    pp = Preprocessor()
    words = sorted({w for line in demo_lines() for w in pp.tokens(line)})
    assert [w for w in words if stem(w) != theirs.stem(w)] == []


def test_random_strings_of_tricky_letters_stem_as_nltk() -> None:
    """Runs of y, doubled consonants, the suffixes of every step, capitals."""
    theirs = PorterStemmer()
    rnd = random.Random(0)
    pieces = [*"aeiouyyslbtdzcgnrwxY", "ies", "ied", "eed", "ing", "ational", "alli", "logi"]
    words = {"".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 6))) for _ in range(30000)}
    assert [w for w in sorted(words) if stem(w) != theirs.stem(w)] == []


@pytest.mark.parametrize(
    "word, expected",
    [
        ("caresses", "caress"),  # the paper's examples, step by step
        ("ponies", "poni"),
        ("cats", "cat"),
        ("agreed", "agre"),
        ("plastered", "plaster"),
        ("motoring", "motor"),
        ("hopping", "hop"),
        ("filing", "file"),
        ("happy", "happi"),
        ("relational", "relat"),
        ("generalization", "gener"),
        ("dying", "die"),  # NLTK's irregular forms
        ("skies", "sky"),
        ("ties", "tie"),  # NLTK: four-letter "ies" → "ie"
        ("by", "by"),  # two letters: as they are
    ],
)
def test_hand_cases(word: str, expected: str) -> None:
    assert stem(word) == expected


@pytest.mark.parametrize(
    "word, m", [("tr", 0), ("tree", 0), ("by", 0), ("trouble", 1), ("oats", 1), ("private", 2)]
)
def test_measure_is_the_papers(word: str, m: int) -> None:
    assert measure(word) == m
