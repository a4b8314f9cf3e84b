"""The dashboard's default tokenizer follows the corpus's target language (issue 40):
``zh`` for Chinese, ``ja-mecab`` for Japanese, ``ko-mecab`` for Korean, as sacreBLEU and
WMT score them; 13a for any other language, or none named. The page says which, and the
metrics' signatures carry the tokenizer's own (MeCab's version and dictionary)."""

from __future__ import annotations

import pytest
from django.test import Client
from lxml import etree

from annotation.dashboard import figures
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.preprocessing import Preprocessing
from annotation.jobs import run_queued_jobs
from annotation.models import Corpus
from annotation.tests.boards import view_of
from annotation.tests.factories import by_id, cells
from annotation.tests.stored import automatic_statistics

pytestmark = pytest.mark.django_db

LANGUAGES = [
    ("trglang", "zh", "zh"),
    ("trglang", "zh-CN", "zh"),
    ("trglang", "ja", "ja-mecab"),
    ("target-language", "jpn", "ja-mecab"),
    ("trglang", "ko", "ko-mecab"),
    ("trglang", "de", "13a"),
    ("srclang", "zh", "13a"),  # the source language picks nothing
]


def targeting(corpus: Corpus, attribute: str, language: str) -> Corpus:
    corpus.extra_attrs = [*corpus.extra_attrs, [attribute, language]]
    corpus.save(update_fields=["extra_attrs"])
    return corpus


@pytest.mark.parametrize("attribute, language, tokenizer", LANGUAGES)
def test_the_target_language_picks_the_default_tokenizer(
    hand_corpus: Corpus, attribute: str, language: str, tokenizer: str
) -> None:
    corpus = targeting(hand_corpus, attribute, language)
    inputs = DashboardInputs.from_params(corpus, {})
    assert inputs.preprocessing == Preprocessing(tokenize=tokenizer)
    assert inputs.preprocessing.signature.startswith(f"tok:{tokenizer}|case:mixed|")
    assert inputs.tokenizer_language == ("" if tokenizer == "13a" else language.lower())


def test_a_corpus_naming_no_language_keeps_13a(hand_corpus: Corpus) -> None:
    inputs = DashboardInputs.from_params(hand_corpus, {})
    assert inputs.preprocessing == Preprocessing()
    assert inputs.tokenizer_language == ""


def test_a_tokenizer_chosen_in_the_address_wins_over_the_language(hand_corpus: Corpus) -> None:
    corpus = targeting(hand_corpus, "trglang", "zh")
    inputs = DashboardInputs.from_params(corpus, {"tok": "13a"})
    assert inputs.preprocessing.tokenize == "13a"
    assert inputs.tokenizer_language == ""
    assert "tok=13a" in inputs.query()


#: A language, the tokenizer it picks, and that tokenizer's part of a signature.
PICKED = [
    ("zh", "zh", "tok:zh"),
    ("ja", "ja-mecab", "tok:ja-mecab-0.996-IPA"),
    ("ko", "ko-mecab", "tok:ko-mecab-0.996/ko-0.9.2-KO"),
]


@pytest.mark.parametrize("language, tokenizer, signature", PICKED)
def test_the_page_says_which_tokenizer_the_language_picked(
    lead_client: Client, hand_corpus: Corpus, language: str, tokenizer: str, signature: str
) -> None:
    """The choice is scored by the job the first view queues; the second view shows it."""
    corpus = targeting(hand_corpus, "trglang", language)
    lead_client.get(f"/dashboard/{corpus.pk}/")  # queues the choice's scoring
    run_queued_jobs()
    html = lead_client.get(f"/dashboard/{corpus.pk}/").content.decode()
    page = etree.HTML(html)
    selected = by_id(page, "pre-tok").xpath("./option[@selected]/@value")
    assert selected == [tokenizer]
    assert "".join(by_id(page, "pre-signature").itertext()).startswith(f"tok:{tokenizer}|")
    said = "".join(by_id(page, "pre-tok-language").itertext())
    assert (
        said == f"tok:{tokenizer} for the target language {language}, as sacreBLEU and WMT score it"
    )
    bleu = next(cell for (_, metric), cell in cells(html).items() if metric == "bleu")
    assert f"|{signature}|" in bleu["title"]


def test_a_page_in_13a_says_nothing_of_a_language(lead_client: Client, hand_corpus: Corpus) -> None:
    corpus = targeting(hand_corpus, "trglang", "de")
    page = etree.HTML(lead_client.get(f"/dashboard/{corpus.pk}/").content.decode())
    assert page.xpath("//*[@id='pre-tok-language']") == []
    assert by_id(page, "pre-tok").xpath("./option[@selected]/@value") == ["13a"]


def test_bleu_of_a_chinese_corpus_is_scored_with_zh_not_13a(hand_corpus: Corpus) -> None:
    corpus = targeting(hand_corpus, "trglang", "zh")
    chosen = Preprocessing.for_corpus(corpus)
    automatic_statistics(corpus, preprocessor=chosen.preprocessor())
    rows = view_of(corpus, chosen).get(figures.table).rows
    assert "tok:zh" in rows[0].cell("bleu").signature
    plain = view_of(corpus).get(figures.table).rows
    assert "tok:13a" in plain[0].cell("bleu").signature
