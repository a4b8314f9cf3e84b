"""The lead's control-item settings (``annotation/controls/views.py``): leads only, plain
and htmx, a refused value answered 400 with its field, the same queries on any corpus
size; and what the dashboard's judges panel shows of the control items."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from lxml import etree

from annotation.models import Corpus, Judgment, User
from annotation.tests.controls.factories import (
    queue_corpus,
    right_answer,
    stored_repeat,
    walk_queue,
    with_every_kind,
)
from annotation.tests.factories import HTMX

pytestmark = pytest.mark.django_db


def settings_url(corpus: Corpus) -> str:
    return f"/controls/{corpus.pk}/"


VALID = {"controls_enabled": "on", "control_rate": "12", "control_pass_threshold": "75"}


@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_visitors_are_sent_to_login(client: Client, seed: Corpus, method: str) -> None:
    response = getattr(client, method)(settings_url(seed), VALID if method == "post" else {})

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_an_anonymous_htmx_request_is_sent_to_login_as_a_whole_page(
    client: Client, seed: Corpus
) -> None:
    response = client.post(settings_url(seed), VALID, **HTMX)

    assert response.status_code == 401
    assert response["HX-Redirect"].startswith("/accounts/login/")


@pytest.mark.parametrize("url", ["/controls/", "/controls/{pk}/"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_judges_get_404(judge_client: Client, seed: Corpus, url: str, method: str) -> None:
    response = getattr(judge_client, method)(url.format(pk=seed.pk), VALID)

    assert response.status_code == 404
    seed.refresh_from_db()
    assert not seed.controls_enabled


def test_a_lead_sees_the_settings_of_a_corpus(lead_client: Client, seed: Corpus) -> None:
    response = lead_client.get(settings_url(seed))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="controls_enabled"' in html
    assert 'name="control_rate" value="10"' in html
    assert 'name="control_pass_threshold" value="70"' in html
    assert 'data-status="off"' in html
    assert 'id="no-control-results"' in html


def test_an_unknown_corpus_is_404(lead_client: Client) -> None:
    assert lead_client.get("/controls/999999/").status_code == 404


def test_a_lead_turns_controls_on_with_a_plain_form(lead_client: Client, seed: Corpus) -> None:
    response = lead_client.post(settings_url(seed), VALID)

    assert response.status_code == 303
    assert response["Location"] == f"{settings_url(seed)}?saved=1"
    seed.refresh_from_db()
    assert (seed.controls_enabled, seed.control_rate, seed.control_pass_threshold) == (
        True,
        12,
        75,
    )
    page = lead_client.get(response["Location"]).content.decode()
    assert "Saved." in page
    assert 'data-status="on"' in page
    assert "one in every 12 items" in page


def test_a_lead_saves_with_htmx_and_gets_the_fragment(lead_client: Client, seed: Corpus) -> None:
    response = lead_client.post(settings_url(seed), VALID, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert '<section id="control-settings"' in html
    assert "<html" not in html
    assert "Saved." in html
    assert 'data-status="on"' in html


def test_an_unticked_box_turns_controls_off(lead_client: Client, seed: Corpus) -> None:
    seed.controls_enabled = True
    seed.save()

    lead_client.post(settings_url(seed), {"control_rate": "10", "control_pass_threshold": "70"})

    seed.refresh_from_db()
    assert not seed.controls_enabled


@pytest.mark.parametrize(
    "field, value, reason",
    [
        ("control_rate", "2", "greater than or equal to 3"),
        ("control_rate", "101", "less than or equal to 100"),
        ("control_rate", "ten", "Enter a whole number"),
        ("control_rate", "", "This field is required"),
        ("control_pass_threshold", "101", "less than or equal to 100"),
        ("control_pass_threshold", "-5", "greater than or equal to 0"),
        # issue 36: Arabic-Indic 30 and full-width 75, which Python's int reads
        ("control_rate", "٣٠", "'٣٠' is not a whole number written in the digits 0-9"),
        ("control_pass_threshold", "７５", "'７５' is not a whole number written in the digits"),
        ("control_rate", "1_0", "Enter a whole number"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_bad_value_is_refused_with_its_field(
    lead_client: Client, seed: Corpus, field: str, value: str, reason: str, htmx: bool
) -> None:
    response = lead_client.post(
        settings_url(seed), {**VALID, field: value}, **(HTMX if htmx else {})
    )

    html = response.content.decode()
    assert response.status_code == 400
    tree = etree.HTML(html)
    (error,) = tree.xpath(f'//*[@data-error-for="{field}"]')
    assert reason in "".join(error.itertext())
    assert tree.xpath('//*[@id="controls-refused"][@role="alert"]')
    assert ("<html" in html) is not htmx
    seed.refresh_from_db()
    assert (seed.controls_enabled, seed.control_rate, seed.control_pass_threshold) == (
        False,
        10,
        70,
    )
    assert 'data-status="off"' in html  # what is stored, not what was refused


def test_the_index_lists_every_corpus_with_its_state(lead_client: Client, seed: Corpus) -> None:
    seed.controls_enabled = True
    seed.save()

    html = lead_client.get("/controls/").content.decode()

    assert f'href="/controls/{seed.pk}/"' in html
    assert "one in every 10 items" in html


def page_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_settings_page_costs_the_same_queries_on_any_corpus_size(
    tmp_path: Path, lead_client: Client, user_factory: Callable[..., User]
) -> None:
    """Session, user, corpus, the judges' control items: 4, for 5 sentences or 15."""
    counts = []
    for size in (5, 15):
        judges = [user_factory(), user_factory()]
        corpus = queue_corpus(tmp_path, f"q{size}", judges, sentences=size, rate=3)
        for judge in judges:
            walk_queue(corpus, judge)
        counts.append(page_queries(lead_client, settings_url(corpus)))

    assert counts == [4, 4]


def careless(judgment: Judgment) -> tuple[str, int]:
    return judgment.new_ref, 3


def test_the_dashboard_shows_pass_rates_and_flags_a_careless_judge(
    tmp_path: Path, lead_client: Client, user_factory: Callable[..., User]
) -> None:
    good, bad = user_factory("good"), user_factory("bad")
    corpus = with_every_kind(
        queue_corpus(tmp_path, "dash", [good, bad], sentences=4, systems=14), good
    )
    for judge, answer in ((good, right_answer), (bad, careless)):
        items = walk_queue(corpus, judge, answer)
        for original in [j for j in items if not j.control][:3]:  # as stored before
            original.refresh_from_db()
            stored_repeat(original, *answer(original))

    html = lead_client.get(f"/dashboard/{corpus.pk}/panel/judges/", **HTMX).content.decode()

    tree = etree.HTML(html)
    rows = {tr.get("data-judge"): tr for tr in tree.iterfind('.//table[@id="judges-table"]//tr')}
    assert rows["good"].get("data-flagged") is None
    assert rows["good"].find('td[@data-col="pass-rate"]').get("data-value") == "100.0"
    assert rows["good"].find('td[@data-col="consistency"]').text.startswith("100.0")
    assert rows["bad"].get("data-flagged") == "true"
    assert rows["bad"].find('.//*[@data-flag="below-threshold"]') is not None
    assert rows["good"].find('td[@data-col="judgments"]').text == "56"  # candidates only
    assert f'href="/controls/{corpus.pk}/"' in html
    page = etree.HTML(lead_client.get(f"/controls/{corpus.pk}/").content.decode())
    good_bad_references = page.find(
        './/table[@id="control-judges"]//tr[@data-judge="good"]/td[@data-col="bad-references"]'
    ).text
    passed, done = good_bad_references.split("/")
    assert passed == done != "0"


def test_the_dashboard_says_when_controls_are_off(lead_client: Client, seed: Corpus) -> None:
    html = lead_client.get(f"/dashboard/{seed.pk}/panel/judges/", **HTMX).content.decode()

    assert 'data-col="pass-rate"' not in html
    assert "are off" in html
    assert f'href="/controls/{seed.pk}/"' in html
