"""The campaign CSV (``/campaigns/<id>/campaign.csv``, ``manage.py export_campaign``):
per judge × system done / assigned and active time, per judgment its first and last
times in UTC (ISO 8601); a lead's download, a judge's 404, an anonymous visitor's login;
streamed, in as many queries on a large corpus as on a small one."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.http import StreamingHttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotation.campaigns.export import COLUMNS, utc_iso
from annotation.corpora.imports import corpus_import
from annotation.models import Campaign, Corpus, JudgmentEvent, User
from annotation.tests.factories import done_judgment, write_corpus

pytestmark = pytest.mark.django_db

REFS = [["a b c d"], ["e f g h"], ["i j k l"]]
#: A system whose name a spreadsheet would take for a formula.
SYSTEMS = {"alpha": ["a b c d", "e f g x", "i j k l"], "=HYPERLINK(1)": ["x", "y", "z"]}
MORNING = datetime(2026, 3, 1, 9, 0, 5, tzinfo=UTC)
NOON = datetime(2026, 3, 1, 12, 30, 0, tzinfo=UTC)


@pytest.fixture
def campaign(tmp_path: Path, user_factory: Callable[..., User]) -> Corpus:
    """ann assigned, with two done judgments of alpha (the first with events at 09:00:05
    and 12:30 UTC); bob not assigned, with one done judgment of the other system."""
    source = write_corpus(tmp_path / "camp.xml", REFS, SYSTEMS)
    corpus = corpus_import(source=source, name="camp").corpus
    ann, bob = user_factory("ann"), user_factory("bob")
    corpus.judges.add(ann)
    first = done_judgment(corpus, ann, "alpha", 0, sser=9, seconds=30.0)
    done_judgment(corpus, ann, "alpha", 2, sser=7, seconds=12.5)
    done_judgment(corpus, bob, "=HYPERLINK(1)", 1, sser=2, seconds=40.0)
    for moment, kind in ((NOON, "finish"), (MORNING, "open")):
        JudgmentEvent.objects.create(
            judgment=first, actor=ann, created_at=moment, kind=kind, version=1
        )
    return corpus


def url(corpus: Corpus) -> str:
    return reverse("campaigns:campaign_csv", args=[corpus.pk])


def rows_of(response: StreamingHttpResponse) -> list[dict[str, str]]:
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_a_lead_downloads_judge_by_system_progress_and_active_time(
    lead_client: Client, campaign: Corpus
) -> None:
    response = lead_client.get(url(campaign))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="camp-campaign.csv"'
    rows = rows_of(response)
    assert tuple(rows[0]) == COLUMNS
    summary = [
        (r["judge"], r["system"], r["done"], r["assigned"], r["active_seconds"])
        for r in rows
        if r["kind"] == "judge-system"
    ]
    assert summary == [
        ("ann", "alpha", "2", "3", "42.5"),
        ("ann", "'=HYPERLINK(1)", "0", "3", "0.0"),
        ("bob", "alpha", "0", "", "0.0"),  # not assigned: nothing to do
        ("bob", "'=HYPERLINK(1)", "1", "", "40.0"),
    ]


def test_a_campaign_dealing_its_work_assigns_no_judge_a_fixed_share(
    lead_client: Client, campaign: Corpus
) -> None:
    """Where the work is dealt in batches, no judge is assigned every candidate of a
    system: "assigned" stays empty rather than claim the system's sentences."""
    Campaign.objects.filter(pk=campaign.campaign_id).update(judges_per_item=1)

    rows = rows_of(lead_client.get(url(campaign)))

    summary = [(r["judge"], r["done"], r["assigned"]) for r in rows if r["kind"] == "judge-system"]
    assert summary == [("ann", "2", ""), ("ann", "0", ""), ("bob", "0", ""), ("bob", "1", "")]


def test_each_judgment_has_its_first_and_last_times_in_utc_iso_8601(
    lead_client: Client, campaign: Corpus, settings: object
) -> None:
    """From its events when it has some, else when it was stored and last changed; UTC
    whatever the server's time zone."""
    settings.TIME_ZONE = "Asia/Tokyo"  # type: ignore[attr-defined]
    rows = [r for r in rows_of(lead_client.get(url(campaign))) if r["kind"] == "judgment"]

    assert [(r["judge"], r["system"], r["sentence"], r["active_seconds"]) for r in rows] == [
        ("ann", "alpha", "1", "30.0"),
        ("ann", "alpha", "3", "12.5"),
        ("bob", "'=HYPERLINK(1)", "2", "40.0"),
    ]
    assert (rows[0]["first_utc"], rows[0]["last_utc"]) == (
        "2026-03-01T09:00:05Z",
        "2026-03-01T12:30:00Z",
    )
    stored = campaign.judges.get().judgments.get(target__sentence__position=2)
    assert rows[1]["first_utc"] == utc_iso(stored.created_at)
    assert rows[1]["last_utc"] == utc_iso(stored.updated_at)
    for row in rows:
        moment = datetime.fromisoformat(row["first_utc"])
        assert row["first_utc"].endswith("Z")
        assert moment.utcoffset().total_seconds() == 0
        assert row["first_utc"] <= row["last_utc"]


def test_an_htmx_request_gets_the_same_file(lead_client: Client, campaign: Corpus) -> None:
    plain = b"".join(lead_client.get(url(campaign)).streaming_content)
    htmx = lead_client.get(url(campaign), HTTP_HX_REQUEST="true")

    assert htmx.status_code == 200
    assert b"".join(htmx.streaming_content) == plain


def test_a_judge_gets_404_even_for_their_own_corpus(client: Client, campaign: Corpus) -> None:
    client.force_login(User.objects.get(username="ann"))

    assert client.get(url(campaign)).status_code == 404
    assert client.get(url(campaign), HTTP_HX_REQUEST="true").status_code == 404


def test_an_anonymous_visitor_is_sent_to_the_login(client: Client, campaign: Corpus) -> None:
    plain = client.get(url(campaign))
    htmx = client.get(url(campaign), HTTP_HX_REQUEST="true")

    assert plain.status_code == 302
    assert plain["Location"].startswith("/accounts/login/")
    assert htmx.status_code == 401
    assert htmx["HX-Redirect"].startswith("/accounts/login/")


def test_an_unknown_corpus_is_404(lead_client: Client) -> None:
    assert lead_client.get(reverse("campaigns:campaign_csv", args=[999])).status_code == 404


def test_the_campaign_page_links_the_download(lead_client: Client, campaign: Corpus) -> None:
    html = lead_client.get(reverse("campaigns:corpus", args=[campaign.pk])).content.decode()

    assert f'href="{url(campaign)}" download data-action="campaign-csv"' in html


def test_the_download_costs_the_same_queries_on_a_small_and_a_large_corpus(
    lead_client: Client, small_and_large: tuple[Corpus, Corpus]
) -> None:
    small, large = small_and_large

    def queries(corpus: Corpus) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            rows = rows_of(lead_client.get(url(corpus)))
        return len(captured), sum(r["kind"] == "judgment" for r in rows)

    (at_small, small_rows), (at_large, large_rows) = queries(small), queries(large)

    assert (small_rows, large_rows) == (2, 300)
    assert at_large == at_small


def test_the_command_writes_the_same_file(
    lead_client: Client, campaign: Corpus, tmp_path: Path
) -> None:
    downloaded = b"".join(lead_client.get(url(campaign)).streaming_content).decode()
    out = io.StringIO()
    call_command("export_campaign", "camp", stdout=out)
    call_command("export_campaign", "camp", "-o", str(tmp_path / "c.csv"), stderr=io.StringIO())

    assert out.getvalue() == downloaded
    assert (tmp_path / "c.csv").read_text(encoding="utf-8") == downloaded


def test_the_command_names_an_unknown_corpus() -> None:
    with pytest.raises(CommandError, match="no corpus named 'nope'"):
        call_command("export_campaign", "nope")
