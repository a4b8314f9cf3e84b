"""Faster judging (issue 14, point 1) on the judge's page, as the server draws it: the
reference word under every mark, "correct as it is", the growing whole-text field, the
note and flag, the document around the source, and the progress bar with the pace."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from lxml import html as lxml_html

from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import (
    CATS,
    FIGURE_1_AS_IS,
    FIGURE_1_CANDIDATE,
    HTMX,
    change_url,
    fresh,
    import_xml,
    page_url,
    target_of,
)

pytestmark = pytest.mark.django_db


#: The marked words of the candidate (the buttons: matches are plain spans).
OPS = '//*[@id="candidate"]//button[@data-op]'


def by(tree: lxml_html.HtmlElement, element_id: str) -> list[lxml_html.HtmlElement]:
    """The element with id ``element_id`` (a list: empty when the page has none)."""
    return tree.xpath(f'//*[@id="{element_id}"]')


def page_of(client: Client, judgment: Judgment) -> lxml_html.HtmlElement:
    response = client.get(page_url(judgment))
    assert response.status_code == 200
    return lxml_html.fromstring(response.content.decode())


def test_every_mark_has_its_reference_word_printed_under_it(
    judge_client: Client, figure_1: Judgment
) -> None:
    tree = page_of(judge_client, figure_1)
    shown = [(b.get("data-op"), b.text_content(), b.get("data-inline")) for b in tree.xpath(OPS)]
    assert shown == [
        ("missing", "–", "This"),
        ("substitution", "Diagram", "figure"),
        ("substitution", "show", "shows"),
        ("substitution", "for", "to"),
        ("substitution", "locate", "find"),
    ]
    assert [b.get("data-ref-word") for b in tree.xpath(OPS)] == [w for _, _, w in shown]
    # drawn by the style sheet: the candidate's text stays the candidate's words
    assert by(tree, "candidate")[0].text_content().split() == ["–", *FIGURE_1_CANDIDATE.split()]


def test_an_extra_word_reads_keep_this_word(judge: User, client: Client) -> None:
    corpus = import_xml(CATS.format(b="the big cat sat on the mat."), "cats", judge)
    judgment = judgment_open(user=judge, target=target_of(corpus, "sys B"))
    client.force_login(judge)
    tree = page_of(client, judgment)
    (extra,) = tree.xpath('//*[@id="candidate"]//button[@data-op="extra"]')
    assert extra.text_content() == "big"
    assert extra.get("data-inline") == "keep"
    assert extra.get("data-ref-word") is None
    assert "keeps the word" in by(tree, "legend")[0].text_content()


def test_correct_as_it_is_through_the_page(judge_client: Client, figure_1: Judgment) -> None:
    response = judge_client.post(change_url(figure_1, "as-is"), {"version": "1"}, **HTMX)
    assert response.status_code == 200
    tree = lxml_html.fromstring(response.content.decode())
    assert by(tree, "new-ref")[0].get("data-text") == FIGURE_1_AS_IS
    assert by(tree, "accept-as-is")[0].get("disabled") is not None  # already taken
    assert by(tree, "undo")[0].get("disabled") is None
    assert fresh(figure_1).edits == 0


def test_the_whole_text_is_a_textarea_that_grows(judge_client: Client, figure_1: Judgment) -> None:
    (area,) = page_of(judge_client, figure_1).xpath(
        '//*[@id="new-ref-form"]//textarea[@id="new-ref-text"]'
    )
    assert area.get("name") == "text"
    assert area.text_content() == figure_1.new_ref
    assert area.get("data-grow") == "true"


def test_a_note_and_a_flag_through_the_page(judge_client: Client, figure_1: Judgment) -> None:
    response = judge_client.post(
        change_url(figure_1, "note"), {"version": "1", "note": "odd source", "flag": "garbled"}
    )
    assert response.status_code == 303  # plain POST: back to the page
    tree = page_of(judge_client, figure_1)
    assert by(tree, "note-text")[0].get("value") == "odd source"
    assert tree.xpath('//*[@id="note-flag"]/option[@selected]')[0].get("value") == "garbled"
    assert by(tree, "note-shown")[0].get("data-flag") == "garbled"
    assert "The source is garbled" in by(tree, "note-shown")[0].text_content()


def test_an_unknown_flag_is_refused_with_the_reason(
    judge_client: Client, figure_1: Judgment
) -> None:
    response = judge_client.post(
        change_url(figure_1, "note"), {"version": "1", "note": "", "flag": "maybe"}, **HTMX
    )
    assert response.status_code == 422
    assert "&#x27;maybe&#x27; is not one of the flags" in response.content.decode()
    assert fresh(figure_1).version == 1


def test_a_lead_looking_at_a_judgment_cannot_write_its_note(
    lead_client: Client, figure_1: Judgment
) -> None:
    tree = page_of(lead_client, figure_1)
    for selector in ("note-flag", "note-text", "save-note", "accept-as-is"):
        assert by(tree, selector)[0].get("disabled") is not None, selector


def test_the_document_around_the_source_is_shown_small(
    documents: Callable[[list[str | None]], Corpus], judge: User, client: Client
) -> None:
    corpus = documents(["a", "a", None])
    client.force_login(judge)

    middle = page_of(client, judgment_open(user=judge, target=target_of(corpus, "sys", 0)))
    assert not by(middle, "source-before")
    assert by(middle, "source-after")[0].text_content().split() == ["after:", "s1"]
    last = page_of(client, judgment_open(user=judge, target=target_of(corpus, "sys", 1)))
    assert by(last, "source-before")[0].text_content().split() == ["before:", "s0"]
    assert not by(last, "source-after")  # the next one has no document
    alone = page_of(client, judgment_open(user=judge, target=target_of(corpus, "sys", 2)))
    assert not by(alone, "source-before") + by(alone, "source-after")


def test_the_header_has_a_progress_bar_with_the_pace(
    judge_client: Client, figure_1: Judgment
) -> None:
    tree = page_of(judge_client, figure_1)
    bar = tree.xpath('//*[@id="judge-header"]//progress[@id="progress-bar"]')[0]
    assert (bar.get("value"), bar.get("max")) == ("0", "2")
    assert by(tree, "progress")[0].text_content() == "0/2"
    assert by(tree, "progress-percent")[0].text_content() == "0.0 %"
    assert "after your first" in by(tree, "pace")[0].text_content()
    assert "not known yet" in by(tree, "time-left")[0].text_content()


def test_accept_and_next_brings_the_header_with_the_pace(
    judge_client: Client, figure_1: Judgment
) -> None:
    Judgment.objects.filter(pk=figure_1.pk).update(sser=8, active_seconds=42)
    figure_1.refresh_from_db()
    response = judge_client.post(
        reverse("annotation:judgment_accept", args=[figure_1.pk]), {"version": "1"}, **HTMX
    )
    text = response.content.decode()
    assert re.search(r'<progress id="progress-bar" max="2" value="1"', text)
    assert '<span id="progress-percent">50 %</span>' in text
    assert "42 s per candidate" in text
    assert "about 42 s left" in text


@pytest.mark.parametrize("htmx", [True, False])
def test_a_marks_own_severity_toggle_works_without_the_script(
    judge_client: Client, figure_1: Judgment, htmx: bool
) -> None:
    """The toggle is a submit button of the severity form: its operation is sent before the
    form's hidden field, which only the script fills (empty without it)."""
    tree = page_of(judge_client, figure_1)
    toggles = tree.xpath('//*[@id="candidate"]//button[@class="severity-toggle"]')
    assert [t.get("form") for t in toggles] == ["severity-form"] * 5
    token = toggles[1].get("value")
    response = judge_client.post(
        change_url(figure_1, "severity"),
        {"version": "1", "op": [token, ""]},
        **(HTMX if htmx else {}),
    )
    assert response.status_code == (200 if htmx else 303)
    assert fresh(figure_1).severities == {"substitution:0": "major"}
