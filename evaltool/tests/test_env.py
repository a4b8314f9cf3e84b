"""Settings read from the environment: strict booleans and database URLs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from evaltool.env import (
    SQLITE_OPTIONS,
    forwarded_allow_ips,
    parse_bool,
    parse_cache_url,
    parse_database_url,
    proxy_networks,
)

ROOT = Path(__file__).resolve().parents[2]

BASE = Path("/srv/evaltool")


@pytest.mark.parametrize(
    "value, expected",
    [
        ("False", False),
        ("false", False),
        ("0", False),
        ("no", False),
        ("", False),
        ("True", True),
        ("1", True),
        ("yes", True),
        (" on ", True),
        (None, True),
    ],
)
def test_debug_words_mean_what_they_say(value: str | None, expected: bool) -> None:
    assert parse_bool("DEBUG", value, default=True) is expected


def test_an_unknown_debug_word_is_an_error_not_true() -> None:
    with pytest.raises(ValueError, match="DEBUG='Flase' is not a boolean"):
        parse_bool("DEBUG", "Flase", default=False)


@pytest.mark.parametrize(
    "url, expected",
    [
        (
            "sqlite:///db.sqlite3",
            {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": BASE / "db.sqlite3",
                "OPTIONS": SQLITE_OPTIONS,
            },
        ),
        (
            "sqlite:////tmp/x.db",
            {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": Path("/tmp/x.db"),  # noqa: S108 (parsed only, no file is made)
                "OPTIONS": SQLITE_OPTIONS,
            },
        ),
        (
            "postgres://postgres@127.0.0.1:5432/evaltool",
            {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": "evaltool",
                "USER": "postgres",
                "PASSWORD": "",
                "HOST": "127.0.0.1",
                "PORT": "5432",
                "CONN_MAX_AGE": 600,
                "CONN_HEALTH_CHECKS": True,
            },
        ),
        (
            "postgresql://u%40x:p%2Fw@db.example/evaltool",
            {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": "evaltool",
                "USER": "u@x",
                "PASSWORD": "p/w",
                "HOST": "db.example",
                "PORT": "",
                "CONN_MAX_AGE": 600,
                "CONN_HEALTH_CHECKS": True,
            },
        ),
    ],
)
def test_database_url_selects_the_database(url: str, expected: dict[str, object]) -> None:
    assert parse_database_url(url, base_dir=BASE) == expected


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://x/y", "scheme 'mysql' is not supported"),
        ("postgres://host/", "names no database"),
        ("sqlite://", "names no SQLite file"),
    ],
)
def test_a_database_url_we_do_not_understand_stops_the_app(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_database_url(url, base_dir=BASE)


def test_without_cache_url_the_figures_are_shared_in_a_table_of_the_database() -> None:
    """Every app server reaches the database: the figures one computed, the others read
    there (annotation.statistics.shared), for a day each."""
    cache = parse_cache_url("")
    assert cache["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    assert cache["LOCATION"] == "evaltool_cache"
    assert cache["TIMEOUT"] == 24 * 3600


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://cache.example:6380/1"])
def test_a_redis_cache_url_shares_one_cache(url: str) -> None:
    """A Redis that does not answer holds a request up for seconds at most, never for the
    client's default retries (the figures are then computed in the process)."""
    cache = parse_cache_url(url)
    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert cache["LOCATION"] == url
    assert cache["TIMEOUT"] == 24 * 3600
    assert cache["OPTIONS"]["socket_connect_timeout"] <= 1
    assert cache["OPTIONS"]["socket_timeout"] <= 5


def test_an_unknown_cache_url_stops_the_app() -> None:
    with pytest.raises(ValueError, match="memcached"):
        parse_cache_url("memcached://127.0.0.1:11211")


def test_forwarded_allow_ips_are_read_as_gunicorn_reads_them() -> None:
    assert proxy_networks("") == ()
    assert proxy_networks("*") is None
    assert [str(n) for n in proxy_networks("127.0.0.1, ::1,10.0.0.0/8") or ()] == [
        "127.0.0.1/32",
        "::1/128",
        "10.0.0.0/8",
    ]


def test_forwarded_allow_ips_that_gunicorn_would_refuse_stop_the_app() -> None:
    """Issue 36, point 8b: the app believes ``X-Forwarded-For`` from these addresses only,
    so a value it cannot read is no silent "nobody"."""
    environ = {"EVALTOOL_BEHIND_PROXY": "true", "FORWARDED_ALLOW_IPS": "10.0.0.1/8"}
    with pytest.raises(ValueError, match="FORWARDED_ALLOW_IPS='10.0.0.1/8': .*host bits set"):
        forwarded_allow_ips(environ)
    assert forwarded_allow_ips({**environ, "EVALTOOL_BEHIND_PROXY": "false"}) == ""


def test_sqlite_writes_in_wal_mode_and_waits_for_a_lock_before_giving_up() -> None:
    assert "journal_mode=WAL" in SQLITE_OPTIONS["init_command"]
    assert SQLITE_OPTIONS["timeout"] > 0
    assert SQLITE_OPTIONS["transaction_mode"] == "IMMEDIATE"


def test_debug_is_off_unless_set_and_a_server_will_not_start_without_a_secret() -> None:
    """A deployment that sets nothing gets DEBUG off; its server then refuses to start
    without SECRET_KEY (sessions and forms are signed with it), while a command runs."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DEBUG", "SECRET_KEY"))
    }
    env["DATABASE_URL"] = "sqlite:///:memory:"
    settings = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import "
            "settings; print(settings.DEBUG)",
        ],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "evaltool.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert settings.stdout.strip() == "False"
    server = subprocess.run(
        [sys.executable, "-c", "import evaltool.wsgi"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert server.returncode != 0
    assert "ImproperlyConfigured: The SECRET_KEY setting must not be empty." in server.stderr


def test_numpy_computes_in_one_thread_per_process() -> None:
    """Every process of the app (a server's worker, a job worker, a command) has numpy's
    BLAS run in its own thread: its processes already take a core each, and BLAS threads
    on top of them spin waiting for each other (the dashboard's correlations cost many
    times their CPU). An operator's own OPENBLAS_NUM_THREADS is kept."""
    blas_threads = (
        "import django; django.setup(); import ctypes, numpy; from pathlib import Path; "
        "lib = next((Path(numpy.__file__).parent.parent / 'numpy.libs').glob('*openblas*')); "
        "print(ctypes.CDLL(str(lib)).scipy_openblas_get_num_threads64_())"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env.update(DATABASE_URL="sqlite:///:memory:", DJANGO_SETTINGS_MODULE="evaltool.settings")

    def threads(**extra: str) -> str:
        run = subprocess.run(
            [sys.executable, "-c", blas_threads],
            cwd=ROOT,
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
        )
        return run.stdout.strip()

    assert threads() == "1"
    assert threads(OPENBLAS_NUM_THREADS="2") == "2"


def test_a_server_freezes_what_it_loaded_out_of_the_garbage_collectors_walks() -> None:
    """A server's worker keeps every module it loaded to start for as long as it runs:
    the cyclic garbage collector's full collections (a dashboard view after a judgment
    triggers one) leave those objects out, and walk only what its requests made."""
    env = {**os.environ, "DATABASE_URL": "sqlite:///:memory:", "SECRET_KEY": "test-only"}
    frozen = "import gc, evaltool.wsgi; print(gc.get_freeze_count())"
    out = subprocess.check_output([sys.executable, "-c", frozen], cwd=ROOT, env=env, text=True)
    assert int(out.strip().splitlines()[-1]) > 10_000


def test_a_server_collects_its_young_objects_after_ten_thousand_allocations() -> None:
    """A dashboard view's short-lived figures die before the collector's youngest
    generation is walked, rather than move to the older ones and trigger a full
    collection: the youngest generation is collected every 10,000 allocations, not 700."""
    env = {**os.environ, "DATABASE_URL": "sqlite:///:memory:", "SECRET_KEY": "test-only"}
    young = "import gc, evaltool.wsgi; print(*gc.get_threshold())"
    out = subprocess.check_output([sys.executable, "-c", young], cwd=ROOT, env=env, text=True)
    assert out.strip().splitlines()[-1].split() == ["10000", "10", "10"]
