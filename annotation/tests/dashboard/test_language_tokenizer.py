"""The dashboard's default tokenizer follows the corpus's target language (issue 40):
``zh`` for Chinese, ``ja-mecab`` for Japanese, ``ko-mecab`` for Korean, as sacreBLEU and
WMT score them; 13a for any other language, or none named. The page says which, and the
metrics' signatures carry the tokenizer's own (MeCab's version and dictionary)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from django.core.management import call_command
from django.test import Client
from lxml import etree

from annotation.corpora.imports import corpus_import
from annotation.corpora.systems import corpus_add_system
from annotation.dashboard import figures
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.preprocessing import Preprocessing
from annotation.jobs import Job, run_queued_jobs
from annotation.models import Corpus, User
from annotation.tests.boards import view_of
from annotation.tests.factories import (
    CHINESE,
    CHINESE_REFS,
    CHINESE_SYSTEMS,
    by_id,
    cells,
    queue_upload,
)
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


def imported(tmp_path: Path, lead: User) -> Corpus:
    return corpus_import(source=io.BytesIO(CHINESE.encode()), name="zh").corpus


def import_command(tmp_path: Path, lead: User) -> Corpus:
    (tmp_path / "zh.xml").write_text(CHINESE, encoding="utf-8")
    call_command("import_evaltrans", str(tmp_path / "zh.xml"), "--name", "zh", stdout=io.StringIO())
    return Corpus.objects.get(name="zh")


def uploaded(tmp_path: Path, lead: User) -> Corpus:
    queue_upload(lead, CHINESE.encode(), "zh")
    run_queued_jobs()  # the import's job, which queues the scoring's
    return Corpus.objects.get(name="zh")


def with_a_system_added(tmp_path: Path, lead: User) -> Corpus:
    corpus = imported(tmp_path, lead)
    run_queued_jobs()
    lines = ["我喜欢猫。", "今天天气好。", "他读书。"]
    return corpus_add_system(
        corpus=corpus, name="sys C", lines=lines, filename="c.txt", unsegmented=False
    ).corpus


#: Every way a corpus's texts arrive or change that queues their scoring with them.
ARRIVALS = [imported, import_command, uploaded, with_a_system_added]


@pytest.mark.parametrize("arrive", ARRIVALS)
def test_the_first_view_after_the_scoring_job_reads_the_language_s_choice(
    lead_client: Client,
    lead: User,
    tmp_path: Path,
    settings: Any,
    arrive: Callable[[Path, User], Corpus],
) -> None:
    """The job queued with the texts scores the corpus's own default choice (tok:zh for a
    Chinese target), so the dashboard's first view shows its figures at once and queues
    nothing, rather than a second job for the choice the language picks."""
    settings.TASKS = settings.QUEUED_TASKS  # the jobs wait for a worker
    corpus = arrive(tmp_path, lead)
    run_queued_jobs()  # a worker
    jobs = Job.objects.count()

    html = lead_client.get(f"/dashboard/{corpus.pk}/").content.decode()

    assert Job.objects.count() == jobs
    assert 'id="scoring"' not in html
    assert "not <code>manage.py scores</code>" not in html  # its defaults are the corpus's
    bleu = {system: cell for (system, metric), cell in cells(html).items() if metric == "bleu"}
    assert "|tok:zh|" in bleu["sys A"]["title"]
    expected = sacrebleu.corpus_bleu(CHINESE_SYSTEMS["sys A"], [CHINESE_REFS], tokenize="zh")
    assert float(bleu["sys A"]["data-value"]) == pytest.approx(expected.score)
