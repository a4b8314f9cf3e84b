"""The drill-down's page (``annotation/dashboard/views.py``'s ``system`` view): plain and
htmx, sorted by a metric or a difference, signatures, new references, pages, bad
parameters, a re-segmented system's cost and boundaries."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.test import Client
from lxml import etree

from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, Judgment, Target
from annotation.tests.documents import add_speech
from annotation.tests.factories import (
    AUTOMATIC,
    HTMX,
    METRICS,
    by_id,
    signature_choice,
    system_pk,
    write_corpus,
)

pytestmark = pytest.mark.django_db


def test_the_drill_down_plain_and_htmx(lead_client: Client, demo: Corpus) -> None:
    url = f"/dashboard/{demo.pk}/system/{system_pk(demo)}/?metric=wer&order=worst"
    plain = lead_client.get(url).content.decode()
    fragment = lead_client.get(url, **HTMX).content.decode()

    assert "<html" in plain
    assert 'id="drill"' in plain
    assert fragment.lstrip().startswith('<section id="drill"')
    values = [float(v) for v in re.findall(r'data-sort-value="([^"]+)"', plain)]
    assert len(values) == 40
    assert values == sorted(values, reverse=True)
    assert 'class="e e-substitution"' in plain


def test_drill_down_sentence_scores_show_their_signature(lead_client: Client, demo: Corpus) -> None:
    url = f"/dashboard/{demo.pk}/system/{system_pk(demo)}/?tok=intl&case=lc"
    tree = etree.HTML(lead_client.get(url).content)
    first = tree.find('.//li[@class="sentence"]')

    titles = {
        s.get("data-metric"): s.get("title") for s in first.iterfind('.//span[@class="score"]')
    }
    assert set(titles) == set(METRICS)
    for metric in AUTOMATIC:
        tok, case = signature_choice(metric, "intl", lowercase=True)
        assert tok in titles[metric], metric
        assert case in titles[metric], metric
    assert titles["bleu"].startswith("nrefs:2|")
    assert all(titles[m] is None for m in METRICS[len(AUTOMATIC) :])  # human: no preprocessing


def test_the_drill_down_sorts_by_the_difference_to_another_system(
    lead_client: Client, demo: Corpus
) -> None:
    other = system_pk(demo, "Online-W")
    html = lead_client.get(
        f"/dashboard/{demo.pk}/system/{system_pk(demo)}/?metric=bleu&order=worst&other={other}"
    ).content.decode()

    values = [float(v) for v in re.findall(r'data-sort-value="([^"]+)"', html)]
    assert values == sorted(values)  # BLEU: the largest deficit first
    assert 'data-other="Online-W"' in html
    assert 'data-col="difference"' in html


def test_the_drill_down_shows_judged_new_references(lead_client: Client, demo: Corpus) -> None:
    judged = Judgment.objects.filter(target__translator__name="NiuTrans").first()
    assert judged is not None
    html = lead_client.get(
        f"/dashboard/{demo.pk}/system/{system_pk(demo)}/?order=position"
    ).content.decode()

    assert f'data-evaluator="{judged.evaluator.username}"' in html


@pytest.mark.parametrize(
    "query",
    [
        "metric=size",
        "order=random",
        "other=999",
        "other=abc",
        "page=x",
        # issue 36: "²" passed isdigit and broke int (a 500); int reads "٢" as 2
        "other=" + quote("²"),
        "page=" + quote("٢"),
        "page=" + quote("１"),
    ],
)
def test_bad_drill_down_parameters_are_400(lead_client: Client, demo: Corpus, query: str) -> None:
    url = f"/dashboard/{demo.pk}/system/{system_pk(demo)}/?{query}"

    assert lead_client.get(url).status_code == 400


def test_a_reference_has_no_drill_down(lead_client: Client, demo: Corpus) -> None:
    url = f"/dashboard/{demo.pk}/system/{system_pk(demo, 'first reference')}/"

    assert lead_client.get(url).status_code == 400


def test_the_drill_down_pages(lead_client: Client, tmp_path: Path) -> None:
    refs = [(f"w{k} x y",) for k in range(120)]
    corpus = corpus_import(
        source=write_corpus(tmp_path / "long.xml", refs, {"S": [f"w{k} x" for k in range(120)]}),
        name="long",
    ).corpus
    url = f"/dashboard/{corpus.pk}/system/{system_pk(corpus, 'S')}/"
    first = lead_client.get(url).content.decode()
    last = lead_client.get(url + "?page=3", **HTMX).content.decode()

    assert first.count('class="sentence"') == 50
    assert 'rel="next"' in first
    assert last.count('class="sentence"') == 20
    assert 'rel="next"' not in last
    assert 'rel="prev"' in last


def test_a_resegmented_system_shows_its_cost_and_boundaries(
    lead_client: Client, demo: Corpus
) -> None:
    entries = add_speech(demo).segmentation["segments"]
    Target.objects.filter(
        sentence__corpus=demo, sentence__position=3, translator__name="speech"
    ).update(text="<i>moved</i> words")
    url = f"/dashboard/{demo.pk}/system/{system_pk(demo, 'speech')}/?order=position"
    html = lead_client.get(url).content.decode()
    fragment = lead_client.get(url, **HTMX).content.decode()
    tree = etree.HTML(html)

    summary = by_id(tree, "segmentation")
    edits, length = sum(e[1] for e in entries), sum(e[2] for e in entries)
    assert (summary.get("data-edits"), summary.get("data-length")) == (str(edits), str(length))
    text = " ".join(summary.itertext())
    assert text.startswith("Re-segmented from one document (seed 002): AS-WER ")
    assert f"{100 * edits / length:.2f} % ({edits} edits / {length} reference words)" in text
    assert "39 boundaries" in text
    boundaries = tree.xpath('//span[@class="boundary"]')
    assert len(boundaries) == 2 * 39  # each sentence's start and end but the document's
    assert [b.get("data-after-sentence") for b in boundaries[:4]] == ["0", "0", "1", "1"]
    for b in boundaries:
        assert [c.get("class") for c in b] == ["before", "after"]
    assert "&lt;i&gt;moved&lt;/i&gt;" in html
    assert "<i>moved" not in html
    assert 'id="segmentation"' in fragment
    assert 'class="boundary"' in fragment


def test_an_ordinary_system_shows_no_segmentation(lead_client: Client, demo: Corpus) -> None:
    add_speech(demo)
    html = lead_client.get(
        f"/dashboard/{demo.pk}/system/{system_pk(demo)}/?order=position"
    ).content.decode()

    assert 'id="segmentation"' not in html
    assert 'class="boundary"' not in html
