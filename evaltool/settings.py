"""Settings for evaltool.

SQLite (``db.sqlite3`` beside ``manage.py``) unless ``DATABASE_URL`` names another
database; ``DEBUG``, ``SECRET_KEY``, the HTTPS settings and the shared cache come from
the environment (docs/operator.md's configuration table lists every variable).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import django_stubs_ext
from csp.constants import NONE, SELF

from annotation.limits import MAX_SYSTEMS, MAX_WORDS_PER_TEXT
from evaltool.env import (
    behind_proxy,
    forwarded_allow_ips,
    parse_bool,
    parse_cache_url,
    parse_database_url,
)

# Django's generic classes take their type arguments at run time too (ModelForm[Corpus],
# ModelAdmin[Judgment]), as django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

# numpy's BLAS (OpenBLAS) starts a thread per core in every process that imports it. An
# app server's processes (gunicorn's workers, the job workers, their scoring processes)
# already take a core each, so those threads only wait for each other, spinning: a
# sentence-level correlation's dot products cost 15 times their CPU, and the dashboard's
# first view after a judgment on 18,000 judgments twice its CPU (bench/judges.py). One
# thread per process, unless the operator sets another number. Set before anything
# imports numpy: Django reads the settings first.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Off unless set: a deployment that forgets it shows no tracebacks and no settings.
# ``make run`` sets it for the demo; the test suite has its own settings (test_settings).
DEBUG = parse_bool("DEBUG", os.environ.get("DEBUG"), default=False)
# Used only with DEBUG on (the demo on this machine), never to serve.
_DEV_SECRET = "insecure-dev-key-only-for-local-use"  # noqa: S105
# Required to serve (wsgi.py refuses to start without it when DEBUG is off); commands and
# workers, which sign nothing, run without it.
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET if DEBUG else "")
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if h.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "axes",
    "django_tasks",
    "annotation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files straight from the app (hashed names, compressed, cached forever):
    # no separate web server is needed in front of ``make serve``.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After the two above: they read request.user and request.htmx. The first ends a
    # session a per-annotator link opened once the link is revoked or expired, and keeps
    # a link's pages out of caches and Referers (annotation.campaigns.link_sessions).
    "annotation.campaigns.link_sessions.LinkSessionMiddleware",
    "annotation.web.OneTimePasswordMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "annotation.web.DatabaseBusyMiddleware",
    # Last, as django-axes requires: it answers a locked-out login before the view runs.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "evaltool.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "evaltool.context_processors.versions",
            ],
        },
    },
]

WSGI_APPLICATION = "evaltool.wsgi.application"

DATABASES = {
    "default": parse_database_url(
        os.environ.get("DATABASE_URL", "sqlite:///db.sqlite3"), base_dir=BASE_DIR
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where ``manage.py deploy`` (which ``make serve`` runs) publishes the files: a link to the
# collection beside it (annotation.deployment), the checkout's ``staticfiles`` unless set
# (the tests that run ``make serve`` publish into a temporary directory of their own, so
# the checkout stays as it is).
STATIC_ROOT: Path | None = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# In production the files are collected with hashed names (``manage.py deploy``, which
# ``make serve`` runs), so browsers may cache them forever; in development and tests they
# are served as they are.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "annotation.User"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# The pinned htmx file in static/js; templates take its name from here.
HTMX_VERSION = "2.0.11"
# The pinned morph swap of the judge's page: idiomorph's htmx extension, copied unmodified
# from the npm package idiomorph (dist/idiomorph-ext.min.js, 0BSD licence beside it).
IDIOMORPH_VERSION = "0.8.0"

# Largest evalTrans file a lead may upload through the browser (the command line has no limit).
EVALTOOL_MAX_UPLOAD_BYTES = int(os.environ.get("EVALTOOL_MAX_UPLOAD_BYTES", 50 * 1024 * 1024))
# The work an upload may ask for, on the page and the command line alike (annotation.limits):
# more systems in a corpus, or more words in a text, is refused before anything is stored.
EVALTOOL_MAX_SYSTEMS = int(os.environ.get("EVALTOOL_MAX_SYSTEMS", MAX_SYSTEMS))
EVALTOOL_MAX_WORDS_PER_TEXT = int(os.environ.get("EVALTOOL_MAX_WORDS_PER_TEXT", MAX_WORDS_PER_TEXT))

# The task queue (annotation.jobs): Django's Tasks API, whose backend is the jobs' own
# table, so a job has one record and a worker needs only the database (``manage.py
# worker``, on any machine that reaches it).
TASKS = {"default": {"BACKEND": "annotation.jobs.backend.JobBackend"}}
# How long a worker's claim on a job holds without its heartbeat (every third of it): also
# how long a job waits before another worker takes it over when its worker was killed.
EVALTOOL_JOB_LEASE_SECONDS = float(os.environ.get("EVALTOOL_JOB_LEASE_SECONDS", 60))
# Processes a worker scores one preprocessing choice with (its groups of metrics at once).
EVALTOOL_SCORING_PROCESSES = int(os.environ.get("EVALTOOL_SCORING_PROCESSES", 2))
# How much a worker lowers its CPU priority (nice): where workers share a machine with app
# servers, the judges' requests come first and the long work takes what is left.
EVALTOOL_WORKER_NICE = int(os.environ.get("EVALTOOL_WORKER_NICE", 19))
# The paired bootstrap's samples behind every figure's test and interval
# (annotation.statistics.paired_bootstrap): sacreBLEU's 1,000.
EVALTOOL_BOOTSTRAP_SAMPLES = 1000

# The python of the COMET environment (annotation.comet: unbabel-comet needs numpy<2, so it
# has an environment of its own). The default is where ``make comet`` makes it: a cache
# directory outside the checkout, shared by the machine's clones (the Makefile's COMET_VENV).
EVALTOOL_COMET_PYTHON = os.environ.get("EVALTOOL_COMET_PYTHON") or str(
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "evaltool"
    / "comet-venv"
    / "bin"
    / "python"
)

# Django's cache framework: where the figures derived from the judgments are kept for
# every app server and each of its workers (annotation.statistics.shared), computed once
# per change by whichever gets there first. Redis with CACHE_URL=redis://host:6379/0,
# else a table of the database. Nothing else is kept there (the statistics, sessions and
# login throttling are in the database), and a store that goes away costs speed only.
CACHES = {"default": parse_cache_url(os.environ.get("CACHE_URL", ""))}
# After the store failed to answer, each process computes its figures alone this long
# (seconds) before asking it again (a warning says so, at most once a minute).
EVALTOOL_CACHE_RETRY_SECONDS = 10.0

# --- logging ------------------------------------------------------------------------------
# Every warning and error to standard error, an unhandled exception with its traceback:
# Django's 500s (django.request), the app's own and the workers' (a job that failed), in
# production as in the demo. Django alone mails a 500 to the admins when DEBUG is off and
# writes it nowhere (issue 36); gunicorn's error log is its standard error in make serve.
# The app's own loggers (annotation.*) say what a worker does, at INFO.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        # gunicorn's own error-log lines: [time] [pid] [LEVEL] message
        "plain": {"format": "[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s: %(message)s"},
    },
    # A per-annotator link's token is cut to its hint in every line written (its path
    # /a/<token>/ is in "Not Found" lines, a 500's, django-axes' failures).
    "filters": {"link_tokens": {"()": "evaltool.logs.LinkTokenFilter"}},
    "handlers": {
        "stderr": {
            "class": "evaltool.logs.StderrHandler",
            "formatter": "plain",
            "filters": ["link_tokens"],
        }
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # Django's own handlers (a console only with DEBUG on, mail to the admins) replaced.
        "django": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "annotation": {"level": "INFO"},
    },
}

# --- HTTPS and security headers -------------------------------------------------------
# Behind HTTPS (EVALTOOL_HTTPS=true): redirect plain HTTP, send cookies only over HTTPS,
# and tell browsers to insist on HTTPS (HSTS). EVALTOOL_BEHIND_PROXY=true trusts the
# X-Forwarded-Proto and X-Forwarded-For of the proxies of FORWARDED_ALLOW_IPS (set it only
# behind a proxy that sets them).
HTTPS = parse_bool("EVALTOOL_HTTPS", os.environ.get("EVALTOOL_HTTPS"), default=False)
BEHIND_PROXY = behind_proxy()
# The proxies whose X-Forwarded-For is believed (evaltool.security.client_ip), as gunicorn's.
FORWARDED_ALLOW_IPS = forwarded_allow_ips()
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
# Django's database sessions, read by a query compiled once per process (annotation.sessions).
SESSION_ENGINE = "annotation.sessions"
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("EVALTOOL_HSTS_SECONDS", 31_536_000)) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = parse_bool(
    "EVALTOOL_HSTS_PRELOAD", os.environ.get("EVALTOOL_HSTS_PRELOAD"), default=HTTPS
)
# No SECURE_PROXY_SSL_HEADER: Django would read X-Forwarded-Proto from any peer that
# sends it. gunicorn (make serve) reads it from the peers of --forwarded-allow-ips only and
# gives the scheme it believes as wsgi.url_scheme, which request.is_secure() then reads.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Only the app's own scripts, styles and images; no inline script or style, no eval
# (htmx runs with allowEval off and without its injected indicator styles, base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# --- login throttling (django-axes) -------------------------------------------------------
# After AXES_FAILURE_LIMIT failed logins for one account, or from one address, further
# attempts are answered 429 "too many attempts" until the cool-off has passed. The state
# is in the database, so every app server sees the same counts.
AXES_FAILURE_LIMIT = int(os.environ.get("EVALTOOL_LOGIN_FAILURES", 5))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("EVALTOOL_LOGIN_COOLOFF_MINUTES", 15)))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
# A success clears the failures of the account that logged in, and only those: not the
# address's, which another account's login would otherwise wipe (issue 36).
AXES_RESET_ON_SUCCESS = True
AXES_HANDLER = "evaltool.security.AccountScopedAxesHandler"
AXES_LOCKOUT_CALLABLE = "evaltool.security.lockout_response"
AXES_CLIENT_IP_CALLABLE = "evaltool.security.client_ip"
AXES_USERNAME_CALLABLE = "evaltool.security.client_username"
# django-axes' default, named here as client_username reads it.
AXES_USERNAME_FORM_FIELD = "username"
AXES_VERBOSE = False
