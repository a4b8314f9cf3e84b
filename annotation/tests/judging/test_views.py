"""The judge's views: who may see what, both htmx branches, refusals, queries."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from annotation.judging.errors import ERR_NO_SSER, ERR_NOT_A_NUMBER, ERR_STALE
from annotation.models import Corpus, Judgment, JudgmentEvent, User
from annotation.tests.factories import (
    HTMX,
    JUDGE_CHANGES,
    MAX_QUERIES_PER_CLICK,
    change_url,
    fresh,
    page_url,
)

pytestmark = pytest.mark.django_db


# --- access ----------------------------------------------------------------------------------


def judge_urls(judgment: Judgment) -> list[tuple[str, str]]:
    corpus_pk = judgment.target.sentence.corpus_id
    return [
        ("get", page_url(judgment)),
        ("get", reverse("annotation:judge_continue", args=[corpus_pk])),
        ("get", reverse("annotation:judgment_previous", args=[judgment.pk])),
        ("post", reverse("annotation:judgment_accept", args=[judgment.pk])),
        *[("post", change_url(judgment, action)) for action, _, _ in JUDGE_CHANGES],
        ("post", change_url(judgment, "undo")),
        ("post", change_url(judgment, "redo")),
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_anonymous_users_are_sent_to_login(client: Client, figure_1: Judgment, htmx: bool) -> None:
    for method, url in judge_urls(figure_1):
        response = getattr(client, method)(url, **(HTMX if htmx else {}))

        if htmx:  # a full navigation, never the login form swapped into the page
            assert response.status_code == 401, url
            assert response["HX-Redirect"].startswith("/accounts/login/?next="), url
        else:
            assert response.status_code == 302, url
            assert response["Location"].startswith("/accounts/login/"), url
    assert fresh(figure_1).version == 1


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_another_judges_judgment_is_not_found(
    client: Client, figure_1: Judgment, user_factory: Callable[..., User], htmx: bool
) -> None:
    intruder = user_factory("intruder")
    figure_1.target.sentence.corpus.judges.add(intruder)
    client.force_login(intruder)

    for method, url in judge_urls(figure_1):
        if "/corpora/" in url:
            continue  # the corpus is assigned to the intruder: continue is theirs
        response = getattr(client, method)(url, {"version": "1"}, **(HTMX if htmx else {}))
        assert response.status_code == 404, url
    assert fresh(figure_1).version == 1
    assert not JudgmentEvent.objects.exists()


def test_a_judge_no_longer_assigned_loses_access(
    judge_client: Client, figure_1: Judgment, judge: User
) -> None:
    figure_1.target.sentence.corpus.judges.remove(judge)

    assert judge_client.get(page_url(figure_1)).status_code == 404
    assert (
        judge_client.get(
            reverse("annotation:judge_continue", args=[figure_1.target.sentence.corpus_id])
        ).status_code
        == 404
    )


def test_a_lead_sees_a_judges_work_but_cannot_change_it(
    lead_client: Client, figure_1: Judgment
) -> None:
    page = lead_client.get(page_url(figure_1))
    refused = lead_client.post(change_url(figure_1, "sser"), {"version": "1", "sser": "3"})

    assert page.status_code == 200
    assert 'data-readonly="true"' in page.content.decode()
    assert refused.status_code == 403
    assert fresh(figure_1).sser is None
    assert not JudgmentEvent.objects.exists()  # a lead's visit is not the judge's time


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_right_judge_gets_the_page_or_the_fragment(
    judge_client: Client, figures_shown: Corpus, figure_1: Judgment, htmx: bool
) -> None:
    response = judge_client.get(page_url(figure_1), **(HTMX if htmx else {}))

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="judge"') == htmx
    assert ('<header id="judge-header" class="judge-header" hx-swap-oob="true">' in html) == htmx
    assert ('src="/static/js/judge.js"' in html) == (not htmx)
    if htmx:
        assert response["HX-Push-Url"] == page_url(figure_1)
    for marker in [
        'id="candidate"',
        'id="new-ref"',
        'id="edit-count">5<',
        'data-op="missing" data-ref-word="This"',
        'data-op="substitution" data-ref-word="figure"',
        'id="accept-next"',
        'data-figure="awer">45.5<',
        *[f'data-sser="{n}"' for n in range(11)],
        *[f'data-figure="{key}"' for key in ("awer", "aser", "sser", "wer", "mwer", "bleu")],
    ]:
        assert marker in html, marker
    assert JudgmentEvent.objects.get().kind == "open"


def test_the_missing_word_is_a_dash_button_and_words_are_button_text(
    judge_client: Client, figure_1: Judgment
) -> None:
    html = judge_client.get(page_url(figure_1)).content.decode()

    assert (
        'data-op="missing" data-ref-word="This" data-action="op" '
        'title="Missing: the reference word “This”' in html
    )
    assert '">–</button>' in html
    assert '">Diagram</button>' in html
    assert "System 1" in html
    assert "a translator" not in html


def test_an_in_page_request_is_not_a_visit(judge_client: Client, figure_1: Judgment) -> None:
    response = judge_client.get(page_url(figure_1) + "?edit=2", **HTMX)

    html = response.content.decode()
    assert 'id="word-editor"' in html
    assert 'id="word-edit-text" name="text" value="shows"' in html
    assert "HX-Push-Url" not in response
    assert not JudgmentEvent.objects.exists()


# --- changes, both branches ------------------------------------------------------------------


@pytest.mark.parametrize("action, data, check", JUDGE_CHANGES, ids=[c[0] for c in JUDGE_CHANGES])
def test_a_plain_change_is_saved_and_redirects_to_the_page(
    judge_client: Client, figure_1: Judgment, action: str, data: dict, check: Callable
) -> None:
    response = judge_client.post(change_url(figure_1, action), {"version": "1", **data})

    assert response.status_code == 303
    assert response["Location"] == page_url(figure_1)
    assert check(fresh(figure_1))
    assert fresh(figure_1).version == 2


@pytest.mark.parametrize("action, data, check", JUDGE_CHANGES, ids=[c[0] for c in JUDGE_CHANGES])
def test_an_htmx_change_answers_with_the_fragment_and_the_figures(
    judge_client: Client,
    figure_1: Judgment,
    action: str,
    data: dict,
    check: Callable,
    django_assert_max_num_queries,
) -> None:
    with django_assert_max_num_queries(MAX_QUERIES_PER_CLICK):
        response = judge_client.post(change_url(figure_1, action), {"version": "1", **data}, **HTMX)

    html = response.content.decode()
    stored = fresh(figure_1)
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="judge"')
    assert '<dl id="figures" class="figures" hx-swap-oob="true"' in html
    assert f'id="edit-count">{stored.edits}<' in html
    assert 'data-version="2"' in html
    assert check(stored)


def test_a_clicked_score_reads_as_a_score_and_the_figure_as_an_error(
    judge_client: Client, figures_shown: Corpus, figure_1: Judgment
) -> None:
    """Right after a 7: the candidate's "SSER 7 (score)", and the system's figure over the
    judge's work, "SSER error 30.0 %", each under its own label (issue 11)."""
    response = judge_client.post(
        change_url(figure_1, "sser"), {"version": "1", "sser": "7"}, **HTMX
    )
    html = response.content.decode()

    assert 'id="sser-score" data-score="7">SSER 7 (score)</span>' in html
    assert re.search(r'>SSER error</dt><dd><span data-figure="sser">30\.0</span> %</dd>', html)
    done = judge_client.post(
        reverse("annotation:judgment_accept", args=[figure_1.pk]), {"version": "2"}
    )
    assert done.status_code in (302, 303)
    page = judge_client.get(page_url(figure_1)).content.decode()
    assert "Accepted with SSER 7 (score)." in page


@pytest.mark.parametrize("action", ["undo", "redo"])
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_undo_and_redo_buttons(
    judge_client: Client, figure_1: Judgment, action: str, htmx: bool, django_assert_max_num_queries
) -> None:
    judge_client.post(change_url(figure_1, "op"), {"version": "1", "op": "missing:0:0"})
    judge_client.post(change_url(figure_1, "op"), {"version": "2", "op": "substitution:0:0"})
    if action == "redo":
        judge_client.post(change_url(figure_1, "undo"), {"version": "3"})
    version = fresh(figure_1).version

    with django_assert_max_num_queries(MAX_QUERIES_PER_CLICK):
        response = judge_client.post(
            change_url(figure_1, action), {"version": str(version)}, **(HTMX if htmx else {})
        )

    assert response.status_code == (200 if htmx else 303)
    expected = (
        "figure shows the scan procedure to find the archives."
        if action == "undo"
        else "Diagram shows the scan procedure to find the archives."
    )
    assert fresh(figure_1).new_ref == expected
    if htmx:
        html = response.content.decode()
        assert ('id="redo" data-action="redo">' in html) == (action == "undo")  # enabled


def test_three_htmx_clicks_of_figure_1_stay_within_the_query_budget(
    judge_client: Client, figure_1: Judgment, django_assert_max_num_queries
) -> None:
    for version, op in enumerate(["missing:0:0", "substitution:0:0", "substitution:6:6"], start=1):
        with django_assert_max_num_queries(MAX_QUERIES_PER_CLICK):
            response = judge_client.post(
                change_url(figure_1, "op"), {"version": version, "op": op}, **HTMX
            )
        assert response.status_code == 200

    assert fresh(figure_1).new_ref == "Diagram shows the scan procedure to locate the archives."
    assert 'id="edit-count">2<' in response.content.decode()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_stale_page_is_refused_with_the_fresh_state(
    judge_client: Client, figure_1: Judgment, htmx: bool
) -> None:
    judge_client.post(change_url(figure_1, "sser"), {"version": "1", "sser": "6"})  # the other tab

    response = judge_client.post(
        change_url(figure_1, "sser"), {"version": "1", "sser": "9"}, **(HTMX if htmx else {})
    )

    html = response.content.decode()
    assert response.status_code == 409
    assert 'data-message-kind="stale"' in html
    assert ERR_STALE.replace("'", "&#x27;") in html
    assert 'data-version="2"' in html
    assert 'data-sser="6" data-action="sser" class="sser pressed" aria-pressed="true"' in html
    assert fresh(figure_1).sser == 6


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_refused_change_says_why(judge_client: Client, figure_1: Judgment, htmx: bool) -> None:
    response = judge_client.post(
        reverse("annotation:judgment_accept", args=[figure_1.pk]),
        {"version": "1"},
        **(HTMX if htmx else {}),
    )

    assert response.status_code == 422
    assert ERR_NO_SSER in response.content.decode()
    assert fresh(figure_1).state == "pending"


@pytest.mark.parametrize(
    "data",
    [
        {"version": "x", "sser": "1"},
        {"version": "1", "sser": "ten"},
        {"version": "1", "sser": "11"},
    ],
)
def test_malformed_fields_are_refused(judge_client: Client, figure_1: Judgment, data: dict) -> None:
    response = judge_client.post(change_url(figure_1, "sser"), data, **HTMX)

    assert response.status_code == 422
    assert 'data-message-kind="refused"' in response.content.decode()


@pytest.mark.parametrize(
    "action, data, name, value",
    [
        ("sser", {"version": "1", "sser": "٣"}, "sser", "٣"),  # Arabic-Indic 3
        ("sser", {"version": "1", "sser": "３"}, "sser", "３"),  # full-width 3
        ("sser", {"version": "١", "sser": "3"}, "version", "١"),
        ("word", {"version": "1", "pos": "٠", "action": "delete"}, "pos", "٠"),
        ("word", {"version": "1", "pos": "1_0", "action": "delete"}, "pos", "1_0"),
    ],
)
def test_a_number_in_other_digits_is_refused_and_nothing_is_saved(
    judge_client: Client, figure_1: Judgment, action: str, data: dict, name: str, value: str
) -> None:
    """Issue 36, point 8c: Python's int reads "٣" as 3; the page's numbers are read in
    the digits 0–9 only, refused (422, the field and its value) and never stored."""
    response = judge_client.post(change_url(figure_1, action), data, **HTMX)

    assert response.status_code == 422
    assert ERR_NOT_A_NUMBER.format(name=name, value=value) in unescape(response.content.decode())
    stored = fresh(figure_1)
    assert (stored.version, stored.sser, stored.new_ref) == (1, None, figure_1.new_ref)
    assert not JudgmentEvent.objects.filter(judgment=figure_1).exclude(kind="open").exists()


def test_an_edit_position_in_other_digits_opens_no_editor(
    judge_client: Client, figure_1: Judgment
) -> None:
    """``?edit=²`` passed ``str.isdigit`` and then broke ``int`` (a 500); ``?edit=٠``
    opened the editor of word 0. Neither is a position: the page, without an editor."""
    for edit in ("²", "٠"):
        response = judge_client.get(page_url(figure_1) + "?edit=" + quote(edit))
        assert response.status_code == 200
        assert 'id="word-editor"' not in response.content.decode()
    assert 'id="word-editor"' in judge_client.get(page_url(figure_1) + "?edit=0").content.decode()


def test_an_unknown_action_is_not_found(judge_client: Client, figure_1: Judgment) -> None:
    assert judge_client.post(change_url(figure_1, "explode"), {"version": "1"}).status_code == 404


def test_pages_do_not_answer_other_methods(judge_client: Client, figure_1: Judgment) -> None:
    assert judge_client.get(change_url(figure_1, "sser")).status_code == 405
    assert judge_client.post(page_url(figure_1)).status_code == 405


def test_an_expired_session_names_the_lost_change_and_returns_to_the_page(
    client: Client, figure_1: Judgment
) -> None:
    page = page_url(figure_1)
    sser = {"sser": 7, "version": figure_1.version}

    plain = client.post(change_url(figure_1, "sser"), sser, HTTP_REFERER=f"http://testserver{page}")
    htmx = client.post(
        change_url(figure_1, "sser"), sser, HTTP_HX_CURRENT_URL=f"http://testserver{page}", **HTMX
    )

    expected = f"/accounts/login/?next={quote(page)}&unsaved=1"
    assert (plain.status_code, plain["Location"]) == (302, expected)
    assert (htmx.status_code, htmx["HX-Redirect"]) == (401, expected)
    login = client.get(expected).content.decode()
    assert "your last change was not saved" in login
    assert f'name="next" value="{page}"' in login
    assert fresh(figure_1).sser is None
