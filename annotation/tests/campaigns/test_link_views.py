"""Annotators in without a password, on the web: the lead's bulk creation and links
pages (every action for a lead, 404 for a judge, the login for an anonymous visitor;
secrets shown once), and a link's whole life: opened, worked, completed, revoked,
expired, guessed at, and never another annotator's queue."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from urllib.parse import unquote

import pytest
from axes.models import AccessAttempt, AccessLog
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from annotation.campaigns.link_sessions import LINK_SESSION_KEY
from annotation.campaigns.link_tokens import REDACTED
from annotation.campaigns.links import ERR_NO_ANNOTATOR, links_create
from annotation.campaigns.roster import ERR_TWICE, ERR_USERNAME_FORM
from annotation.models import AnnotatorLink, Campaign, Corpus, User
from annotation.tests.campaigns.test_links import two_corpus_campaign
from annotation.tests.factories import HTMX, PASSWORD, done_judgment

pytestmark = pytest.mark.django_db

LINK_SHOWN = re.compile(r'<code class="secret-link">(http://testserver/a/([\w-]+)/)</code>')
PASSWORD_CELL = re.compile(r'<td data-col="password"><code>([a-z2-9-]+)</code></td>')


@pytest.fixture
def campaign(user_factory: Callable[..., User]) -> Campaign:
    """Campaign "wmt" of corpora wmt-a and wmt-b (two candidates each); ana judges both,
    bo only wmt-b."""
    made, first, second = two_corpus_campaign()
    ana, bo = user_factory("ana"), user_factory("bo")
    first.judges.add(ana)
    second.judges.add(ana, bo)
    return made


def token_of(campaign: Campaign, username: str) -> str:
    (new,) = links_create(campaign=campaign, users=[User.objects.get(username=username)])
    return new.token


def session_user(client: Client) -> str | None:
    pk = client.session.get("_auth_user_id")
    return None if pk is None else User.objects.get(pk=pk).username


def corpus_queue(name: str) -> str:
    return reverse("annotation:judge_continue", args=[Corpus.objects.get(name=name).pk])


def every_action(campaign: Campaign) -> list[tuple[str, str, dict[str, object]]]:
    ana = User.objects.get(username="ana")
    (new,) = links_create(campaign=campaign, users=[ana])
    return [
        ("post", reverse("campaigns:judges_bulk"), {"accounts": "newbie"}),
        ("get", reverse("campaigns:links", args=[campaign.pk]), {}),
        (
            "post",
            reverse("campaigns:links_create", args=[campaign.pk]),
            {"everyone": "on", "days": 3},
        ),
        ("post", reverse("campaigns:link_revoke", args=[campaign.pk, new.link.pk]), {}),
        ("post", reverse("campaigns:links_revoke_all", args=[campaign.pk]), {}),
    ]


def test_every_action_of_the_new_pages_is_the_login_page_for_anonymous_visitors(
    client: Client, campaign: Campaign
) -> None:
    for method, url, data in every_action(campaign):
        response = getattr(client, method)(url, data)

        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url


def test_every_action_of_the_new_pages_is_a_404_for_a_judge_and_changes_nothing(
    client: Client, campaign: Campaign
) -> None:
    client.force_login(User.objects.get(username="ana"))

    for method, url, data in every_action(campaign):
        assert getattr(client, method)(url, data).status_code == 404, url

    assert not User.objects.filter(username="newbie").exists()
    assert AnnotatorLink.objects.count() == 1
    assert not AnnotatorLink.objects.filter(revoked_at__isnull=False).exists()


def test_every_action_of_the_new_pages_works_for_a_lead(
    lead_client: Client, campaign: Campaign
) -> None:
    statuses = [
        getattr(lead_client, method)(url, data).status_code
        for method, url, data in every_action(campaign)
    ]

    assert statuses == [200, 200, 200, 303, 303]
    assert User.objects.get(username="newbie").must_change_password
    assert AnnotatorLink.objects.filter(revoked_at__isnull=True).count() == 0


# --- bulk creation ---------------------------------------------------------------------


def test_a_list_makes_accounts_whose_passwords_are_shown_once_with_their_csv(
    lead_client: Client, campaign: Campaign
) -> None:
    corpus = Corpus.objects.get(name="wmt-a")

    response = lead_client.post(
        reverse("campaigns:judges_bulk"),
        {"accounts": "username,email\ncy,cy@example.org\ndee\n", "corpora": [corpus.pk]},
    )

    html = response.content.decode()
    passwords = PASSWORD_CELL.findall(html)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert len(passwords) == 2
    for name, password in zip(("cy", "dee"), passwords, strict=True):
        user = User.objects.get(username=name)
        assert user.check_password(password)
        assert list(user.assigned_corpora.all()) == [corpus]
    csv_link = re.search(r'href="data:text/csv;charset=utf-8,([^"]+)"', html)
    assert csv_link is not None
    csv = unquote(csv_link.group(1))
    assert (
        csv.splitlines()[1] == f"cy,cy@example.org,{passwords[0]},http://testserver/accounts/login/"
    )
    later = lead_client.get(reverse("campaigns:judges")).content.decode()
    assert not any(p in later for p in passwords)


def test_a_bad_list_is_refused_with_each_line_and_reason_and_creates_nothing(
    lead_client: Client, campaign: Campaign
) -> None:
    response = lead_client.post(
        reverse("campaigns:judges_bulk"), {"accounts": "cy\nbad name\ncy\n"}
    )

    html = response.content.decode()
    assert response.status_code == 400
    assert html.count('data-field="accounts"') == 2
    assert "line 2: " + ERR_USERNAME_FORM.format(username="bad name").replace("'", "&#x27;") in html
    assert "line 3: " + ERR_TWICE.format(username="cy", first=1).replace("'", "&#x27;") in html
    assert "Nothing was created" in html
    assert not User.objects.filter(username="cy").exists()


@pytest.mark.parametrize(
    "data, field, reason",
    [
        (b"cy\nd\xe9e\n", "file", "line 2: invalid UTF-8 (byte 0xe9 at offset 4)"),
        (b"", "file", "line 1: the list is empty"),
        (b"cy\n", "file", "paste a list or upload a file, not both"),
    ],
)
def test_a_bad_file_is_refused_on_its_field(
    lead_client: Client, data: bytes, field: str, reason: str
) -> None:
    form: dict[str, object] = {"file": SimpleUploadedFile("judges.csv", data, "text/csv")}
    if reason.startswith("paste"):
        form["accounts"] = "dee"

    response = lead_client.post(reverse("campaigns:judges_bulk"), form)

    html = response.content.decode()
    assert response.status_code == 400
    assert f'data-field="{field}"' in html
    assert reason in html
    assert User.objects.filter(role=User.Role.JUDGE).count() == 0


def test_a_file_list_makes_the_accounts(lead_client: Client) -> None:
    upload = SimpleUploadedFile("judges.csv", "cy;cy@example.org\r\ndée\r\n".encode(), "text/csv")

    response = lead_client.post(reverse("campaigns:judges_bulk"), {"file": upload})

    assert response.status_code == 200
    assert User.objects.get(username="dée").is_active
    assert User.objects.get(username="cy").email == "cy@example.org"


# --- the lead's links page -------------------------------------------------------------


def test_new_links_are_shown_once_with_their_csv_and_then_only_by_their_hint(
    lead_client: Client, campaign: Campaign
) -> None:
    bo = User.objects.get(username="bo")

    response = lead_client.post(
        reverse("campaigns:links_create", args=[campaign.pk]), {"annotators": [bo.pk], "days": 3}
    )

    html = response.content.decode()
    ((url, token),) = LINK_SHOWN.findall(html)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    link = AnnotatorLink.objects.get()
    assert (link.user, link.hint) == (bo, token[:6])
    assert link.expires_at - timezone.now() > timedelta(days=3) - timedelta(minutes=1)
    csv = unquote(re.search(r'href="data:text/csv;charset=utf-8,([^"]+)"', html).group(1))
    assert csv.splitlines()[1].startswith(f"bo,,{url},")
    later = lead_client.get(reverse("campaigns:links", args=[campaign.pk])).content.decode()
    assert token not in later
    assert f'data-link="{token[:6]}"' in later
    assert 'data-state="active"' in later


@pytest.mark.parametrize(
    "form, field, reason",
    [
        ({"days": 30}, "annotators", ERR_NO_ANNOTATOR),
        ({"everyone": "on", "days": 0}, "days", "greater than or equal to 1"),
        ({"everyone": "on", "days": 366}, "days", "less than or equal to 365"),
    ],
)
def test_a_bad_links_form_is_refused_with_its_field(
    lead_client: Client, campaign: Campaign, form: dict[str, object], field: str, reason: str
) -> None:
    response = lead_client.post(reverse("campaigns:links_create", args=[campaign.pk]), form)

    assert response.status_code == 400
    assert f'data-field="{field}"' in response.content.decode()
    assert reason in response.content.decode()
    assert not AnnotatorLink.objects.exists()


def test_no_link_can_be_made_for_a_lead_or_a_superuser(
    lead_client: Client, campaign: Campaign, lead: User, user_factory: Callable[..., User]
) -> None:
    root = user_factory("root", is_superuser=True)
    Corpus.objects.get(name="wmt-a").judges.add(lead, root)
    page = lead_client.get(reverse("campaigns:links", args=[campaign.pk])).content.decode()

    for account in (lead, root):
        response = lead_client.post(
            reverse("campaigns:links_create", args=[campaign.pk]),
            {"annotators": [account.pk], "days": 3},
        )
        assert response.status_code == 400
        assert "is not one of the available choices" in response.content.decode()
    everyone = lead_client.post(
        reverse("campaigns:links_create", args=[campaign.pk]), {"everyone": "on", "days": 3}
    )

    assert f'value="{lead.pk}"' not in page
    assert everyone.status_code == 200
    assert sorted(AnnotatorLink.objects.values_list("user__username", flat=True)) == ["ana", "bo"]


def test_revoking_one_link_and_then_all_leaves_each_revoked_once(
    lead_client: Client, campaign: Campaign
) -> None:
    ana, bo = User.objects.get(username="ana"), User.objects.get(username="bo")
    first, second = links_create(campaign=campaign, users=[ana, bo])
    other, _, _ = two_corpus_campaign("other")
    Corpus.objects.get(name="other-a").judges.add(ana)
    (elsewhere,) = links_create(campaign=other, users=[ana])

    revoke = reverse("campaigns:link_revoke", args=[campaign.pk, first.link.pk])
    assert lead_client.post(revoke).status_code == 303
    revoked_at = AnnotatorLink.objects.get(pk=first.link.pk).revoked_at
    wrong_campaign = reverse("campaigns:link_revoke", args=[other.pk, second.link.pk])
    assert lead_client.post(wrong_campaign).status_code == 404
    lead_client.post(reverse("campaigns:links_revoke_all", args=[campaign.pk]))

    assert AnnotatorLink.objects.get(pk=first.link.pk).revoked_at == revoked_at
    assert AnnotatorLink.objects.get(pk=second.link.pk).revoked_at is not None
    assert AnnotatorLink.objects.get(pk=elsewhere.link.pk).revoked_at is None
    page = lead_client.get(reverse("campaigns:links", args=[campaign.pk])).content.decode()
    assert page.count('data-state="revoked"') == 2


def test_the_links_page_costs_the_same_queries_with_few_or_many_links(
    lead_client: Client, campaign: Campaign, user_factory: Callable[..., User]
) -> None:
    url = reverse("campaigns:links", args=[campaign.pk])
    links_create(campaign=campaign, users=[User.objects.get(username="ana")])
    with CaptureQueriesContext(connection) as few:
        assert lead_client.get(url).status_code == 200
    crowd = [user_factory(f"crowd{k}") for k in range(40)]
    Corpus.objects.get(name="wmt-b").judges.add(*crowd)
    links_create(campaign=campaign, users=crowd)
    links_revoke = AnnotatorLink.objects.filter(user__in=crowd[:10])
    links_revoke.update(revoked_at=timezone.now())

    with CaptureQueriesContext(connection) as many:
        assert lead_client.get(url).status_code == 200

    assert len(many) == len(few) <= 8


def test_the_judges_and_campaign_pages_link_to_the_links_page(
    lead_client: Client, campaign: Campaign
) -> None:
    url = reverse("campaigns:links", args=[campaign.pk])
    corpus = Corpus.objects.get(name="wmt-a")

    judges = lead_client.get(reverse("campaigns:judges")).content.decode()
    corpus_page = lead_client.get(reverse("campaigns:corpus", args=[corpus.pk])).content.decode()

    assert f'href="{url}"' in judges
    assert f'href="{url}" data-action="annotator-links"' in corpus_page


# --- a link's life ---------------------------------------------------------------------


def test_a_link_logs_its_annotator_in_and_leads_to_their_queue(
    client: Client, campaign: Campaign
) -> None:
    token = token_of(campaign, "ana")

    opened = client.get(f"/a/{token}/")
    onward = client.get(opened["Location"])

    assert opened.status_code == 302
    assert opened["Location"] == reverse("annotation_link_next")
    assert opened["Referrer-Policy"] == "strict-origin"
    assert "no-store" in opened["Cache-Control"]
    assert session_user(client) == "ana"
    assert client.session[LINK_SESSION_KEY] == AnnotatorLink.objects.get().pk
    assert onward["Location"] == corpus_queue("wmt-a")
    assert client.get(onward["Location"], follow=True).status_code == 200
    assert AnnotatorLink.objects.get().last_used_at is not None


def test_a_link_session_is_not_sent_to_change_a_password_it_never_had(
    lead_client: Client, campaign: Campaign
) -> None:
    lead_client.post(
        reverse("campaigns:judges_bulk"),
        {"accounts": "cy", "corpora": [Corpus.objects.get(name="wmt-b").pk]},
    )
    token = token_of(campaign, "cy")
    client = Client()  # the annotator's browser

    client.get(f"/a/{token}/")
    queue = client.get(reverse("annotation_link_next"))
    page = client.get(queue["Location"])

    assert User.objects.get(username="cy").must_change_password
    assert queue["Location"] == corpus_queue("wmt-b")
    assert page.status_code == 302
    assert page["Location"].startswith("/judgments/")


def test_work_done_through_a_link_ends_with_a_completion_code_that_stays(
    lead_client: Client, campaign: Campaign
) -> None:
    bo = User.objects.get(username="bo")
    token = token_of(campaign, "bo")
    client = Client()  # the annotator's browser
    client.get(f"/a/{token}/")
    second = Corpus.objects.get(name="wmt-b")
    assert client.get(reverse("annotation_link_next"))["Location"] == corpus_queue("wmt-b")
    for position in (0, 1):
        done_judgment(second, bo, "a translator", position, sser=4)

    finished = client.get(corpus_queue("wmt-b")).content.decode()
    first = client.get(reverse("annotation_link_next"))
    again = client.get(reverse("annotation_link_next"))

    assert f'href="{reverse("annotation_link_next")}"' in finished
    code = re.search(
        r'<code id="completion-code" data-code="([A-Z2-9-]+)">', first.content.decode()
    )
    assert code is not None
    assert code.group(1) in again.content.decode()
    assert "no-store" in first["Cache-Control"]
    assert AnnotatorLink.objects.get().completion_code == code.group(1)
    lead_page = lead_client.get(reverse("campaigns:links", args=[campaign.pk])).content.decode()
    assert f"<code>{code.group(1)}</code>" in lead_page


def test_no_code_for_an_annotator_with_nothing_assigned_or_nothing_done(
    client: Client, campaign: Campaign
) -> None:
    """The completion code is for work done: an annotator whose corpora were taken off,
    or who found no batch left before judging anything, is told so, with no code."""
    campaign.judges_per_item = 1  # split, and no batch dealt yet: nothing left for bo
    campaign.save()
    client.get(f"/a/{token_of(campaign, 'bo')}/")

    nothing_done = client.get(reverse("annotation_link_next"))
    Corpus.objects.get(name="wmt-b").judges.remove(User.objects.get(username="bo"))
    not_assigned = client.get(reverse("annotation_link_next"))

    assert nothing_done.status_code == not_assigned.status_code == 200
    assert 'data-state="nothing-done"' in nothing_done.content.decode()
    assert 'data-state="not-assigned"' in not_assigned.content.decode()
    for page in (nothing_done, not_assigned):
        assert "completion-code" not in page.content.decode()
    assert AnnotatorLink.objects.get().completion_code == ""


def test_the_finished_page_offers_the_campaign_only_to_a_link_session(
    client: Client, campaign: Campaign
) -> None:
    bo = User.objects.get(username="bo")
    second = Corpus.objects.get(name="wmt-b")
    for position in (0, 1):
        done_judgment(second, bo, "a translator", position, sser=4)
    client.force_login(bo)

    by_password = client.get(corpus_queue("wmt-b")).content.decode()

    assert 'id="all-done"' in by_password
    assert "link-continue" not in by_password
    assert client.get(reverse("annotation_link_next"))["Location"] == reverse("annotation:home")


def test_no_batch_left_offers_a_link_session_the_way_to_its_completion_code(
    client: Client, campaign: Campaign
) -> None:
    """An annotator who came by a link and presses "Next batch" when none is left is
    shown the way to their completion code (what the crowd platform waits for), on the
    page and in the fragment that takes the finished page's place; a password session is
    not (it has no code)."""
    campaign.judges_per_item = 1  # split, and no batch left for bo
    campaign.save()
    url = reverse("annotation:next_batch", args=[Corpus.objects.get(name="wmt-b").pk])
    by_password = Client()
    by_password.force_login(User.objects.get(username="bo"))
    client.get(f"/a/{token_of(campaign, 'bo')}/")

    pages = [client.post(url).content.decode(), client.post(url, **HTMX).content.decode()]
    without = by_password.post(url).content.decode()

    for page in pages:
        assert 'id="no-batch-left"' in page
        assert f'href="{reverse("annotation_link_next")}" data-action="link-next"' in page
    assert 'id="no-batch-left"' in without
    assert "link-next" not in without


def test_a_revoked_link_opens_nothing_and_ends_the_session_it_opened(
    client: Client, campaign: Campaign
) -> None:
    token = token_of(campaign, "ana")
    client.get(f"/a/{token}/")
    AnnotatorLink.objects.update(revoked_at=timezone.now())

    ended = client.get(corpus_queue("wmt-a"))
    htmx = Client()
    htmx.get(f"/a/{token_of(campaign, 'ana')}/")
    AnnotatorLink.objects.update(revoked_at=timezone.now())
    by_htmx = htmx.post("/judgments/1/accept/", HTTP_HX_REQUEST="true")
    again = Client().get(f"/a/{token}/")

    assert ended.status_code == 302
    assert ended["Location"] == reverse("annotation_link_ended")
    assert session_user(client) is None
    assert client.get(ended["Location"]).status_code == 410
    assert by_htmx.status_code == 401
    assert by_htmx["HX-Redirect"] == reverse("annotation_link_ended") + "?unsaved=1"
    assert again.status_code == 410
    assert 'data-refusal="revoked"' in again.content.decode()
    assert "no-store" in again["Cache-Control"]


def test_a_session_whose_link_was_revoked_opens_a_new_link(
    client: Client, campaign: Campaign
) -> None:
    client.get(f"/a/{token_of(campaign, 'ana')}/")
    AnnotatorLink.objects.update(revoked_at=timezone.now())
    new = token_of(campaign, "ana")

    opened = client.get(f"/a/{new}/")
    onward = client.get(opened["Location"])

    assert opened["Location"] == reverse("annotation_link_next")
    assert onward["Location"] == corpus_queue("wmt-a")
    assert session_user(client) == "ana"
    assert client.session[LINK_SESSION_KEY] == AnnotatorLink.objects.get(revoked_at=None).pk


def test_an_expired_link_opens_nothing_and_logs_out_nobody(
    client: Client, campaign: Campaign
) -> None:
    token = token_of(campaign, "ana")
    AnnotatorLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(User.objects.get(username="bo"))

    refused = client.get(f"/a/{token}/")

    assert refused.status_code == 410
    assert 'data-refusal="expired"' in refused.content.decode()
    assert refused["Referrer-Policy"] == "strict-origin"
    assert session_user(client) == "bo"
    assert LINK_SESSION_KEY not in client.session


def test_another_annotators_link_never_opens_this_ones_queue(
    client: Client, campaign: Campaign
) -> None:
    """bo's link in ana's browser asks first, and logs ana out only when told to; then
    it is bo who is logged in, and bo's queue (wmt-b) that opens, never ana's."""
    ana_token, bo_token = token_of(campaign, "ana"), token_of(campaign, "bo")
    client.get(f"/a/{ana_token}/")

    asked = client.get(f"/a/{bo_token}/")
    still = session_user(client)
    switched = client.post(f"/a/{bo_token}/")
    queue = client.get(switched["Location"])

    assert asked.status_code == 200
    assert 'id="link-switch"' in asked.content.decode()
    assert still == "ana"
    assert session_user(client) == "bo"
    assert queue["Location"] == corpus_queue("wmt-b")
    assert client.get(corpus_queue("wmt-a")).status_code == 404


def test_unknown_tokens_are_refused_then_locked_out_like_logins_without_the_token_stored(
    client: Client, campaign: Campaign, settings: object
) -> None:
    token = token_of(campaign, "ana")
    guesses = [f"Guess{k}x" + "y" * 37 for k in range(5)]

    answers = [client.get(f"/a/{guess}/") for guess in guesses]
    valid = client.get(f"/a/{token}/")
    login = client.post("/accounts/login/", {"username": "ana", "password": PASSWORD})

    assert [a.status_code for a in answers] == [404, 404, 404, 404, 429]
    assert 'data-refusal="unknown"' in answers[0].content.decode()
    assert 'data-link="true"' in answers[-1].content.decode()
    assert "link:" not in answers[-1].content.decode()
    assert valid.status_code == 429
    assert login.status_code == 429
    assert session_user(client) is None
    attempts = AccessAttempt.objects.filter(path_info__startswith="/a/")
    assert sorted(a.path_info for a in attempts) == sorted(
        f"/a/{g[:6]}{REDACTED}/" for g in guesses
    )
    assert {a.username for a in attempts} == {f"link:{g[:6]}" for g in guesses}


def test_a_link_login_is_logged_by_its_hint_only(client: Client, campaign: Campaign) -> None:
    token = token_of(campaign, "ana")

    client.get(f"/a/{token}/")

    (logged,) = AccessLog.objects.all()
    assert logged.username == "ana"
    assert logged.path_info == f"/a/{token[:6]}{REDACTED}/"
