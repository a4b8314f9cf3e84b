"""New references read as text (:func:`annotation.text.readable_new_ref`): detokenized
where the 13a words come back the same, spaced where they would not, counted the same
either way."""

from __future__ import annotations

import pytest
from lxml import etree

from annotation.models import Corpus
from annotation.tests.factories import DEMO_XML, SEED_XML
from annotation.text import (
    DEFAULT_LANGUAGE,
    corpus_language,
    corpus_languages,
    imported_new_ref_counts,
    new_ref_counts,
    readable_new_ref,
    readable_text,
    words,
)

READABLE = [
    ("Hello , world .", "Hello, world."),
    ('He said " hi " .', 'He said "hi".'),
    ("Chart represents the method .", "Chart represents the method."),
    ("a & b", "a & b"),
    ("don't", "don't"),
]

#: Token sequences whose detokenized text 13a would cut differently: kept spaced.
SPACED = [
    "It 's 3.5 % ( ok ) !",
]


def _texts(path) -> list[str]:
    """Every target and newRef text of an evalTrans file."""
    tree = etree.parse(str(path))
    return [t.text or "" for t in tree.iter("target", "newRef")]


@pytest.mark.parametrize("spaced, readable", READABLE)
def test_a_new_reference_reads_as_text(spaced: str, readable: str) -> None:
    assert readable_new_ref(words(spaced)) == readable
    assert words(readable) == words(spaced)


@pytest.mark.parametrize("spaced", SPACED)
def test_words_the_detokenizer_would_cut_otherwise_keep_the_spaced_form(spaced: str) -> None:
    assert readable_new_ref(words(spaced)) == " ".join(words(spaced))


def test_the_same_words_always_give_the_same_text() -> None:
    for text in ("Hello , world .", "Hello, world.", "  Hello ,world . "):
        assert readable_text(text) == "Hello, world."


@pytest.mark.parametrize("path", [DEMO_XML, SEED_XML], ids=["ted-zh-en", "seed-001"])
def test_every_text_of_the_demo_corpora_keeps_its_13a_words_and_its_counts(path) -> None:
    texts = _texts(path)
    assert len(texts) > 5
    candidate = texts[-1]
    for text in texts:
        spaced = " ".join(words(text))
        readable = readable_text(text)
        assert words(readable) == words(text)
        assert readable_text(readable) == readable  # export → import → export
        assert new_ref_counts(candidate, readable) == new_ref_counts(candidate, spaced)


def test_an_import_counts_many_new_references_as_each_is_counted_alone() -> None:
    texts = _texts(DEMO_XML)
    pairs = [(texts[k], readable_text(texts[k + 1])) for k in range(0, 60, 2)]
    pairs.append(("A sentence never edited .", "A sentence never edited."))

    together = imported_new_ref_counts(pairs)

    assert together == [new_ref_counts(c, r, hter=True) for c, r in pairs]
    assert together[-1] == {"edits": 0, "ref_length": 5, "ter_edits": 0, "ter_length": 5}
    assert any(counts["ter_edits"] > 0 for counts in together)
    assert imported_new_ref_counts([]) == []


def test_most_demo_texts_read_without_spaced_punctuation() -> None:
    texts = [readable_text(t) for t in _texts(DEMO_XML)]
    spaced = [t for t in texts if " ." in t or " ," in t]
    assert len(spaced) < len(texts) / 10


@pytest.mark.parametrize(
    "attrs, language",
    [
        ([], DEFAULT_LANGUAGE),
        ([["trglang", "de"]], "de"),
        ([["srclang", "zh"], ["trglang", " FR "]], "fr"),
        ([["lang", ""]], DEFAULT_LANGUAGE),
    ],
)
def test_the_corpus_names_the_language_its_new_references_are_detokenized_for(
    attrs: list[list[str]], language: str
) -> None:
    assert corpus_language(Corpus(name="c", extra_attrs=attrs)) == language


@pytest.mark.parametrize(
    "attrs, source, target",
    [
        ([], ("", "auto"), ("", "auto")),
        ([["srclang", "en"], ["trglang", "ar"]], ("en", "auto"), ("ar", "rtl")),
        ([["source-language", "HE"], ["lang", "en_GB"]], ("he", "rtl"), ("en-gb", "auto")),
        ([["trglang", "pa-Arab"]], ("", "auto"), ("pa-arab", "rtl")),
        ([["trglang", "az-Latn"]], ("", "auto"), ("az-latn", "auto")),
        ([["trglang", "Arabic"]], ("", "auto"), ("", "auto")),  # no tag: nothing claimed
    ],
)
def test_the_page_marks_a_corpus_s_texts_with_the_languages_its_file_names(
    attrs: list[list[str]], source: tuple[str, str], target: tuple[str, str]
) -> None:
    languages = corpus_languages(Corpus(name="c", extra_attrs=attrs))
    assert [(language.lang, language.dir) for language in languages] == [source, target]
