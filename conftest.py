"""The whole suite's order, for its parallel run (``make test``: pytest-xdist with
``--dist loadgroup``, which hands the tests to its workers in the order collected, each
taking the next as it finishes one).

Collected in folder order, the suite ended with its longest tests (the accessibility
audit, the judge pages' walks in Chromium): one worker ran the last of them long after
the other had run out of tests. Within each of pytest-django's three parts (tests in a
transaction, tests that flush the database, tests without one: Django's own order,
which keeps a flush from taking the rows of the first part's tests), the modules with a
test marked ``slow`` or ``browser`` (seconds to a minute each) now come first, and the
short tests after them fill the workers evenly to the end.
"""

from __future__ import annotations

import pytest

#: The marks of the tests that take seconds or more each.
LONG = ("slow", "browser")


def module_of(item: pytest.Item) -> str:
    """The file the test is in."""
    return item.nodeid.split("::", 1)[0]


def database_part(item: pytest.Item) -> int:
    """pytest-django's part of the suite the test is in (``pytest_django.plugin``'s
    ``pytest_collection_modifyitems``): 0, in a transaction; 1, flushing the database
    (``transaction=True``, the live server); 2, without a database."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    if "live_server" in fixtures or "transactional_db" in fixtures:
        return 1
    if marker is not None and (
        marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")
    ):
        return 1
    return 0 if marker is not None or "db" in fixtures else 2


@pytest.hookimpl(trylast=True)  # after pytest-django's order, and the browser tests' marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    long_modules = {
        module_of(item) for item in items if any(item.get_closest_marker(m) for m in LONG)
    }
    # stable: each part's order otherwise as it was
    items.sort(key=lambda item: (database_part(item), module_of(item) not in long_modules))
