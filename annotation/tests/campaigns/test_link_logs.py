"""A link's token is in no line the app logs (Django's "Not Found" and 500 lines with the
traceback, django-axes' failures, anything logged with the path): the settings' LOGGING
writes it cut to its hint. Read from standard error, where LOGGING writes, as a
deployment's log has it (gunicorn's own logs: ``evaltool/tests/test_serve.py``)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client

from annotation.campaigns.link_tokens import REDACTED
from annotation.campaigns.links import links_create
from annotation.corpora.imports import corpus_import
from annotation.models import User
from annotation.tests.factories import SEED_XML

pytestmark = pytest.mark.django_db

UNKNOWN = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde"


@pytest.fixture
def token(user_factory: Callable[..., User]) -> str:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    ana = user_factory("ana")
    corpus.judges.add(ana)
    (new,) = links_create(campaign=corpus.campaign, users=[ana])
    return new.token


def test_an_unknown_links_not_found_lines_name_its_hint_only(
    client: Client, capsys: pytest.CaptureFixture[str]
) -> None:
    assert client.get(f"/a/{UNKNOWN}/").status_code == 404

    log = capsys.readouterr().err
    assert f"[WARNING] django.request: Not Found: /a/AbCdEf{REDACTED}/" in log
    assert f'path_info: "/a/AbCdEf{REDACTED}/"' in log  # django-axes' failure
    assert UNKNOWN[6:] not in log


def test_a_500_on_a_links_url_logs_its_traceback_and_the_hint_only(
    token: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The login throttling's table gone for the moment (renamed away in the test's
    transaction): opening the link fails inside the app, with the app's 500 page."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE axes_accessattempt RENAME TO axes_accessattempt_away")

    response = Client(raise_request_exception=False).get(f"/a/{token}/")

    log = capsys.readouterr().err
    assert response.status_code == 500
    assert f"[ERROR] django.request: Internal Server Error: /a/{token[:6]}{REDACTED}/" in log
    assert "Traceback (most recent call last):" in log
    assert token not in log
    assert token[6:] not in log


def test_a_token_in_any_message_or_traceback_is_cut(capsys: pytest.CaptureFixture[str]) -> None:
    logger = logging.getLogger("annotation.campaigns")
    try:
        raise ValueError(f"cannot open /a/{UNKNOWN}/")
    except ValueError:
        logger.exception("while opening %s", f"http://x/a/{UNKNOWN}/")

    log = capsys.readouterr().err
    assert f"while opening http://x/a/AbCdEf{REDACTED}/" in log
    assert f"ValueError: cannot open /a/AbCdEf{REDACTED}/" in log
    assert UNKNOWN[6:] not in log
