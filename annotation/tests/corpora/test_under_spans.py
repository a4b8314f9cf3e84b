"""Nothing under a stored error span changes (annotation.under_spans), so an ESA
or MQM corpus's export never meets a span it cannot write: the corpus page and the admin
refuse a taxonomy that drops a category the spans name, with the field and the reason
(400), and take any other taxonomy; a candidate's text stays while spans mark it, in the
admin and for a judge's word moved across a segment boundary."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from annotation.campaigns.forms import ERR_PROTOCOL_JUDGED
from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_move_word
from annotation.judging.errors import ChangeRefused
from annotation.judging.esa import judgment_mark_span
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Target, User
from annotation.tests.corpora.test_evaltrans_spans import MQM_FILE
from annotation.tests.factories import SEED_XML, exported, target_of
from annotation.tests.judging.test_boundaries import speech as speech  # the fixture
from annotation.tests.judging.test_boundaries import texts
from annotation.under_spans import ERR_CATEGORY_IN_USE, ERR_TEXT_UNDER_SPANS
from metrics.error_spans import MarkedSpan

pytestmark = pytest.mark.django_db

#: MQM_FILE's taxonomy without "Fluency", which one of its spans names.
WITHOUT_FLUENCY = {
    "weights": {"minor": 1, "major": 10},
    "categories": [{"name": "Accuracy"}, {"name": 'Names & "places"'}],
}
#: MQM_FILE's taxonomy with other weights and one more category, its order changed.
REWEIGHED = {
    "weights": {"minor": 2, "major": 8},
    "categories": [
        {"name": "Style"},
        {"name": "Accuracy"},
        {"name": "Fluency", "weights": {"minor": 0.5}},
        {"name": 'Names & "places"'},
    ],
}


@pytest.fixture
def mqm() -> Corpus:
    return corpus_import(source=io.BytesIO(MQM_FILE.encode()), filename="f.xml").corpus


def settings(client: Client, corpus: Corpus, taxonomy: object) -> Any:
    url = reverse("campaigns:settings", args=[corpus.pk])
    return client.post(url, {"protocol": corpus.protocol, "mqm_taxonomy": json.dumps(taxonomy)})


def test_the_corpus_page_refuses_to_drop_a_category_its_spans_name(
    lead_client: Client, mqm: Corpus
) -> None:
    before = mqm.mqm_taxonomy

    response = settings(lead_client, mqm, WITHOUT_FLUENCY)

    mqm.refresh_from_db()
    assert response.status_code == 400
    assert 'data-field="mqm_taxonomy"' in response.content.decode()
    assert ERR_CATEGORY_IN_USE.format(name="Fluency", count=1) in html.unescape(
        response.content.decode()
    )
    assert mqm.mqm_taxonomy == before
    assert exported(mqm).decode() == MQM_FILE


def test_the_corpus_page_takes_new_weights_and_categories_and_the_export_follows(
    lead_client: Client, mqm: Corpus
) -> None:
    response = settings(lead_client, mqm, REWEIGHED)

    mqm.refresh_from_db()
    text = exported(mqm)
    assert response.status_code == 303
    assert mqm.mqm_taxonomy == REWEIGHED
    assert b'<category name="Style"/>' in text
    copy = corpus_import(source=io.BytesIO(text), name="copy", filename="f.xml").corpus
    assert exported(copy) == text.replace(b'name="mqm"', b'name="copy"')


def test_before_the_first_span_any_category_may_go(lead_client: Client) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed", protocol="mqm").corpus

    response = settings(lead_client, corpus, WITHOUT_FLUENCY)

    corpus.refresh_from_db()
    assert response.status_code == 303
    assert corpus.taxonomy.names == ("Accuracy", 'Names & "places"')


@pytest.fixture
def admin_client(client: Client, user_factory: Callable[..., User]) -> Client:
    client.force_login(user_factory("root", is_staff=True, is_superuser=True))
    return client


def admin_post(client: Client, obj: Corpus | Target, **changes: object) -> Any:
    """The admin's change form of ``obj`` posted back as the page shows it, ``changes``
    made (JSON fields written as the admin writes them)."""
    url = reverse(f"admin:annotation_{type(obj).__name__.lower()}_change", args=[obj.pk])
    form = client.get(url).context["adminform"].form
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = changes.get(name, form.initial.get(name))
        if field.__class__.__name__ == "JSONField":
            value = json.dumps(value)
        elif isinstance(value, list):
            value = [getattr(v, "pk", v) for v in value]
        elif hasattr(value, "pk"):
            value = value.pk
        if value is True:
            value = "on"
        if value is not None and value is not False:
            data[name] = value
    return client.post(url, data)


def test_the_admin_refuses_to_drop_a_category_its_spans_name(
    admin_client: Client, mqm: Corpus
) -> None:
    before = mqm.mqm_taxonomy

    refused = admin_post(admin_client, mqm, mqm_taxonomy=WITHOUT_FLUENCY)
    taken = admin_post(admin_client, mqm, mqm_taxonomy=REWEIGHED)

    assert refused.status_code == 400
    assert refused.context["adminform"].form.errors["mqm_taxonomy"] == [
        ERR_CATEGORY_IN_USE.format(name="Fluency", count=1)
    ]
    assert before != REWEIGHED
    assert taken.status_code == 302, taken.content.decode()[:2000]
    mqm.refresh_from_db()
    assert mqm.mqm_taxonomy == REWEIGHED


def test_the_admin_keeps_a_candidates_text_while_spans_mark_it(
    admin_client: Client, mqm: Corpus
) -> None:
    marked = target_of(mqm, "Statistical")
    other = corpus_import(source=SEED_XML, name="seed", protocol="mqm").corpus
    unmarked = target_of(other, "a translator")

    refused = admin_post(admin_client, marked, text="Chart represents the method.")
    taken = admin_post(admin_client, unmarked, text="Another text.")

    assert refused.status_code == 400
    assert refused.context["adminform"].form.errors["text"] == [
        ERR_TEXT_UNDER_SPANS.format(count=3)
    ]
    assert Target.objects.get(pk=marked.pk).text == marked.text
    assert taken.status_code == 302
    assert Target.objects.get(pk=unmarked.pk).text == "Another text."
    assert exported(mqm).decode() == MQM_FILE


def test_a_word_stays_on_its_side_of_a_boundary_while_spans_mark_it(
    speech: Corpus, judge: User
) -> None:
    Corpus.objects.filter(pk=speech.pk).update(protocol="esa")  # no judgment yet
    before = texts(speech, 5, 6)
    judgment = judgment_open(user=judge, target=target_of(speech, "speech", 5))
    judgment = judgment_mark_span(
        judgment=judgment, user=judge, version=judgment.version, span=MarkedSpan(0, 1, "minor")
    )

    with pytest.raises(ChangeRefused, match=re.escape(ERR_TEXT_UNDER_SPANS.format(count=1))):
        judgment_move_word(
            judgment=judgment, user=judge, version=judgment.version, edge="end", move="give"
        )

    assert texts(speech, 5, 6) == before


def test_the_admin_keeps_the_protocol_of_a_judged_corpus(admin_client: Client, mqm: Corpus) -> None:
    """Switched to ESA, the MQM spans' categories could not be written."""
    unjudged = corpus_import(source=SEED_XML, name="seed", protocol="mqm").corpus

    refused = admin_post(admin_client, mqm, protocol="esa")
    taken = admin_post(admin_client, unjudged, protocol="esa")

    assert refused.status_code == 400
    assert refused.context["adminform"].form.errors["protocol"] == [
        ERR_PROTOCOL_JUDGED.format(protocol="MQM")
    ]
    assert Corpus.objects.get(pk=mqm.pk).protocol == "mqm"
    assert taken.status_code == 302
    assert Corpus.objects.get(pk=unjudged.pk).protocol == "esa"
