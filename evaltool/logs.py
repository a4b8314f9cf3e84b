"""Where the app's log goes: standard error, the stream of the moment.

gunicorn's error log is its standard error in ``make serve`` (``--error-logfile -``), a
worker's is the terminal or the service manager's journal. Django alone sends the
traceback of a 500 to the site's admins by mail when ``DEBUG`` is off, and nowhere
else: a 500 left an access-log line and no trace (issue 36). The settings' ``LOGGING``
sends it, and every warning and error, here.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from annotation.campaigns.link_tokens import redact_link_tokens


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A ``StreamHandler`` that writes to ``sys.stderr`` as it is when a record comes,
    not as it was when logging was configured: a test runner or a server may replace the
    stream afterwards (as :data:`logging.lastResort` does)."""

    def __init__(self, level: int = logging.NOTSET) -> None:
        logging.Handler.__init__(self, level)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        """``StreamHandler.setStream`` has nothing to set: the stream is always stderr's."""


class LinkTokenFilter(logging.Filter):
    """Cuts every per-annotator link's token to its hint in a record
    (:func:`~annotation.campaigns.link_tokens.redact_link_tokens`): its message, and its
    traceback's text. A token is a password in a URL; the log lines that name a path
    (Django's "Not Found: /a/…", a 500's "Internal Server Error: /a/…" and its
    traceback, django-axes' failures, gunicorn's access log) would keep it for whoever
    reads the logs. On a handler, it sees every record the handler writes, those that
    propagate from other loggers too; the record is changed for the handlers after it
    as well, which is the point."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact_link_tokens(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_link_tokens(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_link_tokens(record.stack_info)
        return True
