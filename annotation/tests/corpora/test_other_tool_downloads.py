"""Other tools' files as the dashboard's downloads: a campaign's ESA judgments as
Appraise's CSV and its human scores as mt-metrics-eval's ``.seg.score`` and
``.sys.score``, the same files as the commands write, so a campaign imported and
downloaded gives its rows back; a corpus without such scores offers no link, and a
request for scores it has not is answered 400 with what it has."""

from __future__ import annotations

import html
import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.http import HttpResponse, StreamingHttpResponse
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.corpora.appraise_csv import read_appraise_rows
from annotation.models import Corpus
from annotation.tests.corpora.test_appraise import CAMPAIGN, csv_bytes, imported
from annotation.tests.corpora.test_mtme_scores import SEG, SYS, import_human
from annotation.tests.corpora.test_mtme_scores import corpus as mtme_corpus
from annotation.tests.factories import by_id

pytestmark = pytest.mark.django_db


def body(response: HttpResponse | StreamingHttpResponse) -> str:
    if isinstance(response, StreamingHttpResponse):
        return b"".join(response.streaming_content).decode()  # type: ignore[arg-type]
    return response.content.decode()


def text(response: HttpResponse) -> str:
    """An error page's text, its entities read."""
    return html.unescape(response.content.decode())


def download(client: Client, name: str, corpus: Corpus, **query: str) -> HttpResponse:
    return client.get(reverse(f"dashboard:{name}", args=[corpus.pk]), query)


def command(name: str, *args: str, **options: str) -> str:
    out = io.StringIO()
    call_command(name, *args, stdout=out, **options)
    return out.getvalue()


def links(client: Client, corpus: Corpus) -> dict[str, str]:
    html = client.get(reverse("dashboard:page", args=[corpus.pk])).content.decode()
    nav = by_id(etree.HTML(html), "dashboard").find('.//nav[@class="downloads"]')
    return {a.get("id"): a.get("href") for a in nav.iterfind(".//a")}


def test_an_appraise_campaign_downloads_as_the_rows_it_was_imported_from(
    lead_client: Client, tmp_path: Path
) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    response = download(lead_client, "appraise_csv", corpus)

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="wmt-en-de-appraise.csv"'
    text = body(response)
    assert text == command("export_appraise", "wmt-en-de")
    assert read_appraise_rows(text.encode()) == read_appraise_rows(csv_bytes(CAMPAIGN))


def test_an_esa_campaign_downloads_its_human_scores_as_mt_metrics_eval_keeps_them(
    lead_client: Client, tmp_path: Path
) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    seg = download(lead_client, "seg_score", corpus)
    sys = download(lead_client, "sys_score", corpus)

    assert seg["Content-Disposition"] == 'attachment; filename="wmt-en-de.esa.seg.score"'
    assert body(seg) == command("export_scores", "wmt-en-de", format="mtme")
    # by hand from CAMPAIGN: per candidate its judges' mean, then the system's mean
    assert body(sys) == "sysA\t77.5\nsysB\t43.75\nrefA\t100.0\n"
    found = links(lead_client, corpus)
    assert found["download-appraise-csv"] == reverse("dashboard:appraise_csv", args=[corpus.pk])
    assert found["download-seg-score"] == reverse("dashboard:seg_score", args=[corpus.pk])


def test_imported_human_scores_download_as_the_files_they_came_from(
    lead_client: Client, tmp_path: Path
) -> None:
    corpus = mtme_corpus(tmp_path)
    import_human(tmp_path)

    assert body(download(lead_client, "seg_score", corpus)) == SEG
    assert body(download(lead_client, "sys_score", corpus)) == SYS
    assert body(download(lead_client, "sys_score", corpus, metric="MQM-WMT")) == SYS
    assert "download-sys-score" in links(lead_client, corpus)
    assert "download-appraise-csv" not in links(lead_client, corpus)  # no ESA judgments


def test_scores_a_corpus_has_not_are_refused_with_what_it_has(
    lead_client: Client, tmp_path: Path
) -> None:
    corpus = mtme_corpus(tmp_path)

    bare = download(lead_client, "seg_score", corpus)
    import_human(tmp_path)
    unknown = download(lead_client, "seg_score", corpus, metric="COMET")

    assert bare.status_code == 400
    assert "no human scores of its own (esa, mqm): name the scores" in text(bare)
    assert unknown.status_code == 400
    assert "no scores named 'COMET' (esa, mqm, or an imported metric: MQM-WMT)" in text(unknown)


def test_the_downloads_are_for_leads_only(client: Client, tmp_path: Path) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    for name in ("appraise_csv", "seg_score", "sys_score"):
        assert download(client, name, corpus).status_code == 302
