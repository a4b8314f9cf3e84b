"""The sessions' store (``SESSION_ENGINE``): Django's database store, its read of a
session compiled once per process.

Every request of a logged-in user reads its session's row, and Django's store has the
ORM build that query each time: a tenth of a judge's click. Here the row is read by its
key with a :class:`~annotation.models.prepared.Prepared` query, and an expired one is
refused on the row read, as the store's own query refuses it. The table and its rows are
Django's: sessions saved before are read alike, and every write is the store's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db.models import QuerySet
from django.utils import timezone

from annotation.models.prepared import Prepared


def _session_query(key: str, *, shape: object) -> QuerySet[Any]:
    return Session.objects.filter(session_key=key)


_SESSION = Prepared(_session_query)


class SessionStore(db.SessionStore):
    """Django's database store, reading a session with :data:`_SESSION`."""

    def _get_session_from_db(self) -> Session | None:
        found = _SESSION(self.session_key) if self.session_key else []
        if not found or found[0].expire_date <= timezone.now():
            self._session_key = None  # as the store's own read: no such session
            return None
        session: Session = found[0]
        return session
