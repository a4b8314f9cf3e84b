"""Where the lead sets an ESA or MQM corpus's drop and tolerance (issue 41, point 4): the
control-item settings page, in the protocol's points, a bad value refused with its
field and reason (plain and htmx), the rule said beside the form; the pass rates shown
as the aWER corpora's; and ``manage.py controls --drop --tolerance``, refusing what the
page refuses."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from lxml import etree

from annotation.models import Corpus, Judgment, User
from annotation.models.corpus import Protocol
from annotation.tests.controls.factories import (
    span_queue_corpus,
    walk_span_queue,
    with_every_kind,
)
from annotation.tests.controls.test_views import page_queries, settings_url
from annotation.tests.factories import HTMX

pytestmark = pytest.mark.django_db

ESA_FIELDS = ("control_esa_drop", "control_esa_tolerance")
MQM_FIELDS = ("control_mqm_drop", "control_mqm_tolerance")
VALID = {"controls_enabled": "on", "control_rate": "10", "control_pass_threshold": "70"}
ESA_VALID = {**VALID, "control_esa_drop": "15", "control_esa_tolerance": "5"}
MQM_VALID = {**VALID, "control_mqm_drop": "0.5", "control_mqm_tolerance": "2.5"}


def judged_by(corpus: Corpus, protocol: str) -> Corpus:
    corpus.protocol = protocol
    corpus.save(update_fields=["protocol"])
    return corpus


def fields_of(html: str) -> set[str]:
    return {e.get("name") for e in etree.HTML(html).iterfind(".//form//input") if e.get("name")}


@pytest.mark.parametrize(
    "protocol, shown",
    [
        (Protocol.AWER, ()),
        (Protocol.ESA, ESA_FIELDS),
        (Protocol.ESA_PREFILL, ESA_FIELDS),
        (Protocol.MQM, MQM_FIELDS),
    ],
)
def test_a_corpus_shows_the_drop_and_tolerance_of_its_protocol(
    lead_client: Client, seed: Corpus, protocol: str, shown: tuple[str, ...]
) -> None:
    html = lead_client.get(settings_url(judged_by(seed, protocol))).content.decode()

    assert fields_of(html) & {*ESA_FIELDS, *MQM_FIELDS} == set(shown)
    tree = etree.HTML(html)
    rule = tree.find('.//*[@id="controls-rule"]')
    assert (rule is None) is (not shown)
    if protocol == Protocol.MQM:
        assert (rule.get("data-drop"), rule.get("data-tolerance")) == ("1", "5")
        assert "penalty points" in "".join(rule.itertext())
        assert tree.find('.//*[@id="id_control_mqm_drop"]').get("step") == "any"
    kinds = {li.get("data-kind") for li in tree.iterfind('.//*[@id="control-kinds"]/li')}
    assert kinds == ({"degraded", "repeat"} if shown else {"reference", "degraded"})


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    "protocol, posted, stored",
    [
        (Protocol.ESA, ESA_VALID, {"control_esa_drop": 15, "control_esa_tolerance": 5}),
        (Protocol.MQM, MQM_VALID, {"control_mqm_drop": 0.5, "control_mqm_tolerance": 2.5}),
    ],
)
def test_a_lead_sets_the_drop_and_tolerance(
    lead_client: Client,
    seed: Corpus,
    protocol: str,
    posted: dict[str, str],
    stored: dict[str, float],
    htmx: bool,
) -> None:
    corpus = judged_by(seed, protocol)

    response = lead_client.post(settings_url(corpus), posted, **(HTMX if htmx else {}))

    assert response.status_code == (200 if htmx else 303)
    corpus.refresh_from_db()
    assert {name: getattr(corpus, name) for name in stored} == stored
    html = (
        response.content.decode()
        if htmx
        else lead_client.get(response["Location"]).content.decode()
    )
    rule = etree.HTML(html).find('.//*[@id="controls-rule"]')
    drop, tolerance = stored.values()
    assert (rule.get("data-drop"), rule.get("data-tolerance")) == (f"{drop:g}", f"{tolerance:g}")


def test_another_protocols_values_are_not_read(lead_client: Client, seed: Corpus) -> None:
    corpus = judged_by(seed, Protocol.ESA)

    lead_client.post(settings_url(corpus), {**ESA_VALID, "control_mqm_drop": "50"})

    corpus.refresh_from_db()
    assert (corpus.control_esa_drop, corpus.control_mqm_drop) == (15, 1.0)


@pytest.mark.parametrize(
    "protocol, field, value, reason",
    [
        (Protocol.ESA, "control_esa_drop", "0", "greater than or equal to 1"),
        (Protocol.ESA, "control_esa_drop", "101", "less than or equal to 100"),
        (Protocol.ESA, "control_esa_drop", "7.5", "Enter a whole number"),
        (Protocol.ESA, "control_esa_drop", "", "This field is required"),
        (Protocol.ESA, "control_esa_tolerance", "-1", "greater than or equal to 0"),
        (Protocol.ESA, "control_esa_tolerance", "101", "less than or equal to 100"),
        (Protocol.ESA_PREFILL, "control_esa_tolerance", "٥", "is not a whole number written"),
        (Protocol.MQM, "control_mqm_drop", "0", "greater than or equal to 0.1"),
        (Protocol.MQM, "control_mqm_drop", "0.05", "greater than or equal to 0.1"),
        (Protocol.MQM, "control_mqm_drop", "100.5", "less than or equal to 100"),
        (Protocol.MQM, "control_mqm_drop", "nan", "Enter a number"),
        (Protocol.MQM, "control_mqm_drop", "inf", "Enter a number"),
        (Protocol.MQM, "control_mqm_tolerance", "-0.5", "greater than or equal to 0"),
        (Protocol.MQM, "control_mqm_tolerance", "２", "'２' is not a number written in the digits"),
        (Protocol.MQM, "control_mqm_tolerance", "five", "Enter a number"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_bad_drop_or_tolerance_is_refused_with_its_field_and_reason(
    lead_client: Client,
    seed: Corpus,
    protocol: str,
    field: str,
    value: str,
    reason: str,
    htmx: bool,
) -> None:
    corpus = judged_by(seed, protocol)
    posted = MQM_VALID if protocol == Protocol.MQM else ESA_VALID

    response = lead_client.post(
        settings_url(corpus), {**posted, field: value}, **(HTMX if htmx else {})
    )

    assert response.status_code == 400
    tree = etree.HTML(response.content.decode())
    (error,) = tree.xpath(f'//*[@data-error-for="{field}"]')
    assert reason in "".join(error.itertext())
    assert tree.xpath('//*[@id="controls-refused"][@role="alert"]')
    corpus.refresh_from_db()
    assert not corpus.controls_enabled
    assert (corpus.control_esa_drop, corpus.control_esa_tolerance) == (10, 10)
    assert (corpus.control_mqm_drop, corpus.control_mqm_tolerance) == (1.0, 5.0)


@pytest.mark.parametrize("protocol, queries", [(Protocol.ESA, 4), (Protocol.MQM, 5)])
def test_the_settings_page_shows_a_span_judges_pass_rate(
    tmp_path: Path, lead_client: Client, judge: User, protocol: str, queries: int
) -> None:
    """The judge passes the repeats and fails the bad references: the table says so,
    flagged; the page reads the control rows in one query (and MQM's spans in one)."""
    corpus = with_every_kind(
        span_queue_corpus(tmp_path, "rates", [judge], protocol, sentences=8, systems=4), judge
    )
    corpus.control_pass_threshold = 100  # one bad reference let through flags the judge
    corpus.save(update_fields=["control_pass_threshold"])
    items = walk_span_queue(corpus, judge, lambda j: (70 if protocol == Protocol.ESA else None, []))
    repeats = sum(1 for j in items if j.control == Judgment.Control.REPEAT)
    controls = sum(1 for j in items if j.control)

    html = lead_client.get(settings_url(corpus)).content.decode()

    row = etree.HTML(html).find('.//table[@id="control-judges"]//tr[@data-judge="judge"]')
    assert row.get("data-flagged") == "true"
    assert row.find('td[@data-col="controls"]').text == str(controls)
    assert row.find('td[@data-col="passed"]').text == str(repeats)
    assert row.find('td[@data-col="pass-rate"]').text.startswith(
        f"{100 * repeats / controls:.1f} %"
    )
    assert row.find('td[@data-col="bad-references"]').text == f"0/{controls - repeats}"
    assert page_queries(lead_client, settings_url(corpus)) == queries


# --- manage.py controls ---------------------------------------------------------------------


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    "protocol, drop, tolerance, said",
    [
        (Protocol.ESA, "25", "5", "at least 25 points worse than the original; a repeat within 5"),
        (Protocol.MQM, "2.5", "0", "at least 2.5 penalty points worse than the original"),
    ],
)
def test_the_command_sets_and_prints_the_drop_and_tolerance(
    seed: Corpus, protocol: str, drop: str, tolerance: str, said: str
) -> None:
    judged_by(seed, protocol)

    out = run("controls", seed.name, "--on", "--drop", drop, "--tolerance", tolerance)
    payload = json.loads(run("controls", seed.name, "--json"))

    assert said in out
    assert (payload["enabled"], payload["drop"], payload["tolerance"]) == (
        True,
        float(drop),
        float(tolerance),
    )
    assert json.loads(run("controls", seed.name, "--off", "--json"))["drop"] == float(drop)


@pytest.mark.parametrize(
    "protocol, args, message",
    [
        (Protocol.ESA, ("--drop", "0"), "--drop: Ensure this value is greater than or equal to 1."),
        (Protocol.ESA, ("--tolerance", "٣"), "--tolerance: '٣' is not a whole number written"),
        (
            Protocol.MQM,
            ("--drop", "-1"),
            "--drop: Ensure this value is greater than or equal to 0.1",
        ),
        (Protocol.AWER, ("--drop", "5"), "--drop: seed's controls compare new references, not"),
    ],
)
def test_the_command_refuses_a_bad_drop_or_tolerance_naming_the_option(
    seed: Corpus, protocol: str, args: tuple[str, ...], message: str
) -> None:
    judged_by(seed, protocol)

    with pytest.raises(CommandError) as refused:
        run("controls", seed.name, *args)

    assert str(refused.value).startswith(message)
    seed.refresh_from_db()
    assert (seed.control_esa_drop, seed.control_esa_tolerance, seed.control_mqm_drop) == (
        10,
        10,
        1.0,
    )


def test_the_dashboards_judges_panel_shows_a_span_judges_pass_rate(
    tmp_path: Path, lead_client: Client, judge: User
) -> None:
    corpus = with_every_kind(
        span_queue_corpus(tmp_path, "panel", [judge], Protocol.ESA, sentences=8, systems=4), judge
    )
    corpus.control_pass_threshold = 100  # one bad reference let through flags the judge
    corpus.save(update_fields=["control_pass_threshold"])
    items = walk_span_queue(corpus, judge, lambda j: (70, []))
    repeats = sum(1 for j in items if j.control == Judgment.Control.REPEAT)
    controls = sum(1 for j in items if j.control)

    html = lead_client.get(f"/dashboard/{corpus.pk}/panel/judges/", **HTMX).content.decode()

    row = etree.HTML(html).find('.//table[@id="judges-table"]//tr[@data-judge="judge"]')
    assert row.get("data-flagged") == "true"
    rate = row.find('td[@data-col="pass-rate"]').get("data-value")
    assert rate == f"{100 * repeats / controls:.1f}"  # as printed, one decimal
