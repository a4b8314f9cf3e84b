"""What a server's start does before it serves, safe when several start at once
(``manage.py deploy``, which ``make deploy`` and ``make serve`` run).

**The migrations** are applied by one process at a time: two ``migrate`` at once on a
fresh database both create the first table, and one fails. On PostgreSQL they take
turns under an advisory lock (every machine that reaches the database takes part); on
SQLite, which is one machine's, under a file lock beside the database file.

**The static files** are collected with hashed names into a directory of their own
beside ``STATIC_ROOT``, named for a fingerprint of what they are collected from
(:func:`static_fingerprint`), and published by renaming one symbolic link:
``STATIC_ROOT`` → ``.staticfiles-<fingerprint>``. A server that starts reads a whole
collection, never one half written: two ``collectstatic`` into one directory at once
raced in WhiteNoise's post-processing, one crashed with ``FileNotFoundError`` (issue 36).
A file lock beside ``STATIC_ROOT`` makes a second start wait for the first, then find
its collection done; a start whose sources did not change collects nothing.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO, cast

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.apps import StaticFilesConfig
from django.contrib.staticfiles.management.commands import collectstatic
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import Storage, storages
from django.core.management import call_command
from django.core.management.base import OutputWrapper
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper

#: The key of the PostgreSQL advisory lock the migrations are applied under ("evaltool").
MIGRATIONS_LOCK_KEY = int.from_bytes(b"evaltool", "big") >> 1


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Held by one process of the machine at a time (``flock``); released when the block
    ends, or when the process dies in it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def migrations_lock() -> Iterator[None]:
    """The database's own turn-taking for the migrations (module docstring)."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATIONS_LOCK_KEY])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATIONS_LOCK_KEY])
    elif isinstance(connection, SQLiteWrapper) and not connection.is_in_memory_db():
        with file_lock(Path(f"{connection.settings_dict['NAME']}.lock")):
            yield
    else:  # a database of this process alone
        yield


def migrations_apply(*, out: OutputWrapper | TextIO, verbosity: int = 1) -> None:
    """``migrate``, one process at a time."""
    with migrations_lock():
        call_command("migrate", interactive=False, verbosity=verbosity, stdout=out)


def static_root() -> Path:
    """``STATIC_ROOT`` as an absolute path (ImproperlyConfigured when it is not set)."""
    if not settings.STATIC_ROOT:
        raise ImproperlyConfigured("STATIC_ROOT is not set: nowhere to publish the static files")
    return Path(os.path.abspath(settings.STATIC_ROOT))


def static_fingerprint() -> str:
    """What a collection is made of, in 16 hex digits: the storage that collects it (its
    backend and options, ``STATIC_URL``) and every file the finders list, by the name it
    is collected under and its content. A new release with the same files has the same."""
    digest = hashlib.sha256()
    digest.update(repr((settings.STORAGES["staticfiles"], settings.STATIC_URL)).encode())
    config = cast(StaticFilesConfig, apps.get_app_config("staticfiles"))
    ignore = list(config.ignore_patterns)
    found: list[tuple[str, str]] = []
    for finder in finders.get_finders():
        for path, storage in finder.list(ignore):
            prefix = getattr(storage, "prefix", None)
            found.append((os.path.join(prefix, path) if prefix else path, storage.path(path)))
    for name, source in sorted(found):
        digest.update(name.encode() + b"\0")
        digest.update(hashlib.sha256(Path(source).read_bytes()).digest())
    return digest.hexdigest()[:16]


class _CollectInto(collectstatic.Command):
    """``collectstatic`` into ``storage`` rather than the one the settings name."""

    def __init__(self, storage: Storage, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.storage = storage


def static_collect(directory: Path) -> None:
    """Every static file collected into ``directory`` by the settings' storage (hashed
    names and compressed copies in production), as ``collectstatic`` does."""
    params: dict[str, Any] = dict(settings.STORAGES["staticfiles"])
    options: dict[str, Any] = {**params.get("OPTIONS", {}), "location": str(directory)}
    storage = storages.create_storage({**params, "OPTIONS": options})
    call_command(_CollectInto(storage), interactive=False, verbosity=0)


def static_publish() -> Path | None:
    """Publish the static files at ``STATIC_ROOT`` (module docstring): the collection's
    directory when this call made or linked it, None when it was published already. The
    collections of other fingerprints are deleted (a running server reads through the
    link, so only the published one is ever read); a ``STATIC_ROOT`` that is a directory
    (collected in place before) makes way for the link."""
    root = static_root()
    collection = root.parent / f".{root.name}-{static_fingerprint()}"
    with file_lock(root.parent / f".{root.name}.lock"):
        if root.is_symlink() and os.readlink(root) == collection.name and collection.is_dir():
            return None
        if not collection.is_dir():
            building = collection.with_name(f"{collection.name}.building")
            shutil.rmtree(building, ignore_errors=True)
            static_collect(building)
            building.rename(collection)  # whole, or not there at all
        link = root.with_name(f".{root.name}.link")
        link.unlink(missing_ok=True)
        link.symlink_to(collection.name)
        if root.is_dir() and not root.is_symlink():
            root.rename(root.with_name(f".{root.name}-in-place"))
        link.replace(root)  # one rename: the old collection or the new one, never neither
        for other in root.parent.glob(f".{root.name}-*"):
            if other != collection:
                shutil.rmtree(other, ignore_errors=True)
    return collection
