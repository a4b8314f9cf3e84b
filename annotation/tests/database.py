"""The suite's own test database on SQLite, migrated once for a whole parallel run.

pytest-django migrates a new database in every process of the run (``manage.py
migrate``'s 37 migrations: about 4 s of CPU each), and the tests with processes of their
own (workers, racing annotators) migrated a third, the file they copy theirs from
(:func:`~annotation.tests.jobs.workers.migrated_database`). Now the first process to
ask migrates its own database as pytest-django does and writes it to that file; every
other process copies the file into its database instead of migrating (SQLite's backup:
the same tables, rows and migration records, in milliseconds), and the process tests
copy it as before. It is migrated under the app's own cache setting, as ``manage.py
migrate`` would migrate it, so it has the figures' store's table the processes use (the
suite's own processes keep their figures in memory, and leave that table alone).

On PostgreSQL (``make test-postgres``) pytest-django's own setup is left as it is: each
process's database is made on the server, and a template copied by two processes at
once is refused.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from pytest_django.plugin import DjangoDbBlocker

from annotation.tests.jobs.workers import sqlite_template, whole


def run_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory of the whole run, which holds each process's: the run's migrated
    database is kept there."""
    directory = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        directory = directory.parent  # the run's, not this process's
    return directory


def copied_or_migrated(template: Path, verbosity: int) -> None:
    """The test database made as Django makes it (``create_test_db``), but for its
    tables and rows: copied from ``template`` if it exists, else migrated here and
    written to ``template`` for the other processes."""
    from django.conf import settings
    from django.db import connection
    from django.test import override_settings

    from evaltool import settings as app_settings

    if not template.exists():
        # the app's cache, not the suite's: its migrate makes the figures' store's table,
        # as manage.py migrate does, which the processes' copies need
        with override_settings(CACHES=app_settings.CACHES):
            connection.creation.create_test_db(
                verbosity=verbosity, autoclobber=True, serialize=False
            )
        with whole(template) as writing, closing(sqlite3.connect(writing)) as copy:
            connection.ensure_connection()
            connection.connection.backup(copy)
        return
    # create_test_db's first step, before its migrate (not in Django's stubs)
    creation: Any = connection.creation
    name = creation._create_test_db(verbosity, autoclobber=True, keepdb=False)
    connection.close()
    settings.DATABASES[connection.alias]["NAME"] = name
    connection.settings_dict["NAME"] = name
    connection.ensure_connection()
    with closing(sqlite3.connect(template)) as migrated:
        migrated.backup(connection.connection)


@pytest.fixture(scope="session")
def django_db_setup(
    request: pytest.FixtureRequest,
    django_test_environment: None,
    django_db_blocker: DjangoDbBlocker,
    django_db_modify_db_settings: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """pytest-django's fixture of the same name, its database copied from the run's
    migrated one (SQLite only: the root ``conftest.py`` uses it there)."""
    from django.db import connection

    verbosity = request.config.option.verbose
    original = connection.settings_dict["NAME"]
    with django_db_blocker.unblock(), sqlite_template(run_directory(tmp_path_factory)) as path:
        copied_or_migrated(path, max(verbosity, 0))
    yield
    with django_db_blocker.unblock():
        connection.creation.destroy_test_db(original, verbosity=max(verbosity, 0))
