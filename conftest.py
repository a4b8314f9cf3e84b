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

**Cost.** Among those, the modules whose cost was measured (:data:`KNOWN_COST`) come
first, the costliest first, then the other long ones: a worker given a minute-long test
near the end leaves the other idle meanwhile. The tests of statistical coverage in
``metrics/tests`` (thousands of simulated campaigns each, seconds of CPU) are marked
neither ``slow`` nor ``browser`` (``make test-fast`` runs them), and sat in the middle of
the last part, among its short tests; they too come first in their part now.

**Groups.** xdist names a test's group in its node id (``…@make-serve``), which its
3.8 release writes where pytest 9.2 no longer reads it (pytest-xdist issue 1386): every
group's tests were spread over the workers, each worker starting its own ``make serve``
and building its own COMET model. :func:`name_groups` writes it where pytest reads it.
"""

from __future__ import annotations

import os

import pytest

from evaltool.tests.private_postgres import private_server  # noqa: F401  (shared by modules)

if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
    # the test database of each process copied from the run's, migrated once
    from annotation.tests.database import django_db_setup  # noqa: F401

#: The marks of the tests that take seconds or more each.
LONG = ("slow", "browser")

#: The seconds the costliest modules' tests took, each module run alone with
#: ``--durations`` on a 2-core machine busy with other work (figures to order by, not to
#: compare with a run's): the order within each part of the suite, the costliest first.
#: A module not named here that has a long test (:data:`LONG`) comes after these.
KNOWN_COST = {
    "metrics/tests/test_annotators.py": 106,
    "annotation/tests/jobs/test_workers.py": 98,
    "annotation/tests/test_browser_accessibility.py": 97,
    "metrics/tests/test_estimate.py": 92,
    "annotation/tests/statistics/test_shared.py": 82,
    "annotation/tests/dashboard/test_views.py": 61,
    "metrics/tests/test_cli_significance.py": 47,
    "metrics/tests/test_peer_reading.py": 25,
    "metrics/tests/test_segment.py": 24,
    "metrics/tests/test_simulate.py": 20,
    "metrics/tests/test_meteor.py": 15,
    "evaltool/tests/test_env.py": 14,
    "metrics/tests/test_cli_repeats_and_pipes.py": 11,
    "metrics/tests/test_wordnet.py": 10,
    "metrics/tests/test_align.py": 9,
}


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


def cost_rank(module: str, long_modules: set[str]) -> tuple[int, float]:
    """Where ``module``'s tests go within their part: the known costly modules first, the
    costliest first (:data:`KNOWN_COST`), then the other modules with a long test, then
    the rest."""
    if module in KNOWN_COST:
        return 0, -KNOWN_COST[module]
    return (1 if module in long_modules else 2), 0.0


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
    items.sort(key=lambda item: (database_part(item), *cost_rank(module_of(item), long_modules)))
    if getattr(config.option, "loadgroup", False):  # set on xdist's workers
        name_groups(items)
