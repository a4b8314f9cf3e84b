"""Logins are throttled per account and per address; errors are the app's own pages."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import psycopg
import pytest
from axes.models import AccessAttempt
from django.db import OperationalError
from django.test import Client, RequestFactory, override_settings
from django.urls import path

from annotation.models import User
from annotation.tests.factories import PASSWORD, sized_corpus
from annotation.web import ERR_DATABASE_UNREACHABLE, ERR_PAGE_UNAVAILABLE
from evaltool.security import client_ip

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"


def log_in(client: Client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_lock_the_account_with_a_clear_wait(
    client: Client, user_factory: Callable[..., User]
) -> None:
    user_factory("ana")
    for attempt in range(4):
        assert log_in(client, "ana", "wrong", f"10.0.0.{attempt}").status_code == 200
    assert log_in(client, "ana", "wrong", "10.0.0.5").status_code == 429

    locked = log_in(client, "ana", PASSWORD, "10.0.0.99")

    assert locked.status_code == 429
    assert locked["Retry-After"] == "900"
    text = locked.content.decode()
    assert "Too many attempts" in text
    assert "Wait 15 minutes" in text
    assert "_auth_user_id" not in client.session


def test_five_failures_from_one_address_lock_that_address(
    client: Client, user_factory: Callable[..., User]
) -> None:
    user_factory("ana")
    for attempt in range(5):
        log_in(client, f"nobody{attempt}", "wrong", "10.9.9.9")

    assert log_in(client, "ana", PASSWORD, "10.9.9.9").status_code == 429
    assert log_in(client, "ana", PASSWORD, "10.1.1.1").status_code == 302


def test_a_username_longer_than_any_column_is_an_invalid_login_and_counted(
    client: Client,
) -> None:
    """Issue 24, point 6: 300 characters (the throttling table holds 255) are answered as
    any wrong login, 200 with the form's error, on every database; the attempt counts."""
    client.raise_request_exception = True
    long_name = "u" * 300

    answer = log_in(client, long_name, "wrong")

    assert answer.status_code == 200
    assert "Please enter a correct username and password" in answer.content.decode()
    attempt = AccessAttempt.objects.get()
    assert (attempt.username, attempt.failures_since_start) == (long_name[:255], 1)
    for _ in range(4):
        log_in(client, long_name, "wrong", "10.0.0.2")
    assert log_in(client, long_name, "wrong", "10.0.0.3").status_code == 429


def test_a_few_mistakes_then_the_right_password_logs_in(
    client: Client, user_factory: Callable[..., User]
) -> None:
    user_factory("ana")
    for _ in range(3):
        log_in(client, "ana", "wrong")

    assert log_in(client, "ana", PASSWORD).status_code == 302


def test_logging_in_as_another_account_clears_no_failures_of_the_attacked_one(
    client: Client, user_factory: Callable[..., User]
) -> None:
    """Issue 36, point 1: four wrong passwords for judge3, then a good login as an account
    the attacker owns, from the same address, over and over. The success clears the
    attacker's account only: judge3's fifth failure locks it, and so does the address."""
    user_factory("judge3")
    user_factory("mallory")
    answers = []
    for _ in range(4):
        answers += [log_in(client, "judge3", "wrong").status_code for _ in range(4)]
        answers.append(log_in(Client(), "mallory", PASSWORD).status_code)

    # the fifth wrong password locks judge3 and the address, the attacker's login too
    assert answers[:6] == [200, 200, 200, 200, 302, 429]
    assert set(answers[6:]) == {429}
    assert log_in(client, "judge3", PASSWORD).status_code == 429
    assert log_in(client, "judge3", PASSWORD, "10.7.7.7").status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_success_clears_its_own_accounts_failures_and_no_one_elses(
    client: Client, user_factory: Callable[..., User]
) -> None:
    """What reset-on-success is for: a judge who mistyped four times, from two places,
    logs in and starts afresh; the failures of another account from the address she
    logs in from stay counted."""
    user_factory("ana")
    user_factory("judge3")
    for _ in range(2):
        log_in(client, "ana", "wrong", "10.0.0.1")
        log_in(client, "ana", "wrong", "10.0.0.2")
        log_in(client, "judge3", "wrong", "10.0.0.3")

    assert log_in(Client(), "ana", PASSWORD, "10.0.0.3").status_code == 302

    assert not AccessAttempt.objects.filter(username="ana").exists()
    judge3 = AccessAttempt.objects.filter(username="judge3", ip_address="10.0.0.3")
    assert [a.failures_since_start for a in judge3] == [2]
    for _ in range(4):
        assert log_in(client, "ana", "wrong", "10.0.0.4").status_code == 200


@override_settings(BEHIND_PROXY=True, FORWARDED_ALLOW_IPS="10.0.0.1")
def test_behind_a_proxy_the_address_is_the_one_the_proxy_appended() -> None:
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7"
    )
    assert client_ip(request) == "203.0.113.7"


def test_without_a_proxy_forwarded_headers_are_ignored() -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6")
    assert client_ip(request) == "10.0.0.1"


@pytest.mark.parametrize(
    "allowed, peer, forwarded, expected",
    [
        # a peer that is no proxy is its own address, whatever it sends
        ("127.0.0.1,::1", "198.51.100.9", "203.0.113.7", "198.51.100.9"),
        ("10.0.0.0/8", "198.51.100.9", "10.0.0.2, 203.0.113.7", "198.51.100.9"),
        ("", "127.0.0.1", "203.0.113.7", "127.0.0.1"),
        # the right-most address no proxy's: two proxies in a row
        ("10.0.0.0/8", "10.0.0.1", "6.6.6.6, 203.0.113.7, 10.0.0.2", "203.0.113.7"),
        ("10.0.0.0/8", "10.0.0.1", "10.0.0.3, 10.0.0.2", "10.0.0.3"),
        ("127.0.0.1,::1", "::1", "2001:db8::7", "2001:db8::7"),
        ("127.0.0.1", "::ffff:127.0.0.1", "203.0.113.7", "203.0.113.7"),
        # a proxy that sends none, or no address
        ("127.0.0.1", "127.0.0.1", "", "127.0.0.1"),
        ("127.0.0.1", "127.0.0.1", "unknown", ""),
        # "*": any peer is a proxy, and only the entry the last one appended is known
        ("*", "198.51.100.9", "6.6.6.6, 203.0.113.7", "203.0.113.7"),
    ],
)
def test_x_forwarded_for_is_believed_only_from_a_proxy_of_forwarded_allow_ips(
    allowed: str, peer: str, forwarded: str, expected: str
) -> None:
    """Issue 36, point 8b: the proxies are ``FORWARDED_ALLOW_IPS``, as for gunicorn."""
    request = RequestFactory().get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)
    with override_settings(BEHIND_PROXY=True, FORWARDED_ALLOW_IPS=allowed):
        assert client_ip(request) == expected


@override_settings(BEHIND_PROXY=True, FORWARDED_ALLOW_IPS="127.0.0.1,::1")
def test_a_client_naming_a_new_forwarded_address_each_time_is_still_locked_out(
    client: Client, user_factory: Callable[..., User]
) -> None:
    """Issue 36, point 8b: twelve usernames tried from one peer that is no proxy, each
    with a new ``X-Forwarded-For``: its address is locked at the failure limit (5),
    and stays locked for the right password of a real account."""
    user_factory("ana")
    answers = [
        client.post(
            LOGIN,
            {"username": f"nobody{k}", "password": "wrong"},
            REMOTE_ADDR="198.51.100.9",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{k}",
        ).status_code
        for k in range(12)
    ]

    assert answers == [200] * 4 + [429] * 8  # the fifth failure locks
    right = client.post(
        LOGIN,
        {"username": "ana", "password": PASSWORD},
        REMOTE_ADDR="198.51.100.9",
        HTTP_X_FORWARDED_FOR="203.0.113.99",
    )
    assert right.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.9"}


def test_a_missing_page_is_the_apps_404(client: Client) -> None:
    response = client.get("/no/such/page/")

    assert response.status_code == 404
    assert 'data-status="404"' in response.content.decode()


def boom(request: object) -> None:
    raise RuntimeError("a bug")


def database_gone(request: object) -> None:
    """What Django raises when PostgreSQL refuses the connection (it is restarting)."""
    try:
        raise psycopg.OperationalError("connection failed: Connection refused")
    except psycopg.OperationalError as exc:
        raise OperationalError(str(exc)) from exc


def sqlite_bug(request: object) -> None:
    """What Django raises for a query on a table SQLite does not have: a bug, not a wait."""
    try:
        raise sqlite3.OperationalError("no such table: nowhere")
    except sqlite3.OperationalError as exc:
        raise OperationalError(str(exc)) from exc


urlpatterns = [
    path("boom/", boom),
    path("database-gone/", database_gone),
    path("sqlite-bug/", sqlite_bug),
]
handler500 = "annotation.web.server_error"


@override_settings(ROOT_URLCONF=__name__)
def test_a_server_error_is_the_apps_500_page(client: Client) -> None:
    client.raise_request_exception = False

    response = client.get("/boom/")

    assert response.status_code == 500
    body = response.content.decode()
    assert 'data-status="500"' in body
    assert "a bug" not in body


@override_settings(ROOT_URLCONF=__name__)
def test_a_lost_database_is_503_not_saved_for_a_write_and_the_503_page_for_a_read(
    client: Client,
) -> None:
    read = client.get("/database-gone/")
    write = client.post("/database-gone/")

    assert (read.status_code, read["Retry-After"]) == (503, "2")
    assert 'data-status="503"' in read.content.decode()
    assert ERR_PAGE_UNAVAILABLE in read.content.decode()
    assert (write.status_code, write["Retry-After"]) == (503, "2")
    assert write.content.decode() == ERR_DATABASE_UNREACHABLE


@override_settings(ROOT_URLCONF=__name__)
def test_an_sqlite_error_that_is_a_bug_stays_a_500(client: Client) -> None:
    client.raise_request_exception = False

    assert client.get("/sqlite-bug/").status_code == 500


def test_a_bad_parameter_is_a_400_that_names_it(
    client: Client, user_factory: Callable[..., User], tmp_path
) -> None:
    corpus = sized_corpus(tmp_path, "c", 3)
    client.force_login(user_factory("boss", role=User.Role.LEAD))

    response = client.get(f"/dashboard/{corpus.pk}/?tok=klingon")

    assert response.status_code == 400
    assert "tok=&#x27;klingon&#x27;: choose one of" in response.content.decode()


def test_pages_carry_the_content_security_policy(client: Client) -> None:
    csp = client.get(LOGIN)["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "object-src 'none'" in csp
