"""The campaigns' own pages: the list (create a campaign), a page per campaign (its
corpora, annotators, jobs, and every task of the lead one click away; rename, move a
corpus in, delete an empty one), and the upload's choice of campaign. A lead only: a
judge gets 404, an anonymous visitor the login; a refusal is a 400 with the reason."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import resolve, reverse
from django.utils import timezone
from lxml import html as lxml_html

from annotation.campaigns.membership import (
    ERR_NAME_TAKEN,
    ERR_NOT_EMPTY,
    ERR_TARGET_DEALING,
    campaign_create,
)
from annotation.corpora.imports import corpus_import
from annotation.models import Campaign, Corpus, Task, User
from annotation.tests.factories import (
    DEMO_XML,
    SEED_XML,
    add_judgments,
    page_queries,
    sized_corpus,
    store_failed_jobs,
)

pytestmark = pytest.mark.django_db

#: A corpus whose file names its languages.
ZH_EN = """<evalTrans srclang="zh" trglang="en"><sentence><source>你好</source>
<eval translator="first reference"><target>hello</target></eval>
<eval translator="sys"><target>hi</target></eval></sentence></evalTrans>"""


@pytest.fixture
def wmt() -> Campaign:
    """A lead's campaign of two corpora: the demo (40 × 5) and a zh→en one."""
    wmt = campaign_create(name="WMT25")
    corpus_import(source=DEMO_XML, name="demo", score=False, campaign=wmt)
    corpus_import(source=io.BytesIO(ZH_EN.encode()), name="zh-en", score=False, campaign=wmt)
    return wmt


def actions(campaign: Campaign, corpus: Corpus) -> list[tuple[str, str, dict[str, object]]]:
    """(method, URL, a valid form) for every page and action of the campaigns' pages."""
    return [
        ("get", reverse("campaigns:campaigns"), {}),
        ("post", reverse("campaigns:campaign_create"), {"name": "new"}),
        ("get", reverse("campaigns:campaign", args=[campaign.pk]), {}),
        ("post", reverse("campaigns:campaign_rename", args=[campaign.pk]), {"name": "renamed"}),
        (
            "post",
            reverse("campaigns:campaign_add_corpus", args=[campaign.pk]),
            {"corpus": corpus.pk},
        ),
        ("post", reverse("campaigns:campaign_delete", args=[campaign.pk]), {}),
    ]


def test_every_campaign_page_is_the_login_for_anonymous_visitors_and_404_for_a_judge(
    client: Client, judge: User, wmt: Campaign
) -> None:
    other = corpus_import(source=SEED_XML, name="seed", score=False).corpus
    for method, url, data in actions(wmt, other):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url
    client.force_login(judge)
    for method, url, data in actions(wmt, other):
        assert getattr(client, method)(url, data).status_code == 404, url

    assert set(Campaign.objects.values_list("name", flat=True)) == {"WMT25", "seed"}
    assert Corpus.objects.get(name="seed").campaign.name == "seed"


def test_an_unknown_campaign_is_a_404(lead_client: Client) -> None:
    assert lead_client.get(reverse("campaigns:campaign", args=[999])).status_code == 404


def test_a_lead_creates_a_campaign_and_lands_on_its_page(lead_client: Client) -> None:
    response = lead_client.post(reverse("campaigns:campaign_create"), {"name": "WMT25"})

    campaign = Campaign.objects.get()
    assert response.status_code == 303
    assert response["Location"] == f"/campaigns/c/{campaign.pk}/"
    assert (campaign.name, campaign.made_for_corpus) == ("WMT25", False)
    page = lead_client.get(response["Location"]).content.decode()
    assert 'id="no-corpus"' in page
    assert f'href="/corpora/upload/?campaign={campaign.pk}" data-action="upload-into"' in page


def test_a_taken_campaign_name_is_refused_with_the_field_and_reason(
    lead_client: Client, wmt: Campaign
) -> None:
    response = lead_client.post(reverse("campaigns:campaign_create"), {"name": "WMT25"})

    page = response.content.decode()
    assert response.status_code == 400
    assert '<li data-field="name">' in page
    assert ERR_NAME_TAKEN.format(name="WMT25").replace("'", "&#x27;") in page
    assert Campaign.objects.count() == 1


def test_the_campaign_page_shows_each_corpus_its_languages_method_size_and_controls(
    lead_client: Client, wmt: Campaign, user_factory: Callable[..., User]
) -> None:
    demo = Corpus.objects.get(name="demo")
    ana, bob = user_factory("ana"), user_factory("bob", is_active=False)
    demo.judges.add(ana, bob)
    Corpus.objects.get(name="zh-en").judges.add(ana)
    add_judgments(demo, [ana], 7)
    Corpus.objects.filter(pk=demo.pk).update(
        controls_enabled=True, control_rate=8, ier_enabled=True
    )

    tree = lxml_html.fromstring(lead_client.get(f"/campaigns/c/{wmt.pk}/").content)

    def cell(corpus: str, col: str) -> str:
        (td,) = tree.cssselect(f'#campaign-corpora tr[data-corpus="{corpus}"] td[data-col="{col}"]')
        return " ".join(td.text_content().split())

    assert cell("zh-en", "languages") == "zh → en"
    assert cell("demo", "languages") == "–"
    assert cell("demo", "method") == "aWER + SSER + IER"
    assert cell("zh-en", "method") == "aWER + SSER"
    assert cell("demo", "size") == "40 × 5 (200 candidates)"
    assert cell("demo", "progress") == "7/400 (2 judges)"
    assert cell("demo", "controls") == "on: one in every 8 items, pass at 70 %"
    assert cell("zh-en", "controls") == "off"
    annotators = {
        row.get("data-annotator"): " ".join(row.text_content().split())
        for row in tree.cssselect("#campaign-annotators tbody tr")
    }
    assert annotators == {
        "ana": "ana demo, zh-en 7/201 (3.5 %)",
        "bob": "bob (not activated) demo 0/200 (0.0 %)",
    }


def test_every_task_of_the_lead_is_one_click_from_the_campaign_page(
    lead_client: Client, wmt: Campaign
) -> None:
    """Every link of the page's tasks and of each corpus's row resolves and answers 200
    to the lead."""
    tree = lxml_html.fromstring(lead_client.get(f"/campaigns/c/{wmt.pk}/").content)
    hrefs = [a.get("href") for a in tree.cssselect("#campaign-tasks a, #campaign-corpora a")]
    demo, zh_en = Corpus.objects.get(name="demo"), Corpus.objects.get(name="zh-en")

    for corpus in (demo, zh_en):
        for name in ("dashboard:page", "campaigns:corpus", "controls:settings"):
            assert reverse(name, args=[corpus.pk]) in hrefs
        assert reverse("campaigns:corpus", args=[corpus.pk]) + "#h-settings" in hrefs
        assert reverse("campaigns:corpus", args=[corpus.pk]) + "#judge-effects" in hrefs
        assert reverse("annotation:corpus_download", args=[corpus.pk]) in hrefs
        assert reverse("campaigns:campaign_csv", args=[corpus.pk]) in hrefs
    for required in (
        f"/corpora/upload/?campaign={wmt.pk}",
        reverse("campaigns:rules", args=[wmt.pk]),
        reverse("campaigns:judges"),
        reverse("campaigns:links", args=[wmt.pk]),
        reverse("controls:index"),
    ):
        assert required in hrefs
    for href in hrefs:
        path = urlsplit(href).path
        resolve(path)
        response = lead_client.get(href)
        assert response.status_code == 200, href
        if response.streaming:
            b"".join(response.streaming_content)


def test_a_lead_renames_a_campaign_and_a_taken_name_is_refused(
    lead_client: Client, wmt: Campaign
) -> None:
    campaign_create(name="other")
    url = reverse("campaigns:campaign_rename", args=[wmt.pk])

    taken = lead_client.post(url, {"name": "other"})
    renamed = lead_client.post(url, {"name": "WMT 2025"})

    assert taken.status_code == 400
    assert 'id="rename-errors"' in taken.content.decode()
    assert renamed.status_code == 303
    wmt.refresh_from_db()
    assert wmt.name == "WMT 2025"


def test_a_lead_moves_a_corpus_into_the_campaign_and_its_own_campaign_goes(
    lead_client: Client, wmt: Campaign
) -> None:
    seed = corpus_import(source=SEED_XML, name="seed", score=False).corpus
    own = seed.campaign_id

    response = lead_client.post(
        reverse("campaigns:campaign_add_corpus", args=[wmt.pk]), {"corpus": seed.pk}
    )

    assert response.status_code == 303
    assert Corpus.objects.get(name="seed").campaign == wmt
    assert not Campaign.objects.filter(pk=own).exists()
    page = lead_client.get(response["Location"]).content.decode()
    assert 'tr data-corpus="seed"' in page


def test_a_refused_move_is_a_400_with_the_reason_and_changes_nothing(
    lead_client: Client, wmt: Campaign, user_factory: Callable[..., User]
) -> None:
    Campaign.objects.filter(pk=wmt.pk).update(judges_per_item=1)
    demo = Corpus.objects.get(name="demo")
    Task.objects.create(  # dealt once, given back to the pool since
        corpus=demo, batch=0, end=1, order=0, size=5, assigned_at=timezone.now(), returned=1
    )
    seed = corpus_import(source=SEED_XML, name="seed", score=False).corpus

    response = lead_client.post(
        reverse("campaigns:campaign_add_corpus", args=[wmt.pk]), {"corpus": seed.pk}
    )

    page = response.content.decode()
    assert response.status_code == 400
    assert '<li data-field="corpus">' in page
    assert ERR_TARGET_DEALING.format(campaign="WMT25").replace("'", "&#x27;") in page
    assert Corpus.objects.get(name="seed").campaign.name == "seed"


def test_only_an_empty_campaign_is_deleted(lead_client: Client, wmt: Campaign) -> None:
    empty = campaign_create(name="empty")

    refused = lead_client.post(reverse("campaigns:campaign_delete", args=[wmt.pk]))
    deleted = lead_client.post(reverse("campaigns:campaign_delete", args=[empty.pk]))

    assert refused.status_code == 400
    assert ERR_NOT_EMPTY.format(campaign="WMT25", n=2).replace("'", "&#x27;") in (
        refused.content.decode()
    )
    assert (deleted.status_code, deleted["Location"]) == (303, "/campaigns/c/")
    assert list(Campaign.objects.values_list("name", flat=True)) == ["WMT25"]


def test_the_campaigns_list_counts_each_campaigns_corpora(
    lead_client: Client, wmt: Campaign
) -> None:
    corpus_import(source=SEED_XML, name="seed", score=False)

    tree = lxml_html.fromstring(lead_client.get(reverse("campaigns:campaigns")).content)

    counts = {
        row.get("data-campaign"): row.cssselect('td[data-col="corpora"]')[0].text
        for row in tree.cssselect("#campaigns tbody tr")
    }
    assert counts == {"WMT25": "2", "seed": "1"}


# --- the upload's choice --------------------------------------------------------------


def test_an_upload_into_a_campaign_joins_it_and_its_summary_links_the_campaign(
    lead_client: Client, wmt: Campaign
) -> None:
    response = lead_client.post(
        reverse("annotation:corpus_upload"),
        {"file": SimpleUploadedFile("seed.xml", SEED_XML.read_bytes()), "campaign": wmt.pk},
    )

    assert response.status_code == 303
    assert Corpus.objects.get(name="seed").campaign == wmt
    assert Campaign.objects.count() == 1
    summary = lead_client.get(response["Location"]).content.decode()
    assert f'href="/campaigns/c/{wmt.pk}/" data-action="open-campaign"' in summary


def test_an_upload_without_a_choice_gets_a_campaign_of_its_own(lead_client: Client) -> None:
    lead_client.post(
        reverse("annotation:corpus_upload"),
        {"file": SimpleUploadedFile("seed.xml", SEED_XML.read_bytes()), "campaign": ""},
    )

    corpus = Corpus.objects.get()
    assert corpus.campaign.name == corpus.name
    assert corpus.campaign.made_for_corpus


def test_the_upload_page_opens_with_the_campaign_asked_for(
    lead_client: Client, wmt: Campaign
) -> None:
    page = lead_client.get(f"/corpora/upload/?campaign={wmt.pk}").content.decode()
    bad = lead_client.get("/corpora/upload/?campaign=WMT")

    assert f'<option value="{wmt.pk}" selected>WMT25</option>' in page
    assert bad.status_code == 400
    assert "campaign: &#x27;WMT&#x27; is not a campaign&#x27;s number" in bad.content.decode()


def test_an_upload_into_a_campaign_that_does_not_exist_is_refused(lead_client: Client) -> None:
    response = lead_client.post(
        reverse("annotation:corpus_upload"),
        {"file": SimpleUploadedFile("seed.xml", SEED_XML.read_bytes()), "campaign": "999"},
    )

    assert response.status_code == 400
    assert '<li data-field="campaign">' in response.content.decode()
    assert Corpus.all_objects.count() == 0


# --- queries --------------------------------------------------------------------------


#: Session and user, the campaign, its corpora with their progress, the assignments, the
#: done judgments per annotator, the corpora's pending jobs, the failed imports into it,
#: the choices of the move form, and the effort per protocol (judgments, spans).
MAX_QUERIES_CAMPAIGN_PAGE = 11


def test_the_campaign_page_costs_the_same_queries_with_more_corpora_annotators_and_jobs(
    tmp_path: Path, lead_client: Client, user_factory: Callable[..., User]
) -> None:
    campaign = campaign_create(name="WMT25")
    first = sized_corpus(tmp_path, "first", 3)
    Corpus.objects.filter(pk=first.pk).update(campaign=campaign)
    url = reverse("campaigns:campaign", args=[campaign.pk])
    few = page_queries(lead_client, url)
    judges = [user_factory(f"judge{k}") for k in range(5)]
    for k in range(4):
        more = sized_corpus(tmp_path, f"more{k}", 10 + k, systems=4)
        Corpus.objects.filter(pk=more.pk).update(campaign=campaign)
        more.judges.add(*judges[k:])
        add_judgments(more, judges[k:], 20)
        store_failed_jobs(more, import_into=campaign if k == 0 else None)

    many = page_queries(lead_client, url)

    assert many == few <= MAX_QUERIES_CAMPAIGN_PAGE
    assert Corpus.objects.filter(campaign=campaign).count() == 5
