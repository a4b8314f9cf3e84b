"""The campaign pages: every action for a lead, a 404 for a judge, the login for an
anonymous visitor; a refused value comes back with its field and reason, status 400."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from annotation.campaigns.judges import ERR_USERNAME_TAKEN
from annotation.changes import judgments_changed
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, User
from annotation.tests.factories import JUDGED, PASSWORD, SEED_XML, done_judgment

pytestmark = pytest.mark.django_db

PASSWORD_SHOWN = re.compile(r'<code id="login-password">([a-z2-9-]+)</code>')


@pytest.fixture
def corpus() -> Corpus:
    return corpus_import(source=SEED_XML, name="seed").corpus


def every_action(corpus: Corpus, judge: User) -> list[tuple[str, str, dict[str, object]]]:
    """(method, URL, a valid form) for every page and action of the campaign pages."""
    return [
        ("get", reverse("campaigns:judges"), {}),
        ("post", reverse("campaigns:judge_create"), {"username": "newbie"}),
        ("post", reverse("campaigns:judge_password", args=[judge.pk]), {}),
        ("post", reverse("campaigns:judge_active", args=[judge.pk]), {"active": "0"}),
        ("get", reverse("campaigns:corpus", args=[corpus.pk]), {}),
        ("post", reverse("campaigns:assign", args=[corpus.pk]), {"judges": [judge.pk]}),
        ("post", reverse("campaigns:unassign", args=[corpus.pk]), {"judge": judge.pk}),
        ("post", reverse("campaigns:settings", args=[corpus.pk]), {"blind": "on"}),
    ]


def test_every_campaign_action_is_the_login_page_for_anonymous_visitors(
    client: Client, corpus: Corpus, judge: User
) -> None:
    for method, url, data in every_action(corpus, judge):
        response = getattr(client, method)(url, data)

        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url


def test_every_campaign_action_is_a_404_for_a_judge_and_changes_nothing(
    judge_client: Client, corpus: Corpus, judge: User
) -> None:
    corpus.judges.add(judge)
    password = User.objects.get(pk=judge.pk).password

    for method, url, data in every_action(corpus, judge):
        assert getattr(judge_client, method)(url, data).status_code == 404, url

    judge.refresh_from_db()
    corpus = Corpus.objects.get(pk=corpus.pk)
    assert not User.objects.filter(username="newbie").exists()
    assert judge.password == password
    assert list(corpus.judges.all()) == [judge]
    assert corpus.blind is True


def test_every_campaign_action_works_for_a_lead(
    lead_client: Client, corpus: Corpus, judge: User
) -> None:
    expected = [200, 200, 200, 303, 200, 303, 303, 303]

    statuses = [
        getattr(lead_client, method)(url, data).status_code
        for method, url, data in every_action(corpus, judge)
    ]

    assert statuses == expected


def test_an_htmx_request_of_an_anonymous_visitor_is_sent_to_the_login_page(
    client: Client, corpus: Corpus
) -> None:
    response = client.get(reverse("campaigns:corpus", args=[corpus.pk]), HTTP_HX_REQUEST="true")

    assert response.status_code == 401
    assert response["HX-Redirect"].startswith("/accounts/login/")


def test_a_lead_creates_a_judge_and_sees_the_one_time_password_once(
    lead_client: Client, corpus: Corpus
) -> None:
    response = lead_client.post(
        reverse("campaigns:judge_create"), {"username": "ana", "corpora": [corpus.pk]}
    )

    html = response.content.decode()
    password = PASSWORD_SHOWN.search(html).group(1)
    ana = User.objects.get(username="ana")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert ana.check_password(password)
    assert ana.is_active
    assert ana.must_change_password
    assert ana.role == User.Role.JUDGE
    assert list(ana.assigned_corpora.all()) == [corpus]
    assert password not in lead_client.get(reverse("campaigns:judges")).content.decode()


def test_a_taken_username_is_refused_with_the_field_and_changes_no_account(
    lead_client: Client, judge: User
) -> None:
    before = User.objects.get(pk=judge.pk).password

    response = lead_client.post(reverse("campaigns:judge_create"), {"username": "JUDGE"})

    html = response.content.decode()
    assert response.status_code == 400
    assert 'data-field="username"' in html
    assert ERR_USERNAME_TAKEN.format(username="JUDGE").replace("'", "&#x27;") in html
    assert 'role="alert"' in html
    assert User.objects.get(pk=judge.pk).password == before
    assert not User.objects.filter(username="JUDGE").exists()


@pytest.mark.parametrize(
    "username, reason",
    [
        ("", "This field is required."),
        ("has space", "Enter a valid username."),
        ("x" * 151, "Ensure this value has at most 150 characters"),
    ],
)
def test_a_bad_username_is_refused_with_its_reason(
    lead_client: Client, username: str, reason: str
) -> None:
    response = lead_client.post(reverse("campaigns:judge_create"), {"username": username})

    assert response.status_code == 400
    assert 'data-field="username"' in response.content.decode()
    assert reason in response.content.decode()
    assert User.objects.filter(role=User.Role.JUDGE).count() == 0


def test_an_unknown_corpus_to_assign_at_creation_is_refused(lead_client: Client) -> None:
    response = lead_client.post(
        reverse("campaigns:judge_create"), {"username": "ana", "corpora": ["999"]}
    )

    assert response.status_code == 400
    assert 'data-field="corpora"' in response.content.decode()
    assert not User.objects.filter(username="ana").exists()


def test_activating_an_imported_evaluator_gives_a_one_time_password(
    lead_client: Client,
) -> None:
    corpus_import(source=io.BytesIO(JUDGED), name="judged")
    jm = User.objects.get(username="JM")
    assert not jm.is_active
    assert not jm.has_usable_password()
    page = lead_client.get(reverse("campaigns:judges")).content.decode()
    assert 'data-action="activate" data-judge="JM"' in page

    response = lead_client.post(reverse("campaigns:judge_password", args=[jm.pk]))

    password = PASSWORD_SHOWN.search(response.content.decode()).group(1)
    jm.refresh_from_db()
    assert jm.is_active
    assert jm.must_change_password
    assert jm.check_password(password)
    logged_in = Client().post("/accounts/login/", {"username": "JM", "password": password})
    assert logged_in.status_code == 302
    assert logged_in["Location"] == "/"


@pytest.mark.parametrize("role", [User.Role.LEAD, "superuser"])
def test_a_lead_cannot_set_the_password_of_a_lead_or_a_superuser(
    lead_client: Client, user_factory: Callable[..., User], role: str
) -> None:
    other = (
        user_factory("root", is_superuser=True)
        if role == "superuser"
        else user_factory("boss", role=User.Role.LEAD)
    )
    before = other.password

    response = lead_client.post(reverse("campaigns:judge_password", args=[other.pk]))

    assert response.status_code == 404
    other.refresh_from_db()
    assert other.password == before


def test_a_lead_assigns_and_unassigns_judges_and_judgments_stay(
    lead_client: Client, corpus: Corpus, judge: User, user_factory: Callable[..., User]
) -> None:
    bob = user_factory("bob")
    page = reverse("campaigns:corpus", args=[corpus.pk])

    response = lead_client.post(
        reverse("campaigns:assign", args=[corpus.pk]), {"judges": [judge.pk, bob.pk]}
    )
    assert response.status_code == 303
    assert response["Location"] == page
    assert set(corpus.judges.all()) == {judge, bob}
    done_judgment(corpus, bob, "a translator", 0, sser=5)

    response = lead_client.post(reverse("campaigns:unassign", args=[corpus.pk]), {"judge": bob.pk})

    assert response.status_code == 303
    assert list(corpus.judges.all()) == [judge]
    assert bob.judgments.count() == 1
    html = lead_client.get(page).content.decode()
    assert 'data-judge="bob" data-assigned="false"' in html
    assert 'data-judge="judge" data-assigned="true"' in html


@pytest.mark.parametrize(
    "action, data, field",
    [
        ("assign", {}, "judges"),
        ("assign", {"judges": ["nope"]}, "judges"),
        ("assign", {"judges": ["999"]}, "judges"),
        ("unassign", {"judge": "999"}, "judge"),
        ("unassign", {"judge": "x"}, "judge"),
        ("settings", {"leads": ["999"]}, "leads"),
    ],
)
def test_a_bad_campaign_value_is_refused_with_its_field(
    lead_client: Client, corpus: Corpus, action: str, data: dict, field: str
) -> None:
    response = lead_client.post(reverse(f"campaigns:{action}", args=[corpus.pk]), data)

    html = response.content.decode()
    assert response.status_code == 400
    assert f'data-field="{field}"' in html
    assert 'class="error" role="alert"' in html
    assert Corpus.objects.get(pk=corpus.pk).judges.count() == 0


def test_a_lead_assigned_as_a_judge_elsewhere_cannot_be_assigned_here(
    lead_client: Client, corpus: Corpus, lead: User
) -> None:
    response = lead_client.post(
        reverse("campaigns:assign", args=[corpus.pk]), {"judges": [lead.pk]}
    )

    assert response.status_code == 400
    assert corpus.judges.count() == 0


def test_a_lead_sets_the_corpus_settings_and_its_leads(
    lead_client: Client, corpus: Corpus, lead: User, user_factory: Callable[..., User]
) -> None:
    boss = user_factory("boss", role=User.Role.LEAD)
    stamp = Corpus.objects.get(pk=corpus.pk).judgments_stamp
    judgments_changed(corpus.pk)  # a judge's click, meanwhile

    response = lead_client.post(
        reverse("campaigns:settings", args=[corpus.pk]),
        {"share_new_refs": "on", "leads": [boss.pk, lead.pk]},
    )

    corpus = Corpus.objects.get(pk=corpus.pk)
    assert response.status_code == 303
    assert (corpus.blind, corpus.share_new_refs) == (False, True)
    assert set(corpus.leads.all()) == {boss, lead}
    assert corpus.judgments_stamp == stamp + 1


def test_a_lead_turns_ier_on_for_a_corpus(lead_client: Client, corpus: Corpus) -> None:
    page = lead_client.get(reverse("campaigns:corpus", args=[corpus.pk])).content.decode()
    assert 'name="ier_enabled"' in page

    response = lead_client.post(
        reverse("campaigns:settings", args=[corpus.pk]), {"blind": "on", "ier_enabled": "on"}
    )

    corpus = Corpus.objects.get(pk=corpus.pk)
    assert response.status_code == 303
    assert (corpus.blind, corpus.ier_enabled) == (True, True)


def test_a_judge_cannot_be_named_a_lead_of_the_corpus(
    lead_client: Client, corpus: Corpus, judge: User
) -> None:
    response = lead_client.post(
        reverse("campaigns:settings", args=[corpus.pk]), {"blind": "on", "leads": [judge.pk]}
    )

    assert response.status_code == 400
    assert corpus.leads.count() == 0


def test_an_unknown_or_unfinished_corpus_has_no_campaign_page(lead_client: Client) -> None:
    hidden = Corpus.all_objects.create(name="importing", ready=False)

    for pk in (hidden.pk, 999):
        assert lead_client.get(reverse("campaigns:corpus", args=[pk])).status_code == 404


def test_the_post_only_actions_refuse_a_get(lead_client: Client, corpus: Corpus) -> None:
    for name in ("assign", "unassign", "settings"):
        assert lead_client.get(reverse(f"campaigns:{name}", args=[corpus.pk])).status_code == 405
    assert lead_client.get(reverse("campaigns:judge_create")).status_code == 405


def test_a_deactivated_judge_is_logged_out_and_keeps_their_judgments(
    lead_client: Client, corpus: Corpus, judge: User
) -> None:
    corpus.judges.add(judge)
    done_judgment(corpus, judge, "a translator", 0, sser=7, new_ref="x", edits=1, length=1)
    judge_browser = Client()
    judge_browser.force_login(judge)
    assert judge_browser.get(reverse("annotation:home")).status_code == 200

    url = reverse("campaigns:judge_active", args=[judge.pk])
    assert lead_client.post(url, {"active": "0"}).status_code == 303

    assert not User.objects.get(pk=judge.pk).is_active
    assert judge_browser.get(reverse("annotation:home")).status_code == 302  # to the login
    assert judge.judgments.count() == 1
    row = lead_client.get(reverse("campaigns:judges")).content.decode()
    assert 'data-action="reactivate" data-judge="judge"' in row

    lead_client.post(url, {"active": "1"})

    assert User.objects.get(pk=judge.pk).is_active
    login = Client().post(reverse("login"), {"username": "judge", "password": PASSWORD})
    assert login.status_code == 302


def test_deactivating_refuses_a_bad_value_and_any_account_but_a_judges(
    lead_client: Client, judge: User, user_factory: Callable[..., User]
) -> None:
    other_lead = user_factory("boss", role=User.Role.LEAD)

    bad = lead_client.post(reverse("campaigns:judge_active", args=[judge.pk]), {"active": "x"})
    lead = lead_client.post(
        reverse("campaigns:judge_active", args=[other_lead.pk]), {"active": "0"}
    )

    assert bad.status_code == 400
    assert "active" in bad.content.decode()
    assert lead.status_code == 404
    assert User.objects.get(pk=judge.pk).is_active
    assert User.objects.get(pk=other_lead.pk).is_active
