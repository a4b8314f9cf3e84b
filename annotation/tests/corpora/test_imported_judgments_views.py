"""A corpus's import-judgments page: leads only; an Appraise CSV or an MQM TSV imported
into the corpus (303 without JavaScript, the fragment with htmx), a refused file
answered 400 with its line and reason and nothing stored."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.models import Corpus, Judgment, Span, User
from annotation.tests.corpora.test_appraise import CAMPAIGN, csv_bytes, imported, row
from annotation.tests.corpora.test_mqm_import import CAMPAIGN as MQM_CAMPAIGN
from annotation.tests.corpora.test_mqm_import import imported as imported_mqm
from annotation.tests.corpora.test_mqm_import import tsv, tsv_row
from annotation.tests.factories import HTMX, by_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def esa(tmp_path: Path) -> Corpus:
    """An ESA corpus of WMT's texts, one judgment in."""
    return imported(tmp_path, CAMPAIGN[:1])


def page(corpus: Corpus) -> str:
    return reverse("annotation:imported_judgments", args=[corpus.pk])


def post(client: Client, corpus: Corpus, data: bytes, layout: str = "appraise", **headers: str):
    form = {"judgments-file": SimpleUploadedFile("esa.csv", data), "judgments-layout": layout}
    return client.post(page(corpus), form, **headers)  # type: ignore[arg-type]


def test_the_page_is_for_leads_only(
    client: Client, user_factory: Callable[..., User], esa: Corpus
) -> None:
    assert client.get(page(esa)).status_code == 302  # to the login page
    client.force_login(user_factory("judge", role=User.Role.JUDGE))
    assert client.get(page(esa)).status_code == 404
    assert post(client, esa, csv_bytes([row("u9", "sysB", 1, 70)])).status_code == 404
    assert Judgment.objects.count() == 1


def test_an_appraise_file_is_imported_into_the_corpus(lead_client: Client, esa: Corpus) -> None:
    response = post(lead_client, esa, csv_bytes([row("u9", "sysB", 1, 70)]))

    assert response.status_code == 303
    assert response["Location"] == page(esa) + "?done=imported"
    assert Judgment.objects.get(evaluator__username="u9").esa_score == 70
    tree = etree.HTML(lead_client.get(response["Location"]).content.decode())
    assert by_id(tree, "judgments-done").get("data-done") == "imported"


def test_with_htmx_the_fragment_says_what_was_stored(lead_client: Client, esa: Corpus) -> None:
    response = post(lead_client, esa, csv_bytes([row("u9", "sysB", 1, 70)]), HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    tree = etree.HTML(response.content.decode())
    done = "".join(by_id(tree, "judgments-done").itertext())
    assert "Imported 1 judgment and 0 control items of 1 annotator" in done


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_refused_file_answers_400_with_its_line_and_reason(
    lead_client: Client, esa: Corpus, headers: dict[str, str]
) -> None:
    lines = [row("u9", "sysB", 1, 70), row("u9", "sysQ", 2, 70)]
    response = post(lead_client, esa, csv_bytes(lines), **headers)

    assert response.status_code == 400
    tree = etree.HTML(response.content.decode())
    refusal = "".join(by_id(tree, "judgments-refusal").itertext())
    assert "esa.csv line 2: unknown system 'sysQ'" in refusal
    assert not Judgment.objects.filter(evaluator__username="u9").exists()


def test_an_mqm_file_is_imported_into_an_mqm_corpus(lead_client: Client, tmp_path: Path) -> None:
    corpus = imported_mqm(tmp_path, MQM_CAMPAIGN[:2])
    more = [MQM_CAMPAIGN[0], tsv_row("sysB", 2, "r7", "<v>Er</v> ist spät.", "Other", "Major")]

    response = post(lead_client, corpus, tsv(more), layout="mqm")

    assert response.status_code == 303
    assert Span.objects.get(judgment__evaluator__username="r7").category == "Other"
