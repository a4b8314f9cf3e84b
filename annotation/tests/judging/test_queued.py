"""A click queued behind another (issue 38, point 3): the judge's page sends it once the
one before is saved, with the page's version as it then is, and it does what the judge
clicked, found by its content, or it is refused with a message that says so. Each test
takes what it sends from the page the judge saw, as the page's script does."""

from __future__ import annotations

import re

import lxml.html
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from annotation.judging.errors import ERR_MOVE_GONE, ERR_OP_GONE, ERR_WORD_GONE
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import HTMX, change_url, fresh, page_url, target_of
from annotation.tests.judging import test_boundaries
from annotation.tests.judging.test_boundaries import texts

pytestmark = pytest.mark.django_db

speech = test_boundaries.speech  # the demo with a system imported as one document


def shown(client: Client, judgment: Judgment, query: str = "") -> lxml.html.HtmlElement:
    return lxml.html.fromstring(client.get(page_url(judgment) + query, **HTMX).content.decode())


def token(page: lxml.html.HtmlElement, word: str) -> str:
    """The value of the candidate's marked word ``word`` ("–": the missing one)."""
    (button,) = page.xpath(f'//*[@id="candidate"]//button[@data-op][text()="{word}"]')
    return str(button.get("value"))


def post(client: Client, judgment: Judgment, action: str, data: dict[str, str]):
    """Send ``data`` with the version of the judgment as it is now (the page's, once the
    request before this one has been answered)."""
    version = str(fresh(judgment).version)
    return client.post(change_url(judgment, action), {**data, "version": version}, **HTMX)


def test_a_click_queued_behind_another_accepts_the_word_it_was_made_on(
    judge_client: Client, figure_1: Judgment
) -> None:
    page = shown(judge_client, figure_1)
    this, diagram = token(page, "–"), token(page, "Diagram")

    assert post(judge_client, figure_1, "op", {"op": this}).status_code == 200
    assert post(judge_client, figure_1, "op", {"op": diagram}).status_code == 200

    # "This" went: "figure" moved to the first place, and "Diagram" took it, not "shows"
    assert fresh(figure_1).new_ref == "Diagram shows the scan procedure to find the archives."


def test_a_queued_click_on_a_word_no_longer_marked_is_refused_and_says_which(
    judge_client: Client, figure_1: Judgment
) -> None:
    diagram = token(shown(judge_client, figure_1), "Diagram")
    post(judge_client, figure_1, "op", {"op": diagram})

    again = post(judge_client, figure_1, "op", {"op": diagram})

    assert again.status_code == 422
    label = "“Diagram” (substitution, reference “figure”)"
    assert ERR_OP_GONE.format(label=label) in again.content.decode()
    assert "no longer applies" in ERR_OP_GONE
    assert fresh(figure_1).version == 2


def test_a_queued_mark_lands_on_the_word_it_was_made_on(
    judge_client: Client, figure_1: Judgment
) -> None:
    page = shown(judge_client, figure_1)
    post(judge_client, figure_1, "op", {"op": token(page, "–")})

    post(judge_client, figure_1, "severity", {"op": token(page, "show")})

    assert fresh(figure_1).severities == {"substitution:1": "major"}


def test_a_word_edit_queued_behind_a_change_of_the_words_is_refused(
    judge_client: Client, figure_1: Judgment
) -> None:
    editor = shown(judge_client, figure_1, "?edit=0")
    (word,) = editor.xpath('//form[@id="word-change-form"]//input[@name="word"]/@value')
    assert word == "This"
    post(judge_client, figure_1, "op", {"op": token(editor, "–")})  # "This" goes
    delete = {"pos": "0", "action": "delete", "text": ""}

    refused = post(judge_client, figure_1, "word", {**delete, "word": word})

    assert refused.status_code == 422
    assert ERR_WORD_GONE.format(word="This") in refused.content.decode()
    assert fresh(figure_1).new_ref == "figure shows the scan procedure to find the archives."
    # the word now there, named, is deleted
    assert post(judge_client, figure_1, "word", {**delete, "word": "figure"}).status_code == 200
    assert fresh(figure_1).new_ref == "shows the scan procedure to find the archives."


def test_a_second_move_of_the_same_word_is_refused_not_made_with_the_next_word(
    judge_client: Client, judge: User, speech: Corpus
) -> None:
    judgment = judgment_open(user=judge, target=target_of(speech, "speech", 5))
    page = judge_client.get(reverse("annotation:judgment", args=[judgment.pk])).content.decode()
    (give,) = re.findall(r'value="(give:[^"]*)" data-action="move-word" data-edge="end"', page)
    before = texts(speech, 5)[0].split()
    assert give == f"give:{before[-1]}"

    assert post(judge_client, judgment, "move", {"edge": "end", "move": give}).status_code == 200
    again = post(judge_client, judgment, "move", {"edge": "end", "move": give})

    assert again.status_code == 422
    assert ERR_MOVE_GONE.format(word=before[-1]) in again.content.decode()
    assert texts(speech, 5)[0].split() == before[:-1]


def test_the_page_queues_its_requests_and_morphs_with_the_pinned_extension_it_serves(
    judge_client: Client, figure_1: Judgment
) -> None:
    page = lxml.html.fromstring(judge_client.get(page_url(figure_1)).content.decode())
    version = settings.IDIOMORPH_VERSION
    js = settings.BASE_DIR / "static" / "js"

    (queue,) = page.cssselect("#queue-status")
    assert (queue.get("hx-sync"), queue.get("hx-swap")) == ("this:queue all", "morph:outerHTML")
    assert (queue.get("hx-ext"), queue.get("hx-target")) == ("morph", "#judge")
    assert page.cssselect(f'script[src="/static/js/idiomorph-ext-{version}.min.js"]')
    assert (js / f"idiomorph-ext-{version}.min.js").read_text().startswith("var Idiomorph=")
    assert "Zero-Clause BSD" in (js / f"idiomorph-{version}.LICENSE").read_text()
