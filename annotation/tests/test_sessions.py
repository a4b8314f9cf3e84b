"""The sessions' store (:mod:`annotation.sessions`) reads what Django's database store
saved, refuses an expired session as that store does, and costs a judge's request the
one query it did."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from annotation.models import User
from annotation.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_a_session_djangos_store_saved_is_read_alike() -> None:
    saved = db.SessionStore()
    saved["judge"] = [1, "two"]
    saved.save()
    ours = SessionStore(saved.session_key)
    assert ours.load() == {"judge": [1, "two"]}
    assert ours.session_key == saved.session_key
    assert SessionStore("no-such-session-key-at-all-here").load() == {}


def test_an_expired_session_is_not_read() -> None:
    saved = db.SessionStore()
    saved["judge"] = 1
    saved.save()
    Session.objects.filter(pk=saved.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    ours = SessionStore(saved.session_key)
    assert ours.load() == {}
    assert ours.session_key is None


def test_a_logged_in_request_reads_its_session_once(client: Client, judge: User) -> None:
    assert settings.SESSION_ENGINE == "annotation.sessions"
    client.force_login(judge)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code in (200, 302)
    sessions = [q for q in queries.captured_queries if "django_session" in q["sql"]]
    assert len(sessions) == 1
