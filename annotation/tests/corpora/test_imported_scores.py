"""A corpus's imported-scores page: leads only; a file of segment scores imported as a named
metric with its direction, or refused with 400, its line and reason, and nothing stored;
a metric replaced or deleted; plain and htmx alike; every name escaped."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, ExternalMetric, ExternalScores, User
from annotation.statistics import external_segment_scores
from annotation.tests.factories import HAND_REFS, HAND_SYSTEMS, HTMX, by_id, write_corpus
from annotation.tests.imported import import_scores, tsv, wmt
from metrics.segment_scores import ERR_OUT_OF_RANGE

pytestmark = pytest.mark.django_db

COMET = {"perfect": [0.9, 0.8, 0.95, 0.85], "one-off": [0.7] * 4, "bad": [0.1, 0.0, 0.2, 0.1]}


@pytest.fixture
def hand(tmp_path: Path) -> Corpus:
    source = write_corpus(tmp_path / "hand.xml", HAND_REFS, HAND_SYSTEMS)
    return corpus_import(source=source, name="hand", score=False).corpus


def page(corpus: Corpus) -> str:
    return reverse("annotation:external_scores", args=[corpus.pk])


def post(
    client: Client,
    corpus: Corpus,
    data: bytes,
    *,
    name: str = "COMET-22",
    direction: str = "higher",
    layout: str = "tsv",
    filename: str = "comet.tsv",
    **extra: object,
):
    form = {
        "scores-file": SimpleUploadedFile(filename, data),
        "scores-name": name,
        "scores-direction": direction,
        "scores-layout": layout,
        "scores-description": "wmt22-comet-da",
        **{f"scores-{k}": v for k, v in extra.items() if k != "headers"},
    }
    headers = extra.get("headers", {})
    return client.post(page(corpus), form, **headers)  # type: ignore[arg-type]


def test_the_page_is_for_leads_only(
    client: Client, user_factory: Callable[..., User], hand: Corpus
) -> None:
    delete = reverse("annotation:external_scores_delete", args=[hand.pk])
    assert client.get(page(hand)).status_code == 302  # to the login page
    client.force_login(user_factory("judge", role=User.Role.JUDGE))
    assert client.get(page(hand)).status_code == 404
    assert post(client, hand, tsv(COMET)).status_code == 404
    assert client.post(delete, {"name": "COMET-22"}).status_code == 404
    assert not ExternalMetric.objects.exists()


def test_a_file_is_imported_and_listed_with_its_direction(
    lead_client: Client, hand: Corpus
) -> None:
    response = post(lead_client, hand, tsv(COMET))

    assert response.status_code == 303
    assert response["Location"] == page(hand) + "?done=imported"
    stored = external_segment_scores(Corpus.objects.get(pk=hand.pk), "COMET-22")
    assert {s: v.tolist() for s, v in stored.items()} == COMET
    html = lead_client.get(response["Location"]).content.decode()
    tree = etree.HTML(html)
    assert by_id(tree, "scores-done").get("data-done") == "imported"
    (row,) = by_id(tree, "imported-metrics").findall(".//tbody/tr")
    assert (row.get("data-metric"), row.get("data-higher")) == ("COMET-22", "true")
    assert "higher is better" in "".join(row.itertext())
    assert "wmt22-comet-da" in "".join(row.itertext())


def test_the_wmt_layout_with_htmx_answers_the_fragment(lead_client: Client, hand: Corpus) -> None:
    response = post(
        lead_client, hand, wmt(COMET), name="MetricX", direction="lower", layout="wmt", headers=HTMX
    )

    assert response.status_code == 200
    tree = etree.HTML(response.content.decode())
    assert by_id(tree, "imported-scores") is not None
    assert "Imported MetricX" in "".join(by_id(tree, "scores-done").itertext())
    assert ExternalMetric.objects.get().higher_is_better is False


REFUSALS = [
    (tsv({**COMET, "rules": [0.5] * 4}), "comet.tsv line 13: unknown system 'rules'"),
    (tsv(COMET) + b"bad\t4\t0.3\n", "comet.tsv line 13: system 'bad' has a score for segment 4"),
    (
        tsv(COMET).replace(b"bad\t3\t0.2\n", b""),
        "comet.tsv: system 'bad' has no score for segment 3",
    ),
    (
        tsv(COMET).replace(b"bad\t3\t0.2", b"bad\t9\t0.2"),
        "comet.tsv line 11: segment 9 is out of range",
    ),
    (
        tsv(COMET).replace(b"bad\t3\t0.2", b"bad\t3\tinf"),
        "comet.tsv line 11: score 'inf' is not a finite number",
    ),
    (  # issue 36: accepted, and the mean of such scores overflowed to infinity
        tsv({**COMET, "bad": [1e308] * 4}),
        f"comet.tsv line 9: score '1e+308' {ERR_OUT_OF_RANGE}",
    ),
    (
        tsv(COMET).replace(b"bad\t3\t0.2", b"bad\t3\thigh"),
        "comet.tsv line 11: score 'high' is not a number",
    ),
    (  # issue 36: Arabic-Indic 12, which Python's float reads as 12.0
        tsv(COMET).replace(b"bad\t3\t0.2", "bad\t3\t١٢".encode()),
        "comet.tsv line 11: score '١٢' is not a number",
    ),
    (tsv(COMET).replace(b"bad\t3\t0.2", b"bad 3 0.2"), "comet.tsv line 11: 1 column, expected 3"),
    (b"", "comet.tsv line 1: the file is empty"),
]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("data, reason", REFUSALS)
def test_a_file_that_does_not_match_is_refused_with_400_its_line_and_reason(
    lead_client: Client, hand: Corpus, data: bytes, reason: str, htmx: bool
) -> None:
    response = post(lead_client, hand, data, headers=HTMX if htmx else {})

    assert response.status_code == 400
    refusal = by_id(etree.HTML(response.content.decode()), "scores-refusal")
    assert refusal.find(".//p[@data-refusal]").text.startswith(reason)
    assert not ExternalMetric.objects.exists()
    assert not ExternalScores.objects.exists()


@pytest.mark.parametrize(
    "field, value, reason",
    [
        ("name", "BLEU", "the name 'BLEU' is taken by a metric evaltool computes"),
        ("name", "COMET 22", "is not a metric name"),
        ("direction", "", "This field is required."),
        ("layout", "csv", "Select a valid choice."),
    ],
)
def test_a_bad_form_is_refused_with_400_naming_the_field(
    lead_client: Client, hand: Corpus, field: str, value: str, reason: str
) -> None:
    response = post(lead_client, hand, tsv(COMET), **{field: value})

    assert response.status_code == 400
    errors = by_id(etree.HTML(response.content.decode()), "scores-errors")
    (item,) = errors.findall(f".//li[@data-field='{field}']")
    assert reason in "".join(item.itertext())
    assert not ExternalMetric.objects.exists()


def test_a_name_taken_is_refused_unless_the_lead_replaces_it(
    lead_client: Client, hand: Corpus
) -> None:
    import_scores(hand, "COMET-22", COMET)
    doubled = {s: [2 * v for v in values] for s, values in COMET.items()}

    refused = post(lead_client, hand, tsv(doubled))
    assert refused.status_code == 400
    assert "named 'COMET-22' already" in refused.content.decode().replace("&#x27;", "'")
    assert post(lead_client, hand, tsv(doubled), replace="on").status_code == 303

    stored = external_segment_scores(Corpus.objects.get(pk=hand.pk), "COMET-22")
    assert {s: v.tolist() for s, v in stored.items()} == doubled


@pytest.mark.parametrize("htmx", [False, True])
def test_a_metric_is_deleted_and_an_unknown_one_refused(
    lead_client: Client, hand: Corpus, htmx: bool
) -> None:
    import_scores(hand, "COMET-22", COMET)
    delete = reverse("annotation:external_scores_delete", args=[hand.pk])
    headers = HTMX if htmx else {}

    done = lead_client.post(delete, {"name": "COMET-22"}, **headers)

    assert done.status_code == (200 if htmx else 303)
    assert not ExternalMetric.objects.exists()
    assert not ExternalScores.objects.exists()
    again = lead_client.post(delete, {"name": "COMET-22"}, **headers)
    assert again.status_code == 400
    assert "has no imported metric named" in again.content.decode()


def test_what_a_lead_typed_is_escaped(lead_client: Client, hand: Corpus) -> None:
    post(lead_client, hand, tsv(COMET), filename="<b>comet</b>.tsv", description="<i>x</i>")
    response = post(lead_client, hand, b"<script>\t1\t1\n", name="xCOMET", filename="<b>c</b>.tsv")

    html = response.content.decode()
    assert "<script>" not in html
    assert "<b>" not in html
    assert "&lt;script&gt;" in html
    listed = lead_client.get(page(hand)).content.decode()
    assert "<i>x</i>" not in listed
    assert "&lt;i&gt;x&lt;/i&gt;" in listed
