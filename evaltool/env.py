"""Reading settings from the environment, strictly.

Kept apart from ``settings.py`` so the parsing rules can be tested on their own: a
typo in ``DEBUG`` must not silently switch debugging on, and a ``DATABASE_URL`` we do
not understand must stop the app rather than fall back to another database.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

#: SQLite for several people at once: write-ahead logging lets pages read while a judge's
#: click writes; a write that finds the database locked waits up to ``timeout`` seconds
#: (then the app answers 503 "not saved, retry"); IMMEDIATE transactions take the write
#: lock when they begin, so two writers never deadlock upgrading a read lock.
SQLITE_OPTIONS: dict[str, Any] = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "timeout": 5,
    "transaction_mode": "IMMEDIATE",
}

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


def parse_bool(name: str, value: str | None, *, default: bool) -> bool:
    """``DEBUG=False`` means false: only known words are accepted, anything else is an error."""
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"{name}={value!r} is not a boolean (use one of: true, false, 1, 0, yes, no)")


def behind_proxy(environ: Mapping[str, str] = os.environ) -> bool:
    """``EVALTOOL_BEHIND_PROXY``: whether a proxy's ``X-Forwarded-*`` headers are believed
    (by Django, and by gunicorn through :func:`forwarded_allow_ips`)."""
    value = environ.get("EVALTOOL_BEHIND_PROXY")
    return parse_bool("EVALTOOL_BEHIND_PROXY", value, default=False)


#: The addresses gunicorn believes by default (its own default): a proxy on this machine.
PROXY_ADDRESSES = "127.0.0.1,::1"


def forwarded_allow_ips(environ: Mapping[str, str] = os.environ) -> str:
    """gunicorn's ``--forwarded-allow-ips`` for ``make serve``: nobody ("") unless
    ``EVALTOOL_BEHIND_PROXY`` is on, then ``FORWARDED_ALLOW_IPS`` or the local proxy.

    gunicorn's own default believes ``X-Forwarded-Proto`` from 127.0.0.1 whatever the app
    says, so without a proxy any local process could make a plain request pass for
    HTTPS; the flag is therefore always given, empty when no proxy is declared."""
    if not behind_proxy(environ):
        return ""
    allowed = environ.get("FORWARDED_ALLOW_IPS", PROXY_ADDRESSES)
    proxy_networks(allowed)  # a value gunicorn would refuse stops the app as well
    return allowed


#: An address or network of :func:`proxy_networks`.
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxy_networks(allowed: str) -> tuple[Network, ...] | None:
    """``FORWARDED_ALLOW_IPS`` read as gunicorn reads it: addresses or networks, comma
    separated (an address is a network of one; "" is nobody), or ``*`` for any peer
    (None). A value it does not understand is a ``ValueError`` naming it."""
    entries = [entry.strip() for entry in allowed.split(",") if entry.strip()]
    if "*" in entries:
        return None
    try:
        return tuple(ipaddress.ip_network(entry) for entry in entries)
    except ValueError as exc:
        raise ValueError(f"FORWARDED_ALLOW_IPS={allowed!r}: {exc}") from None


#: A worker keeps its PostgreSQL connection between requests (checked before reuse): a new
#: connection per request costs a server process fork and a login, more than a judge's
#: click itself (bench/load.py's actions per second).
POSTGRES_CONNECTIONS = {"CONN_MAX_AGE": 600, "CONN_HEALTH_CHECKS": True}


def parse_database_url(url: str, *, base_dir: Path) -> dict[str, Any]:
    """Turn ``sqlite:///file`` or ``postgres://user:pw@host:port/name`` into a DATABASES entry.

    ``sqlite:///db.sqlite3`` is relative to ``base_dir``; ``sqlite:////abs/path`` is absolute.
    """
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = parts.path[1:] if parts.path.startswith("/") else parts.path
        if not path:
            raise ValueError(f"DATABASE_URL={url!r} names no SQLite file")
        file = Path(path) if Path(path).is_absolute() else base_dir / path
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": file, "OPTIONS": SQLITE_OPTIONS}
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ValueError(f"DATABASE_URL={url!r} names no database")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            **POSTGRES_CONNECTIONS,
        }
    raise ValueError(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported (use sqlite or postgres)"
    )


#: The table of the figures' store when no ``CACHE_URL`` is set: created by ``migrate``
#: (:func:`annotation.statistics.shared.cache_table_created`), so a fresh database has it.
CACHE_TABLE = "evaltool_cache"
#: How long a stored figure is kept (a day): its key names the stamps it was computed
#: under, so it is never stale, only no longer asked for once they move; the store then
#: holds about a day's worth of the campaign's views rather than all of them.
CACHE_SECONDS = 24 * 3600
#: A Redis that does not answer costs a request this long at most (seconds) before the
#: figures are computed in the process instead (``annotation.statistics.shared``).
REDIS_OPTIONS = {"socket_connect_timeout": 0.5, "socket_timeout": 2.0}


def parse_cache_url(url: str) -> dict[str, Any]:
    """Django's cache, where every app server keeps the figures it computed for the
    others (:mod:`annotation.statistics.shared`): ``redis://host:port/db`` (or
    ``rediss://``) for Redis, else a table of the app's database (:data:`CACHE_TABLE`).
    Entries expire after :data:`CACHE_SECONDS`.
    """
    if not url:
        return {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": CACHE_TABLE,
            "TIMEOUT": CACHE_SECONDS,
            # Django culls a third of the table past this many entries (a real-size
            # dashboard's first view stores a few hundred, most of them small).
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    scheme = urlsplit(url).scheme
    if scheme in {"redis", "rediss"}:
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "TIMEOUT": CACHE_SECONDS,
            "OPTIONS": REDIS_OPTIONS,
        }
    raise ValueError(f"CACHE_URL scheme {scheme!r} is not supported (use redis or rediss)")
