"""The judge's views over several requests: accept & next (one request), previous, a
finished corpus, a request sent twice, escaping, export, CSRF."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from annotation.corpora.imports import corpus_import
from annotation.judging import page as judging_page
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.start import next_judgment_for
from annotation.models import Corpus, Judgment, JudgmentEvent, User
from annotation.tests.factories import (
    HTMX,
    JUDGE_CHANGES,
    change_url,
    fresh,
    page_url,
)

pytestmark = pytest.mark.django_db

HOSTILE = """<evalTrans>
<sentence>
  <source>&lt;script&gt;document.title="owned"&lt;/script&gt; el gato</source>
  <eval translator="first reference"><target>the cat &lt;b&gt;sat&lt;/b&gt;</target></eval>
  <eval translator="&lt;i&gt;sys&lt;/i&gt;">
    <target>a cat &lt;script&gt;x()&lt;/script&gt;</target>
  </eval>
</sentence>
</evalTrans>"""


# --- flow ------------------------------------------------------------------------------------


def test_home_lists_the_judges_corpora_with_progress_and_continue(
    judge_client: Client, seed: Corpus
) -> None:
    html = judge_client.get("/").content.decode()

    assert f'href="/corpora/{seed.pk}/judge/" data-action="continue" data-corpus="seed"' in html
    assert 'data-progress="seed">0/2<' in html


def test_accept_and_next_answers_with_the_next_candidate_in_one_request(
    judge_client: Client, figure_1: Judgment
) -> None:
    judge_client.post(change_url(figure_1, "sser"), {"version": "1", "sser": "8"})

    accepted = judge_client.post(
        reverse("annotation:judgment_accept", args=[figure_1.pk]), {"version": "2"}, **HTMX
    )

    second = Judgment.objects.exclude(pk=figure_1.pk).get()
    html = accepted.content.decode()
    assert accepted.status_code == 200
    assert accepted["HX-Push-Url"] == page_url(second)
    assert html.lstrip().startswith('<section id="judge" class="judge"')
    assert f'data-judgment="{second.pk}"' in html
    assert '<header id="judge-header" class="judge-header" hx-swap-oob="true">' in html
    assert 'id="sentence-number">2<' in html
    assert 'id="progress">1/2<' in html
    assert second.target.sentence.position == 1
    assert fresh(figure_1).state == "done"
    # The next candidate's page was shown: its clock starts now, as on a visit.
    assert [e.kind for e in second.events.all()] == ["open"]


def test_a_plain_accept_and_next_redirects_once_to_the_next_candidate(
    judge_client: Client, figure_1: Judgment
) -> None:
    judge_client.post(change_url(figure_1, "sser"), {"version": "1", "sser": "8"})

    accepted = judge_client.post(
        reverse("annotation:judgment_accept", args=[figure_1.pk]), {"version": "2"}
    )
    page = judge_client.get(accepted["Location"])

    second = Judgment.objects.exclude(pk=figure_1.pk).get()
    assert accepted.status_code == 303
    assert accepted["Location"] == page_url(second)
    assert page.status_code == 200
    assert 'id="sentence-number">2<' in page.content.decode()
    assert fresh(figure_1).state == "done"


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_accepting_the_last_candidate_says_all_done(
    judge_client: Client, seed: Corpus, judge: User, htmx: bool
) -> None:
    first = next_judgment_for(user=judge, corpus=seed)
    judgment_set_sser(judgment=first, user=judge, version=first.version, sser=7)
    judgment_finish(judgment=first, user=judge, version=first.version)
    last = next_judgment_for(user=judge, corpus=seed)
    judgment_set_sser(judgment=last, user=judge, version=last.version, sser=7)

    response = judge_client.post(
        reverse("annotation:judgment_accept", args=[last.pk]),
        {"version": str(last.version)},
        **(HTMX if htmx else {}),
    )

    continue_url = reverse("annotation:judge_continue", args=[seed.pk])
    if htmx:
        assert response.status_code == 200
        assert response["HX-Push-Url"] == continue_url
        assert 'id="all-done"' in response.content.decode()
        assert "2/2" in response.content.decode()
        assert last_candidate_link(response) == reverse("annotation:judgment", args=[last.pk])
    else:
        assert response.status_code == 303
        assert response["Location"] == continue_url
    assert fresh(last).state == "done"


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_finished_corpus_says_so(
    judge_client: Client, seed: Corpus, judge: User, htmx: bool
) -> None:
    while (j := next_judgment_for(user=judge, corpus=seed)) is not None:
        judgment_set_sser(judgment=j, user=judge, version=j.version, sser=7)
        judgment_finish(judgment=j, user=judge, version=j.version)
        last = j

    response = judge_client.get(
        reverse("annotation:judge_continue", args=[seed.pk]), **(HTMX if htmx else {})
    )

    assert response.status_code == 200
    assert 'id="all-done"' in response.content.decode()
    assert "2/2" in response.content.decode()
    assert last_candidate_link(response) == reverse("annotation:judgment", args=[last.pk])


def test_the_finished_page_links_back_to_the_candidate_accepted_last(
    judge_client: Client, seed: Corpus, judge: User
) -> None:
    """Not the last in the judge's order: the one accepted last (here the first, accepted
    again after going back to it)."""
    done = []
    while (j := next_judgment_for(user=judge, corpus=seed)) is not None:
        judgment_set_sser(judgment=j, user=judge, version=j.version, sser=7)
        done.append(judgment_finish(judgment=j, user=judge, version=j.version))
    first = fresh(done[0])
    first = judgment_set_sser(judgment=first, user=judge, version=first.version, sser=4)
    judgment_finish(judgment=first, user=judge, version=first.version)

    response = judge_client.get(reverse("annotation:judge_continue", args=[seed.pk]))

    assert last_candidate_link(response) == reverse("annotation:judgment", args=[first.pk])


def last_candidate_link(response) -> str:
    """Where the finished page's "Back to your last candidate" leads."""
    found = re.search(r'<a id="last-candidate"[^>]* href="([^"]+)"', response.content.decode())
    assert found, "the finished page has no link back to the last candidate"
    return found.group(1)


def test_previous_opens_the_candidate_before(
    judge_client: Client, seed: Corpus, judge: User
) -> None:
    first = next_judgment_for(user=judge, corpus=seed)
    judgment_set_sser(judgment=first, user=judge, version=1, sser=7)
    judgment_finish(judgment=first, user=judge, version=2)
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
    assert "<b>sat" not in html
    assert "<i>sys" not in html
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
    assert "<newRef>Diagram shows the scan procedure to locate the archives.</newRef>" in export


# --- a request sent twice --------------------------------------------------------------------


@pytest.mark.parametrize("action, data, check", JUDGE_CHANGES, ids=[c[0] for c in JUDGE_CHANGES])
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
    assert fresh(figure_1).new_ref == "figure shows the scan procedure to find the archives."
    assert fresh(figure_1).version == 4


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_accept_and_next_submitted_twice_accepts_once_and_goes_on(
    judge_client: Client, figure_1: Judgment, htmx: bool
) -> None:
    accept = reverse("annotation:judgment_accept", args=[figure_1.pk])
    judge_client.post(change_url(figure_1, "sser"), {"version": "1", "sser": "8"})
    first = judge_client.post(accept, {"version": "2"}, **(HTMX if htmx else {}))

    again = judge_client.post(accept, {"version": "2"}, **(HTMX if htmx else {}))

    second = Judgment.objects.exclude(pk=figure_1.pk).get()
    if htmx:
        assert (first.status_code, again.status_code) == (200, 200)
        assert again["HX-Push-Url"] == first["HX-Push-Url"] == page_url(second)
        assert 'data-message-kind="stale"' not in again.content.decode()
    else:
        assert (first.status_code, again.status_code) == (303, 303)
        assert again["Location"] == first["Location"] == page_url(second)
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
