"""Accounts: one-time passwords a lead hands over, and the first login that replaces one
(the judge sees nothing else until then)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from annotation.accounts import one_time_password, user_set_active
from annotation.campaigns.judges import judge_create
from annotation.models import User

pytestmark = pytest.mark.django_db
CHANGE = reverse("password_change")


def test_one_time_passwords_are_four_readable_groups_and_never_repeat() -> None:
    passwords = {one_time_password() for _ in range(200)}

    assert len(passwords) == 200
    for password in passwords:
        assert re.fullmatch(r"[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){3}", password), password


@pytest.fixture
def newcomer(client: Client) -> tuple[Client, str]:
    """A judge a lead created, logged in with the one-time password (a real login)."""
    login = judge_create(username="ana")
    response = client.post("/accounts/login/", {"username": "ana", "password": login.password})
    assert response.status_code == 302
    return client, login.password


@pytest.mark.parametrize("url", ["/", "/campaigns/", "/corpora/1/judge/", "/dashboard/1/"])
def test_a_one_time_password_leads_only_to_the_password_change(
    newcomer: tuple[Client, str], url: str
) -> None:
    client, _ = newcomer

    plain = client.get(url)
    htmx = client.get(url, HTTP_HX_REQUEST="true")

    assert (plain.status_code, plain["Location"]) == (302, CHANGE)
    assert (htmx.status_code, htmx["HX-Redirect"]) == (401, CHANGE)


def test_the_password_change_page_says_why_and_logging_out_works(
    newcomer: tuple[Client, str],
) -> None:
    client, _ = newcomer

    page = client.get(CHANGE)
    out = client.post(reverse("logout"))

    assert page.status_code == 200
    assert 'id="one-time-notice"' in page.content.decode()
    assert out.status_code == 302
    assert out["Location"] == "/accounts/login/"


def test_choosing_a_password_ends_the_one_time_password(newcomer: tuple[Client, str]) -> None:
    client, first = newcomer
    mine = "my own password 2024"

    response = client.post(
        CHANGE, {"old_password": first, "new_password1": mine, "new_password2": mine}
    )

    ana = User.objects.get(username="ana")
    assert response.status_code == 302
    assert not ana.must_change_password
    assert ana.check_password(mine)
    assert client.get("/").status_code == 200  # still logged in, and free to go


def test_a_refused_new_password_keeps_the_obligation(newcomer: tuple[Client, str]) -> None:
    client, first = newcomer

    response = client.post(
        CHANGE, {"old_password": first, "new_password1": "short", "new_password2": "short"}
    )

    assert response.status_code == 200  # Django's view answers a refused form with 200
    assert 'data-field="new_password2"' in response.content.decode()
    assert User.objects.get(username="ana").must_change_password


def test_a_password_given_on_the_command_line_is_the_accounts_own() -> None:
    judge_create(username="ana")

    call_command("add_user", "ana", "--password", "chosen by the admin", "--role", "judge")

    assert not User.objects.get(username="ana").must_change_password


def test_a_deactivated_accounts_next_request_says_so_not_that_the_session_expired(
    client: Client, judge: User
) -> None:
    client.force_login(judge)
    user_set_active(user=judge, active=False)
    change = reverse("annotation:judgment_change", args=[1, "sser"])

    plain = client.get("/")
    htmx = client.post(change, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL="http://testserver/")
    login = client.get(htmx["HX-Redirect"]).content.decode()

    assert (plain.status_code, plain["Location"]) == (302, "/accounts/login/?next=/&deactivated=1")
    assert (htmx.status_code, htmx["HX-Redirect"]) == (
        401,
        "/accounts/login/?next=/&unsaved=1&deactivated=1",
    )
    assert "Your account has been deactivated: your last change was not saved." in login
    assert "Ask your lead to reactivate it" in login
    assert "session had expired" not in login
