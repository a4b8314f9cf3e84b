"""The judge's views: who may see what, both htmx branches, refusals, queries, escaping."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from annotation.judging import changes as judging
from annotation.judging import page as judging_page
from annotation.judging.errors import ERR_NO_SSER, ERR_STALE
from annotation.judging.stack import judgment_for
from annotation.judging.start import judgment_open, next_judgment_for
from annotation.models import Corpus, Judgment, JudgmentEvent, Target, User
from annotation.services import corpus_import

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
MAX_QUERIES_PER_CLICK = 10

HOSTILE = """<evalTrans>
<sentence>
  <source>&lt;script&gt;document.title="owned"&lt;/script&gt; el gato</source>
  <eval translator="first reference"><target>the cat &lt;b&gt;sat&lt;/b&gt;</target></eval>
  <eval translator="&lt;i&gt;sys&lt;/i&gt;">
    <target>a cat &lt;script&gt;x()&lt;/script&gt;</target>
  </eval>
</sentence>
</evalTrans>"""


@pytest.fixture
def figure_1(seed: Corpus, judge: User) -> Judgment:
    target = Target.objects.get(
        sentence__corpus=seed, sentence__position=0, translator__name="a translator"
    )
    return judgment_for(pk=judgment_open(user=judge, target=target).pk, user=judge)


def page_url(judgment: Judgment) -> str:
    return reverse("annotation:judgment", args=[judgment.pk])


def change_url(judgment: Judgment, action: str) -> str:
    return reverse("annotation:judgment_change", args=[judgment.pk, action])


def fresh(judgment: Judgment) -> Judgment:
    return Judgment.objects.get(pk=judgment.pk)


# One valid change per action, for the Figure 1 judgment at version 1.
CHANGES = [
    ("op", {"op": "missing:0:0"}, lambda j: j.new_ref.startswith("figure shows")),
    ("word", {"pos": "0", "action": "replace", "text": "Diagram"}, lambda j: j.edits == 4),
    ("new-ref", {"text": "Diagram shows it ."}, lambda j: j.new_ref == "Diagram shows it ."),
    (
        "use-ref",
        {"text": "Chart represents the search method to locate the files ."},
        lambda j: j.edits == 6,
    ),
    ("sser", {"sser": "8"}, lambda j: j.sser == 8),
]


# --- access ----------------------------------------------------------------------------------


def judge_urls(judgment: Judgment) -> list[tuple[str, str]]:
    corpus_pk = judgment.target.sentence.corpus_id
    return [
        ("get", page_url(judgment)),
        ("get", reverse("annotation:judge_continue", args=[corpus_pk])),
        ("get", reverse("annotation:judgment_previous", args=[judgment.pk])),
        ("post", reverse("annotation:judgment_accept", args=[judgment.pk])),
        *[("post", change_url(judgment, action)) for action, _, _ in CHANGES],
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
    judge_client: Client, figure_1: Judgment, htmx: bool
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
    assert "System 1" in html and "a translator" not in html  # blind by default


def test_an_in_page_request_is_not_a_visit(judge_client: Client, figure_1: Judgment) -> None:
    response = judge_client.get(page_url(figure_1) + "?edit=2", **HTMX)

    html = response.content.decode()
    assert 'id="word-editor"' in html
    assert 'id="word-edit-text" name="text" value="shows"' in html
    assert "HX-Push-Url" not in response
    assert not JudgmentEvent.objects.exists()


# --- changes, both branches ------------------------------------------------------------------


@pytest.mark.parametrize("action, data, check", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_plain_change_is_saved_and_redirects_to_the_page(
    judge_client: Client, figure_1: Judgment, action: str, data: dict, check: Callable
) -> None:
    response = judge_client.post(change_url(figure_1, action), {"version": "1", **data})

    assert response.status_code == 303
    assert response["Location"] == page_url(figure_1)
    assert check(fresh(figure_1))
    assert fresh(figure_1).version == 2


@pytest.mark.parametrize("action, data, check", CHANGES, ids=[c[0] for c in CHANGES])
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
        "figure shows the scan procedure to find the archives ."
        if action == "undo"
        else "Diagram shows the scan procedure to find the archives ."
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

    assert fresh(figure_1).new_ref == "Diagram shows the scan procedure to locate the archives ."
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


def test_an_unknown_action_is_not_found(judge_client: Client, figure_1: Judgment) -> None:
    assert judge_client.post(change_url(figure_1, "explode"), {"version": "1"}).status_code == 404


def test_pages_do_not_answer_other_methods(judge_client: Client, figure_1: Judgment) -> None:
    assert judge_client.get(change_url(figure_1, "sser")).status_code == 405
    assert judge_client.post(page_url(figure_1)).status_code == 405


# --- flow ------------------------------------------------------------------------------------


def test_home_lists_the_judges_corpora_with_progress_and_continue(
    judge_client: Client, seed: Corpus
) -> None:
    html = judge_client.get("/").content.decode()

    assert f'href="/corpora/{seed.pk}/judge/" data-action="continue" data-corpus="seed"' in html
    assert 'data-progress="seed">0/2<' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_accept_and_next_goes_through_continue_to_the_next_candidate(
    judge_client: Client, figure_1: Judgment, htmx: bool, django_assert_max_num_queries
) -> None:
    judge_client.post(change_url(figure_1, "sser"), {"version": "1", "sser": "8"})

    with django_assert_max_num_queries(MAX_QUERIES_PER_CLICK):
        accepted = judge_client.post(
            reverse("annotation:judgment_accept", args=[figure_1.pk]),
            {"version": "2"},
            **(HTMX if htmx else {}),
        )
    onward = judge_client.get(accepted["Location"], **(HTMX if htmx else {}))
    page = judge_client.get(onward["Location"], **(HTMX if htmx else {}))

    second = Judgment.objects.exclude(pk=figure_1.pk).get()
    assert accepted.status_code == 303
    assert accepted["Location"] == f"/corpora/{figure_1.target.sentence.corpus_id}/judge/"
    assert onward["Location"] == page_url(second)
    assert second.target.sentence.position == 1
    assert 'id="sentence-number">2<' in page.content.decode()
    assert fresh(figure_1).state == "done"


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_finished_corpus_says_so(
    judge_client: Client, seed: Corpus, judge: User, htmx: bool
) -> None:
    while (j := next_judgment_for(user=judge, corpus=seed)) is not None:
        judging.judgment_set_sser(judgment=j, user=judge, version=j.version, sser=7)
        judging.judgment_finish(judgment=j, user=judge, version=j.version)

    response = judge_client.get(
        reverse("annotation:judge_continue", args=[seed.pk]), **(HTMX if htmx else {})
    )

    assert response.status_code == 200
    assert 'id="all-done"' in response.content.decode()
    assert "2/2" in response.content.decode()


def test_previous_opens_the_candidate_before(
    judge_client: Client, seed: Corpus, judge: User
) -> None:
    first = next_judgment_for(user=judge, corpus=seed)
    judging.judgment_set_sser(judgment=first, user=judge, version=1, sser=7)
    judging.judgment_finish(judgment=first, user=judge, version=2)
    second = next_judgment_for(user=judge, corpus=seed)

    back = judge_client.get(reverse("annotation:judgment_previous", args=[second.pk]), **HTMX)
    at_start = judge_client.get(reverse("annotation:judgment_previous", args=[first.pk]))

    assert back["Location"] == page_url(first)
    assert at_start["Location"] == page_url(first)


# --- escaping and export ---------------------------------------------------------------------


def test_corpus_text_is_escaped(judge_client: Client, judge: User) -> None:
    corpus = corpus_import(source=io.BytesIO(HOSTILE.encode()), name="hostile").corpus
    corpus.judges.add(judge)
    corpus.blind = False
    corpus.save()

    page = judge_client.get(judge_client.get(f"/corpora/{corpus.pk}/judge/")["Location"])

    html = page.content.decode()
    assert "&lt;script&gt;document.title=&quot;owned&quot;&lt;/script&gt;" in html
    assert "<script>document" not in html
    assert "<script>x()" not in html
    assert "<b>sat" not in html and "<i>sys" not in html
    assert "&lt;i&gt;sys&lt;/i&gt;" in html


def test_the_export_after_judging_holds_the_judgment(
    judge_client: Client, lead: User, figure_1: Judgment
) -> None:
    for version, op in enumerate(["missing:0:0", "substitution:0:0", "substitution:6:6"], start=1):
        judge_client.post(change_url(figure_1, "op"), {"version": version, "op": op})
    judge_client.post(change_url(figure_1, "sser"), {"version": "4", "sser": "8"})
    judge_client.post(reverse("annotation:judgment_accept", args=[figure_1.pk]), {"version": "5"})

    lead_client = Client()
    lead_client.force_login(lead)
    export = b"".join(
        lead_client.get(
            f"/corpora/{figure_1.target.sentence.corpus_id}/export.xml"
        ).streaming_content
    ).decode()

    assert 'evaluator="judge"' in export
    assert 'sser="8"' in export
    assert 'awer="2/10"' in export
    assert "<newRef>Diagram shows the scan procedure to locate the archives .</newRef>" in export


# --- a request sent twice --------------------------------------------------------------------


@pytest.mark.parametrize("action, data, check", CHANGES, ids=[c[0] for c in CHANGES])
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_same_request_sent_twice_is_saved_once_and_not_refused(
    judge_client: Client, figure_1: Judgment, action: str, data: dict, check: Callable, htmx: bool
) -> None:
    """A retry after a lost answer, or a double submit, repeats the request with the
    version it was made on: the change is already saved, so the answer is the page."""
    headers = HTMX if htmx else {}
    judge_client.post(change_url(figure_1, action), {"version": "1", **data}, **headers)

    again = judge_client.post(change_url(figure_1, action), {"version": "1", **data}, **headers)

    assert again.status_code == (200 if htmx else 303)
    assert 'data-message-kind="stale"' not in again.content.decode()
    assert check(fresh(figure_1))
    assert fresh(figure_1).version == 2
    assert JudgmentEvent.objects.exclude(kind="open").count() == 1


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_undo_sent_twice_undoes_once(judge_client: Client, figure_1: Judgment, htmx: bool) -> None:
    judge_client.post(change_url(figure_1, "op"), {"version": "1", "op": "missing:0:0"})
    judge_client.post(change_url(figure_1, "op"), {"version": "2", "op": "substitution:0:0"})
    judge_client.post(change_url(figure_1, "undo"), {"version": "3"})

    again = judge_client.post(
        change_url(figure_1, "undo"), {"version": "3"}, **(HTMX if htmx else {})
    )

    assert again.status_code == (200 if htmx else 303)
    assert fresh(figure_1).new_ref == "figure shows the scan procedure to find the archives ."
    assert fresh(figure_1).version == 4


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_accept_and_next_submitted_twice_accepts_once_and_goes_on(
    judge_client: Client, figure_1: Judgment, htmx: bool
) -> None:
    accept = reverse("annotation:judgment_accept", args=[figure_1.pk])
    judge_client.post(change_url(figure_1, "sser"), {"version": "1", "sser": "8"})
    judge_client.post(accept, {"version": "2"}, **(HTMX if htmx else {}))

    again = judge_client.post(accept, {"version": "2"}, **(HTMX if htmx else {}))

    assert again.status_code == 303
    assert again["Location"] == f"/corpora/{figure_1.target.sentence.corpus_id}/judge/"
    assert fresh(figure_1).version == 3
    assert JudgmentEvent.objects.filter(kind="finish").count() == 1


@pytest.mark.parametrize(
    "action, data",
    [("sser", {"sser": "9"}), ("op", {"op": "missing:0:0"})],
    ids=["same-kind-other-value", "other-kind"],
)
def test_only_the_very_same_request_counts_as_sent_twice(
    judge_client: Client, figure_1: Judgment, action: str, data: dict
) -> None:
    judge_client.post(change_url(figure_1, "sser"), {"version": "1", "sser": "8"})

    again = judge_client.post(change_url(figure_1, action), {"version": "1", **data}, **HTMX)

    assert again.status_code == 409
    assert 'data-message-kind="stale"' in again.content.decode()
    assert (fresh(figure_1).version, fresh(figure_1).sser) == (2, 8)


@pytest.mark.parametrize(
    "method, action", [("get", None), ("post", "op"), ("post", "sser")], ids=["page", "op", "sser"]
)
def test_a_request_aligns_the_candidate_once(
    judge_client: Client, figure_1: Judgment, monkeypatch, method: str, action: str | None
) -> None:
    calls = []
    align = judging_page.align
    monkeypatch.setattr(judging_page, "align", lambda *a, **k: calls.append(a) or align(*a, **k))
    data = {"version": "1", "op": "missing:0:0", "sser": "8"}

    if method == "get":
        response = judge_client.get(page_url(figure_1), **HTMX)
    else:
        response = judge_client.post(change_url(figure_1, action), data, **HTMX)

    assert response.status_code == 200
    assert len(calls) == 1


def test_every_post_needs_the_csrf_token(judge: User, figure_1: Judgment) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(judge)
    html = browser.get(page_url(figure_1)).content.decode()
    token = html.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    header = html.split("hx-headers='", 1)[1].split("'", 1)[0]

    refused = browser.post(change_url(figure_1, "sser"), {"version": "1", "sser": "8"}, **HTMX)
    by_form = browser.post(
        change_url(figure_1, "sser"), {"version": "1", "sser": "8", "csrfmiddlewaretoken": token}
    )

    assert refused.status_code == 403
    assert by_form.status_code == 303
    assert '"x-csrftoken": "' in header
    assert html.count('name="csrfmiddlewaretoken"') == html.count('method="post"')
