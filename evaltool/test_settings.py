"""The test suite's settings: the app's own (DEBUG off, as in production, with a secret of
its own), and the queue's jobs computed where they are
queued (``django-tasks``' immediate backend), so a test that imports a corpus reads its
figures at once. The tests of the queue itself switch to the jobs' own backend and real
worker processes (``annotation/tests/jobs/``), as do those that show a job's progress."""

from evaltool.settings import *  # noqa: F403

SECRET_KEY = "test-only-secret-key"  # noqa: S105 (the tests' own, signs nothing real)
# The static files as they are in the checkout (no collected manifest): the tests that
# serve the collected files run make serve itself (evaltool/tests/test_serve.py).
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Nothing is collected for the tests (the live server serves the checkout's static files
# itself; the tests of make serve collect into a directory of their own), so WhiteNoise
# looks for no collected directory.
STATIC_ROOT = None

TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
#: A job scores in the test's own process: the suite's workers keep every core busy
#: already (the scoring split over processes has its own tests, in
#: ``annotation/tests/statistics/test_shares.py``, which set this themselves).
EVALTOOL_SCORING_PROCESSES = 1
#: A small bootstrap: the figures' tests and intervals are drawn as in production, from
#: fewer samples. The tests of the bootstrap itself draw sacreBLEU's 1,000 (the
#: ``full_bootstrap`` fixture of ``annotation/tests/conftest.py``).
EVALTOOL_BOOTSTRAP_SAMPLES = 100

#: The jobs' own backend, as in production, for the tests that need a job to wait for a
#: worker.
QUEUED_TASKS = {"default": {"BACKEND": "annotation.jobs.backend.JobBackend"}}

#: The figures' store (``annotation.statistics.shared``) in the test's own process, as
#: ``forget()`` empties it with the process's memory before every test: whatever
#: ``CACHE_URL`` says. The tests of the store itself run app processes with the app's own
#: settings, on the database's table and on Redis (``annotation/tests/statistics/
#: test_shared.py``).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    }
}
