"""The whole suite's order and groups, for its parallel run (``make test``: pytest-xdist
with ``--dist loadgroup``, which hands the tests to its workers in the order collected,
each worker taking the next test as it finishes one, and the tests of one
``xdist_group`` to one worker together).

**Order.** Collected in folder order, the suite ended with the real worker processes,
the 50,000-sentence writer and the layout tests: one worker ran the last of them long
after the other had run out of tests. Within each of pytest-django's three parts (tests
in a transaction, tests that flush the database, tests without one: Django's own order,
which keeps a flush from taking the rows of the first part's tests), the modules with a
test marked ``slow`` or ``browser`` (seconds to a minute each) now come first, and the
short tests after them fill the workers evenly to the end.

**Groups.** xdist names a test's group in its node id (``…@make-serve``), which its
3.8 release writes where pytest 9.2 no longer reads it (pytest-xdist issue 1386): every
group's tests were spread over the workers, each worker starting its own ``make serve``
and building its own COMET model. :func:`name_groups` writes it where pytest reads it.
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


def name_groups(items: list[pytest.Item]) -> None:
    """Each test of an ``xdist_group`` named ``<node id>@<group>``, as xdist's own
    ``pytest_collection_modifyitems`` means to (its scheduler groups the tests by that
    suffix), in the structured node id pytest 9.2 reads; left alone where that hook's
    suffix took (an older pytest, which has no structured node id)."""
    try:
        from _pytest.nodeid import NodeId
    except ImportError:
        return
    for item in items:
        groups = sorted(
            {
                str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                for m in item.iter_markers("xdist_group")
            }
        )
        if groups and "@" not in item.nodeid.rsplit("]", 1)[-1] and hasattr(item, "_id"):
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(groups)}")


@pytest.hookimpl(trylast=True)  # after pytest-django's order, and the browser tests' marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    long_modules = {
        module_of(item) for item in items if any(item.get_closest_marker(m) for m in LONG)
    }
    # stable: each part's order otherwise as it was
    items.sort(key=lambda item: (database_part(item), module_of(item) not in long_modules))
    if getattr(config.option, "loadgroup", False):  # set on xdist's workers
        name_groups(items)
