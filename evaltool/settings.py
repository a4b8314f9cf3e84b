"""Settings for evaltool.

SQLite (``db.sqlite3`` beside ``manage.py``) unless ``DATABASE_URL`` names another
database; ``DEBUG`` and ``SECRET_KEY`` come from the environment.
"""

from __future__ import annotations

import os
from pathlib import Path

from evaltool.env import parse_bool, parse_database_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = parse_bool("DEBUG", os.environ.get("DEBUG"), default=True)
_DEV_SECRET = "insecure-dev-key-only-for-local-use"
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set in the environment when DEBUG is false")
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
    "annotation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "annotation.User"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# The pinned htmx file in static/js; templates take its name from here.
HTMX_VERSION = "2.0.11"

# Largest evalTrans file a lead may upload through the browser (the command line has no limit).
EVALTOOL_MAX_UPLOAD_BYTES = int(os.environ.get("EVALTOOL_MAX_UPLOAD_BYTES", 50 * 1024 * 1024))

# Derived data that is expensive to compute and never changes for a stored corpus (the
# automatic metrics' per-segment statistics): kept on disk so every server process and
# restart reuses it. Keys carry the corpus and every preprocessing choice.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("EVALTOOL_CACHE_DIR", str(BASE_DIR / ".cache" / "evaltool")),
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }
}
